/* graph_build.c — stored entries to CSR (see graph_build.h for the rules).
 * One bucket pass by row (counting sort) that puts each entry into both its
 * rows of the graph's arrays, then a parallel sort and merge of every row in
 * place. The bucket pass is parallel by ownership: each thread owns a range
 * of rows, reads every entry in input order and places only those of its own
 * rows, so every row receives its entries in input order, as one thread
 * would place them, without atomics. */
#include "core/graph_build.h"
#include "core/error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#include "core/threads.h"

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

typedef graph_entry entry;

/* Order of one row: by column, stored entries before mirrored ones. */
static int entry_before(const entry *a, const entry *b)
{
    return a->col < b->col || (a->col == b->col && a->rev < b->rev);
}

static void insertion_sort(entry *r, int64_t len)
{
    for (int64_t a = 1; a < len; a++) {
        entry x = r[a];
        int64_t b = a - 1;
        while (b >= 0 && entry_before(&x, &r[b])) {
            r[b + 1] = r[b];
            b--;
        }
        r[b + 1] = x;
    }
}

/* Sorts one row stably (equal keys keep their input order, which fixes the
 * order duplicates are merged in, on every C library: qsort need not be
 * stable): nothing when already sorted, insertion sort for short rows,
 * otherwise insertion-sorted blocks of RUN merged bottom-up through a
 * scratch buffer. Returns -1 when that buffer cannot be allocated. */
#define RUN 32
int graph_row_sort(graph_entry *r, int64_t len)
{
    int64_t k = 1;
    while (k < len && !entry_before(&r[k], &r[k - 1]))
        k++;
    if (k >= len)
        return 0;
    if (len <= RUN) {
        insertion_sort(r, len);
        return 0;
    }
    entry *s = malloc((size_t)len * sizeof *s);
    if (!s)
        return -1;
    for (int64_t b = 0; b < len; b += RUN)
        insertion_sort(r + b, len - b < RUN ? len - b : RUN);
    entry *from = r, *to = s;
    for (int64_t w = RUN; w < len; w *= 2) {
        for (int64_t lo = 0; lo < len; lo += 2 * w) {
            int64_t mid = lo + w < len ? lo + w : len, hi = lo + 2 * w < len ? lo + 2 * w : len;
            int64_t i = lo, j = mid, o = lo;
            while (i < mid && j < hi)
                to[o++] = entry_before(&from[j], &from[i]) ? from[j++] : from[i++];
            while (i < mid)
                to[o++] = from[i++];
            while (j < hi)
                to[o++] = from[j++];
        }
        entry *t = from;
        from = to;
        to = t;
    }
    if (from != r)
        memcpy(r, from, (size_t)len * sizeof *r);
    free(s);
    return 0;
}

static double merge2(merge_rule rule, double a, double b)
{
    return rule == MERGE_SUM ? a + b : (a > b ? a : b);
}

/* Folds the weights of r[0..len) (len >= 1) in order with rule. */
static double fold(const entry *r, int64_t len, merge_rule rule)
{
    double a = r[0].w;
    for (int64_t k = 1; k < len; k++)
        a = merge2(rule, a, r[k].w);
    return a;
}

/* Sorts row r and merges it in place into distinct neighbours; returns the
 * new length and adds to *dups the duplicates of the stored keys counted in
 * this row. Neighbour c gets |fold of the stored entries (r,c)|, combined
 * with sym_rule with |fold of the stored (c,r)| when both exist, the
 * direction stored in the smaller row first; a mirrored key counts its
 * duplicates in its larger row. That is the arithmetic, in the order, of
 * merging duplicate keys first and the two directions after. -1 when the
 * sort runs out of memory. */
static int64_t row_merge(entry *row, int64_t len, int32_t r, const graph_build_opts *o, int64_t *dups)
{
    if (graph_row_sort(row, len))
        return -1;
    int64_t out = 0, k = 0;
    while (k < len) {
        int32_t c = row[k].col;
        int64_t a = k;
        while (k < len && row[k].col == c && !row[k].rev)
            k++;
        int64_t b = k; /* [a, b): stored (r, c); [b, k): mirrors of stored (c, r) */
        while (k < len && row[k].col == c)
            k++;
        double w;
        if (a < b && b < k) {
            double x = fabs(fold(row + a, b - a, o->dup_rule));
            double y = fabs(fold(row + b, k - b, o->dup_rule));
            w = r < c ? merge2(o->sym_rule, x, y) : merge2(o->sym_rule, y, x);
        } else {
            w = fabs(fold(row + a, k - a, o->dup_rule));
        }
        if (a < b && (!o->mirrored || r > c))
            *dups += b - a - 1;
        row[out].col = c;
        row[out].rev = 0;
        row[out].w = w;
        out++;
    }
    return out;
}

/* Makes *buf (capacity *cap, owned by the caller) hold at least need
 * entries; returns 0, or -1 (buffer freed, capacity 0) when out of memory. */
static int entry_buf_reserve(entry **buf, int64_t *cap, int64_t need)
{
    if (need <= *cap)
        return 0;
    free(*buf);
    *cap = need * 2;
    *buf = malloc((size_t)*cap * sizeof **buf);
    if (!*buf) {
        *cap = 0;
        return -1;
    }
    return 0;
}

/* w == floor(w) for a merged weight (w >= 0, never NaN), branch-free: below
 * 2^52, w + 2^52 lies where doubles are 1 apart, so it rounds w to an integer
 * exactly and subtracting 2^52 gives that integer back; from 2^52 up every
 * double is whole (and infinity equals its floor). */
static inline int is_whole(double w)
{
    return (w >= 0x1p52) | ((w + 0x1p52) - 0x1p52 == w);
}

/* Merges row r, stored at adj/ewgt/rev + b with length len, in place (rev
 * NULL: all 0); returns its new length, and notes each merged weight as it
 * is stored: *whole [in/out] drops to 0 at one that is not whole, *zeros
 * [in/out] counts those equal to 0. Fast path for a row already strictly
 * increasing; otherwise the row goes through row_merge in *tmp (grown as
 * needed, owned by the caller); -1 when that fails. */
static int64_t row_merge_at(int32_t *adj, double *ewgt, const uint8_t *rev, int64_t b, int64_t len, int32_t r,
                            const graph_build_opts *o, int64_t *dups, int *whole, int64_t *zeros, entry **tmp,
                            int64_t *cap)
{
    int64_t k = 1, out = len;
    while (k < len && adj[b + k - 1] < adj[b + k])
        k++;
    if (k < len) {
        if (entry_buf_reserve(tmp, cap, len))
            return -1;
        entry *t = *tmp;
        for (k = 0; k < len; k++)
            t[k].col = adj[b + k], t[k].rev = rev ? rev[b + k] : 0, t[k].w = ewgt[b + k];
        out = row_merge(t, len, r, o, dups);
        for (k = 0; k < out; k++)
            adj[b + k] = t[k].col, ewgt[b + k] = t[k].w;
    }
    int wh = 1;
    int64_t z = 0;
    for (k = 0; k < out; k++) {
        double w = fabs(ewgt[b + k]); /* row_merge's weights are already non-negative */
        ewgt[b + k] = w;
        wh &= is_whole(w);
        z += w == 0.0;
    }
    *whole &= wh;
    *zeros += z;
    return out;
}

/* The first row r with off[r + 1] > x (rows 0..n-1; n when none): the row
 * that holds adjacency position x. */
static int32_t row_at(const int64_t *off, int32_t n, int64_t x)
{
    int32_t lo = 0, hi = n;
    while (lo < hi) {
        int32_t mid = lo + (hi - lo) / 2;
        if (off[mid + 1] > x)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

int graph_merge_rows(coarsen_graph *g, const int64_t *off, const uint8_t *rev, int32_t first,
                     const graph_build_opts *opts, int64_t *dups_out, int64_t *zeros_out, coarsen_error *err)
{
    const int32_t n = g->n;
    int32_t *adj = g->adj;
    double *ewgt = g->ewgt;
    const int64_t d = off[n];
    int64_t *xadj = g->xadj; /* row r's merged length goes to xadj[r + 1], then the prefix sums */
    int64_t dups = 0, zeros = 0;
    int integral = 1, failed = 0;
#pragma omp parallel reduction(+ : dups, zeros) reduction(&& : integral) reduction(|| : failed) if (d >= THREADS_PARALLEL_MIN)
    {
        entry *tmp = NULL;
        int64_t cap = 0;
#pragma omp for schedule(dynamic, 1024)
        for (int32_t r = 0; r < n; r++) {
            g->vwgt[r] = 1;
            int64_t l = row_merge_at(adj, ewgt, rev, off[r], off[r + 1] - off[r], first + r, opts, &dups, &integral,
                                     &zeros, &tmp, &cap);
            failed = failed || l < 0;
            xadj[r + 1] = l < 0 ? 0 : l;
        }
        free(tmp);
    }
    if (failed)
        return error_nomem(err, "row merge buffer", 0);
    *dups_out = dups;
    *zeros_out = zeros;
    g->integral_weights = integral;
    xadj[0] = 0;
    for (int32_t r = 0; r < n; r++)
        xadj[r + 1] += xadj[r];
    int64_t nnz = xadj[n];
    g->nnz = d;
    if (nnz < d) {
        for (int32_t r = 0; r < n; r++) {
            size_t l = (size_t)(xadj[r + 1] - xadj[r]);
            memmove(adj + xadj[r], adj + off[r], l * sizeof *adj);
            memmove(ewgt + xadj[r], ewgt + off[r], l * sizeof *ewgt);
        }
        g->nnz = nnz;
        int32_t *na = realloc(adj, (size_t)(nnz ? nnz : 1) * sizeof *adj);
        double *nw = realloc(ewgt, (size_t)(nnz ? nnz : 1) * sizeof *ewgt);
        g->adj = na ? na : adj;
        g->ewgt = nw ? nw : ewgt;
    }
    return COARSEN_OK;
}

/* Adds 1 to *c, atomically when other threads add to the same counts: a
 * locked add serialises the cache misses of a scattered count, which plain
 * adds overlap. */
static inline void count_one(int64_t *c, int shared)
{
    if (shared)
        __atomic_fetch_add(c, 1, __ATOMIC_RELAXED);
    else
        (*c)++;
}

/* One counting sort puts every off-diagonal entry into both its rows,
 * straight into the graph's arrays (the mirror marked in rev unless the
 * input is mirrored); then every row is merged in place (row_merge_at) and
 * the rows are closed up when merging shortened them. */
int graph_from_edges(int32_t n, const edge_list *e, const graph_build_opts *opts,
                     coarsen_graph **out, graph_build_stats *stats, coarsen_error *err)
{
    graph_build_stats st = {0};
    int status = COARSEN_ERR_NOMEM;
    int64_t *off = NULL;
    uint8_t *rev = NULL;
    coarsen_graph *g = NULL;
    const int32_t *ei = e->i, *ej = e->j;
    const double *ew = e->w;
    int64_t count = e->count;
    int par = count >= THREADS_PARALLEL_MIN;
    *out = NULL;

    off = xcalloc((size_t)n + 1, sizeof *off, "row offsets", err);
    if (!off)
        goto done;
    int teams = par ? threads_available() : 1;
    (void)teams; /* read by the OpenMP clauses only: unused in a build without OpenMP */
    /* Degrees: each thread counts a block of entries, with atomic adds when
     * there are several threads (a count does not depend on their order). */
    int64_t diag = 0;
    const int shared = teams > 1;
#pragma omp parallel for schedule(static) reduction(+ : diag) num_threads(teams) if (shared)
    for (int64_t k = 0; k < count; k++) {
        int32_t a = ei[k], b = ej[k];
        if (a == b) {
            diag++;
            continue;
        }
        count_one(&off[a + 1], shared);
        count_one(&off[b + 1], shared);
    }
    st.diagonal_dropped = diag;
    for (int32_t r = 0; r < n; r++)
        off[r + 1] += off[r];
    int64_t d = off[n];
    g = coarsen_graph_alloc(n, d, err);
    rev = g && !opts->mirrored ? xmalloc((size_t)(d ? d : 1), "entry directions", err) : NULL;
    if (!g || (!opts->mirrored && !rev))
        goto done;
    int32_t *adj = g->adj;
    double *ewgt = g->ewgt;
    int64_t *len = g->xadj; /* the placement cursors: xadj is set by graph_merge_rows */
    memcpy(len, off, ((size_t)n + 1) * sizeof *len);
    /* Placement: thread t owns the rows whose entries start in its share
     * [d t / T, d (t+1) / T) of the adjacency. */
#pragma omp parallel num_threads(teams) if (teams > 1)
    {
        int t = 0, nt = 1;
#ifdef _OPENMP
        t = omp_get_thread_num(), nt = omp_get_num_threads();
#endif
        int32_t lo = row_at(off, n, d * t / nt), hi = t == nt - 1 ? n : row_at(off, n, d * (t + 1) / nt);
        for (int64_t k = 0; k < count; k++) {
            int32_t a = ei[k], b = ej[k];
            if (a == b)
                continue;
            if (a >= lo && a < hi) {
                int64_t x = len[a]++;
                adj[x] = b, ewgt[x] = ew[k];
                if (rev)
                    rev[x] = 0;
            }
            if (b >= lo && b < hi) {
                int64_t y = len[b]++;
                adj[y] = a, ewgt[y] = ew[k];
                if (rev)
                    rev[y] = 1;
            }
        }
    }

    int64_t zeros = 0;
    if (graph_merge_rows(g, off, rev, 0, opts, &st.duplicates_merged, &zeros, err))
        goto done;
    st.zero_weight_edges = zeros / 2;
    *out = g;
    g = NULL;
    status = COARSEN_OK;
done:
    coarsen_graph_free(g);
    free(off);
    free(rev);
    if (stats)
        *stats = st;
    return status;
}

int graph_sort_rows(coarsen_graph *g, coarsen_error *err)
{
    int failed = 0;
#pragma omp parallel reduction(|| : failed) if (g->nnz >= THREADS_PARALLEL_MIN)
    {
        entry *tmp = NULL;
        int64_t cap = 0;
#pragma omp for schedule(dynamic, 1024)
        for (int32_t r = 0; r < g->n; r++) {
            int64_t b = g->xadj[r], l = g->xadj[r + 1] - b;
            if (entry_buf_reserve(&tmp, &cap, l)) {
                failed = 1;
                continue;
            }
            for (int64_t k = 0; k < l; k++)
                tmp[k].col = g->adj[b + k], tmp[k].rev = 0, tmp[k].w = g->ewgt[b + k];
            if (graph_row_sort(tmp, l)) {
                failed = 1;
                continue;
            }
            for (int64_t k = 0; k < l; k++)
                g->adj[b + k] = tmp[k].col, g->ewgt[b + k] = tmp[k].w;
        }
        free(tmp);
    }
    return failed ? error_nomem(err, "row sort buffer", 0) : COARSEN_OK;
}
