/* gzip_deflate.c — one buffer into one indexed gzip member (gzip_deflate.h):
 * our header with the size subfield (io/gzip_index.h), raw deflate data from
 * ISA-L's stateless deflate (which appends the gzip trailer itself) or from
 * zlib (windowBits -15, trailer written here), then the size patched in. */
#include "io/gzip_deflate.h"
#include "io/gzip_index.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if COARSEN_HAVE_ISAL
#include <isa-l/igzip_lib.h>
#else
#include <zlib.h>
#endif

int gzip_deflate_max_level(void)
{
#if COARSEN_HAVE_ISAL
    return ISAL_DEF_MAX_LEVEL;
#else
    return 9;
#endif
}

size_t gzip_deflate_bound(size_t bytes)
{
    /* Stored blocks (the worst case of both libraries) add 5 bytes per
     * 16 KiB or more of input; the header with its index and the trailer
     * are fixed; the rest is slack for block headers and ISA-L's
     * end-of-stream handling. */
    return bytes + (bytes >> 10) + GZIP_INDEX_HEADER + GZIP_TRAILER + 1024;
}

#if COARSEN_HAVE_ISAL
static const uint32_t level_buf_size[ISAL_DEF_MAX_LEVEL + 1] = {
    ISAL_DEF_LVL0_DEFAULT, ISAL_DEF_LVL1_DEFAULT, ISAL_DEF_LVL2_DEFAULT, ISAL_DEF_LVL3_DEFAULT};

/* Deflate data and trailer of in[0, bytes) at out[0, room); their size, 0 on failure. */
static size_t deflate_body(const void *in, size_t bytes, unsigned char *out, size_t room, int level)
{
    struct isal_zstream s;
    /* zeroed first: after isal_deflate_stateless_init alone, a stream on
     * a used stack compressed worse (a 1 MiB member 27 % larger) than one on
     * a fresh thread's, so the bytes (never their meaning) depended on the
     * thread that packed them */
    memset(&s, 0, sizeof s);
    isal_deflate_stateless_init(&s);
    uint8_t *level_buf = NULL;
    if (level_buf_size[level]) {
        level_buf = malloc(level_buf_size[level]);
        if (!level_buf)
            return 0;
        s.level_buf = level_buf;
        s.level_buf_size = level_buf_size[level];
    }
    s.level = (uint32_t)level;
    s.gzip_flag = IGZIP_GZIP_NO_HDR; /* raw deflate + CRC32 + ISIZE */
    s.end_of_stream = 1;
    s.flush = NO_FLUSH;
    s.next_in = (uint8_t *)(uintptr_t)in;
    s.avail_in = (uint32_t)bytes;
    s.next_out = out;
    s.avail_out = (uint32_t)room;
    int rc = isal_deflate_stateless(&s);
    free(level_buf);
    return rc == COMP_OK ? s.total_out : 0;
}
#else
static void put32(unsigned char *p, uint32_t v)
{
    for (int k = 0; k < 4; k++)
        p[k] = (unsigned char)(v >> (8 * k));
}

static size_t deflate_body(const void *in, size_t bytes, unsigned char *out, size_t room, int level)
{
    z_stream z = {0};
    if (room < GZIP_TRAILER || deflateInit2(&z, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return 0;
    z.next_in = (Bytef *)(uintptr_t)in;
    z.avail_in = (uInt)bytes;
    z.next_out = out;
    z.avail_out = (uInt)(room - GZIP_TRAILER);
    int rc = deflate(&z, Z_FINISH);
    size_t done = z.total_out;
    deflateEnd(&z);
    if (rc != Z_STREAM_END)
        return 0;
    put32(out + done, (uint32_t)crc32_z(0, in, bytes));
    put32(out + done + 4, (uint32_t)bytes);
    return done + GZIP_TRAILER;
}
#endif

size_t gzip_deflate(const void *in, size_t bytes, void *out, size_t out_size, int level)
{
    if (level < 0 || level > gzip_deflate_max_level() || bytes > UINT32_MAX - (1u << 20) ||
        out_size < gzip_deflate_bound(bytes))
        return 0;
    if (out_size > UINT32_MAX) /* the member's size must fit its 32-bit index */
        out_size = UINT32_MAX;
    unsigned char *o = out;
    gzip_index_write_header(o);
    size_t body = deflate_body(in, bytes, o + GZIP_INDEX_HEADER, out_size - GZIP_INDEX_HEADER, level);
    if (!body)
        return 0;
    gzip_index_set_size(o, (uint32_t)(GZIP_INDEX_HEADER + body));
    return GZIP_INDEX_HEADER + body;
}
