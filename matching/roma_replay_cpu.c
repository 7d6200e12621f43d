/* roma_replay_cpu.c — the deterministic parallel ROMA rule on the host
 * (roma.h), the bit-exact reference of roma.cu and roma_complete.cu. A
 * phase: (1) every centre c evaluates its candidate on the matching at
 * phase start (sparse: free c, or matched with c < mate[c], best
 * augmentation with binary-search cycle lookup like the GPU); then claim
 * rounds: (2) each live candidate max-writes its key into every vertex it
 * touches; (3) a candidate holding the key of all its vertices is applied
 * (winners are vertex-disjoint, so the order of applications is
 * irrelevant) and takes its vertices; candidates touching a taken vertex
 * die at the next round. Gains go into gains[c], summed in fixed order
 * (roma_sum.h). */
#include "matching/roma_internal.h"
#include "matching/roma_sum.h"
#include "core/error.h"
#include "core/timer.h"

#include <stdlib.h>
#include <string.h>

/* 1 when a holds the key of every vertex it touches. */
static int roma_owns(const roma_aug *a, const uint64_t *slot)
{
    int32_t t[6];
    int k = roma_touched(a, t), own = 1;
    uint64_t key = roma_key(a);
    for (int i = 0; i < k; i++)
        own &= slot[t[i]] == key;
    return own;
}

/* One claim round over the live candidates: a candidate with a vertex
 * taken by an earlier winner dies, the others max-write their keys, the
 * owners apply, take their vertices and leave. Returns the applications. */
static int64_t claim_round(int32_t n, roma_aug *aug, uint64_t *slot, uint8_t *taken, int32_t *mate, double *mw,
                           double *gains)
{
    memset(slot, 0, (size_t)n * sizeof *slot);
    for (int32_t c = 0; c < n; c++) {
        if (aug[c].kind == ROMA_NONE)
            continue;
        int32_t t[6];
        int k = roma_touched(&aug[c], t), dead = 0;
        for (int i = 0; i < k; i++)
            dead |= taken[t[i]];
        if (dead) {
            aug[c].kind = ROMA_NONE;
            continue;
        }
        uint64_t key = roma_key(&aug[c]);
        for (int i = 0; i < k; i++)
            if (slot[t[i]] < key)
                slot[t[i]] = key;
    }
    int64_t applied = 0;
#pragma omp parallel for schedule(static) reduction(+ : applied)
    for (int32_t c = 0; c < n; c++) {
        if (aug[c].kind == ROMA_NONE || !roma_owns(&aug[c], slot))
            continue;
        int32_t t[6];
        int k = roma_touched(&aug[c], t);
        for (int i = 0; i < k; i++)
            taken[t[i]] = 1;
        roma_apply(mate, mw, &aug[c]);
        gains[c] = aug[c].gain;
        aug[c].kind = ROMA_NONE;
        applied++;
    }
    return applied;
}

int roma_replay_phases(int32_t n, const roma_opts *opts, roma_eval_fn eval, const void *ctx, int32_t *mate,
                       double *mw, roma_stats *stats, coarsen_error *err)
{
    roma_aug *aug = xmalloc(((size_t)n + 1) * sizeof *aug, "ROMA candidates", err);
    uint64_t *slot = aug ? xmalloc(((size_t)n + 1) * sizeof *slot, "ROMA conflict keys", err) : NULL;
    double *gains = slot ? xmalloc(((size_t)n + 1) * sizeof *gains, "ROMA gains", err) : NULL;
    uint8_t *taken = gains ? xmalloc((size_t)n + 1, "ROMA taken flags", err) : NULL;
    if (!taken) {
        free(aug), free(slot), free(gains);
        return COARSEN_ERR_NOMEM;
    }
    double t0 = timer_ms();
    for (int p = 0; p < opts->max_phases; p++) {
        roma_phase_stats *ps = &stats->phase[p];
#pragma omp parallel for schedule(dynamic, 256)
        for (int32_t c = 0; c < n; c++)
            eval(ctx, c, &aug[c]);
        for (int32_t c = 0; c < n; c++)
            ps->candidates += aug[c].kind != ROMA_NONE;
        memset(gains, 0, (size_t)n * sizeof *gains);
        memset(taken, 0, (size_t)n);
        while (n > 0 && (opts->max_rounds == 0 || ps->rounds < opts->max_rounds)) {
            int64_t applied = claim_round(n, aug, slot, taken, mate, mw, gains);
            ps->rounds++;
            ps->applied += applied;
            if (applied == 0)
                break;
        }
        ps->gain = roma_sum_fixed(gains, n);
        stats->phases = p + 1;
        if (ps->applied == 0)
            break;
    }
    stats->ms += timer_ms() - t0;
    free(aug), free(slot), free(gains), free(taken);
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
