/* error.c — formatting of coarsen_error and checked host allocation. */
#include "core/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

int error_set(coarsen_error *err, coarsen_status status, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
        err->status = status;
    }
    return (int)status;
}

int error_nomem(coarsen_error *err, const char *what, size_t bytes)
{
    return error_set(err, COARSEN_ERR_NOMEM, "out of memory allocating %zu bytes for %s", bytes, what);
}

void *xmalloc(size_t bytes, const char *what, coarsen_error *err)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p)
        error_nomem(err, what, bytes);
    return p;
}

void *xcalloc(size_t count, size_t size, const char *what, coarsen_error *err)
{
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (!p)
        error_nomem(err, what, count * size);
    return p;
}
