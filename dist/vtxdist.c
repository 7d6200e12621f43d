/* vtxdist.c — the block distribution (vtxdist.h): blocks of equal work,
 * owner lookup, and rank 0's graph scattered into the ranks' blocks. */
#include "dist/vtxdist.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"

void dist_blocks_weighted(int64_t count, const int64_t *w, int64_t *vtxdist, MPI_Comm comm)
{
    int P;
    MPI_Comm_size(comm, &P);
    int64_t mine = 0, before = 0, total = 0;
    for (int64_t i = 0; i < count; i++)
        mine += w[i];
    MPI_Exscan(&mine, &before, 1, MPI_INT64_T, MPI_SUM, comm);
    int rank;
    MPI_Comm_rank(comm, &rank);
    if (rank == 0)
        before = 0; /* MPI_Exscan leaves rank 0's result undefined */
    MPI_Allreduce(&mine, &total, 1, MPI_INT64_T, MPI_SUM, comm);
    /* vtxdist[k] = items whose weight before them is below k total / P: each
     * rank counts its own, targets and items both in increasing order */
    int64_t *below = xmalloc(2 * ((size_t)P + 1) * sizeof *below, "vtxdist", NULL);
    if (!below)
        MPI_Abort(comm, COARSEN_ERR_NOMEM); /* the others are in the reduction below (dist.h) */
    int64_t i = 0, at = before;
    for (int k = 0; k <= P; k++) {
        const int64_t target = total * (int64_t)k / P;
        while (i < count && at < target)
            at += w[i++];
        below[k] = i;
    }
    MPI_Allreduce(below, below + P + 1, P + 1, MPI_INT64_T, MPI_SUM, comm);
    int64_t items = 0;
    MPI_Allreduce(&count, &items, 1, MPI_INT64_T, MPI_SUM, comm);
    for (int k = 0; k <= P; k++)
        vtxdist[k] = k == P ? items : below[P + 1 + k];
    free(below);
}

int dist_owner(const int64_t *vtxdist, int nranks, int64_t v)
{
    int lo = 0, hi = nranks - 1; /* the last r with vtxdist[r] <= v (blocks may be empty) */
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (vtxdist[mid] <= v)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

int dist_int_count(int64_t count, const char *what, int *out, coarsen_error *err)
{
    if (count < 0 || count > INT_MAX)
        return error_set(err, COARSEN_ERR_NOMEM, "mpi: %lld %s in one message (MPI counts stop at 2^31)",
                         (long long)count, what);
    *out = (int)count;
    return COARSEN_OK;
}

int dist_graph_init(dist_graph *d, int32_t n, const int64_t *vtxdist, int64_t nnz_local, int integral,
                    MPI_Comm comm, coarsen_error *err)
{
    memset(d, 0, sizeof *d);
    MPI_Comm_size(comm, &d->nranks);
    MPI_Comm_rank(comm, &d->rank);
    d->n = n;
    d->integral_weights = integral;
    d->vtxdist = xmalloc(((size_t)d->nranks + 1) * sizeof *d->vtxdist, "vtxdist", err);
    if (!d->vtxdist)
        return COARSEN_ERR_NOMEM;
    memcpy(d->vtxdist, vtxdist, ((size_t)d->nranks + 1) * sizeof *d->vtxdist);
    d->first = (int32_t)vtxdist[d->rank];
    d->local = coarsen_graph_alloc((int32_t)(vtxdist[d->rank + 1] - vtxdist[d->rank]), nnz_local, err);
    if (!d->local) {
        dist_graph_free(d);
        return COARSEN_ERR_NOMEM;
    }
    d->local->integral_weights = integral;
    return COARSEN_OK;
}

void dist_graph_free(dist_graph *d)
{
    free(d->vtxdist);
    coarsen_graph_free(d->local);
    memset(d, 0, sizeof *d);
}

int dist_graph_scatter(const coarsen_graph *g, MPI_Comm comm, dist_graph *out, coarsen_error *err)
{
    int rank, P;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &P);
    int64_t head[3] = {0, 0, 0}; /* n, nnz, integral */
    if (rank == 0)
        head[0] = g->n, head[1] = g->nnz, head[2] = g->integral_weights;
    MPI_Bcast(head, 3, MPI_INT64_T, 0, comm);
    /* every step is collective: a rank that fails aborts the run (dist.h) */
    int64_t *vtxdist = xmalloc(((size_t)P + 1) * sizeof *vtxdist, "vtxdist", err);
    int *cnt = vtxdist ? xmalloc(2 * (size_t)P * sizeof *cnt, "scatter counts", err) : NULL;
    int64_t *nnz_of = cnt ? xmalloc((size_t)P * sizeof *nnz_of, "scatter counts", err) : NULL;
    if (!nnz_of)
        MPI_Abort(comm, COARSEN_ERR_NOMEM);
    int *displ = cnt + P;
    if (rank == 0) /* blocks of equal work: vertex v weighs 1 + its degree */
        for (int r = 0; r <= P; r++) {
            const int64_t target = (g->n + g->nnz) * (int64_t)r / P;
            int64_t lo = 0, hi = g->n; /* the vertices whose weights before them sum below target */
            while (lo < hi) {
                int64_t mid = lo + (hi - lo) / 2;
                if (mid + g->xadj[mid] < target)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            vtxdist[r] = r == P ? g->n : lo;
        }
    MPI_Bcast(vtxdist, P + 1, MPI_INT64_T, 0, comm);
    int64_t lo = vtxdist[rank], hi = vtxdist[rank + 1];
    /* entries per rank: rank 0 knows them from xadj; each share must fit an MPI count */
    int dummy, rc = COARSEN_OK;
    if (rank == 0)
        for (int r = 0; r < P; r++) {
            nnz_of[r] = g->xadj[vtxdist[r + 1]] - g->xadj[vtxdist[r]];
            if (!rc)
                rc = dist_int_count(nnz_of[r], "entries", &dummy, err);
        }
    if (rc)
        MPI_Abort(comm, rc);
    int64_t mine = 0;
    MPI_Scatter(nnz_of, 1, MPI_INT64_T, &mine, 1, MPI_INT64_T, 0, comm);
    rc = dist_graph_init(out, (int32_t)head[0], vtxdist, mine, (int)head[2], comm, err);
    if (rc)
        MPI_Abort(comm, rc);
    coarsen_graph *l = out->local;
    int64_t *deg = xmalloc(((size_t)(hi - lo) + 1) * sizeof *deg, "row lengths", err);
    int64_t *gdeg = NULL;
    if (rank == 0) {
        gdeg = xmalloc(((size_t)g->n + 1) * sizeof *gdeg, "row lengths", err);
        for (int32_t v = 0; gdeg && v < g->n; v++)
            gdeg[v] = g->xadj[v + 1] - g->xadj[v];
    }
    if (!deg || (rank == 0 && !gdeg))
        MPI_Abort(comm, COARSEN_ERR_NOMEM);
    for (int r = 0; r < P; r++)
        cnt[r] = (int)(vtxdist[r + 1] - vtxdist[r]), displ[r] = (int)vtxdist[r];
    MPI_Scatterv(gdeg, cnt, displ, MPI_INT64_T, deg, (int)(hi - lo), MPI_INT64_T, 0, comm);
    MPI_Scatterv(rank == 0 ? g->vwgt : NULL, cnt, displ, MPI_INT64_T, l->vwgt, (int)(hi - lo), MPI_INT64_T, 0,
                 comm);
    l->xadj[0] = 0;
    for (int64_t v = 0; v < hi - lo; v++)
        l->xadj[v + 1] = l->xadj[v] + deg[v];
    /* entries point to point: displacements into rank 0's arrays may pass 2^31 */
    if (rank == 0) {
        for (int r = 1; r < P; r++) {
            int64_t at = g->xadj[vtxdist[r]];
            MPI_Send(g->adj + at, (int)nnz_of[r], MPI_INT32_T, r, 1, comm);
            MPI_Send(g->ewgt + at, (int)nnz_of[r], MPI_DOUBLE, r, 2, comm);
        }
        memcpy(l->adj, g->adj, (size_t)mine * sizeof *l->adj);
        memcpy(l->ewgt, g->ewgt, (size_t)mine * sizeof *l->ewgt);
    } else {
        MPI_Recv(l->adj, (int)mine, MPI_INT32_T, 0, 1, comm, MPI_STATUS_IGNORE);
        MPI_Recv(l->ewgt, (int)mine, MPI_DOUBLE, 0, 2, comm, MPI_STATUS_IGNORE);
    }
    out->nnz = head[1];
    free(gdeg);
    free(deg);
    free(nnz_of);
    free(cnt);
    free(vtxdist);
    return COARSEN_OK;
}
