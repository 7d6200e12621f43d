/* test_io_bad_input.c — every malformed input gives one line
 * "FILE:LINE: what is wrong", status COARSEN_ERR_INPUT and no graph (ASan
 * builds check for leaks). One test per case of the I/O issue. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "io/mtx_read.h"
#include "tests/support/cli_run.h"
#include "tests/support/io_files.h"

#define MM_REAL "%%MatrixMarket matrix coordinate real general\n"

Test(io_bad_mtx, missing_banner)
{
    io_expect_error_named("nobanner.mtx", "3 3 1\n1 2 1\n", 0, 1, "missing Matrix Market banner");
}
Test(io_bad_mtx, wrong_banner)
{
    io_expect_error_named("wrongbanner.mtx", "%%MatrixMarkt matrix coordinate real general\n1 1 0\n", 0, 1, "missing Matrix Market banner");
}
Test(io_bad_mtx, unknown_object)
{
    io_expect_error("%%MatrixMarket vector coordinate real general\n", 0, 1, "unknown Matrix Market object");
}
Test(io_bad_mtx, unknown_format)
{
    io_expect_error("%%MatrixMarket matrix sparse real general\n", 0, 1, "unknown Matrix Market format");
}
Test(io_bad_mtx, unknown_field)
{
    io_expect_error("%%MatrixMarket matrix coordinate quaternion general\n", 0, 1, "unknown Matrix Market field");
}
Test(io_bad_mtx, unknown_symmetry)
{
    io_expect_error("%%MatrixMarket matrix coordinate real upper\n", 0, 1, "unknown Matrix Market symmetry");
}
Test(io_bad_mtx, banner_missing_symmetry)
{
    io_expect_error("%%MatrixMarket matrix coordinate real\n", 0, 1, "lacks the symmetry");
}
Test(io_bad_mtx, hermitian_needs_complex)
{
    io_expect_error("%%MatrixMarket matrix coordinate real hermitian\n2 2 0\n", 0, 1, "needs the complex field");
}
Test(io_bad_mtx, size_line_missing)
{
    io_expect_error(MM_REAL "% only comments\n\n", 0, 3, "size line is missing");
}
Test(io_bad_mtx, size_negative)
{
    io_expect_error(MM_REAL "-3 3 1\n", 0, 2, "number of rows: value out of range");
}
Test(io_bad_mtx, size_not_numeric)
{
    io_expect_error(MM_REAL "3 x 1\n", 0, 2, "expected the number of columns, found 'x'");
}
Test(io_bad_mtx, size_missing_entry_count)
{
    io_expect_error(MM_REAL "3 3\n", 0, 2, "expected the number of entries");
}
Test(io_bad_mtx, size_inconsistent_more_entries_than_places)
{
    io_expect_error(MM_REAL "2 2 5\n", 0, 2, "5 entries declared but a 2x2 matrix has only 4 places");
}
Test(io_bad_mtx, size_too_large_for_vertex_ids)
{
    io_expect_error(MM_REAL "3000000000 3000000000 1\n", 0, 2, "out of range");
}
Test(io_bad_mtx, symmetric_not_square)
{
    io_expect_error("%%MatrixMarket matrix coordinate real symmetric\n2 3 0\n", 0, 2, "must be square");
}
Test(io_bad_mtx, rectangular_points_at_bipartite)
{
    io_expect_error(MM_REAL "% c\n2 3 1\n1 3 1\n", 0, 3, "use `coarsen bipartite`");
}
Test(io_bad_mtx, fewer_entries_than_declared)
{
    io_expect_error(MM_REAL "3 3 3\n1 2 1\n2 3 1\n", 0, 4, "file ends after 2 of the 3 entries declared");
}
Test(io_bad_mtx, more_entries_than_declared)
{
    io_expect_error(MM_REAL "3 3 1\n1 2 1\n\n2 3 1\n", 0, 5, "more entries than the 1 declared");
}
Test(io_bad_mtx, index_zero)
{
    io_expect_error(MM_REAL "3 3 1\n0 2 1\n", 0, 3, "row index out of range [1, 3]");
}
Test(io_bad_mtx, index_negative)
{
    io_expect_error(MM_REAL "3 3 1\n1 -2 1\n", 0, 3, "column index out of range [1, 3]");
}
Test(io_bad_mtx, index_beyond_size)
{
    io_expect_error(MM_REAL "3 3 2\n1 2 1\n4 2 1\n", 0, 4, "row index out of range [1, 3]");
}
Test(io_bad_mtx, index_not_integer)
{
    io_expect_error(MM_REAL "3 3 1\n1.5 2 1\n", 0, 3, "expected a row index, found '1.5'");
}
Test(io_bad_mtx, value_not_numeric)
{
    io_expect_error(MM_REAL "3 3 1\n1 2 abc\n", 0, 3, "expected a real value, found 'abc'");
}
Test(io_bad_mtx, value_missing)
{
    io_expect_error(MM_REAL "3 3 1\n1 2\n", 0, 3, "expected a real value: found end of line");
}
Test(io_bad_mtx, value_nan)
{
    io_expect_error(MM_REAL "3 3 1\n1 2 nan\n", 0, 3, "NaN or infinite");
}
Test(io_bad_mtx, value_infinite)
{
    io_expect_error(MM_REAL "3 3 2\n1 2 1\n2 3 1e999\n", 0, 4, "NaN or infinite");
}
Test(io_bad_mtx, integer_field_with_real_value)
{
    io_expect_error("%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 2 2.5\n", 0, 3,
                    "expected an integer value, found '2.5'");
}
Test(io_bad_mtx, complex_missing_imaginary_part)
{
    io_expect_error("%%MatrixMarket matrix coordinate complex general\n2 2 1\n1 2 2.5\n", 0, 3,
                    "expected a complex value");
}
Test(io_bad_mtx, extra_text_after_entry)
{
    io_expect_error("%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2 7\n", 0, 3,
                    "unexpected text after the entry, found '7'");
}
Test(io_bad_mtx, array_too_few_values)
{
    io_expect_error("%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n", 0, 5, "file ends after 3 of the 4");
}
Test(io_bad_mtx, array_too_many_values)
{
    io_expect_error("%%MatrixMarket matrix array real symmetric\n2 2\n1\n2\n3\n4\n", 0, 6, "more values than the 3");
}
Test(io_bad_mtx, huge_entry_count_no_giant_allocation)
{
    /* 10^15 entries fit 2e9 x 2e9 places: the reservation is capped by the
     * text, and the missing entries are reported. */
    io_expect_error(MM_REAL "2000000000 2000000000 1000000000000000\n1 2 1\n", 0, 3,
                    "file ends after 1 of the 1000000000000000 entries declared");
}
Test(io_bad_mtx, huge_vertex_count_for_tiny_file)
{
    io_expect_error(MM_REAL "2000000000 2000000000 1\n1 2 1\n", 0, 2, "more than 64 vertices per byte");
}
Test(io_bad_mtx, entry_count_overflows)
{
    io_expect_error(MM_REAL "2 2 99999999999999999999\n", 0, 2, "number of entries: value out of range");
}

Test(io_bad_metis, empty_file)
{
    io_expect_error("", 0, 1, "empty file");
}
Test(io_bad_metis, empty_mtx_file)
{
    io_expect_error_named("empty.mtx", "", 0, 1, "empty file");
}
Test(io_bad_metis, only_comments)
{
    io_expect_error("% nothing\n%\n", 0, 2, "METIS header line is missing");
}
Test(io_bad_metis, header_not_numeric)
{
    io_expect_error("three 2\n", 0, 1, "expected the number of vertices, found 'three'");
}
Test(io_bad_metis, header_negative)
{
    io_expect_error("3 -2\n", 0, 1, "number of edges out of range");
}
Test(io_bad_metis, header_bad_fmt)
{
    io_expect_error("3 2 2\n", 0, 1, "fmt must be 0, 1, 10, 11");
}
Test(io_bad_metis, vertex_sizes_not_supported)
{
    io_expect_error("3 2 100\n", 0, 1, "fmt 100 (vertex sizes) is not supported");
}
Test(io_bad_metis, ncon_without_vertex_weights)
{
    io_expect_error("3 2 1 2\n", 0, 1, "ncon given but fmt 001 has no vertex weights");
}
Test(io_bad_metis, ncon_zero)
{
    io_expect_error("3 2 10 0\n", 0, 1, "ncon must be an integer >= 1");
}
Test(io_bad_metis, header_trailing_text)
{
    io_expect_error("3 2 10 1 7\n", 0, 1, "unexpected text");
}
Test(io_bad_metis, huge_vertex_count_no_giant_allocation)
{
    io_expect_error("% c\n2000000000 1\n2\n1\n", 0, 2, "declares 2000000000 vertices but only 4 bytes follow");
}
Test(io_bad_metis, huge_edge_count)
{
    io_expect_error("3 1000000000000000000\n2\n1\n\n", 0, 4, "declares 1000000000000000000 edges");
}
Test(io_bad_metis, negative_vertex_weight)
{
    io_expect_error("2 1 10\n1 2\n-1 1\n", 0, 3, "vertex weight must be an integer >= 0, found '-1'");
}
Test(io_bad_metis, zero_edge_weight)
{
    io_expect_error("2 1 1\n2 0\n1 0\n", 0, 2, "edge weight must be an integer > 0, found '0'");
}
Test(io_bad_metis, missing_edge_weight)
{
    io_expect_error("2 1 1\n2\n1 3\n", 0, 2, "edge weight must be an integer > 0: found end of line");
}
Test(io_bad_metis, real_edge_weight)
{
    io_expect_error("2 1 1\n2 1.5\n1 1.5\n", 0, 2, "found '1.5'");
}
Test(io_bad_metis, neighbour_out_of_range)
{
    io_expect_error("3 2\n2\n1 4\n2\n", 0, 3, "neighbour 4 out of range [1, 3]");
}
Test(io_bad_metis, neighbour_zero)
{
    io_expect_error("3 2\n0\n1 3\n2\n", 0, 2, "neighbour 0 out of range");
}
Test(io_bad_metis, neighbour_not_numeric)
{
    io_expect_error("3 2\n2\n1 x\n2\n", 0, 3, "expected a neighbour id, found 'x'");
}
Test(io_bad_metis, asymmetric_adjacency_names_both_lines)
{
    io_expect_error("3 2\n2 3\n1\n2\n", 0, 2, "vertex 1 lists neighbour 3, but vertex 3 (line 4) does not list 1");
}
Test(io_bad_metis, asymmetric_lower_entry_without_mirror)
{
    /* Every entry above the diagonal has its mirror, but vertex 2 lists 1
     * and vertex 4 lists 2 without being listed back. */
    io_expect_error("4 2\n3\n1\n1\n2\n", 0, 3, "vertex 2 lists neighbour 1, but vertex 1 (line 2) does not list 2");
}
Test(io_bad_metis, asymmetric_weights)
{
    io_expect_error("3 2 1\n2 4\n1 5 3 1\n2 1\n", 0, 2, "edge 1-2 has weight 4 here but 5 at line 3");
}
Test(io_bad_metis, duplicate_neighbour)
{
    io_expect_error("2 2\n2 2\n1 1\n", 0, 2, "vertex 1 lists neighbour 2 twice");
}
Test(io_bad_metis, wrong_edge_count_too_few_entries)
{
    io_expect_error("3 3\n2\n1 3\n2\n", 0, 4, "declares 3 edges (6 adjacency entries) but the file lists 4");
}
Test(io_bad_metis, wrong_edge_count_too_many_entries)
{
    io_expect_error("3 1\n2\n1 3\n2\n", 0, 4, "declares 1 edges (2 adjacency entries) but the file lists 4");
}
Test(io_bad_metis, too_few_lines)
{
    io_expect_error("4 1\n2\n1\n", 0, 3, "file ends after 2 of the 4 vertex lines");
}
Test(io_bad_metis, too_many_lines)
{
    io_expect_error("2 1\n2\n1\n1\n", 0, 4, "more lines than the 2 vertices");
}
Test(io_bad_metis, very_long_junk_line_quoted_briefly)
{
    size_t n = 1 << 20;
    char *text = malloc(n + 16);
    strcpy(text, "2 1\n");
    memset(text + 4, 'x', n);
    strcpy(text + 4 + n, "\n1\n");
    io_expect_error(text, 0, 2, "expected a neighbour id, found 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'");
    coarsen_error err = {0};
    coarsen_graph *g;
    cr_assert_eq(coarsen_graph_load(io_path("bad.txt"), &g, NULL, &err), COARSEN_ERR_INPUT);
    cr_expect_lt(strlen(err.msg), 200, "message stays short");
    free(text);
}

/* Compressed bytes of text. */
static unsigned char *gzip_bytes(const char *text, size_t *len)
{
    const char *path = io_file("tmp.gz", text, 1);
    FILE *f = fopen(path, "rb");
    cr_assert(f);
    unsigned char *buf = malloc(1 << 16);
    *len = fread(buf, 1, 1 << 16, f);
    fclose(f);
    return buf;
}

static void expect_gzip_error(const unsigned char *data, size_t len)
{
    const char *path = io_file_bytes("broken.graph.gz", data, len, 0);
    coarsen_graph *g = NULL;
    coarsen_error err = {0};
    cr_assert_eq(coarsen_graph_load(path, &g, NULL, &err), COARSEN_ERR_INPUT, "%s", err.msg);
    cr_assert_null(g);
    cr_assert(!strncmp(err.msg, path, strlen(path)) && err.msg[strlen(path)] == ':', "'%s' names the file", err.msg);
    cr_assert(strstr(err.msg, "corrupt or truncated gzip data"), "'%s'", err.msg);
}

Test(io_bad_gzip, truncated)
{
    static char text[20000];
    strcpy(text, "3 2\n2\n1 3\n2\n");
    for (int k = 0; k < 300; k++)
        strcat(text, "% padding comment line that makes the stream longer\n");
    size_t len;
    unsigned char *gz = gzip_bytes(text, &len);
    cr_assert_gt(len, 40);
    expect_gzip_error(gz, len / 2);
    expect_gzip_error(gz, len - 4); /* only the trailer's length is missing */
    free(gz);
}

Test(io_bad_gzip, corrupt_crc)
{
    size_t len;
    unsigned char *gz = gzip_bytes("3 2\n2\n1 3\n2\n", &len);
    gz[len - 6] ^= 0xff; /* inside the CRC-32 of the trailer */
    expect_gzip_error(gz, len);
    free(gz);
}

Test(io_bad_gzip, corrupt_deflate_data)
{
    size_t len;
    unsigned char *gz = gzip_bytes("3 2\n2\n1 3\n2\n", &len);
    for (size_t k = 10; k < len - 8; k++)
        gz[k] = 0xff;
    expect_gzip_error(gz, len);
    free(gz);
}

Test(io_bad_gzip, missing_file_is_an_io_error)
{
    coarsen_graph *g = NULL;
    coarsen_error err = {0};
    cr_assert_eq(coarsen_graph_load(io_path("does-not-exist.graph"), &g, NULL, &err), COARSEN_ERR_IO);
    cr_assert(strstr(err.msg, "cannot open"));
}
/* The same size line through the matrix reader of `coarsen bipartite` and
 * --transversal (issue 17, item 2: it used to allocate 17 GB there): the
 * same one-line error, before anything of the matrix's size is allocated. */
Test(io_bad_mtx, huge_matrix_for_tiny_file_refused_by_the_matrix_reader_too)
{
    static const char text[] = MM_REAL "2147483647 2147483647 1\n1 2 1.0\n";
    const char *path = io_file("huge.mtx", text, 0);
    mtx_coo m;
    coarsen_error err = {0};
    int64_t bytes;
    cr_assert_eq(mtx_read_coo(path, &m, &bytes, &err), COARSEN_ERR_INPUT);
    cr_assert(strstr(err.msg, ":2: ") && strstr(err.msg, "more than 64 vertices per byte"), "%s", err.msg);
    cr_assert_null(m.i);
}

/* An endless input (issue 17, item 9): /dev/zero as FILE under a 2 GB
 * address-space limit ends in one line and exit 3 (bad input), not in the OOM killer. */
Test(io_bad_input_cli, endless_input_is_one_error_line, .timeout = 120)
{
#if defined(__SANITIZE_ADDRESS__)
    cr_skip_test("AddressSanitizer reserves more address space than the limit this test sets");
#else
    char cmd[1024], out[4096];
    snprintf(cmd, sizeof cmd, "(ulimit -v 2000000; %s info /dev/zero) 2>&1; echo \"status $?\"", cli_prog());
    cr_assert_eq(cli_run(cmd, out, sizeof out), 0);
    cr_assert(strstr(out, "/dev/zero: more than") && strstr(out, "memory available"), "%s", out);
    cr_assert(strstr(out, "status 3"), "%s", out);
#endif
}

/* Weight totals that no sum can hold (issue 17, items 3 and 4): vertex
 * weights adding up past int64 and real edge weights adding up to infinity
 * are refused at reading, with one line naming the file, before any level,
 * stats.json or partition could show a negative or infinite figure. */
Test(io_bad_input, weight_totals_beyond_int64_or_double_are_refused)
{
    static const char metis[] = "3 2 010\n4611686018427387904 2\n4611686018427387904 1 3\n1 2\n";
    const char *path = io_file("heavy.graph", metis, 0);
    coarsen_graph *g = NULL;
    coarsen_error err = {0};
    cr_assert_eq(coarsen_graph_load(path, &g, NULL, &err), COARSEN_ERR_INPUT);
    cr_assert_null(g);
    cr_assert(strstr(err.msg, path) && strstr(err.msg, "vertex weights add up to more than 2^63 - 1"), "%s", err.msg);
    static const char fine[] = "3 2 010\n4611686018427387903 2\n4611686018427387903 1 3\n1 2\n"; /* 2^63 - 1 exactly */
    path = io_file("fine.graph", fine, 0);
    cr_assert_eq(coarsen_graph_load(path, &g, NULL, &err), COARSEN_OK, "%s", err.msg);
    coarsen_graph_free(g);
    g = NULL;
    static const char mtx[] = MM_REAL "3 3 2\n2 1 1e308\n3 2 1e308\n";
    path = io_file("inf.mtx", mtx, 0);
    cr_assert_eq(coarsen_graph_load(path, &g, NULL, &err), COARSEN_ERR_INPUT);
    cr_assert_null(g);
    cr_assert(strstr(err.msg, "edge weights add up to more than the largest double"), "%s", err.msg);
}
