/* partition_check.c — oracles and fixtures of the partitioning tests
 * (tests/support/partition_check.h). */
#include "tests/support/partition_check.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>

#include "core/hash.h"
#include "gen/generators.h"

double oracle_partition_cut(const coarsen_graph *g, const int32_t *part)
{
    int32_t n = g->n;
    cr_assert_leq(n, 4096);
    double *m = calloc((size_t)n * n + 1, sizeof *m);
    cr_assert_not_null(m);
    for (int32_t v = 0; v < n; v++)
        for (int64_t i = g->xadj[v]; i < g->xadj[v + 1]; i++)
            m[(size_t)v * n + g->adj[i]] = g->ewgt[i];
    double cut = 0;
    for (int32_t i = 0; i < n; i++)
        for (int32_t j = i + 1; j < n; j++)
            if (part[i] != part[j])
                cut += m[(size_t)i * n + j];
    free(m);
    return cut;
}

int64_t oracle_cap(const coarsen_graph *g, int32_t k, double eps)
{
    int64_t w = 0, wmax = 0;
    for (int32_t v = 0; v < g->n; v++) {
        w += g->vwgt[v];
        wmax = g->vwgt[v] > wmax ? g->vwgt[v] : wmax;
    }
    int64_t a = (int64_t)floor((1 + eps) * (double)w / k), b = (w + k - 1) / k + (wmax ? wmax - 1 : 0);
    return a > b ? a : b;
}

void expect_partition_within(const coarsen_graph *g, const int32_t *part, int32_t k, int64_t cap)
{
    int64_t *w = calloc((size_t)k, sizeof *w);
    cr_assert_not_null(w);
    for (int32_t v = 0; v < g->n; v++) {
        cr_assert(part[v] >= 0 && part[v] < k, "vertex %d has part %d, k = %d", v, part[v], k);
        w[part[v]] += g->vwgt[v];
    }
    for (int32_t p = 0; p < k; p++)
        cr_assert_leq(w[p], cap, "part %d weighs %lld > cap %lld", p, (long long)w[p], (long long)cap);
    free(w);
}

int32_t *random_partition(const coarsen_graph *g, int32_t k, uint64_t seed)
{
    int32_t *part = malloc(((size_t)g->n + 1) * sizeof *part);
    cr_assert_not_null(part);
    for (int32_t v = 0; v < g->n; v++)
        part[v] = (int32_t)(hash3(seed, (uint64_t)v, 7) % (uint64_t)k);
    return part;
}

coarsen_graph *partition_test_graph(const char *spec, int64_t maxvw, uint64_t seed)
{
    coarsen_error err = {0};
    gen_opts o;
    coarsen_graph *g = NULL;
    cr_assert_eq(gen_opts_parse_spec(spec, &o, &err), 0, "%s", err.msg);
    cr_assert_eq(gen_graph(&o, &g, &err), 0, "%s", err.msg);
    if (maxvw > 1)
        for (int32_t v = 0; v < g->n; v++)
            g->vwgt[v] = 1 + (int64_t)(hash3(seed, (uint64_t)v, 11) % (uint64_t)maxvw);
    return g;
}
