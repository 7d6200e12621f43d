/* psort.c — the parallel sort of received records (psort.h). */
#include "dist/psort.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "dist/collective.h"

/* Below this many records one qsort. */
#define PSORT_SERIAL 65536

/* Merges the sorted runs a[0..na) and b[0..nb) into out, a's record first
 * among equals. */
static void merge(const char *a, size_t na, const char *b, size_t nb, char *out, size_t size,
                  int (*cmp)(const void *, const void *))
{
    size_t i = 0, j = 0;
    while (i < na && j < nb) {
        if (cmp(b + j * size, a + i * size) < 0)
            memcpy(out, b + j++ * size, size);
        else
            memcpy(out, a + i++ * size, size);
        out += size;
    }
    memcpy(out, a + i * size, (na - i) * size);
    memcpy(out + (na - i) * size, b + j * size, (nb - j) * size);
}

void dist_sort(void *a, size_t n, size_t size, int (*cmp)(const void *, const void *), MPI_Comm comm,
               coarsen_error *err)
{
    const int runs = omp_get_max_threads();
    if (n < PSORT_SERIAL || runs < 2) {
        qsort(a, n, size, cmp);
        return;
    }
    size_t *at = dist_alloc((size_t)runs + 1, sizeof *at, "sort runs", comm, err);
    for (int r = 0; r <= runs; r++)
        at[r] = n * (size_t)r / (size_t)runs;
    char *src = a, *dst = dist_alloc(n, size, "sort scratch", comm, err), *scratch = dst;
#pragma omp parallel for schedule(static, 1)
    for (int r = 0; r < runs; r++)
        qsort(src + at[r] * size, at[r + 1] - at[r], size, cmp);
    for (int width = 1; width < runs; width *= 2) {
#pragma omp parallel for schedule(static, 1)
        for (int r = 0; r < runs; r += 2 * width) {
            const int mid = r + width < runs ? r + width : runs, end = r + 2 * width < runs ? r + 2 * width : runs;
            merge(src + at[r] * size, at[mid] - at[r], src + at[mid] * size, at[end] - at[mid], dst + at[r] * size,
                  size, cmp);
        }
        char *t = src;
        src = dst, dst = t;
    }
    if (src != a)
        memcpy(a, src, n * size);
    free(scratch), free(at);
}
