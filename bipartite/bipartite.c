/* bipartite.c — building the row and column views of a bipartite graph from
 * matrix entries, loading one from a Matrix Market file, and checking a
 * matching (bipartite.h). */
#include "bipartite/bipartite.h"
#include "core/error.h"
#include "core/row_find.h"
#include "io/mtx_read.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void bip_free(bip_graph *g)
{
    if (!g)
        return;
    free(g->rptr);
    free(g->rind);
    free(g->rval);
    free(g->cptr);
    free(g->cind);
    free(g->cval);
    free(g);
}

/* Counting-sort transpose: (n rows of ptr/ind/val over m columns) -> tptr/tind/tval.
 * Within each output list the entries come in increasing source index. */
static int transpose(int32_t n, int32_t m, const int64_t *ptr, const int32_t *ind, const double *val,
                     int64_t *tptr, int32_t *tind, double *tval, coarsen_error *err)
{
    int64_t *pos = xmalloc(((size_t)m + 1) * sizeof *pos, "column positions", err);
    if (!pos)
        return COARSEN_ERR_NOMEM;
    memset(tptr, 0, ((size_t)m + 1) * sizeof *tptr);
    for (int64_t e = 0; e < ptr[n]; e++)
        tptr[ind[e] + 1]++;
    for (int32_t c = 0; c < m; c++)
        tptr[c + 1] += tptr[c];
    memcpy(pos, tptr, ((size_t)m + 1) * sizeof *pos);
    for (int32_t r = 0; r < n; r++)
        for (int64_t e = ptr[r]; e < ptr[r + 1]; e++) {
            int64_t q = pos[ind[e]]++;
            tind[q] = r;
            tval[q] = val[e];
        }
    free(pos);
    return COARSEN_OK;
}

/* 1 when every value is an integer of magnitude below 2^53. */
static int all_integral(const double *v, int64_t n)
{
    for (int64_t e = 0; e < n; e++)
        if (v[e] != floor(v[e]) || fabs(v[e]) >= 9007199254740992.0)
            return 0;
    return 1;
}

static bip_graph *bip_alloc(int32_t rows, int32_t cols, int64_t nnz, coarsen_error *err)
{
    bip_graph *g = xcalloc(1, sizeof *g, "bipartite graph", err);
    if (!g)
        return NULL;
    g->rows = rows;
    g->cols = cols;
    g->nnz = nnz;
    g->rptr = xmalloc(((size_t)rows + 1) * sizeof *g->rptr, "row offsets", err);
    g->cptr = xmalloc(((size_t)cols + 1) * sizeof *g->cptr, "column offsets", err);
    g->rind = xmalloc((size_t)nnz * sizeof *g->rind, "row entries", err);
    g->cind = xmalloc((size_t)nnz * sizeof *g->cind, "column entries", err);
    g->rval = xmalloc((size_t)nnz * sizeof *g->rval, "row values", err);
    g->cval = xmalloc((size_t)nnz * sizeof *g->cval, "column values", err);
    if (!g->rptr || !g->cptr || !g->rind || !g->cind || !g->rval || !g->cval) {
        bip_free(g);
        return NULL;
    }
    return g;
}

int bip_from_entries(int32_t rows, int32_t cols, int64_t count, const int32_t *i, const int32_t *j,
                     const double *value, bip_graph **out, coarsen_error *err)
{
    *out = NULL;
    if (rows < 0 || cols < 0 || count < 0)
        return error_set(err, COARSEN_ERR_INPUT, "bipartite graph: negative size");
    for (int64_t k = 0; k < count; k++)
        if (i[k] < 0 || i[k] >= rows || j[k] < 0 || j[k] >= cols)
            return error_set(err, COARSEN_ERR_INPUT, "bipartite graph: entry %lld (%d, %d) outside %d x %d",
                             (long long)k, i[k], j[k], rows, cols);
    /* Entries by column (in input order), then by row: rows sorted by column. */
    int64_t *kptr = xcalloc((size_t)cols + 1, sizeof *kptr, "entry offsets", err);
    int64_t *kord = xmalloc((size_t)count * sizeof *kord, "entry order", err);
    bip_graph *t = bip_alloc(rows, cols, count, err);
    if (!kptr || !kord || !t) {
        free(kptr);
        free(kord);
        bip_free(t);
        return err ? err->status : COARSEN_ERR_NOMEM;
    }
    for (int64_t k = 0; k < count; k++)
        kptr[j[k] + 1]++;
    for (int32_t c = 0; c < cols; c++)
        kptr[c + 1] += kptr[c];
    for (int64_t k = 0; k < count; k++)
        kord[kptr[j[k]]++] = k;
    /* kord now lists entries by column; bucket them by row, stable. */
    memset(t->rptr, 0, ((size_t)rows + 1) * sizeof *t->rptr);
    for (int64_t k = 0; k < count; k++)
        t->rptr[i[k] + 1]++;
    for (int32_t r = 0; r < rows; r++)
        t->rptr[r + 1] += t->rptr[r];
    free(kptr);
    int64_t *pos = xmalloc(((size_t)rows + 1) * sizeof *pos, "row positions", err);
    if (!pos) {
        free(kord);
        bip_free(t);
        return COARSEN_ERR_NOMEM;
    }
    memcpy(pos, t->rptr, ((size_t)rows + 1) * sizeof *pos);
    for (int64_t q = 0; q < count; q++) {
        int64_t k = kord[q];
        int64_t p = pos[i[k]]++;
        t->rind[p] = j[k];
        t->rval[p] = value ? value[k] : 1.0;
    }
    free(pos);
    free(kord);
    /* Merge duplicates (adjacent within a row) by summing. */
    int64_t w = 0;
    for (int32_t r = 0; r < rows; r++) {
        int64_t start = t->rptr[r], end = t->rptr[r + 1];
        t->rptr[r] = w;
        for (int64_t e = start; e < end; e++) {
            if (w > t->rptr[r] && t->rind[w - 1] == t->rind[e]) {
                t->rval[w - 1] += t->rval[e];
                continue;
            }
            t->rind[w] = t->rind[e];
            t->rval[w] = t->rval[e];
            w++;
        }
    }
    t->rptr[rows] = w;
    t->nnz = w;
    if (transpose(rows, cols, t->rptr, t->rind, t->rval, t->cptr, t->cind, t->cval, err)) {
        bip_free(t);
        return COARSEN_ERR_NOMEM;
    }
    t->integral = all_integral(t->rval, w);
    *out = t;
    return COARSEN_OK;
}

int bip_from_csr(int32_t rows, int32_t cols, int64_t *rptr, int32_t *rind, double *rval, bip_graph **out,
                 coarsen_error *err)
{
    *out = NULL;
    bip_graph *g = xcalloc(1, sizeof *g, "bipartite graph", err);
    if (!g) {
        free(rptr);
        free(rind);
        free(rval);
        return COARSEN_ERR_NOMEM;
    }
    g->rows = rows;
    g->cols = cols;
    g->rptr = rptr;
    g->rind = rind;
    g->rval = rval;
    g->nnz = rptr[rows];
    for (int32_t r = 0; r < rows; r++)
        for (int64_t e = rptr[r]; e < rptr[r + 1]; e++)
            if (rind[e] < 0 || rind[e] >= cols || (e > rptr[r] && rind[e] <= rind[e - 1])) {
                bip_free(g);
                return error_set(err, COARSEN_ERR_INPUT, "bipartite graph: row %d: column %d out of order or range",
                                 r, rind[e]);
            }
    g->cptr = xmalloc(((size_t)cols + 1) * sizeof *g->cptr, "column offsets", err);
    g->cind = xmalloc((size_t)g->nnz * sizeof *g->cind, "column entries", err);
    g->cval = xmalloc((size_t)g->nnz * sizeof *g->cval, "column values", err);
    if (!g->cptr || !g->cind || !g->cval ||
        transpose(rows, cols, g->rptr, g->rind, g->rval, g->cptr, g->cind, g->cval, err)) {
        bip_free(g);
        return COARSEN_ERR_NOMEM;
    }
    g->integral = all_integral(g->rval, g->nnz);
    *out = g;
    return COARSEN_OK;
}

int bip_load(const char *path, bip_graph **out, coarsen_error *err)
{
    *out = NULL;
    mtx_coo m;
    if (mtx_read_coo(path, &m, NULL, err))
        return err ? err->status : COARSEN_ERR_INPUT;
    if (m.rows > INT32_MAX || m.cols > INT32_MAX) {
        mtx_coo_free(&m);
        return error_set(err, COARSEN_ERR_INPUT, "%s: %lld x %lld is beyond 2^31-1 rows or columns", path,
                         (long long)m.rows, (long long)m.cols);
    }
    int64_t extra = 0;
    if (m.symmetry != MTX_GENERAL)
        for (int64_t k = 0; k < m.count; k++)
            extra += m.i[k] != m.j[k];
    int rc = COARSEN_OK;
    if (extra) {
        int64_t n = m.count + extra;
        int32_t *i = xmalloc((size_t)n * sizeof *i, "entries", err);
        int32_t *j = xmalloc((size_t)n * sizeof *j, "entries", err);
        double *v = xmalloc((size_t)n * sizeof *v, "entries", err);
        if (!i || !j || !v)
            rc = err ? err->status : COARSEN_ERR_NOMEM;
        else {
            int64_t q = 0;
            for (int64_t k = 0; k < m.count; k++) {
                i[q] = m.i[k], j[q] = m.j[k], v[q++] = m.value[k];
                if (m.i[k] != m.j[k]) /* mirrored entry; skew-symmetric negates */
                    i[q] = m.j[k], j[q] = m.i[k], v[q++] = m.symmetry == MTX_SKEW ? -m.value[k] : m.value[k];
            }
            rc = bip_from_entries((int32_t)m.rows, (int32_t)m.cols, n, i, j, v, out, err);
        }
        free(i);
        free(j);
        free(v);
    } else
        rc = bip_from_entries((int32_t)m.rows, (int32_t)m.cols, m.count, m.i, m.j, m.value, out, err);
    mtx_coo_free(&m);
    return rc;
}

int64_t bip_find_entry(const bip_graph *g, int32_t r, int32_t c)
{
    return row_find(g->rptr, g->rind, r, c);
}

int bip_matching_check(const bip_graph *g, const int32_t *row_match, const int32_t *col_match,
                       int64_t *cardinality, coarsen_error *err)
{
    int64_t card = 0;
    for (int32_t r = 0; r < g->rows; r++) {
        int32_t c = row_match[r];
        if (c == -1)
            continue;
        if (c < 0 || c >= g->cols)
            return error_set(err, COARSEN_ERR_INPUT, "matching: row %d matched to column %d out of range", r, c);
        if (col_match[c] != r)
            return error_set(err, COARSEN_ERR_INPUT, "matching: row %d -> column %d but column %d -> row %d", r, c,
                             c, col_match[c]);
        if (bip_find_entry(g, r, c) < 0)
            return error_set(err, COARSEN_ERR_INPUT, "matching: row %d and column %d share no entry", r, c);
        card++;
    }
    for (int32_t c = 0; c < g->cols; c++) {
        int32_t r = col_match[c];
        if (r != -1 && (r < 0 || r >= g->rows || row_match[r] != c))
            return error_set(err, COARSEN_ERR_INPUT, "matching: column %d -> row %d is not mutual", c, r);
    }
    if (cardinality)
        *cardinality = card;
    return COARSEN_OK;
}
