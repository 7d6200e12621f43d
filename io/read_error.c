/* read_error.c — formatting of reader errors; see read_error.h. */
#include "io/read_error.h"
#include "io/text_input.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* "name:line: " (line > 0) or "name: " then the formatted text. */
static int verror(coarsen_error *err, const char *name, int64_t line, const char *fmt, va_list ap)
{
    if (err) {
        int k = line > 0 ? snprintf(err->msg, sizeof err->msg, "%s:%lld: ", name, (long long)line)
                         : snprintf(err->msg, sizeof err->msg, "%s: ", name);
        if (k < 0 || (size_t)k >= sizeof err->msg)
            k = 0;
        vsnprintf(err->msg + k, sizeof err->msg - (size_t)k, fmt, ap);
        err->status = COARSEN_ERR_INPUT;
    }
    return COARSEN_ERR_INPUT;
}

int read_error(coarsen_error *err, const char *name, int64_t line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    verror(err, name, line, fmt, ap);
    va_end(ap);
    return COARSEN_ERR_INPUT;
}

int read_error_file(coarsen_error *err, const char *name, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    verror(err, name, 0, fmt, ap);
    va_end(ap);
    return COARSEN_ERR_INPUT;
}

int read_error_token(coarsen_error *err, const char *name, int64_t line, const char *what,
                     const char *p, const char *e)
{
    p = text_skip_blank(p, e);
    int n = 0;
    while (p + n < e && p[n] != ' ' && p[n] != '\t' && n < 40)
        n++;
    /* Non-printable bytes are shown as '?' so the message stays one line. */
    char tok[41];
    for (int k = 0; k < n; k++)
        tok[k] = (p[k] >= 32 && p[k] < 127) ? p[k] : '?';
    tok[n] = '\0';
    if (!n)
        return read_error(err, name, line, "%s: found end of line", what);
    return read_error(err, name, line, "%s, found '%s'", what, tok);
}

int64_t read_error_line_at(const char *text, size_t len)
{
    int64_t n = 1;
    for (const char *p = text, *e = text + len; (p = memchr(p, '\n', (size_t)(e - p))); p++)
        n++;
    return n;
}
