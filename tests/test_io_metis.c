/* test_io_metis.c — the METIS reader on small handwritten files: every fmt,
 * ncon, comments, isolated vertices, self-loops, long lines, and standard
 * input. */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/line_chunks.h"
#include "tests/support/io_files.h"
#include "tests/support/test_support.h"

#define EDGES(...) ((const io_edge[]){__VA_ARGS__}), (int)(sizeof((const io_edge[]){__VA_ARGS__}) / sizeof(io_edge))

Test(io_metis, fmt0_unweighted_with_comments_and_isolated_vertex)
{
    coarsen_read_report r;
    coarsen_graph *g = io_load_text("% leading comment\n4 2\n2\n1 3\n% comment between vertices\n2\n\n", 0, &r);
    io_expect_graph(g, 4, EDGES({0, 1, 1}, {1, 2, 1}));
    cr_expect_str_eq(r.format, "metis fmt 000 ncon 1");
    cr_expect_eq(r.entries, 4);
    cr_expect_eq(r.extra_constraints, 0);
    for (int u = 0; u < 4; u++)
        cr_expect_eq(g->vwgt[u], 1);
    coarsen_graph_free(g);
}

Test(io_metis, fmt1_edge_weights)
{
    coarsen_graph *g = io_load_text("3 2 1\n2 5\n1 5 3 7\n2 7\n", 0, NULL);
    io_expect_graph(g, 3, EDGES({0, 1, 5}, {1, 2, 7}));
    coarsen_graph_free(g);
}

Test(io_metis, fmt10_vertex_weights_with_zero)
{
    coarsen_graph *g = io_load_text("3 2 10\n4 2\n0 1 3\n9 2\n", 0, NULL);
    io_expect_graph(g, 3, EDGES({0, 1, 1}, {1, 2, 1}));
    cr_expect_eq(g->vwgt[0], 4);
    cr_expect_eq(g->vwgt[1], 0);
    cr_expect_eq(g->vwgt[2], 9);
    coarsen_graph_free(g);
}

Test(io_metis, fmt011_and_ncon_keeps_first_constraint)
{
    coarsen_read_report r;
    coarsen_graph *g = io_load_text("3 2 011 3\n4 1 1 2 6\n5 2 2 1 6 3 8\n6 3 3 2 8\n", 0, &r);
    io_expect_graph(g, 3, EDGES({0, 1, 6}, {1, 2, 8}));
    cr_expect_eq(g->vwgt[0], 4);
    cr_expect_eq(g->vwgt[1], 5);
    cr_expect_eq(g->vwgt[2], 6);
    cr_expect_eq(r.extra_constraints, 2);
    cr_expect_str_eq(r.format, "metis fmt 011 ncon 3");
    coarsen_graph_free(g);
}

Test(io_metis, unsorted_rows_are_sorted_crlf_and_tabs)
{
    coarsen_graph *g = io_load_text("4 4\r\n4\t3 2\r\n1\r\n1 4\r\n3 1\r\n", 0, NULL);
    io_expect_graph(g, 4, EDGES({0, 1, 1}, {0, 2, 1}, {0, 3, 1}, {2, 3, 1}));
    coarsen_graph_free(g);
}

Test(io_metis, self_loops_dropped_and_counted)
{
    /* m counts the loop once (2m = 5 entries) or not at all (2m = 4): both
     * are accepted. */
    coarsen_read_report r;
    coarsen_graph *g = io_load_text("3 2\n1 2\n1 3\n2\n", 0, &r);
    io_expect_graph(g, 3, EDGES({0, 1, 1}, {1, 2, 1}));
    cr_expect_eq(r.diagonal_dropped, 1);
    coarsen_graph_free(g);
}

Test(io_metis, very_long_line)
{
    /* Vertex 1 adjacent to all others: one line of ~600 KB. */
    const int n = 100001;
    size_t cap = (size_t)n * 16 + 64;
    char *text = malloc(cap), *p = text;
    p += sprintf(p, "%d %d\n", n, n - 1);
    for (int v = 2; v <= n; v++)
        p += sprintf(p, "%d ", v);
    *p++ = '\n';
    for (int v = 2; v <= n; v++)
        p += sprintf(p, "1\n");
    *p = '\0';
    coarsen_graph *g = io_load_text(text, 1, NULL);
    cr_assert_eq(g->n, n);
    cr_assert_eq(g->xadj[1], n - 1);
    for (int v = 1; v < n; v++)
        cr_assert_eq(g->adj[v - 1], v);
    coarsen_graph_free(g);
    free(text);
}

/* Loads "-" with standard input redirected from a file. */
static coarsen_graph *load_stdin(const char *path)
{
    int fd = open(path, O_RDONLY);
    cr_assert(fd >= 0);
    int saved = dup(0);
    cr_assert(dup2(fd, 0) == 0);
    close(fd);
    coarsen_graph *g = NULL;
    coarsen_error err = {0};
    int rc = coarsen_graph_load("-", &g, NULL, &err);
    dup2(saved, 0);
    close(saved);
    cr_assert_eq(rc, 0, "%s", err.msg);
    return g;
}

Test(io_metis, standard_input_plain_and_gzip)
{
    for (int gz = 0; gz < 2; gz++) {
        coarsen_graph *g = load_stdin(io_file("stdin.graph", "3 2 1\n2 5\n1 5 3 7\n2 7\n", gz));
        io_expect_graph(g, 3, EDGES({0, 1, 5}, {1, 2, 7}));
        coarsen_graph_free(g);
    }
    coarsen_graph *g = load_stdin(io_file("stdin.mtx", "%%MatrixMarket matrix coordinate pattern symmetric\n2 2 1\n2 1\n", 1));
    io_expect_graph(g, 2, EDGES({0, 1, 1}));
    coarsen_graph_free(g);
}

Test(io_metis, chunked_parse_equals_single_chunk)
{
    coarsen_graph *r = test_random_graph(200, 0.05, 1, 17);
    for (int32_t u = 0; u < r->n; u++)
        r->vwgt[u] = u % 7;
    coarsen_error err = {0};
    char path[600];
    snprintf(path, sizeof path, "%s", io_path("chunks.graph"));
    cr_assert_eq(coarsen_graph_write(r, path, COARSEN_FORMAT_METIS, 0, &err), 0, "%s", err.msg);
    const char *texts[] = {NULL, "% c\n5 2\n2\n%x\n1 5\r\n\n\n2\n% tail\n\n", "3 2\n1 2\n1 3\n2\n"};
    for (int f = 0; f < 3; f++) {
        const char *p = texts[f] ? io_file("chunks2.graph", texts[f], 0) : path;
        coarsen_graph *ref = io_load_all_chunkings(p);
        if (!texts[f])
            io_expect_same_graph(r, ref);
        coarsen_graph_free(ref);
    }
    coarsen_graph_free(r);
}

/* Chunks parse into the slots their tokens allow: loose counts (comment
 * lines with tokens, vertex weights, a self-loop) leave slots unused that
 * the assembly closes up, and a streamed chunk that no longer fits the 2m
 * slots the header declares gets its own buffer; every chunking, plain and
 * streamed (one gzip member), gives the handwritten graph. */
Test(io_metis, chunks_with_unused_slots_close_up)
{
    const char *text = "% header comment 1 2 3\n"
                       "4 4 11\n"
                       "3 2 5 4 3\n"
                       "% a comment 1 2 3 4 5 6 7 8\n"
                       "1\t1 5 2 9  3 7 \r\n"
                       "2 4 2 2 7\n"
                       "%\n"
                       "1 1 3 3 2\n"
                       "\n";
    for (int gz = 0; gz < 2; gz++) {
        coarsen_graph *g = io_load_all_chunkings(io_file(gz ? "slots.graph.gz" : "slots.graph", text, gz));
        io_expect_graph(g, 4, EDGES({0, 1, 5}, {1, 2, 7}, {2, 3, 2}, {0, 3, 3}));
        const int64_t vwgt[] = {3, 1, 2, 1};
        for (int u = 0; u < 4; u++)
            cr_expect_eq(g->vwgt[u], vwgt[u], "gz %d: vertex %d weighs %lld", gz, u, (long long)g->vwgt[u]);
        coarsen_graph_free(g);
    }
}

/* A METIS chunk's counts (vectorised) equal a byte loop's on random text of
 * digits, blanks, CR, LF, '%' and bytes above 0x7f, for every length and
 * start: tokens are runs of bytes above ' ', lines end at LF (a last one
 * without), data lines do not start with '%'. */
Test(io_metis, chunk_counts_equal_a_byte_loop)
{
    const unsigned char alphabet[] = {'1', '7', ' ', ' ', '\t', '\r', '\n', '\n', '%', 0x80, 0xff, 'x'};
    unsigned char text[400];
    uint64_t state = 12345;
    for (int round = 0; round < 200; round++) {
        for (size_t i = 0; i < sizeof text; i++) {
            state = state * 6364136223846793005u + 1442695040888963407u;
            text[i] = alphabet[(state >> 33) % sizeof alphabet];
        }
        for (size_t begin = 0; begin < 40; begin += 7)
            for (size_t end = begin; end <= sizeof text; end += 1 + end % 23) {
                line_chunk k = {.begin = (const char *)text + begin, .end = (const char *)text + end};
                line_chunk_count(&k, LINES_METIS);
                int64_t tokens = 0, lines = 0, data = 0;
                for (size_t i = begin; i < end; i++) {
                    tokens += text[i] > ' ' && (i == begin || text[i - 1] <= ' ');
                    if (i == begin || text[i - 1] == '\n') {
                        lines++;
                        data += text[i] != '%';
                    }
                }
                cr_assert(k.tokens == tokens && k.lines == lines && k.data_lines == data,
                          "round %d [%zu, %zu): tokens %lld/%lld, lines %lld/%lld, data lines %lld/%lld", round, begin,
                          end, (long long)k.tokens, (long long)tokens, (long long)k.lines, (long long)lines,
                          (long long)k.data_lines, (long long)data);
            }
    }
}

Test(io_metis, chunked_parse_reports_the_first_error_in_file_order)
{
    const char *p = io_file("twoerrors.graph", "4 2\n2\n1 x\n\n1 9\n", 0);
    for (size_t bytes = 1; bytes < 20; bytes++) {
        coarsen_graph *g = NULL;
        coarsen_error err = {0};
        cr_assert_eq(io_load_chunked(p, bytes, &g, &err), COARSEN_ERR_INPUT);
        cr_assert(strstr(err.msg, ":3: expected a neighbour id, found 'x'"), "chunk %zu: %s", bytes, err.msg);
    }
}
