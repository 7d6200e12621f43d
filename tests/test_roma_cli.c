/* test_roma_cli.c — `coarsen match` with ROMA end to end (COARSEN_PROG, set
 * by make check): --refine roma writes the library's parallel-rule result
 * on the handshake matching, --refine roma-seq the sequential reference's,
 * --complete the complete-graph replay from the seeded random pairing;
 * --check passes; bad ROMA options exit 2; --device gpu writes the same
 * mates as --device cpu when a GPU is usable. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matching/matching.h"
#include "matching/roma.h"
#include "matching/roma_complete.h"
#include "tests/support/cli_run.h"
#include "tests/support/io_files.h"
#include "tests/support/match_oracles.h"
#include "tests/support/test_support.h"

/* Runs `coarsen match ARGS -o MATES FILE` quietly; the exit status, and the
 * mates (n of them, one per line) when it is 0. */
static int match_mates(const char *args, const char *file, int32_t n, int32_t *mate)
{
    const char *prog = cli_prog();
    char mates[512], *cmd = NULL;
    snprintf(mates, sizeof mates, "%s", io_path("roma-mates.txt"));
    remove(mates);
    cr_assert_geq(asprintf(&cmd, "%s match --quiet %s -o %s %s > /dev/null 2>&1", prog, args, mates, file), 0);
    int rc = cli_run(cmd, NULL, 0);
    free(cmd);
    if (rc)
        return rc;
    FILE *f = fopen(mates, "r");
    cr_assert(f, "no mates written by: match %s", args);
    int32_t k = 0;
    long x;
    while (k < n && fscanf(f, "%ld", &x) == 1)
        mate[k++] = (int32_t)x;
    fclose(f);
    cr_assert_eq(k, n, "match %s: %d mates, want %d", args, k, n);
    return 0;
}

static const char *write_graph(const coarsen_graph *g, const char *name)
{
    static char path[512];
    coarsen_error err = {0};
    snprintf(path, sizeof path, "%s", io_path(name));
    cr_assert_eq(coarsen_graph_write(g, path, COARSEN_FORMAT_MTX, 0, &err), 0, "%s", err.msg);
    return path;
}

Test(roma_cli, refine_equals_library)
{
    coarsen_graph *g = test_sparse_graph(3000, 12000, 2, 5);
    const char *file = write_graph(g, "roma-sparse.mtx");
    coarsen_graph *h = NULL;
    coarsen_error err = {0};
    cr_assert_eq(coarsen_graph_load(file, &h, NULL, &err), 0, "%s", err.msg); /* what the program reads */
    int32_t *want = malloc(sizeof(int32_t) * 3000), *got = malloc(sizeof(int32_t) * 3000);
    matching_opts mo;
    matching_opts_default(&mo);
    roma_opts o;
    roma_opts_default(&o);
    matching_stats ms;
    roma_stats rs;
    for (int seq = 0; seq < 2; seq++) {
        cr_assert_eq(match_cpu(h, &mo, want, NULL, &ms, &err), 0);
        cr_assert_eq((seq ? roma_cpu : roma_replay_cpu)(h, &o, want, &rs, &err), 0, "%s", err.msg);
        cr_assert_eq(match_mates(seq ? "--device cpu --refine roma-seq --check" : "--device cpu --refine roma --check",
                                 file, 3000, got), 0);
        cr_assert_eq(memcmp(want, got, 3000 * sizeof *got), 0, "%s: program differs from the library",
                     seq ? "roma-seq" : "roma");
    }
    if (test_have_gpu()) {
        cr_assert_eq(match_mates("--device cpu --refine roma", file, 3000, want), 0);
        cr_assert_eq(match_mates("--device gpu --refine roma", file, 3000, got), 0);
        cr_assert_eq(memcmp(want, got, 3000 * sizeof *got), 0, "--device gpu differs from --device cpu");
    }
    cr_assert_eq(match_mates("--refine bogus", file, 3000, got), 2);
    cr_assert_eq(match_mates("--refine roma --roma-phases 0", file, 3000, got), 2);
    cr_assert_eq(match_mates("--refine roma --roma-eps -1", file, 3000, got), 2);
    free(want), free(got);
    coarsen_graph_free(g), coarsen_graph_free(h);
}

Test(roma_cli, complete_mode_equals_library)
{
    coarsen_graph *g = test_random_graph(40, 1.0, 2, 8);
    const char *file = write_graph(g, "roma-complete.mtx");
    coarsen_graph *h = NULL;
    coarsen_error err = {0};
    cr_assert_eq(coarsen_graph_load(file, &h, NULL, &err), 0, "%s", err.msg);
    float *w = roma_dense_from_graph(h, &err);
    int32_t want[40], got[40];
    roma_opts o;
    roma_complete_opts_default(&o);
    roma_stats rs;
    cr_assert_eq(roma_random_pairing(40, 3, want, &err), 0);
    cr_assert_eq(roma_complete_replay_cpu(40, w, &o, want, &rs, &err), 0, "%s", err.msg);
    cr_assert_eq(match_mates("--device cpu --seed 3 --complete --check", file, 40, got), 0);
    cr_assert_eq(memcmp(want, got, sizeof got), 0, "complete mode: program differs from the library");
    o.turns = 0, o.priority = ROMA_PRIORITY_RANDOM; /* another rule, chosen by options */
    o.seed = 3;                                     /* --seed seeds the pairing and the priority */
    cr_assert_eq(roma_random_pairing(40, 3, want, &err), 0);
    cr_assert_eq(roma_complete_replay_cpu(40, w, &o, want, &rs, &err), 0, "%s", err.msg);
    cr_assert_eq(match_mates("--device cpu --seed 3 --complete --roma-turns off --roma-priority random", file, 40, got),
                 0);
    cr_assert_eq(memcmp(want, got, sizeof got), 0, "complete mode, --roma-turns off: program differs");
    cr_assert_eq(match_mates("--complete --roma-turns maybe", file, 40, got), 2);
    cr_assert_eq(match_mates("--complete --roma-priority best", file, 40, got), 2);
    free(w);
    coarsen_graph_free(g), coarsen_graph_free(h);
    g = test_random_graph(41, 1.0, 2, 8); /* odd: no perfect matching */
    file = write_graph(g, "roma-odd.mtx");
    cr_assert_eq(match_mates("--complete", file, 41, got), EXIT_INPUT);
    coarsen_graph_free(g);
    /* A sparse graph is refused before any work (the dense matrix of a
     * large one would not fit), with one line naming the file. */
    g = test_sparse_graph(3000, 12000, 2, 5);
    file = write_graph(g, "roma-sparse-complete.mtx");
    char *cmd = NULL, out[2048];
    cr_assert_geq(asprintf(&cmd, "%s match --complete --quiet %s 2>&1 >/dev/null", cli_prog(), file), 0);
    cr_assert_eq(cli_run(cmd, out, sizeof out), EXIT_INPUT, "%s", out);
    free(cmd);
    cr_assert(strstr(out, file) && strstr(out, "needs a complete graph"), "%s", out);
    cr_assert_eq(strchr(out, '\n'), out + strlen(out) - 1, "one line: %s", out);
    coarsen_graph_free(g);
}
