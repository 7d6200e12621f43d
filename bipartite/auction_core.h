/* auction_core.h — what the CPU and GPU auctions share (internal to
 * bipartite/): the scaled integer problem, the ε schedule, and the finish on
 * the host (reverse steps for unassigned objects with positive prices, the
 * duality certificate, the result). Conventions: assigned[person] is an
 * object, or AUCTION_DUMMY for the person's private dummy, or -1 while
 * bidding; owner[object] is a person or -1. */
#ifndef BIPARTITE_AUCTION_CORE_H
#define BIPARTITE_AUCTION_CORE_H

#include <math.h>

#include "bipartite/assignment.h"

#ifdef __cplusplus
extern "C" {
#endif

#define AUCTION_DUMMY (-2)

typedef struct auction_problem {
    int32_t persons, objects;
    int64_t *benefit;  /* scaled benefit of each CSR entry (owned) */
    int64_t dummy;     /* scaled benefit of every person's private dummy (< 0) */
    int64_t unit;      /* scaled value of one grid unit: persons + 1 */
    double quantum;    /* original value of one grid unit */
    int exact;         /* integer values, unrounded */
    int64_t eps0;      /* first ε */
    int factor;        /* ε divisor per phase */
} auction_problem;

/* Scaled benefit of an original value. */
static inline int64_t auction_scaled(const auction_problem *p, double value)
{
    return (int64_t)llround(value / p->quantum) * p->unit;
}

int auction_prepare(const bip_graph *g, const bip_auction_opts *opts, auction_problem *p, coarsen_error *err);
void auction_problem_free(auction_problem *p);

/* The ε of the next phase, or 0 after the phase with ε = 1. */
static inline int64_t auction_next_eps(const auction_problem *p, int64_t eps)
{
    if (eps <= 1)
        return 0;
    eps /= p->factor;
    return eps < 1 ? 1 : eps;
}

/* Best value b1 at the smallest column j1 and the best value b2 among all
 * other entries of row i (INT64_MIN when none) under prices. */
static inline void auction_best_two(const bip_graph *g, const auction_problem *p, const int64_t *price, int32_t i,
                                    int64_t *b1, int32_t *j1, int64_t *b2)
{
    int64_t best = INT64_MIN, second = INT64_MIN;
    int32_t bj = INT32_MAX;
    for (int64_t e = g->rptr[i]; e < g->rptr[i + 1]; e++) {
        int64_t v = p->benefit[e] - price[g->rind[e]];
        if (v > best) { /* columns ascend: ties keep the smaller column */
            second = best;
            best = v;
            bj = g->rind[e];
        } else if (v > second)
            second = v;
    }
    *b1 = best, *j1 = bj, *b2 = second;
}

/* The auction's state on the host (auction_cpu.c): prices and owners of the
 * objects, each person's assignment, the queue of bidders (and the next
 * one), the bids of a round and the objects' best-bid slots (INT64_MIN /
 * INT32_MAX between rounds). */
typedef struct auction_host {
    int64_t *price, *bid, *obj_best;
    int32_t *owner, *assigned, *queue, *next, *target, *obj_win;
} auction_host;

int auction_host_alloc(auction_host *s, int32_t persons, int32_t objects, coarsen_error *err);
void auction_host_free(auction_host *s);

/* Jacobi rounds with ε from the queue s->queue[0..nq) until it is empty;
 * returns the number of rounds. The queue's order does not matter. */
int64_t auction_host_rounds(const bip_graph *g, const auction_problem *p, auction_host *s, int32_t nq, int64_t eps);

/* After the last phase (every person assigned or on its dummy): reverse
 * steps until no unassigned object has a positive price, then row_match,
 * the certificate and res. price/assigned/owner are updated in place. */
int auction_finish(const bip_graph *g, const auction_problem *p, int64_t *price, int32_t *assigned, int32_t *owner,
                   int32_t *row_match, bip_auction_result *res, coarsen_error *err);

#ifdef __cplusplus
}
#endif
#endif
