/* row_writer.c — rows formatted in parallel chunks and written in order
 * (row_writer.h). */
#include "io/row_writer.h"
#include "core/error.h"
#include "core/threads.h"
#include "core/timer.h"

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

/* A batch: up to `slots` chunks of consecutive rows. */
typedef struct batch {
    chunk *c;
    int count;
} batch;

/* Cuts the next batch from row *next on and sizes its buffers. */
static int batch_cut(batch *b, int slots, const row_layout *l, int64_t *next, coarsen_error *err)
{
    b->count = 0;
    for (; b->count < slots && *next < l->rows; b->count++) {
        chunk *k = &b->c[b->count];
        k->lo = *next;
        k->hi = *next = chunk_end(l, *next);
        size_t need = bound_of(l, k->lo, k->hi);
        if (!k->buf || need > k->cap) {
            free(k->buf);
            k->cap = need > CHUNK_BOUND ? need : CHUNK_BOUND;
            if (!(k->buf = malloc(k->cap))) {
                k->cap = 0;
                return error_nomem(err, "row chunk", need);
            }
        }
    }
    return COARSEN_OK;
}

static void chunk_format(chunk *k, row_format_fn fmt, const void *ctx)
{
    char *p = k->buf;
    for (int64_t r = k->lo; r < k->hi && p; r++)
        p = fmt(ctx, r, p);
    k->failed = !p;
    k->len = p ? (size_t)(p - k->buf) : 0;
}

static int batch_failed(const batch *b)
{
    for (int i = 0; i < b->count; i++)
        if (b->c[i].failed)
            return 1;
    return 0;
}

static void batch_write(output_file *f, const batch *b)
{
    for (int i = 0; i < b->count; i++)
        output_write(f, b->c[i].buf, b->c[i].len);
}

static void batch_free(batch *b, int slots)
{
    for (int i = 0; b->c && i < slots; i++)
        free(b->c[i].buf);
    free(b->c);
}

int row_writer_run(output_file *f, const row_layout *l, row_format_fn fmt, const void *ctx, coarsen_error *err)
{
    int threads = threads_available();
    int slots = threads > 1 ? 2 * threads : 1, rc = COARSEN_OK;
    /* Writing beside formatting pays from 3 threads, into a file that does
     * not compress (compression is parallel itself). */
    int overlap = threads >= 3 && !output_compresses(f);
    batch cur = {calloc((size_t)slots, sizeof(chunk)), 0}, nxt = {calloc((size_t)slots, sizeof(chunk)), 0};
    if (!cur.c || !nxt.c) {
        batch_free(&cur, slots);
        batch_free(&nxt, slots);
        return error_nomem(err, "row chunks", 2 * (size_t)slots * sizeof(chunk));
    }
    int64_t next = 0;
    double t0 = timer_ms();
    rc = batch_cut(&cur, slots, l, &next, err);
#pragma omp parallel for schedule(dynamic, 1) if (cur.count > 1)
    for (int i = 0; i < cur.count; i++)
        chunk_format(&cur.c[i], fmt, ctx);
    output_add_format_time(f, (timer_ms() - t0) * 1e-3);
    while (!rc && cur.count && !output_failed(f)) {
        if (batch_failed(&cur)) {
            rc = COARSEN_ERR_INPUT;
            break;
        }
        if ((rc = batch_cut(&nxt, slots, l, &next, err)))
            break;
        /* cur is written while nxt is formatted: by one thread and the rest
         * with overlap, one after the other without. */
        double w = 0;
        t0 = timer_ms();
        if (!overlap) {
            batch_write(f, &cur);
            w = timer_ms() - t0;
        }
#pragma omp parallel if (nxt.count > 1 || overlap)
        {
            if (overlap) {
#pragma omp single nowait
                {
                    double tw = timer_ms();
                    batch_write(f, &cur);
                    w = timer_ms() - tw;
                }
            }
#pragma omp for schedule(dynamic, 1) nowait
            for (int i = 0; i < nxt.count; i++)
                chunk_format(&nxt.c[i], fmt, ctx);
        }
        double span = timer_ms() - t0;
        output_add_format_time(f, (span > w ? span - w : 0) * 1e-3); /* the writing is in the write totals */
        batch t = cur;
        cur = nxt;
        nxt = t;
    }
    batch_free(&cur, slots);
    batch_free(&nxt, slots);
    return rc;
}
