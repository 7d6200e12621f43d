/* error.h — filling a coarsen_error: one formatted line and a status code.
 * Every module reports failures through these helpers so the CLI can print
 * "coarsen: <msg>" and exit with the status's code. */
#ifndef CORE_ERROR_H
#define CORE_ERROR_H

#include "coarsen.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Sets err (when not NULL) and returns status, so callers can write
 * `return error_set(err, COARSEN_ERR_INPUT, "%s:%lld: bad index", ...)`. */
int error_set(coarsen_error *err, coarsen_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Reports a failed allocation of `bytes` for `what`. */
int error_nomem(coarsen_error *err, const char *what, size_t bytes);

/* Asks for transparent huge pages on the 2 MiB-aligned interior of a block
 * of at least HUGE_ADVICE_MIN bytes: first touch then faults once per 2 MiB
 * instead of once per 4 KiB (on a graph of 10^8 edges the faults cost as
 * much as parsing its file). Advice only; smaller blocks are left alone. */
#define HUGE_ADVICE_MIN ((size_t)16 << 20)
void memory_advise_huge(void *p, size_t bytes);

/* malloc that reports failure through err; returns NULL on failure.
 * Zero bytes allocate one byte so that NULL always means failure. Large
 * blocks get memory_advise_huge. */
void *xmalloc(size_t bytes, const char *what, coarsen_error *err);
void *xcalloc(size_t count, size_t size, const char *what, coarsen_error *err);

#ifdef __cplusplus
}
#endif
#endif
