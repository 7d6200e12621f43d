/* contract_cpu.c — the host reference contraction (contract.h), in three
 * passes. Groups: one pass over the fine vertices counts each coarse
 * vertex's members and their entries (the room its row may need), and lists
 * the members in increasing fine id. Rows (OpenMP over coarse rows): each
 * coarse row gathers its distinct neighbours, unsorted, in the fixed order of
 * contract.h (members in increasing fine id, each member's row in stored
 * order, internal edges dropped, weights of one coarse neighbour summed left
 * to right in that order) into a scratch of neighbours and weights.
 * Placement (OpenMP over coarse rows, once the row lengths are summed): each
 * row is written sorted by neighbour straight into the coarse graph
 * (coarse_row_place). For real weights the entry (c, b) with b < c then
 * copies the weight of (b, c). The result does not depend on the thread
 * count. */
#include "contract/contract.h"
#include "core/error.h"
#include "core/graph_build.h"
#include "core/threads.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

/* Rows up to this length are placed by rank; longer ones by graph_row_sort. */
enum { RANK_MAX = 32 };
/* How many coarse rows ahead the rows pass asks for its members' data. */
enum { PREFETCH_ROWS = 8 };

/* Writes row col[0..len), w[0..len) sorted by neighbour into adj, ewgt. The
 * neighbours of a coarse row are distinct, so each entry's place is the
 * number of smaller neighbours (a count the compiler vectorises; no
 * mispredicted branch as in an insertion sort); long rows are sorted in
 * scratch (room for len entries) by graph_row_sort. 0, or -1 when
 * graph_row_sort's own scratch cannot be allocated. */
static int coarse_row_place(const int32_t *col, const double *w, int32_t len, int32_t *adj, double *ewgt,
                            graph_entry *scratch)
{
    if (len <= RANK_MAX) {
        for (int32_t i = 0; i < len; i++) {
            const int32_t x = col[i];
            int32_t r = 0;
            for (int32_t j = 0; j < len; j++)
                r += col[j] < x;
            adj[r] = x;
            ewgt[r] = w[i];
        }
        return 0;
    }
    for (int32_t i = 0; i < len; i++)
        scratch[i] = (graph_entry){col[i], 0, w[i]};
    if (graph_row_sort(scratch, len))
        return -1;
    for (int32_t i = 0; i < len; i++) {
        adj[i] = scratch[i].col;
        ewgt[i] = scratch[i].w;
    }
    return 0;
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
 * into col, w from bound[c] on, unsorted, their count into len[c]. */
static void gather_rows(const coarsen_graph *g, const int32_t *cmap, int32_t nc, const int64_t *gptr,
                        const int32_t *members, const int64_t *bound, int32_t *slot, int nthreads, int32_t *col,
                        double *w, int32_t *len)
{
    const int64_t *xadj = g->xadj;
    const int32_t *adj = g->adj;
    const double *ewgt = g->ewgt;
#pragma omp parallel num_threads(nthreads)
    {
        /* pos[k] = place of coarse neighbour k in the current row, or -1. */
        int32_t *pos = slot + (size_t)omp_get_thread_num() * ((size_t)nc + 1);
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
            int32_t *rc = col + bound[c];
            double *rw = w + bound[c];
            /* Without branches on the data (new neighbour or not, internal
             * or not: both mispredicted half the time): every entry writes
             * its neighbour and -0.0 into the next free slot, cnt, and adds
             * its weight at its neighbour's slot, that one when new (-0.0 +
             * x is x for every x); internal edges (pos[c] = 0, never new)
             * add into `dropped`. */
            int32_t cnt = 0;
            double dropped = 0.0;
            pos[c] = 0;
            for (int64_t i = gptr[c]; i < gptr[c + 1]; i++) {
                const int32_t u = members[i];
                for (int64_t e = xadj[u]; e < xadj[u + 1]; e++) {
                    const int32_t k = cmap[adj[e]], p = pos[k], fresh = p < 0, q = fresh ? cnt : p;
                    pos[k] = q;
                    rc[cnt] = k;
                    rw[cnt] = -0.0;
                    double *sum = k == c ? &dropped : rw + q;
                    *sum += ewgt[e];
                    cnt += fresh;
                }
            }
            pos[c] = -1;
            for (int32_t j = 0; j < cnt; j++)
                pos[rc[j]] = -1;
            len[c] = cnt;
        }
    }
}

/* The placement pass: h's vertex weights and rows, each row sorted; h->xadj
 * set. 0, or -1 when a sort's scratch cannot be allocated. */
static int place_rows(const coarsen_graph *g, const int64_t *gptr, const int32_t *members, const int64_t *bound,
                      const int32_t *col, const double *w, const int32_t *len, int par, coarsen_graph *h)
{
    const int32_t nc = h->n;
    int32_t longest = 0;
    for (int32_t c = 0; c < nc; c++) {
        h->xadj[c + 1] = h->xadj[c] + len[c];
        longest = len[c] > longest ? len[c] : longest;
    }
    int failed = 0;
#pragma omp parallel if (par) reduction(|| : failed)
    {
        graph_entry *scratch = longest > RANK_MAX ? malloc((size_t)longest * sizeof *scratch) : NULL;
        failed = longest > RANK_MAX && !scratch;
#pragma omp for schedule(dynamic, 256)
        for (int32_t c = 0; c < nc; c++) {
            int64_t vw = 0;
            for (int64_t i = gptr[c]; i < gptr[c + 1]; i++)
                vw += g->vwgt[members[i]];
            h->vwgt[c] = vw;
            if (!failed)
                failed = coarse_row_place(col + bound[c], w + bound[c], len[c], h->adj + h->xadj[c],
                                          h->ewgt + h->xadj[c], scratch) != 0;
        }
        free(scratch);
    }
    return failed ? -1 : 0;
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
    int32_t *col = members ? xmalloc((size_t)g->nnz * sizeof *col, "contraction buffer", err) : NULL;
    double *w = col ? xmalloc((size_t)g->nnz * sizeof *w, "contraction buffer", err) : NULL;
    int32_t *len = w ? xmalloc(nc1 * sizeof *len, "contraction rows", err) : NULL;
    int32_t *slot = len ? xmalloc((size_t)nthreads * nc1 * sizeof *slot, "contraction slots", err) : NULL;
    coarsen_graph *h = NULL;
    int rc = slot ? contract_groups(g, cmap, nc, gptr, bound, members, err) : COARSEN_ERR_NOMEM;
    if (rc)
        goto done;
    gather_rows(g, cmap, nc, gptr, members, bound, slot, nthreads, col, w, len);
    int64_t cnnz = 0;
    for (int32_t c = 0; c < nc; c++)
        cnnz += len[c];
    if (!(h = coarsen_graph_alloc(nc, cnnz, err))) {
        rc = COARSEN_ERR_NOMEM;
        goto done;
    }
    h->integral_weights = g->integral_weights;
    if (place_rows(g, gptr, members, bound, col, w, len, par, h)) {
        rc = error_nomem(err, "contraction row sort", 0);
        goto done;
    }
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
