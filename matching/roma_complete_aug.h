/* roma_complete_aug.h — the 4-cycle flip of the complete-graph mode
 * (roma_complete.h) as inline code shared by the host and the device.
 * mw[z] = w(z, mate z) in double (exact from the float), maintained by
 * roma_apply, so a flip's gain reads one row of w per side:
 * gain(v; x) = w(v,x) + w(u,y) - mw[v] - mw[x] with u = mate v, y = mate x,
 * summed left to right. The best flip of v is the largest gain, ties to
 * the smaller x (edge_better's total order), whatever the scan order. */
#ifndef MATCHING_ROMA_COMPLETE_AUG_H
#define MATCHING_ROMA_COMPLETE_AUG_H

#include <stdint.h>

#include "matching/edge_order.h"
#include "matching/roma_aug.h"

COARSEN_HD double roma_flip_gain(const float *w, int64_t n, const int32_t *mate, const double *mw, int32_t v,
                                 int32_t u, int32_t x)
{
    return (double)w[(int64_t)v * n + x] + (double)w[(int64_t)u * n + mate[x]] - mw[v] - mw[x];
}

/* Folds x = x0, x0 + step, ... < n (x not v or u) into the best (*gain, *bx). */
COARSEN_HD void roma_flip_scan(const float *w, int32_t n, const int32_t *mate, const double *mw, int32_t v,
                               int32_t u, int32_t x0, int32_t step, double *gain, int32_t *bx)
{
    for (int32_t x = x0; x < n; x += step) {
        if (x == v || x == u)
            continue;
        double gx = roma_flip_gain(w, n, mate, mw, v, u, x);
        if (edge_better(gx, x, *gain, *bx))
            *gain = gx, *bx = x;
    }
}

/* The flip of v's edge with x as an augmentation (kind ROMA_CYCLE), or
 * ROMA_NONE when x < 0 or the gain does not exceed eps. */
COARSEN_HD void roma_flip_aug(const float *w, int32_t n, const int32_t *mate, const double *mw, int32_t v,
                              int32_t x, double gain, double eps, roma_aug *a)
{
    const int32_t u = mate[v];
    roma_aug_none(a, v, u);
    if (x < 0 || !(gain > eps))
        return;
    const int32_t y = mate[x];
    a->kind = ROMA_CYCLE;
    a->gain = gain;
    a->removed = mw[v] + mw[x];
    a->x = x, a->y = y, a->xm = y, a->ym = x;
    a->wvx = (double)w[(int64_t)v * n + x];
    a->wuy = (double)w[(int64_t)u * n + y];
}

#endif
