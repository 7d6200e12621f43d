/* roma_sum.h — the fixed-order sum of a double array that the ROMA replay
 * (host) and roma.cu (device) both use for per-phase gains, so the two get
 * the same double: the array is cut into chunks of ROMA_SUM_CHUNK values
 * (zero-padded), each chunk reduced by the halving tree x[t] += x[t + s]
 * for s = CHUNK/2 .. 1, and the chunk sums are summed the same way, level
 * after level, until one value is left. */
#ifndef MATCHING_ROMA_SUM_H
#define MATCHING_ROMA_SUM_H

#include <stdint.h>

#define ROMA_SUM_CHUNK 1024

#ifdef __cplusplus
extern "C" {
#endif

/* The sum of x[0..n) in the order above; x is overwritten (0 for n = 0). */
double roma_sum_fixed(double *x, int64_t n);

#ifdef __cplusplus
}
#endif
#endif
