/* io_files.c — temporary input files and graph expectations for the I/O
 * tests; see io_files.h. The expected graph is checked against a dense
 * matrix built from the edge list, independently of the readers. */
#include "tests/support/io_files.h"
#include "io/line_chunks.h"

#include <criterion/criterion.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

static char dir[64];

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

static void remove_dir(void)
{
    if (dir[0])
        nftw(dir, remove_entry, 8, FTW_DEPTH | FTW_PHYS);
}

const char *io_path(const char *name)
{
    static char path[512];
    if (!dir[0]) {
        strcpy(dir, "/tmp/coarsen-io-test-XXXXXX");
        cr_assert(mkdtemp(dir), "mkdtemp failed");
        atexit(remove_dir);
    }
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return path;
}

const char *io_file_bytes(const char *name, const void *data, size_t len, int gz)
{
    const char *path = io_path(name);
    if (gz) {
        gzFile f = gzopen(path, "wb");
        cr_assert(f, "cannot create %s", path);
        cr_assert(len == 0 || gzwrite(f, data, (unsigned)len) == (int)len);
        cr_assert(gzclose(f) == Z_OK);
    } else {
        FILE *f = fopen(path, "wb");
        cr_assert(f, "cannot create %s", path);
        cr_assert(fwrite(data, 1, len, f) == len);
        cr_assert(fclose(f) == 0);
    }
    return path;
}

const char *io_file(const char *name, const char *text, int gz)
{
    return io_file_bytes(name, text, strlen(text), gz);
}

coarsen_graph *io_load_text(const char *text, int gz, coarsen_read_report *report)
{
    const char *path = io_file(gz ? "in.gz" : "in.txt", text, gz);
    coarsen_graph *g = NULL;
    coarsen_error err = {0};
    int rc = coarsen_graph_load(path, &g, report, &err);
    cr_assert_eq(rc, 0, "load failed: %s", err.msg);
    cr_assert_eq(coarsen_graph_check(g, &err), 0, "invalid graph: %s", err.msg);
    return g;
}

int io_load_chunked(const char *path, size_t bytes, coarsen_graph **g, coarsen_error *err)
{
    line_chunks_set_min_bytes(bytes);
    int rc = coarsen_graph_load(path, g, NULL, err);
    line_chunks_set_min_bytes((size_t)1 << 20);
    return rc;
}

coarsen_graph *io_load_all_chunkings(const char *path)
{
    coarsen_graph *ref;
    coarsen_error err = {0};
    cr_assert_eq(io_load_chunked(path, (size_t)1 << 20, &ref, &err), 0, "%s", err.msg);
    const size_t sizes[] = {1, 2, 5, 33, 1000};
    for (int k = 0; k < 5; k++) {
        coarsen_graph *g;
        cr_assert_eq(io_load_chunked(path, sizes[k], &g, &err), 0, "chunk %zu: %s", sizes[k], err.msg);
        io_expect_same_graph(ref, g);
        coarsen_graph_free(g);
    }
    return ref;
}

void io_expect_error(const char *text, int gz, int64_t line, const char *expect)
{
    io_expect_error_named(gz ? "bad.gz" : "bad.txt", text, gz, line, expect);
}

void io_expect_error_named(const char *name, const char *text, int gz, int64_t line, const char *expect)
{
    const char *path = io_file(name, text, gz);
    char prefix[600];
    snprintf(prefix, sizeof prefix, "%s:%lld: ", path, (long long)line);
    coarsen_graph *g = (coarsen_graph *)1;
    coarsen_error err = {0};
    int rc = coarsen_graph_load(path, &g, NULL, &err);
    cr_assert_eq(rc, COARSEN_ERR_INPUT, "expected an input error '%s', got status %d (%s)", expect, rc, err.msg);
    cr_assert_eq(err.status, COARSEN_ERR_INPUT);
    cr_assert_null(g, "no graph on error");
    cr_assert(!strncmp(err.msg, prefix, strlen(prefix)), "message '%s' does not start with '%s'", err.msg, prefix);
    cr_assert(strstr(err.msg, expect), "message '%s' lacks '%s'", err.msg, expect);
    cr_assert(!strchr(err.msg, '\n'), "message is not one line: '%s'", err.msg);
}

void io_expect_graph(const coarsen_graph *g, int32_t n, const io_edge *edges, int m)
{
    coarsen_error err = {0};
    cr_assert_eq(coarsen_graph_check(g, &err), 0, "invalid graph: %s", err.msg);
    cr_assert_eq(g->n, n, "n = %d, expected %d", g->n, n);
    cr_assert_eq(g->nnz, 2 * (int64_t)m, "nnz = %lld, expected %d", (long long)g->nnz, 2 * m);
    double *dense = malloc((size_t)n * (size_t)n * sizeof *dense);
    for (int64_t k = 0; k < (int64_t)n * n; k++)
        dense[k] = -1;
    for (int k = 0; k < m; k++) {
        dense[(int64_t)edges[k].u * n + edges[k].v] = edges[k].w;
        dense[(int64_t)edges[k].v * n + edges[k].u] = edges[k].w;
    }
    for (int32_t u = 0; u < n; u++)
        for (int64_t k = g->xadj[u]; k < g->xadj[u + 1]; k++) {
            double want = dense[(int64_t)u * n + g->adj[k]];
            cr_assert(want >= 0, "unexpected edge %d-%d", u, g->adj[k]);
            cr_assert_eq(g->ewgt[k], want, "edge %d-%d weight %.17g, expected %.17g", u, g->adj[k], g->ewgt[k], want);
        }
    free(dense);
}

void io_expect_same_graph(const coarsen_graph *a, const coarsen_graph *b)
{
    cr_assert_eq(a->n, b->n);
    cr_assert_eq(a->nnz, b->nnz);
    cr_assert(!memcmp(a->xadj, b->xadj, ((size_t)a->n + 1) * sizeof *a->xadj), "row offsets differ");
    cr_assert(!memcmp(a->adj, b->adj, (size_t)a->nnz * sizeof *a->adj), "adjacency differs");
    for (int64_t k = 0; k < a->nnz; k++)
        cr_assert_eq(a->ewgt[k], b->ewgt[k], "weight %lld: %.17g vs %.17g", (long long)k, a->ewgt[k], b->ewgt[k]);
    cr_assert(!memcmp(a->vwgt, b->vwgt, (size_t)a->n * sizeof *a->vwgt), "vertex weights differ");
}
