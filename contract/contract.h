/* contract.h — contraction of a graph by a fine-to-coarse map. The CPU entry
 * points take host graphs and arrays; the GPU ones take device graphs and
 * device arrays and return device graphs (only counts cross to the host).
 * Both give identical output, weights included (integer weights exactly; real
 * weights summed in the fixed order below). */
#ifndef CONTRACT_CONTRACT_H
#define CONTRACT_CONTRACT_H

#include "coarsen.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Coarse ids from a matching: every pair {v, mate[v]} and every unmatched
 * vertex (mate[v] = -1) becomes one coarse vertex; ids are dense and numbered
 * in order of each group's smallest fine id. Pairs need not be edges (two-hop
 * pairs, matching/two_hop.h, are not). cmap has n entries; *nc receives the
 * coarse count. Fails with COARSEN_ERR_INPUT when mate is not symmetric. */
int contract_map_from_mates_cpu(int32_t n, const int32_t *mate, int32_t *cmap, int32_t *nc,
                                coarsen_error *err);
int contract_map_from_mates_gpu(int32_t n, const int32_t *d_mate, int32_t *d_cmap, int32_t *nc,
                                coarsen_error *err);

/* Contracts g by cmap, any map onto [0, nc) (groups of any size; otherwise
 * COARSEN_ERR_INPUT): coarse vertex weight = sum of its members'; each fine
 * entry (u,v) with cmap[u] != cmap[v] adds its weight to coarse entry
 * (cmap[u], cmap[v]); internal edges are dropped; rows sorted by neighbour;
 * integral_weights carried over. Summation order, fixed for reproducible
 * real weights: for coarse vertex c, its members in increasing fine id, each
 * member's row in stored order; the weights of one coarse neighbour are summed
 * left to right in that order. Both directions of a coarse edge {a, b},
 * a < b, carry the weight summed this way in row a (so the graph stays
 * symmetric for real weights too). The caller owns *out (a host graph for
 * contract_cpu; a device graph for contract_gpu, whose g and d_cmap are on
 * the device). The CPU version runs on all OpenMP threads; the result does
 * not depend on their number. */
int contract_cpu(const coarsen_graph *g, const int32_t *cmap, int32_t nc, coarsen_graph **out,
                 coarsen_error *err);
int contract_gpu(const coarsen_graph *g, const int32_t *d_cmap, int32_t nc, coarsen_graph **out,
                 coarsen_error *err);

#ifdef __cplusplus
}
#endif
#endif
