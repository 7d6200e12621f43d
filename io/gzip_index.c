/* gzip_index.c — the member index subfield: writing our member header,
 * reading an indexed member's header and trailer, and the size of any gzip
 * header (gzip_index.h). */
#include "io/gzip_index.h"

#include <string.h>

enum { FHCRC = 0x02, FEXTRA = 0x04, FNAME = 0x08, FCOMMENT = 0x10, FRESERVED = 0xe0 };

static uint32_t get16(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8;
}

static uint32_t get32(const unsigned char *p)
{
    return get16(p) | get16(p + 2) << 16;
}

void gzip_index_write_header(unsigned char *out)
{
    static const unsigned char head[GZIP_INDEX_HEADER] = {
        0x1f, 0x8b, 8, FEXTRA, 0, 0, 0, 0, 0, 3, 8, 0, GZIP_INDEX_SI1, GZIP_INDEX_SI2, 4, 0, 0, 0, 0, 0};
    memcpy(out, head, sizeof head);
}

void gzip_index_set_size(unsigned char *member, uint32_t size)
{
    for (int k = 0; k < 4; k++)
        member[16 + k] = (unsigned char)(size >> (8 * k));
}

/* The member size recorded in an extra field x[0, xlen); 0 when none. */
static size_t extra_size(const unsigned char *x, size_t xlen)
{
    size_t found = 0;
    while (xlen >= 4) {
        size_t len = get16(x + 2);
        if (len > xlen - 4)
            return 0; /* subfields do not add up to XLEN */
        if (x[0] == GZIP_INDEX_SI1 && x[1] == GZIP_INDEX_SI2 && len == 4)
            found = get32(x + 4);
        else if (x[0] == 'B' && x[1] == 'C' && len == 2)
            found = (size_t)get16(x + 4) + 1;
        x += 4 + len, xlen -= 4 + len;
    }
    return xlen ? 0 : found;
}

/* The end of the NUL-terminated string at p[at, end); 0 when unterminated. */
static size_t skip_string(const unsigned char *p, size_t at, size_t end)
{
    const unsigned char *z = memchr(p + at, 0, end - at);
    return z ? (size_t)(z - p) + 1 : 0;
}

size_t gzip_header_size(const unsigned char *p, size_t avail)
{
    if (avail < 10 || p[0] != 0x1f || p[1] != 0x8b || p[2] != 8 || (p[3] & FRESERVED))
        return 0;
    size_t at = 10;
    if (p[3] & FEXTRA) {
        if (avail < 12 || (at = 12 + get16(p + 10)) > avail)
            return 0;
    }
    if ((p[3] & FNAME) && !(at = skip_string(p, at, avail)))
        return 0;
    if ((p[3] & FCOMMENT) && !(at = skip_string(p, at, avail)))
        return 0;
    if ((p[3] & FHCRC) && (at += 2) > avail)
        return 0;
    return at;
}

int gzip_index_read_member(const unsigned char *p, size_t avail, gzip_member *m)
{
    if (avail < 12 || p[0] != 0x1f || p[1] != 0x8b || p[2] != 8 || !(p[3] & FEXTRA) || (p[3] & FRESERVED))
        return 0;
    size_t xlen = get16(p + 10);
    if (12 + xlen > avail)
        return 0;
    size_t size = extra_size(p + 12, xlen), at;
    if (!size || size > avail || !(at = gzip_header_size(p, size)))
        return 0;
    if (at + GZIP_TRAILER >= size) /* at least one byte of deflate data */
        return 0;
    m->offset = 0;
    m->data = at;
    m->size = size;
    m->crc = get32(p + size - GZIP_TRAILER);
    m->text_size = get32(p + size - 4);
    m->text_offset = 0;
    return 1;
}
