/* run_phases.h — where the wall time of one `coarsen` run went, phase by
 * phase: read (inflate, parse, build), upload, levels, download, format,
 * compress, write. Printed on stderr at the end of a run and recorded in
 * stats.json as "phases". Times in milliseconds; inflating runs in a thread
 * of its own beside parsing, so read_ms is not the sum of its parts. */
#ifndef COARSEN_RUN_PHASES_H
#define COARSEN_RUN_PHASES_H

#include <stdio.h>

#include "coarsen.h"
#include "io/output_file.h"

typedef struct run_phases {
    double read_ms;      /* the file to the CSR graph, all of it */
    double inflate_ms;   /* gzip only: inflating (io/text_input.h) */
    double parse_ms;     /* text to entries or rows */
    double build_ms;     /* entries or rows to the checked CSR graph */
    double device_ms;    /* waiting for the GPU's start-up after reading (0 when hidden) */
    double upload_ms;    /* the input graph to the GPU */
    double levels_ms;    /* matching and contraction of every level */
    double download_ms;  /* levels and maps back to the host */
    double format_ms;    /* numbers to text (io/output_file.h's totals) */
    double compress_ms;  /* gzip members, in parallel */
    double write_ms;     /* write(2), close(2), rename(2) */
    double wall_ms;      /* the whole run, from start to the last file */
} run_phases;

/* "coarsen: time: read ... ms (...), upload ..., ..." on f, one line. */
void run_phases_print(FILE *f, const run_phases *p);
/* The "phases" object's value, {"read_ms": ..., ...}, on one line. */
void run_phases_json(output_file *f, const run_phases *p);

#endif
