/* test_cli_hierarchy_tools.c — the tools that use a hierarchy and its
 * partitions (run as child processes, COARSEN_PROG), held to independent
 * oracles: `project` equals the maps composed by hand from the folder's
 * files, for any pair of levels, copies each value's text verbatim and keeps
 * a partition's cut (recounted on both levels); `evaluate` prints the cut,
 * part weights, boundary, quotient degrees and connected pieces recounted
 * here; `contract` writes the graph of a dense recount of a clustering with
 * gapped ids; wrong line counts and missing folders exit with the documented
 * status and one line. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/support/cli_run.h"
#include "tests/support/contract_oracles.h"
#include "tests/support/io_files.h"
#include "tests/support/test_support.h"


/* n integers, one per line, from path (asserts the count). */
static int32_t *read_ints(const char *path, int64_t n)
{
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "%s", path);
    int32_t *v = malloc(((size_t)n + 1) * sizeof *v);
    long x;
    int64_t k = 0;
    while (fscanf(f, "%ld", &x) == 1) {
        cr_assert_lt(k, n, "%s has more than %lld values", path, (long long)n);
        v[k++] = (int32_t)x;
    }
    fclose(f);
    cr_assert_eq(k, n, "%s: %lld values, want %lld", path, (long long)k, (long long)n);
    return v;
}

static void write_ints(const char *path, const int32_t *v, int64_t n)
{
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    for (int64_t k = 0; k < n; k++)
        fprintf(f, "%d\n", v[k]);
    fclose(f);
}

static coarsen_graph *load(const char *path)
{
    coarsen_graph *g = NULL;
    coarsen_error err = {0};
    cr_assert_eq(coarsen_graph_load(path, &g, NULL, &err), 0, "%s", err.msg);
    return g;
}

static int32_t nvertices(const char *dir, int k)
{
    char path[800];
    snprintf(path, sizeof path, "%s/level-%d.graph", dir, k);
    coarsen_graph *g = load(path);
    int32_t n = g->n;
    coarsen_graph_free(g);
    return n;
}

Test(cli_tools, project_composes_the_maps_and_keeps_the_cut)
{
    char dir[700], graph[700], args[4096], file[800], out[800];
    snprintf(graph, sizeof graph, "%s", io_path("tools-g.graph"));
    snprintf(dir, sizeof dir, "%s", io_path("tools-h"));
    coarsen_graph *g = test_gen("rgg:n=3000,deg=8,weights=int");
    coarsen_error err = {0};
    cr_assert_eq(coarsen_graph_write(g, graph, COARSEN_FORMAT_METIS, 0, &err), 0, "%s", err.msg);
    snprintf(args, sizeof args, "--quiet --levels 4 --coarsen-to 0 --out %s %s", dir, graph);
    cr_assert_eq(cli_run_prog(args, NULL, 0, NULL, 0), 0);
    int32_t n[5];
    int32_t *map[5] = {0};
    for (int k = 0; k <= 4; k++)
        n[k] = nvertices(dir, k);
    for (int k = 1; k <= 4; k++) {
        snprintf(file, sizeof file, "%s/map-%d.txt", dir, k);
        map[k] = read_ints(file, n[k - 1]);
    }
    /* a labelling of level 4 with words that are not integers: copied verbatim */
    snprintf(file, sizeof file, "%s", io_path("tools-words.txt"));
    FILE *f = fopen(file, "w");
    for (int32_t c = 0; c < n[4]; c++)
        fprintf(f, "w%d.%d\n", c, c % 7);
    fclose(f);
    for (int to = 0; to <= 3; to++) {
        snprintf(out, sizeof out, "%s", io_path("tools-projected.txt"));
        snprintf(args, sizeof args, "project --quiet %s %s --to %d -o %s", dir, file, to, out);
        static char errtext[4096];
        cr_assert_eq(cli_run_prog(args, NULL, 0, errtext, sizeof errtext), 0, "%s", errtext);
        FILE *p = fopen(out, "r");
        char line[64], want[64];
        for (int32_t v = 0; v < n[to]; v++) {
            int32_t c = v;
            for (int k = to + 1; k <= 4; k++)
                c = map[k][c];
            snprintf(want, sizeof want, "w%d.%d\n", c, c % 7);
            cr_assert_not_null(fgets(line, sizeof line, p));
            cr_assert_str_eq(line, want, "level %d vertex %d", to, v);
        }
        cr_assert_null(fgets(line, sizeof line, p), "extra lines");
        fclose(p);
    }
    /* a partition of level 2 (--level given), carried to level 0, cuts the same */
    int32_t *part2 = malloc(sizeof(int32_t) * (size_t)n[2]);
    for (int32_t c = 0; c < n[2]; c++)
        part2[c] = (int32_t)((uint32_t)c * 2654435761u % 5);
    snprintf(file, sizeof file, "%s", io_path("tools-part2.txt"));
    write_ints(file, part2, n[2]);
    snprintf(args, sizeof args, "project --quiet --level 2 %s %s -o %s", dir, file, out);
    cr_assert_eq(cli_run_prog(args, NULL, 0, NULL, 0), 0);
    int32_t *part0 = read_ints(out, n[0]);
    snprintf(file, sizeof file, "%s/level-2.graph", dir);
    coarsen_graph *g2 = load(file);
    cr_expect_eq(oracle_cut(g2, part2), oracle_cut(g, part0), "the projected partition cuts another weight");
    /* errors: a line count that is no level's, a missing folder, --to above --level */
    static char errtext[4096];
    snprintf(file, sizeof file, "%s", io_file("tools-short.txt", "0\n1\n", 0));
    snprintf(args, sizeof args, "project %s %s", dir, file);
    cr_expect_eq(cli_run_prog(args, NULL, 0, errtext, sizeof errtext), EXIT_INPUT, "%s", errtext);
    cr_expect(strstr(errtext, "no level's vertex count") && strchr(errtext, '\n') == strrchr(errtext, '\n'), "%s",
              errtext);
    snprintf(args, sizeof args, "project %s/nothing %s", dir, file);
    cr_expect_eq(cli_run_prog(args, NULL, 0, errtext, sizeof errtext), EXIT_IO, "%s", errtext);
    snprintf(args, sizeof args, "project --level 1 --to 2 %s %s", dir, file);
    cr_expect_eq(cli_run_prog(args, NULL, 0, errtext, sizeof errtext), EXIT_USAGE, "%s", errtext);
    for (int k = 1; k <= 4; k++)
        free(map[k]);
    free(part2), free(part0);
    coarsen_graph_free(g), coarsen_graph_free(g2);
}

/* The figure after "name" in evaluate's text output. */
static double figure(const char *out, const char *name)
{
    const char *p = strstr(out, name);
    cr_assert_not_null(p, "no %s in %s", name, out);
    return strtod(p + strlen(name), NULL);
}

Test(cli_tools, evaluate_recounted)
{
    coarsen_graph *g = test_random_graph(400, 0.02, 1, 11); /* integer weights: sums exact in any order */
    for (int32_t v = 0; v < g->n; v++)
        g->vwgt[v] = 1 + v % 3;
    char graph[700], file[700], args[4096];
    snprintf(graph, sizeof graph, "%s", io_path("eval.graph"));
    coarsen_error err = {0};
    cr_assert_eq(coarsen_graph_write(g, graph, COARSEN_FORMAT_METIS, 0, &err), 0, "%s", err.msg);
    const int32_t k = 6; /* part 5 stays empty */
    int32_t *part = malloc(sizeof(int32_t) * (size_t)g->n);
    for (int32_t v = 0; v < g->n; v++)
        part[v] = (int32_t)((uint32_t)v * 2246822519u % 5);
    snprintf(file, sizeof file, "%s", io_path("eval.part"));
    write_ints(file, part, g->n);
    static char out[1 << 16], errtext[4096];
    snprintf(args, sizeof args, "evaluate -k %d %s %s", k, graph, file);
    cr_assert_eq(cli_run_prog(args, out, sizeof out, errtext, sizeof errtext), 0, "%s", errtext);
    /* recount */
    double cut = oracle_cut(g, part) / 2;
    int64_t weight[6] = {0}, count[6] = {0}, boundary = 0, volume = 0, total = 0, heaviest = 0;
    char adjacent[6][6] = {{0}};
    for (int32_t v = 0; v < g->n; v++) {
        weight[part[v]] += g->vwgt[v], count[part[v]]++, total += g->vwgt[v];
        char other[6] = {0};
        for (int64_t i = g->xadj[v]; i < g->xadj[v + 1]; i++)
            if (part[g->adj[i]] != part[v])
                other[part[g->adj[i]]] = 1, adjacent[part[v]][part[g->adj[i]]] = 1;
        int64_t o = 0;
        for (int q = 0; q < k; q++)
            o += other[q];
        boundary += o > 0, volume += o;
    }
    for (int p = 0; p < k; p++)
        heaviest = weight[p] > heaviest ? weight[p] : heaviest;
    cr_expect_eq(figure(out, "cut "), cut, "cut %.17g, recounted %.17g", figure(out, "cut "), cut);
    cr_expect_float_eq(figure(out, "balance "), (double)heaviest * k / (double)total, 1e-6);
    cr_expect_eq((int64_t)figure(out, "boundary vertices "), boundary);
    cr_expect_eq((int64_t)figure(out, "comm volume "), volume);
    for (int p = 0; p < k; p++) {
        char row[128];
        int64_t nb = 0;
        for (int q = 0; q < k; q++)
            nb += adjacent[p][q];
        snprintf(row, sizeof row, "\n%6d %12lld %14lld ", p, (long long)count[p], (long long)weight[p]);
        cr_expect(strstr(out, row), "part %d: want '%s' in %s", p, row + 1, out);
        int64_t fields[4];
        const char *r = strstr(out, row);
        if (r && sscanf(r + strlen(row), "%lld %lld %lld %lld", (long long *)&fields[0], (long long *)&fields[1],
                        (long long *)&fields[2], (long long *)&fields[3]) == 4) {
            cr_expect_eq(fields[1], nb, "part %d neighbours", p);
            cr_expect_eq(fields[3] == 0, count[p] == 0, "part %d: pieces %lld for %lld vertices", p,
                         (long long)fields[3], (long long)count[p]);
        }
    }
    /* connected pieces: a path 1-2-3-4 with parts 0 1 0 0 -> part 0 in 2 pieces */
    snprintf(graph, sizeof graph, "%s", io_file("path.graph", "4 3\n2\n1 3\n2 4\n3\n", 0));
    snprintf(file, sizeof file, "%s", io_file("path.part", "0\n1\n0\n0\n", 0));
    snprintf(args, sizeof args, "evaluate --json %s %s", graph, file);
    cr_assert_eq(cli_run_prog(args, out, sizeof out, errtext, sizeof errtext), 0, "%s", errtext);
    cr_expect(strstr(out, "\"cut\": 2,") && strstr(out, "\"pieces\": 2}") && strstr(out, "\"quotient_edges\": 1,"),
              "%s", out);
    /* errors: a line too few, an id beyond -k */
    snprintf(file, sizeof file, "%s", io_file("path3.part", "0\n1\n0\n", 0));
    snprintf(args, sizeof args, "evaluate %s %s", graph, file);
    cr_expect_eq(cli_run_prog(args, out, sizeof out, errtext, sizeof errtext), EXIT_INPUT, "%s", errtext);
    snprintf(file, sizeof file, "%s", io_file("path4.part", "0\n1\n2\n0\n", 0));
    snprintf(args, sizeof args, "evaluate -k 2 %s %s", graph, file);
    cr_expect_eq(cli_run_prog(args, out, sizeof out, errtext, sizeof errtext), EXIT_INPUT, "%s", errtext);
    cr_expect(strstr(errtext, ":3:"), "names the line: %s", errtext);
    free(part);
    coarsen_graph_free(g);
}

Test(cli_tools, contract_equals_a_dense_recount)
{
    coarsen_graph *g = test_random_graph(300, 0.03, 1, 5); /* integer weights 1..4 */
    for (int32_t v = 0; v < g->n; v++)
        g->vwgt[v] = 1 + v % 4;
    char graph[700], file[700], out[700], args[4096];
    snprintf(graph, sizeof graph, "%s", io_path("contract-in.graph"));
    coarsen_error err = {0};
    cr_assert_eq(coarsen_graph_write(g, graph, COARSEN_FORMAT_METIS, 0, &err), 0, "%s", err.msg);
    int32_t *cmap = malloc(sizeof(int32_t) * (size_t)g->n), *ids = malloc(sizeof(int32_t) * (size_t)g->n), nc;
    oracle_random_map(g->n, 4, 9, cmap, &nc);
    for (int32_t v = 0; v < g->n; v++)
        ids[v] = 1000 + 7 * cmap[v]; /* gapped ids, in the order of the dense ones */
    snprintf(file, sizeof file, "%s", io_path("contract-ids.txt"));
    write_ints(file, ids, g->n);
    snprintf(out, sizeof out, "%s", io_path("contract-out.graph.gz"));
    static char errtext[4096];
    snprintf(args, sizeof args, "contract --quiet %s %s -o %s", graph, file, out);
    cr_assert_eq(cli_run_prog(args, NULL, 0, errtext, sizeof errtext), 0, "%s", errtext);
    coarsen_graph *c = load(out);
    cr_assert_eq(c->n, nc);
    double *d;
    char *present;
    oracle_dense_contract(g, cmap, nc, &d, &present);
    int64_t *vw = calloc((size_t)nc, sizeof *vw);
    for (int32_t v = 0; v < g->n; v++)
        vw[cmap[v]] += g->vwgt[v];
    int64_t entries = 0;
    for (int32_t a = 0; a < nc; a++) {
        cr_expect_eq(c->vwgt[a], vw[a], "coarse vertex %d weight", a);
        for (int64_t i = c->xadj[a]; i < c->xadj[a + 1]; i++) {
            int32_t b = c->adj[i];
            cr_expect(present[(size_t)a * nc + b], "edge %d-%d not in the recount", a, b);
            cr_expect_eq(c->ewgt[i], d[(size_t)a * nc + b], "edge %d-%d weight", a, b);
        }
    }
    for (size_t x = 0; x < (size_t)nc * nc; x++)
        entries += present[x];
    cr_expect_eq(c->nnz, entries, "the recount has other edges");
    /* a clustering of the wrong length */
    snprintf(file, sizeof file, "%s", io_file("contract-short.txt", "0\n1\n", 0));
    snprintf(args, sizeof args, "contract %s %s -o %s", graph, file, out);
    cr_expect_eq(cli_run_prog(args, NULL, 0, errtext, sizeof errtext), EXIT_INPUT, "%s", errtext);
    snprintf(args, sizeof args, "contract %s %s -o %s.txt", graph, file, out);
    cr_expect_eq(cli_run_prog(args, NULL, 0, errtext, sizeof errtext), EXIT_USAGE, "unknown output format: %s", errtext);
    free(d), free(present), free(vw), free(cmap), free(ids);
    coarsen_graph_free(g), coarsen_graph_free(c);
}
