/* graph_build.c — stored entries to CSR (see graph_build.h for the rules).
 * A radix partition by row, then a parallel sort and merge of every row:
 * each block of the input counts and places both directions of its entries
 * into cells of consecutive rows, straight into the cells' ranges of the
 * graph's arrays (block after block, so each cell holds its entries in input
 * order); then each cell, on one thread, groups its entries by row (stable)
 * and merges every row. Every row meets its entries in input order, as one
 * thread would place them, without atomics and without any thread reading
 * more than its block of the input. */
#include "core/graph_build.h"
#include "core/error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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

/* A row being built carries each entry's direction in the top bit of its
 * neighbour id (ids are below 2^31): 1 for the mirror of a stored entry. */
#define MIRROR_BIT ((uint32_t)1 << 31)

/* One thread's state while it merges rows: the rules, what it has noted of
 * the rows merged so far, and its scratch (grown as needed, freed by
 * row_merger_free). */
typedef struct row_merger {
    const graph_build_opts *o;
    int64_t dups;  /* duplicates of stored keys merged */
    int64_t zeros; /* merged weights equal to 0 */
    int whole;     /* 0 once a merged weight is not whole */
    entry *tmp;    /* an unsorted row (row_merge_unsorted) */
    int64_t tmp_cap;
    int32_t *col; /* a cell's entries grouped by row (cell_merge) */
    double *w;
    int64_t cap;
    int64_t *cur; /* a cell's row cursors, 2^s + 1 */
} row_merger;

static void row_merger_free(row_merger *m)
{
    free(m->tmp);
    free(m->col);
    free(m->w);
    free(m->cur);
}

/* row_merge_at's way for a row not strictly increasing: the row through
 * row_merge in m->tmp, the result stored at adj/ewgt (not yet |w|); returns
 * its length, -1 when out of memory. */
static int64_t row_merge_unsorted(const int32_t *col, const double *w, int64_t len, int32_t r, row_merger *m,
                                  int32_t *adj, double *ewgt)
{
    if (entry_buf_reserve(&m->tmp, &m->tmp_cap, len))
        return -1;
    entry *t = m->tmp;
    for (int64_t k = 0; k < len; k++)
        t[k].col = (int32_t)((uint32_t)col[k] & ~MIRROR_BIT), t[k].rev = (uint32_t)col[k] >> 31, t[k].w = w[k];
    int64_t out = row_merge(t, len, r, m->o, &m->dups);
    for (int64_t k = 0; k < out; k++)
        adj[k] = t[k].col, ewgt[k] = t[k].w;
    return out;
}

/* Merges row r, its entries given in the order of their stored entries as
 * col [in] (neighbour | MIRROR_BIT for a mirror) and w [in], and stores the
 * result at adj and ewgt [out], which may be col and w themselves; returns
 * its length (-1 when out of memory) and notes each merged weight in m as
 * it is stored. A row already strictly increasing is only stored (with
 * |w|). */
static inline int64_t row_merge_at(const int32_t *col, const double *w, int64_t len, int32_t r, row_merger *m,
                                   int32_t *adj, double *ewgt)
{
    int64_t k = 1, out = len;
    while (k < len && (uint32_t)col[k - 1] << 1 < (uint32_t)col[k] << 1)
        k++;
    if (k < len) {
        if ((out = row_merge_unsorted(col, w, len, r, m, adj, ewgt)) < 0)
            return -1;
        col = adj, w = ewgt; /* the loops below finish the merged row in place */
    }
    if (col != adj || !m->o->mirrored) /* mirrored input: no MIRROR_BIT anywhere */
        for (k = 0; k < out; k++)
            adj[k] = (int32_t)((uint32_t)col[k] & ~MIRROR_BIT);
    int wh = 1;
    int64_t z = 0;
    for (k = 0; k < out; k++) {
        double x = fabs(w[k]); /* row_merge's weights are already non-negative */
        ewgt[k] = x;
        wh &= is_whole(x);
        z += x == 0.0;
    }
    m->whole &= wh;
    m->zeros += z;
    return out;
}

/* The rows of g merged: row r's merged length in xadj[r + 1], its entries
 * at off[r] of adj/ewgt. Turns the lengths into offsets and closes up the
 * rows when merging shortened them (g->nnz from off[n] to the sum). */
static void rows_close_up(coarsen_graph *g, const int64_t *off)
{
    const int32_t n = g->n;
    int64_t *xadj = g->xadj;
    int32_t *adj = g->adj;
    double *ewgt = g->ewgt;
    xadj[0] = 0;
    for (int32_t r = 0; r < n; r++)
        xadj[r + 1] += xadj[r];
    int64_t nnz = xadj[n], d = off[n];
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
}

/* The scatter's buckets are cells of 2^s consecutive rows. A cell is a row
 * (s = 0: the counts are the degrees, as in a plain counting sort) on one
 * block, or while the blocks' counts (8 bytes a row each) take no more room
 * than the 2-byte tags of cells would; otherwise s is the least with at most
 * CELLS cells (but at most CELL_BITS, so that a row's place in its cell fits
 * the 16-bit tag each entry then carries to its cell). */
#define CELLS 4096
#define CELL_BITS 16

/* A cell's entries, at [b, e) of g->adj (neighbour | MIRROR_BIT), g->ewgt
 * and tag [in] (the row in the cell), in the order of their stored entries:
 * grouped by row (counting, stable) into m->col and m->w, each row merged
 * (row_merge_at) and stored where it starts; sets off, vwgt and the merged
 * lengths xadj[r + 1] of the cell's rows [r0, r1) (row first + r of the
 * whole graph). Returns -1 when out of memory. */
static int cell_merge(coarsen_graph *g, int64_t *off, const uint16_t *tag, int64_t b, int64_t e, int32_t r0,
                      int32_t r1, int32_t first, row_merger *m)
{
    int32_t *adj = g->adj;
    double *ewgt = g->ewgt;
    if (e - b > m->cap) {
        free(m->col);
        free(m->w);
        m->cap = 2 * (e - b);
        m->col = malloc((size_t)m->cap * sizeof *m->col);
        m->w = malloc((size_t)m->cap * sizeof *m->w);
        if (!m->col || !m->w)
            return -1;
    }
    int32_t rows = r1 - r0;
    int64_t *cur = m->cur;
    memset(cur, 0, ((size_t)rows + 1) * sizeof *cur);
    for (int64_t k = b; k < e; k++)
        cur[tag[k] + 1]++;
    for (int32_t i = 0; i < rows; i++) {
        cur[i + 1] += cur[i];
        off[r0 + i] = b + cur[i];
    }
    int32_t *col = m->col;
    double *w = m->w;
    for (int64_t k = b; k < e; k++) {
        int64_t z = cur[tag[k]]++;
        col[z] = adj[k], w[z] = ewgt[k];
    }
    for (int32_t i = 0; i < rows; i++) { /* row i now ends at cur[i], the start of row i + 1 */
        int64_t s = i ? cur[i - 1] : 0;
        int64_t l = row_merge_at(col + s, w + s, cur[i] - s, first + r0 + i, m, adj + b + s, ewgt + b + s);
        if (l < 0)
            return -1;
        g->vwgt[r0 + i] = 1;
        g->xadj[r0 + i + 1] = l;
    }
    return 0;
}

/* Merges every row, cell by cell in parallel, and closes up the rows: the
 * cells of 2^s rows take [cell[c], cell[c + 1]) of g->adj (neighbour |
 * MIRROR_BIT) and g->ewgt, their entries in the order of their stored
 * entries. tag NULL (s = 0): each cell is one row, merged in place, and cell
 * holds the row offsets; otherwise tag [in] holds each entry's row in its
 * cell and off [out] gets the row offsets (cell_merge). Row r is row first
 * + r of the whole graph. Sets g->xadj, nnz, vwgt, integral_weights; the
 * counts as in graph_merge_rows. */
static int cells_merge(coarsen_graph *g, const int64_t *cell, const uint16_t *tag, int s, int64_t *off,
                       int32_t first, const graph_build_opts *opts, int64_t *dups_out, int64_t *zeros_out,
                       coarsen_error *err)
{
    const int32_t n = g->n, cells = (int32_t)(((int64_t)n + (1 << s) - 1) >> s);
    int64_t dups = 0, zeros = 0;
    int integral = 1, failed = 0;
#pragma omp parallel reduction(+ : dups, zeros) reduction(&& : integral) reduction(|| : failed) if (cell[cells] >= THREADS_PARALLEL_MIN)
    {
        row_merger m = {.o = opts, .whole = 1};
        m.cur = tag ? malloc(((size_t)1 << s) * sizeof *m.cur + sizeof *m.cur) : NULL;
        failed = tag && !m.cur;
#pragma omp for schedule(dynamic, tag ? 1 : 1024)
        for (int32_t c = 0; c < cells; c++) {
            if (!tag) {
                int64_t b = cell[c];
                int64_t l = row_merge_at(g->adj + b, g->ewgt + b, cell[c + 1] - b, first + c, &m, g->adj + b,
                                         g->ewgt + b);
                g->vwgt[c] = 1;
                g->xadj[c + 1] = l;
                failed |= l < 0;
            } else {
                int64_t r1 = ((int64_t)c + 1) << s;
                failed |= cell_merge(g, off, tag, cell[c], cell[c + 1], c << s, r1 < n ? (int32_t)r1 : n, first, &m);
            }
        }
        dups += m.dups;
        zeros += m.zeros;
        integral = m.whole;
        row_merger_free(&m);
    }
    if (failed)
        return error_nomem(err, "row merge buffer", 0);
    *dups_out = dups;
    *zeros_out = zeros;
    g->integral_weights = integral;
    rows_close_up(g, tag ? off : cell);
    return COARSEN_OK;
}

int graph_merge_rows(coarsen_graph *g, const int64_t *off, const uint8_t *rev, int32_t first,
                     const graph_build_opts *opts, int64_t *dups_out, int64_t *zeros_out, coarsen_error *err)
{
    int32_t *adj = g->adj;
    const int64_t d = off[g->n];
#pragma omp parallel for schedule(static) if (rev && d >= THREADS_PARALLEL_MIN)
    for (int64_t x = 0; x < (rev ? d : 0); x++)
        adj[x] = (int32_t)((uint32_t)adj[x] | (uint32_t)rev[x] << 31);
    return cells_merge(g, off, NULL, 0, NULL, first, opts, dups_out, zeros_out, err);
}

/* Three passes, none with atomics or a scan per thread: (1) each of `blocks`
 * consecutive blocks of the input counts its entries per cell (both
 * directions, diagonal entries dropped); (2) each block places its entries
 * into its own run of each cell's range of the adjacency, which is the
 * range the cell's rows take: the blocks in input order, so every cell holds
 * its entries in input order; (3) every cell, in parallel, sorts its entries
 * by row and merges each row (cell_merge). Every row thus meets its entries
 * in input order whatever the thread count, and the memory traffic does not
 * grow with the thread count. */
int graph_from_edges(int32_t n, const edge_list *e, const graph_build_opts *opts,
                     coarsen_graph **out, graph_build_stats *stats, coarsen_error *err)
{
    graph_build_stats st = {0};
    int status = COARSEN_ERR_NOMEM;
    int64_t *off = NULL, *pos = NULL, *cell = NULL;
    uint16_t *tag = NULL;
    coarsen_graph *g = NULL;
    const int32_t *ei = e->i, *ej = e->j;
    const double *ew = e->w;
    const int64_t count = e->count;
    const uint32_t mirror = opts->mirrored ? 0 : MIRROR_BIT; /* mirrored input: both directions are stored */
    const int blocks = count >= THREADS_PARALLEL_MIN ? threads_available() : 1;
    *out = NULL;

    int s = 0;
    if ((int64_t)blocks * n > (blocks > 1 ? count / 2 : n))
        while (s < CELL_BITS && ((int64_t)n + (1 << s) - 1) >> s > (s ? CELLS : 0))
            s++;
    const int32_t cells = (int32_t)(((int64_t)n + (1 << s) - 1) >> s), mask = (1 << s) - 1;
    off = xmalloc(((size_t)n + 1) * sizeof *off, "row offsets", err);
    pos = off ? xcalloc((size_t)blocks * cells + blocks + 1, sizeof *pos, "cell counts", err) : NULL;
    cell = !pos ? NULL : s ? xmalloc(((size_t)cells + 1) * sizeof *cell, "cell offsets", err) : off;
    if (!cell)
        goto done;
    /* (1) pos[k cells + c]: block k's entries in cell c. */
    int64_t diag = 0;
#pragma omp parallel for schedule(static, 1) reduction(+ : diag) num_threads(blocks) if (blocks > 1)
    for (int k = 0; k < blocks; k++) {
        int64_t *c = pos + (int64_t)k * cells;
        for (int64_t x = count * k / blocks; x < count * (k + 1) / blocks; x++) {
            int32_t a = ei[x], b = ej[x];
            if (a == b) {
                diag++;
                continue;
            }
            c[a >> s]++;
            c[b >> s]++;
        }
    }
    st.diagonal_dropped = diag;
    /* Cell c takes [cell[c], cell[c + 1]) of the adjacency; block k's run of
     * it starts at pos[k cells + c]. Parallel over `blocks` ranges of cells,
     * each loop along the cells: each cell's total and each range's (part),
     * then from their prefix sums the cells' starts, then the runs' starts,
     * block by block from the last (a run ends where the next block's run
     * starts, the last block's where the next cell starts). */
    int64_t *part = pos + (int64_t)blocks * cells; /* blocks + 1 */
#pragma omp parallel for schedule(static, 1) num_threads(blocks) if (blocks > 1)
    for (int k = 0; k < blocks; k++) {
        int64_t c0 = (int64_t)cells * k / blocks, c1 = (int64_t)cells * (k + 1) / blocks, m = 0;
        memcpy(cell + c0, pos + c0, (size_t)(c1 - c0) * sizeof *cell);
        for (int j = 1; j < blocks; j++)
            for (int64_t c = c0; c < c1; c++)
                cell[c] += pos[(int64_t)j * cells + c];
        for (int64_t c = c0; c < c1; c++)
            m += cell[c];
        part[k + 1] = m;
    }
    for (int k = 0; k < blocks; k++)
        part[k + 1] += part[k];
    int64_t d = part[blocks];
    cell[cells] = d;
#pragma omp parallel for schedule(static, 1) num_threads(blocks) if (blocks > 1)
    for (int k = 0; k < blocks; k++) {
        int64_t at = part[k];
        for (int64_t c = (int64_t)cells * k / blocks; c < (int64_t)cells * (k + 1) / blocks; c++) {
            int64_t m = cell[c];
            cell[c] = at;
            at += m;
        }
    }
#pragma omp parallel for schedule(static, 1) num_threads(blocks) if (blocks > 1)
    for (int k = 0; k < blocks; k++) {
        int64_t c0 = (int64_t)cells * k / blocks, c1 = (int64_t)cells * (k + 1) / blocks;
        for (int j = blocks - 1; j >= 0; j--) {
            int64_t *run = pos + (int64_t)j * cells;
            const int64_t *end = j == blocks - 1 ? cell + 1 : run + cells;
            for (int64_t c = c0; c < c1; c++)
                run[c] = end[c] - run[c];
        }
    }
    off[n] = d;
    g = coarsen_graph_alloc(n, d, err);
    if (!g || (s && !(tag = xmalloc((size_t)d * sizeof *tag, "entry rows", err))))
        goto done;
    /* (2) */
    int32_t *adj = g->adj;
    double *ewgt = g->ewgt;
#pragma omp parallel for schedule(static, 1) num_threads(blocks) if (blocks > 1)
    for (int k = 0; k < blocks; k++) {
        int64_t *c = pos + (int64_t)k * cells;
        for (int64_t x = count * k / blocks; x < count * (k + 1) / blocks; x++) {
            int32_t a = ei[x], b = ej[x];
            if (a == b)
                continue;
            double w = ew[x];
            int64_t p = c[a >> s]++, q = c[b >> s]++;
            adj[p] = b, ewgt[p] = w;
            adj[q] = (int32_t)((uint32_t)a | mirror), ewgt[q] = w;
            if (tag)
                tag[p] = (uint16_t)(a & mask), tag[q] = (uint16_t)(b & mask);
        }
    }
    /* (3) */
    if (cells_merge(g, cell, tag, s, off, 0, opts, &st.duplicates_merged, &st.zero_weight_edges, err))
        goto done;
    st.zero_weight_edges /= 2;
    *out = g;
    g = NULL;
    status = COARSEN_OK;
done:
    coarsen_graph_free(g);
    free(off);
    free(pos);
    if (cell != off)
        free(cell);
    free(tag);
    if (stats)
        *stats = st;
    return status;
}

int graph_sort_neighbours(int32_t *adj, double *w, int64_t len, graph_entry **scratch, int64_t *cap)
{
    int64_t k = 1;
    while (k < len && adj[k - 1] <= adj[k])
        k++;
    if (k >= len)
        return 0;
    if (len <= RUN) { /* [0, k) is sorted: insert the rest */
        for (; k < len; k++) {
            const int32_t c = adj[k];
            const double x = w[k];
            int64_t b = k - 1;
            for (; b >= 0 && c < adj[b]; b--)
                adj[b + 1] = adj[b], w[b + 1] = w[b];
            adj[b + 1] = c, w[b + 1] = x;
        }
        return 0;
    }
    if (entry_buf_reserve(scratch, cap, len))
        return -1;
    entry *t = *scratch;
    for (k = 0; k < len; k++)
        t[k].col = adj[k], t[k].rev = 0, t[k].w = w[k];
    if (graph_row_sort(t, len))
        return -1;
    for (k = 0; k < len; k++)
        adj[k] = t[k].col, w[k] = t[k].w;
    return 0;
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
            const int64_t b = g->xadj[r];
            failed |= graph_sort_neighbours(g->adj + b, g->ewgt + b, g->xadj[r + 1] - b, &tmp, &cap) != 0;
        }
        free(tmp);
    }
    return failed ? error_nomem(err, "row sort buffer", 0) : COARSEN_OK;
}
