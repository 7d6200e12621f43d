/* symmetry.h — the reader's symmetry check of a distributed graph: every
 * entry (u, v, w) of a rank's rows has its mirror (v, u, w) in v's row, on
 * whichever rank owns v (what core/graph_symmetry.h checks on one process). */
#ifndef DIST_SYMMETRY_H
#define DIST_SYMMETRY_H

#include "dist/vtxdist.h"

/* Entries a rank sends per round of the check by default: 16 B each, so
 * 256 MiB of messages out and, from P ranks, at most P times that in. */
#define DIST_SYMMETRY_CHUNK ((int64_t)1 << 24)

/* The entries per round: COARSEN_MPI_SYMMETRY_CHUNK when set to a positive
 * count (the tests use small rounds), else DIST_SYMMETRY_CHUNK. */
int64_t dist_symmetry_chunk(void);

/* Collective. d [in]: rows sorted strictly increasing (no neighbour twice),
 * neighbour ids global and in range, no self-loops. 1 on every rank when
 * every entry is mirrored with an equal weight, 0 on every rank otherwise.
 * In rounds (as many as the rank that needs most), each rank's rows in
 * runs of at most dist_symmetry_chunk() entries (or one longer row): each
 * entry travels once to its neighbour's owner (16 B), which looks its
 * mirror up in the row (binary search) and counts the hits per row; a row
 * with as many hits as entries has the mirror of each. Memory besides d:
 * the round's messages and 4 B per vertex. */
int dist_graph_symmetric(const dist_graph *d, MPI_Comm comm, coarsen_error *err);

#endif
