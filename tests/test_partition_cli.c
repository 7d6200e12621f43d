/* test_partition_cli.c — `coarsen partition` as a child process
 * (COARSEN_PROG): usage errors exit 2 with one line, --out writes one part id
 * per vertex whose cut and balance match the printed figures (recounted
 * here), and --compare-metis prints both rows, the ratio and the agreement
 * after relabelling (never below the agreement before, nor below 1/k). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/support/partition_check.h"

/* Runs COARSEN_PROG with args; stdout into out (NUL-terminated); exit status. */
static int run_partition(const char *args, char *out, size_t size)
{
    const char *prog = getenv("COARSEN_PROG");
    if (!prog)
        cr_skip_test("COARSEN_PROG not set (run through make check)");
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "%s partition %s 2>/dev/null", prog, args);
    FILE *p = popen(cmd, "r");
    cr_assert_not_null(p);
    size_t len = fread(out, 1, size - 1, p);
    out[len] = 0;
    int rc = pclose(p);
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

static void write_test_graph(const coarsen_graph *g, const char *path)
{
    coarsen_error err = {0};
    cr_assert_eq(coarsen_graph_write(g, path, COARSEN_FORMAT_METIS, 0, &err), 0, "%s", err.msg);
}

Test(partition_cli, usage_errors_exit_2)
{
    char out[4096];
    cr_assert_eq(run_partition("/nonexistent.graph", out, sizeof out), 2, "-k missing");
    cr_assert_eq(run_partition("-k 0 /nonexistent.graph", out, sizeof out), 2);
    cr_assert_eq(run_partition("-k 2 --imbalance x /nonexistent.graph", out, sizeof out), 2);
    cr_assert_eq(run_partition("-k 2 --bogus /nonexistent.graph", out, sizeof out), 2);
    cr_assert_eq(run_partition("-k 2 /nonexistent.graph", out, sizeof out), 2);
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
    int32_t *part = malloc(g->n * sizeof *part);
    FILE *f = fopen(partf, "r");
    cr_assert_not_null(f);
    for (int32_t v = 0; v < g->n; v++)
        cr_assert_eq(fscanf(f, "%d", &part[v]), 1, "line %d", v + 1);
    int extra;
    cr_assert_eq(fscanf(f, "%d", &extra), EOF, "more lines than vertices");
    fclose(f);
    expect_partition_within(g, part, 6, oracle_cap(g, 6, 0.03));
    cr_assert_eq(cut, oracle_partition_cut(g, part));
    unlink(partf);
    unlink(graph);
    free(part);
    coarsen_graph_free(g);
}
