/* hec.h — heavy-edge clustering on a distributed level: hec_cpu's steps
 * (matching/hec.h) with the same results at any number of ranks. Choices
 * (dist_best_neighbour) and mutual roots read the ghosts' weights and
 * choices; each joining round brings the ghosts' leaders, sends every
 * candidate (its choice's leader known) to the owner of that leader, where
 * the group weight lives, which sorts what it received by (leader, rating
 * descending, id) and admits prefixes under the cap as hec_cpu does, and
 * sends the verdicts back; the islands left alone join groups by position
 * (each leader's owner offers its group's weight to the owner of the island
 * of the same position) and the other vertices left alone are paired by
 * two-hop's rules (dist_two_hop), as hec_cpu's step 4 does; the map numbers
 * the groups by leader (dist_map_from_leaders). */
#ifndef DIST_HEC_H
#define DIST_HEC_H

#include "dist/ghosts.h"
#include "matching/hec.h"

/* Collective. d, gh [in]: the level and its ghost layer; mo [in]: rating,
 * ties and seed, cap. cmap, *nc, cvtx [out]: as dist_map_from_leaders's.
 * st [out]: rounds, grouped, the pairs of step 4 by rule, cap_blocked of the whole level,
 * the same on every rank and as hec_cpu's (ms aside). Messages per round:
 * one ghost exchange (4 B), one MPI_Allreduce, one MPI_Alltoall and two
 * MPI_Alltoallv (24 B per candidate there, 1 B back); step 4's islands one
 * MPI_Allgather, one MPI_Alltoall, one MPI_Alltoallv (24 B per offer) and
 * one MPI_Allreduce. */
int dist_hec(const dist_graph *d, const dist_ghosts *gh, const matching_opts *mo, int32_t *cmap, int32_t *nc,
             int64_t *cvtx, hec_stats *st, MPI_Comm comm, coarsen_error *err);

#endif
