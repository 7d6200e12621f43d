/* bench_startup.c — what the GPU backend costs before any work, step by
 * step, in a fresh process (run it several times; the first CUDA call of a
 * process is what is measured): the driver's device count (cuInit), the
 * device layer's selection (context, memory pool, pinned staging buffers),
 * pinned host memory of --pinned-mib, a first small copy each way and a first
 * kernel (the matcher's module loads on first use). It ends by printing the
 * CLOCK_REALTIME second at which it calls exit, so that a shell can measure
 * the process teardown that follows (the driver releasing the context):
 *
 *   t0=$(date +%s.%N); bench_startup > r.txt; t1=$(date +%s.%N)
 *   (t1 minus r.txt's exit_at_s = teardown)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/bench_util.h"
#include "device/device.h"
#include "exec/host_call.h"
#include "matching/matching.h"

int main(int argc, char **argv)
{
    size_t pinned_mib = argc > 1 ? (size_t)strtoul(argv[1], NULL, 10) : 64;
    coarsen_error err = {0};
    double t0 = bench_now_ms();
    int count = device_gpu_count();
    double t1 = bench_now_ms();
    int use_gpu = 0;
    if (device_select(DEVICE_GPU, &use_gpu, &err)) {
        fprintf(stderr, "bench_startup: %s\n", err.msg);
        return 1;
    }
    double t2 = bench_now_ms();
    void *pinned = NULL;
    if (pinned_mib && device_host_alloc(&pinned, pinned_mib << 20, "pinned", &err)) {
        fprintf(stderr, "bench_startup: %s\n", err.msg);
        return 1;
    }
    double t3 = bench_now_ms();
    int32_t host[256] = {0};
    void *d = NULL;
    if (device_alloc(&d, sizeof host, "small", &err) || device_copy_to_device(d, host, sizeof host, &err) ||
        device_copy_to_host(host, d, sizeof host, &err)) {
        fprintf(stderr, "bench_startup: %s\n", err.msg);
        return 1;
    }
    double t4 = bench_now_ms();
    coarsen_graph *g = NULL;
    if (bench_load_graph("grid2d:nx=8,ny=8", &g, &err)) {
        fprintf(stderr, "bench_startup: %s\n", err.msg);
        return 1;
    }
    int32_t *mate = malloc((size_t)g->n * sizeof *mate);
    matching_opts mo;
    matching_opts_default(&mo);
    matching_stats ms;
    double t5 = bench_now_ms();
    if (!mate || exec_match_host(exec_backend_gpu(), g, &mo, mate, NULL, &ms, &err)) {
        fprintf(stderr, "bench_startup: %s\n", err.msg[0] ? err.msg : "out of memory");
        return 1;
    }
    double t6 = bench_now_ms();
    device_host_free(pinned);
    double t7 = bench_now_ms();
    device_free(d);
    free(mate);
    coarsen_graph_free(g);
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    printf("bench=startup gpus=%d count_ms=%.1f select_ms=%.1f pinned_mib=%zu pinned_ms=%.1f first_copies_ms=%.2f "
           "first_match_ms=%.2f pinned_free_ms=%.1f exit_at_s=%ld.%09ld\n",
           count, t1 - t0, t2 - t1, pinned_mib, t3 - t2, t4 - t3, t6 - t5, t7 - t6, (long)now.tv_sec,
           (long)now.tv_nsec);
    fflush(stdout);
    return 0;
}
