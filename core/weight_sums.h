/* weight_sums.h — refusing a graph whose weight totals no sum can hold.
 * Every sum the pipeline forms of a graph's weights (coarse vertices, coarse
 * edges, totals, cuts) is at most the total vertex weight or the total edge
 * weight: a graph whose totals overflow int64 or double is refused where it
 * enters the library (coarsen_graph_load, coarsen_graph_from_entries), once,
 * rather than giving negative or infinite figures later. */
#ifndef CORE_WEIGHT_SUMS_H
#define CORE_WEIGHT_SUMS_H

#include <stdint.h>

#include "coarsen.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The largest integer edge weight a reader keeps: edge weights are doubles,
 * which hold every integer up to 2^53 exactly and round beyond; a larger
 * integer in a file is refused, never rounded silently. */
#define EDGE_WEIGHT_EXACT_MAX (INT64_C(1) << 53)

/* 0 when the vertex weights of host graph g [in] add up within int64 and its
 * edge weights to a finite double; else COARSEN_ERR_INPUT, the message
 * starting with name (a file, or the function that builds g). */
int graph_check_weight_sums(const char *name, const coarsen_graph *g, coarsen_error *err);

#ifdef __cplusplus
}
#endif
#endif
