/* test_cli_transversal.c — `coarsen --transversal pr|weighted` (run as a
 * child process, COARSEN_PROG): the printed structural rank equals
 * Hopcroft–Karp's, the diagonal counts printed and in stats.json agree with a
 * recount on the written permutation (which must be a permutation), a full
 * square matrix ends with a full diagonal, and the level-0 graph equals the
 * graph built here from the file's entries with their columns permuted
 * (graph_from_edges, general-matrix rules). Shared matrices west0067,
 * bayer10 and lp_afiro (27 x 51) plus a small matrix with an empty diagonal
 * and a perfect transversal; METIS input is a one-line error, exit 2. With a
 * GPU the same checks run with --device gpu. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bipartite/cardinality.h"
#include "core/graph_build.h"
#include "io/mtx_read.h"
#include "tests/support/bipartite_oracle.h"
#include "tests/support/cli_run.h"
#include "tests/support/io_files.h"
#include "tests/support/test_support.h"

/* Runs COARSEN_PROG with args, stdout and stderr together into out; returns
 * the exit status. */
static int run_both(const char *args, char *out, size_t size)
{
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "%s %s 2>&1", cli_prog(), args);
    return cli_run(cmd, out, size);
}

/* The graph of the file's stored entries (general storage) with column c
 * moved to position pos[c], on max(rows, cols) vertices. */
static coarsen_graph *expected_graph(const mtx_coo *m, const int32_t *perm)
{
    int32_t *pos = malloc((size_t)m->cols * sizeof *pos);
    for (int32_t p = 0; p < m->cols; p++)
        pos[perm[p]] = p;
    coarsen_error err = {0};
    edge_list e;
    cr_assert_eq(edge_list_init(&e, m->count, &err), 0);
    for (int64_t k = 0; k < m->count; k++)
        cr_assert_eq(edge_list_push(&e, m->i[k], pos[m->j[k]], m->value[k], &err), 0);
    graph_build_opts o = {.mirrored = 0, .dup_rule = MERGE_SUM, .sym_rule = MERGE_MAX};
    coarsen_graph *g = NULL;
    int32_t n = (int32_t)(m->rows > m->cols ? m->rows : m->cols);
    cr_assert_eq(graph_from_edges(n, &e, &o, &g, NULL, &err), 0, "%s", err.msg);
    edge_list_free(&e);
    free(pos);
    return g;
}

/* Every check of the header on one matrix file, for both kinds, on the CPU
 * and (when present) on the GPU. */
static void check_matrix(const char *path)
{
    coarsen_error err = {0};
    mtx_coo m;
    cr_assert_eq(mtx_read_coo(path, &m, NULL, &err), 0, "%s", err.msg);
    cr_assert_eq(m.symmetry, MTX_GENERAL, "%s: the oracle reads general storage only", path);
    bip_graph *b = NULL;
    cr_assert_eq(bip_load(path, &b, &err), 0, "%s", err.msg);
    int64_t rank = bip_test_hk_rank(b), diag_before = 0;
    for (int32_t i = 0; i < b->rows && i < b->cols; i++)
        diag_before += bip_find_entry(b, i, i) >= 0;
    const char *kinds[] = {"pr", "weighted"}, *devices[] = {"cpu", "gpu"};
    for (int d = 0; d < (test_have_gpu() ? 2 : 1); d++)
        for (int k = 0; k < 2; k++) {
            char dir[1024], args[4096], out[1 << 15], line[2048];
            snprintf(dir, sizeof dir, "%s", io_path("transversal-out"));
            snprintf(args, sizeof args, "--device %s --transversal %s --levels 1 --format mtx --out %s %s",
                     devices[d], kinds[k], dir, path);
            cr_assert_eq(run_both(args, out, sizeof out), 0, "%s\n%s", args, out);
            long long r = -1, before = -1, after = -1;
            const char *p = strstr(out, "structural rank ");
            cr_assert(p && sscanf(p, "structural rank %lld, diagonal entries %lld before, %lld after", &r, &before,
                                  &after) == 3,
                      "%s", out);
            cr_expect_eq(r, rank, "%s %s: printed rank %lld, Hopcroft-Karp %lld", path, kinds[k], r,
                         (long long)rank);
            cr_expect_eq(before, diag_before, "%s", path);
            if (b->rows <= b->cols)
                cr_expect_eq(after, rank, "%s %s: the whole transversal should be on the diagonal", path, kinds[k]);

            /* The permutation file: a permutation whose diagonal count is the printed one. */
            snprintf(line, sizeof line, "%s/transversal.txt", dir);
            FILE *f = fopen(line, "r");
            cr_assert(f, "no %s", line);
            int32_t *perm = malloc(((size_t)b->cols + 1) * sizeof *perm);
            char *seen = calloc((size_t)b->cols + 1, 1);
            for (int32_t c = 0; c < b->cols; c++) {
                cr_assert_eq(fscanf(f, "%d", &perm[c]), 1, "%s: short permutation", path);
                cr_assert(perm[c] >= 0 && perm[c] < b->cols && !seen[perm[c]]++, "%s: not a permutation at %d",
                          path, c);
            }
            int extra;
            cr_expect_eq(fscanf(f, "%d", &extra), EOF, "%s: more than %d lines", path, b->cols);
            fclose(f);
            long long diag = 0;
            for (int32_t i = 0; i < b->rows && i < b->cols; i++)
                diag += bip_find_entry(b, i, perm[i]) >= 0;
            cr_expect_eq(diag, after, "%s %s: recount of the permuted diagonal", path, kinds[k]);

            /* stats.json records the same numbers. */
            snprintf(line, sizeof line, "%s/stats.json", dir);
            f = fopen(line, "r");
            cr_assert(f);
            size_t got = fread(out, 1, sizeof out - 1, f);
            out[got] = 0;
            fclose(f);
            snprintf(line, sizeof line,
                     "\"transversal\": {\"kind\": \"%s\", \"rows\": %d, \"cols\": %d, \"structural_rank\": %lld, "
                     "\"diagonal_before\": %lld, \"diagonal_after\": %lld}",
                     kinds[k], b->rows, b->cols, (long long)rank, (long long)diag_before, after);
            cr_expect(strstr(out, line), "stats.json lacks %s", line);

            /* Level 0 is the permuted matrix's graph. */
            coarsen_graph *want = expected_graph(&m, perm), *got0 = NULL;
            snprintf(line, sizeof line, "%s/level-0.mtx", dir);
            cr_assert_eq(coarsen_graph_load(line, &got0, NULL, &err), 0, "%s", err.msg);
            io_expect_same_graph(got0, want);
            coarsen_graph_free(got0);
            coarsen_graph_free(want);
            free(perm);
            free(seen);
        }
    bip_free(b);
    mtx_coo_free(&m);
}

static void check_shared(const char *name)
{
    const char *dir = test_data_dir();
    if (!dir)
        cr_skip_test("shared data folder absent: %s not tested", name);
    char path[2048];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "r");
    if (!f)
        cr_skip_test("%s absent from the shared data", path);
    fclose(f);
    check_matrix(path);
}

Test(cli_transversal, empty_diagonal_with_a_perfect_transversal)
{
    /* 5 x 5, no diagonal entry; the cycle 1->2->3->4->5->1 is a perfect transversal. */
    static const char text[] = "%%MatrixMarket matrix coordinate real general\n5 5 8\n"
                               "1 2 0.5\n2 3 -2\n3 4 4\n4 5 1.5\n5 1 3\n1 3 7\n2 1 -0.25\n4 2 9\n";
    char path[1024];
    snprintf(path, sizeof path, "%s", io_file("cycle.mtx", text, 0));
    check_matrix(path);
}

Test(cli_transversal, west0067) { check_shared("west0067.mtx"); }
Test(cli_transversal, bayer10) { check_shared("bayer10.mtx.gz"); }
Test(cli_transversal, lp_afiro_rectangular) { check_shared("lp_afiro.mtx"); }

Test(cli_transversal, metis_input_is_a_one_line_error)
{
    char path[1024], args[2048], out[4096];
    snprintf(path, sizeof path, "%s", io_file("tri.graph", "3 3\n2 3\n1 3\n1 2\n", 0));
    snprintf(args, sizeof args, "--quiet --transversal pr %s", path);
    cr_assert_eq(run_both(args, out, sizeof out), EXIT_INPUT, "%s", out);
    cr_expect(strstr(out, "--transversal needs a Matrix Market matrix"), "%s", out);
    cr_expect(strchr(out, '\n') == out + strlen(out) - 1, "not one line: %s", out);
    snprintf(args, sizeof args, "--transversal diagonal %s", path);
    cr_expect_eq(run_both(args, out, sizeof out), 2, "%s", out);
}
