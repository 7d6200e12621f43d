/* sum_bench.c — one chain of adds against four running sums over n doubles, min of 50:
 * the measurement behind core/weight_sums.c.   cc -O3 sum_bench.c && ./a.out N */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <time.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e3 + t.tv_nsec / 1e6; }
__attribute__((noinline)) double sum1(const double *w, int64_t n) { double s = 0; for (int64_t k = 0; k < n; k++) s += w[k]; return s; }
__attribute__((noinline)) double sum4(const double *w, int64_t n) {
    double s0 = 0, s1 = 0, s2 = 0, s3 = 0; int64_t k = 0;
    for (; k + 4 <= n; k += 4) { s0 += w[k]; s1 += w[k + 1]; s2 += w[k + 2]; s3 += w[k + 3]; }
    for (; k < n; k++) s0 += w[k];
    return (s0 + s1) + (s2 + s3);
}
int main(int argc, char **argv) {
    int64_t n = atoll(argv[1]); double *w = malloc(n * 8); for (int64_t k = 0; k < n; k++) w[k] = 1 + (k & 7);
    double b1 = 1e9, b4 = 1e9, x = 0;
    for (int r = 0; r < 50; r++) { double t0 = now(); x += sum1(w, n); double t1 = now(); x += sum4(w, n); double t2 = now(); if (t1-t0 < b1) b1 = t1-t0; if (t2-t1 < b4) b4 = t2-t1; }
    printf("n %lld: one sum %.3f ms, four sums %.3f ms (%g)\n", (long long)n, b1, b4, x);
}
