/* symmetry.c — the distributed symmetry check of a graph just read
 * (symmetry.h), in rounds of a bounded number of entries per rank. */
#include "dist/symmetry.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "dist/collective.h"

typedef struct mirror {
    int32_t v, u; /* the entry v of row u, sent to v's owner as (v, u) */
    double w;
} mirror;

/* Whether row v of l (local index) holds u with weight w: its entries are
 * strictly increasing. */
static int has_entry(const coarsen_graph *l, int32_t v, int32_t u, double w)
{
    int64_t lo = l->xadj[v], hi = l->xadj[v + 1];
    while (lo < hi) {
        const int64_t mid = lo + (hi - lo) / 2;
        if (l->adj[mid] < u)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < l->xadj[v + 1] && l->adj[lo] == u && l->ewgt[lo] == w;
}

/* The rows of one round from row u: whole rows, at most chunk entries, or
 * one longer row; returns the row after the last. */
static int32_t round_end(const coarsen_graph *l, int32_t u, int64_t chunk)
{
    const int64_t end = l->xadj[u] + chunk;
    int32_t v = u + 1;
    while (v < l->n && l->xadj[v + 1] <= end)
        v++;
    return v;
}

int64_t dist_symmetry_chunk(void)
{
    const char *env = getenv("COARSEN_MPI_SYMMETRY_CHUNK");
    char *end = NULL;
    const long long v = env ? strtoll(env, &end, 10) : 0;
    return env && *env && !*end && v > 0 ? (int64_t)v : DIST_SYMMETRY_CHUNK;
}

/* The rows [u0, u1) as mirrors, grouped by destination rank in increasing
 * row order, on nt threads (each a run of rows; cnt [scratch, nt * P]);
 * sc [out] the counts per rank, sd their displacements, send [out]. */
static void pack(const dist_graph *d, int32_t u0, int32_t u1, int nt, int64_t *cnt, int *sc, int *sd, mirror *send)
{
    const coarsen_graph *l = d->local;
    const int P = d->nranks;
#pragma omp parallel num_threads(nt)
    {
        const int t = omp_get_thread_num(), T = omp_get_num_threads();
        const int32_t a = u0 + (int32_t)((int64_t)(u1 - u0) * t / T), b = u0 + (int32_t)((int64_t)(u1 - u0) * (t + 1) / T);
        int64_t *mine = cnt + (size_t)t * (size_t)P;
        memset(mine, 0, (size_t)P * sizeof *mine);
        for (int64_t e = l->xadj[a]; e < l->xadj[b]; e++)
            mine[dist_owner(d->vtxdist, P, l->adj[e])]++;
#pragma omp barrier
#pragma omp single
        {
            for (int r = 0; r < P; r++) {
                int64_t s = 0;
                for (int q = 0; q < T; q++) {
                    const int64_t c = cnt[(size_t)q * (size_t)P + (size_t)r];
                    cnt[(size_t)q * (size_t)P + (size_t)r] = s; /* thread q's place among rank r's */
                    s += c;
                }
                sc[r] = (int)s; /* at most the round's room, below 2^31 */
            }
            dist_prefix(sc, sd, P);
        }
        for (int64_t u = a; u < b; u++)
            for (int64_t e = l->xadj[u]; e < l->xadj[u + 1]; e++) {
                const int r = dist_owner(d->vtxdist, P, l->adj[e]);
                send[sd[r] + mine[r]++] = (mirror){l->adj[e], d->first + (int32_t)u, l->ewgt[e]};
            }
    }
}

int dist_graph_symmetric(const dist_graph *d, MPI_Comm comm, coarsen_error *err)
{
    const coarsen_graph *l = d->local;
    const int P = d->nranks, nt = omp_get_max_threads();
    int *c = dist_alloc(4 * (size_t)P, sizeof *c, "mirror counts", comm, err);
    int *sc = c, *sd = c + P, *rc = c + 2 * P, *rd = c + 3 * P;
    int64_t *cnt = dist_alloc((size_t)nt * (size_t)P, sizeof *cnt, "mirror counts", comm, err);
    int32_t *hits = dist_alloc((size_t)l->n, sizeof *hits, "mirror counts", comm, err);
    memset(hits, 0, (size_t)l->n * sizeof *hits);
    const int64_t chunk = dist_symmetry_chunk();
    int64_t rounds = 0, all_rounds = 0;
    for (int32_t u = 0; u < l->n; rounds++)
        u = round_end(l, u, chunk);
    MPI_Allreduce(&rounds, &all_rounds, 1, MPI_INT64_T, MPI_MAX, comm);
    int64_t longest = 0;
    for (int32_t u = 0; u < l->n; u++)
        longest = l->xadj[u + 1] - l->xadj[u] > longest ? l->xadj[u + 1] - l->xadj[u] : longest;
    const int64_t room = longest > chunk ? longest : chunk;
    int ok = 1;
    if (room > INT32_MAX) /* one row past MPI's counts: not a graph this reader accepts */
        ok = 0;
    mirror *send = dist_alloc((size_t)(l->nnz < room ? l->nnz : room), sizeof *send, "mirrors", comm, err);
    mirror *recv = NULL;
    int64_t recv_room = 0;
    int32_t u = 0;
    for (int64_t k = 0; k < all_rounds; k++) {
        const int32_t v = ok && u < l->n ? round_end(l, u, chunk) : u;
        pack(d, u, v, nt, cnt, sc, sd, send);
        u = v;
        const int64_t got = dist_exchange_counts(sc, sd, rc, rd, P, comm);
        if (got > recv_room) {
            free(recv);
            recv = dist_alloc((size_t)got, sizeof *recv, "mirrors", comm, err);
            recv_room = got;
        }
        dist_alltoallv_records(send, sc, sd, recv, rc, rd, sizeof *send, comm);
        /* each mirror (v, u) must be an entry of row v, of the same weight;
         * rows have no neighbour twice, so a row with as many hits as
         * entries has the mirror of each */
        int bad = 0;
#pragma omp parallel for schedule(static) reduction(| : bad)
        for (int64_t j = 0; j < got; j++) {
            const int32_t x = recv[j].v - d->first;
            if (has_entry(l, x, recv[j].u, recv[j].w)) {
#pragma omp atomic
                hits[x]++;
            } else {
                bad = 1;
            }
        }
        ok &= !bad;
    }
    for (int32_t v = 0; ok && v < l->n; v++)
        ok = hits[v] == l->xadj[v + 1] - l->xadj[v];
    free(recv), free(send), free(hits), free(cnt), free(c);
    int all = 0;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, comm);
    return all;
}
