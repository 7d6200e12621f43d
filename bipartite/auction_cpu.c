/* auction_cpu.c — the serial reference of the auction (assignment.h): Jacobi
 * rounds with ε-scaling, exactly the rounds of auction.cu (bids computed in
 * parallel with OpenMP, which changes nothing: each bid depends only on the
 * prices of the round). The rounds (auction_host_rounds) also finish the GPU
 * auction's phases once few persons still bid. */
#include "bipartite/auction_core.h"
#include "core/error.h"

#include <stdlib.h>

void auction_host_free(auction_host *s)
{
    free(s->price);
    free(s->bid);
    free(s->obj_best);
    free(s->owner);
    free(s->assigned);
    free(s->queue);
    free(s->next);
    free(s->target);
    free(s->obj_win);
}

int auction_host_alloc(auction_host *s, int32_t persons, int32_t objects, coarsen_error *err)
{
    size_t np = (size_t)persons + 1, no = (size_t)objects + 1;
    *s = (auction_host){0};
    s->price = xcalloc(no, sizeof *s->price, "prices", err);
    s->obj_best = xmalloc(no * sizeof *s->obj_best, "best bids", err);
    s->owner = xmalloc(no * sizeof *s->owner, "owners", err);
    s->obj_win = xmalloc(no * sizeof *s->obj_win, "winners", err);
    s->bid = xmalloc(np * sizeof *s->bid, "bids", err);
    s->assigned = xmalloc(np * sizeof *s->assigned, "assignment", err);
    s->queue = xmalloc(np * sizeof *s->queue, "bidders", err);
    s->next = xmalloc(np * sizeof *s->next, "next bidders", err);
    s->target = xmalloc(np * sizeof *s->target, "targets", err);
    if (!s->price || !s->obj_best || !s->owner || !s->obj_win || !s->bid || !s->assigned || !s->queue || !s->next ||
        !s->target)
        return COARSEN_ERR_NOMEM;
    for (int32_t j = 0; j < objects; j++) {
        s->obj_best[j] = INT64_MIN;
        s->obj_win[j] = INT32_MAX;
    }
    return COARSEN_OK;
}

/* One Jacobi round over the nq persons of the queue; returns the size of the
 * next queue (this round's losers and the owners it displaced, in s->queue).
 * Threads only for long queues: most rounds have few bidders, and waking
 * threads costs more. */
static int32_t round_cpu(const bip_graph *g, const auction_problem *p, auction_host *s, int32_t nq, int64_t eps)
{
#pragma omp parallel for schedule(dynamic, 64) if (nq >= 4096)
    for (int32_t q = 0; q < nq; q++) {
        int32_t i = s->queue[q], j1;
        int64_t b1, b2;
        auction_best_two(g, p, s->price, i, &b1, &j1, &b2);
        if (j1 == INT32_MAX || p->dummy > b1) {
            s->target[i] = AUCTION_DUMMY;
            continue;
        }
        int64_t v2 = b2 > p->dummy ? b2 : p->dummy;
        s->target[i] = j1;
        s->bid[i] = s->price[j1] + (b1 - v2) + eps;
    }
    for (int32_t q = 0; q < nq; q++) {
        int32_t i = s->queue[q], j = s->target[i];
        if (j >= 0 && (s->bid[i] > s->obj_best[j] || (s->bid[i] == s->obj_best[j] && i < s->obj_win[j]))) {
            s->obj_best[j] = s->bid[i];
            s->obj_win[j] = i;
        }
    }
    int32_t nn = 0;
    for (int32_t q = 0; q < nq; q++) {
        int32_t i = s->queue[q], j = s->target[i];
        if (j == AUCTION_DUMMY)
            s->assigned[i] = AUCTION_DUMMY;
        else if (s->obj_win[j] == i) {
            if (s->owner[j] >= 0) {
                s->assigned[s->owner[j]] = -1;
                s->next[nn++] = s->owner[j];
            }
            s->owner[j] = i;
            s->assigned[i] = j;
            s->price[j] = s->bid[i];
        } else
            s->next[nn++] = i;
    }
    for (int32_t q = 0; q < nq; q++) {
        int32_t j = s->target[s->queue[q]];
        if (j >= 0) {
            s->obj_best[j] = INT64_MIN;
            s->obj_win[j] = INT32_MAX;
        }
    }
    int32_t *t = s->queue;
    s->queue = s->next;
    s->next = t;
    return nn;
}

int64_t auction_host_rounds(const bip_graph *g, const auction_problem *p, auction_host *s, int32_t nq, int64_t eps)
{
    int64_t rounds = 0;
    while (nq > 0) {
        rounds++;
        nq = round_cpu(g, p, s, nq, eps);
    }
    return rounds;
}

int bip_auction_cpu(const bip_graph *g, const bip_auction_opts *opts, int32_t *row_match, bip_auction_result *res,
                    coarsen_error *err)
{
    bip_auction_result local = {0};
    bip_auction_result *r = res ? res : &local;
    *r = (bip_auction_result){0};
    auction_problem p;
    auction_host s = {0};
    int rc = auction_prepare(g, opts, &p, err);
    if (!rc)
        rc = auction_host_alloc(&s, g->rows, g->cols, err);
    for (int64_t eps = p.eps0; !rc && eps > 0; eps = auction_next_eps(&p, eps)) {
        r->phases++;
        for (int32_t j = 0; j < g->cols; j++)
            s.owner[j] = -1;
        for (int32_t i = 0; i < g->rows; i++) {
            s.assigned[i] = -1;
            s.queue[i] = i;
        }
        r->rounds += auction_host_rounds(g, &p, &s, g->rows, eps);
    }
    if (!rc)
        rc = auction_finish(g, &p, s.price, s.assigned, s.owner, row_match, r, err);
    auction_host_free(&s);
    auction_problem_free(&p);
    return rc;
}
