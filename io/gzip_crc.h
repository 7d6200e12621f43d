/* gzip_crc.h — the CRC-32 of gzip trailers (RFC 1952) computed in pieces:
 * each piece's through ISA-L (crc32_gzip_refl) or zlib (crc32), and the
 * pieces' combined as if the text had been run through at once. */
#ifndef IO_GZIP_CRC_H
#define IO_GZIP_CRC_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The CRC-32 of data[0, len) ([in]) continued from crc (0 to start). */
uint32_t gzip_crc32(uint32_t crc, const void *data, size_t len);

/* The CRC-32 of A followed by B, from crc_a (A's), crc_b (B's) and B's
 * length in bytes. */
uint32_t gzip_crc32_combine(uint32_t crc_a, uint32_t crc_b, size_t len_b);

#ifdef __cplusplus
}
#endif
#endif
