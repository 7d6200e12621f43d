/* radix_sort.c — see radix_sort.h. Each pass counts the digits of every
 * record, turns the counts into places and moves the records in input order
 * (which keeps equal digits in their order: stable), from a to tmp and back;
 * a pass is skipped when its digit is the same in every record (one look at
 * all keys first finds the bits that differ); a last copy brings the result
 * to a after an odd number of moving passes. On several threads, thread t
 * counts and moves its own block of records, and the records of digit d from
 * block t go after every record of a smaller digit and those of digit d from
 * blocks before t: input order again, so the result does not depend on the
 * thread count. */
#include "core/radix_sort.h"
#include "core/threads.h"

#include <stdlib.h>
#include <string.h>

/* Copies one record; 24 bytes (two-hop candidates) and 16 (HEC's joiners)
 * with a constant length, which the compiler turns into a few moves instead
 * of a call. */
static inline void move_record(char *to, const char *from, size_t size)
{
    if (size == 24)
        memcpy(to, from, 24);
    else if (size == 16)
        memcpy(to, from, 16);
    else
        memcpy(to, from, size);
}

int radix_sort_stable(void *a, void *tmp, int64_t m, size_t size, int words, radix_key_word key_word)
{
    if (m < 2)
        return 0;
    if (words < 1 || words > RADIX_SORT_MAX_WORDS)
        return -1;
    /* The key bits that differ between records: a pass whose digit has
     * none would move nothing, so it is not even counted. */
    uint64_t differ[RADIX_SORT_MAX_WORDS];
    int varying = 0; /* bytes of the key that differ: the passes of 8 bits */
    for (int w = 0; w < words; w++) {
        const uint64_t first = key_word(a, w);
        uint64_t d = 0;
        for (int64_t i = 1; i < m; i++)
            d |= key_word((const char *)a + (size_t)i * size, w) ^ first;
        differ[w] = d;
        for (int b = 0; b < 64; b += 8)
            varying += (d >> b & 0xff) != 0;
    }
    /* One thread per THREADS_GRAIN records moved. Digits of 8 bits on
     * several threads (a counter per digit per thread) and for short arrays,
     * of 16 bits for long ones on one thread. */
    const int threads = threads_for(m * varying);
    const int bits = threads > 1 || m < (1 << 16) ? 8 : 16;
    const size_t buckets = (size_t)1 << bits;
    const uint64_t mask = buckets - 1;
    int64_t *count = malloc((size_t)threads * buckets * sizeof *count);
    if (!count)
        return -1;
    int moves = 0; /* passes that move the records */
    for (int pass = 0; pass < words * 64 / bits; pass++)
        moves += (differ[pass * bits / 64] >> pass * bits % 64 & mask) != 0;
#pragma omp parallel num_threads(threads) if (threads > 1)
    {
#ifdef _OPENMP
        const int t = omp_get_thread_num(), nt = omp_get_num_threads();
#else
        const int t = 0, nt = 1; /* a build without OpenMP (the fuzz target) */
#endif
        const int64_t lo = m * t / nt, hi = m * (t + 1) / nt;
        int64_t *mine = count + (size_t)t * buckets;
        char *from = a, *to = tmp;
        for (int pass = 0; pass < words * 64 / bits; pass++) {
            const int word = pass * bits / 64, shift = pass * bits % 64;
            if (!(differ[word] >> shift & mask))
                continue;
            memset(mine, 0, buckets * sizeof *mine);
            for (int64_t i = lo; i < hi; i++)
                mine[key_word(from + (size_t)i * size, word) >> shift & mask]++;
#pragma omp barrier
#pragma omp single
            {
                /* digit-major, block-minor (on one thread: a plain running sum) */
                int64_t sum = 0;
                if (nt == 1) {
                    for (size_t b = 0; b < buckets; b++) {
                        const int64_t k = count[b];
                        count[b] = sum;
                        sum += k;
                    }
                } else {
                    for (size_t b = 0; b < buckets; b++)
                        for (int u = 0; u < nt; u++) {
                            const int64_t k = count[(size_t)u * buckets + b];
                            count[(size_t)u * buckets + b] = sum;
                            sum += k;
                        }
                }
            }
            for (int64_t i = lo; i < hi; i++) {
                const char *x = from + (size_t)i * size;
                move_record(to + (size_t)mine[key_word(x, word) >> shift & mask]++ * size, x, size);
            }
#pragma omp barrier
            char *swap = from;
            from = to;
            to = swap;
        }
    }
    if (moves % 2)
        memcpy(a, tmp, (size_t)m * size);
    free(count);
    return 0;
}

void radix_sort_run(void *run, int64_t len, size_t size, int (*cmp)(const void *, const void *))
{
    char *r = run;
    if (len > RADIX_SORT_RUN) {
        qsort(r, (size_t)len, size, cmp);
        return;
    }
    char x[RADIX_SORT_MAX_SIZE];
    for (int64_t i = 1; i < len; i++) {
        int64_t j = i;
        if (cmp(r + (size_t)(j - 1) * size, r + (size_t)j * size) <= 0)
            continue;
        move_record(x, r + (size_t)i * size, size);
        for (; j > 0 && cmp(r + (size_t)(j - 1) * size, x) > 0; j--)
            move_record(r + (size_t)j * size, r + (size_t)(j - 1) * size, size);
        move_record(r + (size_t)j * size, x, size);
    }
}

/* 1 when record x has the key first[0..words). */
static int has_key(const void *x, const uint64_t *first, int words, radix_key_word key_word)
{
    for (int w = 0; w < words; w++)
        if (key_word(x, w) != first[w])
            return 0;
    return 1;
}

int radix_sort_refined(void *a, void *tmp, int64_t m, size_t size, int words, radix_key_word key_word,
                       int (*cmp)(const void *, const void *))
{
    if (size > RADIX_SORT_MAX_SIZE || radix_sort_stable(a, tmp, m, size, words, key_word))
        return -1;
    char *r = a;
    uint64_t first[RADIX_SORT_MAX_WORDS]; /* the key of the run that starts at lo */
    for (int64_t lo = 0, hi; lo < m; lo = hi) {
        for (int w = 0; w < words; w++)
            first[w] = key_word(r + (size_t)lo * size, w);
        for (hi = lo + 1; hi < m && has_key(r + (size_t)hi * size, first, words, key_word); hi++)
            ;
        if (hi - lo > 1)
            radix_sort_run(r + (size_t)lo * size, hi - lo, size, cmp);
    }
    return 0;
}
