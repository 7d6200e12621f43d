/* gen_random_pairs.c — graphs made of hashed vertex pairs: Erdos-Renyi
 * G(n, m) (both endpoints uniform) and R-MAT (each of log2 n levels picks a
 * quadrant with probabilities a, b, c, d). m = n * deg / 2 samples; loops and
 * duplicates are dropped, so the edge count is at most m (for ER about
 * m * (1 - m / n^2), for R-MAT noticeably less because of the skew). */
#include "gen/gen_internal.h"
#include "core/error.h"

#include <math.h>
#include <stdlib.h>

/* R-MAT draws three levels at once: 16 random bits index a table of the 64
 * outcomes of three quadrant choices (probability the product of the three),
 * giving 3 row bits and 3 column bits. Levels beyond a multiple of three use
 * a table of one or two levels. */
#define GROUP 3

typedef struct pairs {
    uint64_t seed;        /* the pairs stream */
    uint64_t n;
    int levels;           /* R-MAT: log2 n */
    unsigned char full[1 << 16], rest[1 << 16]; /* R-MAT: row bits << 3 | column bits */
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

/* Table for `levels` (1 to 3) quadrant choices with probabilities q[0..3]
 * (a, b, c, d: quadrant = row bit * 2 + column bit), cut at cumulative
 * probabilities rounded to multiples of 2^-16. */
static void build_table(const double q[4], int levels, unsigned char *table)
{
    int outcomes = 1 << (2 * levels);
    double cum = 0;
    uint32_t from = 0;
    for (int o = 0; o < outcomes; o++) {
        double prob = 1;
        unsigned row = 0, col = 0;
        for (int l = 0; l < levels; l++) {
            int quad = (o >> (2 * (levels - 1 - l))) & 3;
            prob *= q[quad];
            row = row << 1 | (unsigned)(quad >> 1);
            col = col << 1 | (unsigned)(quad & 1);
        }
        cum += prob;
        uint32_t to = o == outcomes - 1 ? 1u << 16 : (uint32_t)fmin(llround(cum * 65536.0), 65536.0);
        for (; from < to; from++)
            table[from] = (unsigned char)(row << 3 | col);
    }
}

/* Word w of sample k is SplitMix64 step w of the sample's hash; each word
 * gives four 16-bit table indices. */
static void rmat_pair(const void *ctx, int64_t k, int32_t *u, int32_t *v)
{
    const pairs *p = ctx;
    const uint64_t state = hash3(p->seed, (uint64_t)k, 0);
    uint32_t a = 0, b = 0;
    uint64_t h = 0;
    int group = 0;
    for (int l = 0; l < p->levels; l += GROUP, group++) {
        if (group % 4 == 0)
            h = hash_mix64(state + (uint64_t)(group / 4) * 0x9e3779b97f4a7c15ULL);
        int take = p->levels - l < GROUP ? p->levels - l : GROUP;
        unsigned e = (take == GROUP ? p->full : p->rest)[h & 0xffffu];
        h >>= 16;
        a = a << take | (e >> 3);
        b = b << take | (e & 7);
    }
    *u = (int32_t)a;
    *v = (int32_t)b;
}

int gen_random_pairs(const gen_opts *opts, const gen_shape *s, coarsen_graph **out, coarsen_error *err)
{
    pairs *p = xmalloc(sizeof *p, "R-MAT tables", err);
    if (!p)
        return COARSEN_ERR_NOMEM;
    p->seed = gen_stream(opts->seed, GEN_STREAM_PAIRS);
    p->n = (uint64_t)s->n;
    int64_t samples = (int64_t)llround((double)s->n * opts->avg_degree / 2.0);
    gen_pair_fn fn = er_pair;
    if (opts->kind == GEN_RMAT) {
        double q[4] = {opts->rmat_a, opts->rmat_b, opts->rmat_c,
                       fmax(0.0, 1.0 - opts->rmat_a - opts->rmat_b - opts->rmat_c)};
        for (p->levels = 0; (INT64_C(1) << p->levels) < s->n;)
            p->levels++;
        build_table(q, GROUP, p->full);
        if (p->levels % GROUP)
            build_table(q, p->levels % GROUP, p->rest);
        fn = rmat_pair;
    }
    int status = gen_csr_from_pairs((int32_t)s->n, samples, fn, p, out, err);
    free(p);
    return status;
}
