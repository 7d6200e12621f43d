/* gzip_deflate.h — the project's one gzip compressor: a whole buffer into
 * one complete gzip member (a header whose extra field records the member's
 * size, io/gzip_index.h; deflate data; CRC32; ISIZE), with ISA-L's igzip
 * when built with COARSEN_HAVE_ISAL=1, zlib otherwise.
 * Members written one after another form a valid multi-member gzip file
 * (RFC 1952 §2.2), which gzip, zlib and our readers decompress as one. */
#ifndef IO_GZIP_DEFLATE_H
#define IO_GZIP_DEFLATE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The level output files use, picked from bench/bench_gzip.c's figures
 * (docs/benchmarks.md, "gzip levels"): ISA-L level 1; zlib level 1 in the
 * fallback build. */
#define GZIP_DEFLATE_LEVEL 1

/* The highest level gzip_deflate accepts: 3 with ISA-L, 9 with zlib. */
int gzip_deflate_max_level(void);

/* At least the size of the member gzip_deflate writes for `bytes` input
 * bytes at any level (incompressible input included). */
size_t gzip_deflate_bound(size_t bytes);

/* Compresses in[0..bytes) ([in]) into one gzip member at out ([out],
 * out_size >= gzip_deflate_bound(bytes) bytes) at `level` (0 ..
 * gzip_deflate_max_level()). Returns the member's size, or 0 when the
 * library failed (out of memory, bad level). Reentrant: threads may
 * compress different buffers at once. bytes must be < 4 GiB - 1 MiB; a
 * member that would not fit in 4 GiB (its index is 32-bit) fails. */
size_t gzip_deflate(const void *in, size_t bytes, void *out, size_t out_size, int level);

#ifdef __cplusplus
}
#endif
#endif
