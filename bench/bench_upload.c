/* bench_upload.c — the host <-> device link as the pipeline sees it: the
 * GPU's start-up (driver, context, staging buffers), then for each size the
 * median GB/s of every copy path of device.h (DIRECT from pinned memory:
 * the link's real speed; DIRECT, REGISTERED and STAGED from ordinary
 * memory, as the reader leaves a graph), up and down, and one whole graph
 * upload (device_graph_upload) of a generated graph.
 *
 *   bench_upload [--runs N] [--threads N] [--mib M]... [--graph SPEC]
 *
 * Needs a GPU; prints one key=value line per measurement. */
#include "bench/bench_util.h"
#include "core/error.h"
#include "device/device.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_SIZES = 8, MAX_RUNS = 64, OPT_MIB = 256 };

typedef struct sizes {
    long mib[MAX_SIZES];
    int count;
} sizes;

static int handle(int val, const char *arg, void *ctx)
{
    sizes *s = ctx;
    long v = strtol(arg, NULL, 10);
    if (val != OPT_MIB || v < 1 || v > 65536 || s->count == MAX_SIZES)
        return fprintf(stderr, "bench_upload: --mib: 1..65536, at most %d times\n", MAX_SIZES), -1;
    s->mib[s->count++] = v;
    return 0;
}

static void die(const coarsen_error *err)
{
    fprintf(stderr, "bench_upload: %s\n", err->msg);
    exit(1);
}

static const char *const path_names[] = {"direct", "registered", "staged"};

/* Median GB/s of runs copies of bytes between host and dev. */
static double time_copy(void *dev, void *host, size_t bytes, int up, device_copy_path path, int runs, double *med_ms)
{
    coarsen_error err = {0};
    double ms[MAX_RUNS];
    for (int r = 0; r < runs; r++) {
        double t0 = bench_now_ms();
        int rc = up ? device_upload_via(dev, host, bytes, path, &err) : device_download_via(host, dev, bytes, path, &err);
        if (rc)
            die(&err);
        ms[r] = bench_now_ms() - t0;
    }
    *med_ms = bench_median(ms, runs);
    return (double)bytes / (*med_ms * 1e6);
}

int main(int argc, char **argv)
{
    static const struct option options[] = {{"mib", required_argument, 0, OPT_MIB}, {0, 0, 0, 0}};
    sizes sz = {.count = 0};
    bench_extra extra = {options, "  --mib M        size of each copy in MiB (repeatable; default 256 and 1024)\n", handle,
                         &sz};
    static const char *const defaults[] = {"rgg:n=4000000,deg=12"};
    bench_opts o;
    int rc = bench_parse_args_extra(argc, argv, "host <-> device copy speed by path, and GPU start-up", defaults, 1,
                                    &extra, &o);
    if (rc)
        return rc == 1 ? 0 : rc;
    if (!sz.count)
        sz.mib[sz.count++] = 256, sz.mib[sz.count++] = 1024;
    if (o.runs > MAX_RUNS)
        o.runs = MAX_RUNS;
    coarsen_error err = {0};
    double t0 = bench_now_ms();
    int gpus = device_gpu_count();
    double t1 = bench_now_ms();
    int use_gpu = 0;
    if (!gpus || device_select(DEVICE_GPU, &use_gpu, &err))
        return fprintf(stderr, "bench_upload: no GPU: %s\n", err.msg), 1;
    double t2 = bench_now_ms();
    printf("bench=upload what=startup driver_ms=%.1f context_and_staging_ms=%.1f device=\"%s\"\n", t1 - t0, t2 - t1,
           device_name());
    for (int s = 0; s < sz.count; s++) {
        size_t bytes = (size_t)sz.mib[s] << 20;
        void *dev = NULL, *pinned = NULL;
        char *plain = malloc(bytes);
        if (!plain)
            return fprintf(stderr, "bench_upload: out of host memory\n"), 1;
        memset(plain, 1, bytes); /* faulted in, as a graph the reader built */
        double tp = bench_now_ms();
        if (device_alloc(&dev, bytes, "copy target", &err) || device_host_alloc(&pinned, bytes, "pinned source", &err))
            die(&err);
        double pin_ms = bench_now_ms() - tp;
        memset(pinned, 1, bytes);
        for (int up = 1; up >= 0; up--) {
            double ms;
            double link = time_copy(dev, pinned, bytes, up, DEVICE_COPY_DIRECT, o.runs, &ms);
            printf("bench=upload what=%s mib=%ld source=pinned path=direct runs=%d median_ms=%.2f gbps=%.2f "
                   "alloc_pinned_ms=%.1f\n",
                   up ? "up" : "down", sz.mib[s], o.runs, ms, link, pin_ms);
            for (int p = 0; p < 3; p++) {
                double gbps = time_copy(dev, plain, bytes, up, (device_copy_path)p, o.runs, &ms);
                printf("bench=upload what=%s mib=%ld source=pageable path=%s runs=%d median_ms=%.2f gbps=%.2f "
                       "of_link=%.2f\n",
                       up ? "up" : "down", sz.mib[s], path_names[p], o.runs, ms, gbps, gbps / link);
            }
        }
        device_free(dev);
        device_host_free(pinned);
        free(plain);
    }
    coarsen_graph *g = NULL;
    if (bench_load_graph(o.graphs[0], &g, &err))
        die(&err);
    double ms[MAX_RUNS];
    for (int r = 0; r < o.runs; r++) {
        coarsen_graph *d = NULL;
        double ts = bench_now_ms();
        if (device_graph_upload(g, &d, &err))
            die(&err);
        ms[r] = bench_now_ms() - ts;
        coarsen_graph_free(d);
    }
    size_t bytes = ((size_t)g->n + 1) * sizeof *g->xadj + (size_t)g->nnz * (sizeof *g->adj + sizeof *g->ewgt) +
                   (size_t)g->n * sizeof *g->vwgt;
    char more[96];
    snprintf(more, sizeof more, "what=graph_upload mb=%.1f gbps=%.2f", bytes / 1e6,
             (double)bytes / (bench_median(ms, o.runs) * 1e6));
    bench_report("upload", o.graphs[0], g, ms, o.runs, more);
    coarsen_graph_free(g);
    return 0;
}
