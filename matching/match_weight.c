/* match_weight.c — the host side of the fixed-order matching weight
 * (match_weight.h); the GPU computes the same chunk sums in match_gpu.cu. */
#include "matching/match_weight.h"

double match_weight_sum_chunks(const double *chunk_sums, int64_t nchunks)
{
    double sum = 0.0;
    for (int64_t c = 0; c < nchunks; c++)
        sum += chunk_sums[c];
    return sum;
}

double match_weight_cpu(const coarsen_graph *g, const int32_t *mate, int64_t *pairs)
{
    double sum = 0.0;
    int64_t count = 0;
    for (int64_t base = 0; base < g->n; base += MATCH_WEIGHT_CHUNK) {
        double x[MATCH_WEIGHT_CHUNK];
        for (int t = 0; t < MATCH_WEIGHT_CHUNK; t++) {
            int64_t v = base + t;
            x[t] = v < g->n ? match_weight_contrib(g->xadj, g->adj, g->ewgt, mate, (int32_t)v) : 0.0;
            count += v < g->n && mate[v] > v;
        }
        for (int s = MATCH_WEIGHT_CHUNK / 2; s > 0; s >>= 1)
            for (int t = 0; t < s; t++)
                x[t] = x[t] + x[t + s];
        sum += x[0]; /* same as match_weight_sum_chunks, one chunk at a time */
    }
    if (pairs)
        *pairs = count;
    return sum;
}
