/* bench_util.c — common options, graph lookup by spec or path, timing and
 * result lines for the benchmark programs (bench_util.h). */
#include "bench/bench_util.h"
#include "core/timer.h"
#include "gen/generators.h"

#include <errno.h>
#include <getopt.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int positive_int(const char *name, const char *s, int lo, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > 1000000) {
        fprintf(stderr, "bench: --%s: '%s' is not an integer in [%d, 1000000]\n", name, s, lo);
        return -1;
    }
    *out = (int)v;
    return 0;
}

int bench_parse_args(int argc, char **argv, const char *about, const char *const *defaults, int ndefaults,
                     bench_opts *o)
{
    return bench_parse_args_extra(argc, argv, about, defaults, ndefaults, NULL, o);
}

int bench_parse_args_extra(int argc, char **argv, const char *about, const char *const *defaults, int ndefaults,
                           const bench_extra *extra, bench_opts *o)
{
    static const struct option common[] = {{"graph", required_argument, 0, 'g'},
                                           {"runs", required_argument, 0, 'r'},
                                           {"threads", required_argument, 0, 't'},
                                           {"help", no_argument, 0, 'h'}};
    enum { NCOMMON = sizeof common / sizeof common[0], MAXOPTS = 64 };
    struct option longopts[MAXOPTS + 1];
    int count = NCOMMON;
    memcpy(longopts, common, sizeof common);
    for (int k = 0; extra && extra->options[k].name && count < MAXOPTS; k++)
        longopts[count++] = extra->options[k];
    memset(&longopts[count], 0, sizeof longopts[count]);
    memset(o, 0, sizeof *o);
    o->runs = 5;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":", longopts, NULL)) != -1) {
        switch (c) {
        case 'g':
            if (o->ngraphs == BENCH_MAX_GRAPHS) {
                fprintf(stderr, "bench: at most %d --graph options\n", BENCH_MAX_GRAPHS);
                return 2;
            }
            o->graphs[o->ngraphs++] = optarg;
            break;
        case 'r':
            if (positive_int("runs", optarg, 1, &o->runs))
                return 2;
            break;
        case 't':
            if (positive_int("threads", optarg, 0, &o->threads))
                return 2;
            break;
        case 'h':
            printf("Usage: %s [--graph SPEC|FILE]... [--runs N] [--threads N]%s\n%s\n%s"
                   "SPEC is a generator spec such as rgg:n=1000000,deg=12 (kinds grid2d grid3d rgg er rmat\n"
                   "delaunay complete; keys n nx ny nz deg weights maxw lambda a b c seed). Default graphs:\n",
                   argv[0], extra ? " [OPTIONS]" : "", about, extra && extra->help ? extra->help : "");
            for (int k = 0; k < ndefaults; k++)
                printf("  %s\n", defaults[k]);
            return 1;
        default:
            if (c >= 256 && extra && extra->handle(c, optarg, extra->ctx) == 0)
                break;
            if (c == '?' || c == ':')
                fprintf(stderr, "bench: %s '%s' (try --help)\n", c == ':' ? "no value for" : "unknown option",
                        argv[optind - 1]);
            return 2;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "bench: unexpected argument '%s' (try --help)\n", argv[optind]);
        return 2;
    }
    for (int k = 0; o->ngraphs == 0 && k < ndefaults && k < BENCH_MAX_GRAPHS; k++)
        o->graphs[k] = defaults[k];
    if (o->ngraphs == 0)
        o->ngraphs = ndefaults < BENCH_MAX_GRAPHS ? ndefaults : BENCH_MAX_GRAPHS;
    if (o->threads > 0)
        omp_set_num_threads(o->threads);
    return 0;
}

int bench_load_graph(const char *spec, coarsen_graph **out, coarsen_error *err)
{
    struct stat st;
    if (stat(spec, &st) == 0)
        return coarsen_graph_load(spec, out, NULL, err);
    gen_opts o;
    int status = gen_opts_parse_spec(spec, &o, err);
    return status ? status : gen_graph(&o, out, err);
}

double bench_now_ms(void)
{
    return timer_ms();
}

static int double_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double bench_median(double *ms, int count)
{
    qsort(ms, (size_t)count, sizeof *ms, double_cmp);
    return count % 2 ? ms[count / 2] : 0.5 * (ms[count / 2 - 1] + ms[count / 2]);
}

void bench_report(const char *bench, const char *graph, const coarsen_graph *g, double *ms, int runs,
                  const char *extra)
{
    double med = bench_median(ms, runs);
    printf("bench=%s graph=%s n=%d nnz=%lld threads=%d runs=%d median_ms=%.3f min_ms=%.3f%s%s\n", bench, graph,
           g->n, (long long)g->nnz, omp_get_max_threads(), runs, med, ms[0], extra && *extra ? " " : "",
           extra ? extra : "");
    fflush(stdout);
}
