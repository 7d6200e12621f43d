/* bench_read.c — read throughput of the METIS and Matrix Market readers on a
 * generated graph (>= 10^7 edges by default), plain and gzip'd: MB/s of
 * uncompressed text and edges/s, whole load (file -> CSR) and parse only
 * (text already in memory). Also times the writers that produce the files.
 *
 *   bench_read [--log2n K] [--degree D] [--dir DIR] [--reps R] [--keep]
 *
 * Files are named DIR/bench_read_K_D.{graph,graph.gz,mtx,mtx.gz}; with --keep
 * they stay, and a later run with the same K and D reuses them.
 *
 * The graph: 2^K vertices, vertex u joined to u+1..u+D/2 (mod 2^K) with
 * labels scrambled by an odd multiplier, so ids have their full length;
 * integer edge weights 1..100 in the Matrix Market file (integer field). */
#include <getopt.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "coarsen.h"
#include "core/graph_build.h"
#include "core/hash.h"
#include "core/timer.h"
#include "io/graph_load.h"
#include "io/mtx_read.h"
#include "io/text_input.h"

static coarsen_graph *make_graph(int log2n, int degree, int weighted)
{
    int32_t n = (int32_t)1 << log2n, half = degree / 2;
    uint32_t mask = (uint32_t)n - 1, mul = 0x9E3779B1u, inv = 1;
    for (int k = 0; k < 5; k++) /* inverse of mul mod 2^32 (Newton) */
        inv *= 2 - mul * inv;
    coarsen_error err = {0};
    coarsen_graph *g = coarsen_graph_alloc(n, (int64_t)n * 2 * half, &err);
    if (!g) {
        fprintf(stderr, "bench_read: %s\n", err.msg);
        exit(1);
    }
    /* Vertex x is label x; its position on the circle is inv*x. */
#pragma omp parallel for
    for (int32_t x = 0; x < n; x++) {
        uint32_t pos = ((uint32_t)x * inv) & mask;
        int64_t o = (int64_t)x * 2 * half;
        g->xadj[x + 1] = o + 2 * half;
        g->vwgt[x] = 1;
        for (int d = 1; d <= half; d++) {
            uint32_t a = (pos + (uint32_t)d) & mask, b = (pos - (uint32_t)d) & mask;
            uint32_t la = (a * mul) & mask, lb = (b * mul) & mask;
            /* The weight of edge {p, p+d} hashes (p, d), seen alike from both ends. */
            g->adj[o] = (int32_t)la;
            g->ewgt[o++] = weighted ? (double)(1 + hash3(7, pos, (uint64_t)d) % 100) : 1.0;
            g->adj[o] = (int32_t)lb;
            g->ewgt[o++] = weighted ? (double)(1 + hash3(7, b, (uint64_t)d) % 100) : 1.0;
        }
    }
    if (graph_sort_rows(g, &err) || coarsen_graph_check(g, &err)) {
        fprintf(stderr, "bench_read: generated graph: %s\n", err.msg);
        exit(1);
    }
    return g;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static void die(const coarsen_error *err)
{
    fprintf(stderr, "bench_read: %s\n", err->msg);
    exit(1);
}

/* Times R loads of path (whole load, then parse of the text in memory). */
static void bench_file(const char *label, const char *path, int reps)
{
    double total[64], parse[64], coo[64] = {0};
    coarsen_read_report r;
    int64_t edges = 0;
    for (int k = 0; k < reps; k++) {
        coarsen_graph *g;
        coarsen_error err = {0};
        double t0 = timer_ms();
        if (coarsen_graph_load(path, &g, &r, &err))
            die(&err);
        total[k] = timer_ms() - t0;
        edges = g->nnz / 2;
        coarsen_graph_free(g);
        text_input t;
        if (text_input_load(path, &t, &err))
            die(&err);
        t0 = timer_ms();
        if (graph_load_text(&t, &g, NULL, &err))
            die(&err);
        parse[k] = timer_ms() - t0;
        coarsen_graph_free(g);
        if (mtx_has_banner(&t)) {
            mtx_coo m;
            t0 = timer_ms();
            if (mtx_read_coo_text(&t, &m, &err))
                die(&err);
            coo[k] = timer_ms() - t0;
            mtx_coo_free(&m);
        }
        text_input_free(&t);
    }
    double tt = median(total, reps), tp = median(parse, reps), mb = (double)r.bytes / 1e6;
    printf("%-16s %9.1f MB  load %8.1f ms %7.1f MB/s %6.2f Medges/s | parse %8.1f ms %7.1f MB/s %6.2f Medges/s\n",
           label, mb, tt, mb / (tt / 1e3), (double)edges / 1e3 / tt, tp, mb / (tp / 1e3),
           (double)edges / 1e3 / tp);
    double tc = median(coo, reps);
    if (tc > 0)
        printf("%-16s %9s     text to entries only %8.1f ms %7.1f MB/s\n", "", "", tc, mb / (tc / 1e3));
}

int main(int argc, char **argv)
{
    int log2n = 21, degree = 10, reps = 3, keep = 0;
    const char *dir = "/tmp";
    static const struct option opts[] = {{"log2n", required_argument, 0, 'n'}, {"degree", required_argument, 0, 'd'},
                                         {"dir", required_argument, 0, 'o'},   {"reps", required_argument, 0, 'r'},
                                         {"keep", no_argument, 0, 'k'},        {0, 0, 0, 0}};
    for (int c; (c = getopt_long(argc, argv, "", opts, NULL)) != -1;) {
        if (c == 'n')
            log2n = atoi(optarg);
        else if (c == 'd')
            degree = atoi(optarg);
        else if (c == 'o')
            dir = optarg;
        else if (c == 'r')
            reps = atoi(optarg);
        else if (c == 'k')
            keep = 1;
        else
            return 2;
    }
    if (log2n < 4 || log2n > 30 || degree < 2 || degree % 2 || degree >= (1 << log2n) || reps < 1 || reps > 64) {
        fprintf(stderr, "bench_read: need 4 <= --log2n <= 30, even 2 <= --degree < 2^log2n, 1 <= --reps <= 64\n");
        return 2;
    }
    printf("bench_read: 2^%d vertices, degree %d, %lld edges, %d threads, %d reps (median)\n", log2n, degree,
           (long long)((int64_t)degree / 2 << log2n), omp_get_max_threads(), reps);
    static const char *const names[4] = {"bench.graph", "bench.graph.gz", "bench.mtx", "bench.mtx.gz"};
    char paths[4][1024];
    for (int f = 0; f < 4; f++) {
        snprintf(paths[f], sizeof paths[f], "%s/bench_read_%d_%d_%s", dir, log2n, degree, names[f] + 6);
        if (access(paths[f], R_OK) == 0) {
            printf("reuse %s\n", paths[f]);
            continue;
        }
        coarsen_graph *g = make_graph(log2n, degree, f >= 2);
        coarsen_error err = {0};
        double t0 = timer_ms();
        if (coarsen_graph_write(g, paths[f], f >= 2 ? COARSEN_FORMAT_MTX : COARSEN_FORMAT_METIS, 0, &err))
            die(&err);
        printf("write %-16s %8.1f ms  (%s)\n", names[f], timer_ms() - t0, paths[f]);
        coarsen_graph_free(g);
    }
    for (int f = 0; f < 4; f++)
        bench_file(names[f], paths[f], reps);
    if (!keep)
        for (int f = 0; f < 4; f++)
            unlink(paths[f]);
    return 0;
}
