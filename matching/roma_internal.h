/* roma_internal.h — what the host ROMA implementations share (roma_cpu.c,
 * roma_replay_cpu.c, roma_complete_cpu.c): checking the starting matching
 * and filling the matched-weight array, the evaluation state over host
 * arrays, and the sequential and replay phase loops driven by a per-centre
 * evaluation. */
#ifndef MATCHING_ROMA_INTERNAL_H
#define MATCHING_ROMA_INTERNAL_H

#include "matching/roma.h"
#include "matching/roma_aug.h"

/* Validates mate on g (COARSEN_ERR_INPUT naming the first broken rule) and
 * sets *mw to a new array mw[v] = weight of v's matched edge (0 when free),
 * which the caller frees; *mw is NULL on failure. */
int roma_start_cpu(const coarsen_graph *g, const int32_t *mate, double **mw, coarsen_error *err);

/* Fills *out with centre c's accepted candidate on the current state, or
 * kind ROMA_NONE (c not a centre, or nothing passes the threshold). Must
 * not write anything shared: centres are evaluated in parallel. */
typedef void (*roma_eval_fn)(const void *ctx, int32_t c, roma_aug *out);

/* Fisher-Yates order of 0..n-1 driven by hash3(seed, round, i). */
void roma_shuffle(int32_t n, uint64_t seed, uint64_t round, int32_t *order);

/* The sequential phase loop (roma_cpu.c): per phase the vertices in the
 * seeded random order of roma_shuffle(n, seed, phase); each visit's
 * candidate, computed on the current state, is applied at once. */
int roma_sequential_phases(int32_t n, const roma_opts *opts, roma_eval_fn visit, const void *ctx, int32_t *mate,
                           double *mw, roma_stats *stats, coarsen_error *err);

/* The replay's phase loop (roma_replay_cpu.c) over centres 0..n-1: eval
 * all, then claim rounds (claim keys, apply the winners to mate and mw),
 * sum the gains in fixed order; stops after a phase applying nothing or
 * after opts->max_phases. */
int roma_replay_phases(int32_t n, const roma_opts *opts, roma_eval_fn eval, const void *ctx, int32_t *mate,
                       double *mw, roma_stats *stats, coarsen_error *err);

static inline roma_state roma_host_state(const coarsen_graph *g, const roma_opts *opts, const int32_t *mate,
                                         const double *mw)
{
    roma_state S = {g->xadj, g->adj, g->ewgt, g->vwgt, mate, mw, opts->max_vertex_weight};
    return S;
}

#endif
