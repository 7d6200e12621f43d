/* roma_replay_cpu.c — the deterministic parallel ROMA rule on the host
 * (roma.h), the bit-exact reference of roma.cu and roma_complete.cu. A
 * phase: (1) every centre c evaluates its candidate on the matching at
 * phase start (sparse: free c, or matched with c < mate[c], best
 * augmentation with binary-search cycle lookup like the GPU); then claim
 * rounds: (2) each live candidate max-writes its key into every vertex it
 * touches; (3) a candidate holding the key of all its vertices is applied
 * (winners are vertex-disjoint, so the order of applications is
 * irrelevant) and takes its vertices; candidates touching a taken vertex
 * die at the next round. With turns (roma.h) passes of (1)-(3) repeat
 * over the centres whose turn is pending. Gains add up in gains[c] (a
 * centre may apply in several passes), summed in fixed order
 * (roma_sum.h). */
#include "matching/roma_internal.h"
#include "matching/roma_sum.h"
#include "core/error.h"
#include "core/timer.h"

#include <stdlib.h>
#include <string.h>

/* A phase's claim priority: roma_claim_key's arguments. */
typedef struct claim_rule {
    int priority;
    uint64_t seed;
    int phase;
} claim_rule;

static uint64_t claim_key(const roma_aug *a, const claim_rule *r)
{
    return roma_claim_key(a, r->priority, r->seed, r->phase);
}

/* 1 when a holds the key of every vertex it touches. */
static int roma_owns(const roma_aug *a, const uint64_t *slot, const claim_rule *r)
{
    int32_t t[6];
    int k = roma_touched(a, t), own = 1;
    uint64_t key = claim_key(a, r);
    for (int i = 0; i < k; i++)
        own &= slot[t[i]] == key;
    return own;
}

/* The per-vertex arrays of a run. */
typedef struct replay_work {
    roma_aug *aug;
    uint64_t *slot;
    double *gains;
    uint8_t *taken, *done;
} replay_work;

/* One claim round over the live candidates: a candidate with a vertex
 * taken by an earlier winner dies, the others max-write their keys, the
 * owners apply, take their vertices, end their centre's turn and leave.
 * Returns the applications. */
static int64_t claim_round(int32_t n, const replay_work *W, const claim_rule *r, int32_t *mate, double *mw)
{
    roma_aug *aug = W->aug;
    memset(W->slot, 0, (size_t)n * sizeof *W->slot);
    for (int32_t c = 0; c < n; c++) {
        if (aug[c].kind == ROMA_NONE)
            continue;
        int32_t t[6];
        int k = roma_touched(&aug[c], t), dead = 0;
        for (int i = 0; i < k; i++)
            dead |= W->taken[t[i]];
        if (dead) {
            aug[c].kind = ROMA_NONE;
            continue;
        }
        uint64_t key = claim_key(&aug[c], r);
        for (int i = 0; i < k; i++)
            if (W->slot[t[i]] < key)
                W->slot[t[i]] = key;
    }
    int64_t applied = 0;
#pragma omp parallel for schedule(static) reduction(+ : applied)
    for (int32_t c = 0; c < n; c++) {
        if (aug[c].kind == ROMA_NONE || !roma_owns(&aug[c], W->slot, r))
            continue;
        int32_t t[6];
        int k = roma_touched(&aug[c], t);
        for (int i = 0; i < k; i++)
            W->taken[t[i]] = 1;
        roma_apply(mate, mw, &aug[c]);
        W->gains[c] += aug[c].gain;
        W->done[aug[c].v] = 1;
        if (aug[c].u >= 0)
            W->done[aug[c].u] = 1;
        aug[c].kind = ROMA_NONE;
        applied++;
    }
    return applied;
}

/* One pass: every centre with a pending turn evaluates on the current
 * matching (one finding nothing ends its turn), then claim rounds.
 * Returns the pass's candidates. */
static int64_t replay_pass(int32_t n, const roma_opts *opts, roma_eval_fn eval, const void *ctx,
                           const replay_work *W, const claim_rule *r, int32_t *mate, double *mw,
                           roma_phase_stats *ps)
{
    int64_t cand = 0, evaluated = 0;
#pragma omp parallel for schedule(dynamic, 256) reduction(+ : cand, evaluated)
    for (int32_t c = 0; c < n; c++) {
        int32_t m = mate[c];
        if ((m >= 0 && m < c) || !roma_turn_pending(W->done, c, m)) {
            roma_aug_none(&W->aug[c], c, m);
            continue;
        }
        eval(ctx, c, &W->aug[c]);
        evaluated++;
        if (W->aug[c].kind != ROMA_NONE) {
            cand++;
            continue;
        }
        W->done[c] = 1; /* c and m are this centre's alone */
        if (m >= 0)
            W->done[m] = 1;
    }
    ps->candidates += cand;
    ps->evaluated += evaluated;
    ps->passes++;
    memset(W->taken, 0, (size_t)n);
    for (int rounds = 0; n > 0 && (opts->max_rounds == 0 || rounds < opts->max_rounds); rounds++) {
        int64_t applied = claim_round(n, W, r, mate, mw);
        ps->rounds++;
        ps->applied += applied;
        if (applied == 0)
            break;
    }
    return cand;
}

int roma_replay_phases(int32_t n, const roma_opts *opts, roma_eval_fn eval, const void *ctx, int32_t *mate,
                       double *mw, roma_stats *stats, coarsen_error *err)
{
    const size_t m = (size_t)n + 1;
    replay_work W = {0};
    if (!(W.aug = xmalloc(m * sizeof *W.aug, "ROMA candidates", err)) ||
        !(W.slot = xmalloc(m * sizeof *W.slot, "ROMA conflict keys", err)) ||
        !(W.gains = xmalloc(m * sizeof *W.gains, "ROMA gains", err)) ||
        !(W.taken = xmalloc(m, "ROMA taken flags", err)) || !(W.done = xmalloc(m, "ROMA turn flags", err))) {
        free(W.aug), free(W.slot), free(W.gains), free(W.taken);
        return COARSEN_ERR_NOMEM;
    }
    double t0 = timer_ms();
    for (int p = 0; p < opts->max_phases; p++) {
        roma_phase_stats *ps = &stats->phase[p];
        const claim_rule r = {opts->priority, opts->seed, p};
        memset(W.gains, 0, (size_t)n * sizeof *W.gains);
        memset(W.done, 0, (size_t)n);
        while (n > 0 && replay_pass(n, opts, eval, ctx, &W, &r, mate, mw, ps) > 0 && opts->turns)
            ;
        ps->gain = roma_sum_fixed(W.gains, n);
        stats->phases = p + 1;
        if (ps->applied == 0)
            break;
    }
    stats->ms += timer_ms() - t0;
    free(W.aug), free(W.slot), free(W.gains), free(W.taken), free(W.done);
    return COARSEN_OK;
}

typedef struct sparse_ctx {
    roma_state S;
    int integral;
    double eps;
} sparse_ctx;

static void sparse_eval(const void *ctx, int32_t c, roma_aug *out)
{
    const sparse_ctx *x = ctx;
    int32_t m = x->S.mate[c];
    if (m >= 0 && m < c)
        roma_aug_none(out, c, m);
    else
        roma_best_aug(&x->S, c, NULL, out);
    if (!roma_accept(out, x->integral, x->eps))
        out->kind = ROMA_NONE;
}

int roma_replay_cpu(const coarsen_graph *g, const roma_opts *opts, int32_t *mate, roma_stats *stats,
                    coarsen_error *err)
{
    int rc = roma_opts_check(opts, err);
    if (rc)
        return rc;
    memset(stats, 0, sizeof *stats);
    double *mw = NULL;
    if ((rc = roma_start_cpu(g, mate, &mw, err)))
        return rc;
    sparse_ctx ctx = {roma_host_state(g, opts, mate, mw), g->integral_weights, opts->eps};
    rc = roma_replay_phases(g->n, opts, sparse_eval, &ctx, mate, mw, stats, err);
    free(mw);
    return rc;
}
