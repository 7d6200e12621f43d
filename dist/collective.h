/* collective.h — what the collective steps of dist/ share: allocation that
 * ends the run when it fails (the other ranks would wait for this one in the
 * next collective: dist.h's error rule), displacements from counts, and the
 * all-to-all of fixed-size records (through NCCL when comm carries it:
 * dist/nccl.h). */
#ifndef DIST_COLLECTIVE_H
#define DIST_COLLECTIVE_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#include "coarsen.h"

/* Blocks from this size on are touched by dist_touch. */
#define DIST_TOUCH_BYTES ((size_t)1 << 20)

/* Writes a zero into every 4 KiB of p [bytes, host memory] on the OpenMP
 * threads when bytes >= DIST_TOUCH_BYTES: the pages of a fresh block are
 * faulted in, and zeroed by the kernel, on every thread rather than on the
 * one thread that writes them next (an MPI receive). Only for bytes about
 * to be written in full: untouched pages of a block cost nothing. Contents
 * are unspecified after. */
void dist_touch(void *p, size_t bytes);
/* count elements of size bytes (room for one when count is 0), owned by the
 * caller (free); on failure MPI_Abort(comm, COARSEN_ERR_NOMEM), naming what
 * in err first. */
void *dist_alloc(size_t count, size_t size, const char *what, MPI_Comm comm, coarsen_error *err);
/* displ[r] = count[0] + ... + count[r-1] for P ranks. */
void dist_prefix(const int *count, int *displ, int P);
/* The counts step of an all-to-all-v: sd from sc [in, P send counts], rc
 * [out] the counts every rank sends here (one MPI_Alltoall), rd from rc;
 * returns the total received. */
int64_t dist_exchange_counts(const int *sc, int *sd, int *rc, int *rd, int P, MPI_Comm comm);
/* MPI_Alltoallv of records of elem bytes each (counts and displacements in
 * records), or its NCCL form when comm carries an NCCL communicator; the
 * pages of recv's parts with a non-zero count touched first (dist_touch),
 * the rest of recv left as it is. */
void dist_alltoallv_records(const void *send, const int *sc, const int *sd, void *recv, const int *rc, const int *rd,
                            size_t elem, MPI_Comm comm);

#endif
