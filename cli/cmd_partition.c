/* cmd_partition.c — `coarsen partition -k K FILE`: multilevel partitioning
 * (partition/multilevel.c; input and first hierarchy through cli.h's hooks,
 * so that coarsen-mpi reads and coarsens across its ranks): per-level cuts and moves on stderr, the final cut,
 * imbalance and phase times on stdout, the part file with --out, and with
 * --compare-metis METIS k-way run directly on FILE side by side, with the
 * agreement of the two partitions once METIS's parts are relabelled to match
 * ours (bipartite/remap.h, the auction on the k x k overlap matrix). */
#include "cli/cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bipartite/remap.h"
#include "core/timer.h"
#include "io/output_file.h"
#include "coarsen/hierarchy.h"
#include "partition/partition.h"

/* The help text; every default is printed from partition_opts_default
 * (help_text fills the %-fields, in this order: imbalance, matcher, rating,
 * vertex-weight-factor, two-hop-relatives, ties, rounds, polish-edges, RB tries, restarts and their edges,
 * V-cycle edges, V-cycles). */
static const char *const help_format =
    "Usage: coarsen partition -k K [OPTIONS] FILE\n"
    "Partitions the graph in FILE into K parts: coarsening hierarchy, METIS on the coarsest\n"
    "graph, then level by level projection, rebalancing and refinement.\n\n"
    "  -k K                     number of parts (required)\n"
    "  --imbalance E            every part weighs at most (1+E) * total / K (default %g;\n"
    "                           loosened to ceil(total/K) + heaviest vertex - 1 when that is larger)\n"
    "  --rb, --kway             METIS recursive bisection only, or k-way only, on the coarsest\n"
    "                           graph (default both, each refined there, the lower cut kept)\n"
    "  --matcher handshake|redblue|hec  matching (or heavy-edge clustering) of the hierarchy\n"
    "                           (default %s)\n"
    "  --rating weight|expansion|expansion2  what handshake and hec maximise (default %s)\n"
    "  --vertex-weight-factor F the hierarchy's cap lets a vertex weigh F x the level's average\n"
    "                           when that exceeds 1.5 x total / coarsen-to (default %g)\n"
    "  --two-hop-relatives F    pair relatives when more than F stay unmatched (default %g)\n"
    "  --ties hashed|id         equal edge weights go to the smaller seeded scramble of the vertex\n"
    "                           id (few passes) or to the smaller id (more passes on unit weights;\n"
    "                           lower cuts on unit-weight meshes, docs/partitioning.md; default %s)\n"
    "  --rounds N               refinement rounds per level at most (default %d)\n"
    "  --coarsen-to N           coarsen until <= N vertices (default max(40 K, 400))\n"
    "  --polish-edges N         FM polish after the refinement at every level of at most N\n"
    "                           edges (default %lld; -1: no polish)\n"
    "  --metis-tries N          METIS runs of each kind on the coarsest graph, the lowest\n"
    "                           refined cut kept (default 0: k-way 4 times for K <= 8, once\n"
    "                           otherwise; recursive bisection %d times)\n"
    "  --restarts N             whole runs with their own seeds, the lowest cut kept (default 0:\n"
    "                           %d for K <= %d on graphs of at most %d edges, 1 otherwise)\n"
    "  --vcycles N              V-cycles after the first: coarsen again inside the parts and\n"
    "                           refine back up, kept when they cut less (on the run's device;\n"
    "                           graphs of at most %d edges; default %d)\n"
    "  -o, --out PART           write one 0-based part id per vertex and line (METIS's format)\n"
    "  --compare-metis          also run METIS directly on FILE (same K, imbalance, seed) and\n"
    "                           print both side by side, and the share of vertices in the\n"
    "                           same part after relabelling METIS's parts (coarsen remap)\n\n";

static const char *help_text(void)
{
    static char text[4096];
    partition_opts d;
    partition_opts_default(&d);
    snprintf(text, sizeof text, help_format, d.imbalance, coarsen_matcher_name(d.hierarchy.matcher),
             coarsen_rating_name(d.hierarchy.rating), d.hierarchy.max_vertex_weight_factor,
             d.hierarchy.two_hop_relatives, d.hierarchy.hashed_ties ? "hashed" : "id", d.max_rounds,
             (long long)d.polish_edges, PARTITION_RB_TRIES, PARTITION_RESTARTS, PARTITION_RESTART_MAX_K,
             PARTITION_RESTART_MAX_EDGES, PARTITION_VCYCLE_MAX_EDGES, d.vcycles);
    return text;
}

enum { OPT_IMBALANCE = OPT_FIRST_LOCAL, OPT_RB, OPT_KWAY, OPT_MATCHER, OPT_TIES, OPT_ROUNDS, OPT_COARSEN_TO,
       OPT_POLISH, OPT_TRIES, OPT_RESTARTS, OPT_VCYCLES, OPT_OUT,
       OPT_COMPARE, OPT_RATING, OPT_VWGT_FACTOR, OPT_RELATIVES };

static const struct option longopts[] = {
    CLI_GLOBAL_LONGOPTS,
    {"imbalance", required_argument, 0, OPT_IMBALANCE},
    {"rb", no_argument, 0, OPT_RB},
    {"kway", no_argument, 0, OPT_KWAY},
    {"matcher", required_argument, 0, OPT_MATCHER},
    {"rating", required_argument, 0, OPT_RATING},
    {"vertex-weight-factor", required_argument, 0, OPT_VWGT_FACTOR},
    {"two-hop-relatives", required_argument, 0, OPT_RELATIVES},
    {"ties", required_argument, 0, OPT_TIES},
    {"rounds", required_argument, 0, OPT_ROUNDS},
    {"coarsen-to", required_argument, 0, OPT_COARSEN_TO},
    {"polish-edges", required_argument, 0, OPT_POLISH},
    {"metis-tries", required_argument, 0, OPT_TRIES},
    {"restarts", required_argument, 0, OPT_RESTARTS},
    {"vcycles", required_argument, 0, OPT_VCYCLES},
    {"out", required_argument, 0, OPT_OUT},
    {"compare-metis", no_argument, 0, OPT_COMPARE},
    {0, 0, 0, 0},
};

typedef struct run {
    cli_globals g;
    partition_opts p;
    const char *out, *file;
    int compare;
    int have_k;  /* -k given */
} run;

static int local_option(int opt, const char *arg, void *ctx)
{
    run *r = ctx;
    long long v;
    int flag;
    switch (opt) {
    case 'k':
        if (cli_parse_long("k", arg, 1, INT32_MAX, &v))
            return -1;
        r->p.k = (int32_t)v;
        r->have_k = 1;
        return 0;
    case OPT_IMBALANCE:
        return cli_parse_double("imbalance", arg, 0, 1e6, &r->p.imbalance);
    case OPT_RB:
        r->p.recursive = PARTITION_INITIAL_RB;
        return 0;
    case OPT_KWAY:
        r->p.recursive = PARTITION_INITIAL_KWAY;
        return 0;
    case OPT_MATCHER:
        if (cli_parse_matcher(arg, 1, &flag))
            return -1;
        r->p.hierarchy.matcher = (coarsen_matcher)flag;
        return 0;
    case OPT_RATING:
        return cli_parse_rating(arg, &r->p.hierarchy.rating);
    case OPT_VWGT_FACTOR:
        return cli_parse_double("vertex-weight-factor", arg, 2, 1e9, &r->p.hierarchy.max_vertex_weight_factor);
    case OPT_RELATIVES:
        return cli_parse_double("two-hop-relatives", arg, 0, 1e9, &r->p.hierarchy.two_hop_relatives);
    case OPT_TIES:
        return cli_parse_ties(arg, &r->p.hierarchy.hashed_ties);
    case OPT_ROUNDS:
        if (cli_parse_long("rounds", arg, 0, 1000000, &v))
            return -1;
        r->p.max_rounds = (int)v;
        return 0;
    case OPT_COARSEN_TO:
        if (cli_parse_long("coarsen-to", arg, 1, INT32_MAX, &v))
            return -1;
        r->p.hierarchy.coarsen_to = (int32_t)v;
        return 0;
    case OPT_POLISH:
        if (cli_parse_long("polish-edges", arg, -1, INT64_MAX, &v))
            return -1;
        r->p.polish_edges = v;
        return 0;
    case OPT_TRIES:
        if (cli_parse_long("metis-tries", arg, 0, 1000, &v))
            return -1;
        r->p.metis_tries = (int)v;
        return 0;
    case OPT_RESTARTS:
        if (cli_parse_long("restarts", arg, 0, 100, &v))
            return -1;
        r->p.restarts = (int)v;
        return 0;
    case OPT_VCYCLES:
        if (cli_parse_long("vcycles", arg, 0, 100, &v))
            return -1;
        r->p.vcycles = (int)v;
        return 0;
    case 'o':
    case OPT_OUT:
        r->out = arg;
        return 0;
    case OPT_COMPARE:
        r->compare = 1;
        return 0;
    }
    return -1;
}

static int parse(int argc, char **argv, run *r, int *done)
{
    int rc = cli_parse_options(argc, argv, "partition", "k:o:", longopts, help_text(), &r->g, local_option, r, done);
    if (rc || *done)
        return rc;
    if (!r->have_k)
        return cli_usage_error("partition ", "-k K is required");
    if (optind != argc - 1)
        return cli_usage_error("partition ", "%s", optind == argc ? "no input FILE given" : "more than one input FILE given");
    r->file = argv[optind];
    return 0;
}

static void print_levels(const partition_result *res)
{
    if (res->restarts > 1)
        fprintf(stderr, "coarsen: partition runs: %d, the lowest cut's levels below\n", res->restarts);
    for (int lv = res->levels; lv >= 0; lv--) {
        const partition_level_report *l = &res->level[lv];
        fprintf(stderr,
                "coarsen: partition level %d: %d vertices, cut projected %.17g, rebalanced %.17g (%lld moves), "
                "refined %.17g (%d rounds, %lld moves; polish %lld moves)\n",
                lv, l->vertices, l->cut_projected, l->cut_rebalanced, (long long)l->st.rebalance_moves,
                l->cut_refined, l->st.rounds, (long long)l->st.moves, (long long)l->st.polish_moves);
    }
    if (res->vcycles > 0)
        fprintf(stderr, "coarsen: partition V-cycles: %d, cut %.17g after them (%lld moves, polish %lld moves)\n",
                res->vcycles, res->cut, (long long)res->vcycle_st.moves, (long long)res->vcycle_st.polish_moves);
}

/* Runs METIS directly on g and prints the comparison with ours (part). */
static int compare_metis(const coarsen_graph *g, const run *r, const int32_t *part, const partition_result *ours,
                         coarsen_error *err)
{
    int32_t *mp = malloc(((size_t)g->n + 1) * sizeof *mp), *relabelled = malloc(((size_t)g->n + 1) * sizeof *mp);
    if (!mp || !relabelled) {
        free(mp);
        free(relabelled);
        return fprintf(stderr, "coarsen: out of memory for the METIS partition\n"), EXIT_NOMEM;
    }
    double t0 = timer_ms();
    int rc = partition_metis(g, r->p.k, r->p.imbalance, r->p.seed, r->p.recursive == PARTITION_INITIAL_RB, mp,
                             err);
    double ms = timer_ms() - t0, imb = 0;
    bip_remap_result rm = {0};
    if (!rc)
        rc = bip_remap(part, mp, g->n, r->g.use_gpu, relabelled, &rm, err);
    if (!rc)
        rc = partition_imbalance(g, mp, r->p.k, &imb, err);
    if (rc) {
        free(mp);
        free(relabelled);
        return cli_fail(err);
    }
    double cut = partition_cut(g, mp);
    printf("%-8s %20s %10s %12s\n", "", "cut", "imbalance", "time_ms");
    printf("%-8s %20.17g %10.4f %12.3f\n", "ours", ours->cut, ours->imbalance, ours->total_ms);
    printf("%-8s %20.17g %10.4f %12.3f\n", "metis", cut, imb, ms);
    printf("cut ratio (ours / metis): %.4f, speedup (metis time / ours): %.2f\n", cut > 0 ? ours->cut / cut : 1.0,
           ours->total_ms > 0 ? ms / ours->total_ms : 0.0);
    printf("agreement after relabelling METIS's parts: %.4f (%lld of %d vertices; before %.4f)\n",
           g->n ? (double)rm.agree_after / g->n : 1.0, (long long)rm.agree_after, g->n,
           g->n ? (double)rm.agree_before / g->n : 1.0);
    free(mp);
    free(relabelled);
    return 0;
}

static int execute(run *r)
{
    coarsen_error err = {0};
    coarsen_graph *g = NULL;
    coarsen_read_report rep;
    cli_device_begin(&r->g, r->file);
    if (cli_graph_loader(r->file, &g, &rep, &err)) /* and the hierarchy by cli_hierarchy_builder: */
        return cli_fail(&err);
    cli_reader_warnings(r->file, &rep, r->g.quiet);
    int status = cli_device_finish(&r->g, g->nnz, NULL);
    if (status) {
        coarsen_graph_free(g);
        return status;
    }
    r->p.seed = r->g.seed;
    r->p.hierarchy.device = (coarsen_device)r->g.device; /* the library applies the same rule */
    r->p.build_hierarchy = cli_hierarchy_builder;        /* coarsen-mpi's across the ranks (cli.h) */
    int32_t *part = malloc(((size_t)g->n + 1) * sizeof *part);
    partition_result res = {0};
    if (!part) {
        fprintf(stderr, "coarsen: out of memory for the partition\n");
        status = EXIT_NOMEM;
    } else if (partition_multilevel(g, &r->p, part, &res, &err)) {
        status = cli_fail(&err);
    } else {
        if (!r->g.quiet)
            print_levels(&res);
        if (r->g.json) {
            printf("{\"k\":%d,\"cut\":%.17g,\"imbalance\":%.6f,\"cap\":%lld,\"levels\":%d,\"coarsen_ms\":%.3f,"
                   "\"initial_ms\":%.3f,\"refine_ms\":%.3f,\"polish_ms\":%.3f,\"vcycle_ms\":%.3f,\"total_ms\":%.3f,"
                   "\"gpu\":%d",
                   r->p.k, res.cut, res.imbalance, (long long)res.cap, res.levels, res.coarsen_ms, res.initial_ms,
                   res.refine_ms, res.polish_ms, res.vcycle_ms, res.total_ms, res.on_gpu);
            if (res.ranks > 0) /* coarsen-mpi: the hierarchy across the ranks (docs/distributed.md) */
                printf(",\"ranks\":%d,\"distributed_levels\":%d", res.ranks, res.distributed_levels);
            printf("}\n");
        } else {
            printf("k %d: cut %.17g, imbalance %.4f (max part weight %lld allowed), %d levels\n"
                   "time: coarsen %.3f ms, initial (METIS) %.3f ms, refine %.3f ms (polish %.3f, V-cycles %.3f), "
                   "total %.3f ms (file I/O excluded)\n",
                   r->p.k, res.cut, res.imbalance, (long long)res.cap, res.levels, res.coarsen_ms, res.initial_ms,
                   res.refine_ms, res.polish_ms, res.vcycle_ms, res.total_ms);
            if (res.ranks > 0)
                printf("ranks: %d (levels 1..%d of the hierarchy built across them, the rest on rank 0)\n",
                       res.ranks, res.distributed_levels);
        }
        if (r->compare) /* before the part file: a failed run leaves none */
            status = compare_metis(g, r, part, &res, &err);
        if (!status && r->out && io_write_ints(r->out, part, g->n, &err))
            status = cli_fail(&err);
    }
    partition_result_free(&res);
    free(part);
    coarsen_graph_free(g);
    return status;
}

int cmd_partition(int argc, char **argv)
{
    run r = {.g = {.device = DEVICE_AUTO, .seed = 1}};
    partition_opts_default(&r.p);
    int done;
    int status = parse(argc, argv, &r, &done);
    if (status || done)
        return status;
    return (status = cli_check_output(r.out)) ? status : execute(&r);
}
