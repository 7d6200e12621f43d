/* polish_fm.c — the sequential boundary FM polish run on the host after the
 * label-propagation rounds of a level, by both backends (so CPU and GPU
 * return the same partition): Fiduccia-Mattheyses passes over the boundary
 * vertices with rollback to the best prefix (partition/partition.h states
 * the rules). Work is proportional to the boundary and its neighbourhood,
 * never to the whole graph, once the boundary is known. */
#include "partition/partition.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "partition/refine_util.h"

/* A binary max-heap of (gain, vertex), ties to the lower vertex id: a total
 * order, so the pops do not depend on the order of the pushes. An entry is
 * current only while its stamp equals the vertex's (later pushes supersede). */
typedef struct entry { double gain; int32_t v; uint32_t stamp; } entry;
typedef struct heap { entry *e; size_t n, cap; } heap;

static int above(const entry *a, const entry *b)
{
    return a->gain > b->gain || (a->gain == b->gain && a->v < b->v);
}

static int heap_push(heap *h, entry x, coarsen_error *err)
{
    if (h->n == h->cap) {
        size_t cap = h->cap ? 2 * h->cap : 1024;
        entry *e = realloc(h->e, cap * sizeof *e);
        if (!e)
            return error_set(err, COARSEN_ERR_NOMEM, "out of memory (FM heap, %zu entries)", cap);
        h->e = e;
        h->cap = cap;
    }
    size_t i = h->n++;
    while (i > 0 && above(&x, &h->e[(i - 1) / 2])) {
        h->e[i] = h->e[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h->e[i] = x;
    return 0;
}

static entry heap_pop(heap *h)
{
    entry top = h->e[0], x = h->e[--h->n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= h->n)
            break;
        if (c + 1 < h->n && above(&h->e[c + 1], &h->e[c]))
            c++;
        if (!above(&h->e[c], &x))
            break;
        h->e[i] = h->e[c];
        i = c;
    }
    if (h->n)
        h->e[i] = x;
    return top;
}

typedef struct fm {
    const coarsen_graph *g;
    int32_t k;
    int64_t cap;
    int32_t *part;
    int64_t *w;            /* part weights */
    double *conn;          /* k, zero between calls */
    int32_t *touched;      /* k */
    uint32_t *stamp;       /* n, the current heap entry of each vertex */
    unsigned char *locked; /* n, moved in this pass */
    unsigned char *mark;   /* n, in the candidate list */
    heap h;
    int32_t *cand, ncand;  /* candidate vertices (a superset of the boundary), no repeats */
    size_t cand_cap;
    int32_t *log_v, *log_from; /* the moves of the pass */
} fm;

/* (Re)enters v in the heap with its best admissible move's gain. */
static int push_vertex(fm *f, int32_t v, coarsen_error *err)
{
    int32_t dest;
    double gain = partition_best_move(f->g, f->part, v, f->conn, f->touched, &dest, NULL, f->w, f->cap);
    f->stamp[v]++;
    return dest < 0 ? 0 : heap_push(&f->h, (entry){gain, v, f->stamp[v]}, err);
}

static int add_candidate(fm *f, int32_t v, coarsen_error *err)
{
    if (f->mark[v])
        return 0;
    if ((size_t)f->ncand == f->cand_cap) {
        size_t cap = f->cand_cap ? 2 * f->cand_cap : 1024;
        int32_t *c = realloc(f->cand, cap * sizeof *c);
        if (!c)
            return error_set(err, COARSEN_ERR_NOMEM, "out of memory (FM candidates, %zu)", cap);
        f->cand = c;
        f->cand_cap = cap;
    }
    f->mark[v] = 1;
    f->cand[f->ncand++] = v;
    return 0;
}

static void move(fm *f, int32_t v, int32_t to)
{
    f->w[f->part[v]] -= f->g->vwgt[v];
    f->w[to] += f->g->vwgt[v];
    f->part[v] = to;
}

/* One FM pass: moves the best admissible vertex until PARTITION_POLISH_STALL
 * moves in a row brought no new lowest cut, each vertex at most once, then
 * rolls back to the lowest cut seen (improvement by more than tol). Returns
 * the number of moves kept in *kept. */
static int fm_pass(fm *f, double tol, int32_t *kept, coarsen_error *err)
{
    const coarsen_graph *g = f->g;
    int rc = 0;
    int32_t nmoves = 0, best_len = 0;
    double cum = 0, best = 0;
    f->h.n = 0;
    for (int32_t c = 0; c < f->ncand && !rc; c++)
        rc = push_vertex(f, f->cand[c], err);
    while (!rc && f->h.n > 0 && nmoves - best_len < PARTITION_POLISH_STALL) {
        entry e = heap_pop(&f->h);
        int32_t v = e.v, dest;
        if (e.stamp != f->stamp[v] || f->locked[v])
            continue;
        double gain = partition_best_move(g, f->part, v, f->conn, f->touched, &dest, NULL, f->w, f->cap);
        if (dest < 0)
            continue;
        if (gain != e.gain) { /* a part's weight changed its admissible moves */
            f->stamp[v]++;
            rc = heap_push(&f->h, (entry){gain, v, f->stamp[v]}, err);
            continue;
        }
        f->log_v[nmoves] = v;
        f->log_from[nmoves++] = f->part[v];
        move(f, v, dest);
        f->locked[v] = 1;
        cum += gain;
        if (cum > best + tol) {
            best = cum;
            best_len = nmoves;
        }
        for (int64_t i = g->xadj[v]; i < g->xadj[v + 1] && !rc; i++)
            if (!f->locked[g->adj[i]])
                rc = push_vertex(f, g->adj[i], err);
    }
    for (int32_t m = nmoves - 1; m >= 0; m--) {
        int32_t v = f->log_v[m];
        f->locked[v] = 0;
        if (m >= best_len)
            move(f, v, f->log_from[m]);
    }
    /* the kept moves' neighbourhoods join the candidates */
    for (int32_t m = 0; m < best_len && !rc; m++) {
        int32_t v = f->log_v[m];
        rc = add_candidate(f, v, err);
        for (int64_t i = g->xadj[v]; i < g->xadj[v + 1] && !rc; i++)
            rc = add_candidate(f, g->adj[i], err);
    }
    *kept = best_len;
    return rc;
}

int partition_polish_cpu(const coarsen_graph *g, int32_t k, int64_t cap, int32_t *part, int64_t *weights,
                         const int32_t *boundary, int32_t nb, partition_refine_stats *st, coarsen_error *err)
{
    if (k < 2 || g->n == 0)
        return 0;
    size_t n1 = (size_t)g->n + 1;
    fm f = {.g = g, .k = k, .cap = cap, .part = part, .w = weights};
    f.conn = xcalloc((size_t)k, sizeof *f.conn, "connectivity", err);
    f.touched = xmalloc((size_t)k * sizeof *f.touched, "touched parts", err);
    f.stamp = xcalloc(n1, sizeof *f.stamp, "FM stamps", err); /* calloc: pages only where touched */
    f.locked = xcalloc(n1, 1, "FM locks", err);
    f.mark = xcalloc(n1, 1, "FM candidates", err);
    f.log_v = xmalloc(n1 * sizeof *f.log_v, "FM moves", err);
    f.log_from = xmalloc(n1 * sizeof *f.log_from, "FM moves", err);
    int rc = 0;
    if (!f.conn || !f.touched || !f.stamp || !f.locked || !f.mark || !f.log_v || !f.log_from) {
        rc = COARSEN_ERR_NOMEM;
        goto done;
    }
    double total = 0;
    if (boundary) {
        for (int32_t b = 0; b < nb && !rc; b++)
            rc = add_candidate(&f, boundary[b], err);
    } else {
        for (int32_t v = 0; v < g->n && !rc; v++)
            for (int64_t i = g->xadj[v]; i < g->xadj[v + 1]; i++)
                if (part[g->adj[i]] != part[v]) {
                    rc = add_candidate(&f, v, err);
                    break;
                }
    }
    /* the improvement threshold from the candidates only: O(boundary) */
    for (int32_t c = 0; c < f.ncand; c++)
        for (int64_t i = g->xadj[f.cand[c]]; i < g->xadj[f.cand[c] + 1]; i++)
            total += g->ewgt[i];
    double tol = 1e-12 * total;
    for (int pass = 0; !rc && pass < PARTITION_POLISH_PASSES; pass++) {
        int32_t kept = 0;
        rc = fm_pass(&f, tol, &kept, err);
        if (st)
            st->polish_moves += kept;
        if (kept == 0)
            break;
    }
done:
    free(f.conn);
    free(f.touched);
    free(f.stamp);
    free(f.locked);
    free(f.mark);
    free(f.log_v);
    free(f.log_from);
    free(f.h.e);
    free(f.cand);
    return rc;
}
