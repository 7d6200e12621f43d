/* contract_cpu.c — the host reference contraction (contract.h), in three
 * passes. Groups: one pass over the fine vertices counts each coarse
 * vertex's members and their entries (the room its row may need), and lists
 * the members in increasing fine id. Rows (OpenMP over coarse rows): each
 * coarse row gathers its distinct neighbours, unsorted, in the fixed order of
 * contract.h (members in increasing fine id, each member's row in stored
 * order, internal edges dropped, weights of one coarse neighbour summed left
 * to right in that order) into a scratch of neighbours and weights.
 * Placement (OpenMP over blocks of gathered rows, once the row lengths are
 * summed): the gathered rows transposed into the coarse graph, which sorts
 * every row (place_rows). For real weights the entry (b, c) with b < c then
 * takes the weight of (c, b), summed in row b. The result does not depend on
 * the thread count. */
#include "contract/contract.h"
#include "core/error.h"
#include "core/threads.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

/* How many coarse rows ahead the rows pass asks for its members' data. */
enum { PREFETCH_ROWS = 8 };

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
            int32_t cnt = 0;
            for (int64_t i = gptr[c]; i < gptr[c + 1]; i++) {
                const int32_t u = members[i];
                for (int64_t e = xadj[u]; e < xadj[u + 1]; e++) {
                    const int32_t k = cmap[adj[e]];
                    if (k == c)
                        continue;
                    const int32_t p = pos[k];
                    if (p < 0) {
                        pos[k] = cnt;
                        rc[cnt] = k;
                        rw[cnt++] = ewgt[e];
                    } else {
                        rw[p] += ewgt[e];
                    }
                }
            }
            for (int32_t j = 0; j < cnt; j++)
                pos[rc[j]] = -1;
            len[c] = cnt;
        }
    }
}

/* The placement pass: h's vertex weights and rows, each row sorted; h->xadj
 * set. The coarse graph is symmetric (k is in row c's gathered neighbours
 * exactly when c is in row k's), so appending k to the rows of its gathered
 * neighbours, for k in increasing order, writes every row sorted: a
 * transpose, one move per entry and no comparison. Thread t of nthreads
 * owns the gathered rows of an equal share of the entries; the entries its
 * rows send to row c go after those of the threads before it (counted
 * first into rel, slot's memory: nthreads x (nc + 1) offsets within a row),
 * so the rows do not depend on the thread count. Entry (c, k) then holds
 * the weight summed in row k, as contract.h wants for k < c. */
static void place_rows(const coarsen_graph *g, const int64_t *gptr, const int32_t *members, const int64_t *bound,
                       const int32_t *col, const double *w, const int32_t *len, int32_t *rel, int nthreads,
                       coarsen_graph *h)
{
    const int32_t nc = h->n;
    int64_t *xadj = h->xadj;
    for (int32_t c = 0; c < nc; c++)
        xadj[c + 1] = xadj[c] + len[c];
#pragma omp parallel num_threads(nthreads)
    {
#ifdef _OPENMP
        const int t = omp_get_thread_num(), nt = omp_get_num_threads();
#else
        const int t = 0, nt = 1; /* a build without OpenMP (the fuzz target) */
#endif
        /* rows [lo, hi): the first rows starting at or after t / nt and
         * (t + 1) / nt of the entries */
        int32_t lo = 0, hi = nc;
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
                for (int32_t j = 0; j < len[k]; j++)
                    mine[col[bound[k] + j]]++;
#pragma omp barrier
#pragma omp for schedule(static)
            for (int32_t c = 0; c < nc; c++) {
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
        for (int32_t k = lo; k < hi; k++) {
            const int32_t *rc = col + bound[k];
            const double *rw = w + bound[k];
            const int32_t l = len[k]; /* read once: the stores below could alias it */
            for (int32_t j = 0; j < l; j++) {
                const int32_t c = rc[j];
                const int64_t p = xadj[c] + mine[c]++;
                adj[p] = k;
                ewgt[p] = rw[j];
            }
        }
#pragma omp for schedule(static)
        for (int32_t c = 0; c < nc; c++) {
            int64_t vw = 0;
            for (int64_t i = gptr[c]; i < gptr[c + 1]; i++)
                vw += g->vwgt[members[i]];
            h->vwgt[c] = vw;
        }
    }
}

/* Real weights: entry (b, c), b < c, holds the weight summed in row c after
 * place_rows and takes that of (c, b), summed in row b. Row b's entries
 * above b follow those below it, and the rows c > b that hold b come in
 * increasing order: visiting rows in increasing order, each row's entries
 * below it fill the upper parts of the rows they name, left to right from
 * cursor[] (where each row's upper part starts, set when the row is
 * visited, before any later row writes to it). */
static int mirror_weights(coarsen_graph *h, coarsen_error *err)
{
    const int32_t nc = h->n;
    int64_t *cursor = xmalloc(((size_t)nc + 1) * sizeof *cursor, "contraction cursors", err);
    if (!cursor)
        return COARSEN_ERR_NOMEM;
    for (int32_t c = 0; c < nc; c++) {
        int64_t e = h->xadj[c];
        for (; e < h->xadj[c + 1] && h->adj[e] < c; e++)
            h->ewgt[cursor[h->adj[e]]++] = h->ewgt[e];
        cursor[c] = e;
    }
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
