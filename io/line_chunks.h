/* line_chunks.h — cutting a text into chunks of whole lines for parallel
 * parsing, with each chunk's number of lines and of data lines counted and
 * summed up front, so that every chunk knows the global number of its first
 * line and of its first data line (vertex or entry) before it is parsed. */
#ifndef IO_LINE_CHUNKS_H
#define IO_LINE_CHUNKS_H

#include <stddef.h>
#include <stdint.h>

#include "coarsen.h"

typedef struct line_chunk {
    const char *begin, *end;   /* whole lines */
    int64_t lines, data_lines; /* counts of this chunk */
    int64_t tokens;            /* LINES_METIS: the runs of bytes above ' ' in its
                                * lines, comments included: every token a reader
                                * parses is one of them (0 for LINES_MTX) */
    int64_t first_line;        /* global number of its first line */
    int64_t first_data;        /* global index of its first data line */
} line_chunk;

/* What counts as a data line. */
typedef enum line_kind {
    LINES_METIS = 0,  /* every line but those starting with '%' (blank = isolated vertex) */
    LINES_MTX = 1     /* lines that are neither blank nor '%' after leading blanks */
} line_kind;

/* Splits [body, end) into chunks of at least the minimum size (below) and
 * at most 4 per OpenMP thread, counts them in parallel and fills the prefix
 * sums from first_line. Returns the number of chunks (>= 1) and *out (the
 * caller frees it), or 0 with err set when out of memory. *data_total gets
 * the number of data lines. */
int line_chunks_split(const char *body, const char *end, int64_t first_line, line_kind kind, line_chunk **out,
                      int64_t *data_total, coarsen_error *err);

/* The smallest chunk (default 1 MiB). Tests and the fuzz target lower it to
 * exercise the joins between chunks on small inputs. */
void line_chunks_set_min_bytes(size_t bytes);

/* The text arriving (a gzip file being inflated, io/text_input.h) cut into
 * chunks of whole lines of about line_chunks_min_bytes(), at most 256 KiB,
 * as soon as they are final, from byte pos (line number first_line) to the
 * end. Per chunk, one OpenMP task counts its lines, a chain of tasks in
 * file order places it (first_line, first_data, then ops->place when not
 * NULL: the reader's own running sums, in file order) and a third task
 * hands it to ops->parse (tasks of several chunks run at once; a team of
 * one thread runs them before it waits for more text). A chunk is the reader's struct of
 * ops->chunk_size bytes whose first member is its line_chunk, zeroed but for
 * that. On return every task is done and the text is complete (t->len is
 * not set: text_input_finish does that). [out] *chunks: the chunks made, in
 * file order, and *count of them, also on failure (free them with
 * line_chunks_stream_free after freeing what they own); *data_total: their
 * data lines. COARSEN_ERR_NOMEM (err set) when a chunk could not be made. */
struct text_input;
typedef struct line_stream_ops {
    size_t chunk_size;
    void (*parse)(void *ctx, line_chunk *chunk);
    void (*place)(void *ctx, line_chunk *chunk);
} line_stream_ops;
int line_chunks_stream(struct text_input *t, size_t pos, int64_t first_line, line_kind kind,
                       const line_stream_ops *ops, void *ctx, line_chunk ***chunks, int *count, int64_t *data_total,
                       coarsen_error *err);
void line_chunks_stream_free(line_chunk **chunks, int count);

/* Counts k's lines, data lines and (LINES_METIS) tokens (k->begin, k->end
 * set; the counts start at 0). */
void line_chunk_count(line_chunk *k, line_kind kind);

/* The smallest chunk in bytes (line_chunks_set_min_bytes). */
size_t line_chunks_min_bytes(void);

/* 1 when line [s, e) (without its line end) is a data line of the kind. */
int line_is_data(const char *s, const char *e, line_kind kind);


#endif
