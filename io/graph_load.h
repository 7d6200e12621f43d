/* graph_load.h — the format dispatch behind coarsen_graph_load, on text
 * already in memory (used by the fuzz target and the benchmarks). */
#ifndef IO_GRAPH_LOAD_H
#define IO_GRAPH_LOAD_H

#include "coarsen.h"
#include "io/text_input.h"

/* ParHIP binary when t holds its header or is named .parhip/.bgf (io/parhip_read.h),
 * Matrix Market when t starts with the banner, METIS otherwise. Fills report
 * (may be NULL) including report->bytes. The caller owns *out. */
int graph_load_text(text_input *t, coarsen_graph **out, coarsen_read_report *report, coarsen_error *err);

#endif
