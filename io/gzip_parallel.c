/* gzip_parallel.c — walking an indexed gzip file's members and inflating
 * them on all threads (gzip_parallel.h). Each thread owns one raw-deflate
 * decoder (ISA-L stateless inflate, or a zlib stream with windowBits -15)
 * and inflates whole members into their final place in the output. */
#include "io/gzip_parallel.h"
#include "core/error.h"
#include "io/read_error.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if COARSEN_HAVE_ISAL
#include <isa-l/igzip_lib.h>
#else
#include <zlib.h>
#endif

int gzip_members_walk(const unsigned char *file, size_t size, gzip_member **members, size_t *count,
                      size_t *text_bytes, coarsen_error *err)
{
    *members = NULL, *count = 0, *text_bytes = 0;
    gzip_member first;
    if (!gzip_index_read_member(file, size, &first))
        return 0;
    /* A first guess from the first member's size; grown when wrong. */
    size_t cap = size / first.size + 16, n = 0, at = 0, text = 0;
    gzip_member *list = xmalloc(cap * sizeof *list, "gzip member list", err);
    if (!list)
        return COARSEN_ERR_NOMEM;
    while (at < size) {
        gzip_member m;
        if (!gzip_index_read_member(file + at, size - at, &m)) {
            free(list);
            return 0;
        }
        if (n == cap) {
            gzip_member *more = realloc(list, 2 * cap * sizeof *list);
            if (!more) {
                free(list);
                return error_nomem(err, "gzip member list", 2 * cap * sizeof *list);
            }
            list = more, cap *= 2;
        }
        m.offset = at;
        m.text_offset = text;
        list[n++] = m;
        at += m.size;
        text += m.text_size;
    }
    *members = list, *count = n, *text_bytes = text;
    return 1;
}

/* One thread's raw-deflate decoder. */
#if COARSEN_HAVE_ISAL
typedef struct decoder {
    struct inflate_state st;
} decoder;

static decoder *decoder_new(void)
{
    return malloc(sizeof(decoder));
}

static void decoder_free(decoder *d)
{
    free(d);
}

/* Inflates in[0, in_len) into out[0, out_len) exactly; NULL or why not. */
static const char *decoder_run(decoder *d, const unsigned char *in, size_t in_len, char *out, size_t out_len,
                               uint32_t crc)
{
    struct inflate_state *s = &d->st;
    isal_inflate_init(s);
    s->crc_flag = ISAL_GZIP_NO_HDR; /* raw deflate, CRC32 of the output into s->crc */
    s->next_in = (uint8_t *)(uintptr_t)in;
    s->avail_in = (uint32_t)in_len;
    s->next_out = (uint8_t *)out;
    s->avail_out = (uint32_t)out_len;
    int rc = isal_inflate_stateless(s);
    if (rc == ISAL_OUT_OVERFLOW)
        return "more text than its trailer says";
    if (rc == ISAL_END_INPUT && s->block_state != ISAL_BLOCK_FINISH)
        return "unexpected end of member";
    if (rc != ISAL_DECOMP_OK && rc != ISAL_END_INPUT)
        return "invalid deflate data";
    if (s->avail_in)
        return "deflate data ends before the trailer";
    if (s->avail_out)
        return "less text than its trailer says";
    return s->crc == crc ? NULL : "CRC check failed";
}
#else
typedef struct decoder {
    z_stream zs;
} decoder;

static decoder *decoder_new(void)
{
    decoder *d = calloc(1, sizeof *d);
    if (d && inflateInit2(&d->zs, -15) != Z_OK) {
        free(d);
        d = NULL;
    }
    return d;
}

static void decoder_free(decoder *d)
{
    if (d)
        inflateEnd(&d->zs);
    free(d);
}

static const char *decoder_run(decoder *d, const unsigned char *in, size_t in_len, char *out, size_t out_len,
                               uint32_t crc)
{
    z_stream *z = &d->zs;
    inflateReset(z);
    z->next_in = (Bytef *)(uintptr_t)in;
    z->avail_in = (uInt)in_len;
    z->next_out = (Bytef *)out;
    z->avail_out = (uInt)out_len;
    int rc = inflate(z, Z_FINISH);
    if (rc == Z_BUF_ERROR)
        return z->avail_out ? "unexpected end of member" : "more text than its trailer says";
    if (rc != Z_STREAM_END)
        return z->msg ? z->msg : "invalid deflate data";
    if (z->avail_in)
        return "deflate data ends before the trailer";
    if (z->avail_out)
        return "less text than its trailer says";
    return (uint32_t)crc32_z(0, (const Bytef *)out, out_len) == crc ? NULL : "CRC check failed";
}
#endif

int gzip_members_inflate(const char *name, const unsigned char *file, const gzip_member *members, size_t count,
                         char *out, coarsen_error *err)
{
    size_t bad = count; /* the first bad member (count: none) */
    const char *why = NULL;
    int nomem = 0;
#pragma omp parallel if (count > 1)
    {
        decoder *d = decoder_new();
        if (!d) {
#pragma omp atomic write
            nomem = 1;
        }
#pragma omp for schedule(dynamic, 1)
        for (size_t k = 0; k < count; k++) {
            size_t first_bad;
#pragma omp atomic read
            first_bad = bad;
            if (!d || k > first_bad) /* only members before the first bad one matter */
                continue;
            const gzip_member *m = &members[k];
            const unsigned char *in = file + m->offset + m->data;
            size_t in_len = m->size - m->data - GZIP_TRAILER;
            const char *msg = decoder_run(d, in, in_len, out + m->text_offset, m->text_size, m->crc);
            if (msg) {
#pragma omp critical(gzip_members_bad)
                if (k < bad) {
                    why = msg;
#pragma omp atomic write
                    bad = k;
                }
            }
        }
        decoder_free(d);
    }
    if (nomem)
        return error_nomem(err, "gzip decoder", sizeof(decoder));
    if (bad < count)
        return error_set(err, COARSEN_ERR_INPUT, "%s:%lld: corrupt or truncated gzip data (member at byte %zu: %s)",
                         name, (long long)read_error_line_at(out, members[bad].text_offset), members[bad].offset,
                         why);
    return COARSEN_OK;
}
