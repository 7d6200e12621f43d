/* cmd_bipartite.c — the `coarsen bipartite` subcommand: maximum-cardinality
 * matching (push-relabel, or Hopcroft–Karp) or maximum-weight assignment
 * (auction) of a Matrix Market matrix's bipartite graph, any shape; writes
 * one line per row (the 0-based column or -1) and prints the structural rank
 * or the total benefit with its optimality certificate. */
#include "bipartite/assignment.h"
#include "bipartite/cardinality.h"
#include "bipartite/transversal.h"
#include "cli/cli.h"
#include "core/error.h"
#include "core/timer.h"
#include "io/output_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char help[] =
    "Usage: coarsen bipartite [--algo pr|hk|auction] [OPTIONS] FILE [-o ASSIGN]\n"
    "Matches the rows and columns of a sparse matrix (Matrix Market, any shape; the\n"
    "pattern, explicit zeros included, gives the edges; entry values are benefits).\n\n"
    "Algorithms:\n"
    "  pr        push-relabel maximum-cardinality matching (G-PR on the GPU); default\n"
    "  hk        Hopcroft-Karp on the CPU (the reference)\n"
    "  auction   maximum-weight assignment by the auction with eps-scaling: among the\n"
    "            matchings of maximum cardinality, one of maximum total value\n\n"
    "Options:\n"
    "  -o, --output FILE      one line per row: its 0-based column or -1 (.gz: gzip)\n"
    "  -a, --algo A           pr | hk | auction (default pr)\n"
    "      --init I           initial matching for pr and hk: none | greedy | ks (Karp-Sipser);\n"
    "                         default ks on the CPU, none for G-PR on the GPU (faster there)\n"
    "      --relabel-k K      pr: global relabel every K * (deepest BFS level) push loops\n"
    "                         on the GPU, every K * (rows + cols) pushes on the CPU (default 0.7)\n"
    "      --eps-factor F     auction: eps is divided by F each phase (default 8)\n"
    "      --transversal T    instead: a column permutation putting a maximum transversal\n"
    "                         on the diagonal, T = pr (structural) or weighted (largest\n"
    "                         product of |a_ij|, auction on log2|a_ij|); -o gets one line\n"
    "                         per position: the column placed there\n"
    "Prints the structural rank (pr, hk) or the assigned rows, the total benefit and\n"
    "whether it is proven optimal (auction: integer values and a closed duality gap).\n\n";

enum { OPT_INIT = OPT_FIRST_LOCAL, OPT_RELABEL_K, OPT_EPS_FACTOR, OPT_TRANSVERSAL };

typedef enum { ALGO_PR, ALGO_HK, ALGO_AUCTION } bip_algo;
static const char *const algo_names[] = {"pr", "hk", "auction"};

static int parse_algo(const char *s, bip_algo *a)
{
    for (int k = 0; k < 3; k++)
        if (!strcmp(s, algo_names[k])) {
            *a = (bip_algo)k;
            return 0;
        }
    fprintf(stderr, "coarsen: --algo: '%s' is not pr, hk or auction\n", s);
    return -1;
}

static int parse_init(const char *s, bip_init *init)
{
    if (bip_init_from_name(s, init)) {
        fprintf(stderr, "coarsen: --init: '%s' is not none, greedy or ks\n", s);
        return -1;
    }
    return 0;
}

/* Cardinality matching; fills row_match and *rank. */
static int run_matching(const bip_graph *g, bip_algo algo, bip_init init, const bip_pr_opts *pr, int use_gpu,
                        int32_t *row_match, int64_t *rank, bip_pr_stats *st, coarsen_error *err)
{
    int32_t *col_match = xmalloc(((size_t)g->cols + 1) * sizeof *col_match, "column matches", err);
    if (!col_match)
        return COARSEN_ERR_NOMEM;
    int rc = bip_initial_matching(g, init, row_match, col_match, err);
    if (!rc) {
        if (algo == ALGO_HK)
            rc = bip_hopcroft_karp(g, row_match, col_match, err);
        else if (use_gpu)
            rc = bip_push_relabel_gpu(g, pr, row_match, col_match, st, err);
        else
            rc = bip_push_relabel_cpu(g, pr, row_match, col_match, st, err);
    }
    if (!rc)
        rc = bip_matching_check(g, row_match, col_match, rank, err);
    free(col_match);
    return rc;
}

/* --transversal: the column permutation, its diagonal counts, the file. */
static int run_transversal(const bip_graph *g, bip_transversal_kind kind, int use_gpu, const char *output, int json,
                           coarsen_error *err)
{
    int32_t *perm = xmalloc(((size_t)g->cols + 1) * sizeof *perm, "column permutation", err);
    if (!perm)
        return COARSEN_ERR_NOMEM;
    bip_transversal_result r;
    int rc = bip_transversal(g, kind, use_gpu, perm, &r, err);
    if (!rc && output)
        rc = io_write_ints(output, perm, g->cols, err);
    free(perm);
    if (rc)
        return rc;
    const char *name = kind == BIP_TRANSVERSAL_PR ? "pr" : "weighted";
    if (json)
        printf("{\"rows\": %d, \"cols\": %d, \"transversal\": \"%s\", \"structural_rank\": %lld, "
               "\"diagonal_before\": %lld, \"diagonal_after\": %lld, \"log2_product\": %.17g, "
               "\"proven_optimal\": %s}\n",
               g->rows, g->cols, name, (long long)r.rank, (long long)r.diag_before, (long long)r.diag_after,
               r.log2_product, r.proven_optimal ? "true" : "false");
    else {
        printf("matrix: %d rows, %d columns, %lld entries\nstructural rank: %lld\n"
               "diagonal entries: %lld before, %lld after (%+lld)\n",
               g->rows, g->cols, (long long)g->nnz, (long long)r.rank, (long long)r.diag_before,
               (long long)r.diag_after, (long long)(r.diag_after - r.diag_before));
        if (kind == BIP_TRANSVERSAL_WEIGHTED)
            printf("sum of log2|a| on the diagonal: %.17g (%s)\n", r.log2_product,
                   r.proven_optimal ? "proven optimal" : "optimal for the values rounded to the auction's grid");
    }
    return COARSEN_OK;
}

typedef struct bip_args {
    const char *output;
    bip_algo algo;
    bip_init init;
    int init_given;
    bip_pr_opts pr;
    bip_auction_opts au;
    int transversal; /* a bip_transversal_kind when --transversal is given, else -1 */
} bip_args;

/* Applies one option of this command; 0, or -1 after printing one line. */
static int local_option(int opt, const char *arg, void *ctx)
{
    bip_args *a = ctx;
    long long v;
    switch (opt) {
    case 'o':
        a->output = arg;
        return 0;
    case 'a':
        return parse_algo(arg, &a->algo);
    case OPT_INIT:
        a->init_given = 1;
        return parse_init(arg, &a->init);
    case OPT_RELABEL_K:
        return cli_parse_double("relabel-k", arg, 1e-3, 1e6, &a->pr.relabel_k);
    case OPT_TRANSVERSAL:
        if (strcmp(arg, "pr") && strcmp(arg, "weighted"))
            return fprintf(stderr, "coarsen: --transversal: '%s' is not pr or weighted\n", arg), -1;
        a->transversal = !strcmp(arg, "pr") ? BIP_TRANSVERSAL_PR : BIP_TRANSVERSAL_WEIGHTED;
        return 0;
    case OPT_EPS_FACTOR:
        if (cli_parse_long("eps-factor", arg, 2, 1 << 20, &v))
            return -1;
        a->au.eps_factor = (int)v;
        return 0;
    }
    return -1;
}

int cmd_bipartite(int argc, char **argv)
{
    static const struct option longopts[] = {
        CLI_GLOBAL_LONGOPTS,
        {"output", required_argument, 0, 'o'},
        {"algo", required_argument, 0, 'a'},
        {"init", required_argument, 0, OPT_INIT},
        {"relabel-k", required_argument, 0, OPT_RELABEL_K},
        {"eps-factor", required_argument, 0, OPT_EPS_FACTOR},
        {"transversal", required_argument, 0, OPT_TRANSVERSAL},
        {0, 0, 0, 0},
    };
    cli_globals glob = {.seed = 1};
    bip_args a = {.algo = ALGO_PR,
                  .init = BIP_INIT_KARP_SIPSER,
                  .pr = {.relabel_k = 0.7},
                  .au = {.eps_factor = 4},
                  .transversal = -1};
    int done;
    int rc = cli_parse_options(argc, argv, "bipartite", "o:a:", longopts, help, &glob, local_option, &a, &done);
    if (rc || done)
        return rc;
    const char *output = a.output;
    bip_algo algo = a.algo;
    bip_init init = a.init;
    int transversal = a.transversal;
    if (optind >= argc)
        return cli_usage_error("bipartite ", "bipartite: which matrix? (a Matrix Market FILE)");
    if (optind + 1 < argc)
        return cli_usage_error("bipartite ", "bipartite: unexpected argument '%s'", argv[optind + 1]);
    const char *path = argv[optind];
    if (algo == ALGO_HK && glob.device == DEVICE_GPU)
        return cli_usage_error("bipartite ", "bipartite: --algo hk runs on the CPU only (--device gpu given)");
    if ((rc = cli_check_output(output)))
        return rc;
    rc = cli_start_device(&glob);
    if (rc)
        return rc;
    int use_gpu = glob.use_gpu && algo != ALGO_HK;
    if (!a.init_given)
        init = bip_default_init(use_gpu);

    coarsen_error err = {0};
    bip_graph *g = NULL;
    double t0 = timer_ms();
    if (bip_load(path, &g, &err))
        return cli_fail(&err);
    double t1 = timer_ms();
    if (transversal >= 0) {
        rc = run_transversal(g, (bip_transversal_kind)transversal, use_gpu, output, glob.json, &err);
        bip_free(g);
        return rc ? cli_fail(&err) : 0;
    }
    int32_t *row_match = xmalloc(((size_t)g->rows + 1) * sizeof *row_match, "row matches", &err);
    if (!row_match) {
        bip_free(g);
        return cli_fail(&err);
    }
    int64_t rank = 0;
    bip_pr_stats st = {0};
    bip_auction_result res = {0};
    if (algo == ALGO_AUCTION) {
        rc = use_gpu ? bip_auction_gpu(g, &a.au, row_match, &res, &err) : bip_auction_cpu(g, &a.au, row_match, &res, &err);
        rank = res.cardinality;
    } else
        rc = run_matching(g, algo, init, &a.pr, use_gpu, row_match, &rank, &st, &err);
    double t2 = timer_ms();
    if (!rc && output)
        rc = io_write_ints(output, row_match, g->rows, &err);
    free(row_match);
    if (rc) {
        bip_free(g);
        return cli_fail(&err);
    }
    const char *where = use_gpu ? "gpu" : "cpu";
    if (!glob.quiet)
        fprintf(stderr, "coarsen: bipartite %s on %s: %.1f ms reading, %.1f ms matching%s%s\n", algo_names[algo], where,
                t1 - t0, t2 - t1, output ? ", written to " : "", output ? output : "");
    if (glob.json) {
        printf("{\"rows\": %d, \"cols\": %d, \"entries\": %lld, \"algo\": \"%s\", \"device\": \"%s\", "
               "\"cardinality\": %lld, \"match_ms\": %.3f",
               g->rows, g->cols, (long long)g->nnz, algo_names[algo], where, (long long)rank, t2 - t1);
        if (algo == ALGO_AUCTION)
            printf(", \"total\": %.17g, \"perfect\": %s, \"proven_optimal\": %s, \"exact_benefits\": %s, "
                   "\"phases\": %lld, \"rounds\": %lld",
                   res.total, res.perfect ? "true" : "false", res.proven_optimal ? "true" : "false",
                   res.exact_benefits ? "true" : "false", (long long)res.phases, (long long)res.rounds);
        printf("}\n");
    } else {
        printf("matrix: %d rows, %d columns, %lld entries\n", g->rows, g->cols, (long long)g->nnz);
        if (algo == ALGO_AUCTION) {
            printf("assigned: %lld of %d rows (%s)\n", (long long)rank, g->rows,
                   res.perfect ? "perfect assignment"
                               : "no perfect assignment exists: maximum cardinality, then maximum value");
            printf("total benefit: %.17g\n", res.total);
            if (res.proven_optimal)
                printf("proven optimal: yes (integer values, duality gap %lld < %d scaled units)\n",
                       (long long)res.gap, g->rows + 1);
            else if (!res.exact_benefits)
                printf("proven optimal: no (non-integer values rounded to multiples of %.6g; optimal for those)\n",
                       res.quantum);
            else
                printf("proven optimal: no (duality gap %lld)\n", (long long)res.gap);
        } else
            printf("structural rank: %lld (maximum matching, %s on %s)\n", (long long)rank, algo_names[algo], where);
    }
    bip_free(g);
    return 0;
}
