/* roma_cpu.c — ROMA options and the sequential reference (roma.h): per
 * phase a fresh random order of all vertices (Fisher-Yates driven by
 * hash3(seed, phase, i)); each vertex applies its best centred augmentation
 * on the current matching when it passes the threshold. Cycles are found by
 * stamping, so a visit costs O(deg v + deg mate(v)). */
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

int roma_cpu(const coarsen_graph *g, const roma_opts *opts, int32_t *mate, roma_stats *stats, coarsen_error *err)
{
    int rc = roma_opts_check(opts, err);
    if (rc)
        return rc;
    memset(stats, 0, sizeof *stats);
    double t0 = timer_ms();
    const size_t n = (size_t)g->n;
    double *mw = NULL;
    if ((rc = roma_start_cpu(g, mate, &mw, err)))
        return rc;
    int32_t *order = xmalloc((n + 1) * sizeof *order, "ROMA order", err);
    roma_marks marks = {NULL, NULL, 0};
    marks.stamp = order ? xcalloc(n + 1, sizeof *marks.stamp, "ROMA stamps", err) : NULL;
    marks.w = marks.stamp ? xmalloc((n + 1) * sizeof *marks.w, "ROMA stamp weights", err) : NULL;
    if (!marks.w) {
        free(mw), free(order), free(marks.stamp);
        return COARSEN_ERR_NOMEM;
    }
    const roma_state S = roma_host_state(g, opts, mate, mw);
    for (int p = 0; p < opts->max_phases; p++) {
        for (int32_t i = 0; i < g->n; i++)
            order[i] = i;
        for (int32_t i = g->n - 1; i > 0; i--) {
            int32_t j = (int32_t)(hash3(opts->seed, (uint64_t)p, (uint64_t)i) % (uint64_t)(i + 1));
            int32_t t = order[i];
            order[i] = order[j], order[j] = t;
        }
        roma_phase_stats *ps = &stats->phase[p];
        for (int32_t i = 0; i < g->n; i++) {
            roma_aug a;
            roma_best_aug(&S, order[i], &marks, &a);
            if (!roma_accept(&a, g->integral_weights, opts->eps))
                continue;
            roma_apply(mate, mw, &a);
            ps->candidates++, ps->applied++;
            ps->gain += a.gain;
        }
        stats->phases = p + 1;
        if (ps->applied == 0)
            break;
    }
    free(mw), free(order), free(marks.stamp), free(marks.w);
    stats->ms = timer_ms() - t0;
    return COARSEN_OK;
}
