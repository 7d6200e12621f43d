/* cmd_match.c — the `coarsen match` subcommand: loads a graph, runs the
 * handshake or red/blue matcher on the CPU or the GPU, optionally validates
 * the result (--check), writes the mates (and the first pass's strongest
 * neighbours) one per line, and prints a summary (text or JSON). */
#include "cli/cli.h"
#include "cli/match_roma.h"
#include "core/error.h"
#include "exec/host_call.h"
#include "io/output_file.h"
#include "matching/matching.h"
#include "matching/validate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char help[] =
    "Usage: coarsen match [OPTIONS] FILE [-o MATES]\n"
    "Computes a matching of the graph in FILE (Matrix Market or METIS, gzip allowed).\n\n"
    "  --matcher handshake|redblue  algorithm (default handshake)\n"
    "  --weighted                   red/blue: propose to the heaviest red neighbour (default)\n"
    "  --random                     red/blue: propose to a hash-chosen red neighbour\n"
    "  --p P                        red/blue: probability of blue (default 0.53406)\n"
    "  --passes N, --rounds N       stop after N passes/rounds (default: until maximal;\n"
    "                               red/blue stops after 10000 rounds at most)\n"
    "  --max-vertex-weight W        never match a pair whose vertex weights sum above W\n"
    "  --ties hashed|id             equal weights go to the smaller seeded scramble of the vertex\n"
    "                               id (default, as the pipeline: far fewer passes on meshes) or\n"
    "                               to the smaller id\n"
    "  --check                      validate the matching; exit 1 when invalid\n"
    "  --strongest FILE             write each vertex's strongest eligible neighbour (-1: none)\n"
    "  -o MATES                     write each vertex's mate, one per line (-1: unmatched)\n"
    MATCH_ROMA_HELP "\n";

enum {
    OPT_MATCHER = OPT_FIRST_LOCAL,
    OPT_WEIGHTED,
    OPT_RANDOM,
    OPT_P,
    OPT_PASSES,
    OPT_CAP,
    OPT_CHECK,
    OPT_STRONGEST,
    OPT_TIES
};

typedef struct match_args {
    cli_globals g;
    matching_opts opts;
    int check;
    const char *input, *output, *strongest;
    match_roma_args roma;
} match_args;

static const struct option longopts[] = {
    CLI_GLOBAL_LONGOPTS,
    {"matcher", required_argument, 0, OPT_MATCHER},
    {"weighted", no_argument, 0, OPT_WEIGHTED},
    {"random", no_argument, 0, OPT_RANDOM},
    {"p", required_argument, 0, OPT_P},
    {"passes", required_argument, 0, OPT_PASSES},
    {"rounds", required_argument, 0, OPT_PASSES},
    {"max-vertex-weight", required_argument, 0, OPT_CAP},
    {"check", no_argument, 0, OPT_CHECK},
    {"strongest", required_argument, 0, OPT_STRONGEST},
    {"ties", required_argument, 0, OPT_TIES},
    {"output", required_argument, 0, 'o'},
    MATCH_ROMA_LONGOPTS,
    {0, 0, 0, 0},
};

/* Applies one option of this command; 0, or -1 after printing one line. */
static int local_option(int opt, const char *arg, void *ctx)
{
    match_args *a = ctx;
    long long v;
    int flag;
    switch (opt) {
    case OPT_MATCHER:
        if (cli_parse_matcher(arg, 0, &flag))
            return -1;
        a->opts.kind = (matcher_kind)flag;
        a->roma.matcher_given = 1;
        return 0;
    case OPT_WEIGHTED: a->opts.weighted = 1; return 0;
    case OPT_RANDOM: a->opts.weighted = 0; return 0;
    case OPT_P:
        return cli_parse_double("p", arg, 1e-9, 1 - 1e-9, &a->opts.p);
    case OPT_PASSES:
        if (cli_parse_long("passes", arg, 1, 1000000000, &v))
            return -1;
        a->opts.max_passes = (int)v;
        return 0;
    case OPT_CAP:
        if (cli_parse_long("max-vertex-weight", arg, 1, INT64_MAX, &v))
            return -1;
        a->opts.max_vertex_weight = v;
        return 0;
    case OPT_TIES:
        return cli_parse_ties(arg, &a->opts.hashed_ties);
    case OPT_CHECK: a->check = 1; return 0;
    case OPT_STRONGEST: a->strongest = arg; return 0;
    case 'o': a->output = arg; return 0;
    default:
        return match_roma_option(opt, arg, &a->roma) == 1 ? 0 : -1;
    }
}

/* Parses argv into a; returns -1 to go on, else the exit status. */
static int parse(int argc, char **argv, match_args *a)
{
    int done;
    int rc = cli_parse_options(argc, argv, "match", "o:", longopts, help, &a->g, local_option, a, &done);
    if (rc || done)
        return rc;
    if (optind != argc - 1)
        return cli_usage_error("match ", optind < argc ? "one input FILE expected" : "missing input FILE");
    a->input = argv[optind];
    a->opts.seed = a->g.seed;
    return -1;
}

static void report(const match_args *a, const coarsen_graph *g, const matching_stats *st)
{
    const char *name = match_roma_start_name(&a->roma, a->opts.kind == MATCHER_HANDSHAKE ? "handshake" : "redblue");
    const char *dev = a->g.use_gpu ? "gpu" : "cpu";
    double frac = g->n ? 2.0 * (double)st->matched_edges / g->n : 0.0;
    if (a->g.json) {
        printf("{\"matcher\": \"%s\", \"device\": \"%s\", \"vertices\": %d, \"edges\": %lld, "
               "\"matched_edges\": %lld, \"matched_fraction\": %.6f, \"weight\": %.17g, \"passes\": %d, "
               "\"first_pass_fraction\": %.6f, \"maximal\": %s, \"ms\": %.3f}\n",
               name, dev, g->n, (long long)(g->nnz / 2), (long long)st->matched_edges, frac, st->weight,
               st->passes, st->first_round_fraction, st->maximal ? "true" : "false", st->ms);
        return;
    }
    printf("%s on %s: %lld matched edges, %.2f%% of %d vertices matched (first %s %.2f%%), weight %.17g,\n"
           "%d %s, %s, %.3f ms\n",
           name, dev, (long long)st->matched_edges, 100 * frac, g->n,
           a->opts.kind == MATCHER_HANDSHAKE ? "pass" : "round", 100 * st->first_round_fraction, st->weight,
           st->passes, a->opts.kind == MATCHER_HANDSHAKE ? "passes" : "rounds",
           st->maximal ? "maximal" : "stopped by the cap (maybe not maximal)", st->ms);
}

/* Validates mate (--check): 0, or 1 after printing what is wrong. */
static int check(const match_args *a, const coarsen_graph *g, const int32_t *mate, const matching_stats *st)
{
    coarsen_error err = {0};
    match_check c;
    if (match_validate(g, mate, a->opts.max_vertex_weight, &c, &err)) {
        fprintf(stderr, "coarsen: match: invalid matching: %s\n", err.msg);
        return EXIT_CHECK;
    }
    if (st->maximal && !c.maximal) {
        fprintf(stderr, "coarsen: match: the matcher finished but the matching is not maximal\n");
        return EXIT_CHECK;
    }
    if (c.matched_edges != st->matched_edges || c.weight != st->weight) {
        fprintf(stderr, "coarsen: match: statistics disagree with the matching (%lld pairs, weight %.17g)\n",
                (long long)c.matched_edges, c.weight);
        return EXIT_CHECK;
    }
    if (!a->g.quiet)
        fprintf(stderr, "coarsen: match: check passed (valid%s)\n", c.maximal ? ", maximal" : ", not maximal");
    return 0;
}

int cmd_match(int argc, char **argv)
{
    match_args a;
    memset(&a, 0, sizeof a);
    a.g.seed = 1;
    matching_opts_default(&a.opts);
    coarsen_hierarchy_opts pipeline; /* the pipeline's tie rule */
    coarsen_hierarchy_opts_default(&pipeline);
    a.opts.hashed_ties = pipeline.hashed_ties;
    match_roma_init(&a.roma);
    int rc = parse(argc, argv, &a);
    if (rc >= 0)
        return rc;
    coarsen_error err = {0};
    if (matching_opts_check(&a.opts, &err)) { /* the options' values: a usage error */
        cli_fail(&err);
        return EXIT_USAGE;
    }
    if ((rc = cli_check_output(a.output)) || (rc = cli_check_output(a.strongest)))
        return rc;
    cli_device_begin(&a.g, a.input);
    coarsen_graph *g = NULL;
    coarsen_read_report rep;
    if (coarsen_graph_load(a.input, &g, &rep, &err))
        return cli_fail(&err);
    cli_reader_warnings(a.input, &rep, a.g.quiet);
    if (match_roma_check_input(&a.roma, g, a.input, &err)) {
        coarsen_graph_free(g);
        return cli_fail(&err);
    }
    if ((rc = cli_device_finish(&a.g, g->nnz, NULL))) {
        coarsen_graph_free(g);
        return rc;
    }
    size_t bytes = ((size_t)g->n + 1) * sizeof(int32_t);
    int32_t *mate = xmalloc(bytes, "mates", &err);
    int32_t *strongest = mate && a.strongest ? xmalloc(bytes, "strongest neighbours", &err) : NULL;
    matching_stats st = {0};
    if (!mate || (a.strongest && !strongest))
        rc = err.status;
    else if (!match_roma_needs_matcher(&a.roma))
        rc = COARSEN_OK; /* complete mode from a random pairing */
    else
        rc = exec_match_host(exec_backend_of(a.g.use_gpu), g, &a.opts, mate, strongest, &st, &err);
    if (!rc)
        rc = match_roma_run(&a.roma, &a.g, g, a.opts.max_vertex_weight, mate, &st, &err);
    if (!rc && a.output)
        rc = io_write_ints(a.output, mate, g->n, &err);
    if (!rc && a.strongest)
        rc = io_write_ints(a.strongest, strongest, g->n, &err);
    int status = rc ? cli_fail(&err) : 0;
    if (!rc) {
        report(&a, g, &st);
        if (a.check)
            status = check(&a, g, mate, &st);
    }
    free(mate);
    free(strongest);
    coarsen_graph_free(g);
    return status;
}
