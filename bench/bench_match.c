/* bench_match.c — benchmark of the matchers: for every graph (a generator
 * spec or a graph file, see bench_util.h), every backend (CPU with 1 thread,
 * CPU with all threads, GPU with the graph already on the device) and every
 * matcher, the median matcher time (matching_stats.ms) over --runs runs after
 * one warm-up run, undirected edges per second, matched fraction, weight,
 * passes/rounds and the first pass's / round's matched fraction: one
 * key=value line per (graph, backend, matcher).
 *
 * Own options (before or among the common ones):
 *   --backends cpu1,cpu,gpu   (default: all; gpu only when a GPU is usable)
 *   --matchers handshake,redblue
 *   --random                  red/blue proposes to hash-chosen neighbours
 *   --hashed-ties             equal weights broken by scrambled ids (matching_opts.hashed_ties)
 *   --group-width W, --heavy-degree D   GPU launch shape (results unchanged) */
#include "bench/bench_util.h"
#include "device/device.h"
#include "matching/matching.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const defaults[] = {
    "er:n=1000000,deg=8,weights=real",
    "rmat:n=1048576,deg=8,weights=real",
    "grid2d:n=1000000,weights=real",
    "rgg:n=1000000,deg=8,weights=real",
    "er:n=200000,deg=32,weights=real",
};

typedef struct match_bench {
    const char *backends, *matchers;
    matching_opts base;
} match_bench;

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

/* Takes this program's own options out of argv (argc updated); -1 on error. */
static int take_own_options(int *argc, char **argv, match_bench *b)
{
    int out = 1;
    for (int k = 1; k < *argc; k++) {
        const char *a = argv[k];
        int has_val = k + 1 < *argc;
        if (!strcmp(a, "--random"))
            b->base.weighted = 0;
        else if (!strcmp(a, "--hashed-ties"))
            b->base.hashed_ties = 1;
        else if (!strcmp(a, "--backends") && has_val)
            b->backends = argv[++k];
        else if (!strcmp(a, "--matchers") && has_val)
            b->matchers = argv[++k];
        else if (!strcmp(a, "--group-width") && has_val)
            b->base.gpu_group_width = atoi(argv[++k]);
        else if (!strcmp(a, "--heavy-degree") && has_val)
            b->base.gpu_heavy_degree = atoll(argv[++k]);
        else
            argv[out++] = argv[k];
    }
    *argc = out;
    argv[out] = NULL;
    coarsen_error err = {0};
    if (matching_opts_check(&b->base, &err)) {
        fprintf(stderr, "bench_match: %s\n", err.msg);
        return -1;
    }
    return 0;
}

/* One warm-up and runs timed runs of o on g (on the GPU when dg); prints the line. */
static int bench_one(const char *spec, const coarsen_graph *g, const coarsen_graph *dg, int32_t *mate, void *d_mate,
                     const char *backend, const matching_opts *o, int runs)
{
    double ms[64];
    matching_stats st;
    coarsen_error err = {0};
    for (int r = -1; r < runs; r++) {
        int rc = dg ? match_gpu(dg, o, d_mate, NULL, &st, &err) : match_cpu(g, o, mate, NULL, &st, &err);
        if (rc) {
            fprintf(stderr, "bench_match: %s %s: %s\n", spec, backend, err.msg);
            return 1;
        }
        if (r >= 0)
            ms[r] = st.ms;
    }
    double med = bench_median(ms, runs), m = (double)g->nnz / 2;
    char extra[512];
    snprintf(extra, sizeof extra,
             "backend=%s matcher=%s%s edges_per_s=%.4g matched_fraction=%.4f weight=%.10g passes=%d "
             "first_fraction=%.4f maximal=%d ties=%s",
             backend, o->kind == MATCHER_HANDSHAKE ? "handshake" : "redblue",
             o->kind == MATCHER_REDBLUE && !o->weighted ? "-random" : "", med > 0 ? m / (med * 1e-3) : 0.0,
             g->n ? 2.0 * (double)st.matched_edges / g->n : 0.0, st.weight, st.passes, st.first_round_fraction,
             st.maximal, o->hashed_ties ? "hashed" : "id");
    bench_report("match", spec, g, ms, runs, extra);
    return 0;
}

/* Every requested (backend, matcher) on one graph. */
static int bench_graph(const char *spec, const match_bench *b, int runs, int use_gpu)
{
    coarsen_graph *g = NULL, *dg = NULL;
    coarsen_error err = {0};
    void *d_mate = NULL;
    if (bench_load_graph(spec, &g, &err)) {
        fprintf(stderr, "bench_match: %s\n", err.msg);
        return 1;
    }
    int32_t *mate = malloc(((size_t)g->n + 1) * sizeof *mate);
    int status = !mate;
    if (use_gpu && (device_graph_upload(g, &dg, &err) ||
                    device_alloc(&d_mate, (size_t)g->n * sizeof(int32_t), "bench mates", &err))) {
        fprintf(stderr, "bench_match: %s: %s\n", spec, err.msg);
        status = 1;
    }
    int threads = omp_get_max_threads();
    for (int k = 0; k < 2 && mate; k++) {
        matching_opts o = b->base;
        o.kind = k ? MATCHER_REDBLUE : MATCHER_HANDSHAKE;
        if (!has_item(b->matchers, k ? "redblue" : "handshake"))
            continue;
        if (has_item(b->backends, "cpu1")) {
            omp_set_num_threads(1);
            status |= bench_one(spec, g, NULL, mate, NULL, "cpu1", &o, runs);
            omp_set_num_threads(threads);
        }
        if (has_item(b->backends, "cpu"))
            status |= bench_one(spec, g, NULL, mate, NULL, "cpu", &o, runs);
        if (dg && d_mate)
            status |= bench_one(spec, g, dg, mate, d_mate, "gpu", &o, runs);
    }
    device_free(d_mate);
    coarsen_graph_free(dg);
    coarsen_graph_free(g);
    free(mate);
    return status;
}

int main(int argc, char **argv)
{
    match_bench b = {.backends = "cpu1,cpu,gpu", .matchers = "handshake,redblue"};
    matching_opts_default(&b.base);
    if (take_own_options(&argc, argv, &b))
        return 2;
    bench_opts o;
    int rc = bench_parse_args(argc, argv,
                              "Times the handshake and red/blue matchers (median after a warm-up) on CPU and GPU.\n"
                              "Own options: --backends cpu1,cpu,gpu  --matchers handshake,redblue  --random\n"
                              "             --hashed-ties  --group-width W  --heavy-degree D",
                              defaults, (int)(sizeof defaults / sizeof defaults[0]), &o);
    if (rc)
        return rc == 1 ? 0 : rc;
    int runs = o.runs < 64 ? o.runs : 64, use_gpu = 0;
    coarsen_error err = {0};
    if (has_item(b.backends, "gpu") && device_select(DEVICE_AUTO, &use_gpu, &err) == 0 && use_gpu)
        printf("# gpu: %s\n", device_name());
    int status = 0;
    for (int k = 0; k < o.ngraphs; k++)
        status |= bench_graph(o.graphs[k], &b, runs, use_gpu);
    return status;
}
