/* metis_read.c — METIS graph text to CSR: rows are read as given, then
 * sorted and checked (duplicates, symmetry, equal weights) in parallel. */
#include "io/metis_read.h"
#include "core/error.h"
#include "core/graph_build.h"
#include "io/read_error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct metis_header {
    int64_t n, m, ncon;
    int vsize, has_vwgt, has_ewgt;
    char fmt[4];
} metis_header;

static int is_comment(const char *s, const char *e)
{
    return s < e && *s == '%';
}

static int parse_header(const text_input *t, int64_t line, const char *s, const char *e, metis_header *h,
                        coarsen_error *err)
{
    memset(h, 0, sizeof *h);
    const char *p = s;
    int r = text_parse_int(&p, e, &h->n);
    if (r <= 0 || h->n < 0 || h->n > INT32_MAX)
        return r == 0 ? read_error_token(err, t->name, line, "METIS header: expected the number of vertices", s, e)
                      : read_error(err, t->name, line, "METIS header: number of vertices out of range [0, %d]",
                                   INT32_MAX);
    const char *q = p;
    r = text_parse_int(&p, e, &h->m);
    if (r <= 0 || h->m < 0 || h->m > INT64_MAX / 2)
        return r == 0 ? read_error_token(err, t->name, line, "METIS header: expected the number of edges", q, e)
                      : read_error(err, t->name, line, "METIS header: number of edges out of range");
    h->ncon = 1;
    strcpy(h->fmt, "000");
    q = text_skip_blank(p, e);
    if (q < e) {
        /* fmt: up to three 0/1 digits, read as text (leading zeros matter). */
        const char *f = q;
        while (q < e && *q != ' ' && *q != '\t')
            q++;
        size_t len = (size_t)(q - f);
        int ok = len >= 1 && len <= 3;
        for (size_t k = 0; ok && k < len; k++)
            ok = f[k] == '0' || f[k] == '1';
        if (!ok)
            return read_error_token(err, t->name, line, "METIS header: fmt must be 0, 1, 10, 11 (or 100+)", f, e);
        memcpy(h->fmt + 3 - len, f, len);
        h->vsize = h->fmt[0] == '1';
        h->has_vwgt = h->fmt[1] == '1';
        h->has_ewgt = h->fmt[2] == '1';
        if (h->vsize)
            return read_error(err, t->name, line, "METIS header: fmt %s (vertex sizes) is not supported", h->fmt);
        p = q;
        q = text_skip_blank(p, e);
        if (q < e) {
            r = text_parse_int(&p, e, &h->ncon);
            if (r <= 0 || h->ncon < 1 || h->ncon > 1000000)
                return read_error_token(err, t->name, line, "METIS header: ncon must be an integer >= 1", q, e);
            if (!h->has_vwgt)
                return read_error(err, t->name, line, "METIS header: ncon given but fmt %s has no vertex weights",
                                  h->fmt);
        }
    }
    if (text_skip_blank(p, e) < e)
        return read_error_token(err, t->name, line, "METIS header: unexpected text", p, e);
    return COARSEN_OK;
}

/* Reading state shared by the row parser and the checks. */
typedef struct metis_rows {
    int64_t *line;       /* line of each vertex */
    int64_t entries;     /* adjacency entries as stored (self-loops included) */
    int64_t loops;
} metis_rows;

static int parse_rows(const text_input *t, text_cursor *c, const metis_header *h, coarsen_graph *g,
                      metis_rows *rows, int64_t cap, coarsen_error *err)
{
    const char *s, *e;
    int32_t n = g->n;
    int64_t nnz = 0;
    for (int32_t u = 0; u < n; u++) {
        do {
            if (!text_next_line(c, &s, &e))
                return read_error(err, t->name, c->line, "file ends after %d of the %d vertex lines", u, n);
        } while (is_comment(s, e));
        rows->line[u] = c->line;
        const char *p = s;
        int64_t x;
        g->vwgt[u] = 1;
        for (int64_t k = 0; h->has_vwgt && k < h->ncon; k++) {
            const char *q = p;
            int r = text_parse_int(&p, e, &x);
            if (r <= 0 || x < 0)
                return read_error_token(err, t->name, c->line, "vertex weight must be an integer >= 0", q, e);
            if (k == 0)
                g->vwgt[u] = x;
        }
        while (text_skip_blank(p, e) < e) {
            const char *q = p;
            int r = text_parse_int(&p, e, &x);
            if (r <= 0 || x < 1 || x > n)
                return r == 0 ? read_error_token(err, t->name, c->line, "expected a neighbour id", q, e)
                              : read_error(err, t->name, c->line, "neighbour %lld out of range [1, %d]",
                                           r < 0 ? 0LL : (long long)x, n);
            int64_t w = 1;
            if (h->has_ewgt) {
                q = p;
                r = text_parse_int(&p, e, &w);
                if (r <= 0 || w < 1)
                    return read_error_token(err, t->name, c->line, "edge weight must be an integer > 0", q, e);
            }
            rows->entries++;
            if (rows->entries - rows->loops > 2 * h->m)
                return read_error(err, t->name, c->line, "more adjacency entries than the 2*%lld the header declares",
                                  (long long)h->m);
            if (x - 1 == u) {
                rows->loops++;
                continue;
            }
            if (nnz == cap) /* cannot happen: cap bounds the entries the text can hold */
                return read_error(err, t->name, c->line, "internal: adjacency exceeds the reservation");
            g->adj[nnz] = (int32_t)(x - 1);
            g->ewgt[nnz] = (double)w;
            nnz++;
        }
        g->xadj[u + 1] = nnz;
    }
    g->nnz = nnz;
    while (text_next_line(c, &s, &e))
        if (!is_comment(s, e) && text_skip_blank(s, e) < e)
            return read_error(err, t->name, c->line, "more lines than the %d vertices of the header", n);
    if (rows->entries != 2 * h->m && rows->entries - rows->loops != 2 * h->m)
        return read_error(err, t->name, c->line,
                          "the header declares %lld edges (%lld adjacency entries) but the file lists %lld",
                          (long long)h->m, (long long)(2 * h->m), (long long)rows->entries);
    return COARSEN_OK;
}

/* Position of v in u's sorted row, or -1. */
static int64_t row_find(const coarsen_graph *g, int32_t u, int32_t v)
{
    int64_t lo = g->xadj[u], hi = g->xadj[u + 1];
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (g->adj[mid] < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    return (lo < g->xadj[u + 1] && g->adj[lo] == v) ? lo : -1;
}

/* 0 when row u is free of duplicates and each of its entries (only those
 * above the diagonal when upper_only) has a mirror of equal weight;
 * otherwise describes the first problem of row u in err. */
static int check_row(const text_input *t, const coarsen_graph *g, const metis_rows *rows, int32_t u, int upper_only,
                     coarsen_error *err)
{
    for (int64_t k = g->xadj[u]; k < g->xadj[u + 1]; k++) {
        int32_t v = g->adj[k];
        if (k > g->xadj[u] && g->adj[k - 1] == v)
            return read_error(err, t->name, rows->line[u], "vertex %d lists neighbour %d twice", u + 1, v + 1);
        if (upper_only && v < u)
            continue;
        int64_t b = row_find(g, v, u);
        if (b < 0)
            return read_error(err, t->name, rows->line[u],
                              "vertex %d lists neighbour %d, but vertex %d (line %lld) does not list %d", u + 1,
                              v + 1, v + 1, (long long)rows->line[v], u + 1);
        if (g->ewgt[b] != g->ewgt[k])
            return read_error(err, t->name, rows->line[u],
                              "edge %d-%d has weight %.17g here but %.17g at line %lld", u + 1, v + 1, g->ewgt[k],
                              g->ewgt[b], (long long)rows->line[v]);
    }
    return COARSEN_OK;
}

/* Without duplicates, mirroring maps the entries above the diagonal one to
 * one onto entries below it; when every upper entry has its mirror and both
 * halves have the same size, the adjacency is symmetric. So the fast pass
 * searches mirrors of upper entries only, and a full pass runs only to name
 * the first problem. Reports the lowest offending row (deterministic). */
static int check_rows(const text_input *t, const coarsen_graph *g, const metis_rows *rows, coarsen_error *err)
{
    int32_t first = g->n;
    int64_t upper = 0;
#pragma omp parallel for schedule(dynamic, 1024) reduction(min : first) reduction(+ : upper)
    for (int32_t u = 0; u < g->n; u++) {
        for (int64_t k = g->xadj[u]; k < g->xadj[u + 1]; k++)
            upper += g->adj[k] > u;
        if (u < first && check_row(t, g, rows, u, 1, NULL))
            first = u;
    }
    if (first == g->n && 2 * upper == g->nnz)
        return COARSEN_OK;
#pragma omp parallel for schedule(dynamic, 1024) reduction(min : first)
    for (int32_t u = 0; u < g->n; u++)
        if (u < first && check_row(t, g, rows, u, 0, NULL))
            first = u;
    return check_row(t, g, rows, first, 0, err);
}

int metis_read_graph_text(const text_input *t, coarsen_graph **out, coarsen_read_report *report,
                          coarsen_error *err)
{
    *out = NULL;
    text_cursor c;
    text_cursor_init(&c, t->data, t->data + t->len);
    const char *s = NULL, *e = NULL;
    int have = 0;
    while ((have = text_next_line(&c, &s, &e)) && (is_comment(s, e) || text_skip_blank(s, e) == e))
        ;
    if (!have)
        return read_error(err, t->name, c.line ? c.line : 1, t->len ? "the METIS header line is missing" : "empty file");
    metis_header h;
    int rc = parse_header(t, c.line, s, e, &h, err);
    if (rc)
        return rc;
    /* Every vertex needs a line (at least its line end) and every entry at
     * least two bytes: check the header against the text before allocating. */
    int64_t left = (int64_t)(c.end - c.p);
    if (h.n > left + 1)
        return read_error(err, t->name, c.line,
                          "the header declares %lld vertices but only %lld bytes follow (truncated file or wrong header)",
                          (long long)h.n, (long long)left);
    int64_t cap = 2 * h.m < left / 2 + 1 ? 2 * h.m : left / 2 + 1;
    coarsen_graph *g = coarsen_graph_alloc((int32_t)h.n, cap, err);
    metis_rows rows = {0};
    rows.line = g ? xmalloc((size_t)h.n * sizeof *rows.line, "line numbers", err) : NULL;
    if (!rows.line) {
        coarsen_graph_free(g);
        return COARSEN_ERR_NOMEM;
    }
    rc = parse_rows(t, &c, &h, g, &rows, cap, err);
    if (!rc)
        rc = graph_sort_rows(g, err);
    if (!rc)
        rc = check_rows(t, g, &rows, err);
    free(rows.line);
    if (rc) {
        coarsen_graph_free(g);
        return rc;
    }
    g->integral_weights = 1;
    if (report) {
        snprintf(report->format, sizeof report->format, "metis fmt %s ncon %lld", h.fmt, (long long)h.ncon);
        report->entries = rows.entries;
        report->diagonal_dropped = rows.loops;
        report->duplicates_merged = 0;
        report->zero_weight_edges = 0;
        report->complex_magnitude = 0;
        report->extra_constraints = (int)(h.ncon - 1);
    }
    *out = g;
    return COARSEN_OK;
}
