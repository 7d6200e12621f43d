/* hierarchy_check.c — independent checks of coarsening levels (see
 * hierarchy_check.h). */
#include "tests/support/hierarchy_check.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/hash.h"

double cut_of(const coarsen_graph *g, const int32_t *part)
{
    double cut = 0;
    for (int32_t u = 0; u < g->n; u++)
        for (int64_t e = g->xadj[u]; e < g->xadj[u + 1]; e++)
            if (g->adj[e] > u && part[u] != part[g->adj[e]])
                cut += g->ewgt[e];
    return cut;
}

static double total_edge_weight(const coarsen_graph *g)
{
    double t = 0;
    for (int64_t e = 0; e < g->nnz; e++)
        t += g->ewgt[e];
    return t / 2;
}

static int same_row(const coarsen_graph *g, int32_t u, int32_t v)
{
    int64_t a = g->xadj[u], b = g->xadj[v], len = g->xadj[u + 1] - a;
    return len == g->xadj[v + 1] - b && !memcmp(g->adj + a, g->adj + b, (size_t)len * sizeof *g->adj);
}

static int adjacent(const coarsen_graph *g, int32_t u, int32_t v)
{
    for (int64_t e = g->xadj[u]; e < g->xadj[u + 1]; e++)
        if (g->adj[e] == v)
            return 1;
    return 0;
}

static int share_neighbour(const coarsen_graph *g, int32_t u, int32_t v)
{
    for (int64_t e = g->xadj[u]; e < g->xadj[u + 1]; e++)
        if (adjacent(g, v, g->adj[e]))
            return 1;
    return 0;
}

/* 1 when the members of coarse vertex c (map[v] == c) induce a connected
 * subgraph of fine: a search from `first` inside the group reaches `size`
 * members. seen has fine->n zeroed bytes and is left zeroed. */
static int group_connected(const coarsen_graph *fine, const int32_t *map, int32_t c, int32_t first, int32_t size,
                           char *seen, int32_t *stack)
{
    int32_t top = 0, reached = 0;
    stack[top++] = first;
    seen[first] = 1;
    while (top > 0) {
        int32_t u = stack[--top];
        reached++;
        for (int64_t e = fine->xadj[u]; e < fine->xadj[u + 1]; e++) {
            int32_t w = fine->adj[e];
            if (map[w] == c && !seen[w]) {
                seen[w] = 1;
                stack[top++] = w;
            }
        }
    }
    for (int32_t v = 0; v < fine->n; v++)
        if (map[v] == c)
            seen[v] = 0;
    return reached == size;
}

/* Equal, exactly for integer weights, to 1e-9 relative otherwise. */
static void assert_weight(double got, double want, int integral, int level, const char *what)
{
    if (integral)
        cr_assert_eq(got, want, "level %d: %s %.17g != %.17g", level, what, got, want);
    else
        cr_assert(fabs(got - want) <= 1e-9 * fmax(1, fabs(want)), "level %d: %s %.17g != %.17g", level, what,
                  got, want);
}

/* A random partition of coarse into `parts` parts (drawn from seed) cuts
 * coarse exactly as much as its projection through to_coarse cuts fine. */
static void assert_projected_cut(const coarsen_graph *fine, const coarsen_graph *coarse, const int32_t *to_coarse,
                                 int parts, uint64_t seed, int level, const char *what)
{
    int32_t *part = malloc(((size_t)coarse->n + 1) * sizeof *part), *proj = malloc(((size_t)fine->n + 1) * sizeof *proj);
    for (int32_t c = 0; c < coarse->n; c++)
        part[c] = (int32_t)(hash3(seed, 0, (uint64_t)c) % (uint64_t)parts);
    for (int32_t v = 0; v < fine->n; v++)
        proj[v] = part[to_coarse[v]];
    assert_weight(cut_of(coarse, part), cut_of(fine, proj), fine->integral_weights, level, what);
    free(part);
    free(proj);
}

void check_level(const coarsen_graph *fine, const coarsen_graph *coarse, const int32_t *map, int64_t cap,
                 int level, uint64_t seed)
{
    coarsen_error err = {0};
    cr_assert_eq(coarsen_graph_check(coarse, &err), 0, "level %d: %s", level, err.msg);
    cr_assert_eq(coarse->integral_weights, fine->integral_weights, "level %d: weight kind changed", level);
    int32_t nc = coarse->n;
    int32_t *first = malloc(((size_t)nc + 1) * sizeof *first), *size = calloc((size_t)nc + 1, sizeof *size);
    int32_t *islands = calloc((size_t)nc + 1, sizeof *islands);
    int32_t *first_joined = malloc(((size_t)nc + 1) * sizeof *first_joined); /* its first member with edges */
    int64_t *vw = calloc((size_t)nc + 1, sizeof *vw);
    for (int32_t v = 0; v < fine->n; v++) {
        int32_t c = map[v];
        cr_assert(c >= 0 && c < nc, "level %d: map[%d] = %d outside [0, %d)", level, v, c, nc);
        if (size[c]++ == 0)
            first[c] = v;
        if (fine->xadj[v + 1] == fine->xadj[v])
            islands[c]++;
        else if (size[c] - islands[c] == 1)
            first_joined[c] = v;
        vw[c] += fine->vwgt[v];
    }
    for (int32_t v = 0; v < fine->n; v++) { /* pairs: v the second member */
        int32_t c = map[v], u = first[c];
        if (size[c] != 2 || u == v)
            continue;
        int isolated = fine->xadj[u + 1] == fine->xadj[u] && fine->xadj[v + 1] == fine->xadj[v];
        cr_assert(adjacent(fine, u, v) || same_row(fine, u, v) || share_neighbour(fine, u, v) || isolated,
                  "level %d: %d and %d share coarse vertex %d but are neither adjacent, nor share a "
                  "neighbour, nor both isolated",
                  level, u, v, c);
    }
    char *seen = calloc((size_t)fine->n + 1, 1);
    int32_t *stack = malloc(((size_t)fine->n + 1) * sizeof *stack);
    for (int32_t c = 0; c < nc; c++) /* groups of three or more (clustering): connected, but for one island */
        if (size[c] > 2) {
            cr_assert(islands[c] <= 1 && size[c] - islands[c] >= 2,
                      "level %d: coarse vertex %d has %d isolated members of %d", level, c, islands[c], size[c]);
            cr_assert(group_connected(fine, map, c, first_joined[c], size[c] - islands[c], seen, stack),
                      "level %d: the %d members of coarse vertex %d with edges are not connected", level,
                      size[c] - islands[c], c);
        }
    free(islands), free(first_joined);
    free(seen);
    free(stack);
    for (int32_t c = 0; c < nc; c++) {
        cr_assert(size[c] > 0, "level %d: map not onto (coarse vertex %d has no member)", level, c);
        cr_assert_eq(coarse->vwgt[c], vw[c], "level %d: coarse vertex %d weight %lld, members sum %lld", level, c,
                     (long long)coarse->vwgt[c], (long long)vw[c]);
        if (cap > 0 && size[c] >= 2)
            cr_assert(vw[c] <= cap, "level %d: group %d weighs %lld above the cap %lld", level, c,
                      (long long)vw[c], (long long)cap);
    }
    double internal = 0;
    for (int32_t u = 0; u < fine->n; u++)
        for (int64_t e = fine->xadj[u]; e < fine->xadj[u + 1]; e++)
            if (fine->adj[e] > u && map[u] == map[fine->adj[e]])
                internal += fine->ewgt[e];
    assert_weight(total_edge_weight(coarse), total_edge_weight(fine) - internal, fine->integral_weights, level,
                  "coarse edge weight vs fine - internal");
    for (int trial = 0; trial < 4; trial++)
        assert_projected_cut(fine, coarse, map, 2 + trial * 3, hash3(seed, (uint64_t)level, (uint64_t)trial), level,
                             "cut");
    free(first);
    free(size);
    free(vw);
}

void check_hierarchy(coarsen_hierarchy *h, int64_t cap, uint64_t seed)
{
    coarsen_error err = {0};
    int levels = coarsen_hierarchy_levels(h);
    const coarsen_graph *g0, *fine, *coarse;
    cr_assert_eq(coarsen_hierarchy_graph(h, 0, &g0, &err), 0, "%s", err.msg);
    int32_t *to_coarse = malloc(((size_t)g0->n + 1) * sizeof *to_coarse); /* finest vertex -> level k */
    for (int32_t v = 0; v < g0->n; v++)
        to_coarse[v] = v;
    fine = g0;
    for (int k = 0; k <= levels; k++) {
        const coarsen_level_stats *s = coarsen_hierarchy_stats(h, k);
        if (k > 0) {
            const int32_t *map;
            cr_assert_eq(coarsen_hierarchy_graph(h, k, &coarse, &err), 0, "%s", err.msg);
            cr_assert_eq(coarsen_hierarchy_map(h, k, &map, &err), 0, "%s", err.msg);
            check_level(fine, coarse, map, cap == COARSEN_VWGT_AUTO ? s->vertex_weight_cap : cap, k, seed);
            for (int32_t v = 0; v < g0->n; v++)
                to_coarse[v] = map[to_coarse[v]];
            fine = coarse;
            cr_assert(s->vertices < coarsen_hierarchy_stats(h, k - 1)->vertices, "level %d removed no vertex", k);
        }
        cr_assert_eq(s->vertices, fine->n, "level %d: stats vertices", k);
        cr_assert_eq(s->edges, fine->nnz / 2, "level %d: stats edges", k);
        cr_assert_eq(s->total_vertex_weight, coarsen_hierarchy_stats(h, 0)->total_vertex_weight,
                     "level %d: total vertex weight not preserved", k);
        int64_t vsum = 0;
        for (int32_t v = 0; v < fine->n; v++)
            vsum += fine->vwgt[v];
        cr_assert_eq(s->total_vertex_weight, vsum, "level %d: stats total vertex weight", k);
        assert_weight(s->total_edge_weight, total_edge_weight(fine), fine->integral_weights, k,
                      "stats total edge weight");
        assert_projected_cut(g0, fine, to_coarse, 5, hash3(seed ^ 0xabcdef, (uint64_t)k, 0), k,
                             "cut projected to level 0");
    }
    free(to_coarse);
}
