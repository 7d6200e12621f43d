/* matching.h — the matching interface shared by the matchers, the pipeline
 * and the CLI. A matching is an int32_t array mate[n]: mate[v] is v's partner
 * or -1. The CPU entry points take host graphs and host arrays; the GPU entry
 * points take device graphs (on_device = 1) and device arrays, and leave
 * their results on the device. Deterministic matchers give identical results
 * on CPU and GPU for any thread or block count; randomised ones are a pure
 * function of (graph, options, seed). */
#ifndef MATCHING_MATCHING_H
#define MATCHING_MATCHING_H

#include "coarsen.h"

#ifdef __cplusplus
extern "C" {
#endif

/* MATCHER_HEC is heavy-edge clustering (matching/hec.h): it makes groups,
 * not pairs, so match_cpu / match_gpu refuse it; hec_cpu / hec_gpu run it. */
typedef enum matcher_kind { MATCHER_HANDSHAKE = 0, MATCHER_REDBLUE = 1, MATCHER_HEC = 2 } matcher_kind;

/* What a vertex maximises over its neighbours (handshake, HEC and the
 * strongest neighbour; red/blue takes MATCH_RATING_WEIGHT only), for edge
 * weight w and vertex weights c(u), c(v) (each taken as at least 1):
 * WEIGHT w, EXPANSION w / (c(u) c(v)), EXPANSION2 w^2 / (c(u) c(v)) (KaHIP's
 * expansion*2). Same values as coarsen_rating. edge_order.h: edge_rating. */
typedef enum match_rating { MATCH_RATING_WEIGHT = 0, MATCH_RATING_EXPANSION = 1, MATCH_RATING_EXPANSION2 = 2 } match_rating;

typedef struct matching_opts {
    matcher_kind kind;
    int weighted;               /* red/blue: 1 heaviest neighbour, 0 hash-chosen neighbour */
    double p;                   /* red/blue: probability of blue (default 0.53406) */
    uint64_t seed;              /* red/blue colouring and random choices */
    int max_passes;             /* handshake passes / red-blue rounds; 0 = until maximal */
    int64_t max_vertex_weight;  /* > 0: pairs with vwgt[u] + vwgt[v] above this are not matched */
    int hashed_ties;            /* 0: equal weights go to the smaller id; 1: to the smaller seeded
                                   scramble of the id (edge_order.h: tie_rank), far fewer passes
                                   on equal-weight meshes; both matchers, same guarantees */
    match_rating rating;        /* handshake and HEC: the key a vertex maximises (default weight) */
    double relatives_threshold; /* HEC's step 4 (hec.h): two-hop's rule (3) runs when more than this
                                   fraction of the vertices is still alone (default 0.25, >= 0) */
    /* GPU launch shape, 0 = automatic. They change speed only, never results
     * (tests vary them to prove it): lanes per light vertex (1, 2, 4, 8, 16
     * or 32) and the degree above which a vertex gets a whole block. */
    int gpu_group_width;
    int64_t gpu_heavy_degree;
    /* GPU handshake: graphs of at most this many vertices run every pass in
     * one cooperative launch, deciding on the device whether another pass is
     * due (handshake_persistent.cu); 0 = automatic, -1 = never. Speed only. */
    int64_t gpu_persistent_max;
} matching_opts;

/* Red/blue rounds when max_passes is 0: a round matches at least one pair
 * with probability >= p(1-p) while a matchable edge is left, so the cap is
 * reached only on adversarial luck; stats->maximal then says 0. */
#define MATCH_REDBLUE_DEFAULT_ROUNDS 10000

/* Fills opts with the defaults above (handshake, weighted, p = 0.53406,
 * seed 1, unlimited passes, no cap, ties to the smaller id, automatic GPU
 * launch shape). */
void matching_opts_default(matching_opts *opts);
/* 0 when opts are usable (known kind, 0 < p < 1, passes >= 0, known rating,
 * and weight only for red/blue, group width a power of two <= 32 or 0,
 * heavy degree >= 0), else COARSEN_ERR_INPUT. */
int matching_opts_check(const matching_opts *opts, coarsen_error *err);

typedef struct matching_stats {
    int passes;                    /* handshake passes or red/blue rounds run */
    int64_t matched_edges;         /* pairs in the matching */
    double weight;                 /* total weight of matched edges */
    double first_round_fraction;   /* fraction of vertices matched by the first pass/round */
    double ms;                     /* wall time of the matcher (without computing these stats) */
    int maximal;                   /* 1 when run to completion (no matchable edge left), 0 when
                                      stopped by the passes/rounds cap */
} matching_stats;

/* Host matcher (handshake or red/blue). mate has g->n entries. strongest (may
 * be NULL) receives the first pass's strongest neighbour per vertex: the best
 * rated eligible one, ties to the smaller rank, -1 when there is none (same
 * for both matchers).
 * Parallel with OpenMP; the result does not depend on the thread count. */
int match_cpu(const coarsen_graph *g, const matching_opts *opts, int32_t *mate, int32_t *strongest,
              matching_stats *stats, coarsen_error *err);

/* Device matcher: g->on_device = 1, d_mate and d_strongest (may be NULL) are
 * device arrays of g->n entries. Only counts cross to the host (one copy per
 * pass, plus the per-chunk sums of the final weight). mate, strongest and
 * stats (but ms) are identical to match_cpu's. */
int match_gpu(const coarsen_graph *g, const matching_opts *opts, int32_t *d_mate, int32_t *d_strongest,
              matching_stats *stats, coarsen_error *err);

/* The weight and pair count of a matching (mate on the host; d_mate in device
 * memory beside a device graph) into stats->weight and stats->matched_edges,
 * summed in the fixed order of match_weight.h: both give the same double.
 * Used after anything that changes a matching (ROMA refinement). */
int match_measure_cpu(const coarsen_graph *g, const int32_t *mate, matching_stats *stats, coarsen_error *err);
int match_measure_gpu(const coarsen_graph *g, const int32_t *d_mate, matching_stats *stats, coarsen_error *err);

/* Host callers reach match_gpu through exec_match_host (exec/host_call.h). */

#ifdef __cplusplus
}
#endif
#endif
