/* deflate_decode.c — the marker-aware raw deflate decoder and the search
 * for dynamic block headers (deflate_decode.h). Huffman decoding is
 * table-driven: a 64-bit bit buffer refilled 8 bytes at a time, a 10-bit
 * first-level table for literals/lengths (8 bits for distances) with one
 * level of subtables for longer codes. */
#include "io/deflate_decode.h"

#include <stdlib.h>
#include <string.h>

/* ---- bit input ---- */

typedef struct bits {
    const unsigned char *in;
    size_t len;     /* bytes of input */
    size_t pos;     /* next byte to load (may pass len: zeros are loaded there) */
    uint64_t buf;   /* unconsumed bits, lowest first */
    unsigned cnt;   /* bits in buf */
} bits;

static void bits_at(bits *b, const unsigned char *in, size_t len, size_t bit)
{
    b->in = in, b->len = len, b->pos = bit / 8, b->buf = 0, b->cnt = 0;
    unsigned skip = (unsigned)(bit % 8);
    if (skip) {
        b->buf = b->pos < len ? (uint64_t)(in[b->pos] >> skip) : 0;
        b->cnt = 8 - skip;
        b->pos++;
    }
}

/* At least 56 bits in buf. Past the input's end zeros come in; the caller
 * sees it in bits_over. */
static inline void bits_refill(bits *b)
{
    if (b->pos + 8 <= b->len) {
        uint64_t v;
        memcpy(&v, b->in + b->pos, 8);
        b->buf |= v << b->cnt;
        b->pos += (63 - b->cnt) >> 3;
        b->cnt |= 56;
        return;
    }
    while (b->cnt < 56) {
        uint64_t v = b->pos < b->len ? b->in[b->pos] : 0;
        b->buf |= v << b->cnt;
        b->pos++;
        b->cnt += 8;
    }
}

static inline size_t bits_position(const bits *b)
{
    return b->pos * 8 - b->cnt;
}

/* 1 when bits past the input's end were consumed. */
static inline int bits_over(const bits *b)
{
    return bits_position(b) > b->len * 8;
}

static inline unsigned bits_take(bits *b, unsigned n)
{
    unsigned v = (unsigned)(b->buf & ((1u << n) - 1));
    b->buf >>= n;
    b->cnt -= n;
    return v;
}

/* ---- prefix code tables ----
 * An entry: bits 0-3 the bits to consume (for a subtable link: its index
 * bits), bits 4-7 the kind, bits 8-11 extra bits, bits 16-31 the value
 * (literal, length or distance base, subtable offset). */
enum { K_LIT = 0, K_LEN = 1, K_END = 2, K_SUB = 3, K_BAD = 4 };
#define ENTRY(kind, extra, value) ((uint32_t)(kind) << 4 | (uint32_t)(extra) << 8 | (uint32_t)(value) << 16)
#define E_BITS(e) ((e) & 15u)
#define E_KIND(e) (((e) >> 4) & 15u)
#define E_EXTRA(e) (((e) >> 8) & 15u)
#define E_VALUE(e) ((e) >> 16)

#define LIT_BITS 10
#define DIST_BITS 8
#define MAX_LEN 15
#define LIT_SYMS 288
#define DIST_SYMS 32
/* a first level and, at most, one subtable of 2^(MAX_LEN - bits) per code */
#define LIT_TABLE ((1 << LIT_BITS) + LIT_SYMS * (1 << (MAX_LEN - LIT_BITS)))
#define DIST_TABLE ((1 << DIST_BITS) + DIST_SYMS * (1 << (MAX_LEN - DIST_BITS)))

static const uint16_t len_base[29] = {3,  4,  5,  6,  7,  8,  9,  10, 11,  13,  15,  17,  19,  23, 27,
                                      31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
static const uint8_t len_extra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                      2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
static const uint16_t dist_base[30] = {1,   2,   3,   4,   5,   7,    9,    13,   17,   25,   33,   49,   65,    97,    129,
                                       193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
static const uint8_t dist_extra[30] = {0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6,
                                       6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};

static uint32_t lit_entry(unsigned sym)
{
    if (sym < 256)
        return ENTRY(K_LIT, 0, sym);
    if (sym == 256)
        return ENTRY(K_END, 0, 0);
    if (sym < 286)
        return ENTRY(K_LEN, len_extra[sym - 257], len_base[sym - 257]);
    return ENTRY(K_BAD, 0, 0);
}

static uint32_t dist_entry(unsigned sym)
{
    return sym < 30 ? ENTRY(K_LEN, dist_extra[sym], dist_base[sym]) : ENTRY(K_BAD, 0, 0);
}

static uint32_t code_length_entry(unsigned sym)
{
    return ENTRY(K_LIT, 0, sym);
}

/* Checks code lengths lens[0, n) like zlib: not over-subscribed; complete,
 * or (when single_ok) one code of one bit, or (single_ok) no code at all.
 * 1 when valid; *max_len set. */
static int lengths_valid(const uint8_t *lens, unsigned n, int single_ok, unsigned *max_len)
{
    unsigned count[MAX_LEN + 1] = {0};
    for (unsigned s = 0; s < n; s++)
        count[lens[s]]++;
    unsigned max = MAX_LEN;
    while (max > 0 && !count[max])
        max--;
    *max_len = max;
    if (max == 0)
        return single_ok;
    int left = 1;
    for (unsigned l = 1; l <= MAX_LEN; l++) {
        left = 2 * left - (int)count[l];
        if (left < 0)
            return 0;
    }
    return left == 0 || (single_ok && max == 1);
}

static unsigned reverse(unsigned code, unsigned len)
{
    unsigned r = 0;
    for (unsigned i = 0; i < len; i++, code >>= 1)
        r = r << 1 | (code & 1);
    return r;
}

/* Builds the table for valid lengths lens[0, n) (lengths_valid), entries
 * from entry(symbol), with a first level of tb bits. */
static void table_build(uint32_t *table, unsigned tb, const uint8_t *lens, unsigned n, unsigned max_len,
                        uint32_t (*entry)(unsigned))
{
    unsigned count[MAX_LEN + 1] = {0}, next[MAX_LEN + 2];
    for (unsigned s = 0; s < n; s++)
        count[lens[s]]++;
    count[0] = 0;
    next[1] = 0;
    for (unsigned l = 1; l <= MAX_LEN; l++)
        next[l + 1] = (next[l] + count[l]) << 1;
    const uint32_t bad = ENTRY(K_BAD, 0, 0);
    for (unsigned i = 0; i < (1u << tb); i++)
        table[i] = bad;
    unsigned sb = max_len > tb ? max_len - tb : 0, used = 1u << tb;
    for (unsigned s = 0; s < n; s++) {
        unsigned len = lens[s];
        if (!len)
            continue;
        unsigned rev = reverse(next[len]++, len);
        uint32_t e = entry(s);
        if (len <= tb) {
            for (unsigned i = rev; i < (1u << tb); i += 1u << len)
                table[i] = e | len;
            continue;
        }
        unsigned prefix = rev & ((1u << tb) - 1);
        if (E_KIND(table[prefix]) != K_SUB) {
            table[prefix] = ENTRY(K_SUB, 0, used) | sb;
            for (unsigned i = 0; i < (1u << sb); i++)
                table[used + i] = bad;
            used += 1u << sb;
        }
        uint32_t *sub = table + E_VALUE(table[prefix]);
        unsigned sublen = len - tb;
        for (unsigned i = rev >> tb; i < (1u << sb); i += 1u << sublen)
            sub[i] = e | sublen;
    }
}

/* The entry for the next code in b (56 bits available). */
static inline uint32_t table_lookup(const uint32_t *table, unsigned tb, bits *b)
{
    uint32_t e = table[b->buf & ((1u << tb) - 1)];
    if (E_KIND(e) == K_SUB) {
        bits_take(b, tb);
        e = table[E_VALUE(e) + (b->buf & ((1u << E_BITS(e)) - 1))];
    }
    bits_take(b, E_BITS(e));
    return e;
}

typedef struct codes {
    uint32_t lit[LIT_TABLE];
    uint32_t dist[DIST_TABLE];
} codes;

/* Reads a dynamic block's header (after BFINAL and BTYPE) into c; 1 when
 * valid. */
static int read_dynamic(bits *b, codes *c)
{
    static const uint8_t order[19] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};
    bits_refill(b);
    unsigned nlit = bits_take(b, 5) + 257, ndist = bits_take(b, 5) + 1, ncl = bits_take(b, 4) + 4;
    if (nlit > 286 || ndist > 30)
        return 0;
    uint8_t cl[19] = {0};
    for (unsigned i = 0; i < ncl; i++) {
        if (b->cnt < 3)
            bits_refill(b);
        cl[order[i]] = (uint8_t)bits_take(b, 3);
    }
    unsigned max;
    if (!lengths_valid(cl, 19, 0, &max))
        return 0;
    uint32_t cl_table[1 << 7];
    table_build(cl_table, 7, cl, 19, max, code_length_entry);
    uint8_t lens[286 + 30];
    unsigned n = nlit + ndist;
    for (unsigned i = 0; i < n;) {
        bits_refill(b);
        uint32_t e = table_lookup(cl_table, 7, b);
        unsigned sym = E_VALUE(e), rep, val;
        if (sym < 16) {
            lens[i++] = (uint8_t)sym;
            continue;
        }
        if (sym == 16) {
            if (i == 0)
                return 0;
            val = lens[i - 1], rep = 3 + bits_take(b, 2);
        } else if (sym == 17)
            val = 0, rep = 3 + bits_take(b, 3);
        else
            val = 0, rep = 11 + bits_take(b, 7);
        if (i + rep > n)
            return 0;
        memset(lens + i, (int)val, rep);
        i += rep;
    }
    if (!lens[256])
        return 0;
    unsigned lmax, dmax;
    if (!lengths_valid(lens, nlit, 1, &lmax) || !lengths_valid(lens + nlit, ndist, 1, &dmax))
        return 0;
    table_build(c->lit, LIT_BITS, lens, nlit, lmax, lit_entry);
    table_build(c->dist, DIST_BITS, lens + nlit, ndist, dmax, dist_entry);
    return 1;
}

static void fixed_codes(codes *c)
{
    uint8_t lens[LIT_SYMS];
    memset(lens, 8, 144);
    memset(lens + 144, 9, 112);
    memset(lens + 256, 7, 24);
    memset(lens + 280, 8, 8);
    table_build(c->lit, LIT_BITS, lens, LIT_SYMS, 9, lit_entry);
    memset(lens, 5, DIST_SYMS);
    table_build(c->dist, DIST_BITS, lens, DIST_SYMS, 5, dist_entry);
}

/* ---- output ---- */

int deflate_symbols_init(deflate_symbols *s, size_t cap)
{
    s->len = 0;
    s->cap = cap;
    s->data = malloc((DEFLATE_WINDOW + cap + DEFLATE_SLACK) * sizeof *s->data);
    return s->data ? 0 : -1;
}

void deflate_symbols_mark_window(deflate_symbols *s)
{
    for (unsigned k = 0; k < DEFLATE_WINDOW; k++)
        s->data[k] = (uint16_t)(DEFLATE_MARKER + k);
}

/* Room for at least `need` more output symbols; 0 or DEFLATE_NOMEM. */
static int symbols_grow(deflate_symbols *s, size_t need)
{
    size_t cap = s->cap * 2 > s->len + need ? s->cap * 2 : s->len + need;
    uint16_t *d = realloc(s->data, (DEFLATE_WINDOW + cap + DEFLATE_SLACK) * sizeof *d);
    if (!d)
        return DEFLATE_NOMEM;
    s->data = d, s->cap = cap;
    return DEFLATE_OK;
}

/* ---- decoding ---- */

/* Copies len symbols from dist back; may write DEFLATE_SLACK past the end. */
static inline void copy_match(uint16_t *o, size_t dist, unsigned len)
{
    const uint16_t *src = o - dist;
    uint16_t *end = o + len;
    if (dist >= 16) {
        do {
            memcpy(o, src, 32);
            o += 16, src += 16;
        } while (o < end);
    } else if (dist >= 8) {
        do {
            memcpy(o, src, 16);
            o += 8, src += 8;
        } while (o < end);
    } else if (dist >= 4) {
        do {
            memcpy(o, src, 8);
            o += 4, src += 4;
        } while (o < end);
    } else {
        do
            *o++ = *src++;
        while (o < end);
    }
}

/* Decodes one Huffman-coded block's data with c. */
static int decode_huffman(bits *bp, const codes *c, deflate_run *r, deflate_symbols *s)
{
    bits local = *bp, *b = &local; /* in registers, not memory the output may alias */
    int rc = DEFLATE_OK;
    uint16_t *base = s->data + DEFLATE_WINDOW, *o = base + s->len, *limit = base + s->cap;
    const size_t window = r->window;
    for (;;) {
        if (limit - o < 258) {
            s->len = (size_t)(o - base);
            if (s->len > r->max_out || bits_over(b)) {
                rc = DEFLATE_BAD;
                break;
            }
            if (symbols_grow(s, 1 << 16)) {
                rc = DEFLATE_NOMEM;
                break;
            }
            base = s->data + DEFLATE_WINDOW, o = base + s->len, limit = base + s->cap;
        }
        bits_refill(b);
        uint32_t e = table_lookup(c->lit, LIT_BITS, b);
        if (E_KIND(e) == K_LIT) {
            *o++ = (uint16_t)E_VALUE(e);
            if (b->cnt >= 15) { /* a second literal without a refill */
                uint32_t f = c->lit[b->buf & ((1u << LIT_BITS) - 1)];
                if (E_KIND(f) == K_LIT) {
                    bits_take(b, E_BITS(f));
                    *o++ = (uint16_t)E_VALUE(f);
                }
            }
            continue;
        }
        if (E_KIND(e) != K_LEN) {
            rc = E_KIND(e) == K_END ? DEFLATE_OK : DEFLATE_BAD;
            break;
        }
        unsigned len = E_VALUE(e) + bits_take(b, E_EXTRA(e));
        e = table_lookup(c->dist, DIST_BITS, b);
        if (E_KIND(e) != K_LEN) {
            rc = DEFLATE_BAD;
            break;
        }
        size_t dist = E_VALUE(e) + bits_take(b, E_EXTRA(e)), produced = (size_t)(o - base);
        if (dist > produced) {
            if (dist - produced > window) {
                rc = DEFLATE_BAD;
                break;
            }
            if (dist - produced > r->reach)
                r->reach = dist - produced;
        }
        copy_match(o, dist, len);
        o += len;
    }
    s->len = (size_t)(o - base);
    *bp = local;
    if (!rc && (s->len > r->max_out || bits_over(b)))
        rc = DEFLATE_BAD;
    return rc;
}

/* A stored block (after BFINAL and BTYPE): realigns b after it. */
static int decode_stored(bits *b, deflate_run *r, deflate_symbols *s)
{
    size_t at = (bits_position(b) + 7) / 8;
    if (at + 4 > b->len)
        return DEFLATE_BAD;
    unsigned len = b->in[at] | (unsigned)b->in[at + 1] << 8, nlen = b->in[at + 2] | (unsigned)b->in[at + 3] << 8;
    at += 4;
    if ((len ^ 0xffffu) != nlen || at + len > b->len)
        return DEFLATE_BAD;
    if (s->cap - s->len < len && symbols_grow(s, len))
        return DEFLATE_NOMEM;
    uint16_t *o = s->data + DEFLATE_WINDOW + s->len;
    for (unsigned i = 0; i < len; i++)
        o[i] = b->in[at + i];
    s->len += len;
    if (s->len > r->max_out)
        return DEFLATE_BAD;
    bits_at(b, b->in, b->len, (at + len) * 8);
    return DEFLATE_OK;
}

int deflate_decode(const unsigned char *in, size_t in_len, deflate_run *r, deflate_symbols *out)
{
    codes *c = malloc(sizeof *c);
    if (!c)
        return DEFLATE_NOMEM;
    bits b;
    bits_at(&b, in, in_len, r->start_bit);
    r->final = 0, r->reach = 0;
    int rc = DEFLATE_OK, fixed_built = 0;
    do {
        bits_refill(&b);
        r->final = (int)bits_take(&b, 1);
        unsigned type = bits_take(&b, 2);
        if (type == 0)
            rc = decode_stored(&b, r, out);
        else if (type == 1) {
            if (!fixed_built)
                fixed_codes(c), fixed_built = 1;
            rc = decode_huffman(&b, c, r, out);
        } else if (type == 2) {
            fixed_built = 0; /* c now holds this block's codes */
            rc = read_dynamic(&b, c) && !bits_over(&b) ? decode_huffman(&b, c, r, out) : DEFLATE_BAD;
        } else
            rc = DEFLATE_BAD;
    } while (rc == DEFLATE_OK && !r->final && bits_position(&b) < r->stop_bit);
    r->end_bit = bits_position(&b);
    free(c);
    return rc;
}

/* ---- block search ---- */

size_t deflate_find_dynamic(const unsigned char *in, size_t in_len, size_t from_bit, size_t to_bit)
{
    static const uint8_t order[19] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};
    codes *c = NULL;
    for (size_t at = from_bit; at < to_bit && at + 17 <= in_len * 8; at++) {
        /* 3 + 5 + 5 + 4 header bits, then HCLEN code length lengths: the
         * cheap checks first, from a 64-bit word at the bit */
        size_t byte = at / 8;
        uint64_t w = 0;
        memcpy(&w, in + byte, in_len - byte < 8 ? in_len - byte : 8);
        w >>= at % 8; /* at least 56 bits */
        if ((w & 7) != 4) /* BFINAL 0, BTYPE 2 */
            continue;
        unsigned nlit = (unsigned)(w >> 3 & 31), ndist = (unsigned)(w >> 8 & 31), ncl = (unsigned)(w >> 13 & 15) + 4;
        if (nlit > 29 || ndist > 29)
            continue;
        /* the code-length code must be complete (its lengths come next:
         * 17 + 3 * 19 = 74 bits at most; read them from a second word) */
        uint8_t cl[19] = {0};
        size_t cbit = at + 17;
        uint64_t v = 0;
        size_t cb = cbit / 8;
        if (cb < in_len)
            memcpy(&v, in + cb, in_len - cb < 8 ? in_len - cb : 8);
        v >>= cbit % 8;
        for (unsigned i = 0; i < ncl; i++)
            cl[order[i]] = (uint8_t)(v >> (3 * i) & 7);
        unsigned max;
        if (!lengths_valid(cl, 19, 0, &max))
            continue;
        if (!c && !(c = malloc(sizeof *c)))
            return to_bit;
        bits b;
        bits_at(&b, in, in_len, at + 3);
        if (read_dynamic(&b, c) && !bits_over(&b)) {
            free(c);
            return at;
        }
    }
    free(c);
    return to_bit;
}
