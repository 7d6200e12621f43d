/* roma_aug.h — the best 2-augmentation centred at a vertex, its threshold,
 * its conflict key and its application: inline code shared by the host
 * (roma_cpu.c, roma_replay_cpu.c) and the device (roma.cu), so both compute
 * bit-identical gains.
 *
 * State: mate[] (-1 free) and mw[x] = weight of x's matched edge (0 free).
 * Centred at v with u = mate[v] (w0 = mw[v]), an augmentation adds at most
 * two non-matching edges touching v or u and drops the matched edges they
 * hit. An arm is a neighbour x of a side s (x != the other side) with score
 * a_s(x) = w(s,x) - mw[x]. Candidates, gain = added - removed:
 *  - SINGLE_V (v,x): a_v(x) - w0 (v free: w0 = 0, no u);
 *  - SINGLE_U (u,y): a_u(y) - w0;
 *  - PATH (v,x) + (u,y), x != y, y != mate[x]: a_v(x) + a_u(y) - w0
 *    (drops (v,u), (x,mate x), (y,mate y));
 *  - CYCLE (v,x) + (u,y) with y = mate[x] adjacent to u: the 4-cycle
 *    v-x-y-u, gain w(v,x) + w(u,y) - w0 - w(x,y) (scored on its own: the path
 *    formula would subtract w(x,y) twice).
 * Each x excludes at most two partners (y = x, y = mate x), so the best
 * compatible path pair lies among the top three arms of each side (order:
 * score desc, id asc). Cycles need w(u,y): looked up by binary search in u's
 * sorted row, or, when marks are given (sequential code), by stamping u's
 * neighbours once (O(deg v + deg u) in all).
 * Among candidates the best is the larger gain, then the smaller kind, x, y.
 * Arithmetic is adds and subtracts only (no contraction to FMA possible). */
#ifndef MATCHING_ROMA_AUG_H
#define MATCHING_ROMA_AUG_H

#include <stdint.h>
#include <string.h>

#include "core/hash.h" /* COARSEN_HD */
#include "core/row_find.h"
#include "matching/edge_order.h"
#include "matching/roma.h"

enum { ROMA_NONE = 0, ROMA_SINGLE_V = 1, ROMA_SINGLE_U = 2, ROMA_PATH = 3, ROMA_CYCLE = 4 };

/* What evaluation reads (host or device arrays). */
typedef struct roma_state {
    const int64_t *xadj;
    const int32_t *adj;
    const double *ewgt;
    const int64_t *vwgt;
    const int32_t *mate;
    const double *mw;
    int64_t cap;  /* vertex-weight cap of new pairs, <= 0: none */
} roma_state;

/* Stamps for the cycle lookup (host only; NULL = binary search). stamp[]
 * and w[] have n entries, stamp zeroed once; token grows per evaluation. */
typedef struct roma_marks {
    int64_t *stamp;
    double *w;
    int64_t token;
} roma_marks;

/* An augmentation: new pairs (v,x) and/or (u,y); xm, ym are the old mates
 * of x and y (-1 none), all read at evaluation time, so applying it needs
 * no reads. Unused ids are -1. */
typedef struct roma_aug {
    double gain;
    double removed;  /* weight of the matched edges it drops */
    double wvx, wuy; /* weights of the new edges (v,x), (u,y) */
    int32_t v, u, x, y, xm, ym;
    int32_t kind;
} roma_aug;

typedef struct roma_arm {
    double a;   /* w(s,x) - mw[x] */
    double w;   /* w(s,x) */
    int32_t id; /* x, -1 none */
} roma_arm;

COARSEN_HD int roma_arm_better(roma_arm p, roma_arm q)
{
    return p.id >= 0 && (q.id < 0 || p.a > q.a || (p.a == q.a && p.id < q.id));
}

/* Inserts c into the sorted top three t[0..2]. */
COARSEN_HD void roma_top3_push(roma_arm *t, roma_arm c)
{
    if (!roma_arm_better(c, t[2]))
        return;
    if (roma_arm_better(c, t[1])) {
        t[2] = t[1];
        if (roma_arm_better(c, t[0])) {
            t[1] = t[0];
            t[0] = c;
        } else {
            t[1] = c;
        }
    } else {
        t[2] = c;
    }
}

COARSEN_HD int roma_aug_better(const roma_aug *p, const roma_aug *q)
{
    if (p->kind == ROMA_NONE)
        return 0;
    if (q->kind == ROMA_NONE || p->gain > q->gain)
        return 1;
    if (p->gain < q->gain)
        return 0;
    if (p->kind != q->kind)
        return p->kind < q->kind;
    if (p->x != q->x)
        return p->x < q->x;
    return p->y < q->y;
}

COARSEN_HD int roma_pair_ok(const roma_state *S, int32_t a, int32_t b)
{
    return S->cap <= 0 || pair_eligible(S->cap, S->vwgt[a], S->vwgt[b]);
}

/* Weight of edge (s,t) into *w by binary search in s's sorted row; 0 when absent. */
COARSEN_HD int roma_find_edge(const roma_state *S, int32_t s, int32_t t, double *w)
{
    int64_t e = row_find(S->xadj, S->adj, s, t);
    if (e < 0)
        return 0;
    *w = S->ewgt[e];
    return 1;
}

COARSEN_HD void roma_arms_clear(roma_arm *t)
{
    for (int i = 0; i < 3; i++)
        t[i].a = 0.0, t[i].w = 0.0, t[i].id = -1;
}

/* Folds entry e of side s's row into its top three t (unless it leads to
 * `other` or breaks the vertex-weight cap). */
COARSEN_HD void roma_arm_fold(const roma_state *S, int32_t s, int32_t other, int64_t e, roma_arm *t)
{
    int32_t x = S->adj[e];
    if (x == other || !roma_pair_ok(S, s, x))
        return;
    roma_arm c;
    c.w = S->ewgt[e];
    c.a = c.w - S->mw[x];
    c.id = x;
    roma_top3_push(t, c);
}

/* Top three arms of side s, excluding `other` (the other side, or -1). */
COARSEN_HD void roma_side_arms(const roma_state *S, int32_t s, int32_t other, roma_arm *t)
{
    roma_arms_clear(t);
    for (int64_t e = S->xadj[s]; e < S->xadj[s + 1]; e++)
        roma_arm_fold(S, s, other, e, t);
}

COARSEN_HD void roma_aug_none(roma_aug *r, int32_t v, int32_t u)
{
    r->gain = 0.0, r->removed = 0.0, r->wvx = 0.0, r->wuy = 0.0;
    r->v = v, r->u = u, r->x = -1, r->y = -1, r->xm = -1, r->ym = -1;
    r->kind = ROMA_NONE;
}

/* Offers a candidate to the running best. */
COARSEN_HD void roma_offer(roma_aug *best, const roma_aug *c)
{
    if (roma_aug_better(c, best))
        *best = *c;
}

/* Offers the singles (v,x), (u,y) and the paths of the top-three arms tv
 * and tu (tu unused when v is free, u < 0); w0 = the weight of (v,u). */
COARSEN_HD void roma_offer_arms(const roma_state *S, int32_t v, int32_t u, double w0, const roma_arm *tv,
                                const roma_arm *tu, roma_aug *best)
{
    roma_aug c;
    roma_aug_none(&c, v, u);
    if (tv[0].id >= 0) {
        c.kind = ROMA_SINGLE_V;
        c.x = tv[0].id, c.xm = S->mate[c.x], c.wvx = tv[0].w;
        c.gain = tv[0].a - w0;
        c.removed = w0 + S->mw[c.x];
        roma_offer(best, &c);
    }
    if (u < 0)
        return;
    roma_aug_none(&c, v, u);
    if (tu[0].id >= 0) {
        c.kind = ROMA_SINGLE_U;
        c.y = tu[0].id, c.ym = S->mate[c.y], c.wuy = tu[0].w;
        c.gain = tu[0].a - w0;
        c.removed = w0 + S->mw[c.y];
        roma_offer(best, &c);
    }
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            int32_t x = tv[i].id, y = tu[j].id;
            if (x < 0 || y < 0 || x == y || S->mate[x] == y)
                continue;
            c.kind = ROMA_PATH;
            c.x = x, c.y = y, c.xm = S->mate[x], c.ym = S->mate[y];
            c.wvx = tv[i].w, c.wuy = tu[j].w;
            c.gain = tv[i].a + tu[j].a - w0;
            c.removed = w0 + S->mw[x] + S->mw[y];
            roma_offer(best, &c);
        }
}

/* Gain of the 4-cycle v-x-y-u (y = mate x) with w(v,x) = wvx, w(u,y) = wuy. */
COARSEN_HD double roma_cycle_gain(const roma_state *S, int32_t x, double w0, double wvx, double wuy)
{
    return wvx + wuy - w0 - S->mw[x];
}

/* That 4-cycle as an augmentation into c (c->v, c->u already set). */
COARSEN_HD void roma_cycle(const roma_state *S, int32_t x, double w0, double wvx, double wuy, roma_aug *c)
{
    const int32_t y = S->mate[x];
    c->kind = ROMA_CYCLE;
    c->x = x, c->y = y, c->xm = y, c->ym = x;
    c->wvx = wvx, c->wuy = wuy;
    c->gain = roma_cycle_gain(S, x, w0, wvx, wuy);
    c->removed = w0 + S->mw[x];
}

/* The best augmentation centred at v (kind ROMA_NONE when v has none). */
COARSEN_HD void roma_best_aug(const roma_state *S, int32_t v, roma_marks *marks, roma_aug *best)
{
    const int32_t u = S->mate[v];
    const double w0 = u >= 0 ? S->mw[v] : 0.0;
    roma_arm tv[3], tu[3];
    roma_aug c;
    roma_aug_none(best, v, u);
    roma_side_arms(S, v, u, tv);
    roma_arms_clear(tu);
    if (u >= 0)
        roma_side_arms(S, u, v, tu);
    roma_offer_arms(S, v, u, w0, tv, tu, best);
    if (u < 0)
        return;
    /* 4-cycles v-x-y-u with y = mate[x] */
    if (marks) {
        marks->token++;
        for (int64_t e = S->xadj[u]; e < S->xadj[u + 1]; e++) {
            marks->stamp[S->adj[e]] = marks->token;
            marks->w[S->adj[e]] = S->ewgt[e];
        }
    }
    roma_aug_none(&c, v, u);
    for (int64_t e = S->xadj[v]; e < S->xadj[v + 1]; e++) {
        int32_t x = S->adj[e], y;
        if (x == u || (y = S->mate[x]) < 0 || !roma_pair_ok(S, v, x) || !roma_pair_ok(S, u, y))
            continue;
        double wuy = 0.0;
        if (marks) {
            if (marks->stamp[y] != marks->token)
                continue;
            wuy = marks->w[y];
        } else if (!roma_find_edge(S, u, y, &wuy)) {
            continue;
        }
        roma_cycle(S, x, w0, S->ewgt[e], wuy, &c);
        roma_offer(best, &c);
    }
}

/* 1 when the augmentation passes the threshold of roma.h. */
COARSEN_HD int roma_accept(const roma_aug *a, int integral, double eps)
{
    if (a->kind == ROMA_NONE)
        return 0;
    if (integral)
        return a->gain >= 1.0;
    return a->gain > 0.0 && a->gain > eps * a->removed;
}

/* The vertices it touches (v, u, x, xm, y, ym, those present) into t; count. */
COARSEN_HD int roma_touched(const roma_aug *a, int32_t *t)
{
    int k = 0;
    const int32_t ids[6] = {a->v, a->u, a->x, a->xm, a->y, a->ym};
    for (int i = 0; i < 6; i++)
        if (ids[i] >= 0)
            t[k++] = ids[i];
    return k;
}

/* Conflict key of an accepted candidate of centre c: the float bits of its
 * gain (>= 0, so the bits order like the values; rounding to float keeps
 * the order weakly) above the centre id, unique per candidate. */
COARSEN_HD uint64_t roma_key(const roma_aug *a)
{
    float f = (float)a->gain;
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    return ((uint64_t)bits << 32) | (uint32_t)a->v;
}

/* The claim key of roma.h's rule: roma_key, or with priority
 * ROMA_PRIORITY_RANDOM 32 bits of hash3(seed, phase, centre) above the
 * centre id (unique per candidate too). */
COARSEN_HD uint64_t roma_claim_key(const roma_aug *a, int priority, uint64_t seed, int phase)
{
    if (priority != ROMA_PRIORITY_RANDOM)
        return roma_key(a);
    return (hash3(seed, (uint64_t)phase, (uint64_t)(uint32_t)a->v) & 0xffffffff00000000ull) | (uint32_t)a->v;
}

/* 1 when centre c (mate m, -1 free) still has a vertex whose turn is not
 * done this phase (roma.h's turns). */
COARSEN_HD int roma_turn_pending(const uint8_t *done, int32_t c, int32_t m)
{
    return !done[c] || (m >= 0 && !done[m]);
}

COARSEN_HD void roma_unmatch(int32_t *mate, double *mw, int32_t z)
{
    if (z >= 0)
        mate[z] = -1, mw[z] = 0.0;
}

COARSEN_HD void roma_pair(int32_t *mate, double *mw, int32_t a, int32_t b, double w)
{
    mate[a] = b, mate[b] = a;
    mw[a] = w, mw[b] = w;
}

/* Applies a (its vertices must still be as at evaluation). Writes only the
 * vertices of roma_touched. */
COARSEN_HD void roma_apply(int32_t *mate, double *mw, const roma_aug *a)
{
    switch (a->kind) {
    case ROMA_SINGLE_V:
        roma_unmatch(mate, mw, a->u);
        roma_unmatch(mate, mw, a->xm);
        roma_pair(mate, mw, a->v, a->x, a->wvx);
        break;
    case ROMA_SINGLE_U:
        roma_unmatch(mate, mw, a->v);
        roma_unmatch(mate, mw, a->ym);
        roma_pair(mate, mw, a->u, a->y, a->wuy);
        break;
    case ROMA_PATH:
    case ROMA_CYCLE:
        roma_unmatch(mate, mw, a->xm);
        roma_unmatch(mate, mw, a->ym);
        roma_pair(mate, mw, a->v, a->x, a->wvx);
        roma_pair(mate, mw, a->u, a->y, a->wuy);
        break;
    default:
        break;
    }
}

#endif
