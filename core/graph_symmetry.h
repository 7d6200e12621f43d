/* graph_symmetry.h — the checks a reader runs on a CSR graph whose rows it has
 * just filled: are the rows sorted, and is the graph a proper undirected
 * graph (no neighbour listed twice, every entry mirrored with an equal
 * weight). Parallel over rows with OpenMP (the symmetry check from 3 threads
 * or above 2^20 rows: graph_symmetry.c); the problem reported is always the
 * one of the lowest offending row, so it does not depend on the thread count.
 * Each reader words the message itself (line numbers, 0- or 1-based ids). */
#ifndef CORE_GRAPH_SYMMETRY_H
#define CORE_GRAPH_SYMMETRY_H

#include <stdint.h>

#include "coarsen.h"

#ifdef __cplusplus
extern "C" {
#endif

/* 1 when every row of g [in] is strictly increasing (sorted, no duplicates). */
int graph_rows_sorted(const coarsen_graph *g);

typedef enum graph_asymmetry {
    GRAPH_SYMMETRIC = 0,
    GRAPH_DUPLICATE = 1,   /* row u lists v twice */
    GRAPH_NO_MIRROR = 2,   /* row u lists v, row v does not list u */
    GRAPH_WEIGHT = 3       /* both list each other, with different weights */
} graph_asymmetry;

typedef struct graph_problem {
    graph_asymmetry kind;
    int32_t u, v;          /* the entry v of row u */
    int64_t at, mirror;    /* its index in adj, and the mirror's (-1 when none) */
} graph_problem;

/* Checks g [in] (host, rows sorted by neighbour id; self-loops are not
 * looked at). Returns GRAPH_SYMMETRIC, or the first problem of the lowest
 * offending row, also written to *p [out] (may be NULL). */
graph_asymmetry graph_find_asymmetry(const coarsen_graph *g, graph_problem *p);

#ifdef __cplusplus
}
#endif
#endif
