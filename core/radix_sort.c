/* radix_sort.c — see radix_sort.h. Each pass counts the digits of every
 * record, turns the counts into places and moves the records in input order
 * (which keeps equal digits in their order: stable), from a to tmp and back;
 * a pass is skipped when its digit is the same in every record (one look at
 * all keys first finds the bits that differ);
 * a last copy brings the result to a after an odd number of moving passes. */
#include "core/radix_sort.h"

#include <stdlib.h>
#include <string.h>

/* Copies one record; 24 bytes (two-hop candidates) with a constant length,
 * which the compiler turns into a few moves instead of a call. */
static inline void move_record(char *to, const char *from, size_t size)
{
    if (size == 24)
        memcpy(to, from, 24);
    else
        memcpy(to, from, size);
}

int radix_sort_stable(void *a, void *tmp, int64_t m, size_t size, int words, radix_key_word key_word)
{
    if (m < 2)
        return 0;
    if (words < 1 || words > RADIX_SORT_MAX_WORDS)
        return -1;
    const int bits = m < (1 << 14) ? 8 : 16;
    const size_t buckets = (size_t)1 << bits;
    const uint64_t mask = buckets - 1;
    int64_t *place = malloc(buckets * sizeof *place);
    if (!place)
        return -1;
    /* The key bits that differ between records: a pass whose digit has
     * none would move nothing, so it is not even counted. */
    uint64_t differ[RADIX_SORT_MAX_WORDS];
    for (int w = 0; w < words; w++) {
        const uint64_t first = key_word(a, w);
        uint64_t d = 0;
        for (int64_t i = 1; i < m; i++)
            d |= key_word((const char *)a + (size_t)i * size, w) ^ first;
        differ[w] = d;
    }
    char *from = a, *to = tmp;
    for (int pass = 0; pass < words * 64 / bits; pass++) {
        const int word = pass * bits / 64, shift = pass * bits % 64;
        if (!(differ[word] >> shift & mask))
            continue;
        memset(place, 0, buckets * sizeof *place);
        for (int64_t i = 0; i < m; i++)
            place[key_word(from + (size_t)i * size, word) >> shift & mask]++;
        int64_t sum = 0;
        for (size_t b = 0; b < buckets; b++) {
            int64_t c = place[b];
            place[b] = sum;
            sum += c;
        }
        for (int64_t i = 0; i < m; i++) {
            const char *x = from + (size_t)i * size;
            move_record(to + (size_t)place[key_word(x, word) >> shift & mask]++ * size, x, size);
        }
        char *t = from;
        from = to;
        to = t;
    }
    if (from != (char *)a)
        memcpy(a, from, (size_t)m * size);
    free(place);
    return 0;
}
