/* dist.h — the distributed hierarchy on MPI: the same hierarchy as
 * coarsen_hierarchy_build (levels, maps, figures, stop reason), bit for bit,
 * at any number of ranks (docs/distributed.md).
 *
 * Levels are distributed in 1-D blocks (vtxdist.h) with a ghost layer
 * (ghosts.h); a level is matched by the distributed handshake
 * (handshake.h) or red/blue (redblue.h), paired further by the distributed
 * two-hop (two_hop.h) when hierarchy.c's threshold says so and mapped by a
 * global prefix sum (map.h), or grouped and mapped by HEC (hec.h), and
 * contracted by an all-to-all of rows merged in the fixed order
 * (contract.h). Every rank reads its share of the input, or rank 0 reads it
 * and scatters it (read.h), and rank 0 gathers every level as it is built
 * (gather.h): it holds the whole hierarchy, as the single-process run
 * does, and writes the files. The single-process code takes over on rank 0,
 * from the current level on (same results by construction), when
 *  - the level has at most gather_below vertices,
 *  - the options ask for ROMA refinement, which has no distributed version
 *    (then from level 0).
 *
 * Errors: a rank that fails inside a collective step (out of memory, an MPI
 * count above 2^31) calls MPI_Abort with the coarsen_status, since the
 * others wait for it; option errors are found alike on every rank and
 * returned. */
#ifndef DIST_DIST_H
#define DIST_DIST_H

#include <mpi.h>

#include "coarsen.h"
#include "dist/vtxdist.h"

/* Default of dist_opts.gather_below (not measured yet: docs/distributed.md). */
#define DIST_GATHER_BELOW_DEFAULT 10000

typedef struct dist_opts {
    int32_t gather_below; /* a level of at most this many vertices is built on rank 0, and every level after
                             it (0: only two-hop and the options above hand over) */
} dist_opts;

/* Collective over comm. g [in]: rank 0's input graph (borrowed: level 0 of
 * rank 0's hierarchy, it must outlive it); NULL on the other ranks. level0
 * [in, consumed: freed in every case]: NULL, or on every rank its block of
 * g as dist_graph_read left it (then g is not scattered again). opts
 * [in]: identical on every rank, except that on_level is called on rank 0
 * only (the others must pass NULL). *out [out]: rank 0 owns the whole
 * hierarchy (coarsen_hierarchy_free), its stats.json says "ranks": P; the
 * other ranks get NULL. Returns rank 0's status on every rank. */
int dist_hierarchy_build(const coarsen_graph *g, dist_graph *level0, const coarsen_hierarchy_opts *opts,
                         const dist_opts *d, MPI_Comm comm, coarsen_hierarchy **out, coarsen_error *err);

#endif
