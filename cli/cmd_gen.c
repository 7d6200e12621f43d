/* cmd_gen.c — the `coarsen gen` subcommand: builds a seeded graph with the
 * generators of gen/ and writes it as METIS or Matrix Market (by the output
 * name's extension, gzip'd when it ends in .gz). */
#include "cli/cli.h"
#include "core/path_suffix.h"
#include "core/timer.h"
#include "gen/generators.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char help[] =
    "Usage: coarsen gen KIND [OPTIONS] -o FILE\n"
    "Generates a graph, the same for the same options and seed on any machine and thread count.\n\n"
    "Kinds:\n"
    "  grid2d     nx x ny grid, 4 neighbours (--nx --ny, or --vertices N for a square)\n"
    "  grid3d     nx x ny x nz grid, 6 neighbours (--nx --ny --nz, or --vertices N for a cube)\n"
    "  rgg        random geometric graph in the unit square, radius sqrt(D / (pi N))\n"
    "  er         Erdos-Renyi G(N, M), M = N D / 2 hashed pairs (loops, duplicates dropped)\n"
    "  rmat       R-MAT on N = 2^k vertices, N D / 2 samples (loops, duplicates dropped)\n"
    "  delaunay   Delaunay-like planar mesh: jittered grid, each cell cut by its shorter diagonal\n"
    "  complete   complete graph on N vertices (N <= 16384)\n\n"
    "Options:\n"
    "  -o, --output FILE      output; .mtx or .mtx.gz: Matrix Market, otherwise METIS (.gz: gzip)\n"
    "  -n, --vertices N       vertices (default 10000)\n"
    "      --nx, --ny, --nz N grid / mesh sides (ny, nz default to nx)\n"
    "  -d, --degree D         target average degree for rgg, er, rmat (default 8)\n"
    "  -w, --weights W        unit | int | real | exponential | geometric (default unit)\n"
    "      --max-weight M     int weights are uniform in [1, M] (default 100)\n"
    "      --lambda L         exponential weights' rate (default 3.5, mean 1/L)\n"
    "      --rmat A,B,C       R-MAT quadrant probabilities (default 0.57,0.19,0.19)\n"
    CLI_WEIGHT_HELP
    "Generation runs on the CPU (--threads applies, --device has no effect); --seed picks the graph.\n\n";

enum { OPT_NX = OPT_FIRST_LOCAL, OPT_NY, OPT_NZ, OPT_MAXW, OPT_LAMBDA, OPT_RMAT };

/* "A,B,C" -> three probabilities. */
static int parse_rmat(const char *s, gen_opts *o)
{
    char buf[128];
    snprintf(buf, sizeof buf, "%s", s);
    char *b = strchr(buf, ','), *c = b ? strchr(b + 1, ',') : NULL;
    if (!c) {
        fprintf(stderr, "coarsen: --rmat: '%s' is not A,B,C\n", s);
        return -1;
    }
    *b++ = 0, *c++ = 0;
    return cli_parse_double("rmat", buf, 0, 1, &o->rmat_a) || cli_parse_double("rmat", b, 0, 1, &o->rmat_b) ||
                   cli_parse_double("rmat", c, 0, 1, &o->rmat_c)
               ? -1
               : 0;
}

typedef struct gen_args {
    gen_opts o;
    double scale;       /* --weight-scale */
    const char *output; /* -o */
} gen_args;

/* Applies one gen option; 0 when valid, -1 after printing the error. */
static int gen_option(int opt, const char *arg, void *ctx)
{
    gen_args *a = ctx;
    gen_opts *o = &a->o;
    long long v;
    switch (opt) {
    case 'o':
        a->output = arg;
        return 0;
    case 'n':
        return cli_parse_long("vertices", arg, 1, INT32_MAX, &v) ? -1 : (o->n = v, 0);
    case OPT_NX:
        return cli_parse_long("nx", arg, 1, INT32_MAX, &v) ? -1 : (o->nx = (int32_t)v, 0);
    case OPT_NY:
        return cli_parse_long("ny", arg, 1, INT32_MAX, &v) ? -1 : (o->ny = (int32_t)v, 0);
    case OPT_NZ:
        return cli_parse_long("nz", arg, 1, INT32_MAX, &v) ? -1 : (o->nz = (int32_t)v, 0);
    case 'd':
        return cli_parse_double("degree", arg, 1e-9, (double)INT32_MAX, &o->avg_degree);
    case 'w':
        if (!gen_weights_parse(arg, &o->weights))
            return 0;
        fprintf(stderr, "coarsen: --weights: '%s' is not unit, int, real, exponential or geometric\n", arg);
        return -1;
    case OPT_MAXW:
        return cli_parse_long("max-weight", arg, 1, INT64_C(1) << 53, &v) ? -1 : (o->max_int_weight = v, 0);
    case OPT_LAMBDA:
        return cli_parse_double("lambda", arg, 1e-300, 1e300, &o->lambda);
    case OPT_RMAT:
        return parse_rmat(arg, o);
    default:
        return cli_weight_option(opt, arg, &a->scale) == 1 ? 0 : -1;
    }
}

int cmd_gen(int argc, char **argv)
{
    static const struct option longopts[] = {
        CLI_GLOBAL_LONGOPTS,
        {"output", required_argument, 0, 'o'},
        {"vertices", required_argument, 0, 'n'},
        {"nx", required_argument, 0, OPT_NX},
        {"ny", required_argument, 0, OPT_NY},
        {"nz", required_argument, 0, OPT_NZ},
        {"degree", required_argument, 0, 'd'},
        {"weights", required_argument, 0, 'w'},
        {"max-weight", required_argument, 0, OPT_MAXW},
        {"lambda", required_argument, 0, OPT_LAMBDA},
        {"rmat", required_argument, 0, OPT_RMAT},
        CLI_WEIGHT_LONGOPTS,
        {0, 0, 0, 0},
    };
    cli_globals glob = {.seed = 1};
    gen_args a = {.scale = 0};
    gen_opts_default(&a.o);
    int done, rc = cli_parse_options(argc, argv, "gen", "o:n:d:w:", longopts, help, &glob, gen_option, &a, &done);
    if (rc || done)
        return rc;
    gen_opts o = a.o;
    const char *output = a.output;
    double scale = a.scale;
    if (optind >= argc)
        return cli_usage_error("gen ", "gen: which KIND? (grid2d grid3d rgg er rmat delaunay complete)");
    if (optind + 1 < argc)
        return cli_usage_error("gen ", "gen: unexpected argument '%s'", argv[optind + 1]);
    if (gen_kind_parse(argv[optind], &o.kind))
        return cli_usage_error("gen ", "gen: unknown KIND '%s' (grid2d grid3d rgg er rmat delaunay complete)",
                               argv[optind]);
    if (!output)
        return cli_usage_error("gen ", "gen: no output file (-o FILE)");
    if ((rc = cli_check_output(output)))
        return rc;
    o.seed = glob.seed;
    if (glob.threads > 0) /* generation runs on the CPU: --device is accepted and has no effect */
        omp_set_num_threads(glob.threads);

    coarsen_error err = {0};
    coarsen_graph *g = NULL;
    double t0 = timer_ms();
    if (gen_graph(&o, &g, &err)) /* gen's only input is its options */
        return err.status == COARSEN_ERR_INPUT ? (cli_fail(&err), EXIT_USAGE) : cli_fail(&err);
    double t1 = timer_ms();
    if ((rc = cli_weight_scale_resolve(g, &scale, glob.quiet))) {
        coarsen_graph_free(g);
        return rc;
    }
    coarsen_format fmt = path_ends_with(output, ".mtx") || path_ends_with(output, ".mtx.gz") ? COARSEN_FORMAT_MTX
                                                                                    : COARSEN_FORMAT_METIS;
    rc = coarsen_graph_write(g, output, fmt, scale, &err);
    double t2 = timer_ms();
    if (rc) {
        coarsen_graph_free(g);
        return err.status == COARSEN_ERR_INPUT ? (cli_fail(&err), EXIT_USAGE) : cli_fail(&err);
    }
    if (!glob.quiet)
        fprintf(stderr, "coarsen: gen %s: %d vertices, %lld edges, %.1f ms generating, %.1f ms writing %s\n",
                gen_kind_name(o.kind), g->n, (long long)g->nnz / 2, t1 - t0, t2 - t1, output);
    if (glob.json)
        printf("{\"kind\": \"%s\", \"vertices\": %d, \"edges\": %lld, \"seed\": %llu, \"weights\": \"%s\", "
               "\"generate_ms\": %.3f, \"write_ms\": %.3f}\n",
               gen_kind_name(o.kind), g->n, (long long)g->nnz / 2, (unsigned long long)o.seed,
               gen_weights_name(o.weights), t1 - t0, t2 - t1);
    coarsen_graph_free(g);
    return 0;
}
