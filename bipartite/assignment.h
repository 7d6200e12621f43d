/* assignment.h — maximum-weight assignment of a bipartite graph (persons =
 * rows, objects = columns, benefit = entry value) by Bertsekas' auction with
 * ε-scaling, on the CPU and the GPU; an exact solver for small instances (the
 * test oracle); and the instance generator of the published GPU auction.
 *
 * Problem solved (sparse and rectangular inputs included): among the
 * matchings of maximum cardinality, one of maximum total benefit. Every row
 * has a private dummy object of benefit -B, B = rows * (max(b,0) - min(b,0))
 * + 1, so a matching with one more pair always beats any with fewer: a
 * perfect assignment (every row assigned) is found whenever one exists, and
 * its absence is reported (perfect = 0) rather than failed.
 *
 * Optimality: benefits are scaled by rows + 1 and the last phase runs with
 * ε = 1, so for integer benefits the auction's ε-complementary slackness
 * (slack below rows * ε < one unit) means optimal. Objects left unassigned
 * with a positive price by the ε-scaling are repriced by reverse-auction
 * steps on the host (exact, deterministic), and the result carries a duality
 * certificate: proven_optimal = 1 when primal and dual differ by less than
 * one unit. Real (non-integer) benefits are rounded to a grid first (quantum
 * > 0): the result is optimal for the rounded benefits, proven_optimal = 0.
 *
 * CPU and GPU run the same Jacobi rounds (all unassigned persons bid against
 * the same prices; an object goes to the highest bid, ties to the lowest
 * person) in exact integer arithmetic: their outputs are identical. */
#ifndef BIPARTITE_ASSIGNMENT_H
#define BIPARTITE_ASSIGNMENT_H

#include "bipartite/bipartite.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bip_auction_opts {
    int eps_factor;    /* ε is divided by this each phase (>= 2; 0 = default 8, fewer rounds than 4
                          on the instances of docs/benchmarks/bipartite.md) */
    int64_t host_tail; /* GPU: a phase whose queue falls below this many bidders ends on the
                          host (same rounds); 0 = automatic (about 2^12 entries of work),
                          < 0 = never (every round on the GPU) */
} bip_auction_opts;

typedef struct bip_auction_result {
    int64_t cardinality;   /* rows assigned to a real column */
    double total;          /* sum of the (unrounded) values of the assigned entries */
    int perfect;           /* 1 when every row is assigned (needs rows <= cols) */
    int exact_benefits;    /* 1 when the values are integers used unrounded */
    int proven_optimal;    /* 1 when the duality certificate closes (exact benefits only) */
    double quantum;        /* rounding grid of the values (1 when exact) */
    int64_t gap;           /* dual - primal in scaled units (< rows + 1 proves optimality) */
    int64_t phases, rounds, reverse_steps;
    int eps_factor;        /* the ε divisor used */
} bip_auction_result;

/* row_match (rows entries, caller-allocated) receives each row's column or
 * -1. res may be NULL. */
int bip_auction_cpu(const bip_graph *g, const bip_auction_opts *opts, int32_t *row_match, bip_auction_result *res,
                    coarsen_error *err);
/* Same rounds on the GPU (CSR and benefits uploaded here); without CUDA it
 * fails with COARSEN_ERR_DEVICE. */
int bip_auction_gpu(const bip_graph *g, const bip_auction_opts *opts, int32_t *row_match, bip_auction_result *res,
                    coarsen_error *err);

/* The same problem solved exactly by a dense Hungarian method (shortest
 * augmenting paths with potentials), O(rows^2 (rows + cols)) time and
 * rows x (rows + cols) memory: for tests and small inputs (rows * (rows +
 * cols) <= 2^26). Integer values only. *cardinality and *total as above. */
int bip_assignment_exact(const bip_graph *g, int32_t *row_match, int64_t *cardinality, double *total,
                         coarsen_error *err);

/* The instance generator of the published GPU auction: n x n, a random
 * permutation's entries (a perfect assignment exists), every other entry with
 * probability density, integer benefits uniform in [1, max_benefit]. Pure
 * function of (n, density, max_benefit, seed); built row by row in parallel. */
int bip_gen_assignment(int32_t n, double density, int64_t max_benefit, uint64_t seed, bip_graph **out,
                       coarsen_error *err);

#ifdef __cplusplus
}
#endif
#endif
