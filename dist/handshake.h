/* handshake.h — the handshake matcher on a distributed level: the same
 * passes as matching/handshake_cpu.c (every active vertex points at its best
 * rated eligible unmatched neighbour under edge_order.h's total order,
 * mutual pointers match, vertices with no candidate retire), with the ghosts'
 * mate status and pointers exchanged each pass. Since the order is global
 * (ratings from global vertex weights, tie ranks from global ids), every
 * pass sees exactly what the single-process pass sees, and the mates are
 * identical at any number of ranks. */
#ifndef DIST_HANDSHAKE_H
#define DIST_HANDSHAKE_H

#include "dist/ghosts.h"
#include "matching/edge_order.h"
#include "matching/matching.h"

/* Collective. d, gh [in]: the level and its ghost layer; mo [in]: the
 * handshake options (rating, ties and seed, vertex weight cap, max_passes);
 * mate [out, caller-allocated, d->local->n entries]: each local vertex's
 * partner as a GLOBAL id, or -1. *passes [out]: passes run (the same on every
 * rank, and the single-process count); *matched [out]: matched vertices of
 * the whole level. Messages per pass: two ghost exchanges (1-byte status,
 * 4-byte pointer) and one MPI_Allreduce. */
/* The best rated eligible neighbour of local vertex v of l (ladj [in]: its
 * rows as extended indices; vw [in]: extended vertex weights) not taken
 * (taken [in, extended; may be NULL: none is]) as an extended index, or -1:
 * match_best_neighbour_cpu's rule; *key [out, may be NULL]: its rating
 * (0 when none). Also HEC's choice (hec.h). */
int32_t dist_best_neighbour(const coarsen_graph *l, const int32_t *ladj, int32_t v, const int64_t *vw,
                            const uint8_t *taken, const matching_opts *mo, tie_rule ties, double *key);

int dist_handshake(const dist_graph *d, const dist_ghosts *gh, const matching_opts *mo, int32_t *mate,
                   int *passes, int64_t *matched, MPI_Comm comm, coarsen_error *err);

#endif
