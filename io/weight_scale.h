/* weight_scale.h — the scale that `--weight-scale auto` picks for writing
 * real edge weights into METIS or ParHIP files, which hold integers >= 1
 * (coarsen_graph_write's weight_scale: round(w * S) is written). */
#ifndef IO_WEIGHT_SCALE_H
#define IO_WEIGHT_SCALE_H

#include "coarsen.h"

/* The largest total edge weight a scaled graph may have: every weight and
 * every sum of them that a coarser level holds then fits the 32-bit idx_t
 * of common METIS builds (and KaMinPar's 32-bit weights). */
#define WEIGHT_SCALE_TOTAL_MAX 2147483647.0

/* For host graph g [in]: when every edge weight is an integer and the total
 * stays within 9.2e18, *scale = 1 and *rel_error = 0 (written exactly).
 * Otherwise *scale = the largest power of two S with S * (total edge weight)
 * <= WEIGHT_SCALE_TOTAL_MAX, and *rel_error = 0.5 / (S * smallest weight):
 * the relative error of round(S * w) for every weight w of g and every sum
 * of its weights (the coarse levels' weights). Fails with
 * COARSEN_ERR_INPUT, naming the way out (--unit-weights, --format mtx),
 * when a weight is 0 (it stays 0 at any scale) or when the smallest weight
 * would round below 1 (the weights span more than 31 bits). */
int weight_scale_auto(const coarsen_graph *g, double *scale, double *rel_error, coarsen_error *err);

#endif
