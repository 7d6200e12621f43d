/* coarsen.h — the public C API of libcoarsen: the graph type, error reporting,
 * loading and writing graphs, and building a coarsening hierarchy.
 *
 * Conventions (every module follows them):
 *  - Vertex ids are int32_t (0-based); edge offsets and counts are int64_t.
 *  - Edge weights are double: integer weights stay exact through any number of
 *    levels as long as every sum stays below 2^53; vertex weights are int64_t.
 *  - Functions that can fail return 0 on success and a non-zero coarsen_status
 *    on failure, with a one-line message in the caller's coarsen_error.
 *  - Memory: whoever receives a coarsen_graph* from an *_alloc / *_load /
 *    hierarchy call owns it and releases it with the matching *_free call.
 */
#ifndef COARSEN_H
#define COARSEN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define COARSEN_VERSION "0.1.0"

typedef enum coarsen_status {
    COARSEN_OK = 0,
    COARSEN_ERR_INPUT = 2,   /* malformed input file or bad option: exit status 2 */
    COARSEN_ERR_NOMEM = 3,   /* an allocation failed or would exceed limits */
    COARSEN_ERR_DEVICE = 4,  /* a CUDA call failed or no GPU is usable */
    COARSEN_ERR_IO = 5       /* the operating system refused a read or write */
} coarsen_status;

/* One line, no trailing newline, e.g. "graph.mtx:12: index 0 out of range". */
typedef struct coarsen_error {
    coarsen_status status;
    char msg[1024];
} coarsen_error;

/* Undirected graph in CSR form. Every undirected edge {u,v} appears twice
 * (v in u's row and u in v's row) with equal weights; rows are sorted by
 * neighbour id, without duplicates or self-loops.
 * When on_device is 0 the arrays are host memory from malloc; when it is 1
 * they are device memory owned by the device layer (device/device.h), and
 * host code must not dereference them. */
typedef struct coarsen_graph {
    int32_t n;             /* vertices */
    int64_t nnz;           /* adjacency entries = 2 * undirected edges */
    int64_t *xadj;         /* n + 1 row offsets, xadj[0] = 0, xadj[n] = nnz */
    int32_t *adj;          /* nnz neighbour ids */
    double *ewgt;          /* nnz edge weights (>= 0) */
    int64_t *vwgt;         /* n vertex weights (>= 0) */
    int integral_weights;  /* 1 when every edge weight is an integer */
    int on_device;         /* 0: host arrays, 1: device arrays */
} coarsen_graph;

/* Allocates a host graph with room for n vertices and nnz entries; arrays are
 * uninitialised except xadj[0] = 0. Returns NULL (and sets err) on failure. */
coarsen_graph *coarsen_graph_alloc(int32_t n, int64_t nnz, coarsen_error *err);
/* Frees a host or device graph and its arrays; NULL is allowed. */
void coarsen_graph_free(coarsen_graph *g);
/* Checks every CSR invariant above on a host graph; 0 when all hold. */
int coarsen_graph_check(const coarsen_graph *g, coarsen_error *err);

/* What a reader did to the input on its way to a graph (for `coarsen info`). */
typedef struct coarsen_read_report {
    char format[64];         /* e.g. "matrix market coordinate real symmetric" */
    int64_t entries;         /* entries / adjacency entries as stored */
    int64_t diagonal_dropped;/* self-loops / diagonal entries dropped */
    int64_t duplicates_merged;
    int64_t zero_weight_edges;
    int complex_magnitude;   /* 1 when complex values were replaced by |z| */
    int extra_constraints;   /* METIS ncon - 1 constraints ignored */
    int64_t bytes;           /* uncompressed bytes read */
} coarsen_read_report;

/* Reads a Matrix Market or METIS graph (detected from content; gzip by magic
 * bytes; "-" is standard input). report may be NULL. The caller owns *out. */
int coarsen_graph_load(const char *path, coarsen_graph **out,
                       coarsen_read_report *report, coarsen_error *err);

typedef enum coarsen_format { COARSEN_FORMAT_METIS = 0, COARSEN_FORMAT_MTX = 1 } coarsen_format;
/* Writes a host graph; gzip when path ends in ".gz". Written to a temporary
 * name and renamed, so a failure leaves no partial file. weight_scale > 0
 * multiplies real weights before rounding for METIS output (0 = refuse real
 * weights in METIS output). */
int coarsen_graph_write(const coarsen_graph *g, const char *path, coarsen_format fmt,
                        double weight_scale, coarsen_error *err);

#ifdef __cplusplus
}
#endif
#endif
