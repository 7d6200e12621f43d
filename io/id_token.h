/* id_token.h — the common token of a METIS adjacency line (blanks, then 1
 * to 8 decimal digits ending at a blank or the line end) found and
 * converted from one 16-byte load (SSE2), in place of skipping the blanks
 * byte by byte and then reading the digits. Everything else (longer
 * numbers, signs, bad text, the last 15 bytes before the readable limit, no
 * SSE2) is left to the caller's general parse (text_parse_int_here), which
 * gives the same values and the same errors. */
#ifndef IO_ID_TOKEN_H
#define IO_ID_TOKEN_H

#include <stdint.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

typedef enum id_token_kind {
    ID_TOKEN_OTHER = 0, /* not decided here: the caller parses [p, e) itself */
    ID_TOKEN_ID,        /* *v [out] its value, *next [out] the byte after its digits */
    ID_TOKEN_LINE_END   /* [p, e) is blanks only (or empty) */
} id_token_kind;

/* At p in a line [p, e) (e at the line's '\r' or '\n', or at limit) whose
 * bytes are readable up to limit (>= e): the kind of what [p, e) starts
 * with. Reads [p, p + 16) only when that is below limit. */
static inline id_token_kind id_token_next(const char *p, const char *e, const char *limit, uint64_t *v,
                                          const char **next)
{
#if defined(__SSE2__)
    if (limit - p < 24) /* the 16 bytes, and 8 from the token's start */
        return ID_TOKEN_OTHER;
    const __m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
    const unsigned blank = (unsigned)_mm_movemask_epi8(
        _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8(' ')), _mm_cmpeq_epi8(x, _mm_set1_epi8('\t'))));
    const __m128i d = _mm_sub_epi8(x, _mm_set1_epi8('0')); /* digits: 0..9 unsigned */
    const unsigned digit = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(d, _mm_set1_epi8(9)), d));
    const ptrdiff_t room = e - p;
    const unsigned start = (unsigned)__builtin_ctz(~blank); /* first non-blank, 16 when none */
    if (start >= room) {
        *next = e;
        return ID_TOKEN_LINE_END;
    }
    const unsigned len = (unsigned)__builtin_ctz(~(digit >> start)), end = start + len;
    /* 1..8 digits, then the line end or a blank inside the block (blank has
     * no bit 16: a token reaching the block's end is not decided here) */
    if (len - 1 >= 8 || (end != room && !((blank >> end) & 1)))
        return ID_TOKEN_OTHER;
    uint64_t digits;
    memcpy(&digits, p + start, 8);
    /* the digits moved to the top bytes (the first is the lowest byte,
     * little-endian), then pairs, quads and octets combined */
    const uint64_t ones = 0x0101010101010101u;
    uint64_t a = (digits ^ (0x30 * ones)) << (8 * (8 - len));
    a = (a * 10 + (a >> 8)) & 0x00ff00ff00ff00ffu;
    a = (a * 100 + (a >> 16)) & 0x0000ffff0000ffffu;
    *v = (a * 10000 + (a >> 32)) & 0xffffffffu;
    *next = p + end;
    return ID_TOKEN_ID;
#else
    (void)p, (void)e, (void)limit, (void)v, (void)next;
    return ID_TOKEN_OTHER;
#endif
}

#endif
