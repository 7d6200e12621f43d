/* graph_build.c — stored entries to CSR (see graph_build.h for the rules).
 * Two bucket passes by row (counting sort), each followed by a parallel sort
 * of every row and a merge of equal neighbours. */
#include "core/graph_build.h"
#include "core/error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int edge_list_init(edge_list *e, int64_t cap, coarsen_error *err)
{
    memset(e, 0, sizeof *e);
    if (cap < 16)
        cap = 16;
    e->i = xmalloc((size_t)cap * sizeof *e->i, "edge list", err);
    e->j = e->i ? xmalloc((size_t)cap * sizeof *e->j, "edge list", err) : NULL;
    e->w = e->j ? xmalloc((size_t)cap * sizeof *e->w, "edge list", err) : NULL;
    if (!e->w) {
        edge_list_free(e);
        return COARSEN_ERR_NOMEM;
    }
    e->cap = cap;
    return COARSEN_OK;
}

int edge_list_push(edge_list *e, int32_t i, int32_t j, double w, coarsen_error *err)
{
    if (e->count == e->cap) {
        int64_t cap = e->cap * 2;
        int32_t *ni = realloc(e->i, (size_t)cap * sizeof *ni);
        if (!ni)
            return error_nomem(err, "edge list", (size_t)cap * sizeof *ni);
        e->i = ni;
        int32_t *nj = realloc(e->j, (size_t)cap * sizeof *nj);
        if (!nj)
            return error_nomem(err, "edge list", (size_t)cap * sizeof *nj);
        e->j = nj;
        double *nw = realloc(e->w, (size_t)cap * sizeof *nw);
        if (!nw)
            return error_nomem(err, "edge list", (size_t)cap * sizeof *nw);
        e->w = nw;
        e->cap = cap;
    }
    e->i[e->count] = i;
    e->j[e->count] = j;
    e->w[e->count] = w;
    e->count++;
    return COARSEN_OK;
}

void edge_list_free(edge_list *e)
{
    free(e->i);
    free(e->j);
    free(e->w);
    memset(e, 0, sizeof *e);
}

typedef struct entry {
    int32_t col;
    double w;
} entry;

static int entry_cmp(const void *a, const void *b)
{
    int32_t x = ((const entry *)a)->col, y = ((const entry *)b)->col;
    return (x > y) - (x < y);
}

/* Sorts one row by column: insertion sort for short rows, qsort otherwise,
 * nothing when already sorted. */
static void row_sort(entry *r, int64_t len)
{
    int64_t k = 1;
    while (k < len && r[k - 1].col <= r[k].col)
        k++;
    if (k >= len)
        return;
    if (len > 32) {
        qsort(r, (size_t)len, sizeof *r, entry_cmp);
        return;
    }
    for (int64_t a = 1; a < len; a++) {
        entry x = r[a];
        int64_t b = a - 1;
        while (b >= 0 && r[b].col > x.col) {
            r[b + 1] = r[b];
            b--;
        }
        r[b + 1] = x;
    }
}

/* Sorts and merges each row in place; returns the new row lengths in len[]. */
static int64_t rows_sort_merge(entry *buf, const int64_t *off, int32_t n, int64_t *len, merge_rule rule)
{
    int64_t merged = 0;
#pragma omp parallel for schedule(dynamic, 1024) reduction(+ : merged)
    for (int32_t r = 0; r < n; r++) {
        entry *row = buf + off[r];
        int64_t l = off[r + 1] - off[r], out = 0;
        row_sort(row, l);
        for (int64_t k = 0; k < l; k++) {
            if (out > 0 && row[out - 1].col == row[k].col) {
                double a = row[out - 1].w, b = row[k].w;
                row[out - 1].w = rule == MERGE_SUM ? a + b : (a > b ? a : b);
                merged++;
            } else {
                row[out++] = row[k];
            }
        }
        len[r] = out;
    }
    return merged;
}

/* Counting sort of (row, col, w) triples into buf with offsets off[0..n]. */
/* pos is scratch of n + 1 entries. */
static void bucket(int32_t n, int64_t count, const int32_t *row, const int32_t *col, const double *w,
                   int64_t *off, int64_t *pos, entry *buf)
{
    memset(off, 0, ((size_t)n + 1) * sizeof *off);
    for (int64_t k = 0; k < count; k++)
        off[row[k] + 1]++;
    for (int32_t r = 0; r < n; r++)
        off[r + 1] += off[r];
    memcpy(pos, off, ((size_t)n + 1) * sizeof *pos);
    for (int64_t k = 0; k < count; k++) {
        entry *d = &buf[pos[row[k]]++];
        d->col = col[k];
        d->w = w[k];
    }
}

int graph_from_edges(int32_t n, const edge_list *e, const graph_build_opts *opts,
                     coarsen_graph **out, graph_build_stats *stats, coarsen_error *err)
{
    graph_build_stats st = {0};
    int status = COARSEN_ERR_NOMEM;
    int32_t *kr = NULL, *kc = NULL, *dr = NULL, *dc = NULL;
    double *kw = NULL, *dw = NULL;
    int64_t *off = NULL, *len = NULL;
    entry *buf = NULL;
    coarsen_graph *g = NULL;
    *out = NULL;

    /* Pass 1: stored keys without the diagonal. */
    int64_t m = 0;
    kr = xmalloc((size_t)e->count * sizeof *kr, "entry rows", err);
    kc = kr ? xmalloc((size_t)e->count * sizeof *kc, "entry columns", err) : NULL;
    kw = kc ? xmalloc((size_t)e->count * sizeof *kw, "entry values", err) : NULL;
    off = kw ? xmalloc(((size_t)n + 1) * sizeof *off, "row offsets", err) : NULL;
    len = off ? xmalloc(((size_t)n + 1) * sizeof *len, "row lengths", err) : NULL;
    if (!len)
        goto done;
    for (int64_t k = 0; k < e->count; k++) {
        int32_t a = e->i[k], b = e->j[k];
        if (a == b) {
            st.diagonal_dropped++;
            continue;
        }
        if (opts->mirrored && a < b) {
            int32_t t = a;
            a = b;
            b = t;
        }
        kr[m] = a;
        kc[m] = b;
        kw[m] = e->w[k];
        m++;
    }
    buf = xmalloc((size_t)(m ? m : 1) * 2 * sizeof *buf, "entry buffer", err);
    if (!buf)
        goto done;
    bucket(n, m, kr, kc, kw, off, len, buf);
    st.duplicates_merged = rows_sort_merge(buf, off, n, len, opts->dup_rule);

    /* Pass 2: both directions of every unique stored entry, |w|. */
    int64_t u = 0;
    for (int32_t r = 0; r < n; r++)
        u += len[r];
    free(kr);
    free(kc);
    free(kw);
    kr = kc = NULL;
    kw = NULL;
    dr = xmalloc((size_t)u * 2 * sizeof *dr, "directed rows", err);
    dc = dr ? xmalloc((size_t)u * 2 * sizeof *dc, "directed columns", err) : NULL;
    dw = dc ? xmalloc((size_t)u * 2 * sizeof *dw, "directed weights", err) : NULL;
    if (!dw)
        goto done;
    int64_t d = 0;
    for (int32_t r = 0; r < n; r++) {
        for (int64_t k = off[r]; k < off[r] + len[r]; k++) {
            double w = fabs(buf[k].w);
            dr[d] = r, dc[d] = buf[k].col, dw[d] = w, d++;
            dr[d] = buf[k].col, dc[d] = r, dw[d] = w, d++;
        }
    }
    bucket(n, d, dr, dc, dw, off, len, buf);
    rows_sort_merge(buf, off, n, len, opts->sym_rule);

    int64_t nnz = 0;
    for (int32_t r = 0; r < n; r++)
        nnz += len[r];
    g = coarsen_graph_alloc(n, nnz, err);
    if (!g)
        goto done;
    for (int32_t r = 0; r < n; r++)
        g->xadj[r + 1] = g->xadj[r] + len[r];
    int integral = 1;
    int64_t zeros = 0;
#pragma omp parallel for schedule(dynamic, 1024) reduction(&& : integral) reduction(+ : zeros)
    for (int32_t r = 0; r < n; r++) {
        g->vwgt[r] = 1;
        for (int64_t k = 0; k < len[r]; k++) {
            const entry *s = &buf[off[r] + k];
            g->adj[g->xadj[r] + k] = s->col;
            g->ewgt[g->xadj[r] + k] = s->w;
            integral = integral && s->w == floor(s->w);
            zeros += s->w == 0.0;
        }
    }
    g->integral_weights = integral;
    st.zero_weight_edges = zeros / 2;
    *out = g;
    status = COARSEN_OK;
done:
    free(kr);
    free(kc);
    free(kw);
    free(dr);
    free(dc);
    free(dw);
    free(off);
    free(len);
    free(buf);
    if (stats)
        *stats = st;
    return status;
}

int graph_sort_rows(coarsen_graph *g, coarsen_error *err)
{
    int failed = 0;
#pragma omp parallel reduction(|| : failed)
    {
        entry *tmp = NULL;
        int64_t cap = 0;
#pragma omp for schedule(dynamic, 1024)
        for (int32_t r = 0; r < g->n; r++) {
            int64_t b = g->xadj[r], l = g->xadj[r + 1] - b;
            if (l > cap) {
                free(tmp);
                cap = l * 2;
                tmp = malloc((size_t)cap * sizeof *tmp);
                if (!tmp) {
                    failed = 1;
                    cap = 0;
                    continue;
                }
            }
            for (int64_t k = 0; k < l; k++)
                tmp[k].col = g->adj[b + k], tmp[k].w = g->ewgt[b + k];
            row_sort(tmp, l);
            for (int64_t k = 0; k < l; k++)
                g->adj[b + k] = tmp[k].col, g->ewgt[b + k] = tmp[k].w;
        }
        free(tmp);
    }
    return failed ? error_nomem(err, "row sort buffer", 0) : COARSEN_OK;
}
