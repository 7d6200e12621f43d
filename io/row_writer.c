/* row_writer.c — rows formatted in parallel chunks and written in order
 * (row_writer.h). */
#include "io/row_writer.h"
#include "core/error.h"
#include "core/timer.h"

#include <omp.h>
#include <stdlib.h>

/* Bound of the text of one chunk: large enough that a chunk's work dwarfs
 * scheduling it, small enough that a batch of 2 chunks per thread stays
 * small. A single row larger than this is a chunk of its own. */
#define CHUNK_BOUND ((size_t)1 << 20)

static size_t bound_of(const row_layout *l, int64_t lo, int64_t hi)
{
    size_t b = (size_t)(hi - lo) * l->row_bytes;
    if (l->items)
        b += (size_t)(l->items[hi] - l->items[lo]) * l->item_bytes;
    return b;
}

/* The end of the chunk starting at row lo: the most rows whose bound fits
 * CHUNK_BOUND, at least one (binary search: the bound grows with hi). */
static int64_t chunk_end(const row_layout *l, int64_t lo)
{
    int64_t good = lo + 1, bad = l->rows + 1;
    if (bad - lo > (int64_t)(CHUNK_BOUND / (l->row_bytes ? l->row_bytes : 1)) + 1)
        bad = lo + (int64_t)(CHUNK_BOUND / (l->row_bytes ? l->row_bytes : 1)) + 1;
    while (bad - good > 1) {
        int64_t mid = good + (bad - good) / 2;
        if (bound_of(l, lo, mid) <= CHUNK_BOUND)
            good = mid;
        else
            bad = mid;
    }
    return good;
}

typedef struct chunk {
    int64_t lo, hi;
    char *buf;
    size_t cap, len;
    int failed;
} chunk;

int row_writer_run(output_file *f, const row_layout *l, row_format_fn fmt, const void *ctx, coarsen_error *err)
{
    int threads = omp_in_parallel() ? 1 : omp_get_max_threads();
    int slots = threads > 1 ? 2 * threads : 1, rc = COARSEN_OK;
    chunk *c = calloc((size_t)slots, sizeof *c);
    if (!c)
        return error_nomem(err, "row chunks", (size_t)slots * sizeof *c);
    for (int64_t next = 0; next < l->rows && !rc && !output_failed(f);) {
        int count = 0;
        for (; count < slots && next < l->rows; count++) {
            chunk *k = &c[count];
            k->lo = next;
            k->hi = next = chunk_end(l, next);
            size_t need = bound_of(l, k->lo, k->hi);
            if (!k->buf || need > k->cap) {
                free(k->buf);
                k->cap = need > CHUNK_BOUND ? need : CHUNK_BOUND;
                if (!(k->buf = malloc(k->cap))) {
                    k->cap = 0;
                    rc = error_nomem(err, "row chunk", need);
                    break;
                }
            }
        }
        if (rc)
            break;
        double t0 = timer_ms();
#pragma omp parallel for schedule(dynamic, 1) if (count > 1)
        for (int i = 0; i < count; i++) {
            char *p = c[i].buf;
            c[i].failed = 0;
            for (int64_t r = c[i].lo; r < c[i].hi && p; r++)
                p = fmt(ctx, r, p);
            c[i].failed = !p;
            c[i].len = p ? (size_t)(p - c[i].buf) : 0;
        }
        output_add_format_time(f, (timer_ms() - t0) * 1e-3);
        for (int i = 0; i < count && !rc; i++)
            if (c[i].failed)
                rc = COARSEN_ERR_INPUT;
        for (int i = 0; i < count && !rc; i++)
            output_write(f, c[i].buf, c[i].len);
    }
    for (int i = 0; i < slots; i++)
        free(c[i].buf);
    free(c);
    return rc;
}
