/* two_hop_cpu.c — the host reference of two-hop matching (two_hop.h):
 * the unmatched vertices sorted by (degree, list hash, id), or on one thread
 * only grouped by (degree, list hash) (two_hop_group); islands paired by
 * position, classes of identical neighbour lists verified entry by entry
 * and paired greedily under the weight cap; then, past the threshold,
 * relatives grouped by hub and paired the same way; last the count of
 * cap-blocked vertices. */
#include "matching/two_hop.h"
#include "matching/two_hop_classes.h"
#include "core/error.h"
#include "core/hash.h"
#include "core/radix_sort.h"
#include "core/threads.h"
#include "core/timer.h"

#include <stdlib.h>
#include <string.h>

int two_hop_candidate_cmp(const void *a, const void *b)
{
    const two_hop_candidate *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    if (x->hash != y->hash)
        return x->hash < y->hash ? -1 : 1;
    return (x->id > y->id) - (x->id < y->id);
}

/* The radix part of the order: the key (below 2^47: a degree or a vertex)
 * and the hash's top 16 bits, which leave runs of about m / 2^16 records
 * per key to the comparisons: one or two radix passes instead of ten. */
static uint64_t candidate_word(const void *item, int word)
{
    const two_hop_candidate *c = item;
    (void)word;
    return (uint64_t)c->key << 16 | c->hash >> 48;
}

void two_hop_sort(two_hop_candidate *cand, int32_t m)
{
    two_hop_candidate *tmp = m > 1 ? malloc((size_t)m * sizeof *tmp) : NULL;
    if (m > 1 &&
        (!tmp || radix_sort_refined(cand, tmp, m, sizeof *cand, 1, candidate_word, two_hop_candidate_cmp)))
        qsort(cand, (size_t)m, sizeof *cand, two_hop_candidate_cmp);
    free(tmp);
}

/* For the pairing steps the candidates need only be grouped: the islands
 * (key 0) first, then each class of equal (key, hash) contiguous, its
 * members in increasing id; classes share no vertex, so their order changes
 * no pair. cand[0..m) [in/out] in increasing id, keys >= 0. Below
 * THREADS_PARALLEL_MIN candidates (one thread's work, and a table that stays
 * in cache) a class number per candidate from an open-addressing table, in
 * order of first appearance (the islands' first), and a stable counting
 * sort by it; two_hop_sort otherwise, or when the scratch cannot be
 * allocated. */
static void two_hop_group(two_hop_candidate *cand, int32_t m)
{
    if (m < 2 || m >= THREADS_PARALLEL_MIN) {
        two_hop_sort(cand, m);
        return;
    }
    int32_t slots = 2, shift = 63; /* slots = 2^(64 - shift) */
    while (slots < 2 * m)
        slots *= 2, shift--;
    int32_t *ints = malloc(((size_t)slots + 2 * (size_t)m + 2) * sizeof *ints);
    two_hop_candidate *tmp = ints ? malloc((size_t)m * sizeof *tmp) : NULL;
    if (!tmp) {
        free(ints);
        two_hop_sort(cand, m);
        return;
    }
    /* table[slot]: the first candidate of a class, or -1; then per
     * candidate its class, and per class its start in the result (up to
     * m + 1 classes: the islands' and m others) */
    int32_t *table = ints, *class_of = ints + slots, *start = class_of + m, classes = 1; /* class 0: islands */
    for (int32_t s = 0; s < slots; s++)
        table[s] = -1;
    for (int32_t k = 0; k <= m + 1; k++)
        start[k] = 0;
    for (int32_t i = 0; i < m; i++) {
        if (cand[i].key == 0) {
            class_of[i] = 0;
        } else {
            /* the hash is already mixed; the key (a degree or a hub) spread
             * by a multiplicative hash, its top bits the slot */
            uint32_t s = (uint32_t)((cand[i].hash ^ (uint64_t)cand[i].key * 0x9e3779b97f4a7c15ULL) >> shift);
            while (table[s] >= 0 && (cand[table[s]].key != cand[i].key || cand[table[s]].hash != cand[i].hash))
                s = (s + 1) & (uint32_t)(slots - 1);
            if (table[s] < 0) {
                table[s] = i;
                class_of[i] = classes++;
            } else {
                class_of[i] = class_of[table[s]];
            }
        }
        start[class_of[i] + 1]++;
    }
    for (int32_t k = 0; k < classes; k++)
        start[k + 1] += start[k];
    for (int32_t i = 0; i < m; i++)
        tmp[start[class_of[i]]++] = cand[i];
    memcpy(cand, tmp, (size_t)m * sizeof *cand);
    free(tmp);
    free(ints);
}

uint64_t two_hop_list_hash(const coarsen_graph *g, int32_t v)
{
    uint64_t h = 0;
    for (int64_t e = g->xadj[v]; e < g->xadj[v + 1]; e++)
        h += two_hop_term(g->adj[e]);
    return h;
}

/* 1 when u and v have identical (sorted) neighbour lists. */
static int same_list(const coarsen_graph *g, int32_t u, int32_t v)
{
    int64_t d = g->xadj[u + 1] - g->xadj[u];
    return d == g->xadj[v + 1] - g->xadj[v] &&
           memcmp(g->adj + g->xadj[u], g->adj + g->xadj[v], (size_t)d * sizeof *g->adj) == 0;
}

void two_hop_pair_classes(const coarsen_graph *g, int64_t cap, const two_hop_candidate *cand, int32_t m, int lists,
                          int kind, int32_t *mate, int64_t pairs[4])
{
    int32_t pending = -1;
    for (int32_t i = 0; i < m; i++) {
        int32_t v = cand[i].id;
        if (i == 0 || cand[i].key != cand[i - 1].key || cand[i].hash != cand[i - 1].hash ||
            (lists && !same_list(g, cand[i - 1].id, v)))
            pending = -1;
        if (two_hop_pair_step(cap, g->vwgt, &pending, v)) {
            mate[pending] = v;
            mate[v] = pending;
            pairs[kind >= 0 ? kind : cand[i].key == 1 ? 0 : 1]++;
            pending = -1;
        }
    }
}

void two_hop_pair_islands(const int64_t *vwgt, int64_t cap, const two_hop_candidate *cand, int32_t islands,
                          int32_t *mate, int64_t pairs[4])
{
    for (int32_t i = 0; i + 1 < islands; i += 2) {
        int32_t u = cand[i].id, v = cand[i + 1].id;
        if (pair_eligible(cap, vwgt[u], vwgt[v])) {
            mate[u] = v, mate[v] = u;
            pairs[3]++;
        }
    }
}

/* edge_better over the row, its first entry taken as the best so far: with
 * a best always present the rule is edge_beats, without edge_better's tests
 * of "no candidate". */
int32_t two_hop_hub(const coarsen_graph *g, int32_t v)
{
    const int64_t begin = g->xadj[v], end = g->xadj[v + 1];
    if (begin == end)
        return -1;
    int32_t best = g->adj[begin];
    double best_w = g->ewgt[begin];
    for (int64_t e = begin + 1; e < end; e++) {
        const int32_t a = g->adj[e];
        const double w = g->ewgt[e];
        if (edge_beats(w, a, best_w, best))
            best = a, best_w = w;
    }
    return best;
}

/* Rule (3) on the vertices still unmatched with degree >= 1; cand has room
 * for all of them. */
static void pair_relatives(const coarsen_graph *g, int64_t cap, two_hop_candidate *cand, int32_t *mate,
                           int64_t pairs[4])
{
    int32_t m = 0;
    for (int32_t v = 0; v < g->n; v++)
        if (mate[v] == -1 && g->xadj[v + 1] > g->xadj[v])
            cand[m++] = (two_hop_candidate){0, 0, v};
#pragma omp parallel for schedule(dynamic, 256) if (g->nnz >= THREADS_PARALLEL_MIN)
    for (int32_t i = 0; i < m; i++)
        cand[i].key = two_hop_hub(g, cand[i].id);
    two_hop_group(cand, m);
    two_hop_pair_classes(g, cap, cand, m, 0, 2, mate, pairs);
}

/* Unmatched vertices with an unmatched neighbour. */
static int64_t count_cap_blocked(const coarsen_graph *g, const int32_t *mate)
{
    int64_t blocked = 0;
#pragma omp parallel for schedule(dynamic, 1024) reduction(+ : blocked) if (g->nnz >= THREADS_PARALLEL_MIN)
    for (int32_t v = 0; v < g->n; v++) {
        if (mate[v] != -1)
            continue;
        for (int64_t e = g->xadj[v]; e < g->xadj[v + 1]; e++)
            if (mate[g->adj[e]] == -1) {
                blocked++;
                break;
            }
    }
    return blocked;
}

int two_hop_cpu(const coarsen_graph *g, const two_hop_opts *opts, int32_t *mate, two_hop_stats *stats,
                coarsen_error *err)
{
    double t0 = timer_ms();
    if (stats)
        *stats = (two_hop_stats){0};
    if (g->on_device)
        return error_set(err, COARSEN_ERR_INPUT, "two_hop_cpu needs a host graph");
    const int64_t cap = opts->max_vertex_weight;
    int32_t n = g->n;
    two_hop_candidate *cand = xmalloc((size_t)n * sizeof *cand + 1, "two-hop candidates", err);
    if (!cand)
        return COARSEN_ERR_NOMEM;
    int32_t m = 0;
    for (int32_t v = 0; v < n; v++)
        if (mate[v] == -1)
            cand[m++] = (two_hop_candidate){g->xadj[v + 1] - g->xadj[v], 0, v};
#pragma omp parallel for schedule(dynamic, 256) if (g->nnz >= THREADS_PARALLEL_MIN)
    for (int32_t i = 0; i < m; i++)
        cand[i].hash = two_hop_list_hash(g, cand[i].id);
    two_hop_group(cand, m);

    int64_t pairs[4] = {0, 0, 0, 0}; /* leaf, twin, relative, island */
    int32_t islands = 0;             /* degree 0 sorts first */
    while (islands < m && cand[islands].key == 0)
        islands++;
    two_hop_pair_islands(g->vwgt, cap, cand, islands, mate, pairs);
    two_hop_pair_classes(g, cap, cand + islands, m - islands, 1, -1, mate, pairs);
    int64_t unmatched = m - 2 * (pairs[0] + pairs[1] + pairs[3]);
    if ((double)unmatched > opts->relatives_threshold * (double)n)
        pair_relatives(g, cap, cand, mate, pairs);
    free(cand);
    if (stats) {
        stats->leaf_pairs = pairs[0];
        stats->twin_pairs = pairs[1];
        stats->relative_pairs = pairs[2];
        stats->island_pairs = pairs[3];
        stats->cap_blocked = count_cap_blocked(g, mate);
        stats->ms = timer_ms() - t0;
    }
    return COARSEN_OK;
}
