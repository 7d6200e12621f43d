/* cmd_coarsen.c — the pipeline, `coarsen [OPTIONS] FILE`: load a graph,
 * build its coarsening hierarchy (coarsen/hierarchy.c) on the CPU or GPU,
 * report progress per level on stderr, then print the per-level table (or
 * JSON) and/or write every level, map and stats.json into --out DIR. */
#include "cli/cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coarsen/hierarchy.h"
#include "coarsen/hierarchy_write.h"
#include "coarsen/run_phases.h"
#include "coarsen/stats_json.h"
#include "coarsen/transversal_graph.h"
#include "core/error.h"
#include "core/timer.h"
#include "io/graph_format.h"
#include "io/output_file.h"

/* The help text; every default is printed from coarsen_hierarchy_opts_default
 * (cmd_coarsen_help fills the %-fields, in this order: levels, matcher, rating,
 * ties, coarsen-to, min-reduction, vertex-weight-factor, gpu-memory,
 * host-below, two-hop-threshold, two-hop-relatives). */
static const char *const help_format =
    "Usage: coarsen [OPTIONS] FILE\n"
    "Builds a coarsening hierarchy of the graph in FILE (Matrix Market or METIS, .gz allowed):\n"
    "level by level a matching, two-hop pairing when the matching stalls, and contraction.\n\n"
    "  --levels N               at most N contractions (default %d); given without --coarsen-to,\n"
    "                           levels are built until a level cannot shrink (--coarsen-to 0)\n"
    "  --matcher handshake|redblue|hec  pairs by a matching, or groups by heavy-edge clustering\n"
    "                           (hec: every vertex joins its best neighbour's group; default %s)\n"
    "  --rating weight|expansion|expansion2  what handshake and hec maximise: the edge weight w,\n"
    "                           w / (c(u) c(v)) or w^2 / (c(u) c(v)) for vertex weights c (default %s)\n"
    "  --ties hashed|id         equal edge weights go to the smaller seeded scramble of the vertex\n"
    "                           id (few passes on unit weights) or to the smaller id (default %s)\n"
    "  --refine none|roma       refine each level's matching by ROMA 2-augmentations (default none;\n"
    "                           roma matches by handshake unless --matcher redblue)\n"
    "  --coarsen-to N           stop once a level has <= N vertices (default %d; 0 = never)\n"
    "  --min-reduction R        stop after a level keeping more than (1-R) of the vertices (default %g)\n"
    "  --max-vertex-weight W|auto  no coarse vertex heavier than W (0 = no cap); auto (default), per\n"
    "                           level: max(1.5 * total vertex weight / coarsen-to (METIS's rule),\n"
    "                           F * the average vertex weight of the level it is built from)\n"
    "  --vertex-weight-factor F the F of auto (default %g, at least 2: two average vertices may merge)\n"
    "  --gpu-memory F           GPU: keep device memory under F x the input CSR by moving older\n"
    "                           levels to the host (default %g; 0: only when the GPU would run out)\n"
    "  --host-below N           GPU: build the levels from the first one of at most N vertices on\n"
    "                           the host, where they take less time (same results; default %d;\n"
    "                           0 = every level on the GPU)\n"
    "  --two-hop-threshold F    pair unmatched islands, leaves and twins when more than F of a\n"
    "                           level's vertices stay unmatched (default %g)\n"
    "  --two-hop-relatives F    then pair unmatched vertices sharing their heaviest neighbour when\n"
    "                           more than F still are (default %g; > 1: never)\n"
    "  --out DIR                write level-K graphs, map-K.txt and stats.json into DIR\n"
    "                           (with --format mtx also level-K.vwgt.txt: vertex weights);\n"
    "                           once all are written they replace a previous run's files there\n"
    "  --format metis|mtx|parhip  level graph format (default metis; mtx keeps real weights\n"
    "                           exactly; parhip: level-K.parhip, the binary graph of KaHIP's\n"
    "                           ParHIP and KaMinPar, 64-bit words)\n"
    CLI_WEIGHT_HELP
    "  --gzip                   compress the level and map files (.gz)\n"
    "  --no-level0              with --out: skip level-0.* (the input graph as read); maps and\n"
    "                           stats.json are written as usual\n"
    "  --transversal pr|weighted  Matrix Market of any shape: permute the columns by a maximum\n"
    "                           transversal (pr: structural; weighted: largest product of |a_ij|)\n"
    "                           before symmetrising; an m x n matrix gives max(m, n) vertices;\n"
    "                           the permutation goes to DIR/transversal.txt with --out\n"
    "  --transversal-out FILE   write the permutation (one 0-based column per line) to FILE\n\n"
    "Without --out the per-level table (or JSON with --json) goes to stdout; progress,\n"
    "one line per level, goes to stderr unless --quiet.\n\n";

const char *cmd_coarsen_help(void)
{
    static char text[6144];
    coarsen_hierarchy_opts d;
    coarsen_hierarchy_opts_default(&d);
    snprintf(text, sizeof text, help_format, d.levels, coarsen_matcher_name(d.matcher), coarsen_rating_name(d.rating),
             d.hashed_ties ? "hashed" : "id", d.coarsen_to, d.min_reduction, d.max_vertex_weight_factor,
             d.gpu_memory_factor, (int)d.host_below, d.two_hop_threshold, d.two_hop_relatives);
    return text;
}

int (*cli_graph_loader)(const char *, coarsen_graph **, coarsen_read_report *, coarsen_error *) = coarsen_graph_load;
int (*cli_hierarchy_builder)(const coarsen_graph *, const coarsen_hierarchy_opts *, coarsen_hierarchy **,
                             coarsen_error *) = coarsen_hierarchy_build;

enum {
    OPT_LEVELS = OPT_FIRST_LOCAL,
    OPT_MATCHER,
    OPT_TIES,
    OPT_GPU_MEMORY,
    OPT_HOST_BELOW,
    OPT_REFINE,
    OPT_COARSEN_TO,
    OPT_MIN_REDUCTION,
    OPT_MAX_VWGT,
    OPT_TWO_HOP,
    OPT_RELATIVES,
    OPT_RATING,
    OPT_VWGT_FACTOR,
    OPT_OUT,
    OPT_FORMAT,
    OPT_GZIP,
    OPT_NO_LEVEL0,
    OPT_TRANSVERSAL,
    OPT_TRANSVERSAL_OUT
};

static const struct option longopts[] = {
    CLI_GLOBAL_LONGOPTS,
    {"levels", required_argument, 0, OPT_LEVELS},
    {"matcher", required_argument, 0, OPT_MATCHER},
    {"ties", required_argument, 0, OPT_TIES},
    {"gpu-memory", required_argument, 0, OPT_GPU_MEMORY},
    {"host-below", required_argument, 0, OPT_HOST_BELOW},
    {"refine", required_argument, 0, OPT_REFINE},
    {"coarsen-to", required_argument, 0, OPT_COARSEN_TO},
    {"min-reduction", required_argument, 0, OPT_MIN_REDUCTION},
    {"max-vertex-weight", required_argument, 0, OPT_MAX_VWGT},
    {"two-hop-threshold", required_argument, 0, OPT_TWO_HOP},
    {"two-hop-relatives", required_argument, 0, OPT_RELATIVES},
    {"rating", required_argument, 0, OPT_RATING},
    {"vertex-weight-factor", required_argument, 0, OPT_VWGT_FACTOR},
    {"out", required_argument, 0, OPT_OUT},
    {"format", required_argument, 0, OPT_FORMAT},
    CLI_WEIGHT_LONGOPTS,
    {"gzip", no_argument, 0, OPT_GZIP},
    {"no-level0", no_argument, 0, OPT_NO_LEVEL0},
    {"transversal", required_argument, 0, OPT_TRANSVERSAL},
    {"transversal-out", required_argument, 0, OPT_TRANSVERSAL_OUT},
    {0, 0, 0, 0},
};

typedef struct run {
    cli_globals g;
    coarsen_hierarchy_opts h;
    hierarchy_write_opts w;
    const char *out_dir;
    const char *file;
    int transversal;               /* a bip_transversal_kind, or -1 without --transversal */
    const char *transversal_out;   /* --transversal-out FILE, or NULL */
    int levels_given, coarsen_to_given, matcher_given;
} run;

/* Applies one option of this command; 0, or -1 after printing one line. */
static int local_option(int opt, const char *arg, void *ctx)
{
    run *r = ctx;
    long long v;
    int flag;
    double d;
    switch (opt) {
    case OPT_LEVELS:
        if (cli_parse_long("levels", arg, 0, 1000, &v))
            return -1;
        r->h.levels = (int)v;
        r->levels_given = 1;
        return 0;
    case OPT_MATCHER:
        if (cli_parse_matcher(arg, 1, &flag))
            return -1;
        r->h.matcher = (coarsen_matcher)flag;
        r->matcher_given = 1;
        return 0;
    case OPT_RATING:
        return cli_parse_rating(arg, &r->h.rating);
    case OPT_VWGT_FACTOR:
        return cli_parse_double("vertex-weight-factor", arg, 2, 1e9, &r->h.max_vertex_weight_factor);
    case OPT_RELATIVES:
        return cli_parse_double("two-hop-relatives", arg, 0, 1e9, &r->h.two_hop_relatives);
    case OPT_TIES:
        return cli_parse_ties(arg, &r->h.hashed_ties);
    case OPT_HOST_BELOW:
        if (cli_parse_long("host-below", arg, 0, INT32_MAX, &v))
            return -1;
        r->h.host_below = (int32_t)v;
        return 0;
    case OPT_GPU_MEMORY:
        return cli_parse_double("gpu-memory", arg, 0, 1e6, &r->h.gpu_memory_factor);
    case OPT_REFINE:
        if (strcmp(arg, "none") && strcmp(arg, "roma"))
            return fprintf(stderr, "coarsen: --refine: '%s' is not none or roma\n", arg), -1;
        r->h.refine_roma = !strcmp(arg, "roma");
        return 0;
    case OPT_COARSEN_TO:
        if (cli_parse_long("coarsen-to", arg, 0, INT32_MAX, &v))
            return -1;
        r->h.coarsen_to = (int32_t)v;
        r->coarsen_to_given = 1;
        return 0;
    case OPT_MIN_REDUCTION:
        if (cli_parse_double("min-reduction", arg, 0, 1, &d))
            return -1;
        r->h.min_reduction = d;
        return 0;
    case OPT_MAX_VWGT:
        if (!strcmp(arg, "auto"))
            r->h.max_vertex_weight = COARSEN_VWGT_AUTO;
        else if (cli_parse_long("max-vertex-weight", arg, 0, INT64_MAX, &v))
            return -1;
        else
            r->h.max_vertex_weight = v;
        return 0;
    case OPT_TWO_HOP:
        if (cli_parse_double("two-hop-threshold", arg, 0, 1e9, &d))
            return -1;
        r->h.two_hop_threshold = d;
        return 0;
    case OPT_OUT:
        r->out_dir = arg;
        return 0;
    case OPT_FORMAT:
        if (graph_format_parse(arg, &r->w.format))
            return fprintf(stderr, "coarsen: --format: '%s' is not metis, mtx or parhip\n", arg), -1;
        return 0;
    case OPT_WEIGHT_SCALE:
    case OPT_UNIT_WEIGHTS:
        return cli_weight_option(opt, arg, &r->w.weight_scale) < 0 ? -1 : 0;
    case OPT_GZIP:
        r->w.gzip = 1;
        return 0;
    case OPT_NO_LEVEL0:
        r->w.skip_level0 = 1;
        return 0;
    case OPT_TRANSVERSAL:
        if (strcmp(arg, "pr") && strcmp(arg, "weighted"))
            return fprintf(stderr, "coarsen: --transversal: '%s' is not pr or weighted\n", arg), -1;
        r->transversal = !strcmp(arg, "pr") ? BIP_TRANSVERSAL_PR : BIP_TRANSVERSAL_WEIGHTED;
        return 0;
    case OPT_TRANSVERSAL_OUT:
        r->transversal_out = arg;
        return 0;
    }
    return -1;
}

/* Fills r from argv; 0 to go on, or an exit status (help: 0, error: EXIT_USAGE). */
static int parse(int argc, char **argv, run *r, int *done)
{
    int rc = cli_parse_options(argc, argv, "", "", longopts, cmd_coarsen_help(), &r->g, local_option, r, done);
    if (rc || *done)
        return rc;
    if (optind != argc - 1) {
        return cli_usage_error("", "%s", optind == argc ? "no input FILE given" : "more than one input FILE given");
    }
    r->file = argv[optind];
    if (r->levels_given && !r->coarsen_to_given) /* N levels asked for: no size floor */
        r->h.coarsen_to = 0;
    if (r->h.refine_roma && !r->matcher_given) /* ROMA refines a matching: HEC makes groups */
        r->h.matcher = COARSEN_MATCHER_HANDSHAKE;
    if (r->h.refine_roma && r->h.matcher == COARSEN_MATCHER_HEC)
        return cli_usage_error("", "--refine roma refines a matching: use it with --matcher handshake or redblue");
    if (r->transversal_out && r->transversal < 0)
        return cli_usage_error("", "--transversal-out needs --transversal");
    return 0;
}

/* 1 when a shell reads s as one word, as it is. */
static int shell_plain(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+%@", *s))
            return 0;
    return 1;
}

/* argv as a shell command line, for stats.json: words joined by spaces, a
 * word a shell would split or expand in single quotes (a quote in it as
 * '\''), so that pasting it into a shell runs the same command (NULL when
 * out of memory). */
static char *join_args(int argc, char **argv)
{
    size_t len = 1;
    for (int k = 0; k < argc; k++)
        len += 4 * strlen(argv[k]) + 3;
    char *s = malloc(len), *p = s;
    if (!s)
        return NULL;
    for (int k = 0; k < argc; k++) {
        if (k)
            *p++ = ' ';
        if (shell_plain(argv[k])) {
            p = stpcpy(p, argv[k]);
            continue;
        }
        *p++ = '\'';
        for (const char *c = argv[k]; *c; c++)
            p = *c == '\'' ? stpcpy(p, "'\\''") : (*p = *c, p + 1);
        *p++ = '\'';
    }
    *p = 0;
    return s;
}

/* ctx: the vertex count of the previous level, updated here. */
static void progress_line(int level, const coarsen_level_stats *s, void *ctx)
{
    int32_t *prev_n = ctx;
    fprintf(stderr,
            "coarsen: level %d: %d vertices, %lld edges, %.1f%% fewer vertices, matched %.1f%%, "
            "two-hop %lld pairs, match %.2f ms, two-hop %.2f ms, contract %.2f ms\n",
            level, s->vertices, (long long)s->edges,
            *prev_n ? 100.0 * (1.0 - (double)s->vertices / *prev_n) : 0.0,
            100.0 * s->matched_fraction, (long long)hierarchy_unjoined_pairs(s), s->matching_ms,
            s->two_hop_ms, s->contraction_ms);
    *prev_n = s->vertices;
}

static void stop_line(FILE *f, const char *prefix, const coarsen_hierarchy *h, const coarsen_hierarchy_opts *o)
{
    fputs(prefix, f);
    switch (coarsen_hierarchy_stop_reason(h)) {
    case COARSEN_STOP_LEVELS:
        fprintf(f, "stopped: levels (built the %d levels asked for with --levels)\n", o->levels);
        break;
    case COARSEN_STOP_COARSEN_TO:
        fprintf(f, "stopped: coarsen-to (the coarsest level has <= %d vertices)\n", o->coarsen_to);
        break;
    case COARSEN_STOP_MIN_REDUCTION:
        fprintf(f, "stopped: min-reduction (a level would remove less than %g of the vertices)\n",
                o->min_reduction);
        break;
    case COARSEN_STOP_VERTEX_WEIGHT:
        fprintf(f,
                "stopped: vertex-weight-cap (a level would remove less than %g of the vertices: the cap of "
                "%lld kept apart %lld vertices with a neighbour; --max-vertex-weight, --vertex-weight-factor)\n",
                o->min_reduction, (long long)h->stall_cap, (long long)h->stall_blocked);
        break;
    case COARSEN_STOP_NO_EDGES:
        fprintf(f, "stopped: no-edges (the coarsest level has no edge left)\n");
        break;
    }
}

static void print_table(const coarsen_hierarchy *h, const coarsen_hierarchy_opts *o)
{
    printf("%5s %11s %12s %9s %8s %8s %10s %10s %11s\n", "level", "vertices", "edges", "reduction", "matched",
           "two-hop", "match_ms", "two_hop_ms", "contract_ms");
    for (int k = 0; k <= coarsen_hierarchy_levels(h); k++) {
        const coarsen_level_stats *s = coarsen_hierarchy_stats(h, k);
        if (k == 0) {
            printf("%5d %11d %12lld %9s %8s %8s %10s %10s %11s\n", k, s->vertices, (long long)s->edges, "-", "-",
                   "-", "-", "-", "-");
            continue;
        }
        const coarsen_level_stats *p = coarsen_hierarchy_stats(h, k - 1);
        printf("%5d %11d %12lld %9.3f %8.3f %8lld %10.3f %10.3f %11.3f\n", k, s->vertices, (long long)s->edges,
               p->vertices ? 1.0 - (double)s->vertices / p->vertices : 0.0, s->matched_fraction,
               (long long)hierarchy_unjoined_pairs(s), s->matching_ms, s->two_hop_ms, s->contraction_ms);
    }
    stop_line(stdout, "", h, o);
    printf("total: %.3f ms (transfers %.3f ms), file I/O excluded\n", coarsen_hierarchy_total_ms(h),
           coarsen_hierarchy_transfer_ms(h));
}

/* The input graph: the file as read, or with --transversal the graph of the
 * column-permuted matrix (*perm and *t filled, reported on stderr). */
static int load_input(run *r, coarsen_graph **g, int32_t **perm, transversal_info *t, coarsen_read_report *report,
                      coarsen_error *err)
{
    if (r->transversal < 0)
        return cli_graph_loader(r->file, g, report, err);
    int rc = transversal_graph_load(r->file, (bip_transversal_kind)r->transversal, r->g.use_gpu, g, perm, t, err);
    if (!rc && !r->g.quiet)
        fprintf(stderr,
                "coarsen: transversal %s: %d x %d matrix, structural rank %lld, diagonal entries %lld before, "
                "%lld after (%+lld)\n",
                transversal_kind_name(t->kind), t->rows, t->cols, (long long)t->res.rank,
                (long long)t->res.diag_before, (long long)t->res.diag_after,
                (long long)(t->res.diag_after - t->res.diag_before));
    return rc;
}

/* Load (while the GPU starts up, except with --transversal, which needs
 * the backend to read), build, report and write; returns the exit status. */
static int execute(run *r, const char *command_line)
{
    coarsen_error err = {0};
    coarsen_graph *g = NULL;
    int32_t *perm = NULL;
    transversal_info t;
    coarsen_read_report rep;
    memset(&rep, 0, sizeof rep);
    run_phases ph = {0};
    coarsen_hierarchy *h = NULL;
    double start = timer_ms();
    int status = 0;
    cli_device_begin(&r->g, r->file);
    if (r->transversal >= 0 && (status = cli_device_finish(&r->g, -1, NULL)))
        return status;
    int load = load_input(r, &g, &perm, &t, &rep, &err);
    ph.read_ms = timer_ms() - start;
    if (load)
        return cli_fail(&err);
    cli_reader_warnings(r->file, &rep, r->g.quiet);
    if (r->transversal < 0 && (status = cli_device_finish(&r->g, g->nnz, &ph.device_ms)))
        goto done;
    ph.inflate_ms = rep.inflate_ms, ph.parse_ms = rep.parse_ms, ph.build_ms = rep.build_ms;
    if (r->out_dir && (status = cli_weight_scale_resolve(g, &r->w.weight_scale, r->g.quiet)))
        goto done;
    if (r->out_dir && hierarchy_write_check(g, &r->w, &err)) {
        status = cli_fail(&err);
        goto done;
    }
    if (!r->g.quiet)
        fprintf(stderr, "coarsen: level 0: %d vertices, %lld edges\n", g->n, (long long)(g->nnz / 2));
    r->h.device = r->transversal >= 0 ? (r->g.use_gpu ? COARSEN_DEVICE_GPU : COARSEN_DEVICE_CPU)
                                      : (coarsen_device)r->g.device; /* the library applies the same rule */
    r->h.seed = r->g.seed;
    int32_t prev_n = g->n;
    r->h.on_level = r->g.quiet ? NULL : progress_line;
    r->h.ctx = &prev_n;
    if (cli_hierarchy_builder(g, &r->h, &h, &err)) {
        status = cli_fail(&err);
        goto done;
    }
    ph.upload_ms = coarsen_hierarchy_transfer_ms(h);
    ph.levels_ms = coarsen_hierarchy_total_ms(h) - ph.upload_ms;
    if (!r->g.quiet)
        stop_line(stderr, "coarsen: ", h, &r->h);
    r->w.input = r->file;
    r->w.command_line = command_line;
    r->w.reader = r->transversal < 0 ? &rep : NULL; /* the transversal's reader reports nothing */
    r->w.transversal = perm ? &t : NULL;
    r->w.permutation = perm; /* DIR/transversal.txt */
    r->w.phases = &ph;
    r->w.run_start_ms = start;
    if (r->out_dir) {
        if (hierarchy_write(h, r->out_dir, &r->w, &err)) {
            status = cli_fail(&err);
            goto done;
        }
        if (!r->g.quiet)
            fprintf(stderr, "coarsen: wrote %d levels, maps and stats.json to %s\n", coarsen_hierarchy_levels(h),
                    r->out_dir);
    }
    ph.wall_ms = timer_ms() - start;
    if (r->g.json) {
        output_file *f = output_open("-", &err);
        if (f)
            stats_json_write(f, h, &r->w, NULL);
        if (!f || output_commit(f, &err))
            status = cli_fail(&err);
    } else if (!r->out_dir) {
        print_table(h, &r->h);
    }
    if (!status && perm && r->transversal_out && io_write_ints(r->transversal_out, perm, t.cols, &err))
        status = cli_fail(&err);
    if (!status && !r->g.quiet)
        run_phases_print(stderr, &ph);
    if (!status)
        status = cli_exit_fast(status); /* returns in ASan builds only; the frees below then run */
done:
    coarsen_hierarchy_free(h);
    coarsen_graph_free(g);
    free(perm);
    return status;
}

int cmd_coarsen(int argc, char **argv)
{
    run r = {.g = {.device = DEVICE_AUTO, .seed = 1}, .transversal = -1};
    coarsen_hierarchy_opts_default(&r.h);
    r.w.format = COARSEN_FORMAT_METIS;
    int done;
    int status = parse(argc, argv, &r, &done);
    if (status || done)
        return status;
    if ((status = cli_check_output_dir(r.out_dir)) || (status = cli_check_output(r.transversal_out)))
        return status;
    char *command_line = join_args(argc, argv);
    status = execute(&r, command_line);
    free(command_line);
    return status;
}
