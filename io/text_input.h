/* text_input.h — the whole uncompressed text of an input file in memory, and
 * a cursor that walks it line by line with 1-based line numbers.
 *
 * Reading everything first keeps parsing free of refills and lets the readers
 * split the text into chunks for OpenMP. gzip is detected by its magic bytes
 * (zlib reads plain files transparently); "-" is standard input. There is no
 * line length limit: a line is just a span of the buffer. */
#ifndef IO_TEXT_INPUT_H
#define IO_TEXT_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "coarsen.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct text_input {
    char *data;        /* len bytes + a terminating NUL; owned */
    size_t len;
    const char *name;  /* the path as given, for messages (not owned) */
} text_input;

/* Reads path (or standard input for "-") completely. A truncated or corrupt
 * gzip stream is an input error naming the file. */
int text_input_load(const char *path, text_input *t, coarsen_error *err);
/* Wraps a caller's buffer (not copied, not freed by text_input_free); data
 * must stay valid and have a NUL at data[len]. */
void text_input_wrap(text_input *t, const char *name, const char *data, size_t len);
void text_input_free(text_input *t);

/* A line cursor over [p, end). */
typedef struct text_cursor {
    const char *p, *end;
    int64_t line;      /* number of the line last returned (1-based) */
} text_cursor;

static inline void text_cursor_init(text_cursor *c, const char *p, const char *end)
{
    c->p = p;
    c->end = end;
    c->line = 0;
}

/* Returns the next line as [*ls, *le) without its "\n" or "\r\n"; 0 at the
 * end of the text. */
static inline int text_next_line(text_cursor *c, const char **ls, const char **le)
{
    if (c->p >= c->end)
        return 0;
    const char *s = c->p, *nl = (const char *)memchr(s, '\n', (size_t)(c->end - s));
    const char *e = nl ? nl : c->end;
    c->p = nl ? nl + 1 : c->end;
    if (e > s && e[-1] == '\r')
        e--;
    *ls = s;
    *le = e;
    c->line++;
    return 1;
}

/* Skips spaces and tabs. */
static inline const char *text_skip_blank(const char *p, const char *e)
{
    while (p < e && (*p == ' ' || *p == '\t'))
        p++;
    return p;
}

/* Parses an optionally signed decimal integer at *p (after blanks) that ends
 * at a blank or the line end. 1 on success (advances *p), 0 when the text is
 * not such an integer, -1 when it overflows int64. */
static inline int text_parse_int(const char **p, const char *e, int64_t *out)
{
    const char *s = text_skip_blank(*p, e);
    int neg = 0;
    if (s < e && (*s == '-' || *s == '+'))
        neg = *s++ == '-';
    const char *d = s;
    uint64_t v = 0;
    while (s < e && (unsigned)(*s - '0') < 10) {
        unsigned dig = (unsigned)(*s - '0');
        if (v > (UINT64_C(9223372036854775808) - dig) / 10)
            return -1;
        v = v * 10 + dig;
        s++;
    }
    if (s == d || (s < e && *s != ' ' && *s != '\t'))
        return 0;
    if (!neg && v > (uint64_t)INT64_MAX)
        return -1;
    *out = neg ? (int64_t)(0 - v) : (int64_t)v;
    *p = s;
    return 1;
}

/* Parses a real number (ending at a blank or the line end): a fast path for
 * [-+]digits[.digits][e[-+]digits] with at most 19 significant digits, and
 * strtod for anything else (exactness of the fast path: see text_input.c).
 * 1 on success, 0 when not a number, -1 when NaN or infinite. */
int text_parse_real(const char **p, const char *e, double *out);

#ifdef __cplusplus
}
#endif
#endif
