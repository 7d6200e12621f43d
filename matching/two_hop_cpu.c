/* two_hop_cpu.c — the host reference of leaf and twin matching
 * (two_hop.h): candidates sorted by (degree, list hash, id), classes of
 * identical neighbour lists verified entry by entry, greedy pairing in each
 * class under the weight cap. */
#include "matching/two_hop.h"
#include "core/error.h"
#include "core/threads.h"
#include "core/timer.h"

#include <stdlib.h>
#include <string.h>

typedef struct candidate {
    int64_t deg;
    uint64_t hash;
    int32_t id;
} candidate;

static int candidate_cmp(const void *a, const void *b)
{
    const candidate *x = a, *y = b;
    if (x->deg != y->deg)
        return x->deg < y->deg ? -1 : 1;
    if (x->hash != y->hash)
        return x->hash < y->hash ? -1 : 1;
    return (x->id > y->id) - (x->id < y->id);
}

/* 1 when u and v have identical (sorted) neighbour lists. */
static int same_list(const coarsen_graph *g, int32_t u, int32_t v)
{
    int64_t d = g->xadj[u + 1] - g->xadj[u];
    return d == g->xadj[v + 1] - g->xadj[v] &&
           memcmp(g->adj + g->xadj[u], g->adj + g->xadj[v], (size_t)d * sizeof *g->adj) == 0;
}

int two_hop_cpu(const coarsen_graph *g, int64_t max_vertex_weight, int32_t *mate, two_hop_stats *stats,
                coarsen_error *err)
{
    double t0 = timer_ms();
    if (stats)
        *stats = (two_hop_stats){0};
    if (g->on_device)
        return error_set(err, COARSEN_ERR_INPUT, "two_hop_cpu needs a host graph");
    int32_t n = g->n;
    candidate *cand = xmalloc((size_t)n * sizeof *cand, "two-hop candidates", err);
    if (!cand)
        return COARSEN_ERR_NOMEM;
    int32_t m = 0;
    for (int32_t v = 0; v < n; v++)
        if (mate[v] == -1 && g->xadj[v + 1] > g->xadj[v])
            cand[m++] = (candidate){g->xadj[v + 1] - g->xadj[v], 0, v};
#pragma omp parallel for schedule(dynamic, 256) if (g->nnz >= THREADS_PARALLEL_MIN)
    for (int32_t i = 0; i < m; i++) {
        uint64_t h = 0;
        for (int64_t e = g->xadj[cand[i].id]; e < g->xadj[cand[i].id + 1]; e++)
            h += two_hop_term(g->adj[e]);
        cand[i].hash = h;
    }
    qsort(cand, (size_t)m, sizeof *cand, candidate_cmp);

    int64_t pairs[2] = {0, 0}; /* leaf, twin */
    int32_t pending = -1;
    for (int32_t i = 0; i < m; i++) {
        int32_t v = cand[i].id;
        int class_start = i == 0 || cand[i].deg != cand[i - 1].deg || cand[i].hash != cand[i - 1].hash ||
                          !same_list(g, cand[i - 1].id, v);
        if (class_start || pending < 0) {
            pending = v;
            continue;
        }
        if (max_vertex_weight <= 0 || g->vwgt[pending] + g->vwgt[v] <= max_vertex_weight) {
            mate[pending] = v;
            mate[v] = pending;
            pairs[cand[i].deg == 1 ? 0 : 1]++;
            pending = -1;
        } else if (g->vwgt[v] < g->vwgt[pending]) {
            pending = v;
        }
    }
    free(cand);
    if (stats) {
        stats->leaf_pairs = pairs[0];
        stats->twin_pairs = pairs[1];
        stats->ms = timer_ms() - t0;
    }
    return COARSEN_OK;
}
