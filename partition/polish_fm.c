/* polish_fm.c — the sequential boundary FM polish run on the host after the
 * label-propagation rounds of a level, by both backends (so CPU and GPU
 * return the same partition): Fiduccia-Mattheyses passes over the boundary
 * vertices with rollback to the best prefix (partition/partition.h states
 * the rules). Its memory and work are proportional to the boundary and the
 * neighbourhoods of the moves, never to the whole graph (per-vertex state
 * lives in a hash table), once the boundary is known. A move is evaluated
 * from the vertex's connectivity list (conn_lists.h). On integer weights the
 * list is updated as neighbours move (the same figures as summing the row
 * again); a pass's rollback leaves the lists as they are, out of date, to be
 * built again where next needed. On real weights only a sum of the row in
 * CSR order gives the figures of partition_best_move (updates round
 * differently), so the updated list is only an estimate, and a vertex of a
 * long row that has a current list (whose neighbour moved, or a candidate at
 * a pass's start) enters the heap lazily: with its estimated gain widened by
 * a bound of the rounding. Its row is summed again only when that entry
 * reaches the top of the heap, where its exact gain at the time of the push
 * (the part weights of that time, from their history) replaces it. An exact
 * entry popped is then at least every other entry's exact gain, so the pops
 * of exact entries, hence the moves, are those of evaluating every push at
 * once. */
#include "partition/partition.h"

#include <float.h>
#include <stdlib.h>
#include <string.h>

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
 * hash table (linear probing, at most half full): where its heap entry is
 * (it has at most one), locked (moved in this pass), listed (among the candidates),
 * its connectivity list and when it was built, and on real weights whether
 * the list is current, the updates since and its row's weight sum. A vertex
 * absent from the table has no heap entry, every flag clear and no list.
 * Pointers into the table are valid until the next vstate_get. */
typedef struct vstate {
    int32_t v;
    int32_t hpos;          /* 1 + the index of v's heap entry; 0: none */
    unsigned char locked, listed;
    unsigned char fresh;   /* real weights: the list is the CSR-order sums of the current parts */
    int32_t updates;       /* real weights: neighbour moves the list was updated by since */
    int32_t epoch;         /* fm.epoch when the list was built: it holds while they are equal */
    double mag;            /* real weights: the row's weight sum, the scale of the rounding */
    conn_ref conn;
} vstate;
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

typedef struct heap heap;
static void heap_reslot(heap *h, const vtable *t);

/* v's state, absent from t, entered (the table grown first when it would be
 * more than half full); NULL (err filled) when out of memory. The heap h
 * refers to the table's slots: it follows when the table grows. Out of line:
 * vstate_get, on every neighbour of every move, stays small. */
static __attribute__((noinline)) vstate *vstate_enter(vtable *t, heap *h, int32_t v, coarsen_error *err)
{
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
        heap_reslot(h, t);
    }
    size_t i = slot_of(v, t);
    while (t->s[i].v >= 0)
        i = (i + 1) & (t->cap - 1);
    t->s[i] = (vstate){.v = v};
    t->used++;
    return &t->s[i];
}

/* v's state, entered when absent (vstate_enter); NULL (err filled) when out
 * of memory. */
static vstate *vstate_get(vtable *t, heap *h, int32_t v, coarsen_error *err)
{
    vstate *s = vstate_find(t, v);
    return s ? s : vstate_enter(t, h, v, err);
}

/* A binary max-heap of (gain, vertex), ties to the lower vertex id, with at
 * most one entry per vertex, which a new push for the vertex replaces (its
 * vstate's hpos says where it is; slot: where that vstate is in the table).
 * The order is total, so the pops depend only on the entries, not on the
 * order of the pushes. at < 0: gain is exact; at >= 0: gain is at least the
 * vertex's gain after the pass's first `at` moves. */
typedef struct entry { double gain; int32_t v; int32_t at; size_t slot; } entry;
struct heap { entry *e; size_t n, cap; };

static int above(const entry *a, const entry *b)
{
    return a->gain > b->gain || (a->gain == b->gain && a->v < b->v);
}

/* Puts x at index i of h and records it in its vstate. */
static void heap_place(heap *h, vtable *t, size_t i, entry x)
{
    h->e[i] = x;
    t->s[x.slot].hpos = (int32_t)i + 1;
}

/* Moves x, meant for index i, up or down to its place. */
static void heap_sift(heap *h, vtable *t, size_t i, entry x)
{
    while (i > 0 && above(&x, &h->e[(i - 1) / 2])) {
        heap_place(h, t, i, h->e[(i - 1) / 2]);
        i = (i - 1) / 2;
    }
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= h->n)
            break;
        if (c + 1 < h->n && above(&h->e[c + 1], &h->e[c]))
            c++;
        if (!above(&h->e[c], &x))
            break;
        heap_place(h, t, i, h->e[c]);
        i = c;
    }
    heap_place(h, t, i, x);
}

/* Removes the entry at index i. */
static void heap_remove_at(heap *h, vtable *t, size_t i)
{
    t->s[h->e[i].slot].hpos = 0;
    entry last = h->e[--h->n];
    if (i < h->n)
        heap_sift(h, t, i, last);
}

/* x becomes its vertex's entry (s: the vertex's state, at x.slot), in place
 * of the one it had. */
static int heap_push(heap *h, vtable *t, const vstate *s, entry x, coarsen_error *err)
{
    if (s->hpos) {
        heap_sift(h, t, (size_t)s->hpos - 1, x);
        return 0;
    }
    if (refine_reserve((void **)&h->e, h->n + 1, &h->cap, sizeof *h->e, err))
        return COARSEN_ERR_NOMEM;
    heap_sift(h, t, h->n++, x);
    return 0;
}

static entry heap_pop(heap *h, vtable *t)
{
    entry top = h->e[0];
    heap_remove_at(h, t, 0);
    return top;
}

/* The slots of the entries' vstates, after the table t moved them. */
static void heap_reslot(heap *h, const vtable *t)
{
    for (size_t i = 0; i < h->n; i++)
        h->e[i].slot = (size_t)(vstate_find(t, h->e[i].v) - t->s);
}

/* Empties h. */
static void heap_clear(heap *h, vtable *t)
{
    for (size_t i = 0; i < h->n; i++)
        t->s[h->e[i].slot].hpos = 0;
    h->n = 0;
}

/* A part's weight after the pass's m-th move. */
typedef struct wrec { int32_t m; int64_t w; } wrec;
typedef struct whist { wrec *a; size_t n, cap; } whist;

typedef struct fm {
    const coarsen_graph *g;
    int32_t k;
    int64_t cap;
    int32_t *part;
    int64_t *w;       /* part weights */
    vtable t;
    heap h;
    ivec cand;        /* the vertices a pass starts from, no repeats */
    ivec log;         /* the moves of the pass: (vertex, part it left) pairs */
    conn_pool pool;
    int real;         /* real weights: lists summed anew, lazy pushes */
    int32_t nmoves;   /* moves of the pass so far */
    int32_t epoch;    /* rollbacks that undid moves so far: each puts every list out of date */
    int64_t *w0;      /* real weights, k: the part weights at the start of the pass */
    whist *hist;      /* real weights, k: each part's weight after each move of the pass changing it */
    int64_t *wt;      /* real weights, k: scratch, part weights of another time */
} fm;

/* Part b's weight after the pass's first m moves. */
static int64_t weight_at(const fm *f, int32_t b, int32_t m)
{
    const whist *h = &f->hist[b];
    if (h->n == 0 || h->a[0].m > m)
        return f->w0[b];
    size_t lo = 0, hi = h->n; /* the last record of a move <= m lies in [lo, hi) */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (h->a[mid].m <= m)
            lo = mid;
        else
            hi = mid;
    }
    return h->a[lo].w;
}

/* Real weights: how far v's estimated gain (its updated list) may lie below
 * the gain partition_best_move would give: the rounding of the CSR-order
 * sums (at most deg units of the last place of mag each), of the updates and
 * of the differences, twice over. */
static double estimate_margin(const fm *f, int32_t v, const vstate *s)
{
    int64_t deg = f->g->xadj[v + 1] - f->g->xadj[v];
    return (double)(4 * (deg + s->updates) + 16) * DBL_EPSILON * s->mag;
}

#define POLISH_LAZY_DEGREE 16

/* Real weights: whether v enters the heap lazily (its list updated as an
 * estimate) rather than by summing its row at once: rows longer than
 * POLISH_LAZY_DEGREE, where a sum costs more than updating the list (fewer
 * instructions in the shared graphs' runs; the moves are the same either way). */
static int lazy_row(const fm *f, int32_t v)
{
    return f->real && f->g->xadj[v + 1] - f->g->xadj[v] > POLISH_LAZY_DEGREE;
}

/* Whether the list of the vertex of state s holds for the current parts:
 * built since the last rollback, and so updated by every move since. */
static int list_current(const fm *f, const vstate *s)
{
    return s->conn.built && s->epoch == f->epoch;
}

/* v's best admissible move (*dest, -1 when none) and its gain, with the part
 * weights after the pass's first `at` moves (at < 0: now); s is v's state. */
static int evaluate(fm *f, int32_t v, vstate *s, int32_t at, int32_t *dest, double *gain, coarsen_error *err)
{
    if (!list_current(f, s) || (f->real && !s->fresh)) {
        if (conn_build(&f->pool, f->g, f->part, v, &s->conn, err))
            return COARSEN_ERR_NOMEM;
        s->epoch = f->epoch;
        if (f->real) {
            const conn_entry *e = f->pool.e + s->conn.off;
            s->fresh = 1;
            s->updates = 0;
            s->mag = 0;
            for (int32_t j = 0; j < s->conn.len; j++)
                s->mag += e[j].conn;
        }
    }
    const int64_t *w = f->w;
    if (at >= 0) {
        const conn_entry *e = f->pool.e + s->conn.off;
        for (int32_t j = 0; j < s->conn.len; j++)
            f->wt[e[j].part] = weight_at(f, e[j].part, at);
        w = f->wt;
    }
    *gain = conn_best(&f->pool, &s->conn, f->part[v], f->g->vwgt[v], w, f->cap, dest);
    return 0;
}

/* (Re)enters v in the heap with its best admissible move's gain; lazy (after
 * a neighbour's move, or at a pass's start): with a bound of it from its
 * updated list when v has one and a long row on real weights. */
static int push_vertex(fm *f, int32_t v, vstate *s, int lazy, coarsen_error *err)
{
    int32_t dest, at = -1;
    double gain;
    if (lazy && list_current(f, s) && lazy_row(f, v)) { /* the same admissible parts: the lists count edges exactly */
        gain = conn_best(&f->pool, &s->conn, f->part[v], f->g->vwgt[v], f->w, f->cap, &dest);
        gain += estimate_margin(f, v, s);
        at = f->nmoves;
    } else if (evaluate(f, v, s, -1, &dest, &gain, err)) {
        return COARSEN_ERR_NOMEM;
    }
    if (dest < 0) { /* no admissible move: no entry */
        if (s->hpos)
            heap_remove_at(&f->h, &f->t, (size_t)s->hpos - 1);
        return 0;
    }
    return heap_push(&f->h, &f->t, s, (entry){gain, v, at, (size_t)(s - f->t.s)}, err);
}

static int add_candidate(fm *f, int32_t v, coarsen_error *err)
{
    vstate *s = vstate_get(&f->t, &f->h, v, err);
    if (!s)
        return COARSEN_ERR_NOMEM;
    if (s->listed)
        return 0;
    s->listed = 1;
    return ivec_push(&f->cand, v, err);
}

/* v to part to: the part array and the part weights. */
static void place(fm *f, int32_t v, int32_t to)
{
    f->w[f->part[v]] -= f->g->vwgt[v];
    f->w[to] += f->g->vwgt[v];
    f->part[v] = to;
}

/* Moves v to part to (place), updates the current lists of its neighbours
 * (on real weights an estimate from now on), then (re)enters each neighbour
 * not locked in the heap (lazily), its list complete. */
static int move(fm *f, int32_t v, int32_t to, coarsen_error *err)
{
    const coarsen_graph *g = f->g;
    int32_t from = f->part[v];
    place(f, v, to);
    for (int64_t i = g->xadj[v]; i < g->xadj[v + 1]; i++) {
        int32_t u = g->adj[i];
        vstate *n = vstate_get(&f->t, &f->h, u, err);
        if (!n)
            return COARSEN_ERR_NOMEM;
        if (list_current(f, n) && (!f->real || lazy_row(f, u))) {
            conn_shift(&f->pool, &n->conn, from, to, g->ewgt[i]);
            n->updates++;
        }
        n->fresh = 0;
        if (!n->locked && push_vertex(f, u, n, 1, err))
            return COARSEN_ERR_NOMEM;
    }
    return 0;
}

/* Real weights: the part weights after the pass's move m (just made) into
 * the history. */
static int record_weights(fm *f, int32_t from, int32_t to, coarsen_error *err)
{
    int32_t p[2] = {from, to};
    for (int j = 0; j < 2; j++) {
        whist *h = &f->hist[p[j]];
        if (refine_reserve((void **)&h->a, h->n + 1, &h->cap, sizeof *h->a, err))
            return COARSEN_ERR_NOMEM;
        h->a[h->n++] = (wrec){f->nmoves, f->w[p[j]]};
    }
    return 0;
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
    size_t best_len = 0;
    double cum = 0, best = 0;
    heap_clear(&f->h, &f->t);
    f->log.n = 0;
    f->nmoves = 0;
    if (f->real) {
        memcpy(f->w0, f->w, (size_t)f->k * sizeof *f->w0);
        for (int32_t p = 0; p < f->k; p++)
            f->hist[p].n = 0;
    }
    for (size_t c = 0; c < f->cand.n && !rc; c++)
        rc = push_vertex(f, f->cand.a[c], vstate_find(&f->t, f->cand.a[c]), 1, err);
    while (!rc && f->h.n > 0 && (size_t)f->nmoves - best_len < PARTITION_POLISH_STALL) {
        entry e = heap_pop(&f->h, &f->t); /* never a locked vertex's: moves push no locked one */
        int32_t v = e.v, dest;
        vstate *s = &f->t.s[e.slot];
        double gain;
        if ((rc = evaluate(f, v, s, e.at, &dest, &gain, err)))
            break;
        if (dest < 0)
            continue;
        if (e.at >= 0 || gain != e.gain) { /* a bound, replaced by the exact gain of the push; or a part's
                                              weight changed v's admissible moves */
            rc = heap_push(&f->h, &f->t, s, (entry){gain, v, -1, e.slot}, err);
            continue;
        }
        s->locked = 1;
        if ((rc = ivec_push(&f->log, v, err)) || (rc = ivec_push(&f->log, f->part[v], err)))
            break;
        int32_t from = f->part[v];
        f->nmoves++;
        if ((rc = move(f, v, dest, err)) || (f->real && (rc = record_weights(f, from, dest, err))))
            break;
        cum += gain;
        if (cum > best + tol) {
            best = cum;
            best_len = (size_t)f->nmoves;
        }
    }
    /* the rollback: parts and weights only, and every list out of date (most
     * of a pass's moves are undone: updating the lists they touch cost more
     * than building again those needed later) */
    for (size_t m = (size_t)f->nmoves; m-- > 0;) {
        int32_t v = f->log.a[2 * m];
        vstate_find(&f->t, v)->locked = 0;
        if (m >= best_len)
            place(f, v, f->log.a[2 * m + 1]);
    }
    if ((size_t)f->nmoves > best_len)
        f->epoch++;
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
    fm f = {.g = g, .k = k, .cap = cap, .part = part, .w = weights, .real = !g->integral_weights};
    size_t slots = 16; /* 4096, or room for every vertex of a smaller graph: at most half full, never grown */
    while (slots < 4096 && slots < 2 * (size_t)g->n)
        slots *= 2;
    int rc = vtable_init(&f.t, slots, err);
    if (!rc)
        rc = conn_pool_init(&f.pool, k, err);
    if (!rc && f.real) {
        f.w0 = xmalloc((size_t)k * sizeof *f.w0, "FM part weights", err);
        f.wt = xmalloc((size_t)k * sizeof *f.wt, "FM part weights", err);
        f.hist = xcalloc((size_t)k, sizeof *f.hist, "FM part weight history", err);
        rc = !f.w0 || !f.wt || !f.hist ? COARSEN_ERR_NOMEM : 0;
    }
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
    for (int32_t p = 0; p < k && f.hist; p++)
        free(f.hist[p].a);
    free(f.hist);
    free(f.w0);
    free(f.wt);
    conn_pool_free(&f.pool);
    free(f.t.s);
    free(f.h.e);
    free(f.cand.a);
    free(f.log.a);
    return rc;
}
