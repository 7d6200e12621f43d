/* match_weight.c — the host side of the fixed-order matching weight
 * (match_weight.h); the GPU computes the same chunk sums in match_gpu.cu. */
#include "matching/match_weight.h"
#include "core/fixed_sum.h"
#include "core/threads.h"

double match_weight_sum_chunks(const double *chunk_sums, int64_t nchunks)
{
    double sum = 0.0;
    for (int64_t c = 0; c < nchunks; c++)
        sum += chunk_sums[c];
    return sum;
}

/* The halving-tree sum of the chunk of vertices [base, base + CHUNK), and
 * its pairs added to *pairs. */
static double chunk_sum(const coarsen_graph *g, const int32_t *mate, int64_t base, int64_t *pairs)
{
    double x[MATCH_WEIGHT_CHUNK];
    for (int t = 0; t < MATCH_WEIGHT_CHUNK; t++) {
        int64_t v = base + t;
        x[t] = v < g->n ? match_weight_contrib(g->xadj, g->adj, g->ewgt, mate, (int32_t)v) : 0.0;
        *pairs += v < g->n && mate[v] > v;
    }
    return fixed_sum_tree(x, MATCH_WEIGHT_CHUNK);
}

/* Chunk sums are made WEIGHT_BATCH at a time on all threads, then added in
 * chunk order (as match_weight_sum_chunks). */
#define WEIGHT_BATCH 256

double match_weight_cpu(const coarsen_graph *g, const int32_t *mate, int64_t *pairs)
{
    double sum = 0.0;
    int64_t count = 0, nchunks = (g->n + MATCH_WEIGHT_CHUNK - 1) / MATCH_WEIGHT_CHUNK;
    for (int64_t first = 0; first < nchunks; first += WEIGHT_BATCH) {
        int64_t nb = nchunks - first < WEIGHT_BATCH ? nchunks - first : WEIGHT_BATCH;
        double part[WEIGHT_BATCH];
#pragma omp parallel for schedule(static) reduction(+ : count) if (g->n >= THREADS_PARALLEL_MIN)
        for (int64_t b = 0; b < nb; b++)
            part[b] = chunk_sum(g, mate, (first + b) * MATCH_WEIGHT_CHUNK, &count);
        for (int64_t b = 0; b < nb; b++)
            sum += part[b];
    }
    if (pairs)
        *pairs = count;
    return sum;
}
