/* gzip_inflate.h — inflating a gzip file of one or more members (what gzip,
 * pigz, bgzip and our own writer produce) into memory, with ISA-L's igzip
 * when the build has it (COARSEN_HAVE_ISAL) and zlib otherwise.
 *
 * Members follow each other; anything after the last member that is not the
 * start of another member is trailing garbage and an input error. Every
 * member's CRC-32 and length are checked. */
#ifndef IO_GZIP_INFLATE_H
#define IO_GZIP_INFLATE_H

#include <stddef.h>

#include "coarsen.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Called from the inflating thread as output grows: out[0, produced) is
 * final. A non-zero return stops inflating (gzip_inflate_fd then returns
 * COARSEN_ERR_IO without setting err: the caller asked for it). */
typedef int (*gzip_progress_fn)(void *ctx, size_t produced);

/* Inflates the gzip stream read from fd (read(2) to its end; fd is not
 * closed) into out, which has room for cap bytes.
 *   [in]  first, first_len: bytes already read from fd (its start), may be 0
 *   [out] out[0, *len): the whole inflated text
 * progress (may be NULL) is called every 256 KiB of output and at the end.
 * Errors, one line naming `name`: corrupt, truncated or garbage-followed data
 * and more than cap bytes of output (COARSEN_ERR_INPUT, with the line number
 * of the text produced so far), read errors (COARSEN_ERR_IO). */
int gzip_inflate_fd(int fd, const char *name, const unsigned char *first, size_t first_len, char *out, size_t cap,
                    size_t *len, gzip_progress_fn progress, void *ctx, coarsen_error *err);

/* The library behind gzip_inflate_fd: "isa-l" or "zlib". */
const char *gzip_inflate_library(void);

#ifdef __cplusplus
}
#endif
#endif
