/* int_text.h — fast decimal text of integers for the writers (no snprintf
 * per number): two digits per step from a 200-byte table. */
#ifndef IO_INT_TEXT_H
#define IO_INT_TEXT_H

#include <stdint.h>
#include <string.h>

/* Longest text int_text_put writes: "-9223372036854775808". */
#define INT_TEXT_MAX 20

/* Decimal digits of u (1 for 0): from its bit length, then one compare. */
static inline int int_text_digits(uint64_t u)
{
    static const uint64_t pow10[20] = {1u, 10u, 100u, 1000u, 10000u, 100000u, 1000000u, 10000000u, 100000000u,
                                       1000000000u, 10000000000u, 100000000000u, 1000000000000u,
                                       10000000000000u, 100000000000000u, 1000000000000000u,
                                       10000000000000000u, 100000000000000000u, 1000000000000000000u,
                                       10000000000000000000u};
    int below = ((64 - __builtin_clzll(u | 1)) * 1233) >> 12; /* floor(log10(u)) or one less */
    return below + (u >= pow10[below]) + (u == 0);
}

/* Writes v in decimal at p ([out], room for INT_TEXT_MAX bytes; no NUL);
 * returns the end. The same text as printf's "%lld". The digits go
 * straight to their places, two at a time from the last. */
static inline char *int_text_put(char *p, int64_t v)
{
    static const char pairs[201] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                                   "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                                   "8081828384858687888990919293949596979899";
    uint64_t u = (uint64_t)v;
    if (v < 0) {
        *p++ = '-';
        u = 0 - u;
    }
    char *e = p + int_text_digits(u), *s = e;
    while (u >= 100) {
        unsigned k = (unsigned)(u % 100) * 2;
        u /= 100;
        s -= 2;
        memcpy(s, pairs + k, 2);
    }
    if (u >= 10)
        memcpy(s - 2, pairs + u * 2, 2);
    else
        s[-1] = (char)('0' + u);
    return e;
}

#endif
