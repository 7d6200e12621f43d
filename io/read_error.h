/* read_error.h — the one-line input errors of the readers,
 * "FILE:LINE: what is wrong", quoting the offending token when there is one. */
#ifndef IO_READ_ERROR_H
#define IO_READ_ERROR_H

#include <stddef.h>
#include <stdint.h>

#include "coarsen.h"

/* Sets err to "name:line: <what>" (printf-style) and returns
 * COARSEN_ERR_INPUT. */
int read_error(coarsen_error *err, const char *name, int64_t line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* "name: <what>" for files without lines (binary formats). */
int read_error_file(coarsen_error *err, const char *name, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Like read_error with "<what> '<token>'" where the token is the first word
 * at p (at most 40 characters shown; "end of line" when there is none). */
int read_error_token(coarsen_error *err, const char *name, int64_t line, const char *what,
                     const char *p, const char *e);

/* The 1-based number of the line that the byte text[len] is on: one more
 * than the newlines in text[0, len) ([in]). */
int64_t read_error_line_at(const char *text, size_t len);

#endif
