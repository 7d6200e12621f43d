/* test_bipartite_cli.c — `coarsen bipartite` end to end on a small
 * rectangular file: every algorithm writes one line per row forming a valid
 * matching of the printed size (the structural rank; for the auction the
 * optimum's total, proven optimal), and bad options exit 2. Runs the program
 * named by COARSEN_PROG (set by `make check`), skipping without it. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bipartite/assignment.h"
#include "tests/support/cli_run.h"
#include "tests/support/io_files.h"

/* Runs `PROG bipartite ARGS`, stdout into out; returns the exit status. */
static int run(const char *args, char *out, size_t size)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "%s bipartite %s 2>/dev/null", cli_prog(), args);
    return cli_run(cmd, out, size);
}

/* 4 x 5 integer matrix of structural rank 3: rows 2 and 3 share their only column. */
static const char matrix[] = "%%MatrixMarket matrix coordinate integer general\n"
                             "4 5 7\n1 1 5\n1 2 3\n2 2 4\n2 5 1\n3 3 9\n4 3 2\n1 4 1\n";

/* Reads the assignment file: one line per row, a column or -1; returns the
 * matched rows after checking each pair is an entry and columns are distinct. */
static int read_assignment(const char *path, const bip_graph *g, double *total)
{
    FILE *f = fopen(path, "r");
    cr_assert(f, "no assignment file %s", path);
    int used[5] = {0}, card = 0, col;
    *total = 0;
    for (int32_t r = 0; r < g->rows; r++) {
        cr_assert_eq(fscanf(f, "%d", &col), 1, "line %d", r + 1);
        if (col == -1)
            continue;
        cr_assert(col >= 0 && col < g->cols && !used[col]++, "row %d: column %d", r, col);
        int found = 0;
        for (int64_t e = g->rptr[r]; e < g->rptr[r + 1]; e++)
            if (g->rind[e] == col) {
                found = 1;
                *total += g->rval[e];
            }
        cr_assert(found, "row %d: column %d is not an entry", r, col);
        card++;
    }
    cr_expect_eq(fscanf(f, "%d", &col), EOF, "more lines than rows");
    fclose(f);
    return card;
}

Test(bipartite_cli, every_algorithm_writes_a_valid_maximum_matching)
{
    char in[1024]; /* io_file and io_path share their static storage */
    snprintf(in, sizeof in, "%s", io_file("b.mtx", matrix, 0));
    bip_graph *g = NULL;
    coarsen_error err = {0};
    cr_assert_eq(bip_load(in, &g, &err), 0, "%s", err.msg);
    const char *algos[] = {"pr", "hk", "auction"};
    char args[3072], out[4096];
    for (int k = 0; k < 3; k++) {
        snprintf(args, sizeof args, "--algo %s --quiet %s -o %s", algos[k], in, io_path("assign.txt"));
        cr_assert_eq(run(args, out, sizeof out), 0, "%s: %s", algos[k], out);
        double total;
        cr_expect_eq(read_assignment(io_path("assign.txt"), g, &total), 3, "%s", algos[k]);
        if (k < 2)
            cr_expect(strstr(out, "structural rank: 3"), "%s", out);
        else {
            /* best of rank-3 matchings: 5 (r0 c0) + 4 (r1 c1) + 9 (r2 c2) = 18 */
            cr_expect_eq(total, 18);
            cr_expect(strstr(out, "assigned: 3 of 4 rows (no perfect assignment"), "%s", out);
            cr_expect(strstr(out, "total benefit: 18\n"), "%s", out);
            cr_expect(strstr(out, "proven optimal: yes"), "%s", out);
        }
    }
    bip_free(g);
}

Test(bipartite_cli, transversal_writes_a_column_permutation_with_the_rank_on_the_diagonal)
{
    char in[1024];
    snprintf(in, sizeof in, "%s", io_file("b.mtx", matrix, 0));
    bip_graph *g = NULL;
    coarsen_error err = {0};
    cr_assert_eq(bip_load(in, &g, &err), 0, "%s", err.msg);
    const char *kinds[] = {"pr", "weighted"};
    char args[3072], out[4096];
    for (int k = 0; k < 2; k++) {
        snprintf(args, sizeof args, "--transversal %s --quiet %s -o %s", kinds[k], in, io_path("perm.txt"));
        cr_assert_eq(run(args, out, sizeof out), 0, "%s", out);
        cr_expect(strstr(out, "structural rank: 3\ndiagonal entries: 3 before, 3 after (+0)"), "%s", out);
        FILE *f = fopen(io_path("perm.txt"), "r");
        cr_assert(f);
        int perm[5], seen[5] = {0}, diag = 0;
        for (int c = 0; c < 5; c++) {
            cr_assert_eq(fscanf(f, "%d", &perm[c]), 1);
            cr_assert(perm[c] >= 0 && perm[c] < 5 && !seen[perm[c]]++);
        }
        fclose(f);
        for (int32_t r = 0; r < 4; r++)
            diag += r < 5 && bip_find_entry(g, r, perm[r]) >= 0;
        cr_expect_eq(diag, 3, "%s", kinds[k]);
    }
    bip_free(g);
}

Test(bipartite_cli, bad_options_exit_2_a_missing_file_4)
{
    char in[1024];
    snprintf(in, sizeof in, "%s", io_file("b.mtx", matrix, 0));
    char args[3072], out[4096];
    snprintf(args, sizeof args, "--algo magic %s", in);
    cr_expect_eq(run(args, out, sizeof out), 2);
    snprintf(args, sizeof args, "--init best %s", in);
    cr_expect_eq(run(args, out, sizeof out), 2);
    snprintf(args, sizeof args, "--eps-factor 1 %s", in);
    cr_expect_eq(run(args, out, sizeof out), 2);
    snprintf(args, sizeof args, "--transversal diagonal %s", in);
    cr_expect_eq(run(args, out, sizeof out), 2);
    cr_expect_eq(run("", out, sizeof out), 2);
    cr_expect_eq(run(io_path("missing.mtx"), out, sizeof out), EXIT_IO, "a missing file is not a usage error");
}
