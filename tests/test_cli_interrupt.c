/* test_cli_interrupt.c — SIGINT and SIGTERM stop a run cleanly: the exit
 * status is 128 + the signal, one line says so, and nothing the run was
 * writing stays behind (no temporary file, no partial output, no folder
 * the run created). The runs are made long (one thread, 4·10^6 vertices:
 * seconds on any machine) so that the signal always arrives during them. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tests/support/cli_run.h"
#include "tests/support/io_files.h"

/* Number of entries of folder dir whose name contains part (dir missing: -1). */
static int entries_with(const char *dir, const char *part)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && strstr(e->d_name, part) != NULL;
    closedir(d);
    return n;
}

Test(cli_interrupt, gen_interrupted_leaves_no_file)
{
    char dir[1024], out[4096], cmd[8192];
    snprintf(dir, sizeof dir, "%s", io_path("gen-int"));
    mkdir(dir, 0777);
    snprintf(cmd, sizeof cmd,
             "cd %s && { %s gen rgg --threads 1 --vertices 4194304 --degree 12 --quiet -o g.mtx.gz 2>err.txt & pid=$!; "
             "sleep 0.15; kill -INT $pid; wait $pid; echo $?; cat err.txt; rm -f err.txt; }",
             dir, cli_prog());
    cr_assert_eq(cli_run(cmd, out, sizeof out), 0);
    cr_assert_eq(atoi(out), 130, "exit status: %s", out);
    cr_assert(strstr(out, "interrupted by SIGINT"), "%s", out);
    cr_assert_eq(entries_with(dir, "g.mtx.gz"), 0, "an interrupted gen leaves no file, not even a temporary one");
}

Test(cli_interrupt, hierarchy_interrupted_leaves_no_folder)
{
    char graph[1024], dir[1024], out[4096], cmd[8192];
    snprintf(graph, sizeof graph, "%s", io_path("int-in.graph")); /* io_path reuses one buffer */
    snprintf(dir, sizeof dir, "%s", io_path("int-out"));
    snprintf(cmd, sizeof cmd, "%s gen rgg --vertices 4194304 --degree 12 --quiet -o %s", cli_prog(), graph);
    cr_assert_eq(cli_run(cmd, NULL, 0), 0);
    snprintf(cmd, sizeof cmd,
             "{ %s --quiet --device cpu --threads 1 --levels 10 --out %s --gzip %s 2>%s.err & pid=$!; sleep 0.5; "
             "kill -TERM $pid; "
             "wait $pid; echo $?; cat %s.err; }",
             cli_prog(), dir, graph, dir, dir);
    cr_assert_eq(cli_run(cmd, out, sizeof out), 0);
    cr_assert_eq(atoi(out), 143, "exit status: %s", out);
    cr_assert(strstr(out, "interrupted by SIGTERM"), "%s", out);
    cr_assert_eq(entries_with(dir, ""), -1, "the folder the run created is gone");
}
