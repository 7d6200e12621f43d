/* bench_bipartite.c — times maximum-cardinality matching (G-PR on the GPU;
 * push-relabel and Hopcroft–Karp on the CPU, from the same initial
 * matching, Karp–Sipser unless --init says otherwise) and the auction (GPU and CPU, ε-scaling to optimality) on
 * matrix files and generated assignment instances; one key=value line per
 * measurement on stdout (median and minimum of --runs runs; GPU times are end
 * to end: upload, solve, download; the first GPU run of each input is a
 * discarded warm-up). CPU runs are skipped above --cpu-max-nnz entries.
 *
 *   bench_bipartite [--runs N] [--cpu-max-nnz M] [--init none|greedy|ks] [--eps-factor F] [--host-tail T] [--pr SPEC]...
 *                   [--auction SPEC]...
 * (--host-tail: bip_auction_opts.host_tail, 0 automatic, -1 every round on the GPU)
 * SPEC is a Matrix Market path, data:NAME (NAME in $COARSEN_DATA, default
 * ../shared/data) or gen:n=N,d=D (bip_gen_assignment, benefits
 * in [1, 10000], seed 1). Without --pr/--auction a default set runs.
 * pushes= counts pushes on the CPU and push-kernel loops on the GPU. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bipartite/assignment.h"
#include "bipartite/cardinality.h"
#include "core/timer.h"
#include "device/device.h"

#define MAX_SPECS 64

static const char *const default_pr[] = {"gen:n=1000000,d=0.000008", "data:bayer10.mtx.gz", "data:rajat01.mtx",
                                         "data:Groebner_id2003_aug.mtx.gz", "data:p2p-Gnutella06.mtx"};
static const char *const default_auction[] = {"gen:n=500,d=0.1",  "gen:n=500,d=1",  "gen:n=2000,d=0.1",
                                              "gen:n=2000,d=1",   "gen:n=8000,d=0.1", "gen:n=8000,d=1",
                                              "gen:n=100000,d=0.00009"};

static int load(const char *spec, bip_graph **g, coarsen_error *err)
{
    int n;
    double d;
    if (sscanf(spec, "gen:n=%d,d=%lf", &n, &d) == 2)
        return bip_gen_assignment(n, d, 10000, 1, g, err);
    if (!strncmp(spec, "data:", 5)) {
        const char *dir = getenv("COARSEN_DATA");
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir ? dir : "../shared/data", spec + 5);
        return bip_load(path, g, err);
    }
    return bip_load(spec, g, err);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void report(const char *algo, const char *spec, const bip_graph *g, double *ms, int runs, const char *extra)
{
    qsort(ms, (size_t)runs, sizeof *ms, cmp_double);
    double median = runs % 2 ? ms[runs / 2] : (ms[runs / 2 - 1] + ms[runs / 2]) / 2;
    printf("bench=bipartite algo=%s graph=%s rows=%d cols=%d nnz=%lld runs=%d median_ms=%.3f min_ms=%.3f %s\n", algo,
           spec, g->rows, g->cols, (long long)g->nnz, runs, median, ms[0], extra);
    fflush(stdout);
}

typedef enum { PR_GPU, PR_CPU, HK_CPU } pr_kind;

static int bench_pr(const char *spec, const bip_graph *g, pr_kind kind, int runs, bip_init init, coarsen_error *err)
{
    static const char *const names[] = {"pr-gpu", "pr-cpu", "hk-cpu"};
    int32_t *rm = malloc(((size_t)g->rows + 1) * sizeof *rm), *cm = malloc(((size_t)g->cols + 1) * sizeof *cm);
    double ms[64], init_ms = 0;
    int64_t card = 0;
    bip_pr_stats st = {0};
    int rc = 0;
    for (int r = kind == PR_GPU ? -1 : 0; r < runs && !rc; r++) {
        double t0 = timer_ms();
        rc = bip_initial_matching(g, init, rm, cm, err);
        double t1 = timer_ms();
        if (!rc)
            rc = kind == PR_GPU   ? bip_push_relabel_gpu(g, NULL, rm, cm, &st, err)
                 : kind == PR_CPU ? bip_push_relabel_cpu(g, NULL, rm, cm, &st, err)
                                  : bip_hopcroft_karp(g, rm, cm, err);
        double t2 = timer_ms();
        if (r >= 0) {
            ms[r] = t2 - t1;
            init_ms = t1 - t0;
        }
    }
    if (!rc)
        rc = bip_matching_check(g, rm, cm, &card, err);
    if (!rc) {
        char extra[256];
        snprintf(extra, sizeof extra, "init=%s init_ms=%.3f cardinality=%lld relabels=%lld pushes=%lld fallback=%d",
                 bip_init_name(init), init_ms, (long long)card, (long long)st.global_relabels, (long long)st.pushes, st.cpu_fallback);
        report(names[kind], spec, g, ms, runs, extra);
    }
    free(rm);
    free(cm);
    return rc;
}

static int bench_auction(const char *spec, const bip_graph *g, int gpu, int runs, const bip_auction_opts *o,
                         coarsen_error *err)
{
    int32_t *rm = malloc(((size_t)g->rows + 1) * sizeof *rm);
    double ms[64];
    bip_auction_result res = {0};
    int rc = 0;
    for (int r = gpu ? -1 : 0; r < runs && !rc; r++) {
        double t0 = timer_ms();
        rc = gpu ? bip_auction_gpu(g, o, rm, &res, err) : bip_auction_cpu(g, o, rm, &res, err);
        if (r >= 0)
            ms[r] = timer_ms() - t0;
    }
    if (!rc) {
        char extra[256];
        snprintf(extra, sizeof extra,
                 "eps_factor=%d host_tail=%lld cardinality=%lld total=%.17g proven_optimal=%d phases=%lld rounds=%lld",
                 res.eps_factor, (long long)o->host_tail, (long long)res.cardinality, res.total, res.proven_optimal, (long long)res.phases,
                 (long long)res.rounds);
        report(gpu ? "auction-gpu" : "auction-cpu", spec, g, ms, runs, extra);
    }
    free(rm);
    return rc;
}

int main(int argc, char **argv)
{
    const char *pr[MAX_SPECS], *au[MAX_SPECS];
    int npr = 0, nau = 0, runs = 5;
    long long cpu_max = 20000000;
    bip_auction_opts au_opts = {0}; /* the library defaults */
    bip_init init = BIP_INIT_KARP_SIPSER;
    for (int k = 1; k < argc; k++) {
        if (!strcmp(argv[k], "--help")) {
            printf("usage: bench_bipartite [--runs N] [--cpu-max-nnz M] [--init none|greedy|ks] [--eps-factor F] "
                   "[--host-tail T] [--pr SPEC]... "
                   "[--auction SPEC]...\n"
                   "SPEC: a Matrix Market file, data:NAME (in $COARSEN_DATA) or gen:n=N,d=D\n");
            return 0;
        }
        if (k + 1 >= argc) {
            fprintf(stderr, "bench_bipartite: %s needs a value\n", argv[k]);
            return 2;
        }
        if (!strcmp(argv[k], "--runs"))
            runs = atoi(argv[++k]);
        else if (!strcmp(argv[k], "--cpu-max-nnz"))
            cpu_max = atoll(argv[++k]);
        else if (!strcmp(argv[k], "--init")) {
            if (bip_init_from_name(argv[++k], &init)) {
                fprintf(stderr, "bench_bipartite: --init: '%s' is not none, greedy or ks\n", argv[k]);
                return 2;
            }
        } else if (!strcmp(argv[k], "--eps-factor"))
            au_opts.eps_factor = atoi(argv[++k]);
        else if (!strcmp(argv[k], "--host-tail"))
            au_opts.host_tail = atoll(argv[++k]);
        else if (!strcmp(argv[k], "--pr") && npr < MAX_SPECS)
            pr[npr++] = argv[++k];
        else if (!strcmp(argv[k], "--auction") && nau < MAX_SPECS)
            au[nau++] = argv[++k];
        else {
            fprintf(stderr, "bench_bipartite: unknown option %s\n", argv[k]);
            return 2;
        }
    }
    if (runs < 1 || runs > 63) {
        fprintf(stderr, "bench_bipartite: --runs must be in [1, 63]\n");
        return 2;
    }
    if (!npr && !nau) {
        for (size_t k = 0; k < sizeof default_pr / sizeof *default_pr; k++)
            pr[npr++] = default_pr[k];
        for (size_t k = 0; k < sizeof default_auction / sizeof *default_auction; k++)
            au[nau++] = default_auction[k];
    }
    coarsen_error err = {0};
    int use_gpu = 0;
    device_select(DEVICE_AUTO, &use_gpu, &err);
    printf("# device: %s\n", use_gpu ? device_name() : "none (CPU measurements only)");
    int status = 0;
    for (int k = 0; k < npr + nau; k++) {
        const char *spec = k < npr ? pr[k] : au[k - npr];
        bip_graph *g = NULL;
        if (load(spec, &g, &err)) {
            fprintf(stderr, "bench_bipartite: %s: %s\n", spec, err.msg);
            status = 1;
            continue;
        }
        int cpu = g->nnz <= cpu_max, rc = 0;
        if (k < npr) {
            if (use_gpu)
                rc = bench_pr(spec, g, PR_GPU, runs, init, &err);
            if (!rc && cpu)
                rc = bench_pr(spec, g, PR_CPU, runs, init, &err);
            if (!rc && cpu)
                rc = bench_pr(spec, g, HK_CPU, runs, init, &err);
        } else {
            if (use_gpu)
                rc = bench_auction(spec, g, 1, runs, &au_opts, &err);
            if (!rc && cpu)
                rc = bench_auction(spec, g, 0, runs < 3 ? runs : 3, &au_opts, &err);
        }
        if (rc) {
            fprintf(stderr, "bench_bipartite: %s: %s\n", spec, err.msg);
            status = 1;
        }
        bip_free(g);
    }
    return status;
}
