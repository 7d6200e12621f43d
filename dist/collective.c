/* collective.c — the shared pieces of dist/'s collective steps
 * (collective.h). */
#include "dist/collective.h"

#include "core/error.h"
#if COARSEN_HAVE_NCCL
#include "dist/nccl.h"
#endif

void dist_touch(void *p, size_t bytes)
{
    if (bytes < DIST_TOUCH_BYTES)
        return;
    volatile char *c = p;
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < bytes; i += 4096)
        c[i] = 0;
}

void *dist_alloc(size_t count, size_t size, const char *what, MPI_Comm comm, coarsen_error *err)
{
    void *p = xmalloc((count ? count : 1) * size, what, err);
    if (!p)
        MPI_Abort(comm, COARSEN_ERR_NOMEM);
    return p;
}

void dist_prefix(const int *count, int *displ, int P)
{
    for (int r = 0, s = 0; r < P; r++)
        displ[r] = s, s += count[r];
}

void dist_alltoallv_records(const void *send, const int *sc, const int *sd, void *recv, const int *rc, const int *rd,
                            size_t elem, MPI_Comm comm)
{
    int P;
    MPI_Comm_size(comm, &P);
    for (int r = 0; r < P; r++) /* the parts received are written by one thread below */
        dist_touch((char *)recv + (size_t)rd[r] * elem, (size_t)rc[r] * elem);
#if COARSEN_HAVE_NCCL
    if (dist_nccl_records(send, sc, sd, recv, rc, rd, elem, comm)) /* the GPUs' exchange (dist/nccl.h) */
        return;
#endif
    MPI_Datatype t;
    MPI_Type_contiguous((int)elem, MPI_BYTE, &t);
    MPI_Type_commit(&t);
    MPI_Alltoallv(send, sc, sd, t, recv, rc, rd, t, comm);
    MPI_Type_free(&t);
}

int64_t dist_exchange_counts(const int *sc, int *sd, int *rc, int *rd, int P, MPI_Comm comm)
{
    dist_prefix(sc, sd, P);
    MPI_Alltoall(sc, 1, MPI_INT, rc, 1, MPI_INT, comm);
    dist_prefix(rc, rd, P);
    return (int64_t)rd[P - 1] + rc[P - 1];
}
