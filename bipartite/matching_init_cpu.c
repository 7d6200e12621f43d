/* matching_init_cpu.c — cheap initial bipartite matchings: greedy and
 * Karp–Sipser (cardinality.h). Both are deterministic. */
#include "bipartite/cardinality.h"
#include "core/error.h"

#include <stdlib.h>
#include <string.h>

int64_t bip_matching_size(int32_t cols, const int32_t *col_match)
{
    int64_t n = 0;
    for (int32_t c = 0; c < cols; c++)
        n += col_match[c] >= 0;
    return n;
}

static void greedy(const bip_graph *g, int32_t *row_match, int32_t *col_match)
{
    for (int32_t c = 0; c < g->cols; c++)
        for (int64_t e = g->cptr[c]; e < g->cptr[c + 1]; e++)
            if (row_match[g->cind[e]] == -1) {
                row_match[g->cind[e]] = c;
                col_match[c] = g->cind[e];
                break;
            }
}

/* Karp–Sipser state: deg[v] counts the free neighbours of free vertex v;
 * vertices are rows 0..rows-1 and columns rows..rows+cols-1; stack holds
 * vertices whose degree dropped to one (possibly stale). */
typedef struct ks_state {
    const bip_graph *g;
    int32_t *row_match, *col_match;
    int32_t *deg;
    int64_t *stack;
    int64_t top;
} ks_state;

static void ks_drop(ks_state *s, int64_t v)
{
    if (--s->deg[v] == 1)
        s->stack[s->top++] = v;
}

static void ks_match(ks_state *s, int32_t r, int32_t c)
{
    const bip_graph *g = s->g;
    s->row_match[r] = c;
    s->col_match[c] = r;
    for (int64_t e = g->rptr[r]; e < g->rptr[r + 1]; e++)
        if (s->col_match[g->rind[e]] == -1)
            ks_drop(s, (int64_t)g->rows + g->rind[e]);
    for (int64_t e = g->cptr[c]; e < g->cptr[c + 1]; e++)
        if (s->row_match[g->cind[e]] == -1)
            ks_drop(s, g->cind[e]);
}

static int karp_sipser(const bip_graph *g, int32_t *row_match, int32_t *col_match, coarsen_error *err)
{
    int64_t nv = (int64_t)g->rows + g->cols;
    ks_state s = {g, row_match, col_match, NULL, NULL, 0};
    s.deg = xmalloc((size_t)nv * sizeof *s.deg, "Karp-Sipser degrees", err);
    s.stack = xmalloc((size_t)(g->nnz * 2 + nv) * sizeof *s.stack, "Karp-Sipser stack", err);
    if (!s.deg || !s.stack) {
        free(s.deg);
        free(s.stack);
        return COARSEN_ERR_NOMEM;
    }
    for (int32_t r = 0; r < g->rows; r++)
        s.deg[r] = (int32_t)(g->rptr[r + 1] - g->rptr[r]);
    for (int32_t c = 0; c < g->cols; c++)
        s.deg[g->rows + c] = (int32_t)(g->cptr[c + 1] - g->cptr[c]);
    for (int64_t v = nv - 1; v >= 0; v--)
        if (s.deg[v] == 1)
            s.stack[s.top++] = v;
    int32_t next = 0; /* first column that may still be free with free neighbours */
    for (;;) {
        while (s.top > 0) {
            int64_t v = s.stack[--s.top];
            if (s.deg[v] != 1)
                continue;
            if (v < g->rows) {
                int32_t r = (int32_t)v;
                if (row_match[r] != -1)
                    continue;
                for (int64_t e = g->rptr[r]; e < g->rptr[r + 1]; e++)
                    if (col_match[g->rind[e]] == -1) {
                        ks_match(&s, r, g->rind[e]);
                        break;
                    }
            } else {
                int32_t c = (int32_t)(v - g->rows);
                if (col_match[c] != -1)
                    continue;
                for (int64_t e = g->cptr[c]; e < g->cptr[c + 1]; e++)
                    if (row_match[g->cind[e]] == -1) {
                        ks_match(&s, g->cind[e], c);
                        break;
                    }
            }
        }
        while (next < g->cols && (col_match[next] != -1 || s.deg[g->rows + next] == 0))
            next++;
        if (next == g->cols)
            break;
        int32_t best = -1;
        for (int64_t e = g->cptr[next]; e < g->cptr[next + 1]; e++) {
            int32_t r = g->cind[e];
            if (row_match[r] == -1 && (best == -1 || s.deg[r] < s.deg[best]))
                best = r;
        }
        ks_match(&s, best, next);
    }
    free(s.deg);
    free(s.stack);
    return COARSEN_OK;
}

bip_init bip_default_init(int use_gpu)
{
    return use_gpu ? BIP_INIT_NONE : BIP_INIT_KARP_SIPSER;
}

static const char *const init_names[] = {"none", "greedy", "ks"};

int bip_init_from_name(const char *name, bip_init *init)
{
    for (int i = 0; i < 3; i++)
        if (!strcmp(name, init_names[i])) {
            *init = (bip_init)i;
            return 0;
        }
    return -1;
}

const char *bip_init_name(bip_init init)
{
    return (unsigned)init < 3 ? init_names[init] : "?";
}

int bip_initial_matching(const bip_graph *g, bip_init init, int32_t *row_match, int32_t *col_match,
                         coarsen_error *err)
{
    for (int32_t r = 0; r < g->rows; r++)
        row_match[r] = -1;
    for (int32_t c = 0; c < g->cols; c++)
        col_match[c] = -1;
    if (init == BIP_INIT_GREEDY)
        greedy(g, row_match, col_match);
    else if (init == BIP_INIT_KARP_SIPSER)
        return karp_sipser(g, row_match, col_match, err);
    return COARSEN_OK;
}
