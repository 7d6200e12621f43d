/* io_files.h — helpers of the reader/writer tests: small files written from
 * string literals into a private temporary folder (removed at exit), error
 * expectations, and comparison of a graph with an expected edge list. */
#ifndef TESTS_SUPPORT_IO_FILES_H
#define TESTS_SUPPORT_IO_FILES_H

#include <stddef.h>
#include <stdint.h>

#include "coarsen.h"

/* Writes text (plain, or gzip'd when gz) as NAME in the temporary folder and
 * returns its path (static storage, valid until the next call). */
const char *io_file(const char *name, const char *text, int gz);
/* Same for arbitrary bytes. */
const char *io_file_bytes(const char *name, const void *data, size_t len, int gz);
/* A path in the temporary folder (nothing created). */
const char *io_path(const char *name);

/* Loads text written as a file; asserts success and returns the graph. */
coarsen_graph *io_load_text(const char *text, int gz, coarsen_read_report *report);

/* Loads path with the readers cut into chunks of `bytes` (io/line_chunks.h)
 * and restores the default; returns the load's status. */
int io_load_chunked(const char *path, size_t bytes, coarsen_graph **g, coarsen_error *err);

/* Loads path in one piece and cut into chunks of 1, 2, 5, 33 and 1000
 * bytes, asserts that every load succeeds with the same graph, and returns
 * the graph (the caller frees it). */
coarsen_graph *io_load_all_chunkings(const char *path);

/* Writes text as a file, loads it and asserts an input error whose message
 * is exactly one line "PATH:LINE: ..." containing `expect`. */
void io_expect_error(const char *text, int gz, int64_t line, const char *expect);
/* Same with the file named NAME (e.g. to get the .mtx name hint). */
void io_expect_error_named(const char *name, const char *text, int gz, int64_t line, const char *expect);

/* One expected undirected edge. */
typedef struct io_edge {
    int32_t u, v; /* 0-based */
    double w;
} io_edge;

/* Asserts that g is a valid graph on n vertices whose edges are exactly
 * edges[0..m) (in any order) with the given weights. */
void io_expect_graph(const coarsen_graph *g, int32_t n, const io_edge *edges, int m);

/* Asserts that two host graphs are identical (sizes, arrays, weights). */
void io_expect_same_graph(const coarsen_graph *a, const coarsen_graph *b);

#endif
