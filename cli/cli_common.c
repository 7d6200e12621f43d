/* cli_common.c — global options, number parsing and error printing shared by
 * every subcommand of the `coarsen` program. */
#include "cli/cli.h"
#include "cli/exit_detach.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/interrupt.h"
#include "io/output_file.h"
#include "io/staged_dir.h"
#include "io/weight_scale.h"

const char *const cli_global_help =
    "Global options:\n"
    "  --device auto|cpu|gpu  backend (auto: the GPU for graphs large enough to gain from it,\n"
    "                         when one is usable; the CPU below: docs/pipeline.md)\n"
    "  --threads N            CPU threads (default: all cores)\n"
    "  --seed S               seed of every randomised step (default 1)\n"
    "  --quiet                no progress on stderr\n"
    "  --json                 summary as JSON on stdout\n"
    "  --help                 this help\n";

const char *const cli_exit_help =
    "Exit status:\n"
    "  0        success\n"
    "  1        the result failed the check asked for (match --check)\n"
    "  2        usage error: unknown option, bad option value, missing or extra operands\n"
    "  3        bad input: a malformed file, or one beyond the program's limits\n"
    "  4        I/O error: a file could not be read or written (missing, no permission, disk full)\n"
    "  5        out of memory\n"
    "  6        device error: the GPU failed, or --device gpu found none usable\n"
    "  128+N    interrupted by signal N (130: SIGINT, 143: SIGTERM); no partial output is left\n";

int cli_parse_long(const char *name, const char *s, long long lo, long long hi, long long *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi) {
        fprintf(stderr, "coarsen: --%s: '%s' is not an integer in [%lld, %lld]\n", name, s, lo, hi);
        return -1;
    }
    *out = v;
    return 0;
}

int cli_parse_double(const char *name, const char *s, double lo, double hi, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !isfinite(v) || v < lo || v > hi) {
        fprintf(stderr, "coarsen: --%s: '%s' is not a number in [%g, %g]\n", name, s, lo, hi);
        return -1;
    }
    *out = v;
    return 0;
}

int cli_check_output(const char *path)
{
    coarsen_error err = {0};
    return path && output_check(path, &err) ? cli_fail(&err) : 0;
}

int cli_check_output_dir(const char *dir)
{
    coarsen_error err = {0};
    return dir && staged_dir_check(dir, &err) ? cli_fail(&err) : 0;
}

void cli_reader_warnings(const char *path, const coarsen_read_report *r, int quiet)
{
    if (!quiet && r->extra_constraints > 0)
        fprintf(stderr, "coarsen: warning: %s: %d vertex weight constraints (ncon); only the first is used\n", path,
                r->extra_constraints + 1);
}

int cli_weight_option(int opt, const char *arg, double *scale)
{
    if (opt == OPT_UNIT_WEIGHTS) {
        *scale = COARSEN_WEIGHT_UNIT;
        return 1;
    }
    if (opt != OPT_WEIGHT_SCALE)
        return 0;
    if (!strcmp(arg, "auto")) {
        *scale = CLI_WEIGHT_SCALE_AUTO;
        return 1;
    }
    return cli_parse_double("weight-scale", arg, 1e-300, 1e300, scale) ? -1 : 1;
}

int cli_weight_scale_resolve(const coarsen_graph *g, double *scale, int quiet)
{
    if (*scale != CLI_WEIGHT_SCALE_AUTO)
        return 0;
    coarsen_error err = {0};
    double rel;
    if (weight_scale_auto(g, scale, &rel, &err))
        return cli_fail(&err);
    if (!quiet)
        fprintf(stderr, "coarsen: weight scale auto: %.17g (2^%d); every edge weight within a relative error of %.3g\n",
                *scale, ilogb(*scale), rel);
    return 0;
}

int cli_parse_matcher(const char *s, int allow_hec, int *kind)
{
    static const char *const names[] = {"handshake", "redblue", "hec"};
    for (int k = 0; k < 2 + (allow_hec != 0); k++)
        if (!strcmp(s, names[k])) {
            *kind = k;
            return 0;
        }
    fprintf(stderr, "coarsen: --matcher: '%s' is not handshake%s redblue%s\n", s, allow_hec ? "," : " or",
            allow_hec ? " or hec" : "");
    return -1;
}

int cli_parse_rating(const char *s, coarsen_rating *rating)
{
    static const char *const names[] = {"weight", "expansion", "expansion2"};
    for (int k = 0; k < 3; k++)
        if (!strcmp(s, names[k])) {
            *rating = (coarsen_rating)k;
            return 0;
        }
    fprintf(stderr, "coarsen: --rating: '%s' is not weight, expansion or expansion2\n", s);
    return -1;
}

int cli_parse_ties(const char *s, int *hashed)
{
    if (strcmp(s, "hashed") && strcmp(s, "id")) {
        fprintf(stderr, "coarsen: --ties: '%s' is not hashed or id\n", s);
        return -1;
    }
    *hashed = !strcmp(s, "hashed");
    return 0;
}

int cli_global_option(int opt, const char *arg, cli_globals *g)
{
    long long v;
    switch (opt) {
    case OPT_DEVICE:
        if (!strcmp(arg, "auto"))
            g->device = DEVICE_AUTO;
        else if (!strcmp(arg, "cpu"))
            g->device = DEVICE_CPU;
        else if (!strcmp(arg, "gpu"))
            g->device = DEVICE_GPU;
        else {
            fprintf(stderr, "coarsen: --device: '%s' is not auto, cpu or gpu\n", arg);
            return -1;
        }
        return 1;
    case OPT_THREADS:
        if (cli_parse_long("threads", arg, 0, 4096, &v))
            return -1;
        g->threads = (int)v;
        return 1;
    case OPT_SEED:
        if (cli_parse_long("seed", arg, 0, INT64_MAX, &v))
            return -1;
        g->seed = (uint64_t)v;
        return 1;
    case OPT_QUIET:
        g->quiet = 1;
        return 1;
    case OPT_JSON:
        g->json = 1;
        return 1;
    default:
        return 0;
    }
}

int cli_parse_options(int argc, char **argv, const char *cmd, const char *shortopts, const struct option *longopts,
                      const char *help, cli_globals *g, int (*local)(int opt, const char *arg, void *ctx), void *ctx,
                      int *done)
{
    char shorts[64]; /* ':' first: a missing value is ':', an unknown option '?' */
    snprintf(shorts, sizeof shorts, ":h%s", shortopts);
    *done = 0;
    opterr = 0;
    optind = 0; /* 0, not 1: GNU getopt then also forgets a half-read group of short options */
    optopt = 0;
    int opt;
    while ((opt = getopt_long(argc, argv, shorts, longopts, NULL)) != -1) {
        if (opt == OPT_HELP || opt == 'h') {
            fputs(help, stdout);
            fputs(cli_global_help, stdout);
            fputs(cli_exit_help, stdout);
            *done = 1;
            return 0;
        }
        if (opt == '?' || opt == ':') {
            /* a short option's own letter (it may be grouped, "-kx"), a long one as typed */
            char letter[3] = {'-', (char)optopt, 0};
            const char *typed = optopt > 0 && optopt < 128 ? letter : argv[optind - 1];
            fprintf(stderr, "coarsen: %s '%s' (coarsen %s%s--help lists the options)\n",
                    opt == ':' ? "missing value for" : "unknown option", typed, cmd, *cmd ? " " : "");
            return EXIT_USAGE;
        }
        int r = cli_global_option(opt, optarg, g);
        if (r < 0 || (r == 0 && local(opt, optarg, ctx)))
            return EXIT_USAGE;
    }
    return 0;
}

void (*cli_exit_hook)(void) = NULL;

int cli_exit_fast(int status)
{
    if (cli_exit_hook)
        cli_exit_hook();
    exit_detach_report(status);
#if defined(__SANITIZE_ADDRESS__)
    return status;
#else
    fflush(stdout);
    fflush(stderr);
    _exit(status);
#endif
}

int cli_exit_status(int status)
{
    switch (status) {
    case COARSEN_OK:
        return EXIT_OK;
    case COARSEN_ERR_INPUT:
        return EXIT_INPUT;
    case COARSEN_ERR_IO:
        return EXIT_IO;
    case COARSEN_ERR_NOMEM:
        return EXIT_NOMEM;
    case COARSEN_ERR_DEVICE:
        return EXIT_DEVICE;
    case COARSEN_ERR_INTERRUPTED:
        return 128 + interrupt_signal();
    default: /* no other status exists; a bug should not look like success */
        return EXIT_IO;
    }
}

int cli_fail(const coarsen_error *err)
{
    fprintf(stderr, "coarsen: %s\n", err->msg[0] ? err->msg : "unknown error");
    return cli_exit_status(err->status);
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("coarsen: ", stderr);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, " (see coarsen %s--help)\n", cmd);
    return EXIT_USAGE;
}
