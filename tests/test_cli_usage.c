/* test_cli_usage.c — the conventions every subcommand of the program shares
 * (run as a child process, COARSEN_PROG): `coarsen --help` lists every
 * command with one line and the exit-status table; `coarsen help CMD` is
 * CMD --help; global options are accepted before and after the command's
 * name; an unknown option is reported as unknown, by name, in one line with
 * exit 2, by every command; the "device:" line appears only for commands
 * that may use a device and never with --quiet; a METIS file's dropped
 * constraints are warned about by the pipeline; stats.json records the
 * threads, the reader's report, the output's options and files, and the
 * command line in a form a shell runs again. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/support/cli_run.h"
#include "tests/support/io_files.h"


static int lines(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

static const char *const commands[] = {"info",    "convert",  "gen",       "match", "partition", "project",
                                       "evaluate", "contract", "bipartite", "remap"};

Test(cli_usage, help_lists_every_command_and_the_exit_statuses)
{
    static char out[1 << 16], err[4096];
    cr_assert_eq(cli_run_prog("--help", out, sizeof out, err, sizeof err), 0, "%s", err);
    for (size_t k = 0; k < sizeof commands / sizeof commands[0]; k++) {
        char line[64];
        snprintf(line, sizeof line, "\n  %-10s ", commands[k]);
        cr_expect(strstr(out, line), "--help lacks the line of %s", commands[k]);
    }
    static const char *const statuses[] = {"\n  0 ", "\n  1 ", "\n  2 ", "\n  3 ", "\n  4 ", "\n  5 ", "\n  6 ",
                                           "\n  128+N "};
    cr_assert(strstr(out, "Exit status:"), "%s", out);
    for (size_t k = 0; k < sizeof statuses / sizeof statuses[0]; k++)
        cr_expect(strstr(out, statuses[k]), "--help lacks exit status%s", statuses[k]);
    cr_expect(strstr(out, "--levels"), "the pipeline's options are part of --help");
}

Test(cli_usage, help_command_is_the_commands_help)
{
    static char a[1 << 15], b[1 << 15], err[4096];
    for (size_t k = 0; k < sizeof commands / sizeof commands[0]; k++) {
        char args[64];
        snprintf(args, sizeof args, "help %s", commands[k]);
        cr_assert_eq(cli_run_prog(args, a, sizeof a, err, sizeof err), 0, "%s: %s", args, err);
        snprintf(args, sizeof args, "%s --help", commands[k]);
        cr_assert_eq(cli_run_prog(args, b, sizeof b, err, sizeof err), 0, "%s: %s", args, err);
        cr_expect_str_eq(a, b, "help %s differs from %s --help", commands[k], commands[k]);
        cr_expect(strstr(a, "Exit status:"), "%s --help lacks the exit statuses", commands[k]);
    }
    cr_assert_eq(cli_run_prog("help", a, sizeof a, err, sizeof err), 0);
    cr_assert_eq(cli_run_prog("--help", b, sizeof b, err, sizeof err), 0);
    cr_expect_str_eq(a, b);
    cr_assert_eq(cli_run_prog("help nothing", a, sizeof a, err, sizeof err), EXIT_USAGE);
    cr_expect(strstr(err, "'nothing' is not a command") && lines(err) == 1, "%s", err);
}

Test(cli_usage, global_options_before_or_after_the_command)
{
    char g[600];
    snprintf(g, sizeof g, "%s", io_file("usage.graph", "4 3\n2\n1 3\n2 4\n3\n", 0));
    static char a[1 << 14], b[1 << 14], err[4096];
    char args[1024];
    snprintf(args, sizeof args, "--quiet --threads 1 --seed=7 --device cpu --json match %s", g);
    cr_assert_eq(cli_run_prog(args, a, sizeof a, err, sizeof err), 0, "%s", err);
    cr_expect_eq(err[0], 0, "--quiet before the command: %s", err);
    cr_expect_eq(a[0], '{', "--json before the command: %s", a);
    snprintf(args, sizeof args, "match %s --quiet --threads 1 --seed 7 --device cpu --json", g);
    cr_assert_eq(cli_run_prog(args, b, sizeof b, err, sizeof err), 0, "%s", err);
    char *ms = strstr(a, "\"ms\""), *ms2 = strstr(b, "\"ms\""); /* the timing differs */
    cr_assert(ms && ms2);
    *ms = *ms2 = 0;
    cr_expect_str_eq(a, b);
    snprintf(args, sizeof args, "--threads x info %s", g);
    cr_expect_eq(cli_run_prog(args, a, sizeof a, err, sizeof err), EXIT_USAGE, "a bad global value before the command");
    cr_expect(strstr(err, "--threads") && lines(err) == 1, "%s", err);
}

Test(cli_usage, every_command_names_an_unknown_option_in_one_line)
{
    static char out[1 << 14], err[4096];
    for (size_t k = 0; k < sizeof commands / sizeof commands[0]; k++) {
        char args[128];
        snprintf(args, sizeof args, "%s --no-such-option x", commands[k]);
        cr_expect_eq(cli_run_prog(args, out, sizeof out, err, sizeof err), EXIT_USAGE, "%s: %s", commands[k], err);
        cr_expect(strstr(err, "unknown option '--no-such-option'") && lines(err) == 1, "%s: %s", commands[k], err);
        snprintf(args, sizeof args, "%s -Z x", commands[k]);
        cr_expect_eq(cli_run_prog(args, out, sizeof out, err, sizeof err), EXIT_USAGE, "%s: %s", commands[k], err);
        cr_expect(strstr(err, "unknown option '-Z'") && lines(err) == 1, "%s: %s", commands[k], err);
    }
    cr_expect_eq(cli_run_prog("--no-such-option x", out, sizeof out, err, sizeof err), EXIT_USAGE);
    cr_expect(strstr(err, "unknown option '--no-such-option'") && lines(err) == 1, "%s", err);
}

/* The device line: only where a device may be used, never with --quiet. */
Test(cli_usage, device_line_only_where_a_device_is_used)
{
    const char *g = io_file("device.graph", "4 3\n2\n1 3\n2 4\n3\n", 0);
    char copy[600];
    snprintf(copy, sizeof copy, "%s", g);
    static char out[1 << 14], err[8192];
    static const char *const hostwork[] = {"info %s", "convert %s %s.mtx", "gen grid2d -n 16 -o %s.gen.graph"};
    char args[2048];
    for (size_t k = 0; k < 3; k++) {
        snprintf(args, sizeof args, hostwork[k], copy, copy);
        cr_assert_eq(cli_run_prog(args, out, sizeof out, err, sizeof err), 0, "%s: %s", args, err);
        cr_expect(!strstr(err, "device:"), "%s prints a device line: %s", args, err);
    }
    snprintf(args, sizeof args, "match %s", copy);
    cr_assert_eq(cli_run_prog(args, out, sizeof out, err, sizeof err), 0, "%s", err);
    cr_expect(strstr(err, "coarsen: device: "), "match may use the GPU and says which ran: %s", err);
    static const char *const quiet[] = {"--quiet match %s", "--quiet --levels 1 %s", "partition --quiet -k 2 %s"};
    for (size_t k = 0; k < 3; k++) {
        snprintf(args, sizeof args, quiet[k], copy);
        cr_assert_eq(cli_run_prog(args, out, sizeof out, err, sizeof err), 0, "%s: %s", args, err);
        cr_expect_eq(err[0], 0, "%s writes to stderr: %s", args, err);
    }
}

Test(cli_usage, pipeline_warns_about_dropped_metis_constraints)
{
    /* fmt 011, ncon 2: two vertex weights per vertex, edge weights */
    char g[600];
    snprintf(g, sizeof g, "%s", io_file("ncon.graph", "3 2 011 2\n5 1 2 4\n6 2 1 4 3 7\n7 3 2 7\n", 0));
    static char out[1 << 14], err[8192];
    char args[1024];
    snprintf(args, sizeof args, "--levels 1 %s", g);
    cr_assert_eq(cli_run_prog(args, out, sizeof out, err, sizeof err), 0, "%s", err);
    cr_expect(strstr(err, "warning:") && strstr(err, "2 vertex weight constraints"), "%s", err);
    snprintf(args, sizeof args, "--quiet --levels 1 %s", g);
    cr_assert_eq(cli_run_prog(args, out, sizeof out, err, sizeof err), 0, "%s", err);
    cr_expect_eq(err[0], 0, "--quiet silences the warning: %s", err);
}

/* stats.json: what shaped the files, and a command line that runs again. */
Test(cli_usage, stats_json_records_the_run)
{
    char g[600];
    snprintf(g, sizeof g, "%s", io_file("stats graph.graph", "4 3\n2\n1 3\n2 4\n3\n", 0));
    char dir[700], args[2048], path[800];
    snprintf(dir, sizeof dir, "%s", io_path("stats-out"));
    snprintf(args, sizeof args, "--quiet --threads 1 --gzip --levels 1 --out %s '%s'", dir, g);
    static char out[1 << 14], err[8192], json[1 << 14];
    cr_assert_eq(cli_run_prog(args, out, sizeof out, err, sizeof err), 0, "%s", err);
    snprintf(path, sizeof path, "%s/stats.json", dir);
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f);
    json[fread(json, 1, sizeof json - 1, f)] = 0;
    fclose(f);
    cr_expect(strstr(json, "\"threads\": 1,"), "%s", json);
    cr_expect(strstr(json, "\"reader\": {\"format\": \"metis"), "%s", json);
    cr_expect(strstr(json, "\"diagonal_dropped\": 0, \"duplicates_merged\": 0,"), "%s", json);
    cr_expect(strstr(json, "\"output\": {\"format\": \"metis\", \"gzip\": true, \"weight_scale\": 0, \"unit_weights\": false, \"level0\": true, "
                           "\"files\": [\"level-0.graph.gz\", \"level-1.graph.gz\", \"map-1.txt.gz\", "
                           "\"stats.json\"]}"),
              "%s", json);
    /* the command line, run again by a shell, gives the same hierarchy */
    const char *cl = strstr(json, "\"command_line\": \"");
    cr_assert_not_null(cl);
    cl += strlen("\"command_line\": \"");
    char line[2048];
    size_t len = (size_t)(strchr(cl, '"') - cl);
    memcpy(line, cl, len);
    line[len] = 0;
    cr_expect(strstr(line, "'"), "the file name with a space is quoted: %s", line);
    char again[4200];
    snprintf(again, sizeof again, "rm -rf %s && %s", dir, line);
    cr_assert_eq(cli_run(again, NULL, 0), 0, "%s", again);
    snprintf(path, sizeof path, "%s/level-1.graph.gz", dir);
    f = fopen(path, "r");
    cr_expect_not_null(f, "the command line did not write %s", path);
    if (f)
        fclose(f);
}

/* Output paths are checked before the work: a folder that does not exist,
 * a file where a folder should be, a folder where a file should be: one
 * line, exit 4, and nothing else (no progress, no result). */
Test(cli_usage, outputs_are_checked_before_any_work)
{
    char g[600], part[600], args[4096];
    snprintf(g, sizeof g, "%s", io_file("out-check.graph", "4 3\n2\n1 3\n2 4\n3\n", 0));
    snprintf(part, sizeof part, "%s", io_file("out-check.part", "0\n0\n1\n1\n", 0));
    char mtx[600];
    snprintf(mtx, sizeof mtx, "%s",
             io_file("out-check.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 1\n", 0));
    const char *graph_graph[] = {g, g}, *graph_part[] = {g, part}, *part_part[] = {part, part}, *matrix[] = {mtx};
    static const struct {
        const char *fmt;
        int operands; /* 0: the graph; 1: graph twice; 2: graph, part; 3: part twice; 4: a matrix */
    } cases[] = {
        {"--levels 1 --out /nonexistent-coarsen/dir %s", 0},
        {"--levels 1 --out %s/sub %s", 1}, /* a regular file where --out wants a folder */
        {"match %s -o /nonexistent-coarsen/m", 0},
        {"match %s --strongest /nonexistent-coarsen/s", 0},
        {"partition -k 2 %s -o /nonexistent-coarsen/p", 0},
        {"gen grid2d -n 16 -o /tmp", 0},
        {"convert %s /nonexistent-coarsen/c.mtx", 0},
        {"contract %s %s -o /nonexistent-coarsen/c.graph", 2},
        {"remap %s %s -o /nonexistent-coarsen/r", 3},
        {"bipartite %s -o /nonexistent-coarsen/b", 4},
    };
    const char *const *operands[] = {graph_graph, graph_graph, graph_part, part_part, matrix};
    static char out[1 << 14], err[4096];
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const char *const *o = operands[cases[k].operands];
        snprintf(args, sizeof args, cases[k].fmt, o[0], cases[k].operands == 4 ? "" : o[1]);
        int status = cli_run_prog(args, out, sizeof out, err, sizeof err);
        cr_expect_eq(status, EXIT_IO, "%s: exit %d: %s", args, status, err);
        cr_expect_eq(lines(err), 1, "%s: %s", args, err);
        cr_expect(strstr(err, "cannot create") || strstr(err, "is a folder") || strstr(err, "not a folder"), "%s: %s",
                  args, err);
        cr_expect_eq(out[0], 0, "%s printed a result: %s", args, out);
    }
}
