/* roma_cpu.c — ROMA options and the sequential reference (roma.h): per
 * phase a fresh random order of all vertices (Fisher-Yates driven by
 * hash3(seed, phase, i)); each vertex applies its best centred augmentation
 * on the current matching when it passes the threshold. Cycles are found by
 * stamping, so a visit costs O(deg v + deg mate(v)). The phase loop is
 * shared with the complete-graph mode (roma_sequential_phases). */
#include "matching/roma_internal.h"
#include "matching/validate.h"
#include "core/error.h"
#include "core/hash.h"
#include "core/timer.h"

#include <stdlib.h>
#include <string.h>

void roma_opts_default(roma_opts *opts)
{
    *opts = (roma_opts){.eps = 1e-9, .max_phases = ROMA_MAX_PHASES, .seed = 1, .max_vertex_weight = 0,
                        .max_rounds = 0};
}

int roma_opts_check(const roma_opts *opts, coarsen_error *err)
{
    if (!(opts->eps >= 0.0))
        return error_set(err, COARSEN_ERR_INPUT, "ROMA threshold eps = %g is not >= 0", opts->eps);
    if (opts->max_phases < 1 || opts->max_phases > ROMA_MAX_PHASES)
        return error_set(err, COARSEN_ERR_INPUT, "ROMA phases %d not in 1..%d", opts->max_phases, ROMA_MAX_PHASES);
    if (opts->max_rounds < 0)
        return error_set(err, COARSEN_ERR_INPUT, "negative ROMA claim rounds %d", opts->max_rounds);
    if (opts->turns != 0 && opts->turns != 1)
        return error_set(err, COARSEN_ERR_INPUT, "ROMA turns %d is not 0 or 1", opts->turns);
    if (opts->priority != ROMA_PRIORITY_GAIN && opts->priority != ROMA_PRIORITY_RANDOM)
        return error_set(err, COARSEN_ERR_INPUT, "unknown ROMA priority %d", opts->priority);
    if (opts->dense_tile < 0)
        return error_set(err, COARSEN_ERR_INPUT, "negative ROMA dense tile %d", (int)opts->dense_tile);
    return COARSEN_OK;
}

int roma_start_cpu(const coarsen_graph *g, const int32_t *mate, double **mw, coarsen_error *err)
{
    *mw = NULL;
    int rc = match_validate(g, mate, 0, NULL, err);
    if (rc)
        return rc;
    double *w = xmalloc(((size_t)g->n + 1) * sizeof *w, "ROMA matched weights", err);
    if (!w)
        return COARSEN_ERR_NOMEM;
    roma_state S = {g->xadj, g->adj, g->ewgt, g->vwgt, mate, w, 0};
    for (int32_t v = 0; v < g->n; v++) {
        w[v] = 0.0;
        if (mate[v] >= 0)
            roma_find_edge(&S, v, mate[v], &w[v]);
    }
    *mw = w;
    return COARSEN_OK;
}

void roma_shuffle(int32_t n, uint64_t seed, uint64_t round, int32_t *order)
{
    for (int32_t i = 0; i < n; i++)
        order[i] = i;
    for (int32_t i = n - 1; i > 0; i--) {
        int32_t j = (int32_t)(hash3(seed, round, (uint64_t)i) % (uint64_t)(i + 1));
        int32_t t = order[i];
        order[i] = order[j], order[j] = t;
    }
}

int roma_sequential_phases(int32_t n, const roma_opts *opts, roma_eval_fn visit, const void *ctx, int32_t *mate,
                           double *mw, roma_stats *stats, coarsen_error *err)
{
    int32_t *order = xmalloc(((size_t)n + 1) * sizeof *order, "ROMA order", err);
    if (!order)
        return COARSEN_ERR_NOMEM;
    double t0 = timer_ms();
    for (int p = 0; p < opts->max_phases; p++) {
        roma_phase_stats *ps = &stats->phase[p];
        roma_shuffle(n, opts->seed, (uint64_t)p, order);
        ps->evaluated = n;
        for (int32_t i = 0; i < n; i++) {
            roma_aug a;
            visit(ctx, order[i], &a);
            if (a.kind == ROMA_NONE)
                continue;
            roma_apply(mate, mw, &a);
            ps->candidates++, ps->applied++;
            ps->gain += a.gain;
        }
        stats->phases = p + 1;
        if (ps->applied == 0)
            break;
    }
    stats->ms += timer_ms() - t0;
    free(order);
    return COARSEN_OK;
}

typedef struct sequential_ctx {
    roma_state S;
    roma_marks *marks;
    int integral;
    double eps;
} sequential_ctx;

/* Any vertex is a centre; cycles found by stamping. */
static void sequential_visit(const void *ctx, int32_t v, roma_aug *out)
{
    const sequential_ctx *k = ctx;
    roma_best_aug(&k->S, v, k->marks, out);
    if (!roma_accept(out, k->integral, k->eps))
        out->kind = ROMA_NONE;
}

int roma_cpu(const coarsen_graph *g, const roma_opts *opts, int32_t *mate, roma_stats *stats, coarsen_error *err)
{
    int rc = roma_opts_check(opts, err);
    if (rc)
        return rc;
    memset(stats, 0, sizeof *stats);
    const size_t n = (size_t)g->n;
    double *mw = NULL;
    if ((rc = roma_start_cpu(g, mate, &mw, err)))
        return rc;
    roma_marks marks = {NULL, NULL, 0};
    marks.stamp = xcalloc(n + 1, sizeof *marks.stamp, "ROMA stamps", err);
    marks.w = marks.stamp ? xmalloc((n + 1) * sizeof *marks.w, "ROMA stamp weights", err) : NULL;
    if (!marks.w)
        rc = COARSEN_ERR_NOMEM;
    else {
        sequential_ctx ctx = {roma_host_state(g, opts, mate, mw), &marks, g->integral_weights, opts->eps};
        rc = roma_sequential_phases(g->n, opts, sequential_visit, &ctx, mate, mw, stats, err);
    }
    free(mw), free(marks.stamp), free(marks.w);
    return rc;
}
