/* roma_sum.c — the host side of the fixed-order sum (roma_sum.h). */
#include "matching/roma_sum.h"

double roma_sum_fixed(double *x, int64_t n)
{
    if (n == 0)
        return 0.0;
    while (n > 1) {
        int64_t chunks = (n + ROMA_SUM_CHUNK - 1) / ROMA_SUM_CHUNK;
        for (int64_t c = 0; c < chunks; c++) {
            double t[ROMA_SUM_CHUNK];
            for (int i = 0; i < ROMA_SUM_CHUNK; i++) {
                int64_t k = c * ROMA_SUM_CHUNK + i;
                t[i] = k < n ? x[k] : 0.0;
            }
            for (int s = ROMA_SUM_CHUNK / 2; s > 0; s >>= 1)
                for (int i = 0; i < s; i++)
                    t[i] = t[i] + t[i + s];
            x[c] = t[0]; /* c <= c * CHUNK: never overwrites an unread value */
        }
        n = chunks;
    }
    return x[0];
}
