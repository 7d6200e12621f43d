/* hopcroft_karp_cpu.c — Hopcroft–Karp maximum-cardinality matching, the CPU
 * reference (cardinality.h): BFS layers from the free columns until the first
 * free row, then vertex-disjoint shortest augmenting paths by an iterative
 * DFS (no recursion: paths can be a million vertices long). */
#include "bipartite/cardinality.h"
#include "core/error.h"

#include <stdlib.h>

#define HK_INF INT32_MAX

/* Layers columns by alternating distance from the free columns; returns the
 * length of the shortest augmenting path (HK_INF when there is none). */
static int32_t hk_bfs(const bip_graph *g, const int32_t *row_match, const int32_t *col_match, int32_t *dist,
                      int32_t *queue)
{
    int32_t head = 0, tail = 0, found = HK_INF;
    for (int32_t c = 0; c < g->cols; c++) {
        dist[c] = HK_INF;
        if (col_match[c] == -1 && g->cptr[c + 1] > g->cptr[c]) {
            dist[c] = 0;
            queue[tail++] = c;
        }
    }
    while (head < tail) {
        int32_t c = queue[head++];
        if (dist[c] + 1 >= found)
            break;
        for (int64_t e = g->cptr[c]; e < g->cptr[c + 1]; e++) {
            int32_t c2 = row_match[g->cind[e]];
            if (c2 == -1) {
                if (found == HK_INF)
                    found = dist[c] + 1;
            } else if (dist[c2] == HK_INF) {
                dist[c2] = dist[c] + 1;
                queue[tail++] = c2;
            }
        }
    }
    return found;
}

/* Searches an augmenting path of length `found` from free column c0 along the
 * layers and flips it; columns that lead nowhere are removed from the layers. */
static void hk_dfs(const bip_graph *g, int32_t *row_match, int32_t *col_match, int32_t *dist, int64_t *it,
                   int32_t *stack, int32_t c0, int32_t found)
{
    int32_t top = 0;
    stack[top++] = c0;
    while (top > 0) {
        int32_t c = stack[top - 1];
        if (it[c] == g->cptr[c + 1]) {
            dist[c] = HK_INF;
            if (--top > 0)
                it[stack[top - 1]]++;
            continue;
        }
        int32_t r = g->cind[it[c]];
        int32_t c2 = row_match[r];
        if (c2 == -1 && dist[c] + 1 == found) {
            for (int32_t k = top - 1; k >= 0; k--) {
                int32_t ck = stack[k], rk = g->cind[it[ck]];
                col_match[ck] = rk;
                row_match[rk] = ck;
            }
            return;
        }
        if (c2 != -1 && dist[c2] == dist[c] + 1 && dist[c2] < found)
            stack[top++] = c2;
        else
            it[c]++;
    }
}

int bip_hopcroft_karp(const bip_graph *g, int32_t *row_match, int32_t *col_match, coarsen_error *err)
{
    int32_t *dist = xmalloc(((size_t)g->cols + 1) * sizeof *dist, "Hopcroft-Karp layers", err);
    int32_t *queue = xmalloc(((size_t)g->cols + 1) * sizeof *queue, "Hopcroft-Karp queue", err);
    int32_t *stack = xmalloc(((size_t)g->cols + 1) * sizeof *stack, "Hopcroft-Karp stack", err);
    int64_t *it = xmalloc(((size_t)g->cols + 1) * sizeof *it, "Hopcroft-Karp cursors", err);
    int rc = dist && queue && stack && it ? COARSEN_OK : COARSEN_ERR_NOMEM;
    while (!rc) {
        int32_t found = hk_bfs(g, row_match, col_match, dist, queue);
        if (found == HK_INF)
            break;
        for (int32_t c = 0; c < g->cols; c++)
            it[c] = g->cptr[c];
        for (int32_t c = 0; c < g->cols; c++)
            if (col_match[c] == -1 && dist[c] == 0)
                hk_dfs(g, row_match, col_match, dist, it, stack, c, found);
    }
    free(dist);
    free(queue);
    free(stack);
    free(it);
    return rc;
}
