/* redblue_cpu.c — the red/blue matcher on the host (Fagginger Auer &
 * Bisseling). Round r: each active vertex is blue with probability p
 * (redblue_rules.h); a blue vertex proposes to its best eligible unmatched
 * red neighbour (heaviest, or smallest hash in random mode); a red vertex
 * accepts its best proposer; vertices with no eligible unmatched neighbour
 * retire. Termination: while a matchable edge {u,v} is left, u is blue and v
 * red with probability p(1-p) in each round, independently of earlier rounds,
 * and then some pair matches; MATCH_REDBLUE_DEFAULT_ROUNDS caps the rounds
 * when max_passes is 0 (stats->maximal = 0 then). */
#include "matching/match_internal.h"
#include "matching/redblue_rules.h"

/* Candidate key of edge (v, u) of weight w for the given salt. */
static double rb_key(const matching_opts *o, uint64_t salt, int32_t r, int32_t v, int32_t u, double w)
{
    return o->weighted ? w : redblue_random_key(o->seed, salt, r, v, u);
}

/* Blue v: best eligible unmatched red neighbour; every v: whether any
 * eligible unmatched neighbour is left. */
static int32_t propose(const coarsen_graph *g, const matching_opts *o, int32_t r, int32_t v,
                       const int32_t *mate, uint8_t *alive)
{
    int blue = redblue_is_blue(o->seed, r, v, o->p);
    const tie_rule ties = match_ties(o);
    int32_t best = -1, best_rank = -1;
    double best_k = 0.0;
    int live = 0;
    for (int64_t e = g->xadj[v]; e < g->xadj[v + 1]; e++) {
        int32_t u = g->adj[e];
        if (mate[u] >= 0 || !pair_eligible(o->max_vertex_weight, g->vwgt[v], g->vwgt[u]))
            continue;
        live = 1;
        if (!blue || redblue_is_blue(o->seed, r, u, o->p))
            continue;
        double k = rb_key(o, REDBLUE_SALT_PROPOSE, r, v, u, g->ewgt[e]);
        int32_t rank = tie_rank(ties, u);
        if (edge_better(k, rank, best_k, best_rank))
            best = u, best_rank = rank, best_k = k;
    }
    *alive = (uint8_t)live;
    return best;
}

/* Red v: its best proposer, or -1. */
static int32_t accept(const coarsen_graph *g, const matching_opts *o, int32_t r, int32_t v, const int32_t *prop)
{
    const tie_rule ties = match_ties(o);
    int32_t best = -1, best_rank = -1;
    double best_k = 0.0;
    for (int64_t e = g->xadj[v]; e < g->xadj[v + 1]; e++) {
        int32_t u = g->adj[e];
        if (prop[u] != v)
            continue;
        double k = rb_key(o, REDBLUE_SALT_ACCEPT, r, v, u, g->ewgt[e]);
        int32_t rank = tie_rank(ties, u);
        if (edge_better(k, rank, best_k, best_rank))
            best = u, best_rank = rank, best_k = k;
    }
    return best;
}

int redblue_cpu(const coarsen_graph *g, const matching_opts *opts, int32_t *mate, int32_t *strongest,
                matching_stats *stats, coarsen_error *err)
{
    const int32_t n = g->n;
    /* prop[v] is rewritten for every active v each round; an inactive v keeps
     * -1 or its mate, so stale values never name an unmatched vertex. */
    match_work w;
    int rc = match_work_init(&w, n, mate, err);
    if (rc)
        return rc;
    int32_t *prop = w.choice;
    if (strongest)
        match_strongest_cpu(g, opts, strongest, NULL);
    int max_rounds = opts->max_passes ? opts->max_passes : MATCH_REDBLUE_DEFAULT_ROUNDS;
    for (int32_t r = 0; w.count > 0 && r < max_rounds; r++) {
#pragma omp parallel for schedule(dynamic, 256) if (w.count > 4096)
        for (int64_t i = 0; i < w.count; i++) {
            int32_t v = w.act[i];
            prop[v] = propose(g, opts, r, v, mate, &w.alive[v]);
        }
        int64_t matched = 0;
#pragma omp parallel for schedule(dynamic, 256) reduction(+ : matched) if (w.count > 4096)
        for (int64_t i = 0; i < w.count; i++) {
            int32_t v = w.act[i];
            if (redblue_is_blue(opts->seed, r, v, opts->p))
                continue;
            int32_t b = accept(g, opts, r, v, prop);
            if (b >= 0) { /* b proposed to v only: no other thread writes mate[b] */
                mate[v] = b;
                mate[b] = v;
                matched += 2;
            }
        }
        match_work_end_pass(&w, mate, matched, n, stats);
    }
    stats->maximal = w.count == 0;
    match_work_free(&w);
    return COARSEN_OK;
}
