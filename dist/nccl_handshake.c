/* nccl_handshake.c — the distributed handshake's loop on GPUs
 * (dist/nccl.h's dist_nccl_handshake): the passes run on each rank's GPU
 * (dist/nccl_handshake.h), and one MPI_Allreduce of the active counts per
 * pass decides, on every rank alike, whether another pass runs
 * (dist/handshake.c's rule). */
#include <stdint.h>

#include "dist/nccl.h"
#include "dist/nccl_handshake.h"

int dist_nccl_handshake(const dist_graph *d, const dist_ghosts *gh, const matching_opts *mo, int32_t *mate,
                        int *passes, int64_t *matched, MPI_Comm comm)
{
    dist_nccl *nc = dist_nccl_of(comm);
    if (!nc)
        return 0;
    const dist_nccl_level lv = {d->local,      d->first,       gh->ladj,       gh->gid,
                                gh->nghost,    gh->send_idx,   gh->send_count, gh->send_displ,
                                gh->recv_count, gh->recv_displ};
    coarsen_error err = {0};
    dist_nccl_hs *s = NULL;
    dist_nccl_or_abort(dist_nccl_hs_begin(nc, &lv, mo, &s, &err), &err, comm);
    int64_t local = gh->nlocal, global = 0;
    MPI_Allreduce(&local, &global, 1, MPI_INT64_T, MPI_SUM, comm);
    *passes = 0;
    while (global > 0 && (mo->max_passes == 0 || *passes < mo->max_passes)) {
        dist_nccl_or_abort(dist_nccl_hs_pass(s, &local, &err), &err, comm);
        MPI_Allreduce(&local, &global, 1, MPI_INT64_T, MPI_SUM, comm);
        ++*passes;
    }
    dist_nccl_or_abort(dist_nccl_hs_mates(s, mate, &err), &err, comm);
    dist_nccl_hs_free(s);
    int64_t m = 0;
    for (int32_t v = 0; v < gh->nlocal; v++)
        m += mate[v] >= 0;
    MPI_Allreduce(&m, matched, 1, MPI_INT64_T, MPI_SUM, comm);
    return 1;
}
