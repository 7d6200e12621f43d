/* contract_cpu.c — the host reference contraction (contract.h), in three
 * passes. Groups: one pass over the fine vertices counts each coarse
 * vertex's members and their entries (the room its row may need), and lists
 * the members in increasing fine id. Rows (OpenMP over coarse rows): each
 * coarse row gathers its distinct neighbours, unsorted, in the fixed order of
 * contract.h (members in increasing fine id, each member's row in stored
 * order, internal edges dropped, weights of one coarse neighbour summed left
 * to right in that order) into a scratch of neighbours and weights.
 * Placement (OpenMP over coarse rows, once the row lengths are summed): each
 * row is written sorted by neighbour straight into the coarse graph, a short
 * row by rank (rank_place), the neighbours of the long ones by a transpose
 * of the gathered rows (transpose_long_rows), with their weights for
 * integer weights (exact sums: row k's sum for neighbour c is row c's for
 * k), else looked up in the gathered row. For real weights the entry (c, b)
 * with b < c then copies the weight of (b, c). The result does not depend on the thread
 * count. */
#include "contract/contract.h"
#include "core/error.h"
#include "core/threads.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

/* Rows up to this length are placed by rank; longer ones by a transpose.
 * The rows' scratch has RANK_SPARE entries past its end, so that the rank
 * reads a last row's final block of four whole. */
enum { RANK_MAX = 32, RANK_SPARE = 3 };
/* How many coarse rows ahead the rows pass asks for its members' data. */
enum { PREFETCH_ROWS = 8 };

/* Four int32 lanes (GCC and Clang vector extensions, as io/line_chunks.c:
 * SSE2 on x86-64, NEON on ARM). */
typedef int32_t lanes4 __attribute__((vector_size(16)));

/* rank_place for rows of 4 (blocks - 1) + 1 to 4 blocks entries: the row's
 * entries in `blocks` vectors of four, loaded from col (which has RANK_SPARE
 * entries past the last row: the lanes past len hold whatever follows the
 * row, and their ranks are never read) and kept in registers, and each
 * entry's rank accumulated in four lanes at once: one broadcast neighbour
 * against every block per step (a compare and a subtract of its -1 lanes),
 * len steps. Inlined with a constant block count, so the loops over the
 * blocks unroll. */
static inline __attribute__((always_inline)) void rank_place_blocks(const int32_t *col, const double *w,
                                                                    int32_t len, int32_t *adj, double *ewgt,
                                                                    const int blocks)
{
    int32_t row[RANK_MAX];
    lanes4 key[RANK_MAX / 4], rank[RANK_MAX / 4];
    for (int b = 0; b < blocks; b++) {
        memcpy(&key[b], col + 4 * b, sizeof key[b]);
        rank[b] = (lanes4){0, 0, 0, 0};
    }
    for (int32_t j = 0; j < len; j++) {
        const lanes4 x = (lanes4){0, 0, 0, 0} + col[j];
        for (int b = 0; b < blocks; b++)
            rank[b] -= x < key[b]; /* -1 in the lanes where col[j] is smaller */
    }
    memcpy(row, rank, (size_t)blocks * sizeof rank[0]);
    for (int32_t i = 0; i < len; i++) {
        adj[row[i]] = col[i];
        ewgt[row[i]] = w[i];
    }
}

/* Writes row col[0..len), w[0..len) sorted by neighbour into adj, ewgt. The
 * neighbours of a coarse row are distinct, so each entry's place is the
 * number of smaller neighbours (counted four entries at a time in
 * rank_place_blocks; no mispredicted branch as in an insertion sort). Rows
 * up to RANK_MAX. */
static void rank_place(const int32_t *col, const double *w, int32_t len, int32_t *adj, double *ewgt)
{
    _Static_assert(RANK_MAX == 32, "rank_place's cases cover RANK_MAX / 4 blocks");
    switch ((len + 3) / 4) {
    case 0: return;
    case 1: rank_place_blocks(col, w, len, adj, ewgt, 1); return;
    case 2: rank_place_blocks(col, w, len, adj, ewgt, 2); return;
    case 3: rank_place_blocks(col, w, len, adj, ewgt, 3); return;
    case 4: rank_place_blocks(col, w, len, adj, ewgt, 4); return;
    case 5: rank_place_blocks(col, w, len, adj, ewgt, 5); return;
    case 6: rank_place_blocks(col, w, len, adj, ewgt, 6); return;
    case 7: rank_place_blocks(col, w, len, adj, ewgt, 7); return;
    default: rank_place_blocks(col, w, len, adj, ewgt, 8); return;
    }
}

/* Groups of cmap as a CSR: members[gptr[c], gptr[c+1]) are c's fine vertices
 * in increasing id; bound[c] = the entries of the members of coarse vertices
 * before c (bound[nc] = g->nnz). Fails unless cmap maps onto [0, nc). */
static int contract_groups(const coarsen_graph *g, const int32_t *cmap, int32_t nc, int64_t *gptr, int64_t *bound,
                           int32_t *members, coarsen_error *err)
{
    const int32_t n = g->n;
    if (nc < 0 || nc > n || (n > 0 && nc == 0))
        return error_set(err, COARSEN_ERR_INPUT, "contract: %d coarse vertices for %d fine ones", nc, n);
    memset(gptr, 0, ((size_t)nc + 1) * sizeof *gptr);
    memset(bound, 0, ((size_t)nc + 1) * sizeof *bound);
    for (int32_t v = 0; v < n; v++) {
        const int32_t c = cmap[v];
        if (c < 0 || c >= nc)
            return error_set(err, COARSEN_ERR_INPUT, "contract: cmap[%d] = %d outside [0, %d)", v, c, nc);
        gptr[c + 1]++;
        bound[c + 1] += g->xadj[v + 1] - g->xadj[v];
    }
    for (int32_t c = 0; c < nc; c++) {
        if (gptr[c + 1] == 0)
            return error_set(err, COARSEN_ERR_INPUT, "contract: coarse vertex %d has no fine member", c);
        gptr[c + 1] += gptr[c];
        bound[c + 1] += bound[c];
    }
    int64_t *fill = xmalloc(((size_t)nc + 1) * sizeof *fill, "contraction groups", err);
    if (!fill)
        return COARSEN_ERR_NOMEM;
    memcpy(fill, gptr, ((size_t)nc + 1) * sizeof *fill);
    for (int32_t v = 0; v < n; v++)
        members[fill[cmap[v]]++] = v;
    free(fill);
    return COARSEN_OK;
}

/* The rows pass: coarse row c's distinct neighbours and their summed weights
 * into col, w from bound[c] on, unsorted, their count into len[c]. slot:
 * nthreads x (nc + 1) scratch, left holding positions. */
static void gather_rows(const coarsen_graph *g, const int32_t *cmap, int32_t nc, const int64_t *gptr,
                        const int32_t *members, const int64_t *bound, int32_t *slot, int nthreads, int32_t *col,
                        double *w, int32_t *len)
{
    const int64_t *xadj = g->xadj;
    const int32_t *adj = g->adj;
    const double *ewgt = g->ewgt;
#pragma omp parallel num_threads(nthreads)
    {
        /* A thread numbers the neighbours of its rows on from where its
         * previous row stopped, base: pos[k] >= base is coarse neighbour k's
         * place in the current row (counted from base), and anything below
         * was set by an earlier row, so nothing is reset between rows. base
         * never passes bound[c] (a row has at most its members' entries), so
         * rc and rw below stay inside col and w; before base could overflow
         * (2^31 entries gathered by one thread) the positions start again
         * from -1. */
        int32_t *pos = slot + (size_t)omp_get_thread_num() * ((size_t)nc + 1), base = 0;
        for (int32_t k = 0; k < nc; k++)
            pos[k] = -1;
#pragma omp for schedule(dynamic, 256)
        for (int32_t c = 0; c < nc; c++) {
            /* the members of later rows are scattered: their row starts
             * requested PREFETCH_ROWS rows ahead, their rows half as far */
            if (c + PREFETCH_ROWS < nc)
                for (int64_t i = gptr[c + PREFETCH_ROWS]; i < gptr[c + PREFETCH_ROWS + 1]; i++)
                    __builtin_prefetch(xadj + members[i]);
            if (c + PREFETCH_ROWS / 2 < nc)
                for (int64_t i = gptr[c + PREFETCH_ROWS / 2]; i < gptr[c + PREFETCH_ROWS / 2 + 1]; i++) {
                    __builtin_prefetch(adj + xadj[members[i]]);
                    __builtin_prefetch(ewgt + xadj[members[i]]);
                }
            if (bound[c + 1] - bound[c] > INT32_MAX - base) { /* not before 2^31 entries */
                for (int32_t k = 0; k < nc; k++)
                    pos[k] = -1;
                base = 0;
            }
            /* row c's neighbours at rc[base..), rw[base..) */
            int32_t *rc = col + bound[c] - base;
            double *rw = w + bound[c] - base;
            /* Without branches on the data (new neighbour or not: half the
             * time mispredicted): every entry writes its neighbour and -0.0
             * into the next free slot, next, and adds its weight at its
             * neighbour's slot, that one when new (-0.0 + x is x for every
             * x). The internal edges gather as neighbour c like any other;
             * that entry goes afterwards, the row's last taking its slot (a
             * row's order is free: the placement sorts it). */
            int32_t next = base;
            for (int64_t i = gptr[c]; i < gptr[c + 1]; i++) {
                const int32_t u = members[i];
                for (int64_t e = xadj[u]; e < xadj[u + 1]; e++) {
                    const int32_t k = cmap[adj[e]], p = pos[k], fresh = p < base, q = fresh ? next : p;
                    pos[k] = q;
                    rc[next] = k;
                    rw[next] = -0.0;
                    rw[q] += ewgt[e];
                    next += fresh;
                }
            }
            int32_t last = next - 1; /* every slot up to it is below the next row's base */
            if (pos[c] >= base) {
                rc[pos[c]] = rc[last];
                rw[pos[c]] = rw[last];
                last--;
            }
            len[c] = last + 1 - base;
            base = next;
        }
    }
}

/* The neighbours of the rows longer than RANK_MAX, sorted, into h->adj:
 * the coarse graph is symmetric (k is in row c's gathered neighbours exactly
 * when c is in row k's), so appending k to the long rows among row k's
 * gathered neighbours, for k in increasing order, writes them sorted. Thread
 * t of nt takes the gathered rows of an equal share of the entries; what
 * they send to row c goes after what the threads before t send (counted
 * first into rel[t x (nc + 1) + c], offsets within the row), so the rows do
 * not depend on the thread count. With integer weights (h->integral_weights)
 * each entry's weight goes with it: the weight row k summed for c, which is
 * the one row c summed for k. Inside the parallel region of the placement;
 * rel (the slots of place_rows) is free again on return. */
static void transpose_long_rows(const int64_t *bound, const int32_t *col, const double *w, const int32_t *len,
                                int32_t *rel, coarsen_graph *h)
{
    const int t = omp_get_thread_num(), nt = omp_get_num_threads();
    const int32_t nc = h->n;
    const int64_t *xadj = h->xadj;
    int32_t lo = 0, hi = nc; /* the rows that start from t / nt of the entries on, up to (t + 1) / nt */
    for (int s = 0; s < 2; s++) {
        const int64_t at = xadj[nc] * (t + s) / nt;
        int32_t a = 0, b = nc;
        while (a < b) {
            const int32_t mid = a + (b - a) / 2;
            if (xadj[mid] < at)
                a = mid + 1;
            else
                b = mid;
        }
        *(s ? &hi : &lo) = t + s == nt ? nc : a;
    }
    int32_t *mine = rel + (size_t)t * ((size_t)nc + 1);
    memset(mine, 0, (size_t)nc * sizeof *mine);
    if (nt > 1) {
        for (int32_t k = lo; k < hi; k++)
            for (int64_t j = bound[k]; j < bound[k] + len[k]; j++)
                mine[col[j]] += len[col[j]] > RANK_MAX;
#pragma omp barrier
#pragma omp for schedule(static)
        for (int32_t c = 0; c < nc; c++) {
            if (len[c] <= RANK_MAX)
                continue;
            int32_t run = 0;
            for (int u = 0; u < nt; u++) {
                const int32_t x = rel[(size_t)u * ((size_t)nc + 1) + c];
                rel[(size_t)u * ((size_t)nc + 1) + c] = run;
                run += x;
            }
        }
    }
    int32_t *adj = h->adj;
    double *ewgt = h->ewgt;
    if (h->integral_weights) {
        for (int32_t k = lo; k < hi; k++)
            for (int64_t j = bound[k]; j < bound[k] + len[k]; j++) {
                const int32_t c = col[j];
                if (len[c] > RANK_MAX) {
                    const int64_t e = xadj[c] + mine[c]++;
                    adj[e] = k;
                    ewgt[e] = w[j];
                }
            }
    } else {
        for (int32_t k = lo; k < hi; k++)
            for (int64_t j = bound[k]; j < bound[k] + len[k]; j++) {
                const int32_t c = col[j];
                if (len[c] > RANK_MAX)
                    adj[xadj[c] + mine[c]++] = k;
            }
    }
#pragma omp barrier
}

/* The placement pass: h's vertex weights and rows, each row sorted; h->xadj
 * set. Rows up to RANK_MAX by rank_place; the longer ones take their sorted
 * neighbours (and integer weights) from transpose_long_rows, and real
 * weights from the gathered row, found through the slots (slot: nthreads x
 * (nc + 1) scratch, any contents). */
static void place_rows(const coarsen_graph *g, const int64_t *gptr, const int32_t *members, const int64_t *bound,
                       const int32_t *col, const double *w, const int32_t *len, int32_t *slot, int nthreads,
                       coarsen_graph *h)
{
    const int32_t nc = h->n;
    int32_t longest = 0;
    for (int32_t c = 0; c < nc; c++) {
        h->xadj[c + 1] = h->xadj[c] + len[c];
        longest = len[c] > longest ? len[c] : longest;
    }
#pragma omp parallel num_threads(nthreads)
    {
        if (longest > RANK_MAX)
            transpose_long_rows(bound, col, w, len, slot, h);
        int32_t *pos = slot + (size_t)omp_get_thread_num() * ((size_t)nc + 1);
#pragma omp for schedule(dynamic, 256)
        for (int32_t c = 0; c < nc; c++) {
            int64_t vw = 0;
            for (int64_t i = gptr[c]; i < gptr[c + 1]; i++)
                vw += g->vwgt[members[i]];
            h->vwgt[c] = vw;
            const int32_t *rc = col + bound[c];
            const double *rw = w + bound[c];
            int32_t *adj = h->adj + h->xadj[c];
            double *ewgt = h->ewgt + h->xadj[c];
            if (len[c] <= RANK_MAX) {
                rank_place(rc, rw, len[c], adj, ewgt);
                continue;
            }
            if (h->integral_weights)
                continue;
            for (int32_t j = 0; j < len[c]; j++)
                pos[rc[j]] = j;
            for (int32_t j = 0; j < len[c]; j++)
                ewgt[j] = rw[pos[adj[j]]];
        }
    }
}

/* Real weights: row c's entries (c, b), b < c, come first in c's sorted row;
 * visiting rows b in increasing order fills them in that order from the
 * entries (b, c), c > b, which this pass only reads. */
static int mirror_weights(coarsen_graph *h, coarsen_error *err)
{
    const int32_t nc = h->n;
    int64_t *cursor = xmalloc(((size_t)nc + 1) * sizeof *cursor, "contraction cursors", err);
    if (!cursor)
        return COARSEN_ERR_NOMEM;
    memcpy(cursor, h->xadj, ((size_t)nc + 1) * sizeof *cursor);
    for (int32_t b = 0; b < nc; b++)
        for (int64_t e = h->xadj[b]; e < h->xadj[b + 1]; e++)
            if (h->adj[e] > b)
                h->ewgt[cursor[h->adj[e]]++] = h->ewgt[e];
    free(cursor);
    return COARSEN_OK;
}

int contract_cpu(const coarsen_graph *g, const int32_t *cmap, int32_t nc, coarsen_graph **out,
                 coarsen_error *err)
{
    *out = NULL;
    if (g->on_device)
        return error_set(err, COARSEN_ERR_INPUT, "contract_cpu needs a host graph");
    const int par = g->nnz >= THREADS_PARALLEL_MIN;
    const int nthreads = par ? threads_available() : 1;
    const size_t nc1 = (nc > 0 ? (size_t)nc : 0) + 1;
    int64_t *gptr = xmalloc(nc1 * sizeof *gptr, "contraction groups", err);
    int64_t *bound = gptr ? xmalloc(nc1 * sizeof *bound, "contraction rows", err) : NULL;
    int32_t *members = bound ? xmalloc((size_t)g->n * sizeof *members, "contraction members", err) : NULL;
    int32_t *col = members ? xmalloc(((size_t)g->nnz + RANK_SPARE) * sizeof *col, "contraction buffer", err) : NULL;
    double *w = col ? xmalloc((size_t)g->nnz * sizeof *w, "contraction buffer", err) : NULL;
    int32_t *len = w ? xmalloc(nc1 * sizeof *len, "contraction rows", err) : NULL;
    int32_t *slot = len ? xmalloc((size_t)nthreads * nc1 * sizeof *slot, "contraction slots", err) : NULL;
    coarsen_graph *h = NULL;
    int rc = slot ? contract_groups(g, cmap, nc, gptr, bound, members, err) : COARSEN_ERR_NOMEM;
    if (rc)
        goto done;
    memset(col + g->nnz, 0, RANK_SPARE * sizeof *col);
    gather_rows(g, cmap, nc, gptr, members, bound, slot, nthreads, col, w, len);
    int64_t cnnz = 0;
    for (int32_t c = 0; c < nc; c++)
        cnnz += len[c];
    if (!(h = coarsen_graph_alloc(nc, cnnz, err))) {
        rc = COARSEN_ERR_NOMEM;
        goto done;
    }
    h->integral_weights = g->integral_weights;
    place_rows(g, gptr, members, bound, col, w, len, slot, nthreads, h);
    /* integer sums are exact, so both directions already agree */
    if (!g->integral_weights)
        rc = mirror_weights(h, err);
done:
    if (rc)
        coarsen_graph_free(h);
    else
        *out = h;
    free(slot);
    free(len);
    free(w);
    free(col);
    free(members);
    free(bound);
    free(gptr);
    return rc;
}
