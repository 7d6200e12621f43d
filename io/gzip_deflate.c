/* gzip_deflate.c — one buffer into one gzip member (gzip_deflate.h):
 * ISA-L stateless deflate with its gzip wrapper, or zlib with windowBits 31. */
#include "io/gzip_deflate.h"

#include <stdint.h>
#include <stdlib.h>

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
     * 16 KiB or more of input; gzip adds 18 bytes; the rest is slack for
     * block headers and ISA-L's end-of-stream handling. */
    return bytes + (bytes >> 10) + 1024;
}

#if COARSEN_HAVE_ISAL
static const uint32_t level_buf_size[ISAL_DEF_MAX_LEVEL + 1] = {
    ISAL_DEF_LVL0_DEFAULT, ISAL_DEF_LVL1_DEFAULT, ISAL_DEF_LVL2_DEFAULT, ISAL_DEF_LVL3_DEFAULT};
#endif

size_t gzip_deflate(const void *in, size_t bytes, void *out, size_t out_size, int level)
{
    if (level < 0 || level > gzip_deflate_max_level() || bytes > UINT32_MAX - (1u << 20) ||
        out_size < gzip_deflate_bound(bytes))
        return 0;
    if (out_size > UINT32_MAX)
        out_size = UINT32_MAX;
#if COARSEN_HAVE_ISAL
    struct isal_zstream s;
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
    s.gzip_flag = IGZIP_GZIP;
    s.end_of_stream = 1;
    s.flush = NO_FLUSH;
    s.next_in = (uint8_t *)(uintptr_t)in;
    s.avail_in = (uint32_t)bytes;
    s.next_out = out;
    s.avail_out = (uint32_t)out_size;
    int rc = isal_deflate_stateless(&s);
    free(level_buf);
    return rc == COMP_OK ? s.total_out : 0;
#else
    z_stream z = {0};
    if (deflateInit2(&z, level, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return 0;
    z.next_in = (Bytef *)(uintptr_t)in;
    z.avail_in = (uInt)bytes;
    z.next_out = out;
    z.avail_out = (uInt)out_size;
    int rc = deflate(&z, Z_FINISH);
    size_t done = z.total_out;
    deflateEnd(&z);
    return rc == Z_STREAM_END ? done : 0;
#endif
}
