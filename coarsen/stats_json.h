/* stats_json.h — the statistics of a built hierarchy as one JSON object:
 * the stats.json of `coarsen --out DIR` and the output of `coarsen --json`. */
#ifndef COARSEN_STATS_JSON_H
#define COARSEN_STATS_JSON_H

#include "coarsen.h"
#include "coarsen/run_phases.h"
#include "coarsen/transversal_graph.h"
#include "io/output_file.h"

/* Writes the object (one key per line) to f: version, device, command line,
 * input, options, stop reason, totals and one entry per level (level 0 =
 * input). input and command_line may be NULL; t (NULL without --transversal)
 * adds a "transversal" object: kind, shape, structural rank, diagonal entries
 * before and after; phases (may be NULL) adds the run's phase split. */
void stats_json_write(output_file *f, const coarsen_hierarchy *h, const char *input, const char *command_line,
                      const transversal_info *t, const run_phases *phases);

#endif
