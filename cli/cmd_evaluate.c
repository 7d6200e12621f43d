/* cmd_evaluate.c — the `coarsen evaluate GRAPH PART` subcommand: the
 * quality figures of a partition, as KaHIP's evaluator prints them (edge
 * cut, balance, boundary vertices, communication volume) and per part its
 * vertices, weight, boundary, neighbouring parts, communication volume and
 * connected pieces; text or --json. */
#include "cli/cli.h"
#include "core/error.h"
#include "io/line_values.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char help[] =
    "Usage: coarsen evaluate [OPTIONS] GRAPH PART\n"
    "Reads GRAPH and a partition of it (PART: one 0-based part id per vertex and line,\n"
    "METIS's format; gzip allowed) and prints, as KaHIP's evaluator does:\n"
    "  cut            total weight of the edges between parts\n"
    "  balance        heaviest part / (total vertex weight / k), 1 = perfect\n"
    "  boundary       vertices with a neighbour in another part\n"
    "  comm volume    sum over vertices of the number of other parts among their neighbours\n"
    "                 (total, and the largest of one part)\n"
    "and per part: vertices, weight, boundary vertices, neighbouring parts (its degree in\n"
    "the quotient graph), communication volume and connected pieces (1: the part is\n"
    "connected; 0: empty).\n\n"
    "Options:\n"
    "  -k K                   the number of parts (default: the largest id + 1; a part\n"
    "                         without vertices is reported as empty)\n\n";

typedef struct part_figures {
    int64_t vertices, weight, boundary, neighbours, comm_volume, pieces;
} part_figures;

typedef struct evaluation {
    int32_t k;
    double cut;
    int64_t total_weight, boundary, comm_volume, max_comm_volume, quotient_edges;
    double balance;
    part_figures *part;
} evaluation;

static int compare_int64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Per vertex: the distinct other parts among its neighbours (seen[] marks
 * parts by the last vertex that saw them); per part: the distinct parts
 * next to it (pair list sorted and made unique). */
static int evaluate(const coarsen_graph *g, const int32_t *part, int32_t k, evaluation *e, coarsen_error *err)
{
    memset(e, 0, sizeof *e);
    e->k = k;
    e->part = xcalloc((size_t)k, sizeof *e->part, "part figures", err);
    int64_t *seen = xmalloc((size_t)k * sizeof *seen, "part marks", err);
    int64_t *pairs = xmalloc(((size_t)g->nnz + 1) * sizeof *pairs, "part pairs", err);
    int32_t *queue = xmalloc(((size_t)g->n + 1) * sizeof *queue, "search queue", err);
    uint8_t *done = xcalloc((size_t)g->n + 1, 1, "search marks", err);
    int rc = e->part && seen && pairs && queue && done ? COARSEN_OK : COARSEN_ERR_NOMEM;
    int64_t npairs = 0;
    for (int32_t p = 0; !rc && p < k; p++)
        seen[p] = -1;
    for (int32_t v = 0; !rc && v < g->n; v++) {
        part_figures *f = &e->part[part[v]];
        f->vertices++;
        f->weight += g->vwgt[v];
        e->total_weight += g->vwgt[v];
        int64_t others = 0;
        for (int64_t i = g->xadj[v]; i < g->xadj[v + 1]; i++) {
            int32_t q = part[g->adj[i]];
            if (q != part[v] && g->adj[i] > v)
                e->cut += g->ewgt[i];
            if (q != part[v] && seen[q] != v) {
                seen[q] = v;
                others++;
                pairs[npairs++] = (int64_t)part[v] * k + q;
            }
        }
        f->boundary += others > 0;
        f->comm_volume += others;
    }
    for (int32_t s = 0; !rc && s < g->n; s++) { /* connected pieces of each part */
        if (done[s])
            continue;
        e->part[part[s]].pieces++;
        int64_t head = 0, tail = 0;
        queue[tail++] = s;
        done[s] = 1;
        while (head < tail) {
            int32_t v = queue[head++];
            for (int64_t i = g->xadj[v]; i < g->xadj[v + 1]; i++)
                if (!done[g->adj[i]] && part[g->adj[i]] == part[s]) {
                    done[g->adj[i]] = 1;
                    queue[tail++] = g->adj[i];
                }
        }
    }
    if (!rc) {
        qsort(pairs, (size_t)npairs, sizeof *pairs, compare_int64);
        for (int64_t i = 0; i < npairs; i++)
            if (!i || pairs[i] != pairs[i - 1])
                e->part[pairs[i] / k].neighbours++, e->quotient_edges++;
        e->quotient_edges /= 2;
        int64_t heaviest = 0;
        for (int32_t p = 0; p < k; p++) {
            const part_figures *f = &e->part[p];
            e->boundary += f->boundary;
            e->comm_volume += f->comm_volume;
            e->max_comm_volume = f->comm_volume > e->max_comm_volume ? f->comm_volume : e->max_comm_volume;
            heaviest = f->weight > heaviest ? f->weight : heaviest;
        }
        e->balance = e->total_weight ? (double)heaviest * k / (double)e->total_weight : 1.0;
    }
    free(seen);
    free(pairs);
    free(queue);
    free(done);
    return rc;
}

static void print_text(const evaluation *e)
{
    printf("cut                %.17g\n", e->cut);
    printf("balance            %.6f\n", e->balance);
    printf("k                  %d\n", e->k);
    printf("total weight       %lld\n", (long long)e->total_weight);
    printf("boundary vertices  %lld\n", (long long)e->boundary);
    printf("comm volume        %lld (largest of one part %lld)\n", (long long)e->comm_volume,
           (long long)e->max_comm_volume);
    printf("quotient edges     %lld\n", (long long)e->quotient_edges);
    printf("%6s %12s %14s %10s %10s %12s %7s\n", "part", "vertices", "weight", "boundary", "neighbours",
           "comm_volume", "pieces");
    for (int32_t p = 0; p < e->k; p++) {
        const part_figures *f = &e->part[p];
        printf("%6d %12lld %14lld %10lld %10lld %12lld %7lld\n", p, (long long)f->vertices, (long long)f->weight,
               (long long)f->boundary, (long long)f->neighbours, (long long)f->comm_volume, (long long)f->pieces);
    }
}

static void print_json(const evaluation *e)
{
    printf("{\"cut\": %.17g, \"balance\": %.6f, \"k\": %d, \"total_weight\": %lld, \"boundary\": %lld, "
           "\"comm_volume\": %lld, \"max_comm_volume\": %lld, \"quotient_edges\": %lld,\n \"parts\": [",
           e->cut, e->balance, e->k, (long long)e->total_weight, (long long)e->boundary, (long long)e->comm_volume,
           (long long)e->max_comm_volume, (long long)e->quotient_edges);
    for (int32_t p = 0; p < e->k; p++) {
        const part_figures *f = &e->part[p];
        printf("%s{\"vertices\": %lld, \"weight\": %lld, \"boundary\": %lld, \"neighbours\": %lld, "
               "\"comm_volume\": %lld, \"pieces\": %lld}",
               p ? ",\n  " : "", (long long)f->vertices, (long long)f->weight, (long long)f->boundary,
               (long long)f->neighbours, (long long)f->comm_volume, (long long)f->pieces);
    }
    printf("]}\n");
}

static int local_option(int opt, const char *arg, void *ctx)
{
    long long v;
    if (opt != 'k' || cli_parse_long("k", arg, 1, INT32_MAX, &v))
        return -1;
    *(int32_t *)ctx = (int32_t)v;
    return 0;
}

int cmd_evaluate(int argc, char **argv)
{
    static const struct option longopts[] = {CLI_GLOBAL_LONGOPTS, {0, 0, 0, 0}};
    cli_globals glob = {.device = DEVICE_CPU, .seed = 1};
    int32_t k = 0;
    int done;
    int rc = cli_parse_options(argc, argv, "evaluate", "k:", longopts, help, &glob, local_option, &k, &done);
    if (rc || done)
        return rc;
    if (argc - optind != 2)
        return cli_usage_error("evaluate ", "evaluate needs GRAPH and PART");
    const char *path = argv[optind], *part_path = argv[optind + 1];
    coarsen_error err = {0};
    coarsen_graph *g = NULL;
    int32_t *part = NULL;
    int64_t count = 0;
    evaluation e = {0};
    coarsen_read_report rep;
    rc = coarsen_graph_load(path, &g, &rep, &err);
    if (!rc)
        cli_reader_warnings(path, &rep, glob.quiet);
    if (!rc)
        rc = line_values_read_ints(part_path, 0, k ? k - 1 : INT32_MAX - 1, &part, &count, &err);
    if (!rc && count != g->n)
        rc = error_set(&err, COARSEN_ERR_INPUT, "%s has %lld lines, but %s has %d vertices", part_path,
                       (long long)count, path, g->n);
    if (!rc && !k)
        for (int32_t v = 0; v < g->n; v++)
            k = part[v] >= k ? part[v] + 1 : k;
    if (!rc)
        rc = evaluate(g, part, k, &e, &err);
    if (!rc && glob.json)
        print_json(&e);
    else if (!rc)
        print_text(&e);
    free(e.part);
    free(part);
    coarsen_graph_free(g);
    return rc ? cli_fail(&err) : 0;
}
