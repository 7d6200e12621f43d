/* bench_roma.c — ROMA refinement: quality and speed. For each sparse graph
 * (a generator spec or a file) it starts from handshake and from red/blue,
 * then refines with sequential ROMA (roma_cpu), the parallel rule on the
 * host (roma_replay_cpu) and on the GPU (roma_gpu, when one is usable;
 * checked identical to the replay), each with claim rounds to exhaustion
 * and with the single-claim scheme (*_1claim), printing weights, phases, times, the
 * GPU's speed-up over the sequential code, and, when the optimum weight is
 * given (--opt W, one per graph in order; 0 = unknown), the gap to
 * optimality GTO = 1 - w / opt and the share of the start's gap closed.
 * --one-start keeps the first start (handshake; random for complete graphs)
 * and the claim-rounds rule only, for graphs where sequential ROMA takes
 * minutes. --seed S seeds the random pairing and ROMA (default 1); --turns
 * 0|1 and --priority gain|random override the mode's rule (roma.h). Each
 * line also gives the work: passes, centres evaluated, claim rounds. For
 * tuning the complete mode: --gpu-only skips the host runs, --dense-tile T
 * sets the columns of row u staged per pass (roma_opts.dense_tile).
 * Complete graphs with even n (from a spec such as
 * "complete:n=1024,weights=real" or a file, made dense from CSR, or
 * "dense:n=90112,weights=real|exponential|geometric", generated here for
 * sizes beyond CSR) run the complete-graph mode from a random pairing and
 * from handshake, 8 phases, threshold 1e-5. Sequential ROMA runs once (it
 * is the slow one), the GPU --runs times (median). */
#include "bench/bench_util.h"
#include "core/hash.h"
#include "device/device.h"
#include "matching/matching.h"
#include "matching/roma.h"
#include "matching/roma_complete.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const defaults[] = {
    "er:n=100000,deg=8,weights=real", "grid2d:nx=300,ny=300,weights=real", "rgg:n=100000,deg=8,weights=real",
    "complete:n=1024,weights=real",   "complete:n=1024,weights=exponential", "complete:n=1024,weights=geometric",
};

static int have_gpu;
static int one_start; /* --one-start: the first start and the default rule only (large graphs) */
static uint64_t seed = 1;          /* --seed S: the random pairing and every ROMA seed */
static int gpu_only;               /* --gpu-only: complete graphs without the host runs (tuning) */
static int32_t dense_tile;         /* --dense-tile T: roma_opts.dense_tile (0: the default) */
static int turns = -1, priority = -1; /* --turns 0|1, --priority gain|random: the rule (-1: the mode's default) */

/* The mode's options with --seed, --turns and --priority applied. */
static void rule_opts(roma_opts *o)
{
    o->seed = seed;
    o->dense_tile = dense_tile;
    if (turns >= 0)
        o->turns = turns;
    if (priority >= 0)
        o->priority = priority;
}

/* Prints "key=value" pairs of one measurement line; st (NULL for the
 * start) gives the phases and the work summed over them: evaluation
 * passes, centres evaluated (sequential: vertices visited), claim rounds. */
static void line(const char *graph, const char *start, const char *algo, int32_t n, int64_t nnz, double w,
                 double opt, double w_start, const roma_stats *st, double ms, double seq_ms)
{
    int64_t passes = 0, evaluated = 0, rounds = 0;
    for (int p = 0; st && p < st->phases; p++)
        passes += st->phase[p].passes, evaluated += st->phase[p].evaluated, rounds += st->phase[p].rounds;
    printf("bench=roma graph=%s n=%d nnz=%lld start=%s algo=%s weight=%.10g phases=%d ms=%.3f", graph, n,
           (long long)nnz, start, algo, w, st ? st->phases : 0, ms);
    if (st)
        printf(" passes=%lld evaluated=%lld rounds=%lld", (long long)passes, (long long)evaluated, (long long)rounds);
    if (opt > 0)
        printf(" gto=%.6g gap_closed=%.4f", 1 - w / opt, w_start < opt ? (w - w_start) / (opt - w_start) : 1.0);
    if (seq_ms > 0 && ms > 0)
        printf(" speedup_vs_seq=%.2f", seq_ms / ms);
    printf("\n");
    fflush(stdout);
}

/* roma_gpu on a device copy of g from start; the median of runs into *ms,
 * the result in out. */
static int sparse_gpu(const coarsen_graph *g, const roma_opts *o, const int32_t *start, int runs, int32_t *out,
                      roma_stats *st, double *ms, coarsen_error *err)
{
    coarsen_graph *dg = NULL;
    void *d_mate = NULL;
    size_t bytes = (size_t)g->n * sizeof(int32_t);
    double t[64];
    int rc = device_graph_upload(g, &dg, err);
    if (!rc)
        rc = device_alloc(&d_mate, bytes, "bench mates", err);
    for (int r = 0; !rc && r < runs; r++) {
        rc = device_copy_to_device(d_mate, start, bytes, err);
        if (!rc)
            rc = device_synchronize(err);
        double t0 = bench_now_ms();
        if (!rc)
            rc = roma_gpu(dg, o, d_mate, st, err);
        t[r] = bench_now_ms() - t0;
    }
    if (!rc)
        rc = device_copy_to_host(out, d_mate, bytes, err);
    *ms = rc ? 0 : bench_median(t, runs);
    device_free(d_mate);
    coarsen_graph_free(dg);
    return rc;
}

static double weight_of(const coarsen_graph *g, const int32_t *mate)
{
    double s = 0.0;
    for (int32_t v = 0; v < g->n; v++)
        for (int64_t e = g->xadj[v]; mate[v] > v && e < g->xadj[v + 1]; e++)
            if (g->adj[e] == mate[v])
                s += g->ewgt[e];
    return s;
}

static int run_sparse(const char *spec, const coarsen_graph *g, double opt, int runs)
{
    size_t bytes = ((size_t)g->n + 1) * sizeof(int32_t);
    int32_t *start = malloc(bytes), *m = malloc(bytes), *m2 = malloc(bytes);
    coarsen_error err = {0};
    int rc = 0;
    for (int s = 0; s < (one_start ? 1 : 2) && !rc; s++) {
        matching_opts mo;
        matching_opts_default(&mo);
        mo.kind = s ? MATCHER_REDBLUE : MATCHER_HANDSHAKE;
        matching_stats ms;
        const char *sname = s ? "redblue" : "handshake";
        if ((rc = match_cpu(g, &mo, start, NULL, &ms, &err)))
            break;
        double w0 = weight_of(g, start);
        line(spec, sname, "none", g->n, g->nnz, w0, opt, w0, NULL, ms.ms, 0);
        roma_opts o;
        roma_opts_default(&o);
        rule_opts(&o);
        roma_stats st;
        memcpy(m, start, bytes);
        if ((rc = roma_cpu(g, &o, m, &st, &err)))
            break;
        double seq_ms = st.ms;
        line(spec, sname, "roma_seq", g->n, g->nnz, weight_of(g, m), opt, w0, &st, st.ms, 0);
        for (int r1 = 0; r1 < (one_start ? 1 : 2) && !rc; r1++) { /* claim rounds to exhaustion, then the single-claim scheme */
            o.max_rounds = r1;
            memcpy(m, start, bytes);
            if ((rc = roma_replay_cpu(g, &o, m, &st, &err)))
                break;
            line(spec, sname, r1 ? "roma_replay_cpu_1claim" : "roma_replay_cpu", g->n, g->nnz, weight_of(g, m), opt,
                 w0, &st, st.ms, seq_ms);
            if (!have_gpu)
                continue;
            double gpu_ms = 0;
            if ((rc = sparse_gpu(g, &o, start, runs, m2, &st, &gpu_ms, &err)))
                break;
            if (memcmp(m, m2, (size_t)g->n * sizeof *m)) {
                fprintf(stderr, "bench_roma: %s: GPU result differs from the replay\n", spec);
                rc = 1;
            }
            line(spec, sname, r1 ? "roma_gpu_1claim" : "roma_gpu", g->n, g->nnz, weight_of(g, m2), opt, w0, &st,
                 gpu_ms, seq_ms);
        }
    }
    if (rc && err.msg[0])
        fprintf(stderr, "bench_roma: %s: %s\n", spec, err.msg);
    free(start), free(m), free(m2);
    return rc;
}

/* "dense:n=N,weights=real|exponential|geometric": w(i,j) from hash3. */
static float *dense_spec(const char *spec, int32_t *n_out, coarsen_error *err)
{
    long n = 0;
    char kind[32] = "real";
    if (sscanf(spec, "dense:n=%ld,weights=%31s", &n, kind) < 1 || n < 2 || n % 2 || n > 200000) {
        fprintf(stderr, "bench_roma: bad dense spec '%s' (dense:n=EVEN,weights=real|exponential|geometric)\n", spec);
        return NULL;
    }
    int k = !strcmp(kind, "exponential") ? 1 : !strcmp(kind, "geometric") ? 2 : 0;
    float *w = malloc((size_t)n * (size_t)n * sizeof *w);
    if (!w) {
        fprintf(stderr, "bench_roma: no memory for a %ld x %ld matrix\n", n, n);
        return NULL;
    }
#pragma omp parallel for schedule(dynamic, 64)
    for (long i = 0; i < n; i++)
        for (long j = 0; j < n; j++) {
            long a = i < j ? i : j, b = i < j ? j : i;
            double x;
            if (k == 2) { /* distance between hashed points */
                double dx = hash_unit(hash3(7, (uint64_t)a, 0)) - hash_unit(hash3(7, (uint64_t)b, 0));
                double dy = hash_unit(hash3(7, (uint64_t)a, 1)) - hash_unit(hash3(7, (uint64_t)b, 1));
                x = sqrt(dx * dx + dy * dy);
            } else {
                double u = hash_unit(hash3(9, (uint64_t)a, (uint64_t)b));
                x = k ? -log1p(-u) / 3.5 : 1.0 - u;
            }
            w[(size_t)i * (size_t)n + (size_t)j] = i == j ? 0.0f : (float)x;
        }
    (void)err;
    *n_out = (int32_t)n;
    return w;
}

static int complete_gpu(int32_t n, const float *w, const roma_opts *o, const int32_t *start, int runs, int32_t *out,
                        roma_stats *st, double *ms, coarsen_error *err)
{
    void *d_w = NULL, *d_mate = NULL;
    size_t wb = (size_t)n * (size_t)n * sizeof(float), mb = (size_t)n * sizeof(int32_t);
    double t[64];
    int rc = device_alloc(&d_w, wb, "bench dense matrix", err);
    if (!rc)
        rc = device_alloc(&d_mate, mb, "bench mates", err);
    if (!rc)
        rc = device_copy_to_device(d_w, w, wb, err);
    for (int r = 0; !rc && r < runs; r++) {
        rc = device_copy_to_device(d_mate, start, mb, err);
        if (!rc)
            rc = device_synchronize(err);
        double t0 = bench_now_ms();
        if (!rc)
            rc = roma_complete_gpu(n, d_w, o, d_mate, st, err);
        t[r] = bench_now_ms() - t0;
    }
    if (!rc)
        rc = device_copy_to_host(out, d_mate, mb, err);
    *ms = rc ? 0 : bench_median(t, runs);
    device_free(d_w);
    device_free(d_mate);
    return rc;
}

/* Complete-graph mode on g (a complete graph; NULL: a dense: spec). */
static int run_complete(const char *spec, const coarsen_graph *g, double opt, int runs)
{
    coarsen_error err = {0};
    int32_t n = 0;
    float *w = NULL;
    if (!g) {
        w = dense_spec(spec, &n, &err);
    } else {
        n = g->n;
        w = roma_dense_from_graph(g, &err);
    }
    if (!w) {
        fprintf(stderr, "bench_roma: %s: %s\n", spec, err.msg);
        return 1;
    }
    size_t bytes = ((size_t)n + 1) * sizeof(int32_t);
    int32_t *start = malloc(bytes), *m = malloc(bytes), *m2 = malloc(bytes);
    int rc = 0;
    for (int s = 0; s < (one_start ? 1 : 2) && !rc; s++) {
        const char *sname = s ? "handshake" : "random";
        if (s) {
            matching_opts mo;
            matching_opts_default(&mo);
            matching_stats ms;
            if (!g) /* handshake needs the CSR graph, which dense: specs do not build */
                break;
            rc = match_cpu(g, &mo, start, NULL, &ms, &err);
        } else {
            rc = roma_random_pairing(n, seed, start, &err);
        }
        if (rc)
            break;
        double w0 = roma_dense_weight(n, w, start);
        line(spec, sname, "none", n, (int64_t)n * (n - 1), w0, opt, w0, NULL, 0, 0);
        roma_opts o;
        roma_complete_opts_default(&o);
        rule_opts(&o);
        roma_stats st;
        memcpy(m, start, bytes);
        double seq_ms = 0;
        if (n <= 90112 && !gpu_only) { /* the thesis's largest size; beyond, minutes per phase */
            if ((rc = roma_complete_cpu(n, w, &o, m, &st, &err)))
                break;
            seq_ms = st.ms;
            line(spec, sname, "roma_seq", n, (int64_t)n * (n - 1), roma_dense_weight(n, w, m), opt, w0, &st,
                 st.ms, 0);
            memcpy(m, start, bytes);
            if ((rc = roma_complete_replay_cpu(n, w, &o, m, &st, &err)))
                break;
            line(spec, sname, "roma_replay_cpu", n, (int64_t)n * (n - 1), roma_dense_weight(n, w, m), opt, w0,
                 &st, st.ms, seq_ms);
        }
        if (!have_gpu)
            continue;
        double gpu_ms = 0;
        if ((rc = complete_gpu(n, w, &o, start, runs, m2, &st, &gpu_ms, &err)))
            break;
        if (seq_ms > 0 && memcmp(m, m2, (size_t)n * sizeof *m)) {
            fprintf(stderr, "bench_roma: %s: GPU result differs from the replay\n", spec);
            rc = 1;
        }
        line(spec, sname, "roma_gpu", n, (int64_t)n * (n - 1), roma_dense_weight(n, w, m2), opt, w0, &st,
             gpu_ms, seq_ms);
    }
    if (rc && err.msg[0])
        fprintf(stderr, "bench_roma: %s: %s\n", spec, err.msg);
    free(start), free(m), free(m2), free(w);
    return rc;
}

int main(int argc, char **argv)
{
    /* --opt W (one per graph, in order) is ours; the rest is bench_util's */
    double opt[BENCH_MAX_GRAPHS] = {0};
    int nopt = 0, kept = 1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--opt") && i + 1 < argc && nopt < BENCH_MAX_GRAPHS)
            opt[nopt++] = atof(argv[++i]);
        else if (!strcmp(argv[i], "--one-start"))
            one_start = 1;
        else if (!strcmp(argv[i], "--gpu-only"))
            gpu_only = 1;
        else if (!strcmp(argv[i], "--dense-tile") && i + 1 < argc)
            dense_tile = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--turns") && i + 1 < argc)
            turns = atoi(argv[++i]) != 0;
        else if (!strcmp(argv[i], "--priority") && i + 1 < argc)
            priority = strcmp(argv[++i], "random") ? ROMA_PRIORITY_GAIN : ROMA_PRIORITY_RANDOM;
        else
            argv[kept++] = argv[i];
    }
    argc = kept;
    bench_opts o;
    int rc = bench_parse_args(argc, argv,
                              "ROMA refinement: weight, GTO (with --opt W per graph), phases, time; sequential, "
                              "host replay and GPU. --one-start: only the first start and rule (large graphs); "
                              "--seed S (pairing and ROMA seeds), --turns 0|1, --priority gain|random (the rule); "
                              "complete graphs: --gpu-only (no host runs), --dense-tile T (columns staged per pass).",
                              defaults, (int)(sizeof defaults / sizeof defaults[0]), &o);
    if (rc)
        return rc == 1 ? 0 : rc;
    have_gpu = device_gpu_count() > 0;
    int runs = o.runs < 64 ? o.runs : 64;
    int status = 0;
    for (int k = 0; k < o.ngraphs; k++) {
        const char *spec = o.graphs[k];
        if (!strncmp(spec, "dense:", 6)) {
            status |= run_complete(spec, NULL, opt[k], runs);
            continue;
        }
        coarsen_graph *g = NULL;
        coarsen_error err = {0};
        if (bench_load_graph(spec, &g, &err)) {
            fprintf(stderr, "bench_roma: %s\n", err.msg);
            status = 1;
            continue;
        }
        if (g->n % 2 == 0 && g->nnz == (int64_t)g->n * (g->n - 1)) /* complete: the dense mode */
            status |= run_complete(spec, g, opt[k], runs);
        else
            status |= run_sparse(spec, g, opt[k], runs);
        coarsen_graph_free(g);
    }
    return status;
}
