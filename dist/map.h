/* map.h — the coarse map of a distributed level from its groups: one coarse
 * vertex per group (a pair or an unmatched vertex of a matching, any group
 * of HEC), numbered in order of the groups' leaders, their smallest fine ids
 * (contract_map_from_mates_cpu's numbering, and hec_cpu's), by a global
 * prefix sum (MPI_Exscan) of each rank's leaders; a member whose leader is
 * elsewhere asks the leader's owner for the id. */
#ifndef DIST_MAP_H
#define DIST_MAP_H

#include "dist/ghosts.h"

/* Collective. leader [in, d->local->n entries]: the global id of each local
 * vertex's group leader (itself for a leader); mate [in, may be NULL]: for a
 * matching, the global partner ids or -1, checked to be a symmetric pairing
 * against leader. COARSEN_ERR_INPUT on every rank when a leader does not
 * lead itself (or the mates are not symmetric). cmap [out, caller-allocated,
 * nlocal + nghost entries]: the global coarse id of every local vertex and
 * of every ghost (the extended layout of ghosts.h, so the contraction reads
 * its neighbours' ids there). *nc [out]: coarse vertices of the whole level.
 * cvtx [out, caller-allocated, nranks + 1 entries]: the coarse level's
 * blocks (dist_blocks_weighted), of about equal work by the fine rows of
 * each group. multi [out, may be NULL, nlocal entries]: 1 at the local
 * leaders of groups of two or more. Messages: one MPI_Exscan, two
 * MPI_Allreduce, one MPI_Alltoall and two MPI_Alltoallv (requests for the
 * leaders' ids on other ranks, 12 B there and 12 back per such member), one
 * ghost exchange; for the blocks one MPI_Exscan and three MPI_Allreduce. */
int dist_map_from_leaders(const dist_graph *d, const dist_ghosts *gh, const int32_t *leader, const int32_t *mate,
                          int32_t *cmap, int32_t *nc, int64_t *cvtx, uint8_t *multi, MPI_Comm comm,
                          coarsen_error *err);
/* dist_map_from_leaders for a matching: mate [in] as above (pairs need not be
 * edges: two-hop pairs are not), each pair led by its smaller id. */
int dist_map_from_mates(const dist_graph *d, const dist_ghosts *gh, const int32_t *mate, int32_t *cmap, int32_t *nc,
                        int64_t *cvtx, MPI_Comm comm, coarsen_error *err);

#endif
