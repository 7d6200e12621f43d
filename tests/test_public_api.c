/* test_public_api.c — the entry points of include/coarsen.h that the shared
 * library adds for programs that load it (the Python package): graphs from
 * entries by the general Matrix Market rules (against a naive recount),
 * coarsen_match against the internal matcher it fronts, coarsen_partition
 * against recounted cut and balance, the statistics file, the SIGINT
 * bracket, and the version. */
#include <criterion/criterion.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "coarsen.h"
#include "matching/matching.h"
#include "tests/support/test_support.h"

/* The weight of edge {u, v} in g by a linear scan, -1 when absent. */
static double edge_weight(const coarsen_graph *g, int32_t u, int32_t v)
{
    for (int64_t e = g->xadj[u]; e < g->xadj[u + 1]; e++)
        if (g->adj[e] == v)
            return g->ewgt[e];
    return -1;
}

Test(public_api, from_entries_follows_the_general_matrix_rules)
{
    /* (0,1) twice (summed: 3), (1,0) = -5 (|.| and max with 3: 5), a diagonal
     * entry, (2,3) only one way, (3,1) an explicit zero. */
    int32_t row[] = {0, 0, 1, 2, 2, 3};
    int32_t col[] = {1, 1, 0, 2, 3, 1};
    double w[] = {1, 2, -5, 7, 4, 0};
    int64_t vw[] = {1, 2, 3, 4};
    coarsen_error err = {0};
    coarsen_graph *g = NULL;
    cr_assert_eq(coarsen_graph_from_entries(4, 6, row, col, w, vw, &g, &err), 0, "%s", err.msg);
    cr_assert_eq(coarsen_graph_check(g, &err), 0, "%s", err.msg);
    cr_expect_eq(g->nnz, 6);
    cr_expect_eq(edge_weight(g, 0, 1), 5);
    cr_expect_eq(edge_weight(g, 1, 0), 5);
    cr_expect_eq(edge_weight(g, 2, 3), 4);
    cr_expect_eq(edge_weight(g, 3, 2), 4);
    cr_expect_eq(edge_weight(g, 1, 3), 0);
    cr_expect_eq(edge_weight(g, 2, 2), -1);
    for (int v = 0; v < 4; v++)
        cr_expect_eq(g->vwgt[v], vw[v]);
    coarsen_graph_free(g);

    /* A pattern: duplicates stay 1, vertex weights 1. */
    cr_assert_eq(coarsen_graph_from_entries(4, 6, row, col, NULL, NULL, &g, &err), 0, "%s", err.msg);
    cr_expect_eq(edge_weight(g, 0, 1), 1);
    cr_expect_eq(g->vwgt[3], 1);
    coarsen_graph_free(g);
}

Test(public_api, from_entries_names_the_first_bad_entry)
{
    int32_t row[] = {0, 1, 5, 1}, col[] = {1, 0, 0, 7};
    double w[] = {1, 1, 1, 1};
    coarsen_error err = {0};
    coarsen_graph *g = (coarsen_graph *)1;
    cr_expect_eq(coarsen_graph_from_entries(4, 4, row, col, w, NULL, &g, &err), COARSEN_ERR_INPUT);
    cr_expect_null(g);
    cr_expect(strstr(err.msg, "entry 2: (5, 0) is outside the 4 x 4 matrix"), "%s", err.msg);
    double nan_w[] = {1, NAN};
    cr_expect_eq(coarsen_graph_from_entries(4, 2, row, col, nan_w, NULL, &g, &err), COARSEN_ERR_INPUT);
    cr_expect(strstr(err.msg, "entry 1 (1, 0): weight nan is not a finite number"), "%s", err.msg);
    int64_t vw[] = {1, -1, 1, 1};
    cr_expect_eq(coarsen_graph_from_entries(4, 2, row, col, w, vw, &g, &err), COARSEN_ERR_INPUT);
    cr_expect(strstr(err.msg, "vertex 1: weight -1 is negative"), "%s", err.msg);
    int64_t big[] = {INT64_MAX, 1, 0, 0};
    cr_expect_eq(coarsen_graph_from_entries(4, 2, row, col, w, big, &g, &err), COARSEN_ERR_INPUT);
    cr_expect(strstr(err.msg, "add up to more than 2^63 - 1"), "%s", err.msg);
}

Test(public_api, match_gives_the_matchers_mates)
{
    coarsen_graph *g = test_random_graph(300, 0.03, 1, 7);
    coarsen_error err = {0};
    for (int redblue = 0; redblue <= 1; redblue++) {
        coarsen_match_opts o;
        coarsen_match_opts_default(&o);
        cr_expect_eq(o.hashed_ties, 1, "the pipeline's tie rule is the default, as `coarsen match`");
        o.device = COARSEN_DEVICE_CPU;
        o.matcher = redblue ? COARSEN_MATCHER_REDBLUE : COARSEN_MATCHER_HANDSHAKE;
        o.seed = 5;
        matching_opts mo;
        matching_opts_default(&mo);
        mo.kind = redblue ? MATCHER_REDBLUE : MATCHER_HANDSHAKE;
        mo.seed = 5;
        mo.hashed_ties = 1;
        int32_t *a = malloc(300 * sizeof *a), *b = malloc(300 * sizeof *b);
        coarsen_match_stats st;
        matching_stats ms;
        cr_assert_eq(coarsen_match(g, &o, a, &st, &err), 0, "%s", err.msg);
        cr_assert_eq(match_cpu(g, &mo, b, NULL, &ms, &err), 0, "%s", err.msg);
        cr_expect_arr_eq(a, b, 300 * sizeof *a);
        cr_expect_eq(st.pairs, ms.matched_edges);
        cr_expect_eq(st.weight, ms.weight);
        /* ROMA never lowers the weight and keeps a valid matching. */
        o.refine_roma = 1;
        coarsen_match_stats rs;
        cr_assert_eq(coarsen_match(g, &o, a, &rs, &err), 0, "%s", err.msg);
        cr_expect(oracle_matching_valid(g, a));
        cr_expect_geq(rs.weight, st.weight);
        free(a);
        free(b);
    }
    coarsen_graph_free(g);
}

Test(public_api, partition_is_balanced_and_reports_its_cut)
{
    coarsen_graph *g = test_random_graph(2000, 0.004, 1, 3);
    coarsen_partition_opts o;
    coarsen_partition_opts_default(&o);
    o.k = 4;
    o.hierarchy.device = COARSEN_DEVICE_CPU;
    int32_t *part = malloc(2000 * sizeof *part);
    coarsen_partition_info info;
    coarsen_error err = {0};
    cr_assert_eq(coarsen_partition(g, &o, part, &info, &err), 0, "%s", err.msg);
    int64_t w[4] = {0};
    double cut = 0;
    for (int32_t u = 0; u < g->n; u++) {
        cr_assert(part[u] >= 0 && part[u] < 4);
        w[part[u]] += g->vwgt[u];
        for (int64_t e = g->xadj[u]; e < g->xadj[u + 1]; e++)
            if (part[g->adj[e]] != part[u])
                cut += g->ewgt[e];
    }
    for (int p = 0; p < 4; p++)
        cr_expect_leq(w[p], info.cap);
    cr_expect_eq(info.cut, cut / 2);
    o.imbalance = -1;
    cr_expect_eq(coarsen_partition(g, &o, part, &info, &err), COARSEN_ERR_INPUT);
    free(part);
    coarsen_graph_free(g);
}

Test(public_api, write_stats_is_the_stats_json_object)
{
    coarsen_graph *g = test_random_graph(500, 0.02, 1, 11);
    coarsen_hierarchy_opts o;
    coarsen_hierarchy_opts_default(&o);
    o.device = COARSEN_DEVICE_CPU;
    o.coarsen_to = 0;
    o.levels = 3;
    coarsen_hierarchy *h = NULL;
    coarsen_error err = {0};
    cr_assert_eq(coarsen_hierarchy_build(g, &o, &h, &err), 0, "%s", err.msg);
    char path[] = "/tmp/coarsen-stats-XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    close(fd);
    cr_assert_eq(coarsen_hierarchy_write_stats(h, path, &err), 0, "%s", err.msg);
    FILE *f = fopen(path, "r");
    char buf[8192] = {0};
    size_t got = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    unlink(path);
    cr_assert(got > 0);
    cr_expect(strstr(buf, "\"command_line\": null"), "%s", buf);
    cr_expect(strstr(buf, "\"levels\": 3, \"vertices_in\": 500"), "%s", buf);
    cr_expect_eq(coarsen_hierarchy_write_stats(h, "/nonexistent-dir/stats.json", &err), COARSEN_ERR_IO);
    coarsen_hierarchy_free(h);
    coarsen_graph_free(g);
}

static volatile sig_atomic_t caller_saw;
static void caller_handler(int sig) { caller_saw = sig; }

Test(public_api, interrupt_bracket_records_sigint_and_restores_the_handler)
{
    struct sigaction sa = {0}, before;
    sa.sa_handler = caller_handler;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &before);
    coarsen_error err = {0};
    cr_assert_eq(coarsen_interrupt_catch(&err), 0, "%s", err.msg);
    raise(SIGINT);
    raise(SIGINT); /* a second one is recorded too, never fatal */
    /* A build started now stops before its first level. */
    coarsen_graph *g = test_random_graph(200, 0.05, 0, 1);
    coarsen_hierarchy *h = NULL;
    coarsen_hierarchy_opts o;
    coarsen_hierarchy_opts_default(&o);
    o.device = COARSEN_DEVICE_CPU;
    cr_expect_eq(coarsen_hierarchy_build(g, &o, &h, &err), COARSEN_ERR_INTERRUPTED);
    cr_expect_eq(coarsen_interrupt_release(), SIGINT);
    cr_expect_eq(caller_saw, 0);
    raise(SIGINT); /* the caller's handler again */
    cr_expect_eq(caller_saw, SIGINT);
    /* Nothing pending once released: the next bracket starts clean. */
    cr_assert_eq(coarsen_interrupt_catch(&err), 0);
    cr_expect_eq(coarsen_hierarchy_build(g, &o, &h, &err), 0, "%s", err.msg);
    cr_expect_eq(coarsen_interrupt_release(), 0);
    coarsen_hierarchy_free(h);
    coarsen_graph_free(g);
    sigaction(SIGINT, &before, NULL);
}

Test(public_api, version_is_the_headers)
{
    cr_expect_str_eq(coarsen_version(), COARSEN_VERSION);
}
