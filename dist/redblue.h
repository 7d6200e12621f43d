/* redblue.h — the red/blue matcher on a distributed level: the same rounds
 * as matching/redblue_cpu.c (each active vertex is blue with the hashed
 * probability of its global id and the round, a blue vertex proposes to its
 * best eligible unmatched red neighbour, a red vertex accepts its best
 * proposer, vertices with no eligible unmatched neighbour retire), with the
 * ghosts' status, proposals and acceptances exchanged each round. Colours
 * and keys are pure functions of global ids (redblue_rules.h) and a round
 * reads only the state of the previous one, so the mates are the
 * single-process mates at any number of ranks. */
#ifndef DIST_REDBLUE_H
#define DIST_REDBLUE_H

#include "dist/ghosts.h"
#include "matching/matching.h"

/* Collective; the contract of dist_handshake (handshake.h) for mo->kind ==
 * MATCHER_REDBLUE (p, weighted, ties, seed, cap, max_passes: 0 means
 * MATCH_REDBLUE_DEFAULT_ROUNDS). *passes [out]: rounds run. Messages per
 * round: three ghost exchanges (1-byte status, 4-byte proposal, 4-byte
 * mate) and one MPI_Allreduce. */
int dist_redblue(const dist_graph *d, const dist_ghosts *gh, const matching_opts *mo, int32_t *mate, int *passes,
                 int64_t *matched, MPI_Comm comm, coarsen_error *err);

#endif
