/* line_chunks.c — chunks of whole lines for the parallel readers; see
 * line_chunks.h. */
#include "io/line_chunks.h"
#include "core/error.h"
#include "core/threads.h"
#include "io/text_input.h"

#include <stdlib.h>
#include <string.h>

static size_t min_bytes = (size_t)1 << 20;

/* The chunks of a text still being inflated are at most this long (and at
 * most the smallest chunk): a chunk is parsed as soon as it is final, so
 * that the parse overlaps the inflate; with 1 MiB chunks a text of a few MiB
 * was parsed mostly after its inflate, on one or two threads. */
#define STREAM_STEP ((size_t)256 << 10)

void line_chunks_set_min_bytes(size_t bytes)
{
    min_bytes = bytes ? bytes : 1;
}

int line_is_data(const char *s, const char *e, line_kind kind)
{
    if (kind == LINES_METIS)
        return s == e || *s != '%';
    s = text_skip_blank(s, e);
    return s < e && *s != '%';
}

size_t line_chunks_min_bytes(void)
{
    return min_bytes;
}

/* Lines and data lines of k, one line at a time. */
static void count_lines(line_chunk *k, line_kind kind)
{
    const char *p = k->begin;
    while (p < k->end) {
        const char *nl = memchr(p, '\n', (size_t)(k->end - p));
        const char *e = nl ? nl : k->end;
        if (e > p && e[-1] == '\r') /* as text_next_line does */
            e--;
        k->lines++;
        k->data_lines += line_is_data(p, e, kind);
        p = nl ? nl + 1 : k->end;
    }
}

/* 16 bytes as a vector (GCC and Clang vector extensions: SSE2, NEON). */
typedef unsigned char bytes16 __attribute__((vector_size(16)));

static inline bytes16 load16(const unsigned char *p)
{
    bytes16 v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* The lines and either (METIS) the token starts (a byte above ' ' after one
 * that is not, or at the chunk's start) or (Matrix Market) the lines
 * starting with a byte up to ' ' (blank, empty or CR), counted 16 bytes at a
 * time, each byte compared with the one before it loaded 1 byte earlier (in
 * byte lanes of up to 255 blocks between sums); kind is a constant in each
 * inlined copy, so each loop does only its own compares. Without a '%'
 * anywhere every METIS line is a data line, and so is every Matrix Market
 * line when none starts with such a byte; otherwise the data lines are
 * counted line by line. */
static inline __attribute__((always_inline)) void count_chunk(line_chunk *k, const line_kind kind)
{
    const int metis = kind == LINES_METIS;
    const unsigned char *e = (const unsigned char *)k->end, *p = (const unsigned char *)k->begin;
    const size_t len = (size_t)(e - p);
    int64_t lines = 0, marks = 0; /* tokens (METIS) or lines starting low (Matrix Market) */
    if (p < e) { /* the first byte starts a line and maybe a token: nothing is read before the chunk */
        marks += metis ? *p > ' ' : *p <= ' ';
        lines += *p == '\n';
        p++;
    }
    while (e - p >= 16) {
        const size_t blocks = (size_t)(e - p) / 16 < 255 ? (size_t)(e - p) / 16 : 255;
        const unsigned char *stop = p + 16 * blocks;
        bytes16 nl_lanes = {0}, mark_lanes = {0};
        for (; p < stop; p += 16) {
            const bytes16 x = load16(p), before = load16(p - 1);
            /* comparisons give -1 per true lane */
            mark_lanes -= metis ? (bytes16)((x > ' ') & (before <= ' ')) : (bytes16)((x <= ' ') & (before == '\n'));
            nl_lanes -= (bytes16)(x == '\n');
        }
        for (int i = 0; i < 16; i++)
            marks += mark_lanes[i], lines += nl_lanes[i];
    }
    for (; p < e; p++) {
        marks += metis ? *p > ' ' && p[-1] <= ' ' : *p <= ' ' && p[-1] == '\n';
        lines += *p == '\n';
    }
    k->tokens = metis ? marks : 0;
    if ((!metis && marks) || memchr(k->begin, '%', len)) {
        count_lines(k, kind);
        return;
    }
    k->lines = lines + (k->end > k->begin && k->end[-1] != '\n'); /* a last line without its end */
    k->data_lines = k->lines;
}

void line_chunk_count(line_chunk *k, line_kind kind)
{
    if (kind == LINES_METIS)
        count_chunk(k, LINES_METIS);
    else
        count_chunk(k, LINES_MTX);
}

int line_chunks_split(const char *body, const char *end, int64_t first_line, line_kind kind, line_chunk **out,
                      int64_t *data_total, coarsen_error *err)
{
    size_t len = (size_t)(end - body);
    int threads = threads_available(), most = threads > 1 ? 4 * threads : 1;
    int n = (int)(len / min_bytes);
    n = n < 1 ? 1 : n > most && min_bytes >= 4096 ? most : n;
    line_chunk *ck = xcalloc((size_t)n, sizeof *ck, "chunks", err);
    if (!ck)
        return 0;
    for (int k = 0; k < n; k++) {
        const char *b = k ? ck[k - 1].end : body;
        const char *x = k == n - 1 ? end : body + len / (size_t)n * (size_t)(k + 1);
        if (x < b)
            x = b;
        const char *nl = x < end ? memchr(x, '\n', (size_t)(end - x)) : NULL;
        ck[k].begin = b;
        ck[k].end = k == n - 1 || !nl ? end : nl + 1;
    }
#pragma omp parallel for schedule(dynamic, 1) if (n > 1)
    for (int k = 0; k < n; k++)
        line_chunk_count(&ck[k], kind);
    int64_t line = first_line, data = 0;
    for (int k = 0; k < n; k++) {
        ck[k].first_line = line;
        ck[k].first_data = data;
        line += ck[k].lines;
        data += ck[k].data_lines;
    }
    *data_total = data;
    *out = ck;
    return n;
}

/* The running sums of the chain that places chunks in file order. */
typedef struct stream_sums {
    int64_t line, data;
} stream_sums;

int line_chunks_stream(struct text_input *t, size_t pos, int64_t first_line, line_kind kind,
                       const line_stream_ops *ops, void *ctx, line_chunk ***chunks, int *count, int64_t *data_total,
                       coarsen_error *err)
{
    size_t step = min_bytes < STREAM_STEP ? min_bytes : STREAM_STEP;
    line_chunk **ck = NULL;
    int n = 0, cap = 0, nomem = 0;
    stream_sums sums = {first_line, 0};
    /* A team of one thread defers its tasks to the end (libgomp): it runs
     * them itself before it waits for more text, while the text inflates. */
    const int alone = threads_available() == 1;
#pragma omp parallel
#pragma omp single
    {
        size_t want = pos + step;
        for (;;) {
            if (alone) {
#pragma omp taskwait
            }
            int complete;
            size_t have = text_input_wait(t, want, &complete);
            const char *b = t->data + pos, *lim = t->data + have, *cut = lim;
            if (!complete || (size_t)(lim - b) > step) {
                const char *nl = (size_t)(lim - b) >= step ? memchr(b + step - 1, '\n', (size_t)(lim - (b + step - 1)))
                                                           : NULL;
                if (!nl && !complete) { /* a line longer than the rest of the window */
                    want = have + step;
                    continue;
                }
                cut = nl ? nl + 1 : lim;
            }
            if (cut == b)
                break;
            if (n == cap) { /* the array moves; the chunks it points to do not */
                int ncap = cap ? 2 * cap : 256;
                line_chunk **grown = realloc(ck, (size_t)ncap * sizeof *grown);
                if (!grown) {
                    nomem = 1;
                    break;
                }
                ck = grown, cap = ncap;
            }
            line_chunk *k = calloc(1, ops->chunk_size);
            if (!k) {
                nomem = 1;
                break;
            }
            ck[n++] = k;
            k->begin = b, k->end = cut;
#pragma omp task firstprivate(k) depend(out : k->lines)
            line_chunk_count(k, kind);
#pragma omp task firstprivate(k) depend(in : k->lines) depend(inout : sums) depend(out : k->first_data)
            {
                k->first_line = sums.line;
                k->first_data = sums.data;
                sums.line += k->lines;
                sums.data += k->data_lines;
                if (ops->place)
                    ops->place(ctx, k);
            }
#pragma omp task firstprivate(k) depend(in : k->first_data)
            ops->parse(ctx, k);
            pos = (size_t)(cut - t->data);
            want = pos + step;
        }
#pragma omp taskwait
    }
    *chunks = ck;
    *count = n;
    *data_total = sums.data;
    return nomem ? error_nomem(err, "chunks", ops->chunk_size) : COARSEN_OK;
}

void line_chunks_stream_free(line_chunk **chunks, int count)
{
    for (int k = 0; k < count; k++)
        free(chunks[k]);
    free(chunks);
}
