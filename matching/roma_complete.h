/* roma_complete.h — ROMA on a complete graph given as a dense symmetric
 * float matrix w[n * n] (row-major, diagonal ignored), the thesis's
 * setting: n even, a perfect matching, 4-cycle flips only. A flip of
 * matched edges (v,u), (x,y) to (v,x), (u,y) gains
 * w(v,x) + w(u,y) - w(v,u) - w(x,y), computed in double from the floats.
 * Threshold: a flip applies when its gain > opts->eps (absolute; the
 * complete-mode default is 1e-5, see roma_complete_opts_default).
 *  - roma_complete_cpu: sequential reference; per phase the vertices in a
 *    seeded random order, each v with v < mate[v] (at its turn) applying
 *    the best flip of its matched edge;
 *  - roma_complete_replay_cpu / roma_complete_gpu: the deterministic
 *    parallel rule of roma.h with every matched edge (smaller endpoint) a
 *    centre, bit-identical to each other. The GPU gives each matched edge a
 *    block that scans all x and reduces to the best flip (gain desc, x asc)
 *    with cub::BlockReduce.
 * Memory: n * n floats (n = 90 112 needs 32 GB). */
#ifndef MATCHING_ROMA_COMPLETE_H
#define MATCHING_ROMA_COMPLETE_H

#include "coarsen.h"
#include "matching/roma.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Complete-mode defaults: eps = 1e-5 (absolute), 8 phases, seed 1, turns
 * (from a random pairing the one-pass rule ends 8 phases 1.15-1.5x further
 * from the optimum than the sequential code; docs/benchmarks/roma.md). */
void roma_complete_opts_default(roma_opts *opts);

/* A new host matrix w[n * n] from graph g (absent pairs weigh 0); the
 * caller frees it. NULL with err set on failure. */
float *roma_dense_from_graph(const coarsen_graph *g, coarsen_error *err);

/* A random perfect pairing of 0..n-1 (n even, else COARSEN_ERR_INPUT),
 * pure function of seed. */
int roma_random_pairing(int32_t n, uint64_t seed, int32_t *mate, coarsen_error *err);

/* Total weight of a matching on w (double sum in vertex order). */
double roma_dense_weight(int32_t n, const float *w, const int32_t *mate);

/* 0 when n is even and mate a perfect matching of 0..n-1, else
 * COARSEN_ERR_INPUT naming the first broken rule. */
int roma_complete_check(int32_t n, const int32_t *mate, coarsen_error *err);

/* Host refinements; mate must be a perfect matching of 0..n-1 (checked:
 * COARSEN_ERR_INPUT otherwise, also for odd n). */
int roma_complete_cpu(int32_t n, const float *w, const roma_opts *opts, int32_t *mate, roma_stats *stats,
                      coarsen_error *err);
int roma_complete_replay_cpu(int32_t n, const float *w, const roma_opts *opts, int32_t *mate, roma_stats *stats,
                             coarsen_error *err);

/* Device refinement: d_w and d_mate are device arrays (d_mate a perfect
 * matching, not checked on the device). */
int roma_complete_gpu(int32_t n, const float *d_w, const roma_opts *opts, int32_t *d_mate, roma_stats *stats,
                      coarsen_error *err);
/* Host callers reach it through exec_refine_complete_host (exec/host_call.h). */

#ifdef __cplusplus
}
#endif
#endif
