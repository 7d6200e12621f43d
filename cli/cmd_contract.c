/* cmd_contract.c — the `coarsen contract GRAPH CLUSTERS -o OUT`
 * subcommand: contracts a graph by a clustering the user gives (one cluster
 * id per vertex), through the pipeline's contraction (contract/contract.h),
 * and writes the coarse graph in the format OUT's name (or --format) says. */
#include "cli/cli.h"
#include "contract/contract.h"
#include "core/error.h"
#include "io/graph_format.h"
#include "io/line_values.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char help[] =
    "Usage: coarsen contract [OPTIONS] GRAPH CLUSTERS -o OUT\n"
    "Contracts GRAPH by a clustering: CLUSTERS holds one cluster id (an integer >= 0) per\n"
    "vertex and line. Each cluster becomes one vertex weighing the sum of its members'\n"
    "weights; the edges between two clusters become one edge weighing their sum; edges\n"
    "inside a cluster are dropped (as every level of the pipeline is built). Coarse vertex\n"
    "c is the c-th smallest cluster id used, so ids 0..C-1 without gaps keep their number.\n"
    "OUT's format follows its name as for convert (.graph, .mtx, .parhip; .gz compresses).\n\n"
    "Options:\n"
    "  -o, --output OUT         the contracted graph (required)\n"
    "  --format metis|mtx|parhip  the output format, whatever OUT's name\n"
    CLI_WEIGHT_HELP "\n";

enum { OPT_FORMAT = OPT_FIRST_LOCAL };

typedef struct contract_args {
    const char *output;
    int have_format;
    coarsen_format format;
    double weight_scale;
} contract_args;

static int local_option(int opt, const char *arg, void *ctx)
{
    contract_args *a = ctx;
    switch (opt) {
    case 'o':
        a->output = arg;
        return 0;
    case OPT_FORMAT:
        if (graph_format_parse(arg, &a->format))
            return fprintf(stderr, "coarsen: --format: '%s' is not metis, mtx or parhip\n", arg), -1;
        a->have_format = 1;
        return 0;
    }
    return cli_weight_option(opt, arg, &a->weight_scale) == 1 ? 0 : -1;
}

static int compare_int32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* Renumbers the cluster ids densely, keeping their order: id -> its rank
 * among the ids used (by the sorted distinct ids, whatever their size).
 * *nc gets the number of clusters. */
static int dense_ids(int32_t n, int32_t *id, int32_t *nc, coarsen_error *err)
{
    int32_t *used = xmalloc(((size_t)n + 1) * sizeof *used, "cluster numbers", err);
    if (!used)
        return COARSEN_ERR_NOMEM;
    memcpy(used, id, (size_t)n * sizeof *used);
    qsort(used, (size_t)n, sizeof *used, compare_int32);
    int32_t count = 0;
    for (int32_t v = 0; v < n; v++)
        if (!v || used[v] != used[count - 1])
            used[count++] = used[v];
    for (int32_t v = 0; v < n; v++)
        id[v] = (int32_t)((int32_t *)bsearch(&id[v], used, (size_t)count, sizeof *used, compare_int32) - used);
    free(used);
    *nc = count;
    return COARSEN_OK;
}

int cmd_contract(int argc, char **argv)
{
    static const struct option longopts[] = {
        CLI_GLOBAL_LONGOPTS,
        {"output", required_argument, 0, 'o'},
        {"format", required_argument, 0, OPT_FORMAT},
        CLI_WEIGHT_LONGOPTS,
        {0, 0, 0, 0},
    };
    cli_globals glob = {.device = DEVICE_CPU, .seed = 1};
    contract_args a = {0};
    int done;
    int rc = cli_parse_options(argc, argv, "contract", "o:", longopts, help, &glob, local_option, &a, &done);
    if (rc || done)
        return rc;
    if (argc - optind != 2)
        return cli_usage_error("contract ", "contract needs GRAPH and CLUSTERS");
    if (!a.output)
        return cli_usage_error("contract ", "no output file (-o OUT)");
    if (!a.have_format && graph_format_from_name(a.output, &a.format))
        return cli_usage_error("contract ", "cannot tell the output format from '%s': name it .graph, .mtx or "
                                            ".parhip (.gz allowed), or give --format", a.output);
    if ((rc = cli_check_output(a.output)))
        return rc;
    const char *path = argv[optind], *clusters = argv[optind + 1];
    coarsen_error err = {0};
    coarsen_graph *g = NULL, *c = NULL;
    coarsen_read_report rep;
    int32_t *id = NULL, nc = 0;
    int64_t count = 0;
    if (glob.threads > 0) /* contraction runs on the CPU: --device has no effect */
        omp_set_num_threads(glob.threads);
    rc = coarsen_graph_load(path, &g, &rep, &err);
    if (!rc)
        cli_reader_warnings(path, &rep, glob.quiet);
    if (!rc)
        rc = line_values_read_ints(clusters, 0, INT32_MAX - 1, &id, &count, &err);
    if (!rc && count != g->n)
        rc = error_set(&err, COARSEN_ERR_INPUT, "%s has %lld lines, but %s has %d vertices", clusters,
                       (long long)count, path, g->n);
    if (!rc)
        rc = dense_ids(g->n, id, &nc, &err);
    if (!rc)
        rc = contract_cpu(g, id, nc, &c, &err);
    if (!rc && a.format == COARSEN_FORMAT_MTX && !glob.quiet)
        fprintf(stderr, "coarsen: warning: %s: Matrix Market has no vertex weights; the clusters' weights are "
                        "dropped\n", a.output);
    if (!rc && (rc = cli_weight_scale_resolve(c, &a.weight_scale, glob.quiet)))
        goto resolved; /* the error is printed */
    if (!rc)
        rc = coarsen_graph_write(c, a.output, a.format, a.weight_scale, &err);
    if (!rc && !glob.quiet)
        fprintf(stderr, "coarsen: contract: %d vertices, %lld edges into %d clusters, %lld edges, written to %s\n",
                g->n, (long long)(g->nnz / 2), c->n, (long long)(c->nnz / 2), a.output);
    rc = rc ? cli_fail(&err) : 0;
resolved:
    free(id);
    coarsen_graph_free(g);
    coarsen_graph_free(c);
    return rc;
}
