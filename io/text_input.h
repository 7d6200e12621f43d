/* text_input.h — the whole uncompressed text of an input file in memory, and
 * a cursor that walks it line by line with 1-based line numbers.
 *
 * Plain regular files are memory-mapped. A regular gzip file whose members
 * all record their sizes (ours and BGZF's, io/gzip_index.h) is inflated on
 * all OpenMP threads (from TEXT_INPUT_PARALLEL_MIN_THREADS on), member by
 * member, before text_input_open returns; so is a large regular file of
 * one member without an index (io/gzip_split.h, from
 * TEXT_INPUT_SPLIT_MIN_THREADS). Any other
 * gzip (recognised by its magic bytes, whatever the name; one or more
 * members) is inflated by a thread of its own into a reserved region that
 * never moves, so that a reader can parse the text while it is still being
 * inflated (text_input_wait); "-" is standard input. The text is capped at
 * the memory available (and what the address space allows), and gzip
 * output at the 1032:1 that deflate can expand at most. There is no
 * line length limit: a line is just a span of the buffer. */
#ifndef IO_TEXT_INPUT_H
#define IO_TEXT_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "coarsen.h"

#ifdef __cplusplus
extern "C" {
#endif

/* gzip files whose members all carry our size index (docs/formats.md) are
 * inflated on all threads, member by member, before text_input_open
 * returns, when OpenMP has at least this many threads; below it the
 * streaming thread is faster: one core inflating beside the parsing ones
 * (2 cores: 272 against 343 ms for a 213 MB text, docs/benchmarks.md). */
#define TEXT_INPUT_PARALLEL_MIN_THREADS 3

/* Any other regular gzip file (one member, as gzip writes it) of at least
 * TEXT_INPUT_SPLIT_MIN_BYTES is inflated on all threads too (io/gzip_split.h)
 * before text_input_open returns, from TEXT_INPUT_SPLIT_MIN_THREADS threads
 * on; smaller files, fewer threads, and whatever that path doubts (several
 * members, corrupt data) go to the streaming thread. One thread of the
 * split path inflates at a third of ISA-L's speed (16-bit output, narrowing
 * after), and the streaming thread overlaps parsing: on 16 cores, reading
 * rgg 2^21 (.mtx.gz) is slower with it at 4 and 6 threads, faster from 8
 * (gzip -1: 262-301 ms against 320-356; gzip -6 about even), 240-290 ms
 * against 300-440 at 16 (bench/results/2026-11-28-s17-pgz-s17). */
#define TEXT_INPUT_SPLIT_MIN_BYTES ((size_t)8 << 20)
#define TEXT_INPUT_SPLIT_MIN_THREADS 8

/* Readable bytes after the NUL of a padded text (text_input.padded): an
 * 8-byte load may start at any byte of it. */
#define TEXT_INPUT_PAD 8

typedef struct text_stream text_stream;

typedef struct text_input {
    char *data;        /* the text, owned; NUL at data[len] once complete */
    size_t len;        /* bytes, once complete (text_input_finish) */
    const char *name;  /* the path as given, for messages (not owned) */
    size_t size_hint;  /* an upper bound of len known at open (0: none) */
    int gzip;          /* 1: inflated from gzip */
    double inflate_ms; /* time inflating took (gzip only) */
    int padded;        /* 1: TEXT_INPUT_PAD readable bytes follow data[len] (a
                        * text complete at open, not streamed nor wrapped) */
    /* private */
    text_stream *stream; /* non-NULL while a thread inflates */
    size_t region;       /* bytes reserved at data (0: data is malloc'ed or wrapped) */
    int owned;
} text_input;

/* Reads path (or standard input for "-") completely: text_input_open then
 * text_input_finish. A truncated or corrupt gzip stream is an input error
 * naming the file. */
int text_input_load(const char *path, text_input *t, coarsen_error *err);

/* Opens path and starts inflating it when it is gzip; returns at once. Until
 * text_input_finish, only the bytes that text_input_wait reports are final
 * (t->len is 0). Errors of opening or reading a plain file, and of
 * inflating an indexed gzip file (then complete on return: no thread), are
 * returned here; those of inflating other gzip by text_input_finish. On
 * error t holds nothing to free. */
int text_input_open(const char *path, text_input *t, coarsen_error *err);
/* Blocks until at least want bytes are final or the text is complete;
 * returns the number of final bytes (< want only when complete).
 * *complete (may be NULL) tells which. */
size_t text_input_wait(text_input *t, size_t want, int *complete);
/* Waits until the whole lines final so far satisfy ready(data, end) (a
 * header is there) or the text is complete, and returns the end of those
 * lines (the text's end when complete). NULL, err set, when the text ended
 * in a gzip error (text_input_finish's). */
const char *text_input_window(text_input *t, int (*ready)(const char *begin, const char *end), coarsen_error *err);
/* Waits for the whole text; sets t->len and the NUL. The inflating
 * thread's error, if any. Idempotent. */
int text_input_finish(text_input *t, coarsen_error *err);

/* Wraps a caller's buffer (not copied, not freed by text_input_free); data
 * must stay valid and have a NUL at data[len]. */
void text_input_wrap(text_input *t, const char *name, const char *data, size_t len);
/* Stops and joins an inflating thread, releases the text. */
void text_input_free(text_input *t);

/* A line cursor over [p, end). */
typedef struct text_cursor {
    const char *p, *end;
    int64_t line;      /* number of the line last returned (1-based) */
} text_cursor;

static inline void text_cursor_init(text_cursor *c, const char *p, const char *end)
{
    c->p = p;
    c->end = end;
    c->line = 0;
}

/* Returns the next line as [*ls, *le) without its "\n" or "\r\n"; 0 at the
 * end of the text. */
static inline int text_next_line(text_cursor *c, const char **ls, const char **le)
{
    if (c->p >= c->end)
        return 0;
    const char *s = c->p, *nl = (const char *)memchr(s, '\n', (size_t)(c->end - s));
    const char *e = nl ? nl : c->end;
    c->p = nl ? nl + 1 : c->end;
    if (e > s && e[-1] == '\r')
        e--;
    *ls = s;
    *le = e;
    c->line++;
    return 1;
}

/* Skips spaces and tabs. */
static inline const char *text_skip_blank(const char *p, const char *e)
{
    while (p < e && (*p == ' ' || *p == '\t'))
        p++;
    return p;
}

/* The common token of integer input, found 8 bytes at a time (SWAR): when
 * [s, e) starts with 1 to 8 decimal digits followed by a blank or the line
 * end e, returns their count and their value in *v; else 0. Reads
 * [s, s + 8), and s[8] after 8 digits: so [s, e) must hold at least 8 bytes
 * unless padded (8 bytes may be read from any byte of the line: a padded
 * text, whose lines end at a newline or its NUL), and 9 for a ninth. */
static inline int text_digits_blank(const char *s, const char *e, int padded, uint64_t *v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    const ptrdiff_t room = e - s;
    if (room < 8 && !(padded && room > 0))
        return 0;
    uint64_t x;
    memcpy(&x, s, 8);
    /* byte by byte: digit value for '0'..'9'; the high bit of nondigit gets
     * set for every other byte (>= 10 after the xor, or with its own high
     * bit), with no carry between bytes */
    const uint64_t ones = 0x0101010101010101u;
    uint64_t a = x ^ (0x30 * ones), nondigit = (((a & (0x7f * ones)) + 0x76 * ones) | a) & (0x80 * ones);
    int len = nondigit ? __builtin_ctzll(nondigit) >> 3 : 8; /* the first byte is the lowest (little-endian) */
    if (len > room) /* bytes past the line end are not the token's */
        len = (int)room;
    if (len == 0 || (len < room && s[len] != ' ' && s[len] != '\t'))
        return 0;
    /* the digits moved to the top bytes (leading zeros below), then pairs,
     * quads and octets combined: byte 0 is the most significant digit */
    uint64_t d = len == 8 ? a : a << (8 * (8 - len));
    d = (d * 10 + (d >> 8)) & 0x00ff00ff00ff00ffu;
    d = (d * 100 + (d >> 16)) & 0x0000ffff0000ffffu;
    *v = (d * 10000 + (d >> 32)) & 0xffffffffu;
    return len;
#else
    (void)s, (void)e, (void)padded, (void)v;
    return 0; /* text_parse_int's byte loop does it all */
#endif
}

/* text_parse_int for a token that starts right at *p (no blanks before);
 * padded: as text_digits_blank's. */
static inline int text_parse_int_here(const char **p, const char *e, int padded, int64_t *out)
{
    const char *s = *p;
    uint64_t fast;
    int len = text_digits_blank(s, e, padded, &fast);
    if (len) {
        *out = (int64_t)fast;
        *p = s + len;
        return 1;
    }
    int neg = 0;
    if (s < e && (*s == '-' || *s == '+'))
        neg = *s++ == '-';
    const char *d = s;
    uint64_t v = 0;
    while (s < e && (unsigned)(*s - '0') < 10)
        v = v * 10 + (unsigned)(*s++ - '0');
    if (s == d || (s < e && *s != ' ' && *s != '\t'))
        return 0;
    if (s - d > 18) {
        /* Up to 19 significant digits are exact in uint64; more overflow. */
        while (d < s && *d == '0')
            d++;
        if (s - d > 19 || v > (uint64_t)INT64_MAX + (uint64_t)neg)
            return -1;
    }
    *out = neg ? (int64_t)(0 - v) : (int64_t)v;
    *p = s;
    return 1;
}

/* text_parse_int on a line [*p, e) of a padded text (padded = 1) or not. */
static inline int text_parse_int_pad(const char **p, const char *e, int padded, int64_t *out)
{
    const char *s = text_skip_blank(*p, e);
    int r = text_parse_int_here(&s, e, padded, out);
    if (r == 1)
        *p = s;
    return r;
}

/* Parses an optionally signed decimal integer at *p (after blanks) that ends
 * at a blank or the line end. 1 on success (advances *p), 0 when the text is
 * not such an integer, -1 when it overflows int64. */
static inline int text_parse_int(const char **p, const char *e, int64_t *out)
{
    return text_parse_int_pad(p, e, 0, out);
}

/* Parses a real number (ending at a blank or the line end): a fast path for
 * [-+]digits[.digits][e[-+]digits] with at most 19 digits, and
 * strtod for anything else (exactness of the fast path: see text_input.c).
 * 1 on success, 0 when not a number, -1 when NaN or infinite. */
int text_parse_real(const char **p, const char *e, double *out);

#ifdef __cplusplus
}
#endif
#endif
