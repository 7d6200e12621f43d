/* fixed_sum.c — the host side of the fixed-order sum (fixed_sum.h). */
#include "core/fixed_sum.h"

#include <stdlib.h>

#include "core/threads.h"

int64_t fixed_sum_chunks(int64_t n) { return (n + FIXED_SUM_CHUNK - 1) / FIXED_SUM_CHUNK; }

double fixed_sum_of_chunks(const double *sums, int64_t chunks)
{
    double s = 0.0;
    for (int64_t c = 0; c < chunks; c++)
        s += sums[c];
    return s;
}

/* Chunk c of x[0..n) by the halving tree. */
static double chunk_sum(const double *x, int64_t n, int64_t c)
{
    double t[FIXED_SUM_CHUNK / 2];
    const int64_t base = c * FIXED_SUM_CHUNK;
    const double *y = x + base;
    if (n - base >= FIXED_SUM_CHUNK) { /* a whole chunk: no bound to check (the loop vectorises) */
        for (int i = 0; i < FIXED_SUM_CHUNK / 2; i++) /* the tree's first level, s = CHUNK / 2 */
            t[i] = y[i] + y[i + FIXED_SUM_CHUNK / 2];
    } else {
        for (int i = 0; i < FIXED_SUM_CHUNK / 2; i++) {
            int64_t a = base + i, b = a + FIXED_SUM_CHUNK / 2;
            t[i] = (a < n ? x[a] : 0.0) + (b < n ? x[b] : 0.0);
        }
    }
    return fixed_sum_tree(t, FIXED_SUM_CHUNK / 2);
}

double fixed_sum_cpu(const double *x, int64_t n)
{
    const int64_t chunks = fixed_sum_chunks(n);
    double *sums = chunks > 1 ? malloc((size_t)chunks * sizeof *sums) : NULL;
    double s = 0.0;
    if (!sums) { /* one chunk, or no room for the chunk sums: one thread, same order */
        for (int64_t c = 0; c < chunks; c++)
            s += chunk_sum(x, n, c);
        return s;
    }
#pragma omp parallel for schedule(static) if (threads_for(n) > 1)
    for (int64_t c = 0; c < chunks; c++)
        sums[c] = chunk_sum(x, n, c);
    s = fixed_sum_of_chunks(sums, chunks);
    free(sums);
    return s;
}
