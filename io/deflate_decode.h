/* deflate_decode.h — a raw deflate (RFC 1951) decoder that can start at any
 * block boundary of a stream without knowing the 32 KiB window before it,
 * and the search for such a boundary: what inflating one gzip member on
 * several threads needs (io/gzip_split.h).
 *
 * Output is 16-bit symbols: a byte (0..255), or DEFLATE_MARKER + k, "byte k
 * of the window before the start" (k = DEFLATE_WINDOW - 1 is the byte just
 * before it), for a match that reaches back past the start. Where the
 * window is known, the caller puts its bytes there as symbols and no marker
 * comes out. The decoder accepts exactly what zlib's inflate accepts
 * (prefix codes complete, or a single code of one bit for literals/lengths
 * and distances; no symbols 286, 287, distances 30, 31; a distance back to
 * no more than the window allows). */
#ifndef IO_DEFLATE_DECODE_H
#define IO_DEFLATE_DECODE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DEFLATE_WINDOW 32768
#define DEFLATE_MARKER 0x8000u

/* Symbols written past the end of the output (a copy may overrun it). */
#define DEFLATE_SLACK 32

/* A growable symbol buffer: data[0, DEFLATE_WINDOW) is the window before
 * the start (filled by the caller: markers, bytes or nothing usable), the
 * output follows at data + DEFLATE_WINDOW. Owned by the caller (free(data)). */
typedef struct deflate_symbols {
    uint16_t *data;
    size_t len; /* output symbols after the window */
    size_t cap; /* room for output symbols after the window (plus DEFLATE_SLACK) */
} deflate_symbols;

/* Allocates a buffer with room for cap output symbols; 0, or -1 when out of
 * memory. Its window is left for the caller to fill. */
int deflate_symbols_init(deflate_symbols *s, size_t cap);
/* Fills the window with markers: DEFLATE_MARKER + k at k. */
void deflate_symbols_mark_window(deflate_symbols *s);

/* One decoding run. */
typedef struct deflate_run {
    size_t start_bit; /* [in] the first bit of a block header */
    size_t stop_bit;  /* [in] stop at the first block boundary at or after it */
    size_t window;    /* [in] symbols before the start a match may reach (<= DEFLATE_WINDOW) */
    size_t max_out;   /* [in] more output symbols than this is an error */
    size_t end_bit;   /* [out] the bit after the last block decoded */
    int final;        /* [out] 1: that block was the stream's last (BFINAL) */
    size_t reach;     /* [out] the farthest a match reached back before the start (0: never) */
} deflate_run;

enum { DEFLATE_OK = 0, DEFLATE_BAD = -1, DEFLATE_NOMEM = -2 };

/* Decodes in[0, in_len) ([in]) from r->start_bit, block after block, until
 * the last block or the first block boundary at or after r->stop_bit (at
 * least one block), appending to out ([in,out]: its len grows, data may
 * move). DEFLATE_OK; DEFLATE_BAD for invalid data, data that runs past
 * in_len, or more than r->max_out symbols; DEFLATE_NOMEM when out cannot
 * grow. */
int deflate_decode(const unsigned char *in, size_t in_len, deflate_run *r, deflate_symbols *out);

/* The first bit b in [from_bit, to_bit) of in[0, in_len) ([in]) where a
 * dynamic-Huffman block that is not the last starts (BFINAL 0, BTYPE 2)
 * with a valid header: counts in range, and its code-length code and
 * literal/length and distance codes valid as deflate_decode requires.
 * Returns b, or to_bit when there is none. Not every such b is a real
 * block start: a caller decodes from it to know. */
size_t deflate_find_dynamic(const unsigned char *in, size_t in_len, size_t from_bit, size_t to_bit);

#ifdef __cplusplus
}
#endif
#endif
