/* two_hop.h — two-hop pairing (matching/two_hop.h) on a distributed level,
 * with exactly two_hop_cpu's pairs and figures at any number of ranks. The
 * rules pair within classes: islands (one class), vertices of one degree and
 * one neighbour-list hash (leaves and twins), and relatives by hub. Each
 * candidate goes, with its weight and its list, to the rank that owns its
 * class (a hash of (degree, list hash); relatives: the owner of the hub), so
 * that every class is whole on one rank; there matching/two_hop_classes.h's
 * steps pair it as two_hop_cpu does, in the same (key, hash, id) order, and
 * the partners go back to the owners. */
#ifndef DIST_TWO_HOP_H
#define DIST_TWO_HOP_H

#include "dist/ghosts.h"
#include "matching/two_hop.h"

/* Collective. d, gh [in]: the level and its ghost layer; o [in]: the cap and
 * the relatives threshold; mate [in/out, d->local->n entries, global ids]:
 * the matching, extended with two-hop pairs (which are not edges: partners
 * may be neither local nor ghosts). *st [out]: pair counts and cap_blocked
 * of the whole level, and ms (this rank's wall time). Messages: per rule
 * group (rules 0-2, then rule 3 when it runs) three MPI_Alltoall of counts,
 * three MPI_Alltoallv (candidates, lists, partners back) and one
 * MPI_Allreduce; one ghost exchange and one MPI_Allreduce for cap_blocked. */
int dist_two_hop(const dist_graph *d, const dist_ghosts *gh, const two_hop_opts *o, int32_t *mate, two_hop_stats *st,
                 MPI_Comm comm, coarsen_error *err);

#endif
