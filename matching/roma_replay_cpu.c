/* roma_replay_cpu.c — the deterministic parallel ROMA rule on the host
 * (roma.h), the bit-exact reference of roma.cu. A phase: (1) every centre
 * c (free, or matched with c < mate[c]) evaluates its best augmentation on
 * the matching at phase start (binary-search cycle lookup, like the GPU);
 * (2) each accepted candidate max-writes its key into every vertex it
 * touches; (3) a candidate holding the key of all its vertices is applied
 * (winners are vertex-disjoint, so the order of applications is
 * irrelevant); its gain goes into gains[c], summed in fixed order. */
#include "matching/roma_internal.h"
#include "matching/roma_sum.h"
#include "core/error.h"
#include "core/timer.h"

#include <stdlib.h>
#include <string.h>

int roma_replay_cpu(const coarsen_graph *g, const roma_opts *opts, int32_t *mate, roma_stats *stats,
                    coarsen_error *err)
{
    int rc = roma_opts_check(opts, err);
    if (rc)
        return rc;
    memset(stats, 0, sizeof *stats);
    double t0 = timer_ms();
    const int32_t n = g->n;
    double *mw = NULL;
    if ((rc = roma_start_cpu(g, mate, &mw, err)))
        return rc;
    roma_aug *aug = xmalloc(((size_t)n + 1) * sizeof *aug, "ROMA candidates", err);
    uint64_t *slot = aug ? xmalloc(((size_t)n + 1) * sizeof *slot, "ROMA conflict keys", err) : NULL;
    double *gains = slot ? xmalloc(((size_t)n + 1) * sizeof *gains, "ROMA gains", err) : NULL;
    if (!gains) {
        free(mw), free(aug), free(slot);
        return COARSEN_ERR_NOMEM;
    }
    const roma_state S = roma_host_state(g, opts, mate, mw);
    for (int p = 0; p < opts->max_phases; p++) {
        roma_phase_stats *ps = &stats->phase[p];
#pragma omp parallel for schedule(dynamic, 512)
        for (int32_t c = 0; c < n; c++) {
            if (mate[c] >= 0 && mate[c] < c)
                roma_aug_none(&aug[c], c, mate[c]);
            else
                roma_best_aug(&S, c, NULL, &aug[c]);
            if (!roma_accept(&aug[c], g->integral_weights, opts->eps))
                aug[c].kind = ROMA_NONE;
        }
        memset(slot, 0, (size_t)n * sizeof *slot);
        for (int32_t c = 0; c < n; c++) {
            if (aug[c].kind == ROMA_NONE)
                continue;
            int32_t t[6];
            int k = roma_touched(&aug[c], t);
            uint64_t key = roma_key(&aug[c]);
            for (int i = 0; i < k; i++)
                if (slot[t[i]] < key)
                    slot[t[i]] = key;
            ps->candidates++;
        }
        int64_t applied = 0;
#pragma omp parallel for schedule(static) reduction(+ : applied)
        for (int32_t c = 0; c < n; c++) {
            gains[c] = 0.0;
            if (aug[c].kind == ROMA_NONE)
                continue;
            int32_t t[6];
            int k = roma_touched(&aug[c], t), own = 1;
            uint64_t key = roma_key(&aug[c]);
            for (int i = 0; i < k; i++)
                own &= slot[t[i]] == key;
            if (own) {
                roma_apply(mate, mw, &aug[c]);
                gains[c] = aug[c].gain;
                applied++;
            }
        }
        ps->applied = applied;
        ps->gain = roma_sum_fixed(gains, n);
        stats->phases = p + 1;
        if (applied == 0)
            break;
    }
    free(mw), free(aug), free(slot), free(gains);
    stats->ms = timer_ms() - t0;
    return COARSEN_OK;
}
