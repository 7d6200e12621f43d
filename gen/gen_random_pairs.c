/* gen_random_pairs.c — graphs made of hashed vertex pairs: Erdos-Renyi
 * G(n, m) (both endpoints uniform) and R-MAT (each of log2 n levels picks a
 * quadrant with probabilities a, b, c, d). m = n * deg / 2 samples; loops and
 * duplicates are dropped, so the edge count is at most m (for ER about
 * m * (1 - m / n^2), for R-MAT noticeably less because of the skew). */
#include "gen/gen_internal.h"

#include <math.h>

typedef struct pairs {
    uint64_t seed;        /* the pairs stream */
    uint64_t n;
    int levels;           /* R-MAT: log2 n */
    uint32_t ta, tab, tabc; /* R-MAT: cumulative quadrant thresholds over 2^16 */
} pairs;

/* Multiply-shift: uniform in [0, n) from 32 random bits. */
static int32_t below(uint64_t bits32, uint64_t n)
{
    return (int32_t)((bits32 * n) >> 32);
}

static void er_pair(const void *ctx, int64_t k, int32_t *u, int32_t *v)
{
    const pairs *p = ctx;
    uint64_t h = hash3(p->seed, (uint64_t)k, 0);
    *u = below(h >> 32, p->n);
    *v = below(h & 0xffffffffu, p->n);
}

/* 16 random bits per level, four levels per 64-bit word; word w of sample k
 * is a SplitMix64 step w of the sample's hash (one mix per word). */
static void rmat_pair(const void *ctx, int64_t k, int32_t *u, int32_t *v)
{
    const pairs *p = ctx;
    const uint64_t state = hash3(p->seed, (uint64_t)k, 0);
    uint32_t a = 0, b = 0;
    uint64_t h = 0;
    for (int l = 0; l < p->levels; l++) {
        if (l % 4 == 0)
            h = hash_mix64(state + (uint64_t)(l / 4) * 0x9e3779b97f4a7c15ULL);
        uint32_t r = (uint32_t)(h & 0xffffu);
        h >>= 16;
        /* quadrants a | b | c | d split [0, 2^16) at ta <= tab <= tabc (branch free) */
        uint32_t ge_a = r >= p->ta, ge_ab = r >= p->tab, ge_abc = r >= p->tabc;
        uint32_t row = ge_ab, col = (ge_a ^ ge_ab) | ge_abc;
        a = a << 1 | row;
        b = b << 1 | col;
    }
    *u = (int32_t)a;
    *v = (int32_t)b;
}

int gen_random_pairs(const gen_opts *opts, const gen_shape *s, coarsen_graph **out, coarsen_error *err)
{
    pairs p = {gen_stream(opts->seed, GEN_STREAM_PAIRS), (uint64_t)s->n, 0, 0, 0, 0};
    int64_t samples = (int64_t)llround((double)s->n * opts->avg_degree / 2.0);
    if (opts->kind == GEN_ER)
        return gen_csr_from_pairs((int32_t)s->n, samples, er_pair, &p, out, err);
    while ((INT64_C(1) << p.levels) < s->n)
        p.levels++;
    p.ta = (uint32_t)llround(opts->rmat_a * 65536.0);
    p.tab = (uint32_t)llround((opts->rmat_a + opts->rmat_b) * 65536.0);
    p.tabc = (uint32_t)llround((opts->rmat_a + opts->rmat_b + opts->rmat_c) * 65536.0);
    return gen_csr_from_pairs((int32_t)s->n, samples, rmat_pair, &p, out, err);
}
