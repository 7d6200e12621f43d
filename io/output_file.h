/* output_file.h — every file the project writes goes through here: it is
 * written under a temporary name in the same folder and renamed over the
 * final name only on output_commit, so a failed run leaves no partial file.
 * Names ending in ".gz" are gzip-compressed. "-" writes standard output
 * (no rename, never compressed). */
#ifndef IO_OUTPUT_FILE_H
#define IO_OUTPUT_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "coarsen.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct output_file output_file;

/* Opens path for writing; NULL (err set) on failure. */
output_file *output_open(const char *path, coarsen_error *err);
/* Buffered writes; errors are remembered and reported by output_commit. */
void output_write(output_file *f, const void *data, size_t bytes);
void output_printf(output_file *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Flushes, closes and renames into place; frees f whatever happens. */
int output_commit(output_file *f, coarsen_error *err);
/* Closes and deletes the temporary file; frees f. NULL is allowed. */
void output_abort(output_file *f);

/* One integer per line (e.g. mates, maps, partitions), written atomically. */
int io_write_ints(const char *path, const int32_t *values, int64_t n, coarsen_error *err);

#ifdef __cplusplus
}
#endif
#endif
