/* metis_read.h — the METIS graph reader. Header "n m [fmt [ncon]]" with fmt
 * 0, 1, 10, 11 (vertex sizes, fmt 100+, are refused); the first of ncon
 * vertex weights is kept. Validated like METIS's own checker: neighbours in
 * range, 2m entries, symmetric adjacency with equal weights, no duplicate
 * neighbours (an error, as in METIS); self-loops are dropped and counted.
 * Input errors are one line "FILE:LINE: what is wrong". */
#ifndef IO_METIS_READ_H
#define IO_METIS_READ_H

#include "coarsen.h"
#include "io/text_input.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Reads the text t (parsing it while it is inflated when it is a gzip
 * stream); fills report (may be NULL) except report->bytes. */
int metis_read_graph_text(text_input *t, coarsen_graph **out, coarsen_read_report *report, coarsen_error *err);

#ifdef __cplusplus
}
#endif
#endif
