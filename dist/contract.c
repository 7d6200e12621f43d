/* contract.c — the distributed contraction (contract.h): rows to the owners
 * of their coarse vertices, the fixed-order merge there, the real weights'
 * mirror. */
#include "dist/contract.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "dist/collective.h"
#include "core/row_find.h"

/* A fine row on its way: coarse id, fine id, vertex weight, entry count. */
typedef struct row_head {
    int64_t c, v, vwgt, len;
} row_head;

/* An entry of a coarse row: neighbour, weight. */
typedef struct coarse_entry {
    int32_t k;
    double w;
} coarse_entry;

static int cmp_entry(const void *a, const void *b)
{
    int32_t x = ((const coarse_entry *)a)->k, y = ((const coarse_entry *)b)->k;
    return (x > y) - (x < y);
}

/* A thread's scratch for merging one coarse row of at most `room` entries:
 * an open-addressing table (neighbour -> slot in ent) of a power of two >=
 * 2 room slots, all -1 between rows. */
typedef struct merge_scratch {
    int32_t *table;
    coarse_entry *ent;
} merge_scratch;

/* Merges the entries (k[e], w[e]) of one coarse row, given in the fixed order
 * (members in increasing fine id, each member's entries in stored order):
 * the first entry of each neighbour opens its sum, the next ones add to it
 * left to right (contract_cpu's sums, in its order); then sorts the distinct
 * neighbours. Returns their count, in sc->ent. */
static int64_t merge_row(merge_scratch *sc, const int32_t *const *k, const double *const *w, const int64_t *len,
                         int64_t members)
{
    int64_t m = 0;
    for (int64_t q = 0; q < members; q++)
        m += len[q];
    uint32_t size = 2, shift;
    while ((int64_t)size < 2 * m)
        size *= 2;
    shift = 32;
    for (uint32_t t = size; t > 1; t /= 2)
        shift--;
    int64_t cnt = 0;
    for (int64_t q = 0; q < members; q++)
        for (int64_t e = 0; e < len[q]; e++) {
            int32_t key = k[q][e];
            uint32_t h = shift < 32 ? ((uint32_t)key * 0x9e3779b1u) >> shift : 0;
            while (sc->table[h] >= 0 && sc->ent[sc->table[h]].k != key)
                h = (h + 1) & (size - 1);
            if (sc->table[h] < 0) {
                sc->table[h] = (int32_t)cnt;
                sc->ent[cnt++] = (coarse_entry){key, w[q][e]};
            } else {
                sc->ent[sc->table[h]].w += w[q][e];
            }
        }
    for (uint32_t h = 0; h < size; h++)
        sc->table[h] = -1;
    if (cnt > 32) {
        qsort(sc->ent, (size_t)cnt, sizeof *sc->ent, cmp_entry);
        return cnt;
    }
    for (int64_t i = 1; i < cnt; i++) { /* short rows: insertion (the neighbours are distinct: the same order) */
        const coarse_entry x = sc->ent[i];
        int64_t j = i;
        for (; j > 0 && sc->ent[j - 1].k > x.k; j--)
            sc->ent[j] = sc->ent[j - 1];
        sc->ent[j] = x;
    }
    return cnt;
}

/* A mirrored weight: coarse row c, neighbour b < c, weight of (b, c). */
typedef struct mirror_msg {
    int32_t c, b;
    double w;
} mirror_msg;

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
    int *cnt = dist_alloc(4 * (size_t)P, sizeof *cnt, "contraction plan", comm, err);
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
    dist_prefix(cnt, sd, P);
    dist_prefix(rcnt, rd, P);
    int64_t ns = P ? (int64_t)sd[P - 1] + cnt[P - 1] : 0, nr = P ? (int64_t)rd[P - 1] + rcnt[P - 1] : 0;
    mirror_msg *out = dist_alloc((size_t)ns, sizeof *out, "mirrored weights", comm, err);
    mirror_msg *in = dist_alloc((size_t)nr, sizeof *in, "mirrored weights", comm, err);
    int *fill = dist_alloc((size_t)P, sizeof *fill, "contraction plan", comm, err);
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
    dist_alltoallv_records(out, cnt, sd, in, rcnt, rd, sizeof *out, comm);
    for (int64_t j = 0; j < nr; j++)
        set_weight(l, in[j].c - o->first, in[j].b, in[j].w);
    free(fill), free(in), free(out), free(cnt);
}

int dist_contract(const dist_graph *d, const dist_ghosts *gh, const int32_t *cmap, int32_t nc, const int64_t *cvtx,
                  dist_graph *out, MPI_Comm comm, coarsen_error *err)
{
    const int P = d->nranks;
    const coarsen_graph *l = d->local;
    /* counts per destination: rows, entries (internal ones dropped here) */
    int *cnt = dist_alloc(8 * (size_t)P, sizeof *cnt, "contraction plan", comm, err);
    int *hc = cnt, *hd = cnt + P, *ec = cnt + 2 * P, *ed = cnt + 3 * P;
    int *rhc = cnt + 4 * P, *rhd = cnt + 5 * P, *rec = cnt + 6 * P, *red = cnt + 7 * P;
    memset(cnt, 0, 4 * (size_t)P * sizeof *cnt);
    int64_t *rowsz = dist_alloc((size_t)l->n, sizeof *rowsz, "contraction rows", comm, err);
    int *dest = dist_alloc((size_t)l->n, sizeof *dest, "contraction rows", comm, err);
#pragma omp parallel for schedule(static)
    for (int32_t v = 0; v < l->n; v++) {
        const int32_t c = cmap[v];
        int64_t m = 0;
        for (int64_t e = l->xadj[v]; e < l->xadj[v + 1]; e++)
            m += cmap[gh->ladj[e]] != c;
        rowsz[v] = m;
        dest[v] = dist_owner(cvtx, P, c);
    }
    /* per destination counts (the entries' must fit an int); then each row's
     * places: its head's, kept in dest, and its entries', kept in rowsz */
    int64_t ec_total = 0;
    for (int32_t v = 0; v < l->n; v++) {
        int ok;
        if (dist_int_count((int64_t)ec[dest[v]] + rowsz[v], "contraction entries", &ok, err))
            MPI_Abort(comm, COARSEN_ERR_NOMEM);
        ec[dest[v]] = ok;
        hc[dest[v]]++;
        ec_total += rowsz[v];
    }
    MPI_Alltoall(hc, 1, MPI_INT, rhc, 1, MPI_INT, comm);
    MPI_Alltoall(ec, 1, MPI_INT, rec, 1, MPI_INT, comm);
    /* the receive buffers: source ranks in order, this rank's own part among
     * them, which is packed straight there (no copy through the messages) */
    const int me = d->rank;
    dist_prefix(rhc, rhd, P), dist_prefix(rec, red, P);
    int64_t rh = P ? (int64_t)rhd[P - 1] + rhc[P - 1] : 0, re = P ? (int64_t)red[P - 1] + rec[P - 1] : 0;
    const int64_t own_h = hc[me], own_e = ec[me];
    hc[me] = ec[me] = rhc[me] = rec[me] = 0; /* the exchanges move the other parts only */
    dist_prefix(hc, hd, P), dist_prefix(ec, ed, P);
    int *hfill = dist_alloc(2 * (size_t)P, sizeof *hfill, "contraction plan", comm, err), *efill = hfill + P;
    memcpy(hfill, hd, (size_t)P * sizeof *hfill);
    memcpy(efill, ed, (size_t)P * sizeof *efill);
    hfill[me] = rhd[me], efill[me] = red[me];
    for (int32_t v = 0; v < l->n; v++) { /* increasing fine id per destination */
        const int r = dest[v];
        const int64_t m = rowsz[v];
        dest[v] = hfill[r]++;
        rowsz[v] = efill[r];
        efill[r] += (int)m;
    }
    row_head *in_h = dist_alloc((size_t)rh, sizeof *in_h, "contraction rows", comm, err);
    int32_t *in_k = dist_alloc((size_t)re, sizeof *in_k, "contraction entries", comm, err);
    double *in_w = dist_alloc((size_t)re, sizeof *in_w, "contraction entries", comm, err);
    row_head *sh = dist_alloc((size_t)(l->n - own_h), sizeof *sh, "contraction rows", comm, err);
    int32_t *sk = dist_alloc((size_t)(ec_total - own_e), sizeof *sk, "contraction entries", comm, err);
    double *sw = dist_alloc((size_t)(ec_total - own_e), sizeof *sw, "contraction entries", comm, err);
#pragma omp parallel for schedule(static)
    for (int32_t v = 0; v < l->n; v++) {
        const int32_t c = cmap[v];
        const int own = dist_owner(cvtx, P, c) == me;
        row_head *h = own ? in_h : sh;
        int32_t *k = own ? in_k : sk;
        double *w = own ? in_w : sw;
        int64_t at = rowsz[v];
        for (int64_t e = l->xadj[v]; e < l->xadj[v + 1]; e++) {
            const int32_t x = cmap[gh->ladj[e]];
            if (x != c)
                k[at] = x, w[at++] = l->ewgt[e];
        }
        h[dest[v]] = (row_head){c, (int64_t)d->first + v, l->vwgt[v], at - rowsz[v]};
    }
    dist_alltoallv_records(sh, hc, hd, in_h, rhc, rhd, sizeof *sh, comm);
    dist_alltoallv_records(sk, ec, ed, in_k, rec, red, sizeof *sk, comm);
    dist_alltoallv_records(sw, ec, ed, in_w, rec, red, sizeof *sw, comm);
    free(sw), free(sk), free(sh), free(hfill), free(dest), free(rowsz);

    /* The rows arrived in source rank order, each source's in increasing fine
     * id, so in increasing fine id overall: a stable counting sort by coarse
     * vertex keeps every group's members in increasing fine id. */
    const int32_t c0 = (int32_t)cvtx[d->rank], ncl = (int32_t)(cvtx[d->rank + 1] - cvtx[d->rank]);
    int64_t *gptr = dist_alloc((size_t)ncl + 1, sizeof *gptr, "contraction groups", comm, err);
    int64_t *start = dist_alloc((size_t)rh + 1, sizeof *start, "contraction rows", comm, err);
    int64_t *order = dist_alloc((size_t)rh, sizeof *order, "contraction groups", comm, err);
    int64_t *room = dist_alloc((size_t)ncl + 1, sizeof *room, "contraction rows", comm, err);
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
    int64_t *fill = dist_alloc((size_t)ncl + 1, sizeof *fill, "contraction groups", comm, err);
    memcpy(fill, gptr, ((size_t)ncl + 1) * sizeof *fill);
    for (int64_t j = 0; j < rh; j++)
        order[fill[in_h[j].c - c0]++] = j;
    free(fill);
    /* Each coarse row merged by a thread into its scratch and written at
     * its room in the coarse arrays (sized for every entry received), then
     * the rows closed up. */
    int64_t most = 0;
    for (int32_t i = 0; i < ncl; i++)
        most = room[i + 1] - room[i] > most ? room[i + 1] - room[i] : most;
    int rc = dist_graph_init(out, nc, cvtx, room[ncl], d->integral_weights, comm, err);
    if (rc)
        MPI_Abort(comm, rc);
    coarsen_graph *o = out->local;
    int64_t *rowlen = dist_alloc((size_t)ncl + 1, sizeof *rowlen, "contraction rows", comm, err);
    int64_t table_size = 2, most_members = 1;
    while (table_size < 2 * most)
        table_size *= 2;
    for (int32_t i = 0; i < ncl; i++)
        most_members = gptr[i + 1] - gptr[i] > most_members ? gptr[i + 1] - gptr[i] : most_members;
    const int nt = omp_get_max_threads();
    int32_t *tables = dist_alloc((size_t)nt * (size_t)table_size, sizeof *tables, "contraction merge", comm, err);
    coarse_entry *ents = dist_alloc((size_t)nt * (size_t)(most ? most : 1), sizeof *ents, "contraction merge", comm,
                                        err);
    const int32_t **ks = dist_alloc((size_t)nt * (size_t)most_members, sizeof *ks, "contraction merge", comm, err);
    const double **ws = dist_alloc((size_t)nt * (size_t)most_members, sizeof *ws, "contraction merge", comm, err);
    int64_t *ls = dist_alloc((size_t)nt * (size_t)most_members, sizeof *ls, "contraction merge", comm, err);
    for (int64_t h = 0; h < (int64_t)nt * table_size; h++)
        tables[h] = -1;
#pragma omp parallel num_threads(nt)
    {
        const int t = omp_get_thread_num();
        merge_scratch sc = {tables + (size_t)t * (size_t)table_size, ents + (size_t)t * (size_t)(most ? most : 1)};
        const int32_t **k = ks + (size_t)t * (size_t)most_members;
        const double **w = ws + (size_t)t * (size_t)most_members;
        int64_t *len = ls + (size_t)t * (size_t)most_members;
#pragma omp for schedule(dynamic, 256)
        for (int32_t i = 0; i < ncl; i++) {
            int64_t members = gptr[i + 1] - gptr[i], vwgt = 0;
            for (int64_t q = 0; q < members; q++) {
                int64_t j = order[gptr[i] + q];
                vwgt += in_h[j].vwgt;
                k[q] = in_k + start[j], w[q] = in_w + start[j], len[q] = in_h[j].len;
            }
            o->vwgt[i] = vwgt;
            int64_t u = merge_row(&sc, k, w, len, members);
            for (int64_t e = 0; e < u; e++)
                o->adj[room[i] + e] = sc.ent[e].k, o->ewgt[room[i] + e] = sc.ent[e].w;
            rowlen[i] = u;
        }
    }
    free(ls), free(ws), free(ks), free(ents), free(tables);
    free(order), free(start), free(gptr), free(in_w), free(in_k), free(in_h); /* before the closed-up copy */
    int64_t cnnz = 0;
    for (int32_t i = 0; i < ncl; i++)
        cnnz += rowlen[i], o->xadj[i + 1] = cnnz;
    o->nnz = cnnz;
    /* close up: the rows copied from their rooms to exact arrays */
    int32_t *adj = dist_alloc((size_t)cnnz, sizeof *adj, "coarse rows", comm, err);
    double *ewgt = dist_alloc((size_t)cnnz, sizeof *ewgt, "coarse rows", comm, err);
#pragma omp parallel for schedule(dynamic, 1024)
    for (int32_t i = 0; i < ncl; i++) {
        memcpy(adj + o->xadj[i], o->adj + room[i], (size_t)rowlen[i] * sizeof *adj);
        memcpy(ewgt + o->xadj[i], o->ewgt + room[i], (size_t)rowlen[i] * sizeof *ewgt);
    }
    free(o->adj), free(o->ewgt);
    o->adj = adj, o->ewgt = ewgt;
    MPI_Allreduce(&cnnz, &out->nnz, 1, MPI_INT64_T, MPI_SUM, comm);
    free(rowlen), free(room), free(cnt);
    if (!d->integral_weights) /* integer sums are exact: both directions agree already */
        mirror_weights(out, comm, err);
    return COARSEN_OK;
}
