/* radix_sort.h — a stable LSD radix sort of fixed-size records by a key of
 * one or more 64-bit words, for the host steps that sort candidates whose
 * input order (increasing id) must survive among equal keys: two-hop's
 * classes (matching/two_hop_cpu.c) and HEC's joiners (matching/hec_cpu.c).
 * Digits of 8 bits for short arrays, 16 bits for long ones; a pass whose
 * digit is equal in every record moves nothing. radix_sort_refined sorts
 * by a short key first and finishes the runs of equal key by comparison.
 * Host C only. */
#ifndef CORE_RADIX_SORT_H
#define CORE_RADIX_SORT_H

#include <stddef.h>
#include <stdint.h>

/* Word `word` of the key of *item: word 0 is the least significant; records
 * compare as unsigned integers of `words` words. */
typedef uint64_t (*radix_key_word)(const void *item, int word);

/* The longest key, in words. */
#define RADIX_SORT_MAX_WORDS 4

/* Sorts a[0..m) of records of `size` bytes by key_word's key, stably. tmp
 * [scratch]: room for m records. words: 1 to RADIX_SORT_MAX_WORDS. Returns
 * -1 (a untouched) when the pass counters cannot be allocated, else 0. */
int radix_sort_stable(void *a, void *tmp, int64_t m, size_t size, int words, radix_key_word key_word);

/* Sorts a[0..m) into the order of cmp, a total order (no two records
 * compare equal) that refines key_word's key (a record of smaller key comes
 * first): a stable radix sort by that key, which may be a short prefix of
 * cmp's order (fewer passes), then each run of equal key sorted by cmp
 * (insertion sort; qsort past RADIX_SORT_RUN records). size: at most
 * RADIX_SORT_MAX_SIZE bytes. tmp, words and the return as radix_sort_stable. */
#define RADIX_SORT_RUN 32
#define RADIX_SORT_MAX_SIZE 64
int radix_sort_refined(void *a, void *tmp, int64_t m, size_t size, int words, radix_key_word key_word,
                       int (*cmp)(const void *, const void *));

/* How radix_sort_refined finishes a run: run[0..len) of records of `size`
 * bytes (at most RADIX_SORT_MAX_SIZE) sorted in place by cmp, a total order:
 * insertion sort, qsort past RADIX_SORT_RUN records. Also for short lists
 * gathered without a radix sort (HEC's candidates of one group). */
void radix_sort_run(void *run, int64_t len, size_t size, int (*cmp)(const void *, const void *));

#endif
