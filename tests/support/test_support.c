/* test_support.c — random test graphs, shared-data lookup and enumeration
 * oracles (see test_support.h). */
#include "tests/support/test_support.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/graph_build.h"
#include "core/hash.h"
#include "gen/generators.h"
#include "device/device.h"

coarsen_graph *test_gen(const char *spec)
{
    coarsen_error err = {0};
    gen_opts o;
    coarsen_graph *g = NULL;
    cr_assert_eq(gen_opts_parse_spec(spec, &o, &err), 0, "%s: %s", spec, err.msg);
    cr_assert_eq(gen_graph(&o, &g, &err), 0, "%s: %s", spec, err.msg);
    return g;
}

coarsen_graph *test_random_graph(int32_t n, double p, int weight_mode, uint64_t seed)
{
    coarsen_error err = {0};
    edge_list e;
    if (edge_list_init(&e, 16, &err))
        return NULL;
    for (int32_t u = 0; u < n; u++)
        for (int32_t v = u + 1; v < n; v++) {
            if (hash_unit(hash3(seed, (uint64_t)u, (uint64_t)v)) >= p)
                continue;
            uint64_t h = hash3(seed ^ 0x5bd1e995u, (uint64_t)u, (uint64_t)v);
            double w = weight_mode == 0 ? 1.0 : weight_mode == 1 ? (double)(1 + h % 4) : 1.0 - hash_unit(h);
            edge_list_push(&e, u, v, w, &err);
        }
    graph_build_opts o = {.mirrored = 1, .dup_rule = MERGE_SUM, .sym_rule = MERGE_MAX};
    coarsen_graph *g = NULL;
    graph_from_edges(n, &e, &o, &g, NULL, &err);
    edge_list_free(&e);
    return g;
}

const char *test_data_dir(void)
{
    const char *dir = getenv("COARSEN_DATA");
    if (!dir)
        dir = "../shared/data";
    struct stat st;
    return stat(dir, &st) == 0 && S_ISDIR(st.st_mode) ? dir : NULL;
}

/* Best matching weight of the vertices in mask (lowest vertex first). */
static double best(const coarsen_graph *g, uint32_t mask, double *memo, char *seen)
{
    if (!mask)
        return 0;
    if (seen[mask])
        return memo[mask];
    int u = __builtin_ctz(mask);
    uint32_t rest = mask & ~(1u << u);
    double b = best(g, rest, memo, seen); /* u unmatched */
    for (int64_t e = g->xadj[u]; e < g->xadj[u + 1]; e++) {
        int v = g->adj[e];
        if (rest & (1u << v)) {
            double c = g->ewgt[e] + best(g, rest & ~(1u << v), memo, seen);
            if (c > b)
                b = c;
        }
    }
    seen[mask] = 1;
    memo[mask] = b;
    return b;
}

double oracle_max_matching_weight(const coarsen_graph *g)
{
    size_t states = (size_t)1 << g->n;
    double *memo = calloc(states, sizeof *memo);
    char *seen = calloc(states, 1);
    double b = best(g, (uint32_t)(states - 1), memo, seen);
    free(memo);
    free(seen);
    return b;
}

int test_has_edge(const coarsen_graph *g, int32_t u, int32_t v)
{
    for (int64_t e = g->xadj[u]; e < g->xadj[u + 1]; e++)
        if (g->adj[e] == v)
            return 1;
    return 0;
}

int oracle_matching_valid(const coarsen_graph *g, const int32_t *mate)
{
    for (int32_t v = 0; v < g->n; v++) {
        int32_t m = mate[v];
        if (m == -1)
            continue;
        if (m < 0 || m >= g->n || m == v || mate[m] != v || !test_has_edge(g, v, m))
            return 0;
    }
    return 1;
}

int oracle_matching_maximal(const coarsen_graph *g, const int32_t *mate)
{
    for (int32_t u = 0; u < g->n; u++)
        for (int64_t e = g->xadj[u]; e < g->xadj[u + 1]; e++)
            if (mate[u] == -1 && mate[g->adj[e]] == -1)
                return 0;
    return 1;
}

int test_have_gpu(void)
{
    return device_built_with_cuda() && device_gpu_count() > 0;
}
