/* gen_csr_build.c — the two CSR builders of the generators (gen_internal.h):
 * from rows produced in sorted order (grids, meshes, RGG, complete), and from
 * hashed vertex pairs (ER, R-MAT). Both run in parallel with OpenMP and give
 * the same arrays for any thread count. */
#include "gen/gen_internal.h"
#include "core/error.h"

#include <omp.h>
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

/* LSD radix sort of r[0..len), values in [0, 2^bits), by 11-bit digits
 * through tmp[0..len); the result ends in r. */
static void radix_sort_int32(int32_t *r, int32_t *tmp, int64_t len, int bits)
{
    int64_t count[2048];
    int32_t *from = r, *to = tmp;
    for (int shift = 0; shift < bits; shift += 11) {
        memset(count, 0, sizeof count);
        for (int64_t k = 0; k < len; k++)
            count[(from[k] >> shift) & 2047]++;
        for (int64_t d = 0, at = 0; d < 2048; d++) {
            int64_t c = count[d];
            count[d] = at;
            at += c;
        }
        for (int64_t k = 0; k < len; k++)
            to[count[(from[k] >> shift) & 2047]++] = from[k];
        int32_t *t = from;
        from = to, to = t;
    }
    if (from != r)
        memcpy(r, from, (size_t)len * sizeof *r);
}

/* Sorts r[0..len) (values in [0, 2^bits)) and removes repeats; returns the
 * new length. Long rows (R-MAT's many high-degree rows) go through radix
 * sort with tmp: fewer steps than quicksort from about 500 entries on. */
static int64_t sort_unique(int32_t *r, int64_t len, int32_t *tmp, int bits)
{
    if (len > 512)
        radix_sort_int32(r, tmp, len, bits);
    else
        sort_int32(r, len);
    int64_t out = 0;
    for (int64_t k = 0; k < len; k++)
        if (out == 0 || r[out - 1] != r[k])
            r[out++] = r[k];
    return out;
}

/* Rows per bucket: 2^shift, with at most about 512 buckets, so the scatter
 * writes to few streams and each bucket's rows are sorted in cache. */
static int bucket_shift(int bits)
{
    return bits - 9 > 10 ? bits - 9 : 10;
}

/* Sorts bucket b's keys (u << 32 | v) into rows, sorts and deduplicates each
 * row, and leaves the rows' columns packed as int32 at the start of the
 * bucket's own key region; row u starts at start[u] (an int32 index into the
 * keys array viewed as int32) and has len[u + 1] columns. scratch holds the
 * bucket's entries, tmp as many more (radix sort), cnt 2^shift + 1 counters;
 * columns are below 2^bits. */
static void sort_bucket(uint64_t *keys, int64_t lo, int64_t hi, int32_t first, int32_t rows, int shift,
                        int bits, int32_t *scratch, int32_t *tmp, int64_t *cnt, int64_t *start, int64_t *len)
{
    memset(cnt, 0, ((size_t)rows + 1) * sizeof *cnt);
    for (int64_t k = lo; k < hi; k++)
        cnt[((keys[k] >> 32) & ((UINT64_C(1) << shift) - 1)) + 1]++;
    for (int32_t r = 0; r < rows; r++)
        cnt[r + 1] += cnt[r];
    for (int64_t k = lo; k < hi; k++)
        scratch[cnt[(keys[k] >> 32) & ((UINT64_C(1) << shift) - 1)]++] = (int32_t)(uint32_t)keys[k];
    /* cnt[r] is now the end of row r in scratch */
    int32_t *packed = (int32_t *)(keys + lo);
    int64_t at = 0, from = 0;
    for (int32_t r = 0; r < rows; r++) {
        int64_t l = sort_unique(scratch + from, cnt[r] - from, tmp, bits);
        memcpy(packed + at, scratch + from, (size_t)l * sizeof *packed);
        start[first + r] = 2 * lo + at;
        len[first + r + 1] = l;
        at += l;
        from = cnt[r];
    }
}

int gen_csr_from_pairs(int32_t n, int64_t samples, gen_pair_fn pair, const void *ctx,
                       coarsen_graph **out, coarsen_error *err)
{
    *out = NULL;
    int bits = 1; /* every vertex id is below 2^bits */
    while ((INT64_C(1) << bits) < n)
        bits++;
    const int shift = bucket_shift(bits);
    const int64_t nb = ((int64_t)n + (INT64_C(1) << shift) - 1) >> shift;
    const int nt = omp_get_max_threads();
    const int32_t brows = (int32_t)(INT64_C(1) << shift);
    int status = COARSEN_ERR_NOMEM;
    uint64_t *keys = NULL, *pairs = NULL;
    int64_t *tcnt = xcalloc((size_t)nt * (size_t)(nb + 1), sizeof *tcnt, "bucket counts", err);
    int64_t *boff = tcnt ? xcalloc((size_t)nb + 1, sizeof *boff, "bucket offsets", err) : NULL;
    int64_t *start = boff ? xmalloc((size_t)n * sizeof *start, "row starts", err) : NULL;
    int64_t *len = start ? xmalloc(((size_t)n + 1) * sizeof *len, "row lengths", err) : NULL;
    if (!len)
        goto done;

    /* Pass 1: every sample drawn once and kept as u << 32 | v (loops too);
     * per-range bucket counts of both directions of every non-loop sample. */
    pairs = xmalloc((size_t)samples * sizeof *pairs, "samples", err);
    if (!pairs)
        goto done;
    GEN_FOR_RANGES(samples, nt, t, k)
    {
        int32_t u, v;
        pair(ctx, k, &u, &v);
        pairs[k] = (uint64_t)(uint32_t)u << 32 | (uint32_t)v;
        if (u != v) {
            tcnt[(size_t)t * (size_t)(nb + 1) + (u >> shift)]++;
            tcnt[(size_t)t * (size_t)(nb + 1) + (v >> shift)]++;
        }
    }
    /* Bucket b holds range 0's entries, then range 1's, ...; tcnt becomes the
     * cursor of each (range, bucket). */
    for (int64_t b = 0; b < nb; b++) {
        int64_t at = boff[b];
        for (int t = 0; t < nt; t++) {
            int64_t c = tcnt[(size_t)t * (size_t)(nb + 1) + b];
            tcnt[(size_t)t * (size_t)(nb + 1) + b] = at;
            at += c;
        }
        boff[b + 1] = at;
    }
    keys = xmalloc((size_t)boff[nb] * sizeof *keys, "sampled pairs", err);
    if (!keys)
        goto done;
    /* Pass 2: both directions scattered to their buckets, same ranges. */
    GEN_FOR_RANGES(samples, nt, t, k)
    {
        int64_t *c = tcnt + (size_t)t * (size_t)(nb + 1);
        uint64_t p = pairs[k];
        uint32_t u = (uint32_t)(p >> 32), v = (uint32_t)p;
        if (u != v) {
            keys[c[u >> shift]++] = p;
            keys[c[v >> shift]++] = (uint64_t)v << 32 | u;
        }
    }
    free(pairs);
    pairs = NULL;
    /* Pass 3: rows of each bucket sorted and deduplicated (the order the
     * scatter left them in does not matter any more). Each thread's scratch
     * grows to the largest bucket it meets (R-MAT's first buckets are big). */
    int failed = 0;
#pragma omp parallel
    {
        int32_t *scratch = NULL, *tmp = NULL;
        int64_t cap = 0;
        int64_t *cnt = malloc(((size_t)brows + 1) * sizeof *cnt);
#pragma omp for schedule(dynamic, 1)
        for (int64_t b = 0; b < nb; b++) {
            int64_t size = boff[b + 1] - boff[b];
            if (size > cap || !scratch || !tmp) {
                free(scratch);
                free(tmp);
                cap = size > 1 ? size : 1;
                scratch = malloc((size_t)cap * sizeof *scratch);
                tmp = malloc((size_t)cap * sizeof *tmp);
            }
            int32_t first = (int32_t)(b << shift);
            int32_t rows = (int32_t)((int64_t)n - first < brows ? (int64_t)n - first : brows);
            if (!scratch || !tmp || !cnt) {
#pragma omp atomic write
                failed = 1;
                cap = 0;
                continue;
            }
            sort_bucket(keys, boff[b], boff[b + 1], first, rows, shift, bits, scratch, tmp, cnt, start, len);
        }
        free(scratch);
        free(tmp);
        free(cnt);
    }
    if (failed) {
        status = error_nomem(err, "bucket scratch", (size_t)brows * sizeof(int64_t));
        goto done;
    }
    coarsen_graph *g = coarsen_graph_alloc(n, prefix_sum(len, n), err);
    if (!g)
        goto done;
    memcpy(g->xadj, len, ((size_t)n + 1) * sizeof *len);
    const int32_t *packed = (const int32_t *)keys;
#pragma omp parallel for schedule(dynamic, 4096)
    for (int32_t u = 0; u < n; u++)
        memcpy(g->adj + g->xadj[u], packed + start[u], (size_t)(g->xadj[u + 1] - g->xadj[u]) * sizeof *packed);
    *out = g;
    status = COARSEN_OK;
done:
    free(pairs);
    free(keys);
    free(len);
    free(start);
    free(boff);
    free(tcnt);
    return status;
}
