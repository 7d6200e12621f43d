/* error.c — formatting of coarsen_error and checked host allocation. */
#include "core/error.h"
#include "core/fault.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

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

void memory_advise_huge(void *p, size_t bytes)
{
#ifdef MADV_HUGEPAGE
    const uintptr_t huge = (uintptr_t)2 << 20;
    if (!p || bytes < HUGE_ADVICE_MIN)
        return;
    uintptr_t a = ((uintptr_t)p + huge - 1) & ~(huge - 1), e = ((uintptr_t)p + bytes) & ~(huge - 1);
    if (e > a)
        madvise((void *)a, e - a, MADV_HUGEPAGE); /* advice: refused or unsupported is fine */
#else
    (void)p, (void)bytes;
#endif
}

void *xmalloc(size_t bytes, const char *what, coarsen_error *err)
{
    void *p = fault_alloc() ? NULL : malloc(bytes ? bytes : 1); /* fault_alloc: tests only */
    if (!p)
        error_nomem(err, what, bytes);
    memory_advise_huge(p, bytes);
    return p;
}

void *xcalloc(size_t count, size_t size, const char *what, coarsen_error *err)
{
    void *p = fault_alloc() ? NULL : calloc(count ? count : 1, size ? size : 1); /* fault_alloc: tests only */
    if (!p)
        error_nomem(err, what, count * size);
    memory_advise_huge(p, count * size);
    return p;
}
