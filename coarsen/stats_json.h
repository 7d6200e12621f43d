/* stats_json.h — the statistics of a built hierarchy as one JSON object:
 * the stats.json of `coarsen --out DIR` and the output of `coarsen --json`. */
#ifndef COARSEN_STATS_JSON_H
#define COARSEN_STATS_JSON_H

#include "coarsen.h"
#include "coarsen/hierarchy_write.h"
#include "io/output_file.h"

/* The files a run wrote into its output folder, by name, in order. */
typedef struct stats_json_files {
    const char *const *names;
    int count;
} stats_json_files;

/* Writes the object (one key per line) to f: version, device, command line,
 * input, the CPU threads, what the reader did ("reader"), the hierarchy's
 * options, the output ("output": format, gzip, weight scale, level 0
 * written or not, the files), stop reason, totals and one entry per level
 * (level 0 = input). run (NULL: a library call, no run around it) supplies
 * input, command_line, reader (each may be NULL: null), transversal (adds a
 * "transversal" object: kind, shape, structural rank, diagonal entries
 * before and after) and phases (adds the run's phase split); files (NULL:
 * no output folder, "output": null) the names written. */
void stats_json_write(output_file *f, const coarsen_hierarchy *h, const hierarchy_write_opts *run,
                      const stats_json_files *files);

#endif
