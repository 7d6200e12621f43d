/* auction_common.c — the part of the auction that CPU and GPU share
 * (auction_core.h): scaling the benefits to exact integers, and the finish on
 * the host: reverse-auction steps for objects left unassigned with a positive
 * price, the duality certificate and the result. */
#include "bipartite/auction_core.h"
#include "core/error.h"

#include <stdlib.h>

int auction_prepare(const bip_graph *g, const bip_auction_opts *opts, auction_problem *p, coarsen_error *err)
{
    *p = (auction_problem){0};
    p->persons = g->rows;
    p->objects = g->cols;
    p->factor = opts && opts->eps_factor ? opts->eps_factor : 8;
    if (p->factor < 2)
        return error_set(err, COARSEN_ERR_INPUT, "auction: ε factor %d must be at least 2", p->factor);
    double hi = 0, lo = 0;
#pragma omp parallel for reduction(max : hi) reduction(min : lo)
    for (int64_t e = 0; e < g->nnz; e++) {
        hi = g->rval[e] > hi ? g->rval[e] : hi;
        lo = g->rval[e] < lo ? g->rval[e] : lo;
    }
    double range = hi - lo;
    double unit = (double)g->rows + 1;
    /* (rows * range + range + 1) * unit, the largest price, stays below 2^60 */
    double limit = 0x1p59 / (unit * unit);
    if (limit > 0x1p40)
        limit = 0x1p40;
    if (limit < 1)
        return error_set(err, COARSEN_ERR_INPUT, "auction: %d rows are too many for exact integer prices", g->rows);
    p->unit = (int64_t)unit;
    p->exact = g->integral && range <= limit;
    p->quantum = p->exact || range == 0 ? 1.0 : range / limit;
    int64_t range_q = llround(range / p->quantum);
    p->dummy = -((int64_t)g->rows * range_q + 1) * p->unit;
    int64_t c = range_q * p->unit;
    p->eps0 = c / p->factor > 1 ? c / p->factor : 1;
    p->benefit = xmalloc((size_t)g->nnz * sizeof *p->benefit, "auction benefits", err);
    if (!p->benefit)
        return COARSEN_ERR_NOMEM;
#pragma omp parallel for
    for (int64_t e = 0; e < g->nnz; e++)
        p->benefit[e] = auction_scaled(p, g->rval[e]);
    return COARSEN_OK;
}

void auction_problem_free(auction_problem *p)
{
    free(p->benefit);
    p->benefit = NULL;
}

/* Person i's current profit: its object's benefit minus price, or its dummy. */
static int64_t profit_of(const bip_graph *g, const auction_problem *p, const int64_t *price, const int32_t *assigned,
                         int32_t i)
{
    int32_t a = assigned[i];
    return a < 0 ? p->dummy : p->benefit[bip_find_entry(g, i, a)] - price[a];
}

/* Reverse steps with ε (see assignment.h): an unassigned object j with a
 * positive price either drops its price to 0 (when no person would gain more
 * than ε by taking it) or takes the person i of largest b_ij - profit_i at the
 * price max(0, second - ε), which raises that person's profit by at least ε;
 * the object the person leaves is processed next. FIFO in object order. Run
 * at the end of every ε phase, so that the last phase only finishes the job
 * (at ε = 1 alone, steps of one unit could take as long as an unscaled
 * auction). */
int auction_reverse(const bip_graph *g, const auction_problem *p, int64_t eps, int64_t *price, int32_t *assigned,
                    int32_t *owner, int64_t *steps, coarsen_error *err)
{
    int64_t cap = (int64_t)g->cols + 1, head = 0, tail = 0;
    int32_t *fifo = xmalloc((size_t)cap * sizeof *fifo, "reverse auction queue", err);
    char *queued = xcalloc((size_t)cap, 1, "reverse auction flags", err);
    if (!fifo || !queued) {
        free(fifo);
        free(queued);
        return COARSEN_ERR_NOMEM;
    }
    for (int32_t j = 0; j < g->cols; j++)
        if (owner[j] == -1 && price[j] > 0) {
            fifo[tail++] = j;
            queued[j] = 1;
        }
    while (head != tail) {
        int32_t j = fifo[head];
        head = head + 1 == cap ? 0 : head + 1;
        queued[j] = 0;
        if (owner[j] != -1 || price[j] == 0)
            continue;
        int64_t b1 = INT64_MIN, b2 = INT64_MIN;
        int32_t best = -1;
        for (int64_t e = g->cptr[j]; e < g->cptr[j + 1]; e++) {
            int32_t i = g->cind[e];
            int64_t b = auction_scaled(p, g->cval[e]);
            int64_t beta = b - profit_of(g, p, price, assigned, i);
            if (beta > b1) {
                b2 = b1;
                b1 = beta;
                best = i;
            } else if (beta > b2)
                b2 = beta;
        }
        if (best < 0 || b1 <= eps) {
            price[j] = 0;
            continue;
        }
        int32_t old = assigned[best];
        if (old >= 0) {
            owner[old] = -1;
            if (price[old] > 0 && !queued[old]) {
                fifo[tail] = old;
                tail = tail + 1 == cap ? 0 : tail + 1;
                queued[old] = 1;
            }
        }
        assigned[best] = j;
        owner[j] = best;
        price[j] = b2 == INT64_MIN || b2 - eps < 0 ? 0 : b2 - eps;
        (*steps)++;
    }
    free(fifo);
    free(queued);
    return COARSEN_OK;
}

int auction_finish(const bip_graph *g, const auction_problem *p, const int64_t *price, const int32_t *assigned,
                   const int32_t *owner, int32_t *row_match, bip_auction_result *res, coarsen_error *err)
{
    res->eps_factor = p->factor;
    /* gap = sum over persons of (best profit - own profit) + prices of unassigned objects */
    __int128 gap = 0;
    int64_t card = 0;
    double total = 0;
    for (int32_t i = 0; i < g->rows; i++) {
        int64_t b1, b2;
        int32_t j1;
        auction_best_two(g, p, price, i, &b1, &j1, &b2);
        int64_t best = b1 > p->dummy ? b1 : p->dummy;
        int64_t own = profit_of(g, p, price, assigned, i);
        gap += (__int128)best - own;
        row_match[i] = assigned[i] >= 0 ? assigned[i] : -1;
        if (assigned[i] >= 0) {
            card++;
            total += g->rval[bip_find_entry(g, i, assigned[i])];
        }
    }
    for (int32_t j = 0; j < g->cols; j++)
        if (owner[j] == -1)
            gap += price[j];
    if (gap < 0)
        return error_set(err, COARSEN_ERR_DEVICE, "auction: internal error: negative duality gap");
    if (res) {
        res->cardinality = card;
        res->total = total;
        res->perfect = card == g->rows;
        res->exact_benefits = p->exact;
        res->quantum = p->quantum;
        res->gap = gap > INT64_MAX ? INT64_MAX : (int64_t)gap;
        res->proven_optimal = p->exact && gap < p->unit;
    }
    return COARSEN_OK;
}
