/* line_values.h — files of one value per line (maps, partitions, mates,
 * cluster ids, vectors), read through io/text_input.h (plain or gzip, "-"
 * for standard input): as integers in a stated range, or as each line's
 * text kept verbatim (a vector's values carried from one file to another
 * without a round trip through binary). Blanks around a value are ignored;
 * a line holding nothing, or more than one value, is an input error, as is
 * a file without any line. Errors are one line "PATH:LINE: ..." with
 * COARSEN_ERR_INPUT, or the reading error of text_input (COARSEN_ERR_IO for
 * a missing file). */
#ifndef IO_LINE_VALUES_H
#define IO_LINE_VALUES_H

#include <stdint.h>

#include "coarsen.h"
#include "io/text_input.h"

/* Reads one integer in [lo, hi] per line into *out (malloc'd, count
 * entries, owned by the caller) and *count. */
int line_values_read_ints(const char *path, int64_t lo, int64_t hi, int32_t **out, int64_t *count,
                          coarsen_error *err);

/* The lines of a file as text: value k is [start[k], start[k] + len[k]). */
typedef struct line_tokens {
    text_input text;     /* owns the bytes */
    const char **start;
    int32_t *len;
    int64_t count;
} line_tokens;

/* Reads path's lines into *t (to be freed with line_tokens_free, also
 * after a failure). */
int line_values_read_tokens(const char *path, line_tokens *t, coarsen_error *err);
void line_tokens_free(line_tokens *t);

#endif
