/* two_hop.c — distributed two-hop pairing (two_hop.h): candidates routed to
 * the owners of their classes, paired there by two_hop_classes.h's steps,
 * partners sent back. */
#include "dist/two_hop.h"

#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "dist/collective.h"
#include "core/hash.h"
#include "core/timer.h"
#include "matching/two_hop_classes.h"

/* A candidate on its way to its class's rank. */
typedef struct cand_msg {
    int64_t key, vwgt, len;
    uint64_t hash;
    int32_t id;
} cand_msg;

/* Sends candidate i (msg[i], and with lists its list lists[loff[i] ..
 * loff[i] + msg[i].len)) to rank dest[i]; every rank pairs the classes it
 * receives (lists: rules 0-2, else rule 3) and sends each partner back to
 * the owner, which sets mate. pairs [in/out] counts this rank's pairs. */
static void route_and_pair(const dist_graph *d, int64_t cnt, const cand_msg *msg, const int *dest,
                           const int32_t *lists, const int64_t *loff, int64_t cap, int32_t *mate, int64_t pairs[4],
                           MPI_Comm comm, coarsen_error *err)
{
    const int P = d->nranks;
    int *c = dist_alloc(8 * (size_t)P, sizeof *c, "two-hop plan", comm, err);
    int *mc = c, *md = c + P, *lc = c + 2 * P, *ld = c + 3 * P, *rmc = c + 4 * P, *rmd = c + 5 * P,
        *rlc = c + 6 * P, *rld = c + 7 * P;
    memset(c, 0, 4 * (size_t)P * sizeof *c);
    for (int64_t i = 0; i < cnt; i++) {
        int ok;
        mc[dest[i]]++;
        if (lists && dist_int_count((int64_t)lc[dest[i]] + msg[i].len, "two-hop list entries", &ok, err))
            MPI_Abort(comm, COARSEN_ERR_NOMEM);
        lc[dest[i]] += lists ? (int)msg[i].len : 0;
    }
    MPI_Alltoall(mc, 1, MPI_INT, rmc, 1, MPI_INT, comm);
    MPI_Alltoall(lc, 1, MPI_INT, rlc, 1, MPI_INT, comm);
    dist_prefix(mc, md, P), dist_prefix(lc, ld, P), dist_prefix(rmc, rmd, P), dist_prefix(rlc, rld, P);
    const int64_t rm = (int64_t)rmd[P - 1] + rmc[P - 1], rl = (int64_t)rld[P - 1] + rlc[P - 1];
    cand_msg *out = dist_alloc((size_t)cnt, sizeof *out, "two-hop candidates", comm, err);
    int32_t *outl = dist_alloc((size_t)(lists ? loff[cnt] : 0), sizeof *outl, "two-hop lists", comm, err);
    dist_touch(out, (size_t)cnt * sizeof *out); /* filled in full by one thread below */
    dist_touch(outl, (size_t)(lists ? loff[cnt] : 0) * sizeof *outl);
    int *fill = dist_alloc(2 * (size_t)P, sizeof *fill, "two-hop plan", comm, err), *lfill = fill + P;
    memcpy(fill, md, (size_t)P * sizeof *fill);
    memcpy(lfill, ld, (size_t)P * sizeof *lfill);
    for (int64_t i = 0; i < cnt; i++) {
        out[fill[dest[i]]++] = msg[i];
        if (lists) {
            memcpy(outl + lfill[dest[i]], lists + loff[i], (size_t)msg[i].len * sizeof *outl);
            lfill[dest[i]] += (int)msg[i].len;
        }
    }
    cand_msg *in = dist_alloc((size_t)rm, sizeof *in, "two-hop candidates", comm, err);
    int32_t *inl = dist_alloc((size_t)rl, sizeof *inl, "two-hop lists", comm, err);
    dist_alltoallv_records(out, mc, md, in, rmc, rmd, sizeof *out, comm);
    dist_alltoallv_records(outl, lc, ld, inl, rlc, rld, sizeof *outl, comm);
    free(out), free(outl);

    /* The classes here as a small graph: vertex p = the p-th candidate in
     * increasing global id, its row = its list (global ids), so that the
     * steps' (key, hash, id) order is the global one. The candidates
     * arrived in that order already: source ranks in order, each sending
     * from its own block of ids in increasing id. */
    coarsen_graph *g = coarsen_graph_alloc((int32_t)rm, rl, err);
    two_hop_candidate *cand = dist_alloc((size_t)rm, sizeof *cand, "two-hop candidates", comm, err);
    int32_t *pm = dist_alloc((size_t)rm, sizeof *pm, "two-hop partners", comm, err);
    if (!g)
        MPI_Abort(comm, COARSEN_ERR_NOMEM);
    for (int64_t p = 0; p < rm; p++) {
        const int64_t len = lists ? in[p].len : 0;
        g->xadj[p + 1] = g->xadj[p] + len;
        g->vwgt[p] = in[p].vwgt;
        cand[p] = (two_hop_candidate){in[p].key, in[p].hash, (int32_t)p};
        pm[p] = -1;
    }
    memcpy(g->adj, inl, (size_t)rl * sizeof *g->adj);
    two_hop_sort(cand, (int32_t)rm); /* in increasing id (arrival order) as it needs */
    if (lists) {
        int32_t islands = 0; /* degree 0 sorts first */
        while (islands < rm && cand[islands].key == 0)
            islands++;
        two_hop_pair_islands(g->vwgt, cap, cand, islands, pm, pairs);
        two_hop_pair_classes(g, cap, cand + islands, (int32_t)rm - islands, 1, -1, pm, pairs);
    } else {
        two_hop_pair_classes(g, cap, cand, (int32_t)rm, 0, 2, pm, pairs);
    }

    /* partners back to the owners: (vertex, partner) pairs */
    memset(c, 0, 4 * (size_t)P * sizeof *c);
    int64_t np = 0;
    for (int64_t p = 0; p < rm; p++)
        if (pm[p] >= 0)
            mc[dist_owner(d->vtxdist, P, in[p].id)] += 2, np++;
    MPI_Alltoall(mc, 1, MPI_INT, rmc, 1, MPI_INT, comm);
    dist_prefix(mc, md, P), dist_prefix(rmc, rmd, P);
    int32_t *back = dist_alloc(2 * (size_t)np, sizeof *back, "two-hop partners", comm, err);
    int32_t *got = dist_alloc((size_t)rmd[P - 1] + rmc[P - 1], sizeof *got, "two-hop partners", comm, err);
    memcpy(fill, md, (size_t)P * sizeof *fill);
    for (int64_t p = 0; p < rm; p++)
        if (pm[p] >= 0) {
            int r = dist_owner(d->vtxdist, P, in[p].id);
            back[fill[r]++] = in[p].id;
            back[fill[r]++] = in[pm[p]].id;
        }
    dist_alltoallv_records(back, mc, md, got, rmc, rmd, sizeof *back, comm);
    for (int64_t j = 0; j < (int64_t)rmd[P - 1] + rmc[P - 1]; j += 2)
        mate[got[j] - d->first] = got[j + 1];
    free(got), free(back), free(pm), free(cand), free(in), free(inl), free(fill), free(c);
    coarsen_graph_free(g);
}

int dist_two_hop(const dist_graph *d, const dist_ghosts *gh, const two_hop_opts *o, int32_t *mate, two_hop_stats *st,
                 MPI_Comm comm, coarsen_error *err)
{
    double t0 = timer_ms();
    *st = (two_hop_stats){0};
    const coarsen_graph *l = d->local;
    const int32_t nl = l->n;
    const int64_t cap = o->max_vertex_weight;
    cand_msg *msg = dist_alloc((size_t)nl, sizeof *msg, "two-hop candidates", comm, err);
    int *dest = dist_alloc((size_t)nl, sizeof *dest, "two-hop candidates", comm, err);
    int64_t *loff = dist_alloc((size_t)nl + 1, sizeof *loff, "two-hop lists", comm, err);
    int32_t *lists = dist_alloc((size_t)l->nnz, sizeof *lists, "two-hop lists", comm, err);
    /* rules 0-2: every unmatched vertex, to the rank of its (degree, list hash) */
    int64_t m = 0;
    loff[0] = 0;
    for (int32_t v = 0; v < nl; v++) /* the candidates' places; dest holds their vertex until the fill */
        if (mate[v] < 0) {
            dest[m] = v;
            loff[m + 1] = loff[m] + (l->xadj[v + 1] - l->xadj[v]);
            m++;
        }
#pragma omp parallel for schedule(dynamic, 1024)
    for (int64_t j = 0; j < m; j++) {
        const int32_t v = dest[j];
        const int64_t deg = l->xadj[v + 1] - l->xadj[v];
        const uint64_t h = two_hop_list_hash(l, v);
        msg[j] = (cand_msg){deg, l->vwgt[v], deg, h, d->first + v};
        dest[j] = (int)(hash3(0x636c617373ULL, (uint64_t)deg, h) % (uint64_t)d->nranks);
        memcpy(lists + loff[j], l->adj + l->xadj[v], (size_t)deg * sizeof *lists);
    }
    int64_t pairs[4] = {0, 0, 0, 0}, all[4], cands = 0; /* leaf, twin, relative, island */
    route_and_pair(d, m, msg, dest, lists, loff, cap, mate, pairs, comm, err);
    MPI_Allreduce(&m, &cands, 1, MPI_INT64_T, MPI_SUM, comm);
    MPI_Allreduce(pairs, all, 4, MPI_INT64_T, MPI_SUM, comm);
    int64_t unmatched = cands - 2 * (all[0] + all[1] + all[3]);
    if ((double)unmatched > o->relatives_threshold * (double)d->n) {
        /* rule 3: unmatched vertices with a neighbour, to the owner of their hub */
        m = 0;
        for (int32_t v = 0; v < nl; v++)
            if (mate[v] < 0 && l->xadj[v + 1] > l->xadj[v])
                dest[m++] = v;
#pragma omp parallel for schedule(dynamic, 1024)
        for (int64_t j = 0; j < m; j++) {
            const int32_t v = dest[j], hub = two_hop_hub(l, v);
            msg[j] = (cand_msg){hub, l->vwgt[v], 0, 0, d->first + v};
            dest[j] = dist_owner(d->vtxdist, d->nranks, hub);
        }
        int64_t rel[4] = {0, 0, 0, 0};
        route_and_pair(d, m, msg, dest, NULL, NULL, cap, mate, rel, comm, err);
        MPI_Allreduce(&rel[2], &all[2], 1, MPI_INT64_T, MPI_SUM, comm);
    }
    free(lists), free(loff), free(dest), free(msg);
    /* cap_blocked: unmatched vertices with an unmatched neighbour */
    uint8_t *open = dist_alloc((size_t)(gh->nlocal + gh->nghost), 1, "two-hop status", comm, err);
#pragma omp parallel for schedule(static)
    for (int32_t v = 0; v < nl; v++)
        open[v] = mate[v] < 0;
    dist_ghosts_exchange(gh, open, 1, comm, err);
    int64_t blocked = 0;
#pragma omp parallel for schedule(dynamic, 1024) reduction(+ : blocked)
    for (int32_t v = 0; v < nl; v++) {
        if (!open[v])
            continue;
        for (int64_t e = l->xadj[v]; e < l->xadj[v + 1]; e++)
            if (open[gh->ladj[e]]) {
                blocked++;
                break;
            }
    }
    free(open);
    MPI_Allreduce(&blocked, &st->cap_blocked, 1, MPI_INT64_T, MPI_SUM, comm);
    st->leaf_pairs = all[0];
    st->twin_pairs = all[1];
    st->relative_pairs = all[2];
    st->island_pairs = all[3];
    st->ms = timer_ms() - t0;
    return COARSEN_OK;
}
