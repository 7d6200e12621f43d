/* bench_util.h — what every benchmark program in bench/ shares: the common
 * options (--graph SPEC repeatable, --runs N, --threads N), graphs named by a
 * generator spec ("rgg:n=1000000,deg=12", see gen_opts_parse_spec) or a file
 * path, wall-clock timing with the median of N runs, and one result line per
 * measurement in key=value form, so bench/run.sh can collect stdout as is:
 *   bench=gen graph=rgg:n=1000000,deg=12 n=1000000 nnz=11998354 threads=2 runs=5 median_ms=812.3 min_ms=801.0 ...
 */
#ifndef BENCH_BENCH_UTIL_H
#define BENCH_BENCH_UTIL_H

#include <getopt.h>

#include "coarsen.h"

#define BENCH_MAX_GRAPHS 32

typedef struct bench_opts {
    const char *graphs[BENCH_MAX_GRAPHS]; /* specs or paths (pointers into argv or defaults) */
    int ngraphs;
    int runs;     /* timed runs per measurement (default 5) */
    int threads;  /* OpenMP threads (0 = all cores) */
} bench_opts;

/* A program's own options, besides the common ones: getopt_long entries
 * (val >= 256, list ended by a zero entry), their help lines, and a handler
 * that returns 0, or -1 after printing what is wrong with the value. */
typedef struct bench_extra {
    const struct option *options;
    const char *help;
    int (*handle)(int val, const char *arg, void *ctx);
    void *ctx;
} bench_extra;

/* Parses the common options; graphs default to defaults[0..ndefaults) when no
 * --graph is given. Applies --threads. Prints usage (with `about`, one line
 * saying what the program measures) and returns 1 for --help, prints one line
 * and returns 2 for a bad option, returns 0 otherwise. */
int bench_parse_args(int argc, char **argv, const char *about, const char *const *defaults, int ndefaults,
                     bench_opts *opts);
/* The same, with the program's own options in extra. */
int bench_parse_args_extra(int argc, char **argv, const char *about, const char *const *defaults, int ndefaults,
                           const bench_extra *extra, bench_opts *opts);

/* The graph named by spec: a file path when one exists there, otherwise a
 * generator spec. The caller owns *out. */
int bench_load_graph(const char *spec, coarsen_graph **out, coarsen_error *err);

/* Wall clock in milliseconds (monotonic). */
double bench_now_ms(void);

/* Median of ms[0..count) (sorts ms). */
double bench_median(double *ms, int count);

/* Prints one result line: bench=NAME graph=SPEC n= nnz= threads= runs=
 * median_ms= min_ms=, then `extra` (more key=value pairs, may be NULL or ""). */
void bench_report(const char *bench, const char *graph, const coarsen_graph *g, double *ms, int runs,
                  const char *extra);

#endif
