/* test_io_mtx.c — the Matrix Market reader on small handwritten files: every
 * field, symmetry and conversion rule of docs/formats.md, array files, the
 * COO reader, and the real-number parser against strtod. */
#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/hash.h"
#include "io/line_chunks.h"
#include "io/mtx_read.h"
#include "io/text_input.h"
#include "tests/support/io_files.h"
#include "tests/support/test_support.h"

#define EDGES(...) ((const io_edge[]){__VA_ARGS__}), (int)(sizeof((const io_edge[]){__VA_ARGS__}) / sizeof(io_edge))

Test(io_mtx, general_real_max_of_both_directions_and_summed_duplicates)
{
    coarsen_read_report r;
    coarsen_graph *g = io_load_text("%%MatrixMarket matrix coordinate real general\n"
                                    "% a comment\n"
                                    "3 3 6\n"
                                    "1 2 3\n2 1 -5\n2 3 2.5\n3 3 7\n1 3 1\n1 3 2\n",
                                    0, &r);
    io_expect_graph(g, 3, EDGES({0, 1, 5}, {1, 2, 2.5}, {0, 2, 3}));
    cr_expect_eq(r.entries, 6);
    cr_expect_eq(r.diagonal_dropped, 1);
    cr_expect_eq(r.duplicates_merged, 1);
    cr_expect_eq(r.complex_magnitude, 0);
    cr_expect_str_eq(r.format, "matrix market coordinate real general");
    cr_expect_eq(g->integral_weights, 0);
    for (int32_t u = 0; u < 3; u++)
        cr_expect_eq(g->vwgt[u], 1);
    coarsen_graph_free(g);
}

Test(io_mtx, symmetric_mirrors_lower_triangle_with_absolute_values)
{
    coarsen_graph *g = io_load_text("%%MatrixMarket matrix coordinate real symmetric\n"
                                    "4 4 4\n2 1 -4\n3 1 1.5\n4 4 9\n4 3 1e-3\n",
                                    0, NULL);
    io_expect_graph(g, 4, EDGES({0, 1, 4}, {0, 2, 1.5}, {2, 3, 1e-3}));
    coarsen_graph_free(g);
}

Test(io_mtx, skew_symmetric_uses_magnitude)
{
    coarsen_graph *g =
        io_load_text("%%MatrixMarket matrix coordinate integer skew-symmetric\n3 3 2\n2 1 -3\n3 2 4\n", 0, NULL);
    io_expect_graph(g, 3, EDGES({0, 1, 3}, {1, 2, 4}));
    cr_expect_eq(g->integral_weights, 1);
    coarsen_graph_free(g);
}

Test(io_mtx, hermitian_complex_uses_modulus_and_reports_it)
{
    coarsen_read_report r;
    coarsen_graph *g =
        io_load_text("%%MatrixMarket matrix coordinate complex hermitian\n3 3 3\n1 1 2 0\n2 1 3 4\n3 2 0 -1\n", 0, &r);
    io_expect_graph(g, 3, EDGES({0, 1, 5}, {1, 2, 1}));
    cr_expect_eq(r.complex_magnitude, 1);
    coarsen_graph_free(g);
}

Test(io_mtx, complex_general_takes_larger_modulus)
{
    coarsen_graph *g =
        io_load_text("%%MatrixMarket matrix coordinate complex general\n2 2 2\n1 2 3 4\n2 1 0 1\n", 0, NULL);
    io_expect_graph(g, 2, EDGES({0, 1, 5}));
    coarsen_graph_free(g);
}

Test(io_mtx, pattern_gives_unit_weights_even_for_duplicates)
{
    coarsen_read_report r;
    coarsen_graph *g =
        io_load_text("%%MatrixMarket matrix coordinate pattern general\n3 3 4\n1 2\n2 1\n1 3\n1 3\n", 0, &r);
    io_expect_graph(g, 3, EDGES({0, 1, 1}, {0, 2, 1}));
    cr_expect_eq(r.duplicates_merged, 1);
    cr_expect_eq(g->integral_weights, 1);
    coarsen_graph_free(g);
}

Test(io_mtx, explicit_zero_stays_an_edge_of_weight_zero)
{
    coarsen_read_report r;
    coarsen_graph *g = io_load_text("%%MatrixMarket matrix coordinate real symmetric\n3 3 2\n2 1 0\n3 1 0.0\n", 0, &r);
    io_expect_graph(g, 3, EDGES({0, 1, 0}, {0, 2, 0}));
    cr_expect_eq(r.zero_weight_edges, 2);
    coarsen_graph_free(g);
}

Test(io_mtx, crlf_blank_lines_tabs_comments_and_case)
{
    coarsen_graph *g = io_load_text("%%matrixmarket MATRIX Coordinate Double General\r\n"
                                    "%comment\r\n\r\n"
                                    "  3\t3  2 \r\n"
                                    "\r\n"
                                    "1\t2\t+1.25\r\n"
                                    "% interleaved comment\r\n"
                                    "3 2 .5",
                                    0, NULL);
    io_expect_graph(g, 3, EDGES({0, 1, 1.25}, {1, 2, 0.5}));
    coarsen_graph_free(g);
}

Test(io_mtx, isolated_vertices_and_empty_matrix)
{
    coarsen_graph *g = io_load_text("%%MatrixMarket matrix coordinate pattern symmetric\n5 5 1\n2 1\n", 0, NULL);
    io_expect_graph(g, 5, EDGES({0, 1, 1}));
    coarsen_graph_free(g);
    g = io_load_text("%%MatrixMarket matrix coordinate real general\n0 0 0\n", 0, NULL);
    cr_expect_eq(g->n, 0);
    cr_expect_eq(g->nnz, 0);
    coarsen_graph_free(g);
}

Test(io_mtx, array_general_column_major_zeros_are_not_edges)
{
    /* A = [0 2 0; 3 0 0; 0 5 1]: column-major 0 3 0 | 2 0 5 | 0 0 1. */
    coarsen_graph *g =
        io_load_text("%%MatrixMarket matrix array real general\n3 3\n0\n3\n0\n2\n0\n5\n0\n0\n1\n", 0, NULL);
    io_expect_graph(g, 3, EDGES({0, 1, 3}, {1, 2, 5}));
    coarsen_graph_free(g);
}

Test(io_mtx, array_symmetric_lower_triangle)
{
    /* Lower triangle by columns: (1,1) (2,1) (3,1) | (2,2) (3,2) | (3,3). */
    coarsen_graph *g =
        io_load_text("%%MatrixMarket matrix array integer symmetric\n3 3\n9\n-2\n0\n9\n7\n9\n", 0, NULL);
    io_expect_graph(g, 3, EDGES({0, 1, 2}, {1, 2, 7}));
    coarsen_graph_free(g);
}

Test(io_mtx, array_skew_symmetric_strict_lower_triangle)
{
    coarsen_graph *g = io_load_text("%%MatrixMarket matrix array real skew-symmetric\n3 3\n1\n2\n3\n", 0, NULL);
    io_expect_graph(g, 3, EDGES({0, 1, 1}, {0, 2, 2}, {1, 2, 3}));
    coarsen_graph_free(g);
}

Test(io_mtx, gzip_detected_by_content_not_name)
{
    const char *text = "%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 2 7\n";
    const char *path = io_file("looks_plain.txt", text, 1);
    coarsen_graph *g;
    coarsen_error err = {0};
    cr_assert_eq(coarsen_graph_load(path, &g, NULL, &err), 0, "%s", err.msg);
    io_expect_graph(g, 2, EDGES({0, 1, 7}));
    coarsen_graph_free(g);
    path = io_file("looks_gz.mtx.gz", text, 0);
    cr_assert_eq(coarsen_graph_load(path, &g, NULL, &err), 0, "%s", err.msg);
    io_expect_graph(g, 2, EDGES({0, 1, 7}));
    coarsen_graph_free(g);
}

Test(io_mtx, coo_reader_keeps_rectangular_entries_in_file_order)
{
    const char *text = "%%MatrixMarket matrix coordinate integer general\n2 3 3\n1 3 4\n2 1 -1\n2 3 6\n";
    const char *path = io_file("rect.mtx", text, 0);
    mtx_coo m;
    int64_t bytes = 0;
    coarsen_error err = {0};
    cr_assert_eq(mtx_read_coo(path, &m, &bytes, &err), 0, "%s", err.msg);
    cr_expect_eq(m.rows, 2);
    cr_expect_eq(m.cols, 3);
    cr_assert_eq(m.count, 3);
    const int32_t ei[] = {0, 1, 1}, ej[] = {2, 0, 2};
    const double ev[] = {4, -1, 6};
    for (int k = 0; k < 3; k++) {
        cr_expect_eq(m.i[k], ei[k]);
        cr_expect_eq(m.j[k], ej[k]);
        cr_expect_eq(m.value[k], ev[k]);
    }
    cr_expect_eq(m.field, MTX_INTEGER);
    cr_expect_eq(m.symmetry, MTX_GENERAL);
    cr_expect_eq(bytes, (int64_t)strlen(text));
    mtx_coo_free(&m);
}

Test(io_mtx, real_parser_matches_strtod_exactly)
{
    /* The fast path must give the correctly rounded double of strtod. */
    uint64_t x = 88172645463325252ull;
    char buf[64];
    for (int k = 0; k < 200000; k++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        double v = (double)(x % 1000000007) / (double)(1 + (x >> 40) % 100000);
        int prec = 1 + (int)((x >> 20) % 17);
        const char *fmt = (x >> 30) & 1 ? "%.*e" : "%.*g";
        snprintf(buf, sizeof buf, fmt, prec, (x >> 33) & 1 ? -v : v);
        const char *p = buf, *e = buf + strlen(buf);
        double got;
        cr_assert_eq(text_parse_real(&p, e, &got), 1, "'%s' rejected", buf);
        cr_assert_eq(p, e);
        cr_assert_eq(got, strtod(buf, NULL), "'%s': %.17g vs %.17g", buf, got, strtod(buf, NULL));
    }
    const char *odd[] = {"1e-300", "123456789012345678901234567890", "0x1p3", "4.9e-324", "-0", "1.", ".5e1"};
    for (size_t k = 0; k < sizeof odd / sizeof *odd; k++) {
        const char *p = odd[k];
        double got;
        cr_assert_eq(text_parse_real(&p, odd[k] + strlen(odd[k]), &got), 1, "'%s' rejected", odd[k]);
        cr_assert_eq(got, strtod(odd[k], NULL), "'%s'", odd[k]);
    }
}

/* A random token of the shapes the parser tells apart: sign, integer digits
 * (leading zeros too), a point, fraction digits, an exponent of 0 to 4
 * digits (none: "1e"), and now and then a stray byte; up to 20 integer
 * and 25 fraction digits, around the 19 digits, 2^53 and the +-22 of the
 * fast path. */
static uint64_t next_random(uint64_t *x)
{
    return hash_mix64(++*x);
}

static size_t random_real_token(uint64_t *x, char *buf)
{
    size_t n = 0;
    uint64_t r = next_random(x);
    if (r & 3)
        buf[n++] = "+--"[r >> 2 & 1 ? 1 : (r >> 3 & 1) * 2];
    r >>= 4;
    int lead = (int)(r & 7) > 5 ? (int)(r >> 3 & 7) : 0, intd = (int)(r >> 6 & 31) % 21,
        fracd = (int)(r >> 11 & 31) % 26, point = (r >> 16 & 7) != 0, expd = (r >> 19 & 7) > 4 ? (int)(r >> 22 & 7) % 5 : -1;
    r = next_random(x);
    for (int k = 0; k < lead; k++)
        buf[n++] = '0';
    for (int k = 0; k < intd; k++, r = r / 10 ? r / 10 : next_random(x))
        buf[n++] = (char)('0' + r % 10);
    if (point) {
        buf[n++] = '.';
        for (int k = 0; k < (r & 1 ? (int)(r >> 1 & 31) % 8 : 0); k++)
            buf[n++] = '0';
        for (int k = 0; k < fracd; k++, r = r / 10 ? r / 10 : next_random(x))
            buf[n++] = (char)('0' + r % 10);
    }
    r = next_random(x);
    if (expd >= 0) {
        buf[n++] = r & 1 ? 'e' : 'E';
        if (r & 6)
            buf[n++] = r & 2 ? '-' : '+';
        for (int k = 0; k < expd; k++)
            buf[n++] = (char)('0' + (r >> (8 + 4 * k)) % (k ? 10 : 4));
    }
    if ((r >> 40 & 63) == 0)
        buf[(r >> 46) % (n + 1)] = "x.e-+"[(r >> 52) % 5], n += (r >> 46) % (n + 1) == n;
    if (n == 0)
        buf[n++] = '0';
    buf[n] = '\0';
    return n;
}

/* The token tok (in a line "7 8 TOKEN", then the line end or, with tail,
 * " 9") parsed as strtod, the oracle, parses it alone: all of it taken (else
 * "not a number", 0) and a finite value (else -1), whose bits the parser
 * gives too, -0 included. */
static void check_real_token(const char *tok, int tail)
{
    char line[160];
    size_t n = strlen(tok);
    cr_assert_lt(n + 8, sizeof line);
    memcpy(line, "7 8 ", 4);
    memcpy(line + 4, tok, n + 1);
    if (tail)
        memcpy(line + 4 + n, " 9", 3);
    char *end;
    double want = strtod(line + 4, &end);
    int expect = end != line + 4 + n ? 0 : isfinite(want) ? 1 : -1;
    const char *p = line + 3;
    double got = 12345;
    int r = text_parse_real(&p, line + 4 + n + (tail ? 2 : 0), &got);
    cr_assert_eq(r, expect, "'%s': %d, strtod says %d", tok, r, expect);
    if (r == 1) {
        cr_assert_eq(p, line + 4 + n, "'%s': stopped at %td", tok, p - (line + 4));
        cr_assert(memcmp(&got, &want, sizeof got) == 0, "'%s': %a vs strtod %a", tok, got, want);
    }
}

Test(io_mtx, real_parser_agrees_with_strtod_on_random_token_shapes)
{
    const char *edge[] = {"18446744073709551616", "-18446744073709551616e-5", "1844674407370955161.6",
                          "00000000000000000000", "-0.00000000000000000000", "9007199254740993",
                          "9007199254740992", "900719925474099.3", "1e22", "1e23", "1e-22", "1e-23",
                          "123456789e-30", "0.0000000000000000000001", "99999999999999999999", "9999999999999999999",
                          "1234567890123456789e3", "-.5", "+5.", ".", "-", "+e5", "1e", "1e+", "1.5.", "0e99999",
                          "4.9e-324", "2e-324", "1.7976931348623157e308", "1.8e308", "--1", "1x", "inf", "nan"};
    for (size_t k = 0; k < sizeof edge / sizeof *edge; k++)
        for (int tail = 0; tail < 2; tail++)
            check_real_token(edge[k], tail);
    uint64_t x = 20261128;
    char tok[128];
    for (int k = 0; k < 2000000; k++) {
        random_real_token(&x, tok);
        check_real_token(tok, k & 1);
    }
}

Test(io_mtx, integer_parser_limits)
{
    const struct {
        const char *text;
        int result;
        int64_t value;
    } cases[] = {
        {"9223372036854775807", 1, INT64_MAX},  {"-9223372036854775808", 1, INT64_MIN},
        {"9223372036854775808", -1, 0},         {"-9223372036854775809", -1, 0},
        {"00000000000000000000000042", 1, 42},  {"99999999999999999999", -1, 0},
        {"+17", 1, 17},                         {"-0", 1, 0},
        {"12x", 0, 0},                          {"-", 0, 0},
        {"1.0", 0, 0},                          {"18446744073709551616", -1, 0},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        const char *p = cases[k].text;
        int64_t v = 0;
        int r = text_parse_int(&p, p + strlen(p), &v);
        cr_expect_eq(r, cases[k].result, "'%s': %d", cases[k].text, r);
        if (r == 1)
            cr_expect_eq(v, cases[k].value, "'%s': %lld", cases[k].text, (long long)v);
    }
}

static uint64_t test_rand(uint64_t *state)
{
    return hash_mix64(++*state);
}

/* The oracle of text_parse_int for one token (no blanks in it): strtoll on
 * [+-]digits, ERANGE meaning overflow. */
static int parse_int_oracle(const char *tok, int64_t *v)
{
    const char *d = tok + (*tok == '+' || *tok == '-');
    if (!*d || strspn(d, "0123456789") != strlen(d))
        return 0;
    errno = 0;
    long long x = strtoll(tok, NULL, 10);
    if (errno == ERANGE)
        return -1;
    *v = x;
    return 1;
}

/* Tokens of 1 to 20 digits (the 8-byte fast path takes 1 to 8 followed by a
 * blank or the line end, with 8 bytes left on the line or a padded text),
 * signed or not, with a stray byte inside or after, then a blank, a tab or
 * the line end, and text after the line end: the result, the value and the
 * advance agree with the oracle, padded or not. */
Test(io_mtx, integer_parser_agrees_with_strtoll)
{
    uint64_t seed = 99;
    const char stray[] = "x.e-+:/";
    for (int k = 0; k < 20000; k++) {
        char tok[32], line[96];
        int len = 1 + (int)(test_rand(&seed) % 20), at = 0;
        int sign = (int)(test_rand(&seed) % 8);
        if (sign == 0)
            tok[at++] = '-';
        else if (sign == 1)
            tok[at++] = '+';
        for (int d = 0; d < len; d++)
            tok[at++] = (char)('0' + test_rand(&seed) % 10);
        if (test_rand(&seed) % 10 == 0) { /* a byte that is not a digit, inside or at the end */
            int where = (int)(test_rand(&seed) % (uint64_t)(at + 1));
            tok[where] = stray[test_rand(&seed) % (sizeof stray - 1)];
            at += where == at;
        }
        tok[at] = '\0';
        const int ends = (int)(test_rand(&seed) % 3); /* 0: blank, 1: tab, 2: line end */
        const char *after = ends == 2 ? "" : ends == 0 ? " 7 8 9 10 11" : "\t5";
        snprintf(line, sizeof line, "%s%s", tok, after);
        const char *e = line + strlen(line);
        /* past the line end: a newline, or digits (the 8-byte load of a
         * padded text may see them and must not take them) */
        snprintf(line + strlen(line), sizeof line - strlen(line), k % 2 ? "\n123456789" : "123456789");
        int64_t want = 0;
        int rw = parse_int_oracle(tok, &want);
        for (int padded = 0; padded <= 1; padded++) {
            const char *p = line;
            int64_t got = -7;
            int r = text_parse_int_pad(&p, e, padded, &got);
            cr_assert_eq(r, rw, "'%s' (padded %d): %d, oracle %d", line, padded, r, rw);
            if (r == 1) {
                cr_assert_eq(got, want, "'%s': %lld, oracle %lld", tok, (long long)got, (long long)want);
                cr_assert_eq(p, line + strlen(tok), "'%s': stopped at %td", tok, p - line);
            } else {
                cr_assert_eq(p, line, "'%s': moved on failure", tok);
            }
        }
    }
}

Test(io_mtx, chunked_parse_equals_single_chunk)
{
    coarsen_graph *r = test_random_graph(150, 0.05, 2, 23);
    coarsen_error err = {0};
    char path[600];
    snprintf(path, sizeof path, "%s", io_path("chunks.mtx"));
    cr_assert_eq(coarsen_graph_write(r, path, COARSEN_FORMAT_MTX, 0, &err), 0, "%s", err.msg);
    const char *texts[] = {NULL,
                           "%%MatrixMarket matrix coordinate integer general\r\n% c\r\n\r\n4 4 5\r\n1 2 3\r\n"
                           "  % indented comment\r\n\r\n2 1 -4\r\n3 3 1\r\n4 1 2\r\n\r\n4 1 5\r\n% tail\r\n\r\n"};
    for (int f = 0; f < 2; f++) {
        const char *p = texts[f] ? io_file("chunks2.mtx", texts[f], 0) : path;
        coarsen_graph *ref = io_load_all_chunkings(p);
        if (!texts[f])
            io_expect_same_graph(r, ref);
        else
            io_expect_graph(ref, 4, EDGES({0, 1, 4}, {0, 3, 7}));
        coarsen_graph_free(ref);
    }
    coarsen_graph_free(r);
}

Test(io_mtx, chunked_parse_reports_the_first_error_in_file_order)
{
    const char *p = io_file("twoerrors.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 4\n1 2 1\n"
                                             "2 x 1\n3 1 1\n9 9 9\n", 0);
    for (size_t bytes = 1; bytes < 40; bytes++) {
        coarsen_graph *g = NULL;
        coarsen_error err = {0};
        cr_assert_eq(io_load_chunked(p, bytes, &g, &err), COARSEN_ERR_INPUT);
        cr_assert(strstr(err.msg, ":4: expected a column index, found 'x'"), "chunk %zu: %s", bytes, err.msg);
    }
}

/* A Matrix Market chunk's line and data-line counts (vectorised, with the
 * line-by-line count where a line starts with a blank, CR or LF, or a '%'
 * is anywhere) equal a byte loop's, for every length and start, on random
 * text of digits, blanks, CR and LF, with a '%' in one round of four: data
 * lines are those neither blank nor starting with '%' after leading blanks
 * (a last line without its LF counts too; a CR at a line's end is not part
 * of it). */
Test(io_mtx, chunk_counts_equal_a_byte_loop)
{
    const unsigned char alphabet[] = {'1', '7', '1', '7', '9', ' ', ' ', '\t', '\r', '\n', '\n', '%'};
    unsigned char text[400];
    uint64_t state = 54321;
    for (int round = 0; round < 400; round++) {
        const size_t letters = round % 4 ? sizeof alphabet - 1 : sizeof alphabet; /* '%' in one round of four */
        const size_t spaced = round % 3 ? 8 : 1; /* some rounds with few blanks, CR and LF: lines that start with digits */
        for (size_t i = 0; i < sizeof text; i++) {
            state = state * 6364136223846793005u + 1442695040888963407u;
            const uint64_t r = state >> 33;
            text[i] = r % spaced ? alphabet[r % 5] : alphabet[(r >> 8) % letters];
        }
        for (size_t begin = 0; begin < 40; begin += 7)
            for (size_t end = begin; end <= sizeof text; end += 1 + end % 23) {
                line_chunk k = {.begin = (const char *)text + begin, .end = (const char *)text + end};
                line_chunk_count(&k, LINES_MTX);
                int64_t lines = 0, data = 0;
                for (size_t i = begin; i < end; i++) {
                    if (i != begin && text[i - 1] != '\n')
                        continue;
                    size_t e = i;
                    while (e < end && text[e] != '\n')
                        e++;
                    if (e > i && text[e - 1] == '\r')
                        e--;
                    size_t s = i;
                    while (s < e && (text[s] == ' ' || text[s] == '\t'))
                        s++;
                    lines++;
                    data += s < e && text[s] != '%';
                }
                cr_assert(k.lines == lines && k.data_lines == data && k.tokens == 0,
                          "round %d [%zu, %zu): lines %lld/%lld, data lines %lld/%lld, tokens %lld", round, begin, end,
                          (long long)k.lines, (long long)lines, (long long)k.data_lines, (long long)data,
                          (long long)k.tokens);
            }
    }
}
