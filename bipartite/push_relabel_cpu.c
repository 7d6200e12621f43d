/* push_relabel_cpu.c — sequential FIFO push-relabel for maximum-cardinality
 * bipartite matching (cardinality.h), the reference of the GPU G-PR: the same
 * push rule (an active column takes its neighbour row of least label; the
 * column's label becomes that label + 1 and the row's + 2), with exact
 * global relabelling by BFS from the free rows. */
#include "bipartite/cardinality.h"
#include "core/error.h"

#include <stdlib.h>

/* Row labels = alternating BFS distance from the free rows (lim when none);
 * returns the deepest level reached. */
static int64_t global_relabel(const bip_graph *g, const int32_t *row_match, const int32_t *col_match,
                              int64_t *psi, int64_t lim, int32_t *queue)
{
    int32_t head = 0, tail = 0;
    int64_t level = 0;
    for (int32_t r = 0; r < g->rows; r++) {
        psi[r] = lim;
        if (row_match[r] == -1) {
            psi[r] = 0;
            queue[tail++] = r;
        }
    }
    while (head < tail) {
        int32_t r = queue[head++];
        level = psi[r];
        for (int64_t e = g->rptr[r]; e < g->rptr[r + 1]; e++) {
            int32_t r2 = col_match[g->rind[e]];
            if (r2 >= 0 && psi[r2] == lim) {
                psi[r2] = psi[r] + 2;
                queue[tail++] = r2;
            }
        }
    }
    return level;
}

int bip_push_relabel_cpu(const bip_graph *g, const bip_pr_opts *opts, int32_t *row_match, int32_t *col_match,
                         bip_pr_stats *stats, coarsen_error *err)
{
    bip_pr_stats local = {0};
    bip_pr_stats *st = stats ? stats : &local;
    *st = (bip_pr_stats){0};
    double k = opts && opts->relabel_k > 0 ? opts->relabel_k : 0.7;
    int64_t lim = (int64_t)g->rows + g->cols + 1;
    int64_t freq = (int64_t)(k * (double)lim) + 1;
    int64_t *psi = xmalloc(((size_t)g->rows + 1) * sizeof *psi, "row labels", err);
    int32_t *queue = xmalloc(((size_t)g->rows + 1) * sizeof *queue, "relabel queue", err);
    /* FIFO of active columns: a ring of cols + 1 slots (each column at most once). */
    int32_t *fifo = xmalloc(((size_t)g->cols + 1) * sizeof *fifo, "active columns", err);
    if (!psi || !queue || !fifo) {
        free(psi);
        free(queue);
        free(fifo);
        return COARSEN_ERR_NOMEM;
    }
    int64_t cap = (int64_t)g->cols + 1, head = 0, tail = 0;
    for (int32_t c = 0; c < g->cols; c++)
        if (col_match[c] == -1 && g->cptr[c + 1] > g->cptr[c])
            fifo[tail++] = c;
    st->max_level = global_relabel(g, row_match, col_match, psi, lim, queue);
    st->global_relabels = 1;
    int64_t since = 0;
    while (head != tail) {
        int32_t u = fifo[head];
        head = head + 1 == cap ? 0 : head + 1;
        int32_t v = -1;
        int64_t best = lim;
        for (int64_t e = g->cptr[u]; e < g->cptr[u + 1]; e++)
            if (psi[g->cind[e]] < best) {
                best = psi[g->cind[e]];
                v = g->cind[e];
            }
        if (v == -1)
            continue; /* no augmenting path from u: labels are lower bounds on distances */
        int32_t w = row_match[v];
        row_match[v] = u;
        col_match[u] = v;
        psi[v] = best + 2;
        if (w >= 0) {
            col_match[w] = -1;
            fifo[tail] = w;
            tail = tail + 1 == cap ? 0 : tail + 1;
        }
        st->pushes++;
        if (++since >= freq) {
            since = 0;
            int64_t level = global_relabel(g, row_match, col_match, psi, lim, queue);
            if (level > st->max_level)
                st->max_level = level;
            st->global_relabels++;
        }
    }
    free(psi);
    free(queue);
    free(fifo);
    return COARSEN_OK;
}
