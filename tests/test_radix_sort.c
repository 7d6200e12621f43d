/* test_radix_sort.c — radix_sort_stable and radix_sort_refined
 * (core/radix_sort.h) against an
 * independent oracle: qsort on (key words, input position), which is the
 * stable order by definition; keys of one and two words with many equal
 * keys, sizes on both sides of the digit-width switch, keys whose high
 * digits are all equal (the skipped passes) and records of an odd size; on
 * 1, 2 and 3 threads (blocks of records counted and moved in parallel). */
#include <criterion/criterion.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "core/radix_sort.h"

typedef struct rec {
    uint64_t w[2];
    int32_t pos; /* input position: the oracle's tie-break, and what stability keeps */
    char pad[3]; /* an odd record size */
} rec;

static int words_compared;

static uint64_t rec_word(const void *item, int word) { return ((const rec *)item)->w[word]; }

static int oracle_cmp(const void *a, const void *b)
{
    const rec *x = a, *y = b;
    for (int k = words_compared - 1; k >= 0; k--)
        if (x->w[k] != y->w[k])
            return x->w[k] < y->w[k] ? -1 : 1;
    return (x->pos > y->pos) - (x->pos < y->pos);
}

static uint64_t next(uint64_t *s)
{
    *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
    return *s;
}

/* m records with keys drawn from `distinct` values (masked to `mask` in word
 * 0): sorted by the radix sort and by the oracle, compared record by record. */
static void check(int64_t m, int words, uint64_t distinct, uint64_t mask, uint64_t seed)
{
    rec *a = calloc((size_t)m + 1, sizeof *a), *b = calloc((size_t)m + 1, sizeof *b),
        *tmp = calloc((size_t)m + 1, sizeof *tmp);
    cr_assert(a && b && tmp);
    uint64_t s = seed;
    for (int64_t i = 0; i < m; i++) {
        uint64_t v = next(&s) % distinct;
        a[i].w[0] = (v * 0x9e3779b97f4a7c15u) & mask;
        a[i].w[1] = words > 1 ? v % 7 : 0;
        a[i].pos = (int32_t)i;
        memcpy(a[i].pad, "xyz", 3);
    }
    memcpy(b, a, (size_t)m * sizeof *a);
    cr_assert_eq(radix_sort_stable(a, tmp, m, sizeof *a, words, rec_word), 0);
    words_compared = words;
    qsort(b, (size_t)m, sizeof *b, oracle_cmp);
    for (int64_t i = 0; i < m; i++) {
        cr_assert(a[i].w[0] == b[i].w[0] && a[i].w[1] == b[i].w[1] && a[i].pos == b[i].pos,
                  "m=%lld words=%d: record %lld is input %d, the stable order has input %d", (long long)m, words,
                  (long long)i, a[i].pos, b[i].pos);
        cr_assert(memcmp(a[i].pad, "xyz", 3) == 0);
    }
    free(a), free(b), free(tmp);
}

Test(radix_sort, stable_against_the_oracle_on_one_word)
{
    for (int64_t m = 0; m < 40; m++)
        check(m, 1, 5, UINT64_MAX, 1 + (uint64_t)m);
    check(1000, 1, 30, UINT64_MAX, 7);
    check(20000, 1, 300, UINT64_MAX, 8);
    const int saved = omp_get_max_threads();
    omp_set_num_threads(1);
    check(20000, 1, 300, UINT64_MAX, 13); /* 16-bit digits: long, on one thread */
    omp_set_num_threads(saved);
}

Test(radix_sort, stable_against_the_oracle_on_two_words)
{
    check(500, 2, 40, UINT64_MAX, 3);
    check(70000, 2, 5000, UINT64_MAX, 4);
}

Test(radix_sort, equal_high_digits_skip_their_passes_and_keep_the_order)
{
    check(3000, 1, 50, 0xff, 5);   /* only the lowest digit differs */
    check(30000, 2, 1, 0, 6);      /* every key equal: the input order */
    check(30000, 1, 900, 0xffff00, 9); /* the lowest digit equal, the next two not */
}

Test(radix_sort, stable_order_on_any_thread_count)
{
    const int saved = omp_get_max_threads();
    for (int t = 1; t <= 3; t++) {
        omp_set_num_threads(t);
        check(70001, 2, 5000, UINT64_MAX, 10); /* several threads from 2 on */
        check(40000, 1, 3, 0xff00, 11);        /* one byte differs: fewer threads */
        check(9000, 2, 900, UINT64_MAX, 12);
    }
    omp_set_num_threads(saved);
}

/* radix_sort_refined: the radix key is word 1 only, runs of equal word 1
 * finished by the total order (word 1, word 0, pos) — the oracle's order on
 * two words, whatever the input order. Runs short and long (past
 * RADIX_SORT_RUN: qsort), records in reverse input position so that the
 * runs arrive out of order. */
static int refined_cmp(const void *a, const void *b)
{
    words_compared = 2;
    return oracle_cmp(a, b);
}

static uint64_t high_word(const void *item, int word)
{
    (void)word;
    return ((const rec *)item)->w[1];
}

static void check_refined(int64_t m, uint64_t classes, uint64_t distinct, uint64_t seed)
{
    rec *a = calloc((size_t)m + 1, sizeof *a), *b = calloc((size_t)m + 1, sizeof *b),
        *tmp = calloc((size_t)m + 1, sizeof *tmp);
    cr_assert(a && b && tmp);
    uint64_t s = seed;
    for (int64_t i = 0; i < m; i++) {
        a[i].w[0] = next(&s) % distinct;
        a[i].w[1] = next(&s) % classes;
        a[i].pos = (int32_t)(m - i);
        memcpy(a[i].pad, "xyz", 3);
    }
    memcpy(b, a, (size_t)m * sizeof *a);
    cr_assert_eq(radix_sort_refined(a, tmp, m, sizeof *a, 1, high_word, refined_cmp), 0);
    qsort(b, (size_t)m, sizeof *b, refined_cmp);
    for (int64_t i = 0; i < m; i++) {
        cr_assert(a[i].w[0] == b[i].w[0] && a[i].w[1] == b[i].w[1] && a[i].pos == b[i].pos,
                  "m=%lld classes=%llu: record %lld is input %d, the order has input %d", (long long)m,
                  (unsigned long long)classes, (long long)i, a[i].pos, b[i].pos);
        cr_assert(memcmp(a[i].pad, "xyz", 3) == 0);
    }
    free(a), free(b), free(tmp);
}

Test(radix_sort, refined_order_equals_the_full_comparison)
{
    for (int64_t m = 0; m < 40; m++)
        check_refined(m, 3, 4, 20 + (uint64_t)m);
    check_refined(5000, 1000, 1u << 20, 21); /* runs of a few records */
    check_refined(5000, 20, 1u << 20, 22);   /* runs past RADIX_SORT_RUN */
    check_refined(5000, 1, 7, 23);           /* one run, qsort, equal words 0 */
    check_refined(70000, 3000, 50, 24);      /* several threads for the radix part */
}
