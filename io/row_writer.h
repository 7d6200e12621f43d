/* row_writer.h — text files made of rows (a graph's adjacency lines, one
 * integer per line, edge triplets): rows are formatted in parallel, in
 * batches of chunks of consecutive rows, each chunk into its own buffer
 * and, into a gzip file, compressed by the same thread into its own member
 * (output_piece_pack); the chunks are written in order through
 * io/output_file.h without a copy. From 3 threads one thread writes a batch
 * while the others make the next. The text, and the members' boundaries
 * (the chunks'), are the same for every thread count; memory is bounded by
 * two batches, not the file. */
#ifndef IO_ROW_WRITER_H
#define IO_ROW_WRITER_H

#include <stddef.h>
#include <stdint.h>

#include "coarsen.h"
#include "io/output_file.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Writes row `row`'s text at out ([out], room for the layout's bound of
 * that row) and returns its end; NULL when the row cannot be written (the
 * caller finds out why afterwards). Called from several threads at once. */
typedef char *(*row_format_fn)(const void *ctx, int64_t row, char *out);

/* How much text rows can take: row r takes at most
 * row_bytes + item_bytes * (items[r + 1] - items[r]) bytes (items NULL:
 * row_bytes). */
typedef struct row_layout {
    int64_t rows;
    const int64_t *items; /* [in] rows + 1 nondecreasing offsets (e.g. CSR xadj), or NULL */
    size_t row_bytes, item_bytes;
} row_layout;

/* Formats rows 0 .. rows-1 with fmt(ctx, ...) and appends them to f in
 * order. Returns COARSEN_OK; COARSEN_ERR_INPUT when fmt returned NULL (the
 * rows of that batch are not written; the caller reports and aborts f);
 * COARSEN_ERR_NOMEM (err set). Write failures stay latched in f. */
int row_writer_run(output_file *f, const row_layout *layout, row_format_fn fmt, const void *ctx,
                   coarsen_error *err);

#ifdef __cplusplus
}
#endif
#endif
