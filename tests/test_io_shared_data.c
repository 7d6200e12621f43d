/* test_io_shared_data.c — every graph of the shared data folder is read and
 * its vertex and edge counts are checked against the folder's README table
 * (parsed here, so the expectations come from the data's own description).
 * Rectangular matrices must give the bipartite error through the graph
 * loader and load through the COO reader with the right dimensions. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/mtx_read.h"
#include "tests/support/test_support.h"

/* The number just before `what` in s, or -1. */
static long long number_before(const char *s, const char *what)
{
    const char *p = strstr(s, what);
    if (!p)
        return -1;
    while (p > s && p[-1] == ' ')
        p--;
    while (p > s && p[-1] >= '0' && p[-1] <= '9')
        p--;
    return atoll(p);
}

Test(io_shared_data, every_file_matches_the_readme)
{
    const char *dir = test_data_dir();
    if (!dir)
        cr_skip_test("shared data folder absent (set COARSEN_DATA)");
    char path[1024];
    snprintf(path, sizeof path, "%s/README.md", dir);
    FILE *f = fopen(path, "r");
    cr_assert(f, "cannot read %s", path);
    char line[4096];
    int checked = 0, rectangular = 0;
    while (fgets(line, sizeof line, f)) {
        /* | `name` | ... | rows | cols | counts | ... (the main table has 11+ columns) */
        if (strncmp(line, "| `", 3))
            continue;
        char *col[16];
        int ncol = 0;
        for (char *p = line; ncol < 16 && (p = strchr(p, '|')); p++)
            col[ncol++] = p + 1;
        if (ncol < 11)
            continue; /* the checksum table */
        char name[256];
        if (sscanf(col[0], " `%255[^`]`", name) != 1)
            continue;
        long long rows = atoll(col[6]), cols = atoll(col[7]);
        snprintf(path, sizeof path, "%s/%s", dir, name);
        coarsen_graph *g = NULL;
        coarsen_error err = {0};
        int rc = coarsen_graph_load(path, &g, NULL, &err);
        if (rows != cols) {
            cr_expect_eq(rc, COARSEN_ERR_INPUT, "%s: rectangular must fail", name);
            cr_expect(strstr(err.msg, "coarsen bipartite"), "%s: %s", name, err.msg);
            mtx_coo m;
            cr_assert_eq(mtx_read_coo(path, &m, NULL, &err), 0, "%s: %s", name, err.msg);
            cr_expect_eq(m.rows, rows, "%s", name);
            cr_expect_eq(m.cols, cols, "%s", name);
            cr_expect_eq(m.count, number_before(col[8], " stored"), "%s", name);
            mtx_coo_free(&m);
            rectangular++;
            continue;
        }
        cr_assert_eq(rc, 0, "%s: %s", name, err.msg);
        cr_expect_eq(coarsen_graph_check(g, &err), 0, "%s: %s", name, err.msg);
        long long edges = number_before(col[8], " off-diag edges");
        if (edges < 0)
            edges = number_before(col[8], " edges");
        cr_expect_eq(g->n, rows, "%s: %d vertices, README says %lld", name, g->n, rows);
        cr_expect_eq(g->nnz / 2, edges, "%s: %lld edges, README says %lld", name, (long long)g->nnz / 2, edges);
        coarsen_graph_free(g);
        checked++;
    }
    fclose(f);
    cr_expect_geq(checked, 25, "only %d graphs found in the README", checked);
    cr_expect_geq(rectangular, 2);
}
