/* gather.c — a distributed level and per-vertex arrays gathered to rank 0
 * (gather.h). */
#include "dist/gather.h"

#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "dist/collective.h"

/* Receive counts and displacements of the vertex blocks (rank 0). */
static int *block_counts(const dist_graph *d, MPI_Comm comm, coarsen_error *err)
{
    int *c = xmalloc(2 * (size_t)d->nranks * sizeof *c, "gather counts", err);
    if (!c)
        MPI_Abort(comm, COARSEN_ERR_NOMEM); /* the others wait in the gather (dist.h) */
    for (int r = 0; r < d->nranks; r++)
        c[r] = (int)(d->vtxdist[r + 1] - d->vtxdist[r]), c[d->nranks + r] = (int)d->vtxdist[r];
    return c;
}

int dist_gather_ints(const dist_graph *d, const int32_t *local, MPI_Comm comm, int32_t **out, coarsen_error *err)
{
    *out = NULL;
    int *c = block_counts(d, comm, err);
    int32_t *all = NULL;
    if (d->rank == 0 && !(all = xmalloc((size_t)(d->n ? d->n : 1) * sizeof *all, "gathered map", err)))
        MPI_Abort(comm, COARSEN_ERR_NOMEM);
    MPI_Gatherv(local, d->local->n, MPI_INT32_T, all, c, c + d->nranks, MPI_INT32_T, 0, comm);
    free(c);
    *out = all;
    return COARSEN_OK;
}

int dist_gather_graph(const dist_graph *d, MPI_Comm comm, coarsen_graph **out, coarsen_error *err)
{
    *out = NULL;
    const coarsen_graph *l = d->local;
    int *c = block_counts(d, comm, err);
    int64_t *deg = xmalloc(((size_t)l->n + 1) * sizeof *deg, "row lengths", err);
    coarsen_graph *g = NULL;
    int64_t *gdeg = NULL;
    if (d->rank == 0) {
        g = coarsen_graph_alloc(d->n, d->nnz, err);
        gdeg = g ? xmalloc(((size_t)d->n + 1) * sizeof *gdeg, "row lengths", err) : NULL;
        if (gdeg) /* the receives below write serially */
            dist_touch(g->adj, (size_t)d->nnz * sizeof *g->adj), dist_touch(g->ewgt, (size_t)d->nnz * sizeof *g->ewgt);
    }
    if (!deg || (d->rank == 0 && !gdeg))
        MPI_Abort(comm, COARSEN_ERR_NOMEM);
    for (int32_t v = 0; v < l->n; v++)
        deg[v] = l->xadj[v + 1] - l->xadj[v];
    MPI_Gatherv(deg, l->n, MPI_INT64_T, gdeg, c, c + d->nranks, MPI_INT64_T, 0, comm);
    MPI_Gatherv(l->vwgt, l->n, MPI_INT64_T, g ? g->vwgt : NULL, c, c + d->nranks, MPI_INT64_T, 0, comm);
    int count;
    if (dist_int_count(l->nnz, "entries", &count, err))
        MPI_Abort(comm, COARSEN_ERR_NOMEM);
    if (d->rank == 0) {
        g->integral_weights = d->integral_weights;
        g->xadj[0] = 0;
        for (int32_t v = 0; v < d->n; v++)
            g->xadj[v + 1] = g->xadj[v] + gdeg[v];
        memcpy(g->adj, l->adj, (size_t)l->nnz * sizeof *g->adj);
        memcpy(g->ewgt, l->ewgt, (size_t)l->nnz * sizeof *g->ewgt);
        for (int r = 1; r < d->nranks; r++) {
            int64_t at = g->xadj[d->vtxdist[r]], n = g->xadj[d->vtxdist[r + 1]] - at;
            MPI_Recv(g->adj + at, (int)n, MPI_INT32_T, r, 3, comm, MPI_STATUS_IGNORE);
            MPI_Recv(g->ewgt + at, (int)n, MPI_DOUBLE, r, 4, comm, MPI_STATUS_IGNORE);
        }
    } else {
        MPI_Send(l->adj, count, MPI_INT32_T, 0, 3, comm);
        MPI_Send(l->ewgt, count, MPI_DOUBLE, 0, 4, comm);
    }
    free(gdeg), free(deg), free(c);
    *out = g;
    return COARSEN_OK;
}
