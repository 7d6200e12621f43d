/* contract_cpu.c — the host reference contraction (contract.h). Each coarse
 * row is built independently (OpenMP over coarse rows), in the fixed order of
 * contract.h: members in increasing fine id, each member's row in stored
 * order, internal edges dropped, weights of one coarse neighbour summed left
 * to right in that order, then the row sorted by neighbour while it is still
 * in cache (coarse_row_sort); for real weights, the entry
 * (c, b) with b < c then copies the weight of (b, c). The result does not
 * depend on the thread count. */
#include "contract/contract.h"
#include "core/error.h"
#include "core/graph_build.h"
#include "core/threads.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

/* Sorts row r[0..len) of a coarse graph by neighbour; 0, or -1 when
 * graph_row_sort's scratch cannot be allocated. The neighbours of a coarse
 * row are distinct (rev is 0 throughout), so short rows need no tie-break:
 * an insertion sort on the neighbour alone; long ones go to graph_row_sort
 * (insertion-sorted runs, merged). */
static int coarse_row_sort(graph_entry *r, int32_t len)
{
    if (len > 32)
        return graph_row_sort(r, len);
    for (int32_t a = 1; a < len; a++) {
        graph_entry x = r[a];
        int32_t b = a - 1;
        for (; b >= 0 && r[b].col > x.col; b--)
            r[b + 1] = r[b];
        r[b + 1] = x;
    }
    return 0;
}

/* Groups of cmap as a CSR: members[gptr[c], gptr[c+1]) are c's fine vertices
 * in increasing id. Fails unless cmap maps onto [0, nc). */
static int contract_groups(int32_t n, const int32_t *cmap, int32_t nc, int64_t *gptr, int32_t *members,
                        coarsen_error *err)
{
    if (nc < 0 || nc > n || (n > 0 && nc == 0))
        return error_set(err, COARSEN_ERR_INPUT, "contract: %d coarse vertices for %d fine ones", nc, n);
    memset(gptr, 0, ((size_t)nc + 1) * sizeof *gptr);
    for (int32_t v = 0; v < n; v++) {
        if (cmap[v] < 0 || cmap[v] >= nc)
            return error_set(err, COARSEN_ERR_INPUT, "contract: cmap[%d] = %d outside [0, %d)", v, cmap[v], nc);
        gptr[cmap[v] + 1]++;
    }
    for (int32_t c = 0; c < nc; c++) {
        if (gptr[c + 1] == 0)
            return error_set(err, COARSEN_ERR_INPUT, "contract: coarse vertex %d has no fine member", c);
        gptr[c + 1] += gptr[c];
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

int contract_cpu(const coarsen_graph *g, const int32_t *cmap, int32_t nc, coarsen_graph **out,
                 coarsen_error *err)
{
    *out = NULL;
    if (g->on_device)
        return error_set(err, COARSEN_ERR_INPUT, "contract_cpu needs a host graph");
    int32_t n = g->n;
    int64_t *gptr = xmalloc(((size_t)nc + 1) * sizeof *gptr, "contraction groups", err);
    int32_t *members = gptr ? xmalloc((size_t)n * sizeof *members, "contraction members", err) : NULL;
    int64_t *bound = members ? xmalloc(((size_t)nc + 1) * sizeof *bound, "contraction rows", err) : NULL;
    graph_entry *tmp = bound ? xmalloc((size_t)g->nnz * sizeof *tmp, "contraction buffer", err) : NULL;
    int32_t *len = tmp ? xmalloc(((size_t)nc + 1) * sizeof *len, "contraction rows", err) : NULL;
    int rc = len ? contract_groups(n, cmap, nc, gptr, members, err) : COARSEN_ERR_NOMEM;
    if (rc)
        goto done;

    /* Row c's entries land in tmp[bound[c], bound[c+1]): room for every
     * fine entry of its members, internal ones included. */
    bound[0] = 0;
    for (int32_t c = 0; c < nc; c++) {
        int64_t s = 0;
        for (int64_t i = gptr[c]; i < gptr[c + 1]; i++)
            s += g->xadj[members[i] + 1] - g->xadj[members[i]];
        bound[c + 1] = bound[c] + s;
    }

    const int par = g->nnz >= THREADS_PARALLEL_MIN;
    int nthreads = par ? threads_available() : 1;
    int32_t *slot = xmalloc((size_t)nthreads * ((size_t)nc + 1) * sizeof *slot, "contraction slots", err);
    if (!slot) {
        rc = COARSEN_ERR_NOMEM;
        goto done;
    }
    int failed = 0;
#pragma omp parallel num_threads(nthreads) reduction(|| : failed)
    {
        /* slot[k] = position of coarse neighbour k in the current row, or -1. */
        int32_t *pos = slot + (size_t)omp_get_thread_num() * ((size_t)nc + 1);
        for (int32_t k = 0; k < nc; k++)
            pos[k] = -1;
#pragma omp for schedule(dynamic, 256)
        for (int32_t c = 0; c < nc; c++) {
            graph_entry *row = tmp + bound[c];
            int32_t cnt = 0;
            for (int64_t i = gptr[c]; i < gptr[c + 1]; i++) {
                int32_t u = members[i];
                for (int64_t e = g->xadj[u]; e < g->xadj[u + 1]; e++) {
                    int32_t k = cmap[g->adj[e]];
                    if (k == c)
                        continue;
                    if (pos[k] < 0) {
                        pos[k] = cnt;
                        row[cnt++] = (graph_entry){k, 0, g->ewgt[e]};
                    } else {
                        row[pos[k]].w += g->ewgt[e];
                    }
                }
            }
            for (int32_t j = 0; j < cnt; j++)
                pos[row[j].col] = -1;
            failed |= coarse_row_sort(row, cnt) != 0;
            len[c] = cnt;
        }
    }
    free(slot);
    if (failed) {
        rc = error_nomem(err, "contraction row sort", 0);
        goto done;
    }

    int64_t cnnz = 0;
    for (int32_t c = 0; c < nc; c++)
        cnnz += len[c];
    coarsen_graph *h = coarsen_graph_alloc(nc, cnnz, err);
    if (!h) {
        rc = COARSEN_ERR_NOMEM;
        goto done;
    }
    h->integral_weights = g->integral_weights;
    /* integer sums are exact, so both directions already agree */
    int mirror = !g->integral_weights;
    for (int32_t c = 0; c < nc; c++)
        h->xadj[c + 1] = h->xadj[c] + len[c];
#pragma omp parallel for schedule(dynamic, 256) if (par)
    for (int32_t c = 0; c < nc; c++) {
        int64_t vw = 0;
        for (int64_t i = gptr[c]; i < gptr[c + 1]; i++)
            vw += g->vwgt[members[i]];
        h->vwgt[c] = vw;
        for (int32_t j = 0; j < len[c]; j++) {
            graph_entry x = tmp[bound[c] + j];
            h->adj[h->xadj[c] + j] = x.col;
            h->ewgt[h->xadj[c] + j] = x.w;
        }
    }
    if (mirror) {
        /* Row c's entries (c, b), b < c, come first in c's sorted row; visiting
         * rows b in increasing order fills them in that order from the entries
         * (b, c), c > b, which this pass only reads. */
        int64_t *cursor = xmalloc(((size_t)nc + 1) * sizeof *cursor, "contraction cursors", err);
        if (cursor) {
            memcpy(cursor, h->xadj, ((size_t)nc + 1) * sizeof *cursor);
            for (int32_t b = 0; b < nc; b++)
                for (int64_t e = h->xadj[b]; e < h->xadj[b + 1]; e++)
                    if (h->adj[e] > b)
                        h->ewgt[cursor[h->adj[e]]++] = h->ewgt[e];
            free(cursor);
        } else {
            rc = COARSEN_ERR_NOMEM;
        }
    }
    if (rc) {
        coarsen_graph_free(h);
        goto done;
    }
    *out = h;
done:
    free(len);
    free(tmp);
    free(bound);
    free(members);
    free(gptr);
    return rc;
}
