/* nccl_comm.c — the MPI side of coarsen-mpi's GPU exchanges (dist/nccl.h):
 * the GPU of each rank, the bootstrap of the NCCL communicator over MPI, its
 * attachment to the run's communicator, and the hooks that route dist/'s
 * exchanges to it. */
#include "dist/nccl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "device/device.h"
#include "dist/nccl_exchange.h"

static int nccl_key = MPI_KEYVAL_INVALID;

static int delete_nccl(MPI_Comm comm, int key, void *val, void *extra)
{
    (void)comm, (void)key, (void)extra;
    dist_nccl_destroy(val);
    return MPI_SUCCESS;
}

dist_nccl *dist_nccl_of(MPI_Comm comm)
{
    if (nccl_key == MPI_KEYVAL_INVALID)
        return NULL;
    void *val = NULL;
    int flag = 0;
    MPI_Comm_get_attr(comm, nccl_key, &val, &flag);
    return flag ? val : NULL;
}

/* The worst status over the ranks; a rank that saw none names the others. */
static int agree(int rc, MPI_Comm comm, coarsen_error *err)
{
    int worst = 0;
    MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MAX, comm);
    int rank;
    MPI_Comm_rank(comm, &rank);
    if (rc && rank != 0) /* only rank 0 reports the run's error */
        fprintf(stderr, "coarsen-mpi: rank %d: %s\n", rank, err->msg);
    if (worst && !rc)
        return error_set(err, worst, "mpi: another rank could not open its GPU for NCCL");
    return worst;
}

/* This rank's GPU: its rank among the ranks of its node, modulo the node's GPUs. */
static int select_gpu(MPI_Comm comm, int rank, coarsen_error *err)
{
    MPI_Comm node;
    int local = 0, on_node = 1;
    MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
    MPI_Comm_rank(node, &local);
    MPI_Comm_size(node, &on_node);
    MPI_Comm_free(&node);
    const int count = device_gpu_count();
    if (count == 0)
        return error_set(err, COARSEN_ERR_DEVICE, "--device gpu: rank %d sees no usable CUDA GPU", rank);
    if (on_node > count)
        return error_set(err, COARSEN_ERR_DEVICE,
                         "--device gpu: %d ranks on the node of rank %d for %d GPUs (one rank per GPU)", on_node,
                         rank, count);
    return device_use_ordinal(local % count, err);
}

int dist_nccl_open(MPI_Comm comm, MPI_Comm *gcomm, int *gpus, coarsen_error *err)
{
    *gcomm = MPI_COMM_NULL;
    *gpus = 0;
    int rank, P;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &P);
    unsigned char id[DIST_NCCL_ID_BYTES] = {0};
    int rc = select_gpu(comm, rank, err);
    if (!rc && rank == 0)
        rc = dist_nccl_make_id(id, err);
    if ((rc = agree(rc, comm, err)))
        return rc;
    MPI_Bcast(id, DIST_NCCL_ID_BYTES, MPI_BYTE, 0, comm);
    dist_nccl *nc = NULL;
    if ((rc = agree(dist_nccl_create(P, rank, id, &nc, err), comm, err))) {
        dist_nccl_destroy(nc);
        return rc;
    }
    if (nccl_key == MPI_KEYVAL_INVALID)
        MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_nccl, &nccl_key, NULL);
    MPI_Comm_dup(comm, gcomm);
    MPI_Comm_set_attr(*gcomm, nccl_key, nc);
    *gpus = P;
    return COARSEN_OK;
}

void dist_nccl_close(MPI_Comm *gcomm)
{
    if (*gcomm != MPI_COMM_NULL)
        MPI_Comm_free(gcomm); /* delete_nccl destroys the NCCL communicator */
}

void dist_nccl_or_abort(int rc, const coarsen_error *err, MPI_Comm comm)
{
    if (!rc)
        return;
    fprintf(stderr, "coarsen-mpi: %s\n", err->msg);
    MPI_Abort(comm, rc);
}

int dist_nccl_records(const void *send, const int *sc, const int *sd, void *recv, const int *rc, const int *rd,
                      size_t elem, MPI_Comm comm)
{
    dist_nccl *nc = dist_nccl_of(comm);
    if (!nc)
        return 0;
    /* this rank's own part by a host copy on the OpenMP threads, not through the GPU */
    int rank, P = dist_nccl_size(nc);
    MPI_Comm_rank(comm, &rank);
    const char *from = (const char *)send + (size_t)sd[rank] * elem;
    char *to = (char *)recv + (size_t)rd[rank] * elem;
    const size_t self = (size_t)sc[rank] * elem, piece = (size_t)1 << 22;
#pragma omp parallel for schedule(static) if (self > piece)
    for (size_t at = 0; at < self; at += piece)
        memcpy(to + at, from + at, self - at < piece ? self - at : piece);
    coarsen_error err = {0};
    int *others = xmalloc(2 * (size_t)P * sizeof *others, "NCCL all-to-all plan", &err);
    if (!others)
        dist_nccl_or_abort(COARSEN_ERR_NOMEM, &err, comm);
    memcpy(others, sc, (size_t)P * sizeof *others);
    memcpy(others + P, rc, (size_t)P * sizeof *others);
    others[rank] = others[P + rank] = 0;
    dist_nccl_or_abort(dist_nccl_alltoallv_host(nc, send, others, sd, recv, others + P, rd, elem, &err), &err, comm);
    free(others);
    return 1;
}
