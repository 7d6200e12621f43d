/* test_io_id_token.c — the METIS neighbour token read 16 bytes at a time
 * (io/id_token.h): against a byte-by-byte oracle on random lines, and the
 * METIS reader on randomly spaced files of random graphs (tabs, CRLF,
 * trailing blanks, comments, leading zeros, weights) against the graphs
 * written, and the range errors of numbers of every length. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/id_token.h"
#include "tests/support/io_files.h"
#include "tests/support/test_support.h"

/* What [p, e) starts with, byte by byte: LINE_END when only blanks, ID
 * (value, end) when blanks then 1 to 8 digits ending at a blank or e. */
static id_token_kind oracle(const char *p, const char *e, uint64_t *v, const char **next)
{
    while (p < e && (*p == ' ' || *p == '\t'))
        p++;
    if (p == e)
        return ID_TOKEN_LINE_END;
    const char *d = p;
    uint64_t x = 0;
    while (p < e && *p >= '0' && *p <= '9')
        x = x * 10 + (uint64_t)(*p++ - '0');
    if (p == d || p - d > 8 || (p < e && *p != ' ' && *p != '\t'))
        return ID_TOKEN_OTHER;
    *v = x;
    *next = p;
    return ID_TOKEN_ID;
}

static uint64_t rng_state = 0x9e3779b97f4a7c15u;

static unsigned rnd(unsigned below)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (unsigned)(rng_state % below);
}

/* Appends a random token: digits of any length up to 20 (leading zeros
 * too), or a sign, a letter, a CR inside the line, a digit run with a
 * letter after it. */
static char *random_token(char *q)
{
    static const char odd[] = "-+x.\re%";
    int len = 1 + (int)rnd(rnd(4) ? 9 : 20);
    for (int i = 0; i < len; i++)
        *q++ = (char)('0' + rnd(10));
    if (!rnd(12))
        *q++ = odd[rnd(sizeof odd - 1)];
    return q;
}

Test(io_id_token, agrees_with_the_byte_oracle_and_decides_the_common_token)
{
    char buf[256];
    long decided = 0, must = 0;
    for (int trial = 0; trial < 200000; trial++) {
        char *q = buf;
        int tokens = (int)rnd(6);
        for (int i = 0; i < tokens; i++) {
            for (int b = (int)rnd(4) + (i > 0); b > 0; b--)
                *q++ = rnd(4) ? ' ' : '\t';
            q = random_token(q);
        }
        for (int b = (int)rnd(3); b > 0; b--)
            *q++ = rnd(3) ? ' ' : '\t';
        const char *e = q;
        if (rnd(2))
            *q++ = '\r';
        *q++ = '\n';
        for (int b = (int)rnd(40); b > 0; b--) /* the next lines: digits, blanks */
            *q++ = rnd(3) ? (char)('0' + rnd(10)) : ' ';
        const char *limit = e + rnd((unsigned)(q - e) + 1);
        for (const char *p = buf; p <= e; p++) {
            uint64_t v = 0, ov = 0;
            const char *next = NULL, *onext = NULL;
            const id_token_kind k = id_token_next(p, e, limit, &v, &next);
            const id_token_kind o = oracle(p, e, &ov, &onext);
            if (k != ID_TOKEN_OTHER) {
                decided++;
                cr_assert_eq(k, o, "trial %d at %d: %d, oracle %d", trial, (int)(p - buf), k, o);
                if (k == ID_TOKEN_ID) {
                    cr_assert_eq(v, ov);
                    cr_assert_eq(next, onext);
                } else {
                    cr_assert_eq(next, e);
                }
            }
#ifdef __SSE2__
            /* with 24 readable bytes, what fits the 16 (the token and the
             * byte after it, or the whole rest of the line) is decided */
            if (limit - p >= 24 && ((o == ID_TOKEN_ID && onext - p < 16) || (o == ID_TOKEN_LINE_END && e - p <= 16))) {
                must++;
                cr_assert_neq(k, ID_TOKEN_OTHER, "trial %d at %d: not decided", trial, (int)(p - buf));
            }
#endif
        }
    }
#ifdef __SSE2__
    cr_expect_gt(must, 100000);
    cr_expect_gt(decided, 100000);
#endif
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

Test(io_id_token, random_spacing_reads_the_graph_written)
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
Test(io_id_token, out_of_range_neighbours_of_every_length)
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
