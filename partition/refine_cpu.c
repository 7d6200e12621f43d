/* refine_cpu.c — the CPU reference of partition refinement: the rebalancing
 * step (sequential, greedy) and the synchronous label-propagation rounds
 * whose every phase refine.cu ports to the GPU (partition/partition.h states
 * the rules; both sides sum in CSR order so gains are bit-identical). The
 * per-vertex phases of a round (candidates, afterburner, the fixed-point
 * cut) run on all threads: each vertex's figures depend on the round's input
 * only and the cut is an integer sum, so the result does not depend on the
 * thread count. After the first round only the vertices next to a move have
 * their candidate and cut term recomputed; the others' are unchanged. */
#include "partition/partition.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/threads.h"
#include "partition/refine_util.h"

/* partition_best_move: partition/refine_util.h states its contract. */
double partition_best_move(const coarsen_graph *g, const int32_t *part, int32_t v, double *conn, int32_t *touched,
                        int32_t *best, double *own_out, const int64_t *weights, int64_t cap)
{
    int32_t nt = 0, a = part[v];
    for (int64_t i = g->xadj[v]; i < g->xadj[v + 1]; i++) {
        int32_t b = part[g->adj[i]];
        if (conn[b] == 0 && b != a) {
            int seen = 0;
            for (int32_t t = 0; t < nt && !seen; t++)
                seen = touched[t] == b;
            if (!seen)
                touched[nt++] = b;
        }
        conn[b] += g->ewgt[i];
    }
    double own = conn[a], bestc = 0;
    if (own_out)
        *own_out = own;
    *best = -1;
    for (int32_t t = 0; t < nt; t++) {
        int32_t b = touched[t];
        if (weights && weights[b] + g->vwgt[v] > cap)
            continue;
        if (*best < 0 || conn[b] > bestc || (conn[b] == bestc && b < *best)) {
            *best = b;
            bestc = conn[b];
        }
    }
    for (int32_t t = 0; t < nt; t++)
        conn[touched[t]] = 0;
    conn[a] = 0;
    return *best < 0 ? 0 : bestc - own;
}

typedef struct scored { double gain; int32_t v; } scored;

static int by_gain_desc(const void *x, const void *y)
{
    const scored *a = x, *b = y;
    if (a->gain != b->gain)
        return a->gain > b->gain ? -1 : 1;
    return (a->v > b->v) - (a->v < b->v);
}

int partition_rebalance_cpu(const coarsen_graph *g, int32_t k, int64_t cap, int32_t *part,
                            partition_refine_stats *st, coarsen_error *err)
{
    int64_t *w = xcalloc((size_t)k, sizeof *w, "part weights", err);
    double *conn = xcalloc((size_t)k, sizeof *conn, "connectivity", err);
    int32_t *touched = xmalloc((size_t)k * sizeof *touched, "touched parts", err);
    scored *cand = xmalloc(((size_t)g->n + 1) * sizeof *cand, "rebalance candidates", err);
    int rc = 0;
    if (!w || !conn || !touched || !cand) {
        rc = COARSEN_ERR_NOMEM;
        goto done;
    }
    partition_part_weights(g, part, k, w);
    for (;;) {
        int32_t over = -1; /* the part of largest excess (lowest id on ties) */
        for (int32_t p = 0; p < k; p++)
            if (w[p] > cap && (over < 0 || w[p] > w[over]))
                over = p;
        if (over < 0)
            break;
        /* its movable vertices, best gain to an admissible part first */
        int32_t nc = 0;
        for (int32_t v = 0; v < g->n; v++)
            if (part[v] == over && g->vwgt[v] > 0) {
                int32_t b;
                double gain = partition_best_move(g, part, v, conn, touched, &b, NULL, w, cap);
                cand[nc++] = (scored){b < 0 ? -INFINITY : gain, v};
            }
        qsort(cand, (size_t)nc, sizeof *cand, by_gain_desc);
        for (int32_t c = 0; c < nc && w[over] > cap; c++) {
            int32_t v = cand[c].v, b;
            partition_best_move(g, part, v, conn, touched, &b, NULL, w, cap); /* weights moved since scoring */
            if (b < 0) { /* no adjacent part can take v: the lightest can (see the header) */
                b = over == 0 ? 1 : 0;
                for (int32_t p = 0; p < k; p++)
                    if (p != over && w[p] < w[b])
                        b = p;
                if (w[b] + g->vwgt[v] > cap)
                    continue;
            }
            w[over] -= g->vwgt[v];
            w[b] += g->vwgt[v];
            part[v] = b;
            if (st)
                st->rebalance_moves++;
        }
        if (w[over] > cap) { /* only when cap is below the reachable bound */
            rc = error_set(err, COARSEN_ERR_INPUT, "cannot bring part %d (weight %lld) within the cap %lld", over,
                           (long long)w[over], (long long)cap);
            goto done;
        }
    }
done:
    free(w);
    free(conn);
    free(touched);
    free(cand);
    return rc;
}

/* The order of admission: by destination, then gain descending, then id.
 * (qsort has no context argument: sort_dest is set just before.) */
static const int32_t *sort_dest;

static int by_dest_gain(const void *x, const void *y)
{
    const scored *a = x, *b = y;
    int32_t da = sort_dest[a->v], db = sort_dest[b->v];
    if (da != db)
        return da < db ? -1 : 1;
    return by_gain_desc(x, y);
}

/* Keeps, of the moves order[0..nc) (sorted by by_dest_gain), those whose
 * running arrival weight into their destination p, summed over the moves
 * still kept, stays within cap - w[p] + (weight leaving p); repeated until
 * nothing changes, so every part ends within cap when it started there.
 * Clears moved[] of the dropped moves; fills after[] with the part weights
 * after the kept moves; returns their number. out: scratch, k entries. */
static int64_t admit_moves(const coarsen_graph *g, int32_t k, int64_t cap, const int32_t *part,
                           const int32_t *dest, const int64_t *w, const scored *order, int32_t nc,
                           unsigned char *moved, int64_t *out, int64_t *after)
{
    int changed = 1;
    while (changed) {
        changed = 0;
        memset(out, 0, (size_t)k * sizeof *out);
        for (int32_t c = 0; c < nc; c++)
            if (moved[order[c].v])
                out[part[order[c].v]] += g->vwgt[order[c].v];
        int64_t acc = 0;
        for (int32_t c = 0; c < nc; c++) {
            int32_t v = order[c].v, p = dest[v];
            if (c == 0 || dest[order[c - 1].v] != p)
                acc = 0;
            if (!moved[v])
                continue;
            acc += g->vwgt[v];
            if (acc > cap - w[p] + out[p])
                moved[v] = 0, changed = 1;
        }
    }
    int64_t count = 0;
    memcpy(after, w, (size_t)k * sizeof *after);
    for (int32_t c = 0; c < nc; c++) {
        int32_t v = order[c].v;
        if (moved[v]) {
            after[part[v]] -= g->vwgt[v];
            after[dest[v]] += g->vwgt[v];
            count++;
        }
    }
    return count;
}

/* One vertex's afterburner gain: its edges to dest minus its edges to its
 * own part, where each neighbour that is a candidate of higher priority
 * counts in its destination. */
static double afterburner_gain(const coarsen_graph *g, const int32_t *part, const int32_t *dest,
                               const double *gain, int32_t v)
{
    double to_dest = 0, to_own = 0;
    for (int64_t i = g->xadj[v]; i < g->xadj[v + 1]; i++) {
        int32_t u = g->adj[i];
        int first = dest[u] >= 0 && (gain[u] > gain[v] || (gain[u] == gain[v] && u < v));
        int32_t pu = first ? dest[u] : part[u];
        if (pu == dest[v])
            to_dest += g->ewgt[i];
        else if (pu == part[v])
            to_own += g->ewgt[i];
    }
    return to_dest - to_own;
}

/* Adds v to the vertices whose figures the next round recomputes. */
static void mark_dirty(unsigned char *dirty, int32_t *list, int32_t *nd, int32_t v)
{
    if (!dirty[v]) {
        dirty[v] = 1;
        list[(*nd)++] = v;
    }
}

int partition_refine_cpu(const coarsen_graph *g, int32_t k, int64_t cap, int max_rounds, int32_t *part,
                         partition_refine_stats *st, coarsen_error *err)
{
    int32_t n = g->n;
    const int par = g->nnz >= THREADS_PARALLEL_MIN;
    const int nth = par ? threads_available() : 1;
    int32_t *dest = xmalloc(((size_t)n + 1) * sizeof *dest, "refine destinations", err);
    double *gain = xmalloc(((size_t)n + 1) * sizeof *gain, "refine gains", err);
    unsigned char *moved = xmalloc((size_t)n + 1, "refine moves", err);
    int32_t *best_part = xmalloc(((size_t)n + 1) * sizeof *best_part, "best partition", err);
    int64_t *w = xcalloc((size_t)k, sizeof *w, "part weights", err);
    int64_t *after = xcalloc((size_t)k, sizeof *after, "part weights after moves", err);
    int64_t *out = xcalloc((size_t)k, sizeof *out, "leaving weights", err);
    scored *order = xmalloc(((size_t)n + 1) * sizeof *order, "refine move order", err);
    /* per thread: k connectivities (zero between calls) and k touched parts */
    double *conn = xcalloc((size_t)nth * (size_t)k, sizeof *conn, "connectivity", err);
    int32_t *touched = xmalloc((size_t)nth * (size_t)k * sizeof *touched, "touched parts", err);
    int64_t *ext = xmalloc(((size_t)n + 1) * sizeof *ext, "fixed-point cut terms", err);
    unsigned char *dirty = xcalloc((size_t)n + 1, 1, "refine dirty flags", err);
    int32_t *list = xmalloc(((size_t)n + 1) * sizeof *list, "refine dirty list", err);
    int rc = 0;
    if (!dest || !gain || !moved || !best_part || !w || !after || !out || !order || !conn || !touched || !ext ||
        !dirty || !list) {
        rc = COARSEN_ERR_NOMEM;
        goto done;
    }
    double wmax = 0;
#pragma omp parallel for schedule(static) reduction(max : wmax) num_threads(nth)
    for (int64_t i = 0; i < g->nnz; i++)
        if (g->ewgt[i] > wmax)
            wmax = g->ewgt[i];
    const double scale = ldexp(1.0, partition_fixed_shift(wmax, g->nnz));
    /* the cut as partition_cut_fixed, kept term by term: a round changes the
     * terms of the moved vertices and their neighbours only */
    int64_t cut = 0;
#pragma omp parallel for schedule(dynamic, 1024) reduction(+ : cut) num_threads(nth)
    for (int32_t v = 0; v < n; v++)
        cut += ext[v] = partition_vertex_cut_fixed(g, part, v, scale);
    int64_t best = cut;
    memcpy(best_part, part, (size_t)n * sizeof *part);
    partition_part_weights(g, part, k, w);
    /* A vertex's candidate (gain, dest) depends on its own part and its
     * neighbours' only: it is recomputed for the vertices of list[0, nd),
     * every vertex in the first round, then those that moved or have a
     * neighbour that moved in the round before. */
    int32_t nd = n;
    for (int32_t v = 0; v < n; v++)
        list[v] = v;
    for (int round = 0, stale = 0; round < max_rounds && best > 0 && stale < PARTITION_REFINE_PATIENCE; round++) {
#pragma omp parallel num_threads(nth)
        {
            double *c = conn + (size_t)omp_get_thread_num() * (size_t)k;
            int32_t *t = touched + (size_t)omp_get_thread_num() * (size_t)k;
            /* 1. candidates */
#pragma omp for schedule(dynamic, 1024)
            for (int32_t i = 0; i < nd; i++) {
                int32_t v = list[i];
                double own;
                gain[v] = partition_best_move(g, part, v, c, t, &dest[v], &own, NULL, 0);
                if (!(gain[v] >= -PARTITION_REFINE_NEGATIVE_GAIN * own))
                    dest[v] = -1;
            }
            /* 2. afterburner */
#pragma omp for schedule(dynamic, 1024)
            for (int32_t v = 0; v < n; v++)
                moved[v] = dest[v] >= 0 && afterburner_gain(g, part, dest, gain, v) > 0;
        }
        /* 3. balance: admit moves into each part in priority order while it fits */
        int32_t nc = 0;
        for (int32_t v = 0; v < n; v++)
            if (moved[v])
                order[nc++] = (scored){gain[v], v};
        sort_dest = dest;
        qsort(order, (size_t)nc, sizeof *order, by_dest_gain);
        int64_t count = admit_moves(g, k, cap, part, dest, w, order, nc, moved, out, after);
        if (count == 0)
            break;
        /* 4. apply; the vertices whose figures changed; remember the
         * partition of lowest cut */
        nd = 0;
        for (int32_t j = 0; j < nc; j++) {
            int32_t v = order[j].v;
            if (!moved[v])
                continue;
            part[v] = dest[v];
            mark_dirty(dirty, list, &nd, v);
            for (int64_t i = g->xadj[v]; i < g->xadj[v + 1]; i++)
                mark_dirty(dirty, list, &nd, g->adj[i]);
        }
        memcpy(w, after, (size_t)k * sizeof *w);
        if (st) {
            st->rounds++;
            st->moves += count;
        }
        int64_t delta = 0;
#pragma omp parallel for schedule(dynamic, 1024) reduction(+ : delta) num_threads(nth) if (nd >= 1024)
        for (int32_t i = 0; i < nd; i++) {
            int32_t v = list[i];
            int64_t e = partition_vertex_cut_fixed(g, part, v, scale);
            delta += e - ext[v];
            ext[v] = e;
            dirty[v] = 0;
        }
        cut += delta;
        if (cut < best) {
            best = cut;
            memcpy(best_part, part, (size_t)n * sizeof *part);
            stale = 0;
        } else {
            stale++;
        }
    }
    memcpy(part, best_part, (size_t)n * sizeof *part);
done:
    free(dest);
    free(gain);
    free(moved);
    free(best_part);
    free(w);
    free(after);
    free(out);
    free(order);
    free(conn);
    free(touched);
    free(ext);
    free(dirty);
    free(list);
    return rc;
}
