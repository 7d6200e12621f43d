/* ghosts.c — the ghost layer (ghosts.h): ghost ids from the rows, the
 * exchange plan agreed with their owners, and the value exchange. */
#include "dist/ghosts.h"

#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "dist/collective.h"

int32_t dist_ghosts_index(const dist_graph *d, const dist_ghosts *gh, int32_t v)
{
    if (v >= d->first && v < d->first + gh->nlocal)
        return v - d->first;
    int32_t lo = 0, hi = gh->nghost;
    while (lo < hi) {
        int32_t mid = lo + (hi - lo) / 2;
        if (gh->gid[mid] < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < gh->nghost && gh->gid[lo] == v ? gh->nlocal + lo : -1;
}

void dist_ghosts_free(dist_ghosts *gh)
{
    free(gh->gid), free(gh->ladj), free(gh->recv_count), free(gh->send_idx);
    memset(gh, 0, sizeof *gh);
}

int dist_ghosts_build(const dist_graph *d, MPI_Comm comm, dist_ghosts *gh, coarsen_error *err)
{
    memset(gh, 0, sizeof *gh);
    const coarsen_graph *l = d->local;
    const int P = d->nranks;
    const int32_t lo = d->first, hi = d->first + l->n;
    gh->nlocal = l->n;
    /* the ghosts: off-block neighbours, marked in a bitmap over the global
     * ids and read from it in increasing id (sorted, unique) */
    const int64_t words = ((int64_t)d->n + 63) / 64;
    uint64_t *seen = xmalloc((size_t)(words ? words : 1) * sizeof *seen, "ghost bitmap", err);
    if (seen)
        memset(seen, 0, (size_t)words * sizeof *seen);
    gh->ladj = seen ? xmalloc((size_t)(l->nnz ? l->nnz : 1) * sizeof *gh->ladj, "ghost adjacency", err) : NULL;
    gh->recv_count = gh->ladj ? xmalloc(4 * (size_t)P * sizeof(int), "ghost plan", err) : NULL;
    if (!gh->recv_count) {
        free(seen);
        dist_ghosts_free(gh);
        return COARSEN_ERR_NOMEM;
    }
    gh->recv_displ = gh->recv_count + P;
    gh->send_count = gh->recv_count + 2 * P;
    gh->send_displ = gh->recv_count + 3 * P;
#pragma omp parallel for schedule(static)
    for (int64_t e = 0; e < l->nnz; e++) {
        const int32_t v = l->adj[e];
        if (v < lo || v >= hi) {
            const uint64_t bit = (uint64_t)1 << (v & 63);
            if (!(seen[v >> 6] & bit)) {
#pragma omp atomic
                seen[v >> 6] |= bit;
            }
        }
    }
    int64_t u = 0;
#pragma omp parallel for schedule(static) reduction(+ : u)
    for (int64_t w = 0; w < words; w++)
        u += __builtin_popcountll(seen[w]);
    int rc = u > INT32_MAX - l->n ? error_set(err, COARSEN_ERR_NOMEM, "mpi: too many ghost vertices") : COARSEN_OK;
    gh->gid = rc ? NULL : xmalloc((size_t)(u ? u : 1) * sizeof *gh->gid, "ghost ids", err);
    if (!gh->gid) {
        free(seen);
        dist_ghosts_free(gh);
        return rc ? rc : COARSEN_ERR_NOMEM;
    }
    int64_t k = 0;
    for (int64_t w = 0; w < words; w++)
        for (uint64_t b = seen[w]; b; b &= b - 1)
            gh->gid[k++] = (int32_t)(w * 64 + __builtin_ctzll(b));
    free(seen);
    gh->nghost = (int32_t)u;
#pragma omp parallel for schedule(static)
    for (int64_t e = 0; e < l->nnz; e++)
        gh->ladj[e] = dist_ghosts_index(d, gh, l->adj[e]);
    /* the plan: what each owner sends here, then what is sent from here */
    memset(gh->recv_count, 0, (size_t)P * sizeof(int));
    for (int32_t i = 0; i < gh->nghost; i++)
        gh->recv_count[dist_owner(d->vtxdist, P, gh->gid[i])]++;
    MPI_Alltoall(gh->recv_count, 1, MPI_INT, gh->send_count, 1, MPI_INT, comm);
    int64_t nsend = 0;
    for (int r = 0, rd = 0; r < P; r++) {
        gh->recv_displ[r] = rd, rd += gh->recv_count[r];
        gh->send_displ[r] = (int)nsend, nsend += gh->send_count[r];
    }
    gh->send_idx = xmalloc((size_t)(nsend ? nsend : 1) * sizeof *gh->send_idx, "ghost plan", err);
    if (!gh->send_idx)
        MPI_Abort(comm, COARSEN_ERR_NOMEM); /* the others are in the collective below (dist.h) */
    dist_alltoallv_records(gh->gid, gh->recv_count, gh->recv_displ, gh->send_idx, gh->send_count, gh->send_displ,
                           sizeof *gh->gid, comm);
    for (int64_t i = 0; i < nsend; i++)
        gh->send_idx[i] -= lo;
    return COARSEN_OK;
}

int dist_ghosts_exchange(const dist_ghosts *gh, void *ext, size_t elem, MPI_Comm comm, coarsen_error *err)
{
    int P;
    MPI_Comm_size(comm, &P);
    int64_t nsend = P ? (int64_t)gh->send_displ[P - 1] + gh->send_count[P - 1] : 0;
    char *buf = xmalloc((size_t)(nsend ? nsend : 1) * elem, "ghost exchange", err);
    if (!buf)
        MPI_Abort(comm, COARSEN_ERR_NOMEM);
    char *x = ext;
#pragma omp parallel for schedule(static) if (nsend > 65536)
    for (int64_t i = 0; i < nsend; i++)
        memcpy(buf + (size_t)i * elem, x + (size_t)gh->send_idx[i] * elem, elem);
    dist_alltoallv_records(buf, gh->send_count, gh->send_displ, x + (size_t)gh->nlocal * elem, gh->recv_count,
                           gh->recv_displ, elem, comm);
    free(buf);
    return COARSEN_OK;
}
