/* read.h — the input read by every rank (docs/distributed.md): each rank
 * reads its share of an uncompressed METIS, ParHIP binary or Matrix Market
 * (coordinate) file with the single-process readers' own code, the file's checks run across the ranks,
 * and rank 0 gathers the whole graph (level 0 of its hierarchy, as the
 * single-process run holds it). Any other input, and any file a rank finds
 * fault with, is left to rank 0's coarsen_graph_load, so that its message
 * (file and line) and status are the error, word for word. */
#ifndef DIST_READ_H
#define DIST_READ_H

#include "dist/vtxdist.h"

/* Returned on every rank when rank 0 must read path alone. */
#define DIST_READ_ROOT (-1)

/* Collective; path [in] the same on every rank. When path is a regular,
 * uncompressed METIS file (no Matrix Market banner or name), ParHIP binary
 * file (by content or name) or square Matrix Market coordinate file:
 *  - METIS: each rank parses the lines of its byte range of the body (cut
 *    at line starts), its first line and first vertex from a prefix sum of
 *    the ranges' line counts, into the rows of those vertices;
 *  - ParHIP: each rank reads the rows of its block (equal 1 + degree, from
 *    the offsets) by their offsets;
 *  - Matrix Market: each rank parses the entries of its byte range (as for
 *    METIS) and sends each off-diagonal entry to the owners of both its
 *    rows, where they arrive in file order and are merged by
 *    graph_merge_rows (graph_from_edges's rules);
 * then the counts against the header (summed), sorted rows without a
 * neighbour listed twice, and for METIS and ParHIP symmetry with equal
 * weights (dist_graph_symmetric) are checked, and rank 0 gathers the graph and
 * checks its weight sums. Returns COARSEN_OK with *d [out, every rank: its
 * block, owned, dist_graph_free], *whole [out: rank 0 the graph that
 * coarsen_graph_load returns for path, bit for bit, owned; NULL elsewhere]
 * and rank 0's *report [out] (may be NULL) filled as coarsen_graph_load
 * fills it. Otherwise (a Matrix Market array, gzip, "-", a missing file, or
 * any fault on any rank) DIST_READ_ROOT on every rank with nothing allocated.
 * Out of memory inside a collective step: MPI_Abort (dist.h). */
int dist_graph_read(const char *path, MPI_Comm comm, dist_graph *d, coarsen_graph **whole,
                    coarsen_read_report *report, coarsen_error *err);

#endif
