/* nccl.h — coarsen-mpi on GPUs (docs/distributed.md, "GPUs with NCCL"): one
 * rank per GPU (the node-local rank modulo the node's GPU count), an NCCL
 * communicator bootstrapped over MPI (rank 0's ncclUniqueId broadcast) and
 * attached, as an MPI attribute, to a duplicate of the run's communicator.
 * dist/'s exchanges of values and records (dist_alltoallv_records,
 * dist_ghosts_exchange) find it there and go through NCCL
 * (dist/nccl_exchange.h) instead of MPI_Alltoallv; MPI keeps the control:
 * counts, prefix sums, reductions, broadcasts, the gathers to rank 0.
 * Built when the Makefile finds NCCL (COARSEN_HAVE_NCCL = 1). */
#ifndef DIST_NCCL_H
#define DIST_NCCL_H

#include <mpi.h>
#include <stddef.h>

#include "coarsen.h"
#include "dist/ghosts.h"
#include "matching/matching.h"

/* Collective over comm. Selects this rank's GPU and opens the NCCL
 * communicator; *gcomm [out]: a duplicate of comm carrying it (release with
 * dist_nccl_close), *gpus [out]: the GPUs used (one per rank). The status
 * is the same on every rank: a rank without a GPU, with more ranks than
 * GPUs on its node (NCCL refuses two ranks on one GPU), or whose NCCL
 * fails, fails them all (err names the cause on the rank that saw it). */
int dist_nccl_open(MPI_Comm comm, MPI_Comm *gcomm, int *gpus, coarsen_error *err);
/* Collective: frees *gcomm and its NCCL communicator. */
void dist_nccl_close(MPI_Comm *gcomm);

/* The NCCL communicator comm carries, or NULL. */
struct dist_nccl *dist_nccl_of(MPI_Comm comm);
/* Ends the run when rc, a failed step's status, is not 0: prints err's
 * message and calls MPI_Abort (the other ranks wait inside NCCL or MPI). */
void dist_nccl_or_abort(int rc, const coarsen_error *err, MPI_Comm comm);

/* The hook of dist_alltoallv_records (and so of dist_ghosts_exchange): when
 * comm carries an NCCL communicator, run the exchange through it and return
 * 1 (a rank whose exchange fails prints the error and calls MPI_Abort:
 * dist.h's rule); otherwise return 0 and do nothing. */
int dist_nccl_records(const void *send, const int *sc, const int *sd, void *recv, const int *rc, const int *rd,
                      size_t elem, MPI_Comm comm);
/* dist_handshake's passes on the GPUs (dist/nccl_handshake.h), the same
 * arguments and results. */
int dist_nccl_handshake(const dist_graph *d, const dist_ghosts *gh, const matching_opts *mo, int32_t *mate,
                        int *passes, int64_t *matched, MPI_Comm comm);

#endif
