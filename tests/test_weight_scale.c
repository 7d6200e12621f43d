/* test_weight_scale.c — edge weights that METIS and ParHIP files cannot hold
 * as they are: the automatic scale (io/weight_scale.h) is the largest power
 * of two keeping the total within 2^31 - 1 and every weight within the
 * relative error it states (checked weight by weight, on the written levels
 * too); zero weights are refused by it and written as 1 by --unit-weights;
 * integers above 2^53 in a file are refused, never rounded; integer weights
 * too large for METIS are called so, not "real". */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/weight_scale.h"
#include "tests/support/cli_run.h"
#include "tests/support/io_files.h"
#include "tests/support/test_support.h"

Test(weight_scale, auto_is_the_largest_power_of_two_and_keeps_its_stated_error)
{
    for (uint64_t seed = 1; seed <= 4; seed++) {
        coarsen_graph *g = test_random_graph(200, 0.05, 2, seed); /* reals */
        for (int32_t u = 0; u < g->n; u++) /* spread them over 3 decades, symmetrically */
            for (int64_t i = g->xadj[u]; i < g->xadj[u + 1]; i++)
                g->ewgt[i] *= 1 + (double)((u + g->adj[i]) % 997);
        g->integral_weights = 0;
        double scale, rel, total = 0, wmin = INFINITY;
        coarsen_error err = {0};
        cr_assert_eq(weight_scale_auto(g, &scale, &rel, &err), 0, "%s", err.msg);
        for (int64_t k = 0; k < g->nnz; k++)
            total += g->ewgt[k], wmin = fmin(wmin, g->ewgt[k]);
        total /= 2;
        int e;
        cr_expect_eq(frexp(scale, &e), 0.5, "%.17g is not a power of two", scale);
        cr_expect_leq(scale * total, WEIGHT_SCALE_TOTAL_MAX);
        cr_expect_gt(2 * scale * total, WEIGHT_SCALE_TOTAL_MAX, "a larger scale would fit");
        cr_expect_eq(rel, 0.5 / (scale * wmin));
        for (int64_t k = 0; k < g->nnz; k++) {
            double x = g->ewgt[k] * scale;
            cr_expect_leq(fabs(nearbyint(x) - x) / x, rel, "weight %.17g", g->ewgt[k]);
            cr_expect_geq(nearbyint(x), 1);
        }
        g->ewgt[0] = 0;
        cr_expect_eq(weight_scale_auto(g, &scale, &rel, &err), COARSEN_ERR_INPUT);
        cr_expect(strstr(err.msg, "--unit-weights"), "%s", err.msg);
        coarsen_graph_free(g);
    }
    coarsen_graph *ints = test_random_graph(100, 0.1, 1, 3);
    double scale, rel;
    cr_assert_eq(weight_scale_auto(ints, &scale, &rel, NULL), 0);
    cr_expect(scale == 1 && rel == 0, "integer weights are written exactly");
    coarsen_graph_free(ints);
}

/* A Matrix Market file of a 30 x 30 grid whose weights span 1e-3 .. 1e3. */
static const char *real_grid(void)
{
    static char path[700];
    snprintf(path, sizeof path, "%s", io_path("ws-grid.mtx"));
    FILE *f = fopen(path, "w");
    fprintf(f, "%%%%MatrixMarket matrix coordinate real symmetric\n900 900 1740\n");
    for (int v = 0; v < 900; v++) {
        if (v % 30 < 29)
            fprintf(f, "%d %d %.17g\n", v + 2, v + 1, pow(10, -3 + 6.0 * (v % 7) / 6));
        if (v < 870)
            fprintf(f, "%d %d %.17g\n", v + 31, v + 1, 0.5 + v);
    }
    fclose(f);
    return path;
}

Test(weight_scale, pipeline_auto_levels_are_within_the_stated_error)
{
    const char *src = real_grid();
    char dir_m[700], dir_x[700], args[4096];
    static char err[8192];
    snprintf(dir_m, sizeof dir_m, "%s", io_path("ws-metis"));
    snprintf(dir_x, sizeof dir_x, "%s", io_path("ws-mtx"));
    snprintf(args, sizeof args, "--levels 3 --weight-scale auto --out %s %s", dir_m, src);
    cr_assert_eq(cli_run_prog(args, NULL, 0, err, sizeof err), 0, "%s", err);
    const char *line = strstr(err, "weight scale auto: ");
    cr_assert_not_null(line, "%s", err);
    double scale = strtod(line + strlen("weight scale auto: "), NULL);
    const char *e = strstr(line, "relative error of ");
    cr_assert_not_null(e);
    double rel = strtod(e + strlen("relative error of "), NULL) * (1 + 1e-2); /* printed to 3 digits */
    snprintf(args, sizeof args, "--quiet --levels 3 --format mtx --out %s %s", dir_x, src);
    cr_assert_eq(cli_run_prog(args, NULL, 0, err, sizeof err), 0, "%s", err);
    for (int k = 0; k <= 3; k++) {
        char pm[800], px[800];
        snprintf(pm, sizeof pm, "%s/level-%d.graph", dir_m, k);
        snprintf(px, sizeof px, "%s/level-%d.mtx", dir_x, k);
        coarsen_graph *m = NULL, *x = NULL;
        coarsen_error er = {0};
        cr_assert_eq(coarsen_graph_load(pm, &m, NULL, &er), 0, "%s", er.msg);
        cr_assert_eq(coarsen_graph_load(px, &x, NULL, &er), 0, "%s", er.msg);
        cr_assert_eq(m->nnz, x->nnz, "level %d", k);
        double total = 0;
        for (int64_t i = 0; i < m->nnz; i++) {
            cr_assert_eq(m->adj[i], x->adj[i]);
            double exact = x->ewgt[i] * scale;
            cr_expect_leq(fabs(m->ewgt[i] - exact) / exact, rel, "level %d entry %lld: %.17g for %.17g", k,
                          (long long)i, m->ewgt[i], exact);
            total += m->ewgt[i];
        }
        cr_expect_leq(total / 2, WEIGHT_SCALE_TOTAL_MAX + (double)m->nnz / 4, "level %d's total (rounding adds "
                                                                                  "at most 1/2 per edge)", k);
        coarsen_graph_free(m), coarsen_graph_free(x);
    }
}

Test(weight_scale, zero_weights_need_unit_weights)
{
    char src[700], out[700], args[4096];
    static char err[4096];
    snprintf(src, sizeof src, "%s",
             io_file("ws-zero.mtx", "%%MatrixMarket matrix coordinate real symmetric\n3 3 2\n2 1 0\n3 2 2.5\n", 0));
    snprintf(out, sizeof out, "%s", io_path("ws-zero.graph"));
    snprintf(args, sizeof args, "convert --weight-scale auto %s %s", src, out);
    cr_expect_eq(cli_run_prog(args, NULL, 0, err, sizeof err), EXIT_INPUT, "%s", err);
    cr_expect(strstr(err, "weighs 0") && strstr(err, "--unit-weights"), "%s", err);
    snprintf(args, sizeof args, "convert --quiet --unit-weights %s %s", src, out);
    cr_assert_eq(cli_run_prog(args, NULL, 0, err, sizeof err), 0, "%s", err);
    coarsen_graph *g = NULL;
    coarsen_error er = {0};
    cr_assert_eq(coarsen_graph_load(out, &g, NULL, &er), 0, "%s", er.msg);
    cr_expect_eq(g->nnz, 4);
    for (int64_t k = 0; k < g->nnz; k++)
        cr_expect_eq(g->ewgt[k], 1.0);
    coarsen_graph_free(g);
}

/* 2^53 is kept, 2^53 + 1 refused with one line, in METIS and Matrix Market. */
Test(weight_scale, integers_beyond_2_53_are_refused_not_rounded)
{
    char path[700], args[1024];
    static char err[4096];
    snprintf(path, sizeof path, "%s", io_file("ws-exact.graph", "2 1 1\n2 9007199254740992\n1 9007199254740992\n", 0));
    coarsen_graph *g = NULL;
    coarsen_error er = {0};
    cr_assert_eq(coarsen_graph_load(path, &g, NULL, &er), 0, "%s", er.msg);
    cr_expect_eq(g->ewgt[0], 9007199254740992.0);
    coarsen_graph_free(g);
    snprintf(path, sizeof path, "%s", io_file("ws-big.graph", "2 1 1\n2 9007199254740993\n1 9007199254740993\n", 0));
    snprintf(args, sizeof args, "info %s", path);
    cr_expect_eq(cli_run_prog(args, NULL, 0, err, sizeof err), EXIT_INPUT, "%s", err);
    cr_expect(strstr(err, ":2:") && strstr(err, "2^53"), "%s", err);
    snprintf(path, sizeof path, "%s",
             io_file("ws-big.mtx", "%%MatrixMarket matrix coordinate integer symmetric\n2 2 1\n2 1 -9007199254740993\n",
                     0));
    snprintf(args, sizeof args, "info %s", path);
    cr_expect_eq(cli_run_prog(args, NULL, 0, err, sizeof err), EXIT_INPUT, "%s", err);
    cr_expect(strstr(err, "2^53"), "%s", err);
}

/* Whole weights METIS cannot hold are named as such, before any work. */
Test(weight_scale, huge_integer_weights_are_not_called_real)
{
    char path[700], out[700], args[4096];
    static char err[4096];
    snprintf(path, sizeof path, "%s",
             io_file("ws-huge.mtx", "%%MatrixMarket matrix coordinate real symmetric\n3 3 2\n2 1 1e19\n3 2 4\n", 0));
    snprintf(out, sizeof out, "%s", io_path("ws-huge.graph"));
    snprintf(args, sizeof args, "convert %s %s", path, out);
    cr_expect_eq(cli_run_prog(args, NULL, 0, err, sizeof err), EXIT_INPUT, "%s", err);
    cr_expect(strstr(err, "integer edge weights beyond") && !strstr(err, "real"), "%s", err);
    snprintf(args, sizeof args, "--levels 1 --out %s.d %s", out, path);
    cr_expect_eq(cli_run_prog(args, NULL, 0, err, sizeof err), EXIT_INPUT, "%s", err);
    cr_expect(strstr(err, "integer edge weights add up") && !strstr(err, "real"), "%s", err);
    cr_expect(!strstr(err, "level 1:"), "refused before the levels are built: %s", err);
}
