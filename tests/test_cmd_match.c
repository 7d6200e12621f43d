/* test_cmd_match.c — the `coarsen match` program end to end (COARSEN_PROG,
 * set by make check): mates written one per line form a valid matching of
 * the graph that equals the library's result, --check passes, --json and
 * bad options behave, --rounds caps red/blue, and --device gpu writes the
 * same files as --device cpu. Uses a shared graph; skips visibly without one
 * or without graph readers. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matching/matching.h"
#include "matching/validate.h"
#include "tests/support/cli_run.h"
#include "tests/support/match_oracles.h"
#include "tests/support/test_support.h"

/* Runs the program with args (stdout to out_path); returns its exit status. */
static int run(const char *args, const char *out_path)
{
    char *cmd = NULL;
    cr_assert_geq(asprintf(&cmd, "%s %s > %s 2>/dev/null", cli_prog(), args, out_path), 0);
    int rc = cli_run(cmd, NULL, 0);
    free(cmd);
    return rc;
}

/* Reads n integers, one per line; 0 when the file holds exactly n. */
static int read_ints(const char *path, int32_t *v, int32_t n)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    int32_t k = 0;
    long x;
    while (fscanf(f, "%ld", &x) == 1) {
        if (k >= n) {
            fclose(f);
            return -1;
        }
        v[k++] = (int32_t)x;
    }
    fclose(f);
    return k == n ? 0 : -1;
}

/* The shared graph used here, with its path; skips when unavailable. */
static coarsen_graph *graph(char *path, size_t len)
{
    int skip;
    char why[1024];
    coarsen_graph *g = test_load_shared("power.graph", &skip, why, sizeof why);
    if (!g) {
        if (skip)
            cr_skip_test("shared graphs not readable here: %s", why);
        cr_assert_fail("power.graph: %s", why);
    }
    snprintf(path, len, "%s/power.graph", test_data_dir());
    return g;
}

static char *slurp(const char *path)
{
    static char buf[1 << 16];
    FILE *f = fopen(path, "r");
    size_t k = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    buf[k] = 0;
    if (f)
        fclose(f);
    return buf;
}

Test(cmd_match, writes_valid_mates_equal_to_library)
{
    char path[4096], args[8192], dir[] = "/tmp/coarsen-cmd-match-XXXXXX";
    coarsen_graph *g = graph(path, sizeof path);
    cr_assert(mkdtemp(dir));
    snprintf(args, sizeof args, "match --device cpu --ties id --check --quiet --strongest %s/s %s -o %s/m", dir, path,
             dir);
    char out[4200];
    snprintf(out, sizeof out, "%s/out", dir);
    cr_assert_eq(run(args, out), 0, "%s", args);
    int32_t *mate = malloc(sizeof(int32_t) * (size_t)g->n), *want = malloc(sizeof(int32_t) * (size_t)g->n);
    char file[4200];
    snprintf(file, sizeof file, "%s/m", dir);
    cr_assert_eq(read_ints(file, mate, g->n), 0, "mates file does not hold %d lines", g->n);
    coarsen_error err = {0};
    cr_assert_eq(match_validate(g, mate, 0, NULL, &err), 0, "%s", err.msg);
    oracle_greedy_matching(g, 0, TIES_BY_ID, want);
    cr_assert_eq(memcmp(mate, want, sizeof(int32_t) * (size_t)g->n), 0, "CLI handshake differs from greedy");
    snprintf(file, sizeof file, "%s/s", dir);
    cr_assert_eq(read_ints(file, mate, g->n), 0);
    for (int32_t v = 0; v < g->n; v++)
        cr_assert_eq(mate[v], oracle_strongest(g, v, 0, TIES_BY_ID), "strongest of %d", v);
    cr_assert(strstr(slurp(out), "matched edges"), "summary missing: %s", slurp(out));
    /* Without --ties: the pipeline's rule, hashed ties under the seed (1). */
    snprintf(args, sizeof args, "match --device cpu --quiet %s -o %s/md", path, dir); /* m stays the id-tie run */
    cr_assert_eq(run(args, out), 0, "%s", args);
    snprintf(file, sizeof file, "%s/md", dir);
    cr_assert_eq(read_ints(file, mate, g->n), 0);
    oracle_greedy_matching(g, 0, (tie_rule){1, 1}, want);
    cr_assert_eq(memcmp(mate, want, sizeof(int32_t) * (size_t)g->n), 0, "default ties are not the pipeline's hashed ties");
    snprintf(args, sizeof args, "match --device cpu --json --quiet --matcher redblue --random --rounds 1 %s", path);
    cr_assert_eq(run(args, out), 0);
    cr_assert(strstr(slurp(out), "\"passes\": 1,") && strstr(slurp(out), "\"maximal\": false"), "%s", slurp(out));
    if (test_have_gpu()) {
        snprintf(args, sizeof args, "match --device gpu --ties id --check --quiet --strongest %s/sg %s -o %s/mg", dir,
                 path, dir);
        cr_assert_eq(run(args, out), 0, "%s", args);
        char cmp[8192];
        snprintf(cmp, sizeof cmp, "cmp -s %s/m %s/mg && cmp -s %s/s %s/sg", dir, dir, dir, dir);
        cr_assert_eq(system(cmp), 0, "GPU files differ from CPU files");
    }
    snprintf(args, sizeof args, "rm -rf %s", dir);
    cr_assert_eq(system(args), 0);
    free(mate), free(want);
    coarsen_graph_free(g);
}

Test(cmd_match, bad_options_exit_2)
{
    cr_assert_eq(run("match --matcher nope x", "/dev/null"), 2);
    cr_assert_eq(run("match --p 1.5 x", "/dev/null"), 2);
    cr_assert_eq(run("match --passes 0 x", "/dev/null"), 2);
    cr_assert_eq(run("match", "/dev/null"), 2);
    cr_assert_eq(run("match --help", "/dev/null"), 0);
}
