/* nccl_exchange.h — the device side of coarsen-mpi's GPU exchanges
 * (dist/nccl.h): an NCCL communicator of one rank per GPU, and dist/'s
 * all-to-all exchanges as grouped ncclSend/ncclRecv of device buffers (NCCL
 * has no all-to-all-v), the ghost exchange's values packed on the device by
 * a gather kernel. C interface over dist/nccl_exchange.cu; no MPI here (the
 * bootstrap's broadcast is dist/nccl_comm.c's). CUDA builds with NCCL only.
 *
 * Counts and displacements are in records of elem bytes, per rank, on the
 * host (MPI's int counts, as dist/ agreed them); the payloads cross the
 * link as bytes, so no NCCL count limit below 2^64 applies. Every call is
 * collective over the NCCL communicator and returns when its data has
 * arrived. Errors: COARSEN_ERR_DEVICE (CUDA or NCCL, naming the call) or
 * COARSEN_ERR_NOMEM (device memory), in err. */
#ifndef DIST_NCCL_EXCHANGE_H
#define DIST_NCCL_EXCHANGE_H

#include <stddef.h>
#include <stdint.h>

#include "coarsen.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Size of an ncclUniqueId (NCCL_UNIQUE_ID_BYTES, checked in the .cu). */
#define DIST_NCCL_ID_BYTES 128

typedef struct dist_nccl dist_nccl;

/* id [out]: a fresh NCCL unique id (rank 0 makes it, MPI broadcasts it). */
int dist_nccl_make_id(unsigned char id[DIST_NCCL_ID_BYTES], coarsen_error *err);
/* Collective over the P ranks sharing id: this rank's communicator on the
 * GPU already selected (device_use_ordinal), with its own stream. *out [out]
 * is owned by the caller (dist_nccl_destroy). */
int dist_nccl_create(int nranks, int rank, const unsigned char id[DIST_NCCL_ID_BYTES], dist_nccl **out,
                     coarsen_error *err);
void dist_nccl_destroy(dist_nccl *nc);
/* The communicator's number of ranks. */
int dist_nccl_size(const dist_nccl *nc);

/* The all-to-all-v of records between host buffers: send [in] and recv
 * [out] are host memory; the non-empty parts are uploaded, packed, into one
 * device buffer, exchanged by one ncclSend/ncclRecv pair per rank with a
 * non-empty part (itself too, if its counts are not 0: dist/nccl_comm.c
 * copies a rank's own part on the host and passes 0 here), in one NCCL
 * group, and downloaded to their places in recv. Nothing to move: no NCCL
 * call. */
int dist_nccl_alltoallv_host(dist_nccl *nc, const void *send, const int *sc, const int *sd, void *recv, const int *rc,
                             const int *rd, size_t elem, coarsen_error *err);
/* The ghost exchange (dist/ghosts.h) on the device: d_ext [in/out, device]
 * the extended array, whose local part [0, nlocal) is sent and whose ghost
 * part [nlocal, ...) receives (grouped by owner as rc/rd say), d_idx [in,
 * device] the plan's send_idx (grouped by destination as sc/sd say),
 * d_packed [device scratch, room for the sent records, 8-byte aligned];
 * ordered on the device layer's stream (device_stream), nothing crosses to
 * the host. */
int dist_nccl_ghosts_dev(dist_nccl *nc, const int32_t *d_idx, const int *sc, const int *sd, const int *rc,
                         const int *rd, void *d_ext, int32_t nlocal, size_t elem, void *d_packed, coarsen_error *err);

#ifdef __cplusplus
}
#endif

#endif
