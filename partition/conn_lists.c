/* conn_lists.c — the per-vertex connectivity lists of the FM polish
 * (conn_lists.h). */
#include "partition/conn_lists.h"

#include <stdlib.h>

#include "core/error.h"
#include "partition/refine_util.h"

int conn_pool_init(conn_pool *p, int32_t k, coarsen_error *err)
{
    *p = (conn_pool){.k = k};
    p->sum = xcalloc((size_t)k, sizeof *p->sum, "FM connectivity sums", err);
    p->edges = xcalloc((size_t)k, sizeof *p->edges, "FM connectivity counts", err);
    p->seen = xmalloc((size_t)k * sizeof *p->seen, "FM adjacent parts", err);
    if (!p->sum || !p->edges || !p->seen) {
        conn_pool_free(p);
        return COARSEN_ERR_NOMEM;
    }
    return 0;
}

void conn_pool_free(conn_pool *p)
{
    free(p->e);
    free(p->sum);
    free(p->edges);
    free(p->seen);
    *p = (conn_pool){0};
}

int conn_build(conn_pool *p, const coarsen_graph *g, const int32_t *part, int32_t v, conn_ref *r,
               coarsen_error *err)
{
    int64_t deg = g->xadj[v + 1] - g->xadj[v];
    int32_t room = deg < p->k ? (int32_t)deg : p->k; /* never more adjacent parts at once */
    size_t off = r->built ? r->off : p->n;           /* built before: its own room again */
    if (!r->built && refine_reserve((void **)&p->e, p->n + (size_t)room, &p->cap, sizeof *p->e, err))
        return COARSEN_ERR_NOMEM;
    int32_t ns = 0;
    for (int64_t i = g->xadj[v]; i < g->xadj[v + 1]; i++) {
        int32_t b = part[g->adj[i]];
        if (p->edges[b]++ == 0)
            p->seen[ns++] = b;
        p->sum[b] += g->ewgt[i];
    }
    if (!r->built)
        p->n += (size_t)room;
    *r = (conn_ref){.off = off, .len = ns, .cap = room, .built = 1};
    for (int32_t j = 0; j < ns; j++) {
        int32_t b = p->seen[j];
        p->e[off + (size_t)j] = (conn_entry){b, p->edges[b], p->sum[b]};
        p->edges[b] = 0;
        p->sum[b] = 0;
    }
    return 0;
}

void conn_shift(conn_pool *p, conn_ref *r, int32_t from, int32_t to, double w)
{
    conn_entry *e = p->e + r->off;
    int32_t jf = -1, jt = -1; /* the entries of from and to (parts are distinct within a list) */
    for (int32_t j = 0; j < r->len; j++) { /* until both are found: tested only when one is */
        int32_t b = e[j].part;
        if (b == from) {
            jf = j;
            if (jt >= 0)
                break;
        } else if (b == to) {
            jt = j;
            if (jf >= 0)
                break;
        }
    }
    if (jf >= 0) {
        e[jf].edges--;
        e[jf].conn -= w;
    }
    if (jt >= 0) {
        e[jt].edges++;
        e[jt].conn += w;
        return;
    }
    int32_t spare = 0; /* the first entry left without edges (from's included), else a new one: len < cap,
                          since at most min(k, degree) parts are adjacent at once */
    while (spare < r->len && e[spare].edges != 0)
        spare++;
    if (spare == r->len)
        r->len++;
    e[spare] = (conn_entry){to, 1, w};
}

double conn_best(const conn_pool *p, const conn_ref *r, int32_t own, int64_t vwgt, const int64_t *weights,
                 int64_t cap, int32_t *best)
{
    const conn_entry *e = p->e + r->off;
    double own_conn = 0, bestc = 0;
    int32_t bp = -1;            /* in a local: *best could alias an entry's part */
    int64_t limit = cap - vwgt; /* weights[b] + vwgt <= cap: one subtraction per list */
    for (int32_t j = 0; j < r->len; j++) {
        if (e[j].edges == 0)
            continue;
        int32_t b = e[j].part;
        if (b == own) {
            own_conn = e[j].conn;
            continue;
        }
        if (weights[b] > limit)
            continue;
        if (bp < 0 || e[j].conn > bestc || (e[j].conn == bestc && b < bp)) {
            bp = b;
            bestc = e[j].conn;
        }
    }
    *best = bp;
    return bp < 0 ? 0 : bestc - own_conn;
}
