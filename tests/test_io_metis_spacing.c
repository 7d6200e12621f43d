/* test_io_metis_spacing.c — the METIS reader on randomly spaced files of
 * random graphs (blanks and tabs, CRLF, trailing blanks, comments, leading
 * zeros, vertex and edge weights) against the graphs written, and the range
 * errors of neighbours of every length up to beyond int64. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/support/io_files.h"
#include "tests/support/test_support.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15u;

static unsigned rnd(unsigned below)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (unsigned)(rng_state % below);
}

/* A random graph: edge u-v of weight w[u * n + v] when adj[u * n + v]. */
typedef struct test_graph {
    int n, m;
    unsigned char *adj; /* n x n, symmetric, no diagonal */
    int *w;             /* n x n edge weights (symmetric) */
    int *vw;
} test_graph;

static void put_number(char **q, long long x)
{
    for (int z = rnd(8) ? 0 : (int)rnd(12); z > 0; z--) /* leading zeros: up to 20 characters */
        *(*q)++ = '0';
    *q += sprintf(*q, "%lld", x);
}

static void put_blanks(char **q, int at_least)
{
    for (int b = at_least + (rnd(3) ? 0 : (int)rnd(3)); b > 0; b--)
        *(*q)++ = rnd(5) ? ' ' : '\t';
}

/* g as METIS text (fmt 0, 1, 10 or 11) with random blanks, comments, CRLF
 * and leading zeros; the caller frees it. */
static char *write_metis(const test_graph *g, int fmt_w, int fmt_vw)
{
    char *text = malloc((size_t)g->n * (size_t)g->n * 60 + 4096), *q = text;
    if (rnd(2))
        q += sprintf(q, "%% a comment\n");
    q += sprintf(q, "%d %d %d%d\n", g->n, g->m, fmt_vw, fmt_w);
    for (int u = 0; u < g->n; u++) {
        if (!rnd(10))
            q += sprintf(q, rnd(2) ? "%% comment %d\n" : "%%\r\n", u);
        put_blanks(&q, 0);
        if (fmt_vw) {
            put_number(&q, g->vw[u]);
            put_blanks(&q, 1);
        }
        const int reversed = (int)rnd(2); /* rows in order or reversed (sorted by the reader) */
        for (int v = 0; v < g->n; v++) {
            int x = reversed ? g->n - 1 - v : v;
            if (!g->adj[u * g->n + x])
                continue;
            put_number(&q, x + 1);
            if (fmt_w) {
                put_blanks(&q, 1);
                put_number(&q, g->w[u * g->n + x]);
            }
            put_blanks(&q, 1);
        }
        q += sprintf(q, rnd(4) ? "\n" : "\r\n");
    }
    *q = 0;
    return text;
}

Test(io_metis_spacing, random_spacing_reads_the_graph_written)
{
    for (int trial = 0; trial < 60; trial++) {
        test_graph g = {.n = 1 + (int)rnd(trial < 30 ? 40 : 400)};
        size_t nn = (size_t)g.n * (size_t)g.n;
        g.adj = calloc(nn, 1);
        g.w = calloc(nn, sizeof *g.w);
        g.vw = calloc((size_t)g.n, sizeof *g.vw);
        io_edge *edges = malloc(nn * sizeof *edges);
        const unsigned density = 1 + rnd(30);
        const int fmt_w = (int)rnd(2), fmt_vw = (int)rnd(2);
        for (int u = 0; u < g.n; u++) {
            g.vw[u] = (int)rnd(1000);
            for (int v = u + 1; v < g.n; v++)
                if (rnd(100) < density) {
                    const int w = fmt_w ? 1 + (int)rnd(rnd(2) ? 9 : 2000000000) : 1;
                    g.adj[u * g.n + v] = g.adj[v * g.n + u] = 1;
                    g.w[u * g.n + v] = g.w[v * g.n + u] = w;
                    edges[g.m++] = (io_edge){u, v, w};
                }
        }
        char *text = write_metis(&g, fmt_w, fmt_vw);
        for (int gz = 0; gz < 2; gz++) {
            coarsen_graph *got = gz ? io_load_text(text, 1, NULL) : io_load_all_chunkings(io_file("r.graph", text, 0));
            io_expect_graph(got, g.n, edges, g.m);
            for (int u = 0; u < g.n; u++)
                cr_assert_eq(got->vwgt[u], fmt_vw ? g.vw[u] : 1);
            coarsen_graph_free(got);
        }
        free(text);
        free(edges);
        free(g.adj);
        free(g.w);
        free(g.vw);
    }
}

/* A neighbour of every length from 1 to 20 digits: 9..9 is out of range
 * (0 reported when beyond int64), with and without 16 bytes after it. */
Test(io_metis_spacing, out_of_range_neighbours_of_every_length)
{
    for (int len = 1; len <= 20; len++) {
        char big[24], text[256], expect[96];
        memset(big, '9', (size_t)len);
        big[len] = 0;
        for (int tail = 0; tail < 2; tail++) {
            snprintf(text, sizeof text, "3 2\n2\n1 %s%s\n2\n%s", big, tail ? "   " : "",
                     tail ? "% a comment long enough to read 16 bytes after the token\n" : "");
            snprintf(expect, sizeof expect, "neighbour %s out of range [1, 3]", len <= 18 ? big : "0");
            if (len < 2) /* 9 is out of range too */
                snprintf(expect, sizeof expect, "neighbour 9 out of range [1, 3]");
            io_expect_error(text, 0, 3, expect);
        }
    }
}
