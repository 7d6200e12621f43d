/* bench_partition.c — multilevel partitioning (coarsen partition) against
 * METIS k-way on the same graph, per graph and k: median end-to-end times
 * (file I/O excluded; ours includes coarsening, METIS on the coarsest graph
 * and refinement, and on the GPU the uploads), cut ratio ours / METIS,
 * speedup METIS / ours, both imbalances, and whether each partition keeps
 * every part within our cap (partition.h).
 *   bench_partition [--graph SPEC]... [--runs N] [--threads N] [--k 2,8,64]
 *                   [--device cpu|gpu] [--seed S] [--polish-edges N] [--metis-tries N]
 * One key=value line per (graph, k). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench_util.h"
#include "device/device.h"
#include "partition/partition.h"

static const char *const defaults[] = {"delaunay:n=1000000,seed=1", "rgg:n=1000000,deg=12,seed=1",
                                       "grid2d:nx=1000,ny=1000"};

typedef struct local {
    int32_t ks[16];
    int nk;
    int gpu;
    unsigned long long seed;
    long long polish_edges;
    int metis_tries;
    int vcycles;
} local;

enum { OPT_K = 300, OPT_DEVICE, OPT_SEED, OPT_POLISH, OPT_TRIES, OPT_VCYCLES };
static const struct option options[] = {{"k", required_argument, 0, OPT_K},
                                        {"device", required_argument, 0, OPT_DEVICE},
                                        {"seed", required_argument, 0, OPT_SEED},
                                        {"polish-edges", required_argument, 0, OPT_POLISH},
                                        {"metis-tries", required_argument, 0, OPT_TRIES},
                                        {"vcycles", required_argument, 0, OPT_VCYCLES},
                                        {0, 0, 0, 0}};

static int handle(int val, const char *arg, void *ctx)
{
    local *l = ctx;
    if (val == OPT_K) {
        l->nk = 0;
        for (const char *p = arg; *p && l->nk < 16;) {
            char *end;
            long v = strtol(p, &end, 10);
            if (end == p || v < 1 || v > 1 << 20)
                return fprintf(stderr, "bench_partition: --k: bad list '%s'\n", arg), -1;
            l->ks[l->nk++] = (int32_t)v;
            p = *end == ',' ? end + 1 : end;
        }
        return l->nk ? 0 : -1;
    }
    if (val == OPT_DEVICE) {
        if (strcmp(arg, "cpu") && strcmp(arg, "gpu"))
            return fprintf(stderr, "bench_partition: --device: '%s' is not cpu or gpu\n", arg), -1;
        l->gpu = !strcmp(arg, "gpu");
        return 0;
    }
    if (val == OPT_POLISH) {
        l->polish_edges = strtoll(arg, NULL, 10);
        return 0;
    }
    if (val == OPT_TRIES) {
        l->metis_tries = (int)strtol(arg, NULL, 10);
        return 0;
    }
    if (val == OPT_VCYCLES) {
        l->vcycles = (int)strtol(arg, NULL, 10);
        return 0;
    }
    l->seed = strtoull(arg, NULL, 10);
    return 0;
}

/* 1 when every part of part weighs at most cap. */
static int within_cap(const coarsen_graph *g, const int32_t *part, int32_t k, int64_t cap)
{
    int64_t *w = malloc((size_t)k * sizeof *w);
    int ok = w != NULL;
    if (w)
        partition_part_weights(g, part, k, w);
    for (int32_t p = 0; ok && p < k; p++)
        ok = w[p] <= cap;
    free(w);
    return ok;
}

int main(int argc, char **argv)
{
    partition_opts pdef;
    partition_opts_default(&pdef);
    local l = {.ks = {2, 8, 64}, .nk = 3, .seed = 1, .polish_edges = pdef.polish_edges, .vcycles = pdef.vcycles};
    bench_extra extra = {options,
                         "  --k LIST        comma-separated part counts (default 2,8,64)\n"
                         "  --device cpu|gpu  where coarsening and refinement run (default cpu)\n"
                         "  --seed S        seed of both partitioners (default 1)\n"
                         "  --polish-edges N  FM polish at levels of <= N edges (default 2^21; -1: none)\n"
                         "  --metis-tries N   METIS runs of each kind on the coarsest graph (default 0: k-way 4\n"
                         "                    for k <= 8, else 1; recursive bisection 4)\n"
                         "  --vcycles N     V-cycles after the first (default: partition_opts_default's)\n",
                         handle, &l};
    bench_opts o;
    int rc = bench_parse_args_extra(argc, argv, "multilevel partitioning vs METIS k-way: cut ratio and speedup",
                                    defaults, 3, &extra, &o);
    if (rc)
        return rc == 1 ? 0 : rc;
    coarsen_error err = {0};
    int use_gpu = 0;
    if (device_select(l.gpu ? DEVICE_GPU : DEVICE_CPU, &use_gpu, &err))
        return fprintf(stderr, "bench_partition: %s\n", err.msg), 1;
    for (int gi = 0; gi < o.ngraphs; gi++) {
        coarsen_graph *g = NULL;
        if (bench_load_graph(o.graphs[gi], &g, &err))
            return fprintf(stderr, "bench_partition: %s\n", err.msg), 1;
        int32_t *part = malloc(((size_t)g->n + 1) * sizeof *part), *mp = malloc(((size_t)g->n + 1) * sizeof *mp);
        double *ours = malloc(o.runs * sizeof *ours), *metis = malloc(o.runs * sizeof *metis);
        if (!part || !mp || !ours || !metis)
            return fprintf(stderr, "bench_partition: out of memory\n"), 1;
        for (int ki = 0; ki < l.nk; ki++) {
            partition_opts po;
            partition_opts_default(&po);
            po.k = l.ks[ki];
            po.seed = l.seed;
            po.polish_edges = l.polish_edges;
            po.metis_tries = l.metis_tries;
            po.vcycles = l.vcycles;
            po.hierarchy.device = use_gpu ? COARSEN_DEVICE_GPU : COARSEN_DEVICE_CPU;
            if (po.k > g->n)
                continue;
            partition_result res = {0};
            for (int r = 0; r < o.runs; r++) {
                partition_result_free(&res);
                double t0 = bench_now_ms();
                if (partition_multilevel(g, &po, part, &res, &err))
                    return fprintf(stderr, "bench_partition: %s\n", err.msg), 1;
                ours[r] = bench_now_ms() - t0;
                t0 = bench_now_ms();
                if (partition_metis(g, po.k, po.imbalance, l.seed, 0, mp, &err))
                    return fprintf(stderr, "bench_partition: %s\n", err.msg), 1;
                metis[r] = bench_now_ms() - t0;
            }
            double mcut = partition_cut(g, mp), mimb = 0;
            partition_imbalance(g, mp, po.k, &mimb, NULL); /* out of memory: reported as 0 */
            double metis_ms = bench_median(metis, o.runs), ours_ms = bench_median(ours, o.runs);
            char extra_kv[512];
            snprintf(extra_kv, sizeof extra_kv,
                     "device=%s k=%d cut=%.17g metis_cut=%.17g cut_ratio=%.5f imbalance=%.5f metis_imbalance=%.5f "
                     "within_bound=%d metis_within_bound=%d metis_median_ms=%.3f speedup=%.3f levels=%d coarsest=%d coarsen_ms=%.3f initial_ms=%.3f "
                     "refine_ms=%.3f polish_ms=%.3f vcycles=%d vcycle_ms=%.3f",
                     res.on_gpu ? "gpu" : "cpu", po.k, res.cut, mcut, mcut > 0 ? res.cut / mcut : 1.0, res.imbalance,
                     mimb, within_cap(g, part, po.k, res.cap), within_cap(g, mp, po.k, res.cap),
                     metis_ms, ours_ms > 0 ? metis_ms / ours_ms : 0.0, res.levels, res.level[res.levels].vertices, res.coarsen_ms,
                     res.initial_ms, res.refine_ms, res.polish_ms, po.vcycles, res.vcycle_ms);
            bench_report("partition", o.graphs[gi], g, ours, o.runs, extra_kv);
            partition_result_free(&res);
        }
        free(part);
        free(mp);
        free(ours);
        free(metis);
        coarsen_graph_free(g);
    }
    return 0;
}
