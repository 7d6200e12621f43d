/* cmd_convert.c — the `coarsen convert IN OUT` subcommand: reads a graph in
 * any format the library reads and writes it in the format OUT's extension
 * (or --format) names, with a one-line summary on stderr. */
#include "cli/cli.h"
#include "core/timer.h"
#include "io/graph_format.h"
#include "io/parhip_write.h"

#include <stdio.h>
#include <string.h>

static const char help[] =
    "Usage: coarsen convert [OPTIONS] IN OUT\n"
    "Reads the graph IN (METIS, Matrix Market or ParHIP binary; gzip detected by content;\n"
    "- for standard input) and writes it as OUT, in the format OUT's extension names:\n"
    ".graph or .metis: METIS; .mtx: Matrix Market; .parhip or .bgf: ParHIP binary (KaHIP's\n"
    "ParHIP and KaMinPar). A final .gz compresses. OUT - writes standard output (needs\n"
    "--format). OUT is written under a temporary name and renamed when complete.\n\n"
    "Options:\n"
    "  --format metis|mtx|parhip  output format, whatever OUT's name\n"
    CLI_WEIGHT_HELP
    "                           (without either, real weights are refused there; mtx keeps them)\n"
    "  --narrow                 ParHIP output with 32-bit ids, and 32-bit offsets and weights\n"
    "                           where they fit: half the size, read by every KaMinPar build but\n"
    "                           not by KaHIP's ParHIP (default: 64-bit words, read by both)\n\n"
    "A summary line goes to stderr unless --quiet. Matrix Market has no vertex weights:\n"
    "converting a graph with vertex weights to .mtx drops them, with a warning.\n\n";

enum { OPT_FORMAT = OPT_FIRST_LOCAL, OPT_NARROW };

static const struct option longopts[] = {
    CLI_GLOBAL_LONGOPTS,
    {"format", required_argument, 0, OPT_FORMAT},
    CLI_WEIGHT_LONGOPTS,
    {"narrow", no_argument, 0, OPT_NARROW},
    {0, 0, 0, 0},
};

typedef struct run {
    cli_globals g;
    int have_format, narrow;
    coarsen_format format;
    double weight_scale;
} run;

static int local_option(int opt, const char *arg, void *ctx)
{
    run *r = ctx;
    switch (opt) {
    case OPT_FORMAT:
        if (graph_format_parse(arg, &r->format))
            return fprintf(stderr, "coarsen: --format: '%s' is not metis, mtx or parhip\n", arg), -1;
        r->have_format = 1;
        return 0;
    case OPT_NARROW:
        r->narrow = 1;
        return 0;
    }
    return cli_weight_option(opt, arg, &r->weight_scale) == 1 ? 0 : -1;
}

static int has_vertex_weights(const coarsen_graph *g)
{
    for (int32_t u = 0; u < g->n; u++)
        if (g->vwgt[u] != 1)
            return 1;
    return 0;
}

int cmd_convert(int argc, char **argv)
{
    run r = {.g = {.device = DEVICE_CPU, .seed = 1}};
    int done;
    int rc = cli_parse_options(argc, argv, "convert", "", longopts, help, &r.g, local_option, &r, &done);
    if (rc || done)
        return rc;
    if (argc - optind != 2)
        return cli_usage_error("convert ", "convert needs IN and OUT");
    const char *in = argv[optind], *out = argv[optind + 1];
    if (!r.have_format && graph_format_from_name(out, &r.format))
        return cli_usage_error("convert ", "cannot tell the output format from '%s': name it .graph, .mtx or "
                                           ".parhip (.gz allowed), or give --format", out);
    if (r.narrow && r.format != COARSEN_FORMAT_PARHIP)
        return cli_usage_error("convert ", "--narrow applies to parhip output only");
    if ((rc = cli_check_output(out)))
        return rc;
    r.g.device = DEVICE_CPU; /* conversion is host work; --device is accepted and ignored */
    rc = cli_start_device(&r.g);
    if (rc)
        return rc;
    coarsen_graph *graph = NULL;
    coarsen_read_report report;
    coarsen_error err = {0};
    double t0 = timer_ms();
    if (coarsen_graph_load(in, &graph, &report, &err))
        return cli_fail(&err);
    double t1 = timer_ms();
    cli_reader_warnings(in, &report, r.g.quiet);
    if (r.format == COARSEN_FORMAT_MTX && !r.g.quiet && has_vertex_weights(graph))
        fprintf(stderr, "coarsen: warning: %s: Matrix Market has no vertex weights; those of %s are dropped\n", out,
                in);
    if ((rc = cli_weight_scale_resolve(graph, &r.weight_scale, r.g.quiet))) {
        coarsen_graph_free(graph);
        return rc;
    }
    rc = r.format == COARSEN_FORMAT_PARHIP
             ? parhip_write_graph(graph, out, r.weight_scale, r.narrow ? PARHIP_NARROW : PARHIP_WIDE, &err)
             : coarsen_graph_write(graph, out, r.format, r.weight_scale, &err);
    double t2 = timer_ms();
    if (!rc && !r.g.quiet)
        fprintf(stderr, "coarsen: converted %s (%s, %d vertices, %lld edges) to %s (%s) in %.1f ms (read %.1f, write %.1f)\n",
                in, report.format, graph->n, (long long)(graph->nnz / 2), out, graph_format_word(r.format), t2 - t0,
                t1 - t0, t2 - t1);
    coarsen_graph_free(graph);
    return rc ? cli_fail(&err) : 0;
}
