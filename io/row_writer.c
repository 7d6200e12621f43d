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
    char *buf;         /* the chunk's text */
    size_t cap, len;
    char *pack;        /* its gzip member, when the file compresses */
    size_t pack_cap, packed;
    int failed;
    double format_ms, pack_ms; /* this chunk's share of the work */
} chunk;

/* A batch: up to `slots` chunks of consecutive rows. */
typedef struct batch {
    chunk *c;
    int count;
} batch;

/* Cuts the next batch from row *next on and sizes its buffers (room for a
 * packed member too when f compresses). */
static int batch_cut(batch *b, int slots, const row_layout *l, const output_file *f, int64_t *next,
                     coarsen_error *err)
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
        size_t room = output_piece_room(f, k->cap);
        if (room > k->pack_cap) {
            free(k->pack);
            if (!(k->pack = malloc(room))) {
                k->pack_cap = 0;
                return error_nomem(err, "compressed row chunk", room);
            }
            k->pack_cap = room;
        }
    }
    return COARSEN_OK;
}

/* Formats the chunk's rows and, into a compressing file, packs them. */
static void chunk_make(chunk *k, row_format_fn fmt, const void *ctx, const output_file *f)
{
    double t0 = timer_ms();
    char *p = k->buf;
    for (int64_t r = k->lo; r < k->hi && p; r++)
        p = fmt(ctx, r, p);
    k->failed = !p;
    k->len = p ? (size_t)(p - k->buf) : 0;
    double t1 = timer_ms();
    k->format_ms = t1 - t0;
    k->packed = 0;
    if (k->pack_cap && k->len && !k->failed)
        k->packed = output_piece_pack(f, k->buf, k->len, k->pack, k->pack_cap);
    k->pack_ms = timer_ms() - t1;
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
    for (int i = 0; i < b->count; i++) {
        const chunk *k = &b->c[i];
        if (k->len)
            output_write_piece(f, k->pack_cap ? k->pack : k->buf, k->pack_cap ? k->packed : k->len, k->len);
    }
}

/* Adds the span of a batch's making (wall ms, the writing taken out) to
 * f's format and compress times, split as its chunks' own times are. */
static void batch_times(output_file *f, const batch *b, double span_ms)
{
    double fm = 0, pm = 0;
    for (int i = 0; i < b->count; i++)
        fm += b->c[i].format_ms, pm += b->c[i].pack_ms;
    double share = fm + pm > 0 ? pm / (fm + pm) : 0;
    output_add_times(f, span_ms * (1 - share) * 1e-3, span_ms * share * 1e-3);
}

static void batch_free(batch *b, int slots)
{
    for (int i = 0; b->c && i < slots; i++) {
        free(b->c[i].buf);
        free(b->c[i].pack);
    }
    free(b->c);
}

int row_writer_run(output_file *f, const row_layout *l, row_format_fn fmt, const void *ctx, coarsen_error *err)
{
    int threads = threads_available();
    int slots = threads > 1 ? 2 * threads : 1, rc = COARSEN_OK;
    /* Writing beside making the next batch pays from 3 threads. */
    int overlap = threads >= 3;
    batch cur = {calloc((size_t)slots, sizeof(chunk)), 0}, nxt = {calloc((size_t)slots, sizeof(chunk)), 0};
    if (!cur.c || !nxt.c) {
        batch_free(&cur, slots);
        batch_free(&nxt, slots);
        return error_nomem(err, "row chunks", 2 * (size_t)slots * sizeof(chunk));
    }
    int64_t next = 0;
    double t0 = timer_ms();
    rc = batch_cut(&cur, slots, l, f, &next, err);
#pragma omp parallel for schedule(dynamic, 1) if (cur.count > 1)
    for (int i = 0; i < cur.count; i++)
        chunk_make(&cur.c[i], fmt, ctx, f);
    batch_times(f, &cur, timer_ms() - t0);
    while (!rc && cur.count && !output_failed(f)) {
        if (batch_failed(&cur)) {
            rc = COARSEN_ERR_INPUT;
            break;
        }
        if ((rc = batch_cut(&nxt, slots, l, f, &next, err)))
            break;
        /* cur is written while nxt is made: by one thread and the rest
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
                chunk_make(&nxt.c[i], fmt, ctx, f);
        }
        double span = timer_ms() - t0;
        batch_times(f, &nxt, span > w ? span - w : 0); /* the writing is in the write totals */
        batch t = cur;
        cur = nxt;
        nxt = t;
    }
    batch_free(&cur, slots);
    batch_free(&nxt, slots);
    return rc;
}
