/* test_partition_cli.c — `coarsen partition` as a child process
 * (COARSEN_PROG): usage errors exit 2 with one line, --out writes one part id
 * per vertex whose cut and balance match the printed figures (recounted
 * here), --compare-metis prints both rows, the ratio and the agreement
 * after relabelling (never below the agreement before, nor below 1/k),
 * --polish-edges -1 keeps the polish from moving anything, and --metis-tries
 * and --ties id give valid partitions within the bound. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "partition/partition.h"
#include "tests/support/cli_run.h"
#include "tests/support/partition_check.h"

/* Runs COARSEN_PROG partition with args, stderr redirected by stderr_to
 * ("2>/dev/null", "2>&1"); what reaches stdout into out (NUL-terminated);
 * the exit status. */
static int run_partition_stderr(const char *args, const char *stderr_to, char *out, size_t size)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "%s partition %s %s", cli_prog(), args, stderr_to);
    return cli_run(cmd, out, size);
}

static int run_partition(const char *args, char *out, size_t size)
{
    return run_partition_stderr(args, "2>/dev/null", out, size);
}

static void write_test_graph(const coarsen_graph *g, const char *path)
{
    coarsen_error err = {0};
    cr_assert_eq(coarsen_graph_write(g, path, COARSEN_FORMAT_METIS, 0, &err), 0, "%s", err.msg);
}

/* Reads the part file partf written by --out for g (one id per vertex and
 * line, nothing more) and checks it: valid, within the k-way cap for
 * imbalance 0.03, and cutting exactly the printed cut. Removes the file. */
static void expect_part_file(const coarsen_graph *g, const char *partf, int32_t k, double cut)
{
    int32_t *part = malloc(g->n * sizeof *part);
    FILE *f = fopen(partf, "r");
    cr_assert_not_null(f);
    for (int32_t v = 0; v < g->n; v++)
        cr_assert_eq(fscanf(f, "%d", &part[v]), 1, "line %d", v + 1);
    int extra;
    cr_assert_eq(fscanf(f, "%d", &extra), EOF, "more lines than vertices");
    fclose(f);
    expect_partition_within(g, part, k, oracle_cap(g, k, 0.03));
    cr_assert_eq(cut, oracle_partition_cut(g, part));
    unlink(partf);
    free(part);
}

Test(partition_cli, usage_errors_exit_2_a_missing_file_4)
{
    char out[4096];
    cr_assert_eq(run_partition("/nonexistent.graph", out, sizeof out), 2, "-k missing");
    cr_assert_eq(run_partition("-k 0 /nonexistent.graph", out, sizeof out), 2);
    cr_assert_eq(run_partition("-k 2 --imbalance x /nonexistent.graph", out, sizeof out), 2);
    cr_assert_eq(run_partition("-k 2 --bogus /nonexistent.graph", out, sizeof out), 2);
    cr_assert_eq(run_partition("-k 2 /nonexistent.graph", out, sizeof out), EXIT_IO, "a missing file");
    cr_assert_eq(run_partition("--help", out, sizeof out), 0);
    cr_assert(strstr(out, "--compare-metis"));
}

Test(partition_cli, out_file_matches_printed_cut_and_bound)
{
    coarsen_graph *g = partition_test_graph("delaunay:n=3000,weights=int,seed=2", 1, 1);
    char graph[] = "/tmp/coarsen-part-XXXXXX", partf[64], args[256], out[8192];
    close(mkstemp(graph));
    write_test_graph(g, graph);
    snprintf(partf, sizeof partf, "%s.part", graph);
    snprintf(args, sizeof args, "-k 6 --quiet --seed 3 --out %s --compare-metis %s", partf, graph);
    cr_assert_eq(run_partition(args, out, sizeof out), 0, "%s", out);
    double cut = -1;
    cr_assert(sscanf(out, "k 6: cut %lf", &cut) == 1, "%s", out);
    cr_assert(strstr(out, "\nmetis ") && strstr(out, "cut ratio (ours / metis)"), "%s", out);
    const char *agree = strstr(out, "agreement after relabelling METIS's parts: ");
    cr_assert_not_null(agree, "%s", out);
    double after = -1, before = -1;
    cr_assert_eq(sscanf(strchr(agree, ':') + 1, "%lf (%*d of %*d vertices; before %lf", &after, &before), 2, "%s", agree);
    cr_assert(after >= before && after >= 1.0 / 6 && after <= 1.0, "%s", agree);
    expect_part_file(g, partf, 6, cut);
    unlink(graph);
    coarsen_graph_free(g);
}

Test(partition_cli, polish_and_tries_bad_values_exit_2_naming_the_option)
{
    static const char *const cases[][2] = {
        {"--polish-edges -2", "--polish-edges"},
        {"--polish-edges x", "--polish-edges"},
        {"--polish-edges 10e3", "--polish-edges"},
        {"--polish-edges 9223372036854775808", "--polish-edges"},
        {"--metis-tries -1", "--metis-tries"},
        {"--metis-tries 1001", "--metis-tries"},
        {"--metis-tries 2.5", "--metis-tries"},
        {"--metis-tries", "--metis-tries"}, /* missing value */
        {"--ties x", "--ties"},
        {"--restarts -1", "--restarts"},
        {"--restarts 101", "--restarts"},
        {"--vcycles -1", "--vcycles"},
        {"--vcycles 101", "--vcycles"},
        {"--vcycles x", "--vcycles"},
    };
    char args[256], out[4096];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        snprintf(args, sizeof args, "-k 2 /nonexistent.graph %s", cases[i][0]);
        cr_assert_eq(run_partition_stderr(args, "2>&1", out, sizeof out), 2, "%s: %s", cases[i][0], out);
        const char *nl = strchr(out, '\n');
        cr_assert(!strncmp(out, "coarsen: ", 9) && nl && !nl[1], "%s: not one line: %s", cases[i][0], out);
        cr_assert(strstr(out, cases[i][1]), "%s: the message does not name the option: %s", cases[i][0], out);
    }
    cr_assert_eq(run_partition("--help", out, sizeof out), 0);
    cr_assert(strstr(out, "--polish-edges N") && strstr(out, "--metis-tries N") && strstr(out, "--ties hashed|id") &&
                  strstr(out, "--vcycles N") && strstr(out, "--restarts N") && strstr(out, "--rb, --kway") &&
                  strstr(out, "-o, --out PART") && strstr(out, "--compare-metis"),
              "%s", out);
}

/* Runs `partition -k k ARGS --out PARTF GRAPH` with stderr (the per-level
 * lines), checks the part file against the printed cut and bound, and
 * returns the polish moves summed over the level lines after checking there
 * is one per level. */
static long long partition_polish_moves(const coarsen_graph *g, const char *graph, int32_t k, const char *args)
{
    char partf[64], cmd[512], out[16384];
    snprintf(partf, sizeof partf, "%s.part", graph);
    snprintf(cmd, sizeof cmd, "-k %d --seed 3 %s --out %s %s", k, args, partf, graph);
    cr_assert_eq(run_partition_stderr(cmd, "2>&1", out, sizeof out), 0, "%s", out);
    char head[32];
    snprintf(head, sizeof head, "k %d: cut ", k);
    const char *line = strstr(out, head);
    double cut = -1;
    int levels = -1;
    cr_assert(line && sscanf(line + strlen(head), "%lf, imbalance %*f (max part weight %*d allowed), %d levels", &cut,
                             &levels) == 2, "%s", out);
    expect_part_file(g, partf, k, cut);
    long long sum = 0, moves;
    int lines = 0;
    for (const char *p = strstr(out, "coarsen: partition level "); p; p = strstr(p + 1, "coarsen: partition level ")) {
        const char *polish = strstr(p, "; polish ");
        cr_assert(polish && sscanf(polish, "; polish %lld moves)", &moves) == 1, "%s", p);
        sum += moves;
        lines++;
    }
    cr_assert_eq(lines, levels + 1, "%s", out);
    return sum;
}

/* The polish tests' fixture: a 3000-vertex Delaunay graph with integer
 * weights, written to a fresh temporary file named in graph (the caller
 * unlinks it and frees the graph). */
static coarsen_graph *delaunay_fixture(char graph[static 25])
{
    coarsen_graph *g = partition_test_graph("delaunay:n=3000,weights=int,seed=2", 1, 1);
    strcpy(graph, "/tmp/coarsen-part-XXXXXX");
    close(mkstemp(graph));
    write_test_graph(g, graph);
    return g;
}

/* -o is --out: the same part file, byte for byte; and the help prints the
 * library's defaults (partition_opts_default), not a copy of them. */
Test(partition_cli, short_o_writes_what_out_writes_and_help_prints_the_defaults)
{
    char graph[25], a[64], b[64], cmd[512], out[8192];
    coarsen_graph *g = delaunay_fixture(graph);
    snprintf(a, sizeof a, "%s.a", graph);
    snprintf(b, sizeof b, "%s.b", graph);
    snprintf(cmd, sizeof cmd, "-k 4 --quiet -o %s %s", a, graph);
    cr_assert_eq(run_partition_stderr(cmd, "2>&1", out, sizeof out), 0, "%s", out);
    snprintf(cmd, sizeof cmd, "-k 4 --quiet --out %s %s", b, graph);
    cr_assert_eq(run_partition_stderr(cmd, "2>&1", out, sizeof out), 0, "%s", out);
    snprintf(cmd, sizeof cmd, "cmp -s %s %s", a, b);
    cr_assert_eq(system(cmd), 0, "-o and --out wrote different files");
    partition_opts d;
    partition_opts_default(&d);
    cr_assert_eq(run_partition("--help", out, sizeof out), 0);
    char want[96];
    snprintf(want, sizeof want, "(default %g;", d.imbalance);
    cr_assert(strstr(out, want), "no '%s' in: %s", want, out);
    snprintf(want, sizeof want, "refinement rounds per level at most (default %d)", d.max_rounds);
    cr_assert(strstr(out, want), "no '%s' in: %s", want, out);
    unlink(a);
    unlink(b);
    unlink(graph);
    coarsen_graph_free(g);
}

Test(partition_cli, polish_edges_minus_one_moves_nothing_in_the_polish)
{
    char graph[25];
    coarsen_graph *g = delaunay_fixture(graph);
    /* every level of this graph has fewer than 2^21 edges: the default polishes
     * them all, and on this fixture, from one METIS run (4, the default for
     * k <= 8, leave it nothing to improve), keeps moves (else the check below
     * would prove nothing) */
    cr_assert_gt(partition_polish_moves(g, graph, 6, "--metis-tries 1"), 0);
    cr_assert_eq(partition_polish_moves(g, graph, 6, "--metis-tries 1 --polish-edges -1"), 0);
    unlink(graph);
    coarsen_graph_free(g);
}

/* --vcycles 0, 1 (default) and 3 on the same seed: the part file holds the
 * printed cut and keeps the bound (partition_polish_moves checks both), the
 * V-cycle line appears exactly when V-cycles ran and repeats the final cut,
 * and more V-cycles never print a higher cut. */
Test(partition_cli, vcycles_never_raise_the_printed_cut)
{
    char graph[25], cmd[256], out[16384];
    coarsen_graph *g = delaunay_fixture(graph);
    double prev = INFINITY;
    const char *args[] = {"--vcycles 0", "", "--vcycles 3"};
    for (int i = 0; i < 3; i++) {
        partition_polish_moves(g, graph, 8, args[i]);
        snprintf(cmd, sizeof cmd, "-k 8 --seed 3 %s %s", args[i], graph);
        cr_assert_eq(run_partition_stderr(cmd, "2>&1", out, sizeof out), 0, "%s", out);
        double cut = -1, vcut = -1;
        const char *line = strstr(out, "k 8: cut "), *vline = strstr(out, "coarsen: partition V-cycles: ");
        cr_assert(line && sscanf(line, "k 8: cut %lf", &cut) == 1, "%s", out);
        cr_assert_eq(vline != NULL, i > 0, "%s: %s", args[i], out);
        if (vline) {
            int n = -1;
            cr_assert_eq(sscanf(vline, "coarsen: partition V-cycles: %d, cut %lf", &n, &vcut), 2, "%s", out);
            cr_assert_eq(n, i == 1 ? 1 : 3, "%s", out);
            cr_assert_eq(vcut, cut, "%s", out);
        }
        cr_assert_leq(cut, prev, "%s: %g after %g", args[i], cut, prev);
        prev = cut;
    }
    unlink(graph);
    coarsen_graph_free(g);
}

Test(partition_cli, metis_tries_and_kinds_give_partitions_within_the_bound)
{
    char graph[25];
    coarsen_graph *g = delaunay_fixture(graph);
    partition_polish_moves(g, graph, 2, "--metis-tries 1");
    partition_polish_moves(g, graph, 2, "--metis-tries 8");
    partition_polish_moves(g, graph, 5, "--metis-tries 3 --polish-edges 1000");
    partition_polish_moves(g, graph, 8, "--ties id");
    partition_polish_moves(g, graph, 8, "--kway --metis-tries 2");
    partition_polish_moves(g, graph, 3, "--rb");
    unlink(graph);
    coarsen_graph_free(g);
}
