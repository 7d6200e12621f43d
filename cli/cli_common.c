/* cli_common.c — global options, number parsing and error printing shared by
 * every subcommand of the `coarsen` program. */
#include "cli/cli.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/interrupt.h"

const char *const cli_global_help =
    "Global options:\n"
    "  --device auto|cpu|gpu  backend (auto: the GPU for graphs large enough to gain from it,\n"
    "                         when one is usable; the CPU below: docs/pipeline.md)\n"
    "  --threads N            CPU threads (default: all cores)\n"
    "  --seed S               seed of every randomised step (default 1)\n"
    "  --quiet                no progress on stderr\n"
    "  --json                 summary as JSON on stdout\n"
    "  --help                 this help\n";

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
    *done = 0;
    opterr = 0;
    optind = 1;
    optopt = 0;
    int opt;
    while ((opt = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
        if (opt == OPT_HELP) {
            fputs(help, stdout);
            fputs(cli_global_help, stdout);
            *done = 1;
            return 0;
        }
        if (opt == '?') { /* getopt_long sets optopt to a known option's code when its value is missing */
            fprintf(stderr, "coarsen: %s '%s' (coarsen %s%s--help lists the options)\n",
                    optopt ? "missing value for" : "unknown option", argv[optind - 1], cmd, *cmd ? " " : "");
            return 2;
        }
        int r = cli_global_option(opt, optarg, g);
        if (r < 0 || (r == 0 && local(opt, optarg, ctx)))
            return 2;
    }
    return 0;
}

void (*cli_exit_hook)(void) = NULL;

int cli_exit_fast(int status)
{
    if (cli_exit_hook)
        cli_exit_hook();
#if defined(__SANITIZE_ADDRESS__)
    return status;
#else
    fflush(stdout);
    fflush(stderr);
    _exit(status);
#endif
}

int cli_fail(const coarsen_error *err)
{
    fprintf(stderr, "coarsen: %s\n", err->msg[0] ? err->msg : "unknown error");
    if (err->status == COARSEN_ERR_INTERRUPTED)
        return 128 + interrupt_signal();
    return err->status == COARSEN_ERR_INPUT ? 2 : 1;
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("coarsen: ", stderr);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nTry 'coarsen %s--help'.\n", cmd);
    return 2;
}
