/* gzip_split.h — inflating a gzip file of ONE member without an index (what
 * plain gzip writes) on all OpenMP threads, as rapidgzip and pugz do.
 *
 * The deflate data is cut into chunks of chunk_bytes. Each thread takes a
 * chunk, finds the first dynamic-Huffman block that starts in it
 * (deflate_find_dynamic) and decodes from there without the window before
 * it (16-bit symbols with markers, io/deflate_decode.h), up to the first
 * block boundary at or after the next chunk's start. The chunks are then
 * stitched in order: a chunk counts only when it started exactly where the
 * one before ended; any other (a false start, no dynamic block in it) is
 * decoded again from there with the window known. Windows pass from chunk
 * to chunk (32 KiB each), then all chunks are narrowed to bytes in parallel
 * into the text, each with its CRC-32, combined at the end and checked
 * with ISIZE against the trailer.
 *
 * Correctness never rests on the search: any doubt (not exactly one member,
 * invalid data, more than cap bytes, out of memory, a CRC or size mismatch)
 * returns 0 and the caller inflates the file as a stream, which reads or
 * reports it exactly.
 *
 * Memory besides the text: chunks go in rounds of GZIP_SPLIT_ROUND_PER_THREAD
 * per thread; a round's chunks hold their text as 16-bit symbols (2 bytes
 * a byte) until narrowed, in buffers kept for the next round. So the peak
 * is the text plus 2 x GZIP_SPLIT_ROUND_PER_THREAD x threads x (the text of
 * the largest chunk): 4 MiB chunks of 4:1 text, 64 MiB a thread (128 MiB
 * on 2 threads, 1 GiB on 16), whatever the file's size. */
#ifndef IO_GZIP_SPLIT_H
#define IO_GZIP_SPLIT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Compressed bytes per chunk (rapidgzip's default too). */
#define GZIP_SPLIT_CHUNK ((size_t)4 << 20)
/* Chunks decoded per round and thread before they are narrowed to bytes. */
#define GZIP_SPLIT_ROUND_PER_THREAD 2

/* Inflates the gzip file file[0, size) ([in]) into out ([out], room for cap
 * bytes) with chunks of chunk_bytes (> 0) of its deflate data. Returns 1
 * with out[0, *len) the whole text, its CRC-32 and length checked against
 * the trailer; 0 when not done (see above): out[0, cap) then holds
 * anything. */
int gzip_split_inflate(const unsigned char *file, size_t size, char *out, size_t cap, size_t chunk_bytes,
                       size_t *len);

#ifdef __cplusplus
}
#endif
#endif
