/* contract.h — contraction of a distributed level by its coarse map. The
 * coarse level is distributed in the blocks of coarse ids the caller gives
 * (dist_map_from_mates chooses them); every fine row goes, as (coarse id, fine id, vertex weight,
 * its entries as (coarse neighbour, weight) in stored order, internal ones
 * dropped), to the owner of its coarse vertex by MPI_Alltoallv, and the
 * owner merges each coarse row in the fixed order of
 * docs/design-contraction.md: members in increasing fine id, each member's
 * entries in stored order, the first entry of a neighbour opening its sum
 * and the next ones added left to right (through a per-row table from
 * neighbour to slot), rows sorted by
 * neighbour; for real weights, (c, b) with b < c then takes the weight of
 * (b, c), sent to c's owner. The coarse level is therefore the one
 * contract_cpu builds, bit for bit, in blocks. */
#ifndef DIST_CONTRACT_H
#define DIST_CONTRACT_H

#include "dist/ghosts.h"

/* Collective. d, gh [in]: the fine level and its ghost layer; cmap [in]:
 * coarse ids of local vertices and ghosts (dist_map_from_mates), onto
 * [0, nc); cvtx [in]: the coarse level's vtxdist (nranks + 1 entries, the
 * same on every rank). *out [out, owned by the caller, dist_graph_free]: the coarse
 * level. Messages: three MPI_Alltoallv of the rows (headers, neighbours,
 * weights) after one MPI_Alltoall of counts, one MPI_Allreduce, and for real
 * weights one more MPI_Alltoall + MPI_Alltoallv of the mirrored weights. */
int dist_contract(const dist_graph *d, const dist_ghosts *gh, const int32_t *cmap, int32_t nc, const int64_t *cvtx,
                  dist_graph *out, MPI_Comm comm, coarsen_error *err);

#endif
