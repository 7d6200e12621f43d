/* bench_contract.c — contraction speed, level by level: for each graph, the
 * CPU handshake matching (matching.h defaults, run until maximal), its map,
 * then the median time of contract_cpu on 1 thread and on all threads, and of
 * contract_gpu on the device graph (when a GPU is usable; the GPU result is
 * checked bit for bit against the CPU's). Per level: fine directed edges per
 * second; per graph and backend: edges per second summed over levels, and the
 * GPU's peak device memory over the input CSR size. At level 0 it also times
 * two-hop matching (leaves and twins) after the matching. BENCH_CONTRACT_GPU_ONLY=1
 * skips the CPU timings (big graphs). BENCH_CONTRACT_PATHS="T,H;T,H;..." (up to
 * 8 settings of contract_gpu_set_paths: team size, hash_max) times the GPU
 * once per setting, reported as paths=T,H (default: one run, the defaults). */
#include "bench/bench_util.h"
#include "contract/contract.h"
#include "contract/contract_gpu_memory.h"
#include "core/error.h"
#include "device/device.h"
#include "matching/matching.h"
#include "matching/two_hop.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const defaults[] = {
    "rgg:n=1000000,deg=12",
    "delaunay:n=1000000",
    "rmat:n=1048576,deg=16,weights=real",
    "er:n=1000000,deg=12,weights=real",
};

enum { MAX_LEVELS = 12, MAX_RUNS = 64, MAX_PATHS = 8 };

typedef struct totals {
    int64_t edges;  /* fine directed edges contracted, all levels */
    double ms;      /* sum of the medians */
} totals;

static void add_report(totals *t, const char *graph, const coarsen_graph *g, int level, const char *backend,
                       double *ms, int runs, const coarsen_graph *h, const char *more)
{
    char extra[256];
    double med = bench_median(ms, runs);
    snprintf(extra, sizeof extra, "level=%d backend=%s nc=%d cnnz=%lld gedges_per_s=%.3f%s", level, backend, h->n,
             (long long)h->nnz, med > 0 ? (double)g->nnz / med / 1e6 : 0.0, more ? more : "");
    bench_report("contract", graph, g, ms, runs, extra);
    t->edges += g->nnz;
    t->ms += med;
}

/* The report's fields of one two-hop run. */
static void two_hop_extra(char *s, size_t len, const char *backend, int64_t unmatched, const two_hop_stats *st)
{
    snprintf(s, len,
             "backend=%s unmatched_before=%lld leaf_pairs=%lld twin_pairs=%lld relative_pairs=%lld "
             "island_pairs=%lld",
             backend, (long long)unmatched, (long long)st->leaf_pairs, (long long)st->twin_pairs,
             (long long)st->relative_pairs, (long long)st->island_pairs);
}

/* Times two-hop matching (every rule, no cap) after the level-0 matching
 * (CPU on all threads, and GPU when use_gpu; the GPU's mate is checked
 * against the CPU's) and prints one line per backend with the pairs each
 * rule added. */
static int time_two_hop(const char *graph, const coarsen_graph *g, const int32_t *mate, int runs, int use_gpu,
                        int gpu_only, coarsen_error *err)
{
    size_t bytes = ((size_t)g->n + 1) * sizeof *mate;
    int32_t *cpu = malloc(bytes), *back = malloc(bytes);
    double ms[MAX_RUNS];
    two_hop_stats st = {0};
    const two_hop_opts all_rules = {0, 0.0}; /* no cap, relatives whenever a vertex is left */
    int64_t unmatched = 0;
    for (int32_t v = 0; v < g->n; v++)
        unmatched += mate[v] == -1;
    int rc = 0;
    for (int r = 0; !rc && r < (gpu_only ? 1 : runs); r++) {
        memcpy(cpu, mate, bytes);
        rc = two_hop_cpu(g, &all_rules, cpu, &st, err);
        ms[r] = st.ms;
    }
    char extra[240];
    two_hop_extra(extra, sizeof extra, "cpu", unmatched, &st);
    if (!rc && !gpu_only)
        bench_report("two_hop", graph, g, ms, runs, extra);
    coarsen_graph *dg = NULL;
    void *d_mate = NULL;
    if (!rc && use_gpu)
        rc = device_graph_upload(g, &dg, err);
    if (!rc && use_gpu)
        rc = device_alloc(&d_mate, bytes, "mate", err);
    for (int r = 0; !rc && use_gpu && r < runs; r++) {
        rc = device_copy_to_device(d_mate, mate, (size_t)g->n * sizeof *mate, err);
        if (!rc)
            rc = two_hop_gpu(dg, &all_rules, d_mate, &st, err);
        ms[r] = st.ms;
    }
    if (!rc && use_gpu) {
        rc = device_copy_to_host(back, d_mate, (size_t)g->n * sizeof *mate, err);
        if (!rc && memcmp(back, cpu, (size_t)g->n * sizeof *mate) != 0)
            rc = error_set(err, COARSEN_ERR_DEVICE, "GPU two-hop matching differs from the CPU's");
        two_hop_extra(extra, sizeof extra, "gpu", unmatched, &st);
        if (!rc)
            bench_report("two_hop", graph, g, ms, runs, extra);
    }
    device_free(d_mate);
    coarsen_graph_free(dg);
    free(cpu);
    free(back);
    return rc;
}

static int time_gpu(const coarsen_graph *g, const int32_t *cmap, int32_t nc, const coarsen_graph *want, int runs,
                    double *ms, double *peak_ratio, coarsen_error *err)
{
    coarsen_graph *dg = NULL, *dh = NULL, *back = NULL;
    void *d_cmap = NULL;
    int rc = device_graph_upload(g, &dg, err);
    if (!rc)
        rc = device_alloc(&d_cmap, (size_t)g->n * sizeof *cmap, "cmap", err);
    if (!rc)
        rc = device_copy_to_device(d_cmap, cmap, (size_t)g->n * sizeof *cmap, err);
    if (!rc)
        rc = device_synchronize(err);
    size_t input = ((size_t)g->n + 1) * 8 + (size_t)g->nnz * 12 + (size_t)g->n * 8 + (size_t)g->n * 4;
    for (int r = 0; !rc && r < runs; r++) {
        coarsen_graph_free(dh);
        dh = NULL;
        device_reset_peak();
        double t0 = bench_now_ms();
        rc = contract_gpu(dg, d_cmap, nc, &dh, err);
        if (!rc)
            rc = device_synchronize(err);
        ms[r] = bench_now_ms() - t0;
        *peak_ratio = (double)device_peak_bytes() / (double)input;
    }
    if (!rc)
        rc = device_graph_download(dh, &back, err);
    if (!rc && (back->n != want->n || back->nnz != want->nnz ||
                memcmp(back->xadj, want->xadj, ((size_t)want->n + 1) * sizeof *want->xadj) ||
                memcmp(back->adj, want->adj, (size_t)want->nnz * sizeof *want->adj) ||
                memcmp(back->ewgt, want->ewgt, (size_t)want->nnz * sizeof *want->ewgt) ||
                memcmp(back->vwgt, want->vwgt, (size_t)want->n * sizeof *want->vwgt)))
        rc = error_set(err, COARSEN_ERR_DEVICE, "GPU contraction differs from the CPU's");
    coarsen_graph_free(back);
    coarsen_graph_free(dh);
    coarsen_graph_free(dg);
    device_free(d_cmap);
    return rc;
}

int main(int argc, char **argv)
{
    bench_opts o;
    int rc = bench_parse_args(argc, argv,
                              "Times contraction per level (CPU 1 thread, CPU all threads, GPU) after a handshake matching.",
                              defaults, (int)(sizeof defaults / sizeof defaults[0]), &o);
    if (rc)
        return rc == 1 ? 0 : rc;
    int runs = o.runs < MAX_RUNS ? o.runs : MAX_RUNS, all = omp_get_max_threads();
    /* BENCH_CONTRACT_GPU_ONLY=1 (with a GPU): the CPU contracts each level once,
     * untimed, for the next level and the check; for graphs too big to time
     * on one CPU thread. */
    const char *env = getenv("BENCH_CONTRACT_GPU_ONLY");
    int use_gpu = 0, gpu_only = 0;
    coarsen_error err = {0};
    if (device_select(DEVICE_AUTO, &use_gpu, &err))
        use_gpu = 0;
    if (use_gpu)
        fprintf(stderr, "bench_contract: GPU %s\n", device_name());
    gpu_only = use_gpu && env && strcmp(env, "1") == 0;
    int teams[MAX_PATHS] = {0};
    long long hash_max[MAX_PATHS] = {-1};
    int npaths = 1;
    const char *paths = getenv("BENCH_CONTRACT_PATHS");
    if (paths) {
        npaths = 0;
        for (const char *q = paths; *q && npaths < MAX_PATHS;) {
            int used = 0;
            if (sscanf(q, "%d,%lld%n", &teams[npaths], &hash_max[npaths], &used) != 2) {
                fprintf(stderr, "bench_contract: BENCH_CONTRACT_PATHS: '%s' is not T,H;T,H;...\n", paths);
                return 2;
            }
            npaths++;
            q += used;
            q += *q == ';';
        }
    }
    for (int k = 0; k < o.ngraphs; k++) {
        coarsen_graph *g = NULL;
        if (bench_load_graph(o.graphs[k], &g, &err)) {
            fprintf(stderr, "bench_contract: %s\n", err.msg);
            return 1;
        }
        totals t1 = {0, 0}, tn = {0, 0}, tg[MAX_PATHS] = {{0, 0}};
        double peak = 0;
        for (int level = 0; level < MAX_LEVELS && g->nnz > 0; level++) {
            int32_t *mate = malloc((size_t)g->n * sizeof *mate), *cmap = malloc((size_t)g->n * sizeof *cmap), nc = 0;
            matching_opts mo;
            matching_stats mstats;
            matching_opts_default(&mo); /* handshake, until maximal */
            if (match_cpu(g, &mo, mate, NULL, &mstats, &err) || contract_map_from_mates_cpu(g->n, mate, cmap, &nc, &err)) {
                fprintf(stderr, "bench_contract: %s\n", err.msg);
                return 1;
            }
            if (level == 0 && time_two_hop(o.graphs[k], g, mate, runs, use_gpu, gpu_only, &err)) {
                fprintf(stderr, "bench_contract: %s\n", err.msg);
                return 1;
            }
            double ms[MAX_RUNS];
            coarsen_graph *h = NULL;
            for (int pass = gpu_only ? 1 : 0; pass < 2; pass++) { /* 1 thread, then all */
                omp_set_num_threads(pass == 0 ? 1 : all);
                int cpu_runs = gpu_only ? 1 : runs;
                for (int r = 0; r < cpu_runs; r++) {
                    coarsen_graph_free(h);
                    double t0 = bench_now_ms();
                    if (contract_cpu(g, cmap, nc, &h, &err)) {
                        fprintf(stderr, "bench_contract: %s\n", err.msg);
                        return 1;
                    }
                    ms[r] = bench_now_ms() - t0;
                }
                if (!gpu_only)
                    add_report(pass == 0 ? &t1 : &tn, o.graphs[k], g, level, "cpu", ms, runs, h, NULL);
            }
            for (int p = 0; use_gpu && p < npaths; p++) {
                double ratio = 0;
                contract_gpu_set_paths(teams[p], hash_max[p]);
                if (time_gpu(g, cmap, nc, h, runs, ms, &ratio, &err)) {
                    fprintf(stderr, "bench_contract: %s\n", err.msg);
                    return 1;
                }
                char more[96];
                snprintf(more, sizeof more, " gpu_peak_over_input=%.2f paths=%d,%lld", ratio, teams[p], hash_max[p]);
                add_report(&tg[p], o.graphs[k], g, level, "gpu", ms, runs, h, more);
                if (ratio > peak)
                    peak = ratio;
            }
            free(mate);
            free(cmap);
            int stalled = h->n > g->n - g->n / 20; /* under 5% fewer vertices */
            coarsen_graph_free(g);
            g = h;
            if (stalled)
                break;
        }
        const char *names[3] = {"cpu1", "cpu", "gpu"};
        for (int b = gpu_only ? 2 : 0; b < (use_gpu ? 2 + npaths : 2); b++) {
            const totals *tb = b == 0 ? &t1 : b == 1 ? &tn : &tg[b - 2];
            char more[96] = "";
            if (b >= 2)
                snprintf(more, sizeof more, " gpu_peak_over_input_max=%.2f paths=%d,%lld", peak, teams[b - 2],
                         hash_max[b - 2]);
            printf("bench=contract_total graph=%s backend=%s threads=%d fine_edges=%lld sum_median_ms=%.3f "
                   "gedges_per_s=%.3f%s\n",
                   o.graphs[k], names[b < 2 ? b : 2], b == 0 ? 1 : all, (long long)tb->edges, tb->ms,
                   tb->ms > 0 ? (double)tb->edges / tb->ms / 1e6 : 0.0, more);
        }
        coarsen_graph_free(g);
        omp_set_num_threads(all);
    }
    return 0;
}
