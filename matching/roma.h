/* roma.h — ROMA refinement of a matching by 2-augmentations (issue 5).
 * Three implementations of one idea, all refining mate[] in place:
 *  - roma_cpu: the sequential reference. Per phase every vertex, in a fresh
 *    seeded random order, applies its best centred 2-augmentation
 *    (roma_aug.h) on the current matching when the gain passes the threshold;
 *  - roma_replay_cpu: the deterministic parallel rule on the host. Per phase
 *    every centre (each free vertex, each matched edge once via its smaller
 *    endpoint) computes its best augmentation on the matching at phase start;
 *    each accepted candidate writes the 64-bit key (float bits of its gain,
 *    then its centre id) with max into the <= 6 vertices it touches, and is
 *    applied only when it holds the key of all of them. Winners are
 *    vertex-disjoint, the best key always wins, so a phase with a candidate
 *    applies at least one and the weight never decreases. Claim rounds:
 *    an augmentation's validity and gain depend only on the vertices it
 *    touches, so after a round the candidates none of whose vertices was
 *    touched by a winner claim again (without re-evaluation), until a round
 *    applies nothing or max_rounds rounds ran: the applied set is the greedy
 *    independent set of candidates by descending key. max_rounds = 1 is the
 *    single-claim scheme. Priority: the key's high half is the gain's bits
 *    (largest gain first) or, with ROMA_PRIORITY_RANDOM, 32 bits of
 *    hash3(seed, phase, centre): a random order, as the sequential code's.
 *    Turns (opts.turns = 1): a vertex's turn is done when it is a centre
 *    whose evaluation found nothing or whose augmentation was applied (and
 *    its mate then); after the claim rounds the centres with a vertex
 *    whose turn is not done evaluate again on the current matching, pass
 *    after pass, until a pass has no candidate. Every vertex gets its turn
 *    each phase, as in the sequential phase; each pass with a candidate
 *    ends at least one turn, so a phase ends;
 *  - roma_gpu: the same rule on the device, bit-identical to roma_replay_cpu
 *    (mates and every phase's stats but ms); the result never depends on
 *    thread timing or block size.
 * Threshold: integer weights apply gains >= 1; real weights apply gains
 * > eps * (weight of the matched edges the augmentation removes), which
 * keeps rounding noise out. A run stops after a phase that applies nothing
 * or after max_phases phases. New edges respect the vertex-weight cap. */
#ifndef MATCHING_ROMA_H
#define MATCHING_ROMA_H

#include "coarsen.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ROMA_MAX_PHASES 64

/* Claim priority of the parallel rule: the largest gain first, or a fresh
 * random order of the centres every phase (seeded; the sequential code's
 * visiting order is random too). */
enum { ROMA_PRIORITY_GAIN = 0, ROMA_PRIORITY_RANDOM = 1 };

typedef struct roma_opts {
    double eps;                 /* relative threshold for real weights (default 1e-9) */
    int max_phases;             /* 1 .. ROMA_MAX_PHASES (default ROMA_MAX_PHASES) */
    uint64_t seed;              /* roma_cpu's visiting order (default 1) */
    int64_t max_vertex_weight;  /* > 0: new pairs above this vertex-weight sum are not formed */
    int max_rounds;             /* replay/GPU claim rounds per phase, 0 = until none left (default) */
    int turns;                  /* replay/GPU: 1 = passes until every centre had its turn, 0 = one
                                   evaluation per phase (default; complete mode 1) */
    int priority;               /* replay/GPU claim keys: ROMA_PRIORITY_GAIN (default) or
                                   ROMA_PRIORITY_RANDOM */
    int32_t dense_tile;         /* GPU complete mode: columns of a row staged in shared memory per pass
                                   (0 = default 45056, the most that fits; smaller only to test the passes) */
} roma_opts;

typedef struct roma_phase_stats {
    int64_t candidates;  /* augmentations that passed the threshold (roma_cpu: = applied) */
    int64_t applied;     /* augmentations applied */
    int rounds;          /* claim rounds run, over all passes (roma_cpu: 0) */
    int passes;          /* evaluation passes (replay/GPU; 1 unless turns) */
    int64_t evaluated;   /* centres evaluated, over all passes (roma_cpu: vertices visited) */
    double gain;         /* their total gain (replay/GPU: fixed-order sum, see roma_sum.h) */
} roma_phase_stats;

typedef struct roma_stats {
    int phases;                                 /* phases run (the last may apply nothing) */
    roma_phase_stats phase[ROMA_MAX_PHASES];
    double ms;                                  /* wall time */
} roma_stats;

void roma_opts_default(roma_opts *opts);
/* 0 when usable (eps >= 0, 1 <= max_phases <= ROMA_MAX_PHASES, max_rounds
 * >= 0, turns 0 or 1, a known priority), else COARSEN_ERR_INPUT. */
int roma_opts_check(const roma_opts *opts, coarsen_error *err);

/* Host refinements of a valid matching mate[g->n] of host graph g (the
 * caller validates it; an invalid one gives COARSEN_ERR_INPUT). */
int roma_cpu(const coarsen_graph *g, const roma_opts *opts, int32_t *mate, roma_stats *stats, coarsen_error *err);
int roma_replay_cpu(const coarsen_graph *g, const roma_opts *opts, int32_t *mate, roma_stats *stats,
                    coarsen_error *err);

/* Device refinement: g->on_device = 1, d_mate a device array of g->n
 * entries holding a valid matching (not checked on the device: validate on
 * the host first when it comes from outside). One small copy to the host
 * per phase. */
int roma_gpu(const coarsen_graph *g, const roma_opts *opts, int32_t *d_mate, roma_stats *stats, coarsen_error *err);

/* Host callers reach it through exec_refine_host (exec/host_call.h). */

#ifdef __cplusplus
}
#endif
#endif
