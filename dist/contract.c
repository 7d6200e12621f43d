/* contract.c — the distributed contraction (contract.h): rows to the owners
 * of their coarse vertices, the fixed-order merge there, the real weights'
 * mirror. */
#include "dist/contract.h"

#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/row_find.h"

/* A fine row on its way: coarse id, fine id, vertex weight, entry count. */
typedef struct row_head {
    int64_t c, v, vwgt, len;
} row_head;

/* An entry of a coarse row being merged: neighbour, position in the
 * member-and-stored order (the stable sort's tie), weight. */
typedef struct merge_entry {
    int32_t k;
    int64_t seq;
    double w;
} merge_entry;

static int cmp_merge(const void *a, const void *b)
{
    const merge_entry *x = a, *y = b;
    if (x->k != y->k)
        return (x->k > y->k) - (x->k < y->k);
    return (x->seq > y->seq) - (x->seq < y->seq);
}

/* A mirrored weight: coarse row c, neighbour b < c, weight of (b, c). */
typedef struct mirror_msg {
    int32_t c, b;
    double w;
} mirror_msg;

static void *alloc_or_abort(size_t count, size_t size, const char *what, MPI_Comm comm, coarsen_error *err)
{
    void *p = xmalloc((count ? count : 1) * size, what, err);
    if (!p)
        MPI_Abort(comm, COARSEN_ERR_NOMEM); /* the other ranks wait in a collective (dist.h) */
    return p;
}

static void prefix(const int *count, int *displ, int P)
{
    for (int r = 0, s = 0; r < P; r++)
        displ[r] = s, s += count[r];
}

/* The MPI_Alltoallv of n-element records of a contiguous type made of
 * elem bytes. */
static void alltoallv_bytes(const void *send, const int *sc, const int *sd, void *recv, const int *rc, const int *rd,
                            size_t elem, MPI_Comm comm)
{
    MPI_Datatype t;
    MPI_Type_contiguous((int)elem, MPI_BYTE, &t);
    MPI_Type_commit(&t);
    MPI_Alltoallv(send, sc, sd, t, recv, rc, rd, t, comm);
    MPI_Type_free(&t);
}

/* Sets (c, b)'s weight to w in coarse row c (local index i) of l: b is there,
 * the graph being symmetric. */
static void set_weight(coarsen_graph *l, int32_t i, int32_t b, double w)
{
    l->ewgt[row_find(l->xadj, l->adj, i, b)] = w;
}

/* Real weights: each (b, c), b < c, gives its weight to (c, b). */
static void mirror_weights(dist_graph *o, MPI_Comm comm, coarsen_error *err)
{
    const int P = o->nranks;
    coarsen_graph *l = o->local;
    int *cnt = alloc_or_abort(4 * (size_t)P, sizeof *cnt, "contraction plan", comm, err);
    int *sd = cnt + P, *rcnt = cnt + 2 * P, *rd = cnt + 3 * P;
    memset(cnt, 0, (size_t)P * sizeof *cnt);
    for (int32_t i = 0; i < l->n; i++)
        for (int64_t e = l->xadj[i]; e < l->xadj[i + 1]; e++)
            if (l->adj[e] > o->first + i) {
                int r = dist_owner(o->vtxdist, P, l->adj[e]);
                if (r != o->rank)
                    cnt[r]++;
            }
    MPI_Alltoall(cnt, 1, MPI_INT, rcnt, 1, MPI_INT, comm);
    prefix(cnt, sd, P);
    prefix(rcnt, rd, P);
    int64_t ns = P ? (int64_t)sd[P - 1] + cnt[P - 1] : 0, nr = P ? (int64_t)rd[P - 1] + rcnt[P - 1] : 0;
    mirror_msg *out = alloc_or_abort((size_t)ns, sizeof *out, "mirrored weights", comm, err);
    mirror_msg *in = alloc_or_abort((size_t)nr, sizeof *in, "mirrored weights", comm, err);
    int *fill = alloc_or_abort((size_t)P, sizeof *fill, "contraction plan", comm, err);
    memcpy(fill, sd, (size_t)P * sizeof *fill);
    for (int32_t i = 0; i < l->n; i++) /* rows in increasing order: (c, b) entries are written, never read */
        for (int64_t e = l->xadj[i]; e < l->xadj[i + 1]; e++) {
            int32_t c = l->adj[e], b = o->first + i;
            if (c <= b)
                continue;
            int r = dist_owner(o->vtxdist, P, c);
            if (r == o->rank)
                set_weight(l, c - o->first, b, l->ewgt[e]);
            else
                out[fill[r]++] = (mirror_msg){c, b, l->ewgt[e]};
        }
    alltoallv_bytes(out, cnt, sd, in, rcnt, rd, sizeof *out, comm);
    for (int64_t j = 0; j < nr; j++)
        set_weight(l, in[j].c - o->first, in[j].b, in[j].w);
    free(fill), free(in), free(out), free(cnt);
}

int dist_contract(const dist_graph *d, const dist_ghosts *gh, const int32_t *cmap, int32_t nc, dist_graph *out,
                  MPI_Comm comm, coarsen_error *err)
{
    const int P = d->nranks;
    const coarsen_graph *l = d->local;
    int64_t *cvtx = alloc_or_abort((size_t)P + 1, sizeof *cvtx, "coarse vtxdist", comm, err);
    dist_blocks(nc, P, cvtx);
    /* counts per destination: rows, entries (internal ones dropped here) */
    int *cnt = alloc_or_abort(8 * (size_t)P, sizeof *cnt, "contraction plan", comm, err);
    int *hc = cnt, *hd = cnt + P, *ec = cnt + 2 * P, *ed = cnt + 3 * P;
    int *rhc = cnt + 4 * P, *rhd = cnt + 5 * P, *rec = cnt + 6 * P, *red = cnt + 7 * P;
    memset(cnt, 0, 4 * (size_t)P * sizeof *cnt);
    int64_t *len = alloc_or_abort((size_t)l->n, sizeof *len, "contraction rows", comm, err);
    int *dest = alloc_or_abort((size_t)l->n, sizeof *dest, "contraction rows", comm, err);
    int64_t ec_total[1] = {0};
    for (int32_t v = 0; v < l->n; v++) {
        int32_t c = cmap[v];
        int64_t m = 0;
        for (int64_t e = l->xadj[v]; e < l->xadj[v + 1]; e++)
            m += cmap[gh->ladj[e]] != c;
        len[v] = m;
        dest[v] = dist_owner(cvtx, P, c);
        hc[dest[v]]++;
        ec_total[0] += m;
    }
    /* per destination entry counts must fit an int */
    for (int32_t v = 0; v < l->n; v++) {
        int64_t s = (int64_t)ec[dest[v]] + len[v];
        int ok;
        if (dist_int_count(s, "contraction entries", &ok, err))
            MPI_Abort(comm, COARSEN_ERR_NOMEM);
        ec[dest[v]] = ok;
    }
    MPI_Alltoall(hc, 1, MPI_INT, rhc, 1, MPI_INT, comm);
    MPI_Alltoall(ec, 1, MPI_INT, rec, 1, MPI_INT, comm);
    prefix(hc, hd, P), prefix(ec, ed, P), prefix(rhc, rhd, P), prefix(rec, red, P);
    int64_t rh = P ? (int64_t)rhd[P - 1] + rhc[P - 1] : 0, re = P ? (int64_t)red[P - 1] + rec[P - 1] : 0;
    row_head *sh = alloc_or_abort((size_t)l->n, sizeof *sh, "contraction rows", comm, err);
    int32_t *sk = alloc_or_abort((size_t)ec_total[0], sizeof *sk, "contraction entries", comm, err);
    double *sw = alloc_or_abort((size_t)ec_total[0], sizeof *sw, "contraction entries", comm, err);
    int *hfill = alloc_or_abort(2 * (size_t)P, sizeof *hfill, "contraction plan", comm, err), *efill = hfill + P;
    memcpy(hfill, hd, (size_t)P * sizeof *hfill);
    memcpy(efill, ed, (size_t)P * sizeof *efill);
    for (int32_t v = 0; v < l->n; v++) { /* increasing fine id per destination */
        int32_t c = cmap[v];
        int r = dest[v];
        sh[hfill[r]++] = (row_head){c, (int64_t)d->first + v, l->vwgt[v], len[v]};
        for (int64_t e = l->xadj[v]; e < l->xadj[v + 1]; e++) {
            int32_t k = cmap[gh->ladj[e]];
            if (k != c)
                sk[efill[r]] = k, sw[efill[r]++] = l->ewgt[e];
        }
    }
    row_head *in_h = alloc_or_abort((size_t)rh, sizeof *in_h, "contraction rows", comm, err);
    int32_t *in_k = alloc_or_abort((size_t)re, sizeof *in_k, "contraction entries", comm, err);
    double *in_w = alloc_or_abort((size_t)re, sizeof *in_w, "contraction entries", comm, err);
    alltoallv_bytes(sh, hc, hd, in_h, rhc, rhd, sizeof *sh, comm);
    MPI_Alltoallv(sk, ec, ed, MPI_INT32_T, in_k, rec, red, MPI_INT32_T, comm);
    MPI_Alltoallv(sw, ec, ed, MPI_DOUBLE, in_w, rec, red, MPI_DOUBLE, comm);
    free(sw), free(sk), free(sh), free(hfill), free(dest), free(len);

    /* The rows arrived in source rank order, each source's in increasing fine
     * id, so in increasing fine id overall: a stable counting sort by coarse
     * vertex keeps every group's members in increasing fine id. */
    const int32_t c0 = (int32_t)cvtx[d->rank], ncl = (int32_t)(cvtx[d->rank + 1] - cvtx[d->rank]);
    int64_t *gptr = alloc_or_abort((size_t)ncl + 1, sizeof *gptr, "contraction groups", comm, err);
    int64_t *start = alloc_or_abort((size_t)rh + 1, sizeof *start, "contraction rows", comm, err);
    int64_t *order = alloc_or_abort((size_t)rh, sizeof *order, "contraction groups", comm, err);
    int64_t *room = alloc_or_abort((size_t)ncl + 1, sizeof *room, "contraction rows", comm, err);
    memset(gptr, 0, ((size_t)ncl + 1) * sizeof *gptr);
    memset(room, 0, ((size_t)ncl + 1) * sizeof *room);
    start[0] = 0;
    for (int64_t j = 0; j < rh; j++) {
        gptr[in_h[j].c - c0 + 1]++;
        room[in_h[j].c - c0 + 1] += in_h[j].len;
        start[j + 1] = start[j] + in_h[j].len;
    }
    for (int32_t i = 0; i < ncl; i++)
        gptr[i + 1] += gptr[i], room[i + 1] += room[i];
    int64_t *fill = alloc_or_abort((size_t)ncl + 1, sizeof *fill, "contraction groups", comm, err);
    memcpy(fill, gptr, ((size_t)ncl + 1) * sizeof *fill);
    for (int64_t j = 0; j < rh; j++)
        order[fill[in_h[j].c - c0]++] = j;
    free(fill);
    /* merge each coarse row in place within its room: stable sort, run sums */
    merge_entry *buf = alloc_or_abort((size_t)room[ncl], sizeof *buf, "contraction merge", comm, err);
    int64_t *rowlen = alloc_or_abort((size_t)ncl + 1, sizeof *rowlen, "contraction rows", comm, err);
    int64_t *vw = alloc_or_abort((size_t)ncl + 1, sizeof *vw, "coarse vertex weights", comm, err);
#pragma omp parallel for schedule(dynamic, 256)
    for (int32_t i = 0; i < ncl; i++) {
        merge_entry *row = buf + room[i];
        int64_t m = 0, w = 0;
        for (int64_t q = gptr[i]; q < gptr[i + 1]; q++) {
            int64_t j = order[q];
            w += in_h[j].vwgt;
            for (int64_t e = start[j]; e < start[j + 1]; e++, m++)
                row[m] = (merge_entry){in_k[e], m, in_w[e]};
        }
        vw[i] = w;
        qsort(row, (size_t)m, sizeof *row, cmp_merge);
        int64_t u = 0;
        for (int64_t e = 0; e < m; e++) {
            if (u > 0 && row[u - 1].k == row[e].k)
                row[u - 1].w += row[e].w;
            else
                row[u++] = row[e];
        }
        rowlen[i] = u;
    }
    int64_t cnnz = 0;
    for (int32_t i = 0; i < ncl; i++)
        cnnz += rowlen[i];
    int rc = dist_graph_init(out, nc, cvtx, cnnz, d->integral_weights, comm, err);
    if (rc)
        MPI_Abort(comm, rc);
    coarsen_graph *o = out->local;
    for (int32_t i = 0; i < ncl; i++) {
        o->xadj[i + 1] = o->xadj[i] + rowlen[i];
        o->vwgt[i] = vw[i];
        for (int64_t e = 0; e < rowlen[i]; e++)
            o->adj[o->xadj[i] + e] = buf[room[i] + e].k, o->ewgt[o->xadj[i] + e] = buf[room[i] + e].w;
    }
    MPI_Allreduce(&cnnz, &out->nnz, 1, MPI_INT64_T, MPI_SUM, comm);
    free(vw), free(rowlen), free(buf), free(room), free(order), free(start), free(gptr);
    free(in_w), free(in_k), free(in_h), free(cnt), free(cvtx);
    if (!d->integral_weights) /* integer sums are exact: both directions agree already */
        mirror_weights(out, comm, err);
    return COARSEN_OK;
}
