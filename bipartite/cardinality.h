/* cardinality.h — maximum-cardinality matching of a bipartite graph: cheap
 * initial matchings (greedy, Karp–Sipser), the CPU references (Hopcroft–Karp
 * and FIFO push-relabel) and the GPU push-relabel G-PR (Deveci, Kaya, Uçar,
 * Çatalyürek, ICPP 2013).
 *
 * Every function works on caller-allocated host arrays row_match[rows] and
 * col_match[cols] (see bipartite.h) holding a valid matching on entry (all -1
 * for none) and a maximum matching on return. The size of a maximum matching
 * is unique; which pairs are matched is not: the CPU functions are
 * deterministic, the GPU push-relabel is not (its push kernel races by design),
 * but its cardinality always equals the CPU's. */
#ifndef BIPARTITE_CARDINALITY_H
#define BIPARTITE_CARDINALITY_H

#include "bipartite/bipartite.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum bip_init { BIP_INIT_NONE = 0, BIP_INIT_GREEDY = 1, BIP_INIT_KARP_SIPSER = 2 } bip_init;

/* Sets row_match/col_match (contents ignored on entry) to an initial
 * matching: none, greedy (each column in order takes its first free row), or
 * Karp–Sipser (vertices of degree one first, on both sides; otherwise the
 * first free column takes its free row of least remaining degree). */
int bip_initial_matching(const bip_graph *g, bip_init init, int32_t *row_match, int32_t *col_match,
                         coarsen_error *err);

/* The start each backend finishes fastest from: Karp–Sipser on the CPU
 * (Hopcroft–Karp and push-relabel need far fewer phases after it), none for
 * G-PR on the GPU (its global relabelling from scratch takes less time than
 * the host's Karp–Sipser: docs/benchmarks/bipartite.md). */
bip_init bip_default_init(int use_gpu);

/* "none", "greedy", "ks" <-> bip_init; from_name returns 0, or -1 for an
 * unknown name (*init untouched). */
int bip_init_from_name(const char *name, bip_init *init);
const char *bip_init_name(bip_init init);

/* Number of matched columns of col_match. */
int64_t bip_matching_size(int32_t cols, const int32_t *col_match);

/* Hopcroft–Karp phases (BFS layers from free columns, DFS along them). */
int bip_hopcroft_karp(const bip_graph *g, int32_t *row_match, int32_t *col_match, coarsen_error *err);

typedef struct bip_pr_opts {
    double relabel_k; /* global relabel every k * (levels of the last BFS) push loops (GPU), every
                         k * (rows + cols) pushes (CPU); 0 means the default 0.7 */
} bip_pr_opts;

typedef struct bip_pr_stats {
    int64_t pushes;           /* CPU: pushes done; GPU: push kernel launches (loops) */
    int64_t global_relabels;  /* BFS relabellings */
    int64_t max_level;        /* deepest BFS level seen */
    int cpu_fallback;         /* GPU only: 1 when the iteration cap was reached and Hopcroft–Karp
                                 finished the job on the host (never expected; reported) */
} bip_pr_stats;

/* Sequential FIFO push-relabel over the unmatched columns, with global
 * relabelling by BFS from the free rows. stats may be NULL. */
int bip_push_relabel_cpu(const bip_graph *g, const bip_pr_opts *opts, int32_t *row_match, int32_t *col_match,
                         bip_pr_stats *stats, coarsen_error *err);

/* G-PR on the GPU: lock- and atomic-free push kernel over a list of active
 * columns, level-synchronous BFS global relabelling from the free rows,
 * adaptive relabel frequency, active-list compaction with CUB, a final
 * fix-matching pass. The graph is uploaded and freed here. Without CUDA it
 * fails with COARSEN_ERR_DEVICE. */
int bip_push_relabel_gpu(const bip_graph *g, const bip_pr_opts *opts, int32_t *row_match, int32_t *col_match,
                         bip_pr_stats *stats, coarsen_error *err);

#ifdef __cplusplus
}
#endif
#endif
