/* gzip_parallel.h — inflating a gzip file whose members all carry a size
 * index (ours or BGZF's, io/gzip_index.h) on all threads: the members are
 * found by walking their recorded sizes, their text sizes come from their
 * trailers, and each is inflated as raw deflate straight into its slice of
 * the output (OpenMP, ISA-L or zlib), its CRC32 and length checked.
 *
 * Anything the walk cannot account for (a member without an index, sizes
 * that do not add up to the file, bytes after the last member) makes the
 * file "not indexed": the caller then inflates it as a stream
 * (io/gzip_inflate.h), which reports such inputs exactly. */
#ifndef IO_GZIP_PARALLEL_H
#define IO_GZIP_PARALLEL_H

#include <stddef.h>

#include "coarsen.h"
#include "io/gzip_index.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Walks the members of file[0, size) ([in], the whole gzip file).
 * Returns 1 when every byte belongs to an indexed member, in order:
 *   [out] *members (owned by the caller, free()), *count >= 1, each with
 *         offset and text_offset set; *text_bytes: the sum of their ISIZEs.
 * Returns 0 when the file is not wholly indexed (nothing allocated), and
 * COARSEN_ERR_NOMEM (err set) when the list could not be allocated. */
int gzip_members_walk(const unsigned char *file, size_t size, gzip_member **members, size_t *count,
                      size_t *text_bytes, coarsen_error *err);

/* Inflates members[0, count) of file ([in]) in parallel into out ([out],
 * room for the text_bytes the walk returned): member k's text goes to
 * out + members[k].text_offset. Every member must inflate to exactly its
 * ISIZE with its CRC32, using exactly its deflate data. Errors, one line:
 * "NAME:LINE: corrupt or truncated gzip data (member at byte B: why)",
 * COARSEN_ERR_INPUT, where LINE is the text's line at which the first bad
 * member starts; COARSEN_ERR_NOMEM. */
int gzip_members_inflate(const char *name, const unsigned char *file, const gzip_member *members, size_t count,
                         char *out, coarsen_error *err);

#ifdef __cplusplus
}
#endif
#endif
