/* match_cpu.c — match_cpu: option checks, dispatch to the host matchers,
 * timing and the fixed-order weight; plus the pieces both host matchers
 * share (neighbour choice, active-list compaction). */
#include "matching/match_internal.h"
#include "matching/match_weight.h"
#include "core/error.h"
#include "core/threads.h"
#include "core/timer.h"

#include <stdlib.h>
#include <string.h>

int64_t match_max_vertex_weight_cpu(const coarsen_graph *g)
{
    int64_t m = 0;
#pragma omp parallel for schedule(static) reduction(max : m) if (g->n >= THREADS_PARALLEL_MIN)
    for (int32_t v = 0; v < g->n; v++)
        if (g->vwgt[v] > m)
            m = g->vwgt[v];
    return m;
}

/* match_best_neighbour_cpu's loop; inlined with mate, rating and unit
 * constant below, so that the tests on them leave the loop. unit: every
 * vertex weight of g is at most 1 and there is no cap, so every edge's c is
 * 1.0 * 1.0 and edge_rating is computed without reading the weights (x / 1.0
 * is x exactly: the same double). ranks: tie_rank(ties, u) for every vertex
 * u of g, or NULL (each computed when a tie needs it); factors:
 * rating_factor(vwgt[u]) for every vertex u of g, or NULL (each converted
 * per edge). */
static inline int32_t best_neighbour(const coarsen_graph *g, int32_t v, const int32_t *mate, int rating, int unit,
                                     tie_rule ties, const int32_t *ranks, const double *factors, int64_t cap,
                                     double *key)
{
    /* the arrays in locals: nothing written in the loop aliases them, so
     * they need not be reloaded per edge */
    const int32_t *adj = g->adj;
    const int64_t *vwgt = g->vwgt;
    const double *ewgt = g->ewgt;
    const int64_t vw = unit ? 1 : vwgt[v], end = g->xadj[v + 1];
    const double fv = rating_factor(vw); /* converted once, not per edge */
    int32_t best = -1, best_rank = -1; /* best_rank: -1 until a tie needs it */
    double best_w = 0.0;
    for (int64_t e = g->xadj[v]; e < end; e++) {
        int32_t u = adj[e];
        /* the weight only where the cap or the factor needs it */
        const int64_t uw = unit || (factors && cap <= 0) ? 1 : vwgt[u];
        if ((mate && mate[u] >= 0) || !pair_eligible(cap, vw, uw))
            continue;
        const double fu = unit ? 1.0 : factors ? factors[u] : rating_factor(uw);
        const double k = edge_rating_factors(rating, ewgt[e], fv, fu);
        if (best >= 0 && k < best_w) /* loses whatever its rank */
            continue;
        if (best < 0 || k > best_w) { /* wins whatever its rank: no rank to compute yet */
            best = u, best_rank = -1, best_w = k;
            continue;
        }
        /* equal ratings and a best to tie with: edge_better's tie rule comes
         * down to the smaller rank, the ranks computed only now */
        if (best_rank < 0)
            best_rank = ranks ? ranks[best] : tie_rank(ties, best);
        const int32_t rank = ranks ? ranks[u] : tie_rank(ties, u);
        if (rank < best_rank) /* best_w = k as well: 0.0 and -0.0 tie, and the key is the winner's */
            best = u, best_rank = rank, best_w = k;
    }
    if (key)
        *key = best_w;
    return best;
}

/* match_best_neighbour_cpu's body, inlined into the loop of
 * match_strongest_cpu (the options' tests then leave that loop). */
static inline int32_t choose(const coarsen_graph *g, int32_t v, const int32_t *mate, const matching_opts *opts,
                             const int32_t *ranks, const double *factors, int64_t max_vwgt, double *key)
{
    const tie_rule ties = match_ties(opts);
    const int64_t vw = g->vwgt[v];
    /* no cap when even the heaviest neighbour fits: no weight to read */
    const int64_t cap = vw + max_vwgt <= opts->max_vertex_weight ? 0 : opts->max_vertex_weight;
    const int unit = max_vwgt <= 1 && cap <= 0; /* e.g. the first level of an unweighted graph */
    if (!mate && opts->rating == MATCH_RATING_EXPANSION2) { /* HEC's choices in `coarsen`, by default */
        if (unit)
            return best_neighbour(g, v, NULL, MATCH_RATING_EXPANSION2, 1, ties, ranks, NULL, 0, key);
        return factors ? best_neighbour(g, v, NULL, MATCH_RATING_EXPANSION2, 0, ties, ranks, factors, cap, key)
                       : best_neighbour(g, v, NULL, MATCH_RATING_EXPANSION2, 0, ties, ranks, NULL, cap, key);
    }
    if (mate && opts->rating == MATCH_RATING_WEIGHT) /* the handshake of `coarsen partition`, by default */
        return best_neighbour(g, v, mate, MATCH_RATING_WEIGHT, 0, ties, ranks, NULL, cap, key);
    return best_neighbour(g, v, mate, opts->rating, 0, ties, ranks, factors, cap, key);
}

int32_t match_best_neighbour_cpu(const coarsen_graph *g, int32_t v, const int32_t *mate, const matching_opts *opts,
                                 int64_t max_vwgt, double *key)
{
    return choose(g, v, mate, opts, NULL, NULL, max_vwgt, key);
}

/* What is per vertex is computed once, up front: with hashed ties every
 * vertex's rank (on equal ratings, all of them on a unit-weight level, a
 * neighbour's rank is then one load instead of a hash per entry), and with
 * weighted vertices and an expansion rating every vertex's rating factor (a
 * load per entry instead of a conversion). Without the memory for them,
 * each is computed per entry (the same ranks and doubles). */
void match_strongest_cpu(const coarsen_graph *g, const matching_opts *opts, int32_t *strongest, double *key)
{
    const int64_t max_vwgt = match_max_vertex_weight_cpu(g);
    const tie_rule ties = match_ties(opts);
    const size_t n1 = (size_t)g->n + 1;
    int32_t *ranks = ties.hashed ? malloc(n1 * sizeof *ranks) : NULL;
    double *factors = max_vwgt > 1 && opts->rating != MATCH_RATING_WEIGHT ? malloc(n1 * sizeof *factors) : NULL;
    /* the options in a private copy: no store to strongest or key can then
     * alias them, so they are read once, not per vertex */
    const matching_opts o = *opts;
#pragma omp parallel firstprivate(o) if (g->nnz >= THREADS_PARALLEL_MIN)
    {
        if (ranks || factors) {
#pragma omp for schedule(static)
            for (int32_t v = 0; v < g->n; v++) {
                if (ranks)
                    ranks[v] = tie_rank(ties, v);
                if (factors)
                    factors[v] = rating_factor(g->vwgt[v]);
            }
        }
#pragma omp for schedule(dynamic, 1024)
        for (int32_t v = 0; v < g->n; v++)
            strongest[v] = choose(g, v, NULL, &o, ranks, factors, max_vwgt, key ? key + v : NULL);
    }
    free(ranks);
    free(factors);
}

int match_work_init(match_work *w, int32_t n, int32_t *mate, coarsen_error *err)
{
    w->choice = xmalloc((size_t)n * sizeof *w->choice, "matcher choices", err);
    w->act = w->choice ? xmalloc((size_t)n * sizeof *w->act, "matcher active list", err) : NULL;
    w->alive = w->act ? xmalloc((size_t)n, "matcher live flags", err) : NULL;
    if (!w->alive) {
        match_work_free(w);
        return COARSEN_ERR_NOMEM;
    }
    for (int32_t v = 0; v < n; v++)
        mate[v] = -1, w->choice[v] = -1, w->act[v] = v;
    w->count = n;
    return COARSEN_OK;
}

void match_work_free(match_work *w)
{
    free(w->choice), free(w->act), free(w->alive);
    w->choice = w->act = NULL;
    w->alive = NULL;
}

void match_work_end_pass(match_work *w, const int32_t *mate, int64_t matched, int32_t n, matching_stats *stats)
{
    int64_t k = 0;
    for (int64_t i = 0; i < w->count; i++) {
        int32_t v = w->act[i];
        if (mate[v] < 0 && w->alive[v])
            w->act[k++] = v;
    }
    w->count = k;
    if (stats->passes++ == 0)
        stats->first_round_fraction = (double)matched / n;
}

int match_cpu(const coarsen_graph *g, const matching_opts *opts, int32_t *mate, int32_t *strongest,
              matching_stats *stats, coarsen_error *err)
{
    if (g->on_device)
        return error_set(err, COARSEN_ERR_INPUT, "match_cpu needs a host graph");
    int rc = matching_opts_check(opts, err);
    if (rc)
        return rc;
    if (opts->kind == MATCHER_HEC)
        return error_set(err, COARSEN_ERR_INPUT, "hec makes groups, not a matching: use hec_cpu");
    memset(stats, 0, sizeof *stats);
    double t0 = timer_ms();
    rc = opts->kind == MATCHER_HANDSHAKE ? handshake_cpu(g, opts, mate, strongest, stats, err)
                                         : redblue_cpu(g, opts, mate, strongest, stats, err);
    if (rc)
        return rc;
    stats->ms = timer_ms() - t0;
    return match_measure_cpu(g, mate, stats, err);
}

int match_measure_cpu(const coarsen_graph *g, const int32_t *mate, matching_stats *stats, coarsen_error *err)
{
    (void)err;
    stats->weight = match_weight_cpu(g, mate, &stats->matched_edges);
    return COARSEN_OK;
}
