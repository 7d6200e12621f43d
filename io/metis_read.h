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

/* The header line (docs/formats.md). */
typedef struct metis_header {
    int64_t n, m, ncon;
    int vsize, has_vwgt, has_ewgt;
    char fmt[4];
} metis_header;

/* Reads the text t (parsing it while it is inflated when it is a gzip
 * stream); fills report (may be NULL) except report->bytes. */
int metis_read_graph_text(text_input *t, coarsen_graph **out, coarsen_read_report *report, coarsen_error *err);

/* The pieces of metis_read_graph_text that coarsen-mpi's per-rank reading
 * (dist/read.h) runs on its own share of the text.
 * metis_read_header: finds and parses t's header [out: *h], checks it against
 * the text's size; *body [out]: the first byte after the header line,
 * *end [out]: the end of the text (t complete: not a stream), *header_line
 * [out]: its number. Errors as metis_read_graph_text's. */
int metis_read_header(text_input *t, metis_header *h, const char **body, const char **end, int64_t *header_line,
                      coarsen_error *err);
/* Parses the whole lines [begin, end) of t, whose first line is number
 * first_line and whose first vertex line (non-comment) is vertex
 * first_vertex, into g [in/out: allocated by the caller with one row per
 * vertex line below h->n in the range; its adjacency is replaced]: rows as
 * stored, neighbour ids 0-based and global, self-loops dropped. *entries,
 * *loops [out]: the entries as stored and the self-loops among them. Lines
 * past vertex h->n must be blank. The counts against the header, row order
 * and symmetry are the caller's to check. */
int metis_read_block(const text_input *t, const metis_header *h, const char *begin, const char *end,
                     int64_t first_line, int64_t first_vertex, coarsen_graph *g, int64_t *entries, int64_t *loops,
                     coarsen_error *err);
/* The reader's report of a METIS file of these counts (times and bytes aside). */
void metis_report(const metis_header *h, int64_t entries, int64_t loops, coarsen_read_report *report);

#ifdef __cplusplus
}
#endif
#endif
