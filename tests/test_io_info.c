/* test_io_info.c — `coarsen info` through the program (COARSEN_PROG, set by
 * make check): figures of a small graph checked by hand, --json, standard
 * input, and a bad file giving "coarsen: FILE:LINE: ..." with exit status 2. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/support/cli_run.h"
#include "tests/support/io_files.h"

/* Triangle 1-2-3 with weights 5, 7, 2 plus isolated vertex 4; vertex
 * weights 4, 1, 9, 0. */
#define TRIANGLE "4 3 11\n4 2 5 3 2\n1 1 5 3 7\n9 2 7 1 2\n0\n"

Test(io_info, text_figures_of_a_small_graph)
{
    const char *p = cli_prog();
    char cmd[2048], out[8192];
    snprintf(cmd, sizeof cmd, "%s info --quiet %s 2>&1", p, io_file("tri.graph", TRIANGLE, 0));
    cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "%s", out);
    cr_expect(strstr(out, "vertices          4\n"), "%s", out);
    cr_expect(strstr(out, "edges             3 (6 adjacency entries)"), "%s", out);
    cr_expect(strstr(out, "vertex weights    min 0, max 9, total 14"), "%s", out);
    cr_expect(strstr(out, "edge weights      min 2, max 7, total 14 (integers)"), "%s", out);
    cr_expect(strstr(out, "degree            min 0, avg 1.500, max 2"), "%s", out);
    cr_expect(strstr(out, "isolated vertices 1"), "%s", out);
    /* (4+1)*8 + 6*(4+8) + 4*8 bytes */
    cr_expect(strstr(out, "CSR memory        144 bytes"), "%s", out);
}

Test(io_info, json_and_reader_report_from_standard_input)
{
    const char *p = cli_prog();
    char cmd[2048], out[8192];
    const char *path = io_file("dup.mtx",
                               "%%MatrixMarket matrix coordinate complex general\n3 3 4\n1 1 1 0\n1 2 3 4\n1 2 0 1\n2 1 1 0\n",
                               1);
    snprintf(cmd, sizeof cmd, "%s info --quiet --json - < %s 2>&1", p, path);
    cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "%s", out);
    cr_expect(strstr(out, "\"vertices\": 3, \"edges\": 1,"), "%s", out);
    cr_expect(strstr(out, "\"diagonal_dropped\": 1, \"duplicates_merged\": 1,"), "%s", out);
    cr_expect(strstr(out, "\"complex_magnitude\": true"), "%s", out);
    cr_expect(strstr(out, "\"file\": \"-\""), "%s", out);
}

Test(io_info, bad_file_one_line_and_exit_3)
{
    const char *p = cli_prog();
    char cmd[2048], out[8192];
    const char *path = io_file("bad.graph", "3 2\n2\n1 4\n2\n", 0);
    snprintf(cmd, sizeof cmd, "%s info --quiet %s 2>&1", p, path);
    cr_assert_eq(cli_run(cmd, out, sizeof out), EXIT_INPUT, "%s", out);
    char want[1024];
    snprintf(want, sizeof want, "coarsen: %s:3: neighbour 4 out of range [1, 3]\n", path);
    cr_expect_str_eq(out, want);
}

Test(io_info, usage_errors_exit_2)
{
    const char *p = cli_prog();
    char cmd[2048], out[8192];
    snprintf(cmd, sizeof cmd, "%s info 2>&1", p);
    cr_expect_eq(cli_run(cmd, out, sizeof out), 2, "%s", out);
    snprintf(cmd, sizeof cmd, "%s info --help 2>&1", p);
    cr_expect_eq(cli_run(cmd, out, sizeof out), 0, "%s", out);
    cr_expect(strstr(out, "Usage: coarsen info"), "%s", out);
}

Test(io_info, standard_input_through_a_pipe_plain_and_gzip)
{
    /* A pipe cannot be measured or sought: it goes through zlib, which
     * passes plain text through and inflates gzip. */
    const char *p = cli_prog();
    char cmd[2048], out[8192];
    for (int gz = 0; gz < 2; gz++) {
        const char *path = io_file(gz ? "pipe.graph.gz" : "pipe.graph", TRIANGLE, gz);
        snprintf(cmd, sizeof cmd, "cat %s | %s info --quiet - 2>&1", path, p);
        cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "%s", out);
        cr_expect(strstr(out, "edges             3 (6 adjacency entries)"), "gz=%d: %s", gz, out);
    }
}
