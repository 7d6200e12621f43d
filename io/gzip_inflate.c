/* gzip_inflate.c — a gzip file of one or more members into memory, through
 * ISA-L or zlib (gzip_inflate.h). The two libraries sit behind one small
 * engine (start a member, run on a window of input and output); the loop
 * over the file's members, trailing garbage and the output cap is shared. */
#include "io/gzip_inflate.h"
#include "core/error.h"
#include "io/read_error.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if COARSEN_HAVE_ISAL
#include <isa-l/igzip_lib.h>
#else
#include <zlib.h>
#endif

enum { ENGINE_MORE = 0, ENGINE_MEMBER_END = 1, ENGINE_BAD = -1 };

/* One call never hands the libraries more than this (their counters are
 * 32-bit); the output window also sets how often progress is reported: every
 * 256 KiB, so that the readers' chunks (io/line_chunks.h) of a small file
 * are parsed while the rest inflates, not all after it. */
#define IN_BUFFER ((size_t)4 << 20)
#define OUT_WINDOW ((size_t)256 << 10)

#if COARSEN_HAVE_ISAL
typedef struct engine {
    struct inflate_state st;
} engine;

static int engine_init(engine *g)
{
    isal_inflate_init(&g->st);
    g->st.crc_flag = ISAL_GZIP;
    return 0;
}

static void engine_member_start(engine *g)
{
    isal_inflate_reset(&g->st);
    g->st.crc_flag = ISAL_GZIP;
}

static void engine_end(engine *g)
{
    (void)g;
}

static const char *isal_message(int rc)
{
    switch (rc) {
    case ISAL_INVALID_WRAPPER:
        return "bad gzip header";
    case ISAL_UNSUPPORTED_METHOD:
        return "not deflate-compressed";
    case ISAL_INCORRECT_CHECKSUM:
        return "CRC or length check failed";
    case ISAL_INVALID_LOOKBACK:
        return "invalid distance";
    case ISAL_INVALID_SYMBOL:
        return "invalid code";
    default:
        return "invalid block";
    }
}

static int engine_run(engine *g, const unsigned char **in, size_t *in_len, char **out, size_t *room, const char **msg)
{
    struct inflate_state *s = &g->st;
    uint32_t ain = (uint32_t)(*in_len < IN_BUFFER ? *in_len : IN_BUFFER);
    uint32_t aout = (uint32_t)(*room < OUT_WINDOW ? *room : OUT_WINDOW);
    s->next_in = (uint8_t *)*in;
    s->avail_in = ain;
    s->next_out = (uint8_t *)*out;
    s->avail_out = aout;
    int rc = isal_inflate(s);
    *in += ain - s->avail_in;
    *in_len -= ain - s->avail_in;
    *out += aout - s->avail_out;
    *room -= aout - s->avail_out;
    if (rc < 0 || rc == ISAL_NEED_DICT) {
        *msg = isal_message(rc);
        return ENGINE_BAD;
    }
    return s->block_state == ISAL_BLOCK_FINISH ? ENGINE_MEMBER_END : ENGINE_MORE;
}

const char *gzip_inflate_library(void)
{
    return "isa-l";
}
#else
typedef struct engine {
    z_stream zs;
} engine;

static int engine_init(engine *g)
{
    memset(&g->zs, 0, sizeof g->zs);
    return inflateInit2(&g->zs, 15 + 16) == Z_OK ? 0 : -1; /* gzip wrapper only */
}

static void engine_member_start(engine *g)
{
    inflateReset(&g->zs);
}

static void engine_end(engine *g)
{
    inflateEnd(&g->zs);
}

static int engine_run(engine *g, const unsigned char **in, size_t *in_len, char **out, size_t *room, const char **msg)
{
    z_stream *z = &g->zs;
    uInt ain = (uInt)(*in_len < IN_BUFFER ? *in_len : IN_BUFFER);
    uInt aout = (uInt)(*room < OUT_WINDOW ? *room : OUT_WINDOW);
    z->next_in = (Bytef *)*in;
    z->avail_in = ain;
    z->next_out = (Bytef *)*out;
    z->avail_out = aout;
    int rc = inflate(z, Z_NO_FLUSH);
    *in += ain - z->avail_in;
    *in_len -= ain - z->avail_in;
    *out += aout - z->avail_out;
    *room -= aout - z->avail_out;
    if (rc == Z_STREAM_END)
        return ENGINE_MEMBER_END;
    if (rc == Z_OK || rc == Z_BUF_ERROR)
        return ENGINE_MORE;
    *msg = z->msg ? z->msg : rc == Z_MEM_ERROR ? "out of memory" : "invalid data";
    return ENGINE_BAD;
}

const char *gzip_inflate_library(void)
{
    return "zlib";
}
#endif

/* Input: what the caller read first, then the rest of fd. */
typedef struct source {
    int fd;
    const char *name;
    const unsigned char *first;
    size_t first_len;
    unsigned char *buf;
    const unsigned char *p; /* unread bytes [p, p + avail) */
    size_t avail;
    int eof;
} source;

/* Makes at least one more byte available unless the file ended; -1 on a
 * read error (err set). Unread bytes are moved to the buffer's start. */
static int source_fill(source *s, coarsen_error *err)
{
    if (s->first_len) {
        s->p = s->first, s->avail = s->first_len, s->first_len = 0;
        return 0;
    }
    if (s->avail && s->p != s->buf)
        memmove(s->buf, s->p, s->avail);
    s->p = s->buf;
    while (!s->eof && s->avail < IN_BUFFER) {
        ssize_t got = read(s->fd, s->buf + s->avail, IN_BUFFER - s->avail);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            return error_set(err, COARSEN_ERR_IO, "%s: read failed: %s", s->name, strerror(errno)), -1;
        if (got == 0)
            s->eof = 1;
        s->avail += (size_t)got;
        if (got > 0)
            break;
    }
    return 0;
}

int gzip_inflate_fd(int fd, const char *name, const unsigned char *first, size_t first_len, char *out, size_t cap,
                    size_t *len, gzip_progress_fn progress, void *ctx, coarsen_error *err)
{
    *len = 0;
    source s = {.fd = fd, .name = name, .first = first, .first_len = first_len};
    s.buf = xmalloc(IN_BUFFER, "gzip input buffer", err);
    if (!s.buf)
        return COARSEN_ERR_NOMEM;
    engine g;
    if (engine_init(&g)) {
        free(s.buf);
        return error_nomem(err, "gzip stream", sizeof g);
    }
    char *o = out;
    size_t room = cap, reported = 0;
    const char *msg = NULL;
    int rc = COARSEN_OK, in_member = 1;
    for (;;) {
        if (!s.avail && !s.eof && source_fill(&s, err)) {
            rc = COARSEN_ERR_IO;
            break;
        }
        if (!in_member) {
            /* Between members: the end of the file, or another member. */
            if (!s.avail && s.eof)
                break;
            if (s.avail < 2 && !s.eof && source_fill(&s, err)) {
                rc = COARSEN_ERR_IO;
                break;
            }
            if (s.avail < 2 || s.p[0] != 0x1f || s.p[1] != 0x8b) {
                rc = error_set(err, COARSEN_ERR_INPUT, "%s:%lld: trailing garbage after the gzip data", name,
                               (long long)read_error_line_at(out, (size_t)(o - out)));
                break;
            }
            engine_member_start(&g);
            in_member = 1;
        }
        if (!s.avail && s.eof) {
            msg = "unexpected end of file";
            break;
        }
        size_t before_in = s.avail, before_room = room;
        int r = engine_run(&g, &s.p, &s.avail, &o, &room, &msg);
        if (r == ENGINE_BAD)
            break;
        if (r == ENGINE_MEMBER_END)
            in_member = 0;
        else if (!room) {
            rc = error_set(err, COARSEN_ERR_INPUT, "%s:%lld: decompresses to more than %zu bytes, the most this input may take",
                           name, (long long)read_error_line_at(out, (size_t)(o - out)), cap);
            break;
        } else if (s.avail == before_in && room == before_room && s.avail) {
            /* No progress with input and room left: the buffer holds less than the library needs. */
            if (s.eof) {
                msg = "unexpected end of file";
                break;
            }
            if (source_fill(&s, err)) {
                rc = COARSEN_ERR_IO;
                break;
            }
        }
        size_t produced = (size_t)(o - out);
        if (progress && produced - reported >= OUT_WINDOW) {
            if (progress(ctx, produced)) {
                rc = COARSEN_ERR_IO; /* cancelled: err left as it was */
                break;
            }
            reported = produced;
        }
    }
    engine_end(&g);
    free(s.buf);
    *len = (size_t)(o - out);
    if (!rc && msg)
        rc = error_set(err, COARSEN_ERR_INPUT, "%s:%lld: corrupt or truncated gzip data (%s)", name,
                       (long long)read_error_line_at(out, *len), msg);
    if (!rc && progress)
        (void)progress(ctx, *len);
    return rc;
}
