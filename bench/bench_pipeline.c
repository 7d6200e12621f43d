/* bench_pipeline.c — the whole hierarchy, end to end (file I/O excluded):
 * total time and its phases (upload, matching, two-hop, contraction) on the
 * GPU and the CPU, median of --runs runs (no_upload_ms: the total without
 * the host-to-device copy of the input, i.e. the hierarchy of a resident
 * graph); GPU peak memory against the input CSR size; and METIS's coarsening phase on the same graph (in-process
 * METIS_PartGraphRecursive, 2 parts, with METIS_DBG_TIME; its "Coarsening"
 * line is read back), for the speed-up ratio.
 *
 *   bench_pipeline [--graph SPEC|FILE]... [--runs N] [--threads N]
 *                  [--device gpu|cpu|both] [--levels N] [--no-metis] [--gpu-memory F]
 *                  [--matcher hec|handshake]
 *
 * One key=value line per (graph, device), plus one per graph for METIS. */
#include <metis.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/bench_util.h"
#include "device/device.h"

/* Integer weights: with unit weights every tie goes to the smaller id and the
 * handshake needs hundreds of passes per level (docs/pipeline.md). */
static const char *const defaults[] = {
    "grid2d:n=1000000,weights=int",
    "rgg:n=1000000,deg=10,weights=int",
    "rmat:n=1048576,deg=16,weights=int",
    "delaunay:n=1000000,weights=int",
    "rgg:n=1000000,deg=10",
};

typedef struct local_opts {
    int cpu, gpu;   /* devices to run */
    int levels;
    int metis;
    double gpu_memory;  /* coarsen_hierarchy_opts.gpu_memory_factor */
    int handshake;      /* --matcher handshake instead of the default (hec) */
} local_opts;

/* Takes this program's own options out of argv (the rest goes to
 * bench_parse_args); 0, or 2 after printing one line. */
static int strip_local(int *argc, char **argv, local_opts *l)
{
    int out = 1;
    for (int k = 1; k < *argc; k++) {
        const char *a = argv[k];
        if (!strcmp(a, "--no-metis")) {
            l->metis = 0;
        } else if (!strcmp(a, "--device") && k + 1 < *argc) {
            const char *v = argv[++k];
            l->cpu = !strcmp(v, "cpu") || !strcmp(v, "both");
            l->gpu = !strcmp(v, "gpu") || !strcmp(v, "both");
            if (!l->cpu && !l->gpu) {
                fprintf(stderr, "bench_pipeline: --device: '%s' is not gpu, cpu or both\n", v);
                return 2;
            }
        } else if (!strcmp(a, "--matcher") && k + 1 < *argc) {
            const char *v = argv[++k];
            l->handshake = !strcmp(v, "handshake");
            if (!l->handshake && strcmp(v, "hec")) {
                fprintf(stderr, "bench_pipeline: --matcher: '%s' is not hec or handshake\n", v);
                return 2;
            }
        } else if (!strcmp(a, "--gpu-memory") && k + 1 < *argc) {
            l->gpu_memory = atof(argv[++k]);
        } else if (!strcmp(a, "--levels") && k + 1 < *argc) {
            l->levels = atoi(argv[++k]);
            if (l->levels < 1 || l->levels > 100) {
                fprintf(stderr, "bench_pipeline: --levels: '%s' is not in [1, 100]\n", argv[k]);
                return 2;
            }
        } else {
            argv[out++] = argv[k];
        }
    }
    *argc = out;
    argv[out] = NULL;
    return 0;
}

static size_t csr_bytes(const coarsen_graph *g)
{
    return ((size_t)g->n + 1) * sizeof *g->xadj + (size_t)g->nnz * (sizeof *g->adj + sizeof *g->ewgt) +
           (size_t)g->n * sizeof *g->vwgt;
}

typedef struct phases {
    double total, upload, match, two_hop, contract;
} phases;

/* Builds the hierarchy `runs` times (after one untimed warm-up) and reports
 * medians; returns 0 or 1 after printing the error. */
static int bench_device(const char *spec, const coarsen_graph *g, int gpu, int runs, const local_opts *l)
{
    coarsen_hierarchy_opts o;
    coarsen_hierarchy_opts_default(&o);
    o.levels = l->levels;
    o.gpu_memory_factor = l->gpu_memory;
    if (l->handshake)
        o.matcher = COARSEN_MATCHER_HANDSHAKE;
    o.coarsen_to = 0; /* exactly `levels` levels unless a level stalls */
    o.device = gpu ? COARSEN_DEVICE_GPU : COARSEN_DEVICE_CPU;
    double *ms[6]; /* total, upload, matching, two-hop, contraction, total - upload */
    for (int p = 0; p < 6; p++)
        ms[p] = calloc((size_t)runs, sizeof(double));
    size_t peak = 0;
    int built = 0, stop = 0;
    int32_t n_last = 0;
    double download_ms = 0;
    coarsen_error err = {0};
    for (int r = -1; r < runs; r++) {
        coarsen_hierarchy *h = NULL;
        if (gpu)
            device_reset_peak();
        if (coarsen_hierarchy_build(g, &o, &h, &err)) {
            fprintf(stderr, "bench_pipeline: %s: %s\n", spec, err.msg);
            return 1;
        }
        if (gpu && device_peak_bytes() > peak)
            peak = device_peak_bytes();
        built = coarsen_hierarchy_levels(h);
        stop = coarsen_hierarchy_stop_reason(h);
        n_last = coarsen_hierarchy_stats(h, built)->vertices;
        if (r >= 0) {
            phases ph = {coarsen_hierarchy_total_ms(h), coarsen_hierarchy_transfer_ms(h), 0, 0, 0};
            for (int k = 1; k <= built; k++) {
                const coarsen_level_stats *s = coarsen_hierarchy_stats(h, k);
                ph.match += s->matching_ms;
                ph.two_hop += s->two_hop_ms;
                ph.contract += s->contraction_ms;
            }
            ms[0][r] = ph.total, ms[1][r] = ph.upload, ms[2][r] = ph.match, ms[3][r] = ph.two_hop,
            ms[4][r] = ph.contract, ms[5][r] = ph.total - ph.upload;
        }
        if (r == runs - 1 && gpu) { /* what a caller pays to fetch every level and map */
            double t0 = bench_now_ms();
            for (int k = 0; k <= built; k++) {
                const coarsen_graph *lg;
                const int32_t *map;
                if (coarsen_hierarchy_graph(h, k, &lg, &err) || (k > 0 && coarsen_hierarchy_map(h, k, &map, &err))) {
                    fprintf(stderr, "bench_pipeline: %s: %s\n", spec, err.msg);
                    return 1;
                }
            }
            download_ms = bench_now_ms() - t0;
        }
        coarsen_hierarchy_free(h);
    }
    double med[6];
    for (int p = 1; p < 6; p++)
        med[p] = bench_median(ms[p], runs);
    char extra[768];
    snprintf(extra, sizeof extra,
             "device=%s matcher=%s levels=%d stop=%s n_coarsest=%d no_upload_ms=%.3f upload_ms=%.3f matching_ms=%.3f two_hop_ms=%.3f "
             "contraction_ms=%.3f download_all_ms=%.3f input_csr_bytes=%zu peak_device_bytes=%zu peak_over_input=%.2f",
             gpu ? "gpu" : "cpu", l->handshake ? "handshake" : "hec", built, coarsen_stop_reason_name((coarsen_stop_reason)stop), n_last, med[5], med[1], med[2],
             med[3], med[4], download_ms, csr_bytes(g), peak, peak ? (double)peak / (double)csr_bytes(g) : 0.0);
    bench_report("pipeline", spec, g, ms[0], runs, extra);
    for (int p = 0; p < 6; p++)
        free(ms[p]);
    return 0;
}

/* METIS's own "Coarsening" seconds for a 2-way recursive bisection of g
 * (integer edge weights when g has them, unit otherwise); -1 on failure. */
static double metis_coarsening_s(const coarsen_graph *g, double *total_s)
{
    idx_t n = g->n, ncon = 1, nparts = 2, objval = 0;
    idx_t *xadj = malloc(((size_t)n + 1) * sizeof *xadj), *adj = malloc((size_t)g->nnz * sizeof *adj);
    idx_t *vw = malloc(((size_t)n + 1) * sizeof *vw), *ew = malloc((size_t)g->nnz * sizeof *ew);
    idx_t *part = malloc(((size_t)n + 1) * sizeof *part);
    if (!xadj || !adj || !vw || !ew || !part || g->nnz > INT32_MAX) {
        free(xadj), free(adj), free(vw), free(ew), free(part);
        return -1;
    }
    for (int64_t k = 0; k <= n; k++)
        xadj[k] = (idx_t)g->xadj[k];
    for (int64_t e = 0; e < g->nnz; e++) {
        adj[e] = g->adj[e];
        ew[e] = g->integral_weights ? (idx_t)g->ewgt[e] : 1;
        if (ew[e] < 1)
            ew[e] = 1;
    }
    for (int64_t v = 0; v < n; v++)
        vw[v] = (idx_t)g->vwgt[v];
    idx_t options[METIS_NOPTIONS];
    METIS_SetDefaultOptions(options);
    options[METIS_OPTION_DBGLVL] = METIS_DBG_TIME;
    /* METIS prints its timing on stdout: catch it in a temporary file. */
    char tmp[] = "/tmp/bench-pipeline-metis-XXXXXX";
    int fd = mkstemp(tmp), saved = dup(1);
    fflush(stdout);
    dup2(fd, 1);
    double t0 = bench_now_ms();
    int rc = METIS_PartGraphRecursive(&n, &ncon, xadj, adj, vw, NULL, ew, &nparts, NULL, NULL, options, &objval, part);
    *total_s = (bench_now_ms() - t0) / 1e3;
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    double coarsening = -1;
    FILE *f = fdopen(fd, "r");
    char line[512];
    rewind(f);
    while (fgets(line, sizeof line, f)) {
        char *p = strstr(line, "Coarsening:");
        if (p && coarsening < 0)
            coarsening = strtod(p + strlen("Coarsening:"), NULL);
    }
    fclose(f);
    unlink(tmp);
    free(xadj), free(adj), free(vw), free(ew), free(part);
    return rc == METIS_OK ? coarsening : -1;
}

int main(int argc, char **argv)
{
    local_opts l = {.cpu = 1, .gpu = 1, .levels = 10, .metis = 1};
    if (strip_local(&argc, argv, &l))
        return 2;
    bench_opts o;
    int rc = bench_parse_args(argc, argv,
                              "Times the whole coarsening hierarchy (GPU and CPU, per phase) and METIS's coarsening.\n"
                              "Own options: --device gpu|cpu|both (default both), --levels N (default 10), --no-metis,\n"
                              "             --gpu-memory F (coarsen_hierarchy_opts.gpu_memory_factor),\n"
                              "             --matcher hec|handshake (default hec).",
                              defaults, (int)(sizeof defaults / sizeof defaults[0]), &o);
    if (rc)
        return rc == 1 ? 0 : rc;
    int have_gpu = device_gpu_count() > 0 && device_built_with_cuda();
    if (l.gpu && !have_gpu)
        fprintf(stderr, "bench_pipeline: no usable GPU: GPU rows skipped\n");
    for (int k = 0; k < o.ngraphs; k++) {
        coarsen_error err = {0};
        coarsen_graph *g = NULL;
        if (bench_load_graph(o.graphs[k], &g, &err)) {
            fprintf(stderr, "bench_pipeline: %s\n", err.msg);
            return 1;
        }
        if (l.gpu && have_gpu && bench_device(o.graphs[k], g, 1, o.runs, &l))
            return 1;
        if (l.cpu && bench_device(o.graphs[k], g, 0, o.runs, &l))
            return 1;
        if (l.metis) {
            double total_s = 0, coarsening_s = metis_coarsening_s(g, &total_s);
            printf("bench=pipeline_metis graph=%s n=%d nnz=%lld metis_coarsening_ms=%.1f metis_partition_ms=%.1f\n",
                   o.graphs[k], g->n, (long long)g->nnz, coarsening_s * 1e3, total_s * 1e3);
        }
        fflush(stdout);
        coarsen_graph_free(g);
    }
    return 0;
}
