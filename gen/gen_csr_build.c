/* gen_csr_build.c — the two CSR builders of the generators (gen_internal.h):
 * from rows produced in sorted order (grids, meshes, RGG, complete), and from
 * hashed vertex pairs (ER, R-MAT). Both run in parallel with OpenMP and give
 * the same arrays for any thread count. */
#include "gen/gen_internal.h"
#include "core/error.h"

#include <stdlib.h>
#include <string.h>

/* Turns counts c[1..n] into offsets c[0..n] (c[0] = 0); returns c[n]. */
static int64_t prefix_sum(int64_t *c, int32_t n)
{
    c[0] = 0;
    for (int32_t v = 0; v < n; v++)
        c[v + 1] += c[v];
    return c[n];
}

int gen_csr_from_rows(int32_t n, gen_row_fn row, const void *ctx, coarsen_graph **out, coarsen_error *err)
{
    *out = NULL;
    int64_t *off = xmalloc(((size_t)n + 1) * sizeof *off, "row offsets", err);
    if (!off)
        return COARSEN_ERR_NOMEM;
#pragma omp parallel for schedule(dynamic, 4096)
    for (int32_t v = 0; v < n; v++)
        off[v + 1] = row(ctx, v, NULL);
    coarsen_graph *g = coarsen_graph_alloc(n, prefix_sum(off, n), err);
    if (!g) {
        free(off);
        return COARSEN_ERR_NOMEM;
    }
    memcpy(g->xadj, off, ((size_t)n + 1) * sizeof *off);
    free(off);
#pragma omp parallel for schedule(dynamic, 4096)
    for (int32_t v = 0; v < n; v++)
        row(ctx, v, g->adj + g->xadj[v]);
    *out = g;
    return COARSEN_OK;
}

/* In-place sort of r[0..len): quicksort (median of three, loop on the
 * larger part) down to insertion sort on short ranges. */
static void sort_int32(int32_t *r, int64_t len)
{
    while (len > 24) {
        int32_t a = r[0], b = r[len / 2], c = r[len - 1];
        int32_t pivot = a < b ? (b < c ? b : a < c ? c : a) : (a < c ? a : b < c ? c : b);
        int64_t i = 0, j = len - 1;
        for (;;) {
            while (r[i] < pivot)
                i++;
            while (r[j] > pivot)
                j--;
            if (i >= j)
                break;
            int32_t t = r[i];
            r[i++] = r[j], r[j--] = t;
        }
        /* r[0..j] <= pivot <= r[j+1..len) */
        if (j + 1 < len - j - 1) {
            sort_int32(r, j + 1);
            r += j + 1, len -= j + 1;
        } else {
            sort_int32(r + j + 1, len - j - 1);
            len = j + 1;
        }
    }
    for (int64_t a = 1; a < len; a++) {
        int32_t x = r[a];
        int64_t b = a - 1;
        while (b >= 0 && r[b] > x) {
            r[b + 1] = r[b];
            b--;
        }
        r[b + 1] = x;
    }
}

/* Sorts r[0..len) and removes repeats; returns the new length. */
static int64_t sort_unique(int32_t *r, int64_t len)
{
    sort_int32(r, len);
    int64_t out = 0;
    for (int64_t k = 0; k < len; k++)
        if (out == 0 || r[out - 1] != r[k])
            r[out++] = r[k];
    return out;
}

int gen_csr_from_pairs(int32_t n, int64_t samples, gen_pair_fn pair, const void *ctx,
                       coarsen_graph **out, coarsen_error *err)
{
    *out = NULL;
    int status = COARSEN_ERR_NOMEM;
    int32_t *tmp = NULL;
    int64_t *off = xcalloc((size_t)n + 1, sizeof *off, "row counts", err);
    int64_t *pos = off ? xmalloc(((size_t)n + 1) * sizeof *pos, "row cursors", err) : NULL;
    if (!pos)
        goto done;

    /* Both directions of every non-loop sample, counted then scattered. The
     * order inside a row depends on timing; sorting removes that. */
#pragma omp parallel for schedule(static)
    for (int64_t k = 0; k < samples; k++) {
        int32_t u, v;
        pair(ctx, k, &u, &v);
        if (u == v)
            continue;
#pragma omp atomic
        off[u + 1]++;
#pragma omp atomic
        off[v + 1]++;
    }
    int64_t total = prefix_sum(off, n);
    memcpy(pos, off, ((size_t)n + 1) * sizeof *pos);
    tmp = xmalloc((size_t)total * sizeof *tmp, "sampled pairs", err);
    if (!tmp)
        goto done;
#pragma omp parallel for schedule(static)
    for (int64_t k = 0; k < samples; k++) {
        int32_t u, v;
        int64_t pu, pv;
        pair(ctx, k, &u, &v);
        if (u == v)
            continue;
#pragma omp atomic capture
        pu = pos[u]++;
#pragma omp atomic capture
        pv = pos[v]++;
        tmp[pu] = v;
        tmp[pv] = u;
    }

    /* Sorted, deduplicated rows: pos[u + 1] becomes the new length of row u. */
#pragma omp parallel for schedule(dynamic, 1024)
    for (int32_t u = 0; u < n; u++)
        pos[u + 1] = sort_unique(tmp + off[u], off[u + 1] - off[u]);
    coarsen_graph *g = coarsen_graph_alloc(n, prefix_sum(pos, n), err);
    if (!g)
        goto done;
    memcpy(g->xadj, pos, ((size_t)n + 1) * sizeof *pos);
#pragma omp parallel for schedule(dynamic, 1024)
    for (int32_t u = 0; u < n; u++)
        memcpy(g->adj + g->xadj[u], tmp + off[u], (size_t)(g->xadj[u + 1] - g->xadj[u]) * sizeof *tmp);
    *out = g;
    status = COARSEN_OK;
done:
    free(tmp);
    free(pos);
    free(off);
    return status;
}
