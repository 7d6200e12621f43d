/* gzip_split.c — one gzip member inflated on all threads: chunking, the
 * speculative decode of each chunk, stitching in order with windows passed
 * along, narrowing to bytes and the trailer check (gzip_split.h). */
#include "io/gzip_split.h"
#include "core/threads.h"
#include "io/deflate_decode.h"
#include "io/gzip_crc.h"
#include "io/gzip_index.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* One chunk of the deflate data, in the slot of its round. */
typedef struct chunk {
    size_t from_bit, stop_bit; /* its first bit; stop at the first block boundary at or after stop_bit */
    deflate_symbols sym;       /* its text as symbols (buffer reused from round to round) */
    deflate_run run;
    int status;                /* DEFLATE_OK: run holds a decode from some start */
    size_t guess;              /* symbols its buffer starts with room for */
    size_t text_offset;        /* where its text goes, once stitched */
    uint32_t crc;              /* its text's, once narrowed */
    unsigned char window[DEFLATE_WINDOW]; /* the text before it, for its markers */
} chunk;

static uint32_t get32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Decodes c from its first dynamic block without its window (from the
 * data's start, with no window, when first). */
static void decode_speculative(const unsigned char *in, size_t in_len, chunk *c, int first, size_t cap)
{
    c->status = DEFLATE_BAD;
    if (!c->sym.data && deflate_symbols_init(&c->sym, c->guess))
        return;
    deflate_symbols_mark_window(&c->sym);
    for (size_t at = c->from_bit; at < c->stop_bit; at++) {
        if (!first && (at = deflate_find_dynamic(in, in_len, at, c->stop_bit)) >= c->stop_bit)
            return;
        c->sym.len = 0;
        c->run = (deflate_run){.start_bit = at, .stop_bit = c->stop_bit, .window = first ? 0 : DEFLATE_WINDOW,
                               .max_out = cap};
        c->status = deflate_decode(in, in_len, &c->run, &c->sym);
        if (c->status != DEFLATE_BAD || first)
            return;
    }
}

/* Decodes c from bit `at` knowing the text before it: window[0,
 * DEFLATE_WINDOW) of which the last `known` bytes are real. */
static int decode_known(const unsigned char *in, size_t in_len, chunk *c, size_t at, const unsigned char *window,
                        size_t known, size_t cap)
{
    for (size_t k = 0; k < DEFLATE_WINDOW; k++)
        c->sym.data[k] = window[k];
    c->sym.len = 0;
    c->run = (deflate_run){.start_bit = at, .stop_bit = c->stop_bit, .window = known, .max_out = cap};
    return deflate_decode(in, in_len, &c->run, &c->sym);
}

/* The byte a symbol stands for, given the window before its chunk. */
static inline unsigned char resolve(uint16_t s, const unsigned char *window)
{
    return s < 256 ? (unsigned char)s : window[s - DEFLATE_MARKER];
}

/* Slides window (the text before c) past c's text, whose markers refer
 * to c->window. */
static void window_advance(unsigned char *window, const chunk *c)
{
    size_t n = c->sym.len, keep = n < DEFLATE_WINDOW ? DEFLATE_WINDOW - n : 0;
    const uint16_t *s = c->sym.data + DEFLATE_WINDOW + n - (DEFLATE_WINDOW - keep);
    memmove(window, window + DEFLATE_WINDOW - keep, keep);
    for (size_t k = keep; k < DEFLATE_WINDOW; k++)
        window[k] = resolve(s[k - keep], c->window);
}

/* c's text as bytes at out: 64 symbols at a time straight when none is a
 * marker, else through a table of every symbol's byte (markers propagate
 * through matches, so they are not only near the chunk's start). */
static void narrow(const chunk *c, unsigned char *out, unsigned char *byte_of)
{
    for (unsigned k = 0; k < 256; k++)
        byte_of[k] = (unsigned char)k;
    memcpy(byte_of + DEFLATE_MARKER, c->window, DEFLATE_WINDOW);
    const uint16_t *s = c->sym.data + DEFLATE_WINDOW;
    size_t n = c->sym.len, i = 0;
    for (; i + 64 <= n; i += 64) {
        uint16_t any = 0;
        for (size_t k = 0; k < 64; k++)
            any |= s[i + k];
        if (any < 256)
            for (size_t k = 0; k < 64; k++)
                out[i + k] = (unsigned char)s[i + k];
        else
            for (size_t k = 0; k < 64; k++)
                out[i + k] = byte_of[s[i + k]];
    }
    for (; i < n; i++)
        out[i] = byte_of[s[i]];
}

int gzip_split_inflate(const unsigned char *file, size_t size, char *out, size_t cap, size_t chunk_bytes,
                       size_t *len)
{
    size_t head = gzip_header_size(file, size);
    if (!head || size < head + 1 + GZIP_TRAILER || !chunk_bytes)
        return 0;
    const unsigned char *in = file;
    const size_t in_len = size - GZIP_TRAILER; /* one member: its deflate data ends before the trailer */
    const size_t count = (in_len - head + chunk_bytes - 1) / chunk_bytes;
    const size_t slots = (size_t)GZIP_SPLIT_ROUND_PER_THREAD * (size_t)threads_available();
    chunk *chunks = calloc(slots, sizeof *chunks);
    unsigned char *window = calloc(1, DEFLATE_WINDOW);
    int ok = chunks && window, final = 0;
    size_t pos = head * 8, text = 0;
    uint32_t crc = 0;
    for (size_t first = 0; ok && !final && first < count; first += slots) {
        size_t n = count - first < slots ? count - first : slots;
        for (size_t k = 0; k < n; k++) {
            size_t j = first + k;
            chunks[k].from_bit = (head + j * chunk_bytes) * 8;
            chunks[k].stop_bit = j + 1 < count ? (head + (j + 1) * chunk_bytes) * 8 : SIZE_MAX;
            chunks[k].guess = 4 * chunk_bytes; /* text at 4:1 */
        }
#pragma omp parallel for schedule(dynamic, 1)
        for (size_t k = 0; k < n; k++)
            decode_speculative(in, in_len, &chunks[k], first + k == 0, cap);
        /* stitching, in order */
        size_t used = 0;
        for (size_t k = 0; ok && !final && k < n; k++, used++) {
            chunk *c = &chunks[k];
            memcpy(c->window, window, DEFLATE_WINDOW);
            c->text_offset = text;
            if (pos >= c->stop_bit) { /* the chunk before ran past this one */
                c->sym.len = 0;
                continue;
            }
            if (c->status != DEFLATE_OK || c->run.start_bit != pos) {
                if (!c->sym.data && deflate_symbols_init(&c->sym, c->guess)) {
                    ok = 0;
                    break;
                }
                size_t known = text < DEFLATE_WINDOW ? text : DEFLATE_WINDOW;
                c->status = decode_known(in, in_len, c, pos, window, known, cap);
            }
            ok = c->status == DEFLATE_OK && c->run.reach <= text && c->sym.len <= cap - text;
            if (!ok)
                break;
            window_advance(window, c);
            text += c->sym.len;
            pos = c->run.end_bit;
            final = c->run.final;
        }
        if (!ok)
            break;
#pragma omp parallel
        {
            unsigned char byte_of[1 << 16]; /* symbol -> byte (only bytes and markers are set) */
#pragma omp for schedule(dynamic, 1)
            for (size_t k = 0; k < used; k++) {
                chunk *c = &chunks[k];
                narrow(c, (unsigned char *)out + c->text_offset, byte_of);
                c->crc = gzip_crc32(0, out + c->text_offset, c->sym.len);
            }
        }
        for (size_t k = 0; k < used; k++)
            crc = gzip_crc32_combine(crc, chunks[k].crc, chunks[k].sym.len);
    }
    for (size_t k = 0; chunks && k < slots; k++)
        free(chunks[k].sym.data);
    free(chunks);
    free(window);
    /* one member: the trailer right after the deflate data, then the file's end */
    size_t end = (pos + 7) / 8;
    if (!ok || !final || end != in_len || get32(file + in_len) != crc || get32(file + in_len + 4) != (uint32_t)text)
        return 0;
    *len = text;
    return 1;
}
