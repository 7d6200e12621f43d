/* bench_memory.c — what first touching a large block costs, by strategy: the
 * readers and the CSR builder write gigabytes of fresh memory, and on some
 * machines (the GPU machine runs under gVisor) its page faults cost more
 * than the parsing. For one block size, the median ms of: malloc + a write
 * of every page by all threads; the same after madvise(MADV_HUGEPAGE); after
 * madvise(MADV_POPULATE_WRITE) (one call that faults every page); and an
 * mmap with MAP_POPULATE; each followed by the same parallel write.
 *
 *   bench_memory [--mib M] [--runs N] [--threads N] */
#include "bench/bench_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

enum { OPT_MIB = 256, MAX_RUNS = 64 };

static int handle(int val, const char *arg, void *ctx)
{
    long v = strtol(arg, NULL, 10);
    if (val != OPT_MIB || v < 1 || v > 65536)
        return fprintf(stderr, "bench_memory: --mib: 1..65536\n"), -1;
    *(long *)ctx = v;
    return 0;
}

/* Writes one byte per 4 KiB page of p[0, bytes) on all threads. */
static void touch(char *p, size_t bytes)
{
    long pages = (long)(bytes >> 12);
#pragma omp parallel for schedule(static)
    for (long k = 0; k < pages; k++)
        p[(size_t)k << 12] = (char)k;
}

typedef enum strategy { PLAIN, HUGE, POPULATE_WRITE, MAP_POPULATED, STRATEGIES } strategy;
static const char *const names[] = {"malloc+touch", "madvise_hugepage+touch", "madvise_populate_write+touch",
                                    "mmap_populate+touch"};

/* One run of strategy s on a block of bytes; ms, or -1 when refused. */
static double run(strategy s, size_t bytes)
{
    double t0 = bench_now_ms();
    char *p;
    int mapped = s == MAP_POPULATED;
    if (mapped) {
        p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
        if (p == MAP_FAILED)
            return -1;
    } else {
        p = malloc(bytes);
        if (!p)
            return -1;
        char *a = (char *)(((uintptr_t)p + 4095) & ~(uintptr_t)4095);
        size_t len = (bytes - (size_t)(a - p)) & ~(size_t)4095;
        if (s == HUGE && madvise(a, len, MADV_HUGEPAGE))
            return free(p), -1;
        if (s == POPULATE_WRITE && madvise(a, len, MADV_POPULATE_WRITE))
            return free(p), -1;
    }
    touch(p, bytes);
    double ms = bench_now_ms() - t0;
    if (mapped)
        munmap(p, bytes);
    else
        free(p);
    return ms;
}

int main(int argc, char **argv)
{
    static const struct option options[] = {{"mib", required_argument, 0, OPT_MIB}, {0, 0, 0, 0}};
    long mib = 1024;
    bench_extra extra = {options, "  --mib M        block size in MiB (default 1024)\n", handle, &mib};
    bench_opts o;
    int rc = bench_parse_args_extra(argc, argv, "cost of first touching a large block, by strategy", NULL, 0, &extra,
                                    &o);
    if (rc)
        return rc == 1 ? 0 : rc;
    if (o.runs > MAX_RUNS)
        o.runs = MAX_RUNS;
    size_t bytes = (size_t)mib << 20;
    for (int s = 0; s < STRATEGIES; s++) {
        double ms[MAX_RUNS];
        int ok = 1;
        for (int r = 0; r < o.runs && ok; r++)
            ok = (ms[r] = run((strategy)s, bytes)) >= 0;
        if (!ok) {
            printf("bench=memory strategy=%s mib=%ld refused\n", names[s], mib);
            continue;
        }
        double med = bench_median(ms, o.runs);
        printf("bench=memory strategy=%s mib=%ld runs=%d median_ms=%.1f gb_per_s=%.2f\n", names[s], mib, o.runs, med,
               (double)bytes / (med * 1e6));
    }
    return 0;
}
