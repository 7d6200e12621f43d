/* mtx_read.h — the Matrix Market reader: the matrix as stored (COO, no graph
 * conversion, rectangular allowed: for the bipartite commands) and the square
 * matrix as an undirected graph (rules in docs/formats.md).
 *
 * Both accept `coordinate` (real, double, integer, pattern, complex; general,
 * symmetric, skew-symmetric, hermitian) and `array` (dense, column-major;
 * symmetric storage lists the lower triangle). Every input error is one line
 * "FILE:LINE: what is wrong" with status COARSEN_ERR_INPUT. */
#ifndef IO_MTX_READ_H
#define IO_MTX_READ_H

#include "coarsen.h"
#include "core/graph_build.h"
#include "io/text_input.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum mtx_field { MTX_REAL = 0, MTX_INTEGER, MTX_PATTERN, MTX_COMPLEX } mtx_field;
typedef enum mtx_symmetry { MTX_GENERAL = 0, MTX_SYMMETRIC, MTX_SKEW, MTX_HERMITIAN } mtx_symmetry;

/* The stored entries, 0-based, in file order. For complex files value[k] is
 * |z|; for pattern files it is 1. For array files every stored entry is
 * listed except zeros (a dense matrix has no explicit zeros). The caller
 * frees with mtx_coo_free. */
typedef struct mtx_coo {
    int64_t rows, cols;
    int64_t count;
    int32_t *i, *j;
    double *value;
    mtx_field field;
    mtx_symmetry symmetry;
    int is_array;
    int64_t size_line;   /* line number of the size line (for messages) */
} mtx_coo;

/* Reads the whole text t as a Matrix Market file. */
int mtx_read_coo_text(text_input *t, mtx_coo *out, coarsen_error *err);
/* Loads path (gzip by magic bytes, "-" = stdin) and reads it. bytes (may be
 * NULL) receives the uncompressed size. */
int mtx_read_coo(const char *path, mtx_coo *out, int64_t *bytes, coarsen_error *err);
void mtx_coo_free(mtx_coo *m);

/* The square matrix in t as an undirected graph; fills report (may be NULL)
 * except report->bytes. A rectangular matrix is an input error pointing at
 * `coarsen bipartite`. */
int mtx_read_graph_text(text_input *t, coarsen_graph **out, coarsen_read_report *report,
                        coarsen_error *err);

/* The pieces that coarsen-mpi's per-rank reading (dist/read.h) runs on its
 * own share of the text. mtx_read_head: the banner and the size line of t
 * into m [out: rows, cols, field, symmetry, is_array, size_line; no
 * entries], checked as mtx_read_coo_text checks them; *body [out]: a cursor
 * after the size line (its end: the text's end when t is complete);
 * *declared [out]: the entries of the size line (coordinate files). */
int mtx_read_head(text_input *t, mtx_coo *m, text_cursor *body, int64_t *declared, coarsen_error *err);
/* The entry lines of the coordinate file's whole lines [begin, end), whose
 * first line is number first_line, parsed and checked into m [in/out: the
 * header of mtx_read_head; its entries, file order, allocated here,
 * m->count of them]. */
int mtx_read_entries(const text_input *t, mtx_coo *m, const char *begin, const char *end, int64_t first_line,
                     coarsen_error *err);
/* mtx_read_coo_text's last check: the matrix's size against the text's. */
int mtx_check_shape(const text_input *t, const mtx_coo *m, coarsen_error *err);
/* The merge rules of m's graph (graph_build.h), and the reader's report of
 * the graph of m [in: header and m->count] with these counts (times and
 * bytes aside). */
void mtx_graph_opts(const mtx_coo *m, graph_build_opts *opts);
void mtx_graph_report(const mtx_coo *m, int64_t diagonal, int64_t duplicates, int64_t zero_edges,
                      coarsen_read_report *report);

/* 1 when the text starts with the Matrix Market banner "%%MatrixMarket". */
int mtx_has_banner(text_input *t);

#ifdef __cplusplus
}
#endif
#endif
