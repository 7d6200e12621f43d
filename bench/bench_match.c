/* bench_match.c — benchmark of the matchers: for every graph (a generator
 * spec or a graph file), every backend (CPU with 1 thread, CPU with all
 * threads, GPU with the graph already on the device) and every matcher, the
 * median matcher time over --runs runs after one warm-up run, undirected
 * edges per second, matched fraction, weight, passes and the first pass's /
 * round's matched fraction. One table row per (graph, backend, matcher).
 *
 * Graph specs (until gen/generators.h lands, a few tiny generators live here):
 *   er:N:DEG        G(n, m) with m = N DEG / 2 random pairs (duplicates merged)
 *   rmat:SCALE:DEG  R-MAT (0.57, 0.19, 0.19, 0.05), 2^SCALE vertices, m = n DEG / 2
 *   grid:NX:NY      2-D 4-neighbour grid
 * Weights: --weights real (default, in (0, 1]) | unit | int (1..100).
 * Anything else is read as a graph file (coarsen_graph_load).
 *
 *   build/bench/bench_match [--runs 5] [--backends cpu1,cpu,gpu] [--matchers handshake,redblue]
 *                           [--random] [--group-width W] [--heavy-degree D] SPEC...
 */
#include "coarsen.h"
#include "core/graph_build.h"
#include "core/hash.h"
#include "core/timer.h"
#include "device/device.h"
#include "matching/matching.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int g_weights = 2; /* 0 unit, 1 int, 2 real */

static double edge_weight(uint64_t h)
{
    return g_weights == 0 ? 1.0 : g_weights == 1 ? (double)(1 + h % 100) : 1.0 - hash_unit(h);
}

/* Fills m entries of e in parallel with pair(k) and builds the graph. */
static coarsen_graph *build(int32_t n, int64_t m, void (*pair)(int64_t, const int64_t *, int32_t *, int32_t *),
                            const int64_t *args)
{
    coarsen_error err = {0};
    edge_list e;
    if (edge_list_init(&e, m, &err)) {
        fprintf(stderr, "bench_match: %s\n", err.msg);
        return NULL;
    }
#pragma omp parallel for schedule(static)
    for (int64_t k = 0; k < m; k++) {
        pair(k, args, &e.i[k], &e.j[k]);
        e.w[k] = edge_weight(hash3(99, (uint64_t)k, 5));
    }
    e.count = m;
    graph_build_opts o = {.mirrored = 1, .dup_rule = MERGE_MAX, .sym_rule = MERGE_MAX};
    coarsen_graph *g = NULL;
    if (graph_from_edges(n, &e, &o, &g, NULL, &err))
        fprintf(stderr, "bench_match: %s\n", err.msg);
    edge_list_free(&e);
    return g;
}

static void er_pair(int64_t k, const int64_t *a, int32_t *i, int32_t *j)
{
    *i = (int32_t)(hash3(a[1], (uint64_t)k, 1) % (uint64_t)a[0]);
    *j = (int32_t)(hash3(a[1], (uint64_t)k, 2) % (uint64_t)a[0]);
}

static void rmat_pair(int64_t k, const int64_t *a, int32_t *i, int32_t *j)
{
    uint32_t u = 0, v = 0;
    for (int64_t l = 0; l < a[0]; l++) {
        double r = hash_unit(hash3(a[1], (uint64_t)k, (uint64_t)l));
        int q = r < 0.57 ? 0 : r < 0.76 ? 1 : r < 0.95 ? 2 : 3;
        u = (u << 1) | (uint32_t)(q >> 1);
        v = (v << 1) | (uint32_t)(q & 1);
    }
    *i = (int32_t)u;
    *j = (int32_t)v;
}

static void grid_pair(int64_t k, const int64_t *a, int32_t *i, int32_t *j)
{
    int64_t nx = a[0], ny = a[1], horiz = (nx - 1) * ny;
    if (k < horiz) {
        int64_t y = k / (nx - 1), x = k % (nx - 1);
        *i = (int32_t)(y * nx + x), *j = (int32_t)(y * nx + x + 1);
    } else {
        int64_t t = k - horiz, y = t / nx, x = t % nx;
        *i = (int32_t)(y * nx + x), *j = (int32_t)((y + 1) * nx + x);
    }
}

static coarsen_graph *make_graph(const char *spec)
{
    long long a = 0, b = 0;
    if (sscanf(spec, "er:%lld:%lld", &a, &b) == 2 && a > 1 && b > 0)
        return build((int32_t)a, a * b / 2, er_pair, (int64_t[]){a, 7});
    if (sscanf(spec, "rmat:%lld:%lld", &a, &b) == 2 && a > 0 && a < 31 && b > 0)
        return build((int32_t)1 << a, ((int64_t)1 << a) * b / 2, rmat_pair, (int64_t[]){a, 11});
    if (sscanf(spec, "grid:%lld:%lld", &a, &b) == 2 && a > 1 && b > 1)
        return build((int32_t)(a * b), (a - 1) * b + a * (b - 1), grid_pair, (int64_t[]){a, b});
    coarsen_graph *g = NULL;
    coarsen_error err = {0};
    if (coarsen_graph_load(spec, &g, NULL, &err))
        fprintf(stderr, "bench_match: %s\n", err.msg);
    return g;
}

/* 1 when item is one of the comma-separated words of list. */
static int has_item(const char *list, const char *item)
{
    size_t len = strlen(item);
    for (const char *p = list; *p; p += strcspn(p, ",")) {
        p += *p == ',';
        if (!strncmp(p, item, len) && (p[len] == ',' || p[len] == 0))
            return 1;
    }
    return 0;
}

static int cmp_double(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

/* One warm-up and runs timed runs; prints the row. */
static int bench_one(const char *name, const coarsen_graph *g, const coarsen_graph *dg, int32_t *mate,
                     void *d_mate, const char *backend, const matching_opts *o, int runs)
{
    double ms[64];
    matching_stats st;
    coarsen_error err = {0};
    for (int r = -1; r < runs; r++) {
        int rc = dg ? match_gpu(dg, o, d_mate, NULL, &st, &err) : match_cpu(g, o, mate, NULL, &st, &err);
        if (rc) {
            fprintf(stderr, "bench_match: %s %s: %s\n", name, backend, err.msg);
            return rc;
        }
        if (r >= 0)
            ms[r] = st.ms;
    }
    qsort(ms, (size_t)runs, sizeof *ms, cmp_double);
    double med = runs % 2 ? ms[runs / 2] : 0.5 * (ms[runs / 2 - 1] + ms[runs / 2]);
    double m = (double)g->nnz / 2;
    printf("| %s | %d | %.0f | %s | %s%s | %.3f | %.3g | %.4f | %.10g | %d | %.4f |\n", name, g->n, m, backend,
           o->kind == MATCHER_HANDSHAKE ? "handshake" : "redblue",
           o->kind == MATCHER_REDBLUE && !o->weighted ? " (random)" : "", med, m / (med * 1e-3),
           g->n ? 2.0 * (double)st.matched_edges / g->n : 0.0, st.weight, st.passes, st.first_round_fraction);
    fflush(stdout);
    return 0;
}

int main(int argc, char **argv)
{
    int runs = 5, first = 1;
    const char *backends = "cpu1,cpu,gpu", *matchers = "handshake,redblue";
    matching_opts base;
    matching_opts_default(&base);
    for (; first < argc && !strncmp(argv[first], "--", 2); first++) {
        const char *opt = argv[first], *val = first + 1 < argc ? argv[first + 1] : "";
        if (!strcmp(opt, "--random")) {
            base.weighted = 0;
            continue;
        }
        if (!strcmp(opt, "--runs"))
            runs = atoi(val);
        else if (!strcmp(opt, "--backends"))
            backends = val;
        else if (!strcmp(opt, "--matchers"))
            matchers = val;
        else if (!strcmp(opt, "--weights"))
            g_weights = !strcmp(val, "unit") ? 0 : !strcmp(val, "int") ? 1 : 2;
        else if (!strcmp(opt, "--group-width"))
            base.gpu_group_width = atoi(val);
        else if (!strcmp(opt, "--heavy-degree"))
            base.gpu_heavy_degree = atoll(val);
        else {
            fprintf(stderr, "bench_match: unknown option %s (see the comment at the top of bench/bench_match.c)\n", opt);
            return 2;
        }
        first++;
    }
    if (runs < 1 || runs > 64 || first >= argc) {
        fprintf(stderr, "usage: bench_match [--runs 1..64] [--backends cpu1,cpu,gpu] [--matchers handshake,redblue]\n"
                        "       [--random] [--weights real|unit|int] [--group-width W] [--heavy-degree D] SPEC...\n");
        return 2;
    }
    int use_gpu = has_item(backends, "gpu") && device_gpu_count() > 0;
    printf("device: %s; CPU threads: %d; runs: %d (median after a warm-up)\n\n", use_gpu ? "gpu" : "cpu only",
           omp_get_num_procs(), runs);
    if (use_gpu) {
        coarsen_error err = {0};
        int on;
        if (device_select(DEVICE_GPU, &on, &err) == 0)
            printf("GPU: %s\n\n", device_name());
    }
    printf("| graph | vertices | edges | backend | matcher | median ms | edges/s | matched fraction | weight | passes | first pass fraction |\n"
           "|---|---|---|---|---|---|---|---|---|---|---|\n");
    int status = 0;
    for (int a = first; a < argc; a++) {
        double t0 = timer_ms();
        coarsen_graph *g = make_graph(argv[a]);
        if (!g) {
            status = 1;
            continue;
        }
        fprintf(stderr, "bench_match: %s ready in %.0f ms\n", argv[a], timer_ms() - t0);
        int32_t *mate = malloc(((size_t)g->n + 1) * sizeof *mate);
        coarsen_graph *dg = NULL;
        void *d_mate = NULL;
        coarsen_error err = {0};
        if (use_gpu && (device_graph_upload(g, &dg, &err) ||
                        device_alloc(&d_mate, (size_t)g->n * sizeof(int32_t), "bench mates", &err))) {
            fprintf(stderr, "bench_match: %s: %s\n", argv[a], err.msg);
            status = 1;
        }
        for (int k = 0; k < 2; k++) {
            matching_opts o = base;
            o.kind = k ? MATCHER_REDBLUE : MATCHER_HANDSHAKE;
            if (!has_item(matchers, k ? "redblue" : "handshake"))
                continue;
            if (has_item(backends, "cpu1")) {
                omp_set_num_threads(1);
                status |= bench_one(argv[a], g, NULL, mate, NULL, "cpu 1 thread", &o, runs);
            }
            char all[32];
            snprintf(all, sizeof all, "cpu %d threads", omp_get_num_procs());
            if (has_item(backends, "cpu")) {
                omp_set_num_threads(omp_get_num_procs());
                status |= bench_one(argv[a], g, NULL, mate, NULL, all, &o, runs);
            }
            if (dg && d_mate)
                status |= bench_one(argv[a], g, dg, mate, d_mate, "gpu", &o, runs);
        }
        device_free(d_mate);
        coarsen_graph_free(dg);
        coarsen_graph_free(g);
        free(mate);
    }
    return status ? 1 : 0;
}
