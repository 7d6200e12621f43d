/* contract.h — contraction of a graph by a fine-to-coarse map. The CPU entry
 * points take host graphs and arrays; the GPU ones take device graphs and
 * device arrays and return device graphs. Both give identical output,
 * weights included (integer weights exactly; real weights summed in a fixed
 * order). */
#ifndef CONTRACT_CONTRACT_H
#define CONTRACT_CONTRACT_H

#include "coarsen.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Coarse ids from a matching: every pair and every unmatched vertex becomes
 * one coarse vertex; ids are dense and numbered in order of each group's
 * smallest fine id. cmap has n entries; *nc receives the coarse count. */
int contract_map_from_mates_cpu(int32_t n, const int32_t *mate, int32_t *cmap, int32_t *nc,
                                coarsen_error *err);
int contract_map_from_mates_gpu(int32_t n, const int32_t *d_mate, int32_t *d_cmap, int32_t *nc,
                                coarsen_error *err);

/* Contracts g by cmap (values in [0, nc), onto): coarse vertex weight = sum of
 * members', coarse edges = fine edges between different groups with weights
 * summed, rows sorted. The caller owns *out. */
int contract_cpu(const coarsen_graph *g, const int32_t *cmap, int32_t nc, coarsen_graph **out,
                 coarsen_error *err);
int contract_gpu(const coarsen_graph *g, const int32_t *d_cmap, int32_t nc, coarsen_graph **out,
                 coarsen_error *err);

#ifdef __cplusplus
}
#endif
#endif
