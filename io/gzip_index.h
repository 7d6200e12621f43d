/* gzip_index.h — the member index of our gzip files: every member written by
 * gzip_deflate carries, in its header's extra field (RFC 1952 §2.3.1.1), one
 * subfield that records the member's whole size, so that a reader can hop
 * from member to member without inflating and inflate them in parallel.
 *
 * Member layout (all integers little-endian):
 *   1f 8b 08 04 | MTIME 0 (4) | XFL 0 | OS 3 | XLEN 8 (2)
 *   'c' 'Z' | LEN 4 (2) | SIZE (4): the member's bytes, header to trailer
 *   raw deflate data | CRC32 (4) | ISIZE (4)
 * BGZF members (bgzip, htslib) carry subfield 'B' 'C' with LEN 2 and a
 * uint16 payload of the member's size - 1; readers accept either. */
#ifndef IO_GZIP_INDEX_H
#define IO_GZIP_INDEX_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The bytes of the well-formed gzip header at p[0, avail) ([in]): magic,
 * deflate, no reserved flags, and the optional extra field, name, comment
 * and header CRC its flags announce, all within avail; 0 when not one. */
size_t gzip_header_size(const unsigned char *p, size_t avail);

/* The subfield id of our index. */
#define GZIP_INDEX_SI1 'c'
#define GZIP_INDEX_SI2 'Z'

/* Bytes of the header gzip_index_write_header writes (10 fixed, 2 XLEN,
 * 4 subfield head, 4 payload), and of the trailer (CRC32, ISIZE). */
#define GZIP_INDEX_HEADER 20
#define GZIP_TRAILER 8

/* Writes our header at out ([out], GZIP_INDEX_HEADER bytes) with a SIZE of 0;
 * gzip_index_set_size fills it once the member is complete. */
void gzip_index_write_header(unsigned char *out);
/* Stores size (the whole member's bytes) in the header at member ([in,out]). */
void gzip_index_set_size(unsigned char *member, uint32_t size);

/* One member found by its index. */
typedef struct gzip_member {
    size_t offset;      /* first byte of the member in the file */
    size_t data;        /* first byte of its deflate data */
    size_t size;        /* whole member: header, data, trailer */
    uint32_t crc;       /* CRC32 of its text, from the trailer */
    uint32_t text_size; /* ISIZE: bytes of text */
    size_t text_offset; /* where its text starts in the whole text (set by the walk) */
} gzip_member;

/* Reads the indexed member at p[0, avail) ([in]; avail: bytes to the end of
 * the file). Returns 1 and fills *m (offset and text_offset 0; data, size, crc,
 * text_size)
 * when it is a well-formed gzip header (magic, deflate, no reserved flags,
 * extra field, optional name, comment and header CRC within the member)
 * whose extra field holds our subfield or BGZF's, with a recorded size that
 * fits in avail and leaves room for deflate data and the trailer; 0
 * otherwise (not indexed, or inconsistent). */
int gzip_index_read_member(const unsigned char *p, size_t avail, gzip_member *m);

#ifdef __cplusplus
}
#endif
#endif
