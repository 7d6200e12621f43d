/* symmetry.c — the distributed symmetry check of a graph just read
 * (symmetry.h). */
#include "dist/symmetry.h"

#include <stdlib.h>

#include "dist/collective.h"

typedef struct mirror {
    int32_t v, u; /* the entry v of row u, sent to v's owner as (v, u) */
    double w;
} mirror;

int dist_graph_symmetric(const dist_graph *d, MPI_Comm comm, coarsen_error *err)
{
    const coarsen_graph *l = d->local;
    const int P = d->nranks;
    int *c = dist_alloc(4 * (size_t)P, sizeof *c, "mirror counts", comm, err);
    int *sc = c, *sd = c + P, *rc = c + 2 * P, *rd = c + 3 * P;
    int64_t *n64 = dist_alloc((size_t)P, sizeof *n64, "mirror counts", comm, err);
    for (int r = 0; r < P; r++)
        n64[r] = 0;
    int *owner = dist_alloc((size_t)l->nnz, sizeof *owner, "mirror owners", comm, err);
#pragma omp parallel for schedule(static)
    for (int64_t e = 0; e < l->nnz; e++)
        owner[e] = dist_owner(d->vtxdist, P, l->adj[e]);
    for (int64_t e = 0; e < l->nnz; e++)
        n64[owner[e]]++;
    for (int r = 0; r < P; r++)
        if (dist_int_count(n64[r], "mirrors", &sc[r], err))
            MPI_Abort(comm, COARSEN_ERR_NOMEM); /* the others are in the all-to-all (dist.h) */
    const int64_t got = dist_exchange_counts(sc, sd, rc, rd, P, comm);
    mirror *send = dist_alloc((size_t)l->nnz, sizeof *send, "mirrors", comm, err);
    mirror *recv = dist_alloc((size_t)got, sizeof *recv, "mirrors", comm, err);
    for (int r = 0; r < P; r++)
        n64[r] = sd[r];
    for (int32_t u = 0; u < l->n; u++)
        for (int64_t e = l->xadj[u]; e < l->xadj[u + 1]; e++)
            send[n64[owner[e]]++] = (mirror){l->adj[e], d->first + u, l->ewgt[e]};
    free(owner);
    dist_alltoallv_records(send, sc, sd, recv, rc, rd, sizeof *send, comm);
    free(send);
    /* the k-th mirror of row v must be its k-th entry */
    int64_t *at = dist_alloc((size_t)l->n + 1, sizeof *at, "mirror cursors", comm, err);
    for (int32_t v = 0; v <= l->n; v++)
        at[v] = l->xadj[v];
    int ok = 1;
    for (int64_t k = 0; ok && k < got; k++) {
        const int32_t v = recv[k].v - d->first;
        const int64_t e = at[v]++;
        ok = e < l->xadj[v + 1] && l->adj[e] == recv[k].u && l->ewgt[e] == recv[k].w;
    }
    for (int32_t v = 0; ok && v < l->n; v++)
        ok = at[v] == l->xadj[v + 1];
    free(at), free(recv), free(n64), free(c);
    int all = 0;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, comm);
    return all;
}
