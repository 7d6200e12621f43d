/* cmd_info.c — the `coarsen info` subcommand: reads one graph file and prints
 * its size, weight ranges, degrees, what the reader dropped or merged, the
 * memory footprint of the CSR and the read time; --json for machines. */
#include "cli/cli.h"
#include "core/timer.h"
#include "io/json_text.h"
#include "io/output_file.h"

#include <stdio.h>
#include <string.h>

typedef struct graph_summary {
    int64_t vw_min, vw_max, vw_total;
    double ew_min, ew_max, ew_total;
    int64_t deg_min, deg_max, isolated;
    int64_t bytes;   /* CSR footprint */
} graph_summary;

static void summarise(const coarsen_graph *g, graph_summary *s)
{
    memset(s, 0, sizeof *s);
    s->deg_min = g->n ? INT64_MAX : 0;
    s->vw_min = g->n ? INT64_MAX : 0;
    s->vw_max = g->n ? INT64_MIN : 0;
    for (int32_t u = 0; u < g->n; u++) {
        int64_t d = g->xadj[u + 1] - g->xadj[u];
        s->deg_min = d < s->deg_min ? d : s->deg_min;
        s->deg_max = d > s->deg_max ? d : s->deg_max;
        s->isolated += d == 0;
        s->vw_min = g->vwgt[u] < s->vw_min ? g->vwgt[u] : s->vw_min;
        s->vw_max = g->vwgt[u] > s->vw_max ? g->vwgt[u] : s->vw_max;
        s->vw_total += g->vwgt[u];
    }
    s->ew_min = g->nnz ? g->ewgt[0] : 0;
    s->ew_max = s->ew_min;
    for (int64_t k = 0; k < g->nnz; k++) {
        double w = g->ewgt[k];
        s->ew_min = w < s->ew_min ? w : s->ew_min;
        s->ew_max = w > s->ew_max ? w : s->ew_max;
        s->ew_total += w;
    }
    s->ew_total /= 2; /* every edge is stored twice */
    s->bytes = ((int64_t)g->n + 1) * (int64_t)sizeof *g->xadj + g->nnz * (int64_t)(sizeof *g->adj + sizeof *g->ewgt) +
               (int64_t)g->n * (int64_t)sizeof *g->vwgt;
}

/* The summary as one JSON object on standard output; 0 or the exit status. */
static int print_json(const char *path, const coarsen_graph *g, const coarsen_read_report *r, const graph_summary *s,
                      double ms)
{
    coarsen_error err = {0};
    output_file *f = output_open("-", &err);
    if (!f)
        return cli_fail(&err);
    output_printf(f, "{\"file\": ");
    json_string(f, path);
    output_printf(f, ", \"format\": ");
    json_string(f, r->format);
    output_printf(f, ", \"vertices\": %d, \"edges\": %lld, \"adjacency_entries\": %lld,\n", g->n,
                  (long long)(g->nnz / 2), (long long)g->nnz);
    output_printf(f, " \"vertex_weight\": {\"min\": %lld, \"max\": %lld, \"total\": %lld},\n", (long long)s->vw_min,
                  (long long)s->vw_max, (long long)s->vw_total);
    output_printf(f, " \"edge_weight\": {\"min\": %.17g, \"max\": %.17g, \"total\": %.17g, \"integral\": %s},\n",
                  s->ew_min, s->ew_max, s->ew_total, g->integral_weights ? "true" : "false");
    output_printf(f, " \"degree\": {\"min\": %lld, \"avg\": %.6f, \"max\": %lld}, \"isolated_vertices\": %lld,\n",
                  (long long)s->deg_min, g->n ? (double)g->nnz / g->n : 0.0, (long long)s->deg_max,
                  (long long)s->isolated);
    output_printf(f, " \"reader\": ");
    json_read_report(f, r);
    output_printf(f, ",\n \"csr_bytes\": %lld, \"read_ms\": %.3f}\n", (long long)s->bytes, ms);
    return output_commit(f, &err) ? cli_fail(&err) : 0;
}

static void print_text(const char *path, const coarsen_graph *g, const coarsen_read_report *r,
                       const graph_summary *s, double ms)
{
    printf("file              %s\n", path);
    printf("format            %s\n", r->format);
    printf("vertices          %d\n", g->n);
    printf("edges             %lld (%lld adjacency entries)\n", (long long)(g->nnz / 2), (long long)g->nnz);
    printf("vertex weights    min %lld, max %lld, total %lld\n", (long long)s->vw_min, (long long)s->vw_max,
           (long long)s->vw_total);
    printf("edge weights      min %.17g, max %.17g, total %.17g (%s)\n", s->ew_min, s->ew_max, s->ew_total,
           g->integral_weights ? "integers" : "reals");
    printf("degree            min %lld, avg %.3f, max %lld\n", (long long)s->deg_min,
           g->n ? (double)g->nnz / g->n : 0.0, (long long)s->deg_max);
    printf("isolated vertices %lld\n", (long long)s->isolated);
    printf("reader            %lld entries stored; dropped %lld diagonal/self-loop entries; merged %lld duplicates; "
           "%lld zero-weight edges kept\n",
           (long long)r->entries, (long long)r->diagonal_dropped, (long long)r->duplicates_merged,
           (long long)r->zero_weight_edges);
    if (r->complex_magnitude)
        printf("                  complex values replaced by their modulus |z|\n");
    if (r->extra_constraints)
        printf("                  kept the first of %d vertex weight constraints\n", r->extra_constraints + 1);
    printf("text              %lld bytes (uncompressed)\n", (long long)r->bytes);
    printf("CSR memory        %lld bytes (%.1f MiB)\n", (long long)s->bytes, (double)s->bytes / 1048576.0);
    printf("read time         %.1f ms\n", ms);
}

static const char help[] =
    "Usage: coarsen info [OPTIONS] FILE\n"
    "Reads a graph (METIS, Matrix Market or ParHIP binary, detected by content; gzip too;\n"
    "- for standard input)\n"
    "and prints its size, weight ranges and totals, degrees, isolated vertices, what the\n"
    "reader dropped or merged, the memory footprint of its CSR form and the read time.\n"
    "Reading is host work: --device is accepted and has no effect.\n\n";

/* info has no options of its own. */
static int no_local_option(int opt, const char *arg, void *ctx)
{
    (void)opt, (void)arg, (void)ctx;
    return -1;
}

int cmd_info(int argc, char **argv)
{
    static const struct option longopts[] = {CLI_GLOBAL_LONGOPTS, {0, 0, 0, 0}};
    cli_globals g = {.device = DEVICE_CPU, .seed = 1};
    int done;
    int rc = cli_parse_options(argc, argv, "info", "", longopts, help, &g, no_local_option, NULL, &done);
    if (rc || done)
        return rc;
    if (argc - optind != 1)
        return cli_usage_error("info ", "info needs exactly one FILE");
    g.device = DEVICE_CPU; /* reading is host work; --device is accepted and ignored */
    rc = cli_start_device(&g);
    if (rc)
        return rc;
    const char *path = argv[optind];
    coarsen_graph *graph = NULL;
    coarsen_read_report report;
    coarsen_error err = {0};
    double t0 = timer_ms();
    if (coarsen_graph_load(path, &graph, &report, &err))
        return cli_fail(&err);
    double ms = timer_ms() - t0;
    graph_summary s;
    summarise(graph, &s);
    rc = 0;
    if (g.json)
        rc = print_json(path, graph, &report, &s, ms);
    else
        print_text(path, graph, &report, &s, ms);
    coarsen_graph_free(graph);
    return rc;
}
