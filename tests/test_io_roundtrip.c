/* test_io_roundtrip.c — read -> write -> read gives the same graph, in both
 * formats, plain and gzip'd; METIS refuses real weights without a scale and
 * rounds exactly as documented with one; failed writes leave no file. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "tests/support/io_files.h"
#include "tests/support/test_support.h"

static coarsen_graph *write_and_read(const coarsen_graph *g, const char *name, coarsen_format fmt, double scale)
{
    char path[600];
    snprintf(path, sizeof path, "%s", io_path(name));
    coarsen_error err = {0};
    cr_assert_eq(coarsen_graph_write(g, path, fmt, scale, &err), 0, "write %s: %s", name, err.msg);
    coarsen_graph *h = NULL;
    cr_assert_eq(coarsen_graph_load(path, &h, NULL, &err), 0, "reread %s: %s", name, err.msg);
    return h;
}

static const char *const names[2][2] = {{"rt.graph", "rt.graph.gz"}, {"rt.mtx", "rt.mtx.gz"}};

Test(io_roundtrip, integer_and_unit_weights_both_formats_plain_and_gzip)
{
    for (int mode = 0; mode < 2; mode++) {
        coarsen_graph *g = test_random_graph(60, 0.1, mode, 7 + (uint64_t)mode);
        for (int fmt = 0; fmt < 2; fmt++)
            for (int gz = 0; gz < 2; gz++) {
                coarsen_graph *h = write_and_read(g, names[fmt][gz], (coarsen_format)fmt, 0);
                io_expect_same_graph(g, h);
                cr_expect_eq(h->integral_weights, 1);
                coarsen_graph_free(h);
            }
        coarsen_graph_free(g);
    }
}

Test(io_roundtrip, real_weights_exact_through_matrix_market)
{
    coarsen_graph *g = test_random_graph(50, 0.15, 2, 11);
    for (int gz = 0; gz < 2; gz++) {
        coarsen_graph *h = write_and_read(g, names[1][gz], COARSEN_FORMAT_MTX, 0);
        io_expect_same_graph(g, h);
        coarsen_graph_free(h);
    }
    coarsen_graph_free(g);
}

Test(io_roundtrip, metis_vertex_weights_fmt10_and_fmt11)
{
    for (int mode = 0; mode < 2; mode++) {
        coarsen_graph *g = test_random_graph(40, 0.2, mode, 3);
        for (int32_t u = 0; u < g->n; u++)
            g->vwgt[u] = u % 5; /* zero weights are valid in METIS */
        coarsen_graph *h = write_and_read(g, "vw.graph", COARSEN_FORMAT_METIS, 0);
        io_expect_same_graph(g, h);
        coarsen_graph_free(h);
        coarsen_graph_free(g);
    }
}

Test(io_roundtrip, metis_refuses_real_weights_without_scale_and_leaves_no_file)
{
    coarsen_graph *g = test_random_graph(30, 0.3, 2, 5);
    const char *path = io_path("real.graph");
    coarsen_error err = {0};
    cr_assert_eq(coarsen_graph_write(g, path, COARSEN_FORMAT_METIS, 0, &err), COARSEN_ERR_INPUT);
    cr_expect(strstr(err.msg, "weight scale"), "%s", err.msg);
    cr_expect_neq(access(path, F_OK), 0, "no file after a failed write");
    coarsen_graph_free(g);
}

Test(io_roundtrip, metis_scaled_real_weights_are_rounded_products)
{
    coarsen_graph *g = test_random_graph(30, 0.3, 2, 9);
    coarsen_graph *h = write_and_read(g, "scaled.graph", COARSEN_FORMAT_METIS, 1000);
    cr_assert_eq(h->nnz, g->nnz);
    for (int64_t k = 0; k < g->nnz; k++) {
        cr_assert_eq(h->adj[k], g->adj[k]);
        cr_assert_eq(h->ewgt[k], nearbyint(g->ewgt[k] * 1000), "%.17g", g->ewgt[k]);
    }
    coarsen_graph_free(h);
    coarsen_graph_free(g);
}

Test(io_roundtrip, metis_refuses_zero_weight_edge_and_scale_that_rounds_to_zero)
{
    coarsen_graph *g = io_load_text("%%MatrixMarket matrix coordinate real symmetric\n3 3 2\n2 1 0\n3 2 0.25\n", 0, NULL);
    coarsen_error err = {0};
    cr_assert_eq(coarsen_graph_write(g, io_path("zero.graph"), COARSEN_FORMAT_METIS, 1, &err), COARSEN_ERR_INPUT);
    cr_expect(strstr(err.msg, "rounds to 0"), "%s", err.msg);
    coarsen_graph_free(g);
    g = io_load_text("%%MatrixMarket matrix coordinate integer symmetric\n3 3 2\n2 1 0\n3 2 4\n", 0, NULL);
    cr_assert_eq(coarsen_graph_write(g, io_path("zero.graph"), COARSEN_FORMAT_METIS, 0, &err), COARSEN_ERR_INPUT);
    cr_expect(strstr(err.msg, "edge weight 0 cannot be written"), "%s", err.msg);
    cr_expect_neq(access(io_path("zero.graph"), F_OK), 0, "no file after a failed write");
    /* Matrix Market keeps the zero-weight edge. */
    coarsen_graph *h = write_and_read(g, "zero.mtx", COARSEN_FORMAT_MTX, 0);
    io_expect_same_graph(g, h);
    coarsen_graph_free(h);
    coarsen_graph_free(g);
}

Test(io_roundtrip, written_text_is_the_documented_form)
{
    coarsen_graph *g = io_load_text("3 2 11\n4 2 5\n0 1 5 3 7\n9 2 7\n", 0, NULL);
    coarsen_error err = {0};
    cr_assert_eq(coarsen_graph_write(g, io_path("out.graph"), COARSEN_FORMAT_METIS, 0, &err), 0, "%s", err.msg);
    char buf[256] = {0};
    FILE *f = fopen(io_path("out.graph"), "r");
    cr_assert(f);
    size_t len = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[len] = '\0';
    cr_expect_str_eq(buf, "3 2 11\n4 2 5 \n0 1 5 3 7 \n9 2 7 \n");
    cr_assert_eq(coarsen_graph_write(g, io_path("out.mtx"), COARSEN_FORMAT_MTX, 0, &err), 0, "%s", err.msg);
    f = fopen(io_path("out.mtx"), "r");
    len = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[len] = '\0';
    cr_expect_str_eq(buf, "%%MatrixMarket matrix coordinate integer symmetric\n% written by coarsen " COARSEN_VERSION
                          "\n3 3 2\n2 1 5\n3 2 7\n");
    coarsen_graph_free(g);
}
