/* roma_complete_cpu.c — the complete-graph mode on the host
 * (roma_complete.h): dense matrices from graphs, random pairings, the
 * perfect-matching check, the sequential reference and the replay of the
 * parallel rule (roma_replay_phases with flip candidates). */
#include "matching/roma_complete.h"
#include "matching/roma_complete_aug.h"
#include "matching/roma_internal.h"
#include "core/error.h"
#include "core/timer.h"

#include <stdlib.h>
#include <string.h>

void roma_complete_opts_default(roma_opts *opts)
{
    roma_opts_default(opts);
    opts->eps = 1e-5;
    opts->max_phases = 8;
    opts->turns = 1;
}

float *roma_dense_from_graph(const coarsen_graph *g, coarsen_error *err)
{
    size_t n = (size_t)g->n;
    float *w = xcalloc(n * n, sizeof *w, "dense weight matrix", err);
    if (!w)
        return NULL;
    for (int32_t v = 0; v < g->n; v++)
        for (int64_t e = g->xadj[v]; e < g->xadj[v + 1]; e++)
            w[(size_t)v * n + (size_t)g->adj[e]] = (float)g->ewgt[e];
    return w;
}

int roma_random_pairing(int32_t n, uint64_t seed, int32_t *mate, coarsen_error *err)
{
    if (n % 2)
        return error_set(err, COARSEN_ERR_INPUT, "a perfect pairing needs an even vertex count, got %d", n);
    int32_t *order = xmalloc(((size_t)n + 1) * sizeof *order, "pairing order", err);
    if (!order)
        return COARSEN_ERR_NOMEM;
    roma_shuffle(n, seed, UINT64_MAX, order);
    for (int32_t i = 0; i + 1 < n; i += 2)
        mate[order[i]] = order[i + 1], mate[order[i + 1]] = order[i];
    free(order);
    return COARSEN_OK;
}

double roma_dense_weight(int32_t n, const float *w, const int32_t *mate)
{
    double s = 0.0;
    for (int32_t v = 0; v < n; v++)
        if (mate[v] > v)
            s += (double)w[(int64_t)v * n + mate[v]];
    return s;
}

int roma_complete_check(int32_t n, const int32_t *mate, coarsen_error *err)
{
    if (n % 2)
        return error_set(err, COARSEN_ERR_INPUT, "complete-graph ROMA needs an even vertex count, got %d", n);
    for (int32_t v = 0; v < n; v++) {
        int32_t m = mate[v];
        if (m < 0 || m >= n || m == v || mate[m] != v)
            return error_set(err, COARSEN_ERR_INPUT, "complete-graph ROMA needs a perfect matching: mate[%d] = %d", v,
                             m);
    }
    return COARSEN_OK;
}

/* Checks opts, n and the perfect matching; *mw = new matched-weight array. */
static int complete_start(int32_t n, const float *w, const roma_opts *opts, const int32_t *mate, double **mw,
                          coarsen_error *err)
{
    *mw = NULL;
    int rc = roma_opts_check(opts, err);
    if (!rc)
        rc = roma_complete_check(n, mate, err);
    if (rc)
        return rc;
    double *a = xmalloc(((size_t)n + 1) * sizeof *a, "ROMA matched weights", err);
    if (!a)
        return COARSEN_ERR_NOMEM;
    for (int32_t v = 0; v < n; v++)
        a[v] = (double)w[(int64_t)v * n + mate[v]];
    *mw = a;
    return COARSEN_OK;
}

typedef struct complete_ctx {
    const float *w;
    int32_t n;
    const int32_t *mate;
    const double *mw;
    double eps;
} complete_ctx;

/* The best flip of c's matched edge when c is its smaller end (the
 * sequential code visits every vertex and so every edge once, the replay
 * evaluates every centre). */
static void complete_eval(const void *ctx, int32_t c, roma_aug *out)
{
    const complete_ctx *k = ctx;
    int32_t u = k->mate[c], x = -1;
    double gain = 0.0;
    if (u > c)
        roma_flip_scan(k->w, k->n, k->mate, k->mw, c, u, 0, 1, &gain, &x);
    roma_flip_aug(k->w, k->n, k->mate, k->mw, c, x, gain, k->eps, out);
}

/* Checks, fills mw, then runs the sequential (1) or replay (0) loop. */
static int complete_run(int sequential, int32_t n, const float *w, const roma_opts *opts, int32_t *mate,
                        roma_stats *stats, coarsen_error *err)
{
    memset(stats, 0, sizeof *stats);
    double *mw = NULL;
    int rc = complete_start(n, w, opts, mate, &mw, err);
    if (rc)
        return rc;
    complete_ctx ctx = {w, n, mate, mw, opts->eps};
    rc = sequential ? roma_sequential_phases(n, opts, complete_eval, &ctx, mate, mw, stats, err)
                    : roma_replay_phases(n, opts, complete_eval, &ctx, mate, mw, stats, err);
    free(mw);
    return rc;
}

int roma_complete_cpu(int32_t n, const float *w, const roma_opts *opts, int32_t *mate, roma_stats *stats,
                      coarsen_error *err)
{
    return complete_run(1, n, w, opts, mate, stats, err);
}

int roma_complete_replay_cpu(int32_t n, const float *w, const roma_opts *opts, int32_t *mate, roma_stats *stats,
                             coarsen_error *err)
{
    return complete_run(0, n, w, opts, mate, stats, err);
}
