/* hec.c — the distributed heavy-edge clustering (hec.h): hec_cpu.c's
 * steps on extended arrays (ghosts.h), the joining rounds at the leaders'
 * owners. */
#include "dist/hec.h"

#include <stdlib.h>
#include <string.h>

#include "dist/collective.h"
#include "core/radix_sort.h"
#include "dist/handshake.h"
#include "dist/map.h"
#include "dist/two_hop.h"

/* A candidate of a round, at its choice's leader's owner. */
typedef struct joiner {
    int32_t leader, id;
    double key;  /* rating of the edge to the choice */
    int64_t vw;  /* the candidate's weight */
} joiner;

/* A received candidate and its place among those received. */
typedef struct ranked {
    joiner j;
    int64_t at;
} ranked;

/* hec_cpu.c's order: leader, rating descending, id (the received
 * candidates come in increasing id: source ranks in order, each its pending
 * list in order), reached the same way: a radix sort by leader, its runs
 * finished by this comparison (core/radix_sort.h's radix_sort_refined). */
static int ranked_cmp(const void *a, const void *b)
{
    const joiner *x = &((const ranked *)a)->j, *y = &((const ranked *)b)->j;
    if (x->leader != y->leader)
        return x->leader < y->leader ? -1 : 1;
    if (x->key != y->key)
        return x->key > y->key ? -1 : 1;
    return (x->id > y->id) - (x->id < y->id);
}

static uint64_t ranked_leader(const void *item, int word)
{
    (void)word;
    return (uint64_t)(uint32_t)((const ranked *)item)->j.leader;
}

/* One round of step 3: the candidates among pending[0..*count) (their
 * choice's leader known) go to that leader's owner and are admitted there
 * by prefix under cap or made leaders of their own; the others stay in
 * pending. Returns the candidates of the whole level (0: none left). */
static int64_t join_round(const dist_graph *d, const dist_ghosts *gh, int64_t cap, const int32_t *choice,
                          const double *key, const int64_t *vw, int32_t *leader, int64_t *gw, int32_t *pending,
                          int32_t *count, MPI_Comm comm, coarsen_error *err)
{
    const int P = d->nranks;
    const int32_t lo = d->first;
    dist_ghosts_exchange(gh, leader, sizeof *leader, comm, err); /* the leaders of the last round */
    int *c = dist_alloc(4 * (size_t)P, sizeof *c, "HEC plan", comm, err);
    int *sc = c, *sd = c + P, *rc = c + 2 * P, *rd = c + 3 * P;
    memset(sc, 0, (size_t)P * sizeof *sc);
    int64_t m = 0;
    for (int32_t i = 0; i < *count; i++) {
        const int32_t lead = leader[choice[pending[i]]];
        if (lead >= 0)
            sc[dist_owner(d->vtxdist, P, lead)]++, m++;
    }
    int64_t all = 0;
    MPI_Allreduce(&m, &all, 1, MPI_INT64_T, MPI_SUM, comm);
    if (all == 0) {
        free(c);
        return 0;
    }
    const int64_t nr = dist_exchange_counts(sc, sd, rc, rd, P, comm);
    joiner *send = dist_alloc((size_t)m, sizeof *send, "HEC candidates", comm, err);
    joiner *recv = dist_alloc((size_t)nr, sizeof *recv, "HEC candidates", comm, err);
    dist_touch(send, (size_t)m * sizeof *send); /* filled in full by one thread below */
    int *fill = dist_alloc((size_t)P, sizeof *fill, "HEC plan", comm, err);
    memcpy(fill, sd, (size_t)P * sizeof *fill);
    int32_t kept = 0;
    for (int32_t i = 0; i < *count; i++) {
        const int32_t v = pending[i], lead = leader[choice[v]];
        if (lead >= 0)
            send[fill[dist_owner(d->vtxdist, P, lead)]++] = (joiner){lead, lo + v, key[v], vw[v]};
        else
            pending[kept++] = v;
    }
    dist_alltoallv_records(send, sc, sd, recv, rc, rd, sizeof *send, comm);
    /* admission at the leaders' owner; the verdicts go back in arrival order */
    ranked *sorted = dist_alloc((size_t)nr, sizeof *sorted, "HEC candidates", comm, err);
#pragma omp parallel for schedule(static)
    for (int64_t j = 0; j < nr; j++)
        sorted[j] = (ranked){recv[j], j};
    ranked *scratch = dist_alloc((size_t)nr, sizeof *scratch, "HEC candidates", comm, err);
    if (radix_sort_refined(sorted, scratch, nr, sizeof *sorted, 1, ranked_leader, ranked_cmp))
        qsort(sorted, (size_t)nr, sizeof *sorted, ranked_cmp); /* no room for its counters */
    free(scratch);
    uint8_t *in = dist_alloc((size_t)nr, 1, "HEC verdicts", comm, err);
    int64_t base = 0, sum = 0;
    for (int64_t j = 0; j < nr; j++) {
        const int32_t lead = sorted[j].j.leader;
        const int64_t a = sorted[j].at;
        if (j == 0 || lead != sorted[j - 1].j.leader)
            base = gw[lead - lo], sum = 0;
        sum += sorted[j].j.vw;
        in[a] = cap <= 0 || base + sum <= cap;
        if (in[a])
            gw[lead - lo] = base + sum; /* read again only in later rounds */
    }
    uint8_t *back = dist_alloc((size_t)m, 1, "HEC verdicts", comm, err);
    dist_alltoallv_records(in, rc, rd, back, sc, sd, sizeof *in, comm);
    for (int64_t j = 0; j < m; j++) {
        const int32_t v = send[j].id - lo;
        if (back[j]) {
            leader[v] = send[j].leader;
        } else {
            leader[v] = lo + v;
            gw[v] = vw[v];
        }
    }
    *count = kept;
    free(back), free(in), free(sorted), free(fill), free(recv), free(send), free(c);
    return all;
}

/* A group offered to island j (step 4a): its leader and weight. */
typedef struct host_msg {
    int64_t j, gw;
    int32_t leader;
} host_msg;

/* Step 4a (hec_cpu.c's join_islands) on mate[] (-1: alone): the j-th island
 * alone (in global id order) joins the j-th group of two or more (by its
 * leader, multi set there) when the cap allows: each leader's owner sends
 * its group's weight to the owner of island j. Returns the islands joined
 * on the whole level. Messages: one MPI_Allgather, one MPI_Alltoall, one
 * MPI_Alltoallv (24 B per offer), one MPI_Allreduce. */
static int64_t join_islands(const dist_graph *d, int64_t cap, const int64_t *vw, const int64_t *gw,
                            const uint8_t *multi, int32_t *leader, int32_t *mate, MPI_Comm comm, coarsen_error *err)
{
    const coarsen_graph *l = d->local;
    const int P = d->nranks;
    const int32_t nl = l->n, lo = d->first;
    int32_t *island = dist_alloc((size_t)nl, sizeof *island, "HEC islands", comm, err);
    int64_t mine[2] = {0, 0}; /* islands alone, groups of two or more */
    for (int32_t v = 0; v < nl; v++) {
        if (mate[v] == -1 && l->xadj[v + 1] == l->xadj[v])
            island[mine[0]++] = v;
        mine[1] += leader[v] == lo + v && multi[v];
    }
    int64_t *all = dist_alloc(2 * (size_t)P, sizeof *all, "HEC island counts", comm, err);
    MPI_Allgather(mine, 2, MPI_INT64_T, all, 2, MPI_INT64_T, comm);
    int64_t *ipos = dist_alloc((size_t)P + 1, sizeof *ipos, "HEC island positions", comm, err), hpos = 0;
    ipos[0] = 0;
    for (int r = 0; r < P; r++) {
        ipos[r + 1] = ipos[r] + all[2 * r];
        hpos += r < d->rank ? all[2 * r + 1] : 0;
    }
    int *c = dist_alloc(4 * (size_t)P, sizeof *c, "HEC island plan", comm, err);
    int *sc = c, *sd = c + P, *rc = c + 2 * P, *rd = c + 3 * P;
    memset(sc, 0, (size_t)P * sizeof *sc);
    int64_t m = 0;
    for (int64_t j = hpos; j < hpos + mine[1] && j < ipos[P]; j++, m++)
        sc[dist_owner(ipos, P, j)]++;
    const int64_t nr = dist_exchange_counts(sc, sd, rc, rd, P, comm);
    host_msg *send = dist_alloc((size_t)m, sizeof *send, "HEC island offers", comm, err);
    host_msg *recv = dist_alloc((size_t)nr, sizeof *recv, "HEC island offers", comm, err);
    int64_t k = 0, j = hpos; /* offers in increasing j: each rank's run is contiguous */
    for (int32_t v = 0; v < nl && k < m; v++)
        if (leader[v] == lo + v && multi[v])
            send[k++] = (host_msg){j++, gw[v], lo + v};
    dist_alltoallv_records(send, sc, sd, recv, rc, rd, sizeof *send, comm);
    int64_t joined = 0, total = 0;
    for (int64_t i = 0; i < nr; i++) {
        const int32_t v = island[recv[i].j - ipos[d->rank]];
        if (pair_eligible(cap, recv[i].gw, vw[v])) {
            leader[v] = recv[i].leader;
            mate[v] = lo + v;
            joined++;
        }
    }
    MPI_Allreduce(&joined, &total, 1, MPI_INT64_T, MPI_SUM, comm);
    free(recv), free(send), free(c), free(ipos), free(all), free(island);
    return total;
}

/* Step 4 (hec_cpu.c's pair_alone): the islands left alone join groups
 * (join_islands), the other vertices left alone (leading no group but
 * their own) go through two-hop pairing as unmatched vertices, the others
 * as matched ones; a pair (u, v), u < v, puts v in u's group.
 * Which leaders have members comes from numbering the groups once
 * (dist_map_from_leaders into the caller's cmap, nc and cvtx, which the
 * final numbering overwrites); multi [scratch, nlocal]; vw, gw: the
 * weights of the vertices and of the groups at their leaders; *joined:
 * join_islands'. Returns the collective status. */
static int pair_alone(const dist_graph *d, const dist_ghosts *gh, const matching_opts *mo, const int64_t *vw,
                      const int64_t *gw, int32_t *leader, int32_t *cmap, int32_t *nc, int64_t *cvtx, uint8_t *multi,
                      two_hop_stats *ts, int64_t *joined, MPI_Comm comm, coarsen_error *err)
{
    const int32_t nl = gh->nlocal, lo = d->first;
    int32_t *mate = dist_alloc((size_t)nl, sizeof *mate, "HEC alone vertices", comm, err);
    int rc = dist_map_from_leaders(d, gh, leader, NULL, cmap, nc, cvtx, multi, comm, err);
    if (!rc) {
        for (int32_t v = 0; v < nl; v++)
            mate[v] = leader[v] == lo + v && !multi[v] ? -1 : lo + v;
        *joined = join_islands(d, mo->max_vertex_weight, vw, gw, multi, leader, mate, comm, err);
        const two_hop_opts th = {mo->max_vertex_weight, mo->relatives_threshold};
        rc = dist_two_hop(d, gh, &th, mate, ts, comm, err);
    }
    if (!rc)
        for (int32_t v = 0; v < nl; v++)
            if (mate[v] >= 0 && mate[v] < lo + v)
                leader[v] = mate[v];
    free(mate);
    return rc;
}

int dist_hec(const dist_graph *d, const dist_ghosts *gh, const matching_opts *mo, int32_t *cmap, int32_t *nc,
             int64_t *cvtx, hec_stats *st, MPI_Comm comm, coarsen_error *err)
{
    const coarsen_graph *l = d->local;
    const int32_t nl = gh->nlocal, next = gh->nlocal + gh->nghost, lo = d->first;
    const tie_rule ties = match_ties(mo);
    memset(st, 0, sizeof *st);
    int64_t *vw = dist_alloc((size_t)next, sizeof *vw, "HEC weights", comm, err);
    int32_t *choice = dist_alloc((size_t)nl, sizeof *choice, "HEC choices", comm, err);
    int32_t *cg = dist_alloc((size_t)next, sizeof *cg, "HEC choices", comm, err);
    double *key = dist_alloc((size_t)nl, sizeof *key, "HEC ratings", comm, err);
    int32_t *leader = dist_alloc((size_t)next, sizeof *leader, "HEC leaders", comm, err);
    int64_t *gw = dist_alloc((size_t)nl, sizeof *gw, "HEC group weights", comm, err);
    int32_t *pending = dist_alloc((size_t)nl, sizeof *pending, "HEC pending vertices", comm, err);
    memcpy(vw, l->vwgt, (size_t)nl * sizeof *vw);
    dist_ghosts_exchange(gh, vw, sizeof *vw, comm, err);
    /* step 1: choices; their global ids to the ghosts */
#pragma omp parallel for schedule(dynamic, 1024)
    for (int32_t v = 0; v < nl; v++) {
        choice[v] = dist_best_neighbour(l, gh->ladj, v, vw, NULL, mo, ties, &key[v]);
        key[v] += 0.0; /* -0.0 as +0.0, as hec_cpu */
        cg[v] = choice[v] >= 0 ? dist_ghosts_gid(d, gh, choice[v]) : -1;
    }
    dist_ghosts_exchange(gh, cg, sizeof *cg, comm, err);
    /* step 2: roots */
    int32_t count = 0;
    for (int32_t x = 0; x < next; x++)
        leader[x] = -1;
    for (int32_t v = 0; v < nl; v++) {
        const int32_t c = choice[v];
        if (c < 0) {
            leader[v] = lo + v;
            gw[v] = vw[v];
        } else if (cg[c] == lo + v) {
            const int32_t u = dist_ghosts_gid(d, gh, c);
            leader[v] = lo + v < u ? lo + v : u;
            gw[v] = vw[v] + vw[c]; /* meaningful at the leader only */
        } else {
            pending[count++] = v;
        }
    }
    /* step 3 */
    while (join_round(d, gh, mo->max_vertex_weight, choice, key, vw, leader, gw, pending, &count, comm, err) > 0)
        st->rounds++;
    /* steps 4 and 5, and the figures */
    int64_t f[3] = {0, 0, 0}, g[3];
    uint8_t *multi = dist_alloc((size_t)nl, 1, "HEC groups", comm, err);
    two_hop_stats ts = {0};
    int64_t joined = 0;
    int rc = pair_alone(d, gh, mo, vw, gw, leader, cmap, nc, cvtx, multi, &ts, &joined, comm, err);
    if (!rc)
        rc = dist_map_from_leaders(d, gh, leader, NULL, cmap, nc, cvtx, multi, comm, err);
    for (int32_t v = 0; v < nl; v++) {
        if (l->xadj[v + 1] == l->xadj[v])
            continue;
        if (leader[v] != lo + v || multi[v])
            f[1]++;
        else
            f[2]++;
    }
    MPI_Allreduce(f, g, 3, MPI_INT64_T, MPI_SUM, comm);
    st->grouped = g[1], st->cap_blocked = g[2];
    st->island_pairs = joined + ts.island_pairs, st->leaf_pairs = ts.leaf_pairs, st->twin_pairs = ts.twin_pairs;
    st->relative_pairs = ts.relative_pairs;
    free(multi), free(pending), free(gw), free(leader), free(key), free(cg), free(choice), free(vw);
    return rc;
}
