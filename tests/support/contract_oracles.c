/* contract_oracles.c — random matchings/maps and naive oracles for the
 * contraction and two-hop tests (contract_oracles.h). */
#include "tests/support/contract_oracles.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/graph_build.h"
#include "core/hash.h"

/* A seeded random permutation of 0..n-1 (Fisher-Yates on hash3 draws). */
static int32_t *random_order(int32_t n, uint64_t seed)
{
    int32_t *p = malloc(((size_t)n + 1) * sizeof *p);
    for (int32_t i = 0; i < n; i++)
        p[i] = i;
    for (int32_t i = n - 1; i > 0; i--) {
        int32_t j = (int32_t)(hash3(seed, 0x0bde, (uint64_t)i) % (uint64_t)(i + 1));
        int32_t t = p[i];
        p[i] = p[j], p[j] = t;
    }
    return p;
}

void oracle_random_greedy_matching(const coarsen_graph *g, uint64_t seed, int32_t *mate)
{
    int32_t *order = random_order(g->n, seed);
    for (int32_t v = 0; v < g->n; v++)
        mate[v] = -1;
    for (int32_t i = 0; i < g->n; i++) {
        int32_t u = order[i];
        if (mate[u] != -1)
            continue;
        int64_t free_count = 0;
        for (int64_t e = g->xadj[u]; e < g->xadj[u + 1]; e++)
            free_count += mate[g->adj[e]] == -1;
        if (!free_count)
            continue;
        int64_t pick = (int64_t)(hash3(seed, 0x3a7e, (uint64_t)u) % (uint64_t)free_count);
        for (int64_t e = g->xadj[u]; e < g->xadj[u + 1]; e++)
            if (mate[g->adj[e]] == -1 && pick-- == 0) {
                mate[u] = g->adj[e];
                mate[g->adj[e]] = u;
                break;
            }
    }
    free(order);
}

void oracle_random_map(int32_t n, int max_group, uint64_t seed, int32_t *cmap, int32_t *nc)
{
    int32_t *order = random_order(n, seed);
    int32_t groups = 0;
    for (int32_t i = 0; i < n;) {
        int32_t size = 1 + (int32_t)(hash3(seed, 0x6e0f, (uint64_t)i) % (uint64_t)max_group);
        for (int32_t k = 0; k < size && i < n; k++)
            cmap[order[i++]] = groups;
        groups++;
    }
    free(order);
    /* random coarse ids: relabel groups by a permutation */
    int32_t *relabel = random_order(groups, seed ^ 0x9e37);
    for (int32_t v = 0; v < n; v++)
        cmap[v] = relabel[cmap[v]];
    free(relabel);
    *nc = groups;
}

void oracle_dense_contract(const coarsen_graph *g, const int32_t *cmap, int32_t nc, double **d, char **present)
{
    size_t cells = (size_t)nc * (size_t)nc;
    *d = calloc(cells + 1, sizeof **d);
    *present = calloc(cells + 1, 1);
    for (int32_t u = 0; u < g->n; u++)
        for (int64_t e = g->xadj[u]; e < g->xadj[u + 1]; e++) {
            int32_t a = cmap[u], b = cmap[g->adj[e]];
            if (a >= b)
                continue;
            size_t cell = (size_t)a * (size_t)nc + (size_t)b;
            if ((*present)[cell])
                (*d)[cell] += g->ewgt[e];
            else
                (*d)[cell] = g->ewgt[e];
            (*present)[cell] = 1;
        }
    for (int32_t a = 0; a < nc; a++)
        for (int32_t b = 0; b < a; b++) {
            (*d)[(size_t)a * (size_t)nc + (size_t)b] = (*d)[(size_t)b * (size_t)nc + (size_t)a];
            (*present)[(size_t)a * (size_t)nc + (size_t)b] = (*present)[(size_t)b * (size_t)nc + (size_t)a];
        }
}

double oracle_cut(const coarsen_graph *g, const int32_t *part)
{
    double cut = 0;
    for (int32_t u = 0; u < g->n; u++)
        for (int64_t e = g->xadj[u]; e < g->xadj[u + 1]; e++)
            if (part[u] != part[g->adj[e]])
                cut += g->ewgt[e];
    return cut;
}

static int has_neighbour(const coarsen_graph *g, int32_t u, int32_t v)
{
    for (int64_t e = g->xadj[u]; e < g->xadj[u + 1]; e++)
        if (g->adj[e] == v)
            return 1;
    return 0;
}

int oracle_same_neighbours(const coarsen_graph *g, int32_t u, int32_t v)
{
    if (g->xadj[u + 1] - g->xadj[u] != g->xadj[v + 1] - g->xadj[v])
        return 0;
    for (int64_t e = g->xadj[u]; e < g->xadj[u + 1]; e++)
        if (!has_neighbour(g, v, g->adj[e]))
            return 0;
    return 1;
}

int oracle_share_neighbour(const coarsen_graph *g, int32_t u, int32_t v)
{
    for (int64_t e = g->xadj[u]; e < g->xadj[u + 1]; e++)
        if (has_neighbour(g, v, g->adj[e]))
            return 1;
    return 0;
}

/* The greedy pairing of cls[0..size) in order under cap; returns the pairs. */
static int64_t oracle_pair_greedy(const coarsen_graph *g, int64_t cap, const int32_t *cls, int32_t size, int32_t *mate)
{
    int64_t pairs = 0;
    int32_t pending = -1;
    for (int32_t i = 0; i < size; i++) {
        int32_t w = cls[i];
        if (pending < 0) {
            pending = w;
        } else if (cap <= 0 || g->vwgt[pending] + g->vwgt[w] <= cap) {
            mate[pending] = w;
            mate[w] = pending;
            pairs++;
            pending = -1;
        } else if (g->vwgt[w] < g->vwgt[pending]) {
            pending = w;
        }
    }
    return pairs;
}

/* The heaviest neighbour of v by a plain scan, ties to the smaller id. */
static int32_t oracle_hub(const coarsen_graph *g, int32_t v)
{
    int32_t best = -1;
    for (int64_t e = g->xadj[v]; e < g->xadj[v + 1]; e++) {
        int32_t u = g->adj[e];
        if (best < 0)
            best = u;
        for (int64_t f = g->xadj[v]; f < g->xadj[v + 1]; f++)
            if (g->adj[f] == best && (g->ewgt[e] > g->ewgt[f] || (g->ewgt[e] == g->ewgt[f] && u < best))) {
                best = u;
                break;
            }
    }
    return best;
}

void oracle_two_hop(const coarsen_graph *g, int64_t cap, double relatives_threshold, int32_t *mate,
                    int64_t pairs[4], int64_t *blocked)
{
    int32_t n = g->n;
    char *done = calloc((size_t)n + 1, 1);
    int32_t *cls = malloc(((size_t)n + 1) * sizeof *cls);
    int32_t *orig = malloc(((size_t)n + 1) * sizeof *orig);
    int32_t *hub = malloc(((size_t)n + 1) * sizeof *hub);
    memcpy(orig, mate, (size_t)n * sizeof *mate);
    pairs[0] = pairs[1] = pairs[2] = pairs[3] = 0;
    int32_t islands = 0;
    for (int32_t v = 0; v < n; v++)
        if (orig[v] == -1 && g->xadj[v + 1] == g->xadj[v])
            cls[islands++] = v;
    for (int32_t i = 0; i + 1 < islands; i += 2)
        if (cap <= 0 || g->vwgt[cls[i]] + g->vwgt[cls[i + 1]] <= cap) {
            mate[cls[i]] = cls[i + 1], mate[cls[i + 1]] = cls[i];
            pairs[3]++;
        }
    for (int32_t v = 0; v < n; v++) {
        if (done[v] || orig[v] != -1 || g->xadj[v + 1] == g->xadj[v])
            continue;
        int32_t size = 0;
        for (int32_t w = v; w < n; w++)
            if (!done[w] && orig[w] == -1 && oracle_same_neighbours(g, v, w)) {
                cls[size++] = w;
                done[w] = 1;
            }
        pairs[g->xadj[v + 1] - g->xadj[v] == 1 ? 0 : 1] += oracle_pair_greedy(g, cap, cls, size, mate);
    }
    int64_t unmatched = 0;
    for (int32_t v = 0; v < n; v++)
        unmatched += mate[v] == -1;
    if ((double)unmatched > relatives_threshold * (double)n) {
        memcpy(orig, mate, (size_t)n * sizeof *mate);
        memset(done, 0, (size_t)n);
        for (int32_t v = 0; v < n; v++)
            hub[v] = orig[v] == -1 ? oracle_hub(g, v) : -1;
        for (int32_t v = 0; v < n; v++) {
            if (done[v] || hub[v] < 0)
                continue;
            int32_t size = 0;
            for (int32_t w = v; w < n; w++)
                if (!done[w] && hub[w] == hub[v]) {
                    cls[size++] = w;
                    done[w] = 1;
                }
            pairs[2] += oracle_pair_greedy(g, cap, cls, size, mate);
        }
    }
    *blocked = 0;
    for (int32_t v = 0; v < n; v++) {
        int any = 0;
        for (int64_t e = g->xadj[v]; e < g->xadj[v + 1] && mate[v] == -1; e++)
            any |= mate[g->adj[e]] == -1;
        *blocked += any;
    }
    free(hub);
    free(orig);
    free(cls);
    free(done);
}

int graphs_identical(const coarsen_graph *a, const coarsen_graph *b, char *why, size_t why_len)
{
    if (a->n != b->n || a->nnz != b->nnz || a->integral_weights != b->integral_weights) {
        snprintf(why, why_len, "n %d/%d, nnz %lld/%lld, integral %d/%d", a->n, b->n, (long long)a->nnz,
                 (long long)b->nnz, a->integral_weights, b->integral_weights);
        return 0;
    }
    for (int32_t v = 0; v <= a->n; v++)
        if (a->xadj[v] != b->xadj[v])
            return snprintf(why, why_len, "xadj[%d] %lld/%lld", v, (long long)a->xadj[v], (long long)b->xadj[v]), 0;
    for (int32_t v = 0; v < a->n; v++)
        if (a->vwgt[v] != b->vwgt[v])
            return snprintf(why, why_len, "vwgt[%d] %lld/%lld", v, (long long)a->vwgt[v], (long long)b->vwgt[v]), 0;
    for (int64_t e = 0; e < a->nnz; e++) {
        if (a->adj[e] != b->adj[e])
            return snprintf(why, why_len, "adj[%lld] %d/%d", (long long)e, a->adj[e], b->adj[e]), 0;
        if (memcmp(&a->ewgt[e], &b->ewgt[e], sizeof(double)) != 0)
            return snprintf(why, why_len, "ewgt[%lld] %.17g/%.17g", (long long)e, a->ewgt[e], b->ewgt[e]), 0;
    }
    return 1;
}

/* Weight of edge number k under weight_mode (as test_random_graph). */
static double mode_weight(int weight_mode, uint64_t seed, uint64_t k)
{
    uint64_t h = hash3(seed ^ 0x5bd1e995u, k, 0x11);
    return weight_mode == 0 ? 1.0 : weight_mode == 1 ? (double)(1 + h % 4) : 1.0 - hash_unit(h);
}

coarsen_graph *oracle_twin_graph(int32_t n, int32_t types, double p, int32_t leaves, int weight_mode, uint64_t seed)
{
    coarsen_error err = {0};
    edge_list e;
    edge_list_init(&e, 16, &err);
    int32_t *type = malloc(((size_t)n + 1) * sizeof *type);
    for (int32_t v = 0; v < n; v++)
        type[v] = (int32_t)(hash3(seed, 0x7e, (uint64_t)v) % (uint64_t)types);
    uint64_t k = 0;
    for (int32_t u = 0; u < n; u++)
        for (int32_t v = u + 1; v < n; v++) {
            int32_t a = type[u] < type[v] ? type[u] : type[v], b = type[u] ^ type[v] ^ a;
            if (a != b && hash_unit(hash3(seed, (uint64_t)a, (uint64_t)b)) < p)
                edge_list_push(&e, u, v, mode_weight(weight_mode, seed, k++), &err);
        }
    for (int32_t l = 0; l < leaves && n > 0; l++) {
        int32_t hub = (int32_t)(hash3(seed, 0x1eaf, (uint64_t)l) % (uint64_t)(n < 4 ? n : 4 + n / 8));
        edge_list_push(&e, n + l, hub, mode_weight(weight_mode, seed, k++), &err);
    }
    free(type);
    graph_build_opts o = {.mirrored = 1, .dup_rule = MERGE_MAX, .sym_rule = MERGE_MAX};
    coarsen_graph *g = NULL;
    graph_from_edges(n + leaves, &e, &o, &g, NULL, &err);
    edge_list_free(&e);
    return g;
}
