/* int_text.h — fast decimal text of integers for the writers (no snprintf
 * per number): two digits per step from a 200-byte table. */
#ifndef IO_INT_TEXT_H
#define IO_INT_TEXT_H

#include <stdint.h>
#include <string.h>

/* Longest text int_text_put writes: "-9223372036854775808". */
#define INT_TEXT_MAX 20

/* Writes v in decimal at p ([out], room for INT_TEXT_MAX bytes; no NUL);
 * returns the end. The same text as printf's "%lld". */
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
    char tmp[INT_TEXT_MAX];
    char *e = tmp + sizeof tmp, *s = e;
    while (u >= 100) {
        unsigned k = (unsigned)(u % 100) * 2;
        u /= 100;
        s -= 2;
        s[0] = pairs[k], s[1] = pairs[k + 1];
    }
    if (u >= 10) {
        s -= 2;
        s[0] = pairs[u * 2], s[1] = pairs[u * 2 + 1];
    } else {
        *--s = (char)('0' + u);
    }
    memcpy(p, s, (size_t)(e - s));
    return p + (e - s);
}

#endif
