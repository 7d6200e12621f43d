/* host_call.h — a backend's phases on host data, for callers that hold a
 * host graph and host arrays (the CLI's match command, the public
 * coarsen_match, tests and benchmarks): the CPU backend runs the phase in
 * place; the GPU backend's entries get the graph uploaded, the arrays
 * copied to the device and the results copied back. Whatever the backend,
 * the results are the same bit for bit (exec/backend.h). Device memory is
 * the device layer's, freed before return. */
#ifndef EXEC_HOST_CALL_H
#define EXEC_HOST_CALL_H

#include "exec/backend.h"

/* b->match on host graph g [in]: mate [out, n], strongest [out, n] or NULL. */
int exec_match_host(const exec_backend *b, const coarsen_graph *g, const matching_opts *opts, int32_t *mate,
                    int32_t *strongest, matching_stats *stats, coarsen_error *err);
/* b->refine (parallel-rule ROMA) of the matching mate [in/out, n] of host
 * graph g; the starting matching is checked on the host first
 * (COARSEN_ERR_INPUT), since the device trusts its input. */
int exec_refine_host(const exec_backend *b, const coarsen_graph *g, const roma_opts *opts, int32_t *mate,
                     roma_stats *stats, coarsen_error *err);
/* b->refine_complete: ROMA on the complete graph of the n x n dense
 * weights w [in, row-major] from the perfect matching mate [in/out, n],
 * checked on the host first. */
int exec_refine_complete_host(const exec_backend *b, int32_t n, const float *w, const roma_opts *opts, int32_t *mate,
                              roma_stats *stats, coarsen_error *err);

#endif
