/* polish_fm.c — the sequential boundary FM polish run on the host after the
 * label-propagation rounds of a level, by both backends (so CPU and GPU
 * return the same partition): Fiduccia-Mattheyses passes over the boundary
 * vertices with rollback to the best prefix (partition/partition.h states
 * the rules). Its memory and work are proportional to the boundary and the
 * neighbourhoods of the moves, never to the whole graph (per-vertex state
 * lives in a hash table), once the boundary is known. A move is evaluated
 * from the vertex's connectivity list on integer weights (conn_lists.h:
 * updated as neighbours move, the same figures as summing the row again)
 * and by summing its row (partition_best_move) on real weights. */
#include "partition/partition.h"

#include <stdlib.h>

#include "core/error.h"
#include "partition/conn_lists.h"
#include "partition/refine_util.h"

/* A growable array of int32 (candidates, the move log). */
typedef struct ivec { int32_t *a; size_t n, cap; } ivec;

static int ivec_push(ivec *x, int32_t v, coarsen_error *err)
{
    int rc = refine_reserve((void **)&x->a, x->n + 1, &x->cap, sizeof *x->a, err);
    if (!rc)
        x->a[x->n++] = v;
    return rc;
}

/* The state of the vertices the polish has looked at, in an open-addressing
 * hash table (linear probing, at most half full): the stamp of its current
 * heap entry, locked (moved in this pass), listed (among the candidates),
 * its connectivity list (integer weights). A vertex absent from the table
 * has stamp 0, both flags clear and no list. Pointers into the table are
 * valid until the next vstate_get. */
typedef struct vstate { int32_t v; uint32_t stamp; unsigned char locked, listed; conn_ref conn; } vstate;
typedef struct vtable { vstate *s; size_t cap, used; int bits; /* cap = 2^bits */ } vtable;

/* Fibonacci hashing: the top bits of v times 2^64 / golden ratio. */
static size_t slot_of(int32_t v, const vtable *t)
{
    return (size_t)(((uint64_t)(uint32_t)v * 0x9E3779B97F4A7C15ull) >> (64 - t->bits));
}

static vstate *vstate_find(const vtable *t, int32_t v)
{
    for (size_t i = slot_of(v, t);; i = (i + 1) & (t->cap - 1))
        if (t->s[i].v == v || t->s[i].v < 0)
            return t->s[i].v == v ? &t->s[i] : NULL;
}

/* An empty table of cap slots (a power of two, at least 2). */
static int vtable_init(vtable *t, size_t cap, coarsen_error *err)
{
    t->s = xmalloc(cap * sizeof *t->s, "FM vertex states", err);
    if (!t->s)
        return COARSEN_ERR_NOMEM;
    t->cap = cap;
    t->used = 0;
    for (t->bits = 0; ((size_t)1 << t->bits) < cap; t->bits++)
        ;
    for (size_t i = 0; i < cap; i++)
        t->s[i] = (vstate){.v = -1};
    return 0;
}

/* v's state, entered when absent; NULL (err filled) when out of memory. */
static vstate *vstate_get(vtable *t, int32_t v, coarsen_error *err)
{
    vstate *s = vstate_find(t, v);
    if (s)
        return s;
    if (2 * (t->used + 1) > t->cap) {
        vtable big;
        if (vtable_init(&big, 2 * t->cap, err))
            return NULL;
        for (size_t i = 0; i < t->cap; i++)
            if (t->s[i].v >= 0) {
                size_t j = slot_of(t->s[i].v, &big);
                while (big.s[j].v >= 0)
                    j = (j + 1) & (big.cap - 1);
                big.s[j] = t->s[i];
            }
        big.used = t->used;
        free(t->s);
        *t = big;
    }
    size_t i = slot_of(v, t);
    while (t->s[i].v >= 0)
        i = (i + 1) & (t->cap - 1);
    t->s[i] = (vstate){.v = v};
    t->used++;
    return &t->s[i];
}

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
    if (refine_reserve((void **)&h->e, h->n + 1, &h->cap, sizeof *h->e, err))
        return COARSEN_ERR_NOMEM;
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
    int64_t *w;       /* part weights */
    double *conn;     /* k, zero between calls */
    int32_t *touched; /* k */
    vtable t;
    heap h;
    ivec cand;        /* the vertices a pass starts from, no repeats */
    ivec log;         /* the moves of the pass: (vertex, part it left) pairs */
    int lists;        /* integer weights: moves evaluated from connectivity lists */
    conn_pool pool;
} fm;

/* v's best admissible move (*dest, -1 when none) and its gain; s is v's
 * state. */
static int evaluate(fm *f, int32_t v, vstate *s, int32_t *dest, double *gain, coarsen_error *err)
{
    if (!f->lists) {
        *gain = partition_best_move(f->g, f->part, v, f->conn, f->touched, dest, NULL, f->w, f->cap);
        return 0;
    }
    if (!s->conn.built && conn_build(&f->pool, f->g, f->part, v, &s->conn, err))
        return COARSEN_ERR_NOMEM;
    *gain = conn_best(&f->pool, &s->conn, f->part[v], f->g->vwgt[v], f->w, f->cap, dest);
    return 0;
}

/* (Re)enters v in the heap with its best admissible move's gain. */
static int push_vertex(fm *f, int32_t v, coarsen_error *err)
{
    int32_t dest;
    double gain;
    vstate *s = vstate_get(&f->t, v, err);
    if (!s || evaluate(f, v, s, &dest, &gain, err))
        return COARSEN_ERR_NOMEM;
    s->stamp++;
    return dest < 0 ? 0 : heap_push(&f->h, (entry){gain, v, s->stamp}, err);
}

static int add_candidate(fm *f, int32_t v, coarsen_error *err)
{
    vstate *s = vstate_get(&f->t, v, err);
    if (!s)
        return COARSEN_ERR_NOMEM;
    if (s->listed)
        return 0;
    s->listed = 1;
    return ivec_push(&f->cand, v, err);
}

/* Moves v to part to: part weights, and the lists of its neighbours that
 * have one. */
static void move(fm *f, int32_t v, int32_t to)
{
    const coarsen_graph *g = f->g;
    int32_t from = f->part[v];
    f->w[from] -= g->vwgt[v];
    f->w[to] += g->vwgt[v];
    f->part[v] = to;
    for (int64_t i = g->xadj[v]; i < g->xadj[v + 1] && f->lists; i++) {
        vstate *n = vstate_find(&f->t, g->adj[i]);
        if (n && n->conn.built)
            conn_shift(&f->pool, &n->conn, from, to, g->ewgt[i]);
    }
}

/* One FM pass from the candidates: moves the best admissible vertex until
 * PARTITION_POLISH_STALL moves in a row brought no new lowest cut, each
 * vertex at most once, then rolls back to the lowest cut seen (improvement
 * by more than tol). The next pass's candidates are the kept moves and their
 * neighbours. Returns the number of moves kept in *kept. */
static int fm_pass(fm *f, double tol, int32_t *kept, coarsen_error *err)
{
    const coarsen_graph *g = f->g;
    int rc = 0;
    size_t nmoves = 0, best_len = 0;
    double cum = 0, best = 0;
    f->h.n = 0;
    f->log.n = 0;
    for (size_t c = 0; c < f->cand.n && !rc; c++)
        rc = push_vertex(f, f->cand.a[c], err);
    while (!rc && f->h.n > 0 && nmoves - best_len < PARTITION_POLISH_STALL) {
        entry e = heap_pop(&f->h);
        int32_t v = e.v, dest;
        vstate *s = vstate_find(&f->t, v);
        if (e.stamp != s->stamp || s->locked)
            continue;
        double gain;
        if ((rc = evaluate(f, v, s, &dest, &gain, err)))
            break;
        if (dest < 0)
            continue;
        if (gain != e.gain) { /* a part's weight changed its admissible moves */
            s->stamp++;
            rc = heap_push(&f->h, (entry){gain, v, s->stamp}, err);
            continue;
        }
        s->locked = 1;
        if ((rc = ivec_push(&f->log, v, err)) || (rc = ivec_push(&f->log, f->part[v], err)))
            break;
        nmoves++;
        move(f, v, dest);
        cum += gain;
        if (cum > best + tol) {
            best = cum;
            best_len = nmoves;
        }
        for (int64_t i = g->xadj[v]; i < g->xadj[v + 1] && !rc; i++) {
            const vstate *n = vstate_find(&f->t, g->adj[i]);
            if (!n || !n->locked)
                rc = push_vertex(f, g->adj[i], err);
        }
    }
    for (size_t m = nmoves; m-- > 0;) {
        int32_t v = f->log.a[2 * m];
        vstate_find(&f->t, v)->locked = 0;
        if (m >= best_len)
            move(f, v, f->log.a[2 * m + 1]);
    }
    for (size_t c = 0; c < f->cand.n; c++)
        vstate_find(&f->t, f->cand.a[c])->listed = 0;
    f->cand.n = 0;
    for (size_t m = 0; m < best_len && !rc; m++) {
        int32_t v = f->log.a[2 * m];
        rc = add_candidate(f, v, err);
        for (int64_t i = g->xadj[v]; i < g->xadj[v + 1] && !rc; i++)
            rc = add_candidate(f, g->adj[i], err);
    }
    *kept = (int32_t)best_len;
    return rc;
}

int partition_polish_cpu(const coarsen_graph *g, int32_t k, int64_t cap, int32_t *part, int64_t *weights,
                         const int32_t *boundary, int32_t nb, partition_refine_stats *st, coarsen_error *err)
{
    if (k < 2 || g->n == 0)
        return 0;
    fm f = {.g = g, .k = k, .cap = cap, .part = part, .w = weights, .lists = g->integral_weights};
    f.conn = xcalloc((size_t)k, sizeof *f.conn, "connectivity", err);
    f.touched = xmalloc((size_t)k * sizeof *f.touched, "touched parts", err);
    int rc = !f.conn || !f.touched ? COARSEN_ERR_NOMEM : vtable_init(&f.t, 4096, err);
    if (!rc && f.lists)
        rc = conn_pool_init(&f.pool, k, err);
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
    /* the improvement threshold: 10^-9 of the heaviest boundary edge (a
     * maximum, so independent of the boundary's order), far above the
     * rounding of the running gain sums */
    double wmax = 0;
    for (size_t c = 0; c < f.cand.n && !rc; c++)
        for (int64_t i = g->xadj[f.cand.a[c]]; i < g->xadj[f.cand.a[c] + 1]; i++)
            wmax = g->ewgt[i] > wmax ? g->ewgt[i] : wmax;
    double tol = 1e-9 * wmax;
    for (int pass = 0; !rc && pass < PARTITION_POLISH_PASSES; pass++) {
        int32_t kept = 0;
        rc = fm_pass(&f, tol, &kept, err);
        if (st)
            st->polish_moves += kept;
        if (kept == 0)
            break;
    }
    free(f.conn);
    free(f.touched);
    conn_pool_free(&f.pool);
    free(f.t.s);
    free(f.h.e);
    free(f.cand.a);
    free(f.log.a);
    return rc;
}
