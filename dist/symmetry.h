/* symmetry.h — the reader's symmetry check of a distributed graph: every
 * entry (u, v, w) of a rank's rows has its mirror (v, u, w) in v's row, on
 * whichever rank owns v (what core/graph_symmetry.h checks on one process). */
#ifndef DIST_SYMMETRY_H
#define DIST_SYMMETRY_H

#include "dist/vtxdist.h"

/* Collective. d [in]: rows sorted strictly increasing (no neighbour twice),
 * neighbour ids global and in range, no self-loops. 1 on every rank when
 * every entry is mirrored with an equal weight and no row has more entries
 * than mirrors, 0 on every rank otherwise. Each entry travels once to its
 * neighbour's owner (16 B); arriving in source-rank order, each rank's rows
 * in increasing id, the mirrors of row v come in increasing id and are
 * compared with row v entry by entry. */
int dist_graph_symmetric(const dist_graph *d, MPI_Comm comm, coarsen_error *err);

#endif
