/* test_gen_cli.c — `coarsen gen` end to end: the files it writes (METIS,
 * Matrix Market, gzip) load back as exactly the in-memory generator's graph,
 * the summary line, and bad options exiting 2 with one message line. Runs the
 * program named by COARSEN_PROG (set by `make check`), skipping without it. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/generators.h"
#include "tests/support/cli_run.h"
#include "tests/support/io_files.h"

/* Runs `PROG gen ARGS` with stderr captured; returns the exit status and
 * leaves stderr's text in errtext. */
static int run_gen(const char *args, char *errtext, size_t size)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "%s gen %s 2>&1 >/dev/null", cli_prog(), args);
    return cli_run(cmd, errtext, size);
}

static void expect_file_is(const char *path, const char *spec)
{
    coarsen_error err = {0};
    coarsen_graph *want = NULL, *got = NULL;
    gen_opts o;
    cr_assert_eq(gen_opts_parse_spec(spec, &o, &err), 0, "%s", err.msg);
    cr_assert_eq(gen_graph(&o, &want, &err), 0, "%s", err.msg);
    cr_assert_eq(coarsen_graph_load(path, &got, NULL, &err), 0, "%s", err.msg);
    io_expect_same_graph(got, want);
    coarsen_graph_free(want);
    coarsen_graph_free(got);
}

Test(gen_cli, written_files_load_back_as_the_generated_graph)
{
    char msg[4096], args[1024];
    snprintf(args, sizeof args, "rgg --vertices 3000 --degree 9 --weights real --seed 7 -o %s",
             io_path("rgg.mtx.gz"));
    cr_assert_eq(run_gen(args, msg, sizeof msg), 0, "%s", msg);
    cr_assert(strstr(msg, "3000 vertices") && strstr(msg, "ms"), "summary line: %s", msg);
    expect_file_is(io_path("rgg.mtx.gz"), "rgg:n=3000,deg=9,weights=real,seed=7");

    snprintf(args, sizeof args, "grid3d --nx 6 --ny 5 --nz 4 -w int --max-weight 9 --quiet -o %s",
             io_path("grid.graph"));
    cr_assert_eq(run_gen(args, msg, sizeof msg), 0, "%s", msg);
    cr_assert_str_empty(msg, "--quiet prints nothing: %s", msg);
    expect_file_is(io_path("grid.graph"), "grid3d:nx=6,ny=5,nz=4,weights=int,maxw=9");

    snprintf(args, sizeof args, "rmat -n 4096 -d 6 --rmat 0.5,0.2,0.2 --threads 1 --quiet -o %s",
             io_path("rmat.graph.gz"));
    cr_assert_eq(run_gen(args, msg, sizeof msg), 0, "%s", msg);
    expect_file_is(io_path("rmat.graph.gz"), "rmat:n=4096,deg=6,a=0.5,b=0.2,c=0.2");

    snprintf(args, sizeof args, "delaunay --nx 30 --ny 20 -w exponential --lambda 2 --quiet -o %s",
             io_path("mesh.mtx"));
    cr_assert_eq(run_gen(args, msg, sizeof msg), 0, "%s", msg);
    expect_file_is(io_path("mesh.mtx"), "delaunay:nx=30,ny=20,weights=exponential,lambda=2");
}

Test(gen_cli, json_summary_on_stdout)
{
    char cmd[2048], out[1024] = {0};
    snprintf(cmd, sizeof cmd, "%s gen grid2d --nx 4 --ny 3 --json --quiet --seed 5 -o %s", cli_prog(),
             io_path("json.graph"));
    cr_assert_eq(cli_run(cmd, out, sizeof out), 0);
    cr_assert(strstr(out, "\"kind\": \"grid2d\"") && strstr(out, "\"vertices\": 12") &&
                  strstr(out, "\"edges\": 17") && strstr(out, "\"seed\": 5"),
              "%s", out);
    cr_assert_eq(out[0], '{');
    cr_assert(strchr(out, '\n') == out + strlen(out) - 1, "one line: %s", out);
}

Test(gen_cli, bad_options_exit_2_with_a_message)
{
    static const char *const bad[] = {
        "",                                   /* no kind */
        "blob -o x.graph",                    /* unknown kind */
        "rgg",                                /* no output */
        "rgg --bogus -o x.graph",             /* unknown option */
        "rgg -n ten -o x.graph",              /* not a number */
        "rgg -n 0 -o x.graph",                /* out of range */
        "rgg --weights heavy -o x.graph",     /* unknown weights */
        "rmat -n 1000 -o x.graph",            /* not a power of two */
        "er --rmat 0.5,0.5 -o x.graph",       /* not A,B,C */
        "complete -n 100000 -o x.graph",      /* too large for CSR */
        "grid2d -w real -o x.graph",          /* real weights in METIS need a scale */
        "rgg extra -o x.graph",               /* stray argument */
    };
    char msg[4096];
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        char args[256];
        snprintf(args, sizeof args, "%s --quiet", bad[k]);
        cr_assert_eq(run_gen(args, msg, sizeof msg), 2, "'%s' exit status; stderr: %s", bad[k], msg);
        cr_assert(!strncmp(msg, "coarsen: ", 9), "'%s': %s", bad[k], msg);
    }
    char args[256];
    snprintf(args, sizeof args, "--help");
    cr_assert_eq(run_gen(args, msg, sizeof msg), 0);
}
