/* metis_read.c — METIS graph text to CSR: chunks of rows are parsed in
 * parallel straight into their slots of the adjacency (as many as their
 * tokens allow), each row sorted as soon as it is parsed when it is not in
 * order, then checked (duplicates, symmetry, equal weights). */
#include "io/metis_read.h"
#include "core/error.h"
#include "core/weight_sums.h"
#include "core/graph_build.h"
#include "core/graph_symmetry.h"
#include "core/timer.h"
#include "io/line_chunks.h"
#include "io/read_error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is_comment(const char *s, const char *e)
{
    return !line_is_data(s, e, LINES_METIS);
}

static int parse_header(const text_input *t, int64_t line, const char *s, const char *e, metis_header *h,
                        coarsen_error *err)
{
    memset(h, 0, sizeof *h);
    const char *p = s;
    int r = text_parse_int(&p, e, &h->n);
    if (r <= 0 || h->n < 0 || h->n > INT32_MAX)
        return r == 0 ? read_error_token(err, t->name, line, "METIS header: expected the number of vertices", s, e)
                      : read_error(err, t->name, line, "METIS header: number of vertices out of range [0, %d]",
                                   INT32_MAX);
    const char *q = p;
    r = text_parse_int(&p, e, &h->m);
    if (r <= 0 || h->m < 0 || h->m > INT64_MAX / 2)
        return r == 0 ? read_error_token(err, t->name, line, "METIS header: expected the number of edges", q, e)
                      : read_error(err, t->name, line, "METIS header: number of edges out of range");
    h->ncon = 1;
    strcpy(h->fmt, "000");
    q = text_skip_blank(p, e);
    if (q < e) {
        /* fmt: up to three 0/1 digits, read as text (leading zeros matter). */
        const char *f = q;
        while (q < e && *q != ' ' && *q != '\t')
            q++;
        size_t len = (size_t)(q - f);
        int ok = len >= 1 && len <= 3;
        for (size_t k = 0; ok && k < len; k++)
            ok = f[k] == '0' || f[k] == '1';
        if (!ok)
            return read_error_token(err, t->name, line, "METIS header: fmt must be 0, 1, 10, 11 (or 100+)", f, e);
        memcpy(h->fmt + 3 - len, f, len);
        h->vsize = h->fmt[0] == '1';
        h->has_vwgt = h->fmt[1] == '1';
        h->has_ewgt = h->fmt[2] == '1';
        if (h->vsize)
            return read_error(err, t->name, line, "METIS header: fmt %s (vertex sizes) is not supported", h->fmt);
        p = q;
        q = text_skip_blank(p, e);
        if (q < e) {
            r = text_parse_int(&p, e, &h->ncon);
            if (r <= 0 || h->ncon < 1 || h->ncon > 1000000)
                return read_error_token(err, t->name, line, "METIS header: ncon must be an integer >= 1", q, e);
            if (!h->has_vwgt)
                return read_error(err, t->name, line, "METIS header: ncon given but fmt %s has no vertex weights",
                                  h->fmt);
        }
    }
    if (text_skip_blank(p, e) < e)
        return read_error_token(err, t->name, line, "METIS header: unexpected text", p, e);
    return COARSEN_OK;
}

/* Reading state shared by the row parser and the checks. */
typedef struct metis_rows {
    int64_t *line;       /* line of each vertex */
    int64_t entries;     /* adjacency entries as stored (self-loops included) */
    int64_t loops;
} metis_rows;

/* One chunk of whole lines (line_chunks.h: its first vertex is first_data),
 * parsed into room for as many entries as its tokens allow (chunk_slots):
 * its place in the adjacency region the chunks share (rows_region), or its
 * own buffers when the region has no room left for it; row lengths, vertex
 * weights and line numbers go straight to their global places. */
typedef struct chunk {
    line_chunk at;
    int64_t place;                   /* its first slot in the region (in place) */
    int64_t first_slot;              /* its first entry in the graph */
    int32_t *adj;                    /* entries without self-loops */
    double *w;
    int owned;                       /* adj and w are its own buffers */
    int64_t count, entries, loops;
    int failed;
    coarsen_error err;               /* the chunk's first error */
} chunk;

/* The most entries chunk k can hold: each stored entry is a neighbour token
 * (and a weight token), distinct tokens of its lines (line_chunk.tokens). */
static int64_t chunk_slots(const metis_header *h, const chunk *k)
{
    return k->at.tokens / (h->has_ewgt ? 2 : 1);
}

/* The adjacency region that chunks parse into in place, in file order: it
 * becomes the graph's adjacency (rows_assemble). */
typedef struct rows_region {
    int32_t *adj;
    double *w;
    int64_t room;  /* slots allocated */
    int64_t used;  /* slots given to the chunks placed so far */
} rows_region;

/* Allocates room slots, and one more so that no graph has a NULL adjacency
 * (none when the memory is not there: the chunks then get their own
 * buffers). */
static void region_alloc(rows_region *r, int64_t room)
{
    memset(r, 0, sizeof *r);
    if (room < 0 || (uint64_t)room >= SIZE_MAX / sizeof *r->w)
        return;
    const size_t places = (size_t)room + 1;
    r->adj = malloc(places * sizeof *r->adj);
    r->w = r->adj ? malloc(places * sizeof *r->w) : NULL;
    if (!r->w) {
        free(r->adj);
        r->adj = NULL;
        return;
    }
    memory_advise_huge(r->adj, places * sizeof *r->adj);
    memory_advise_huge(r->w, places * sizeof *r->w);
    r->room = room;
}

/* Gives chunk k (the next in file order) its slots in the region, or marks
 * it owned when they do not fit. */
static void region_place(rows_region *r, const metis_header *h, chunk *k)
{
    const int64_t slots = chunk_slots(h, k);
    k->place = r->used;
    k->owned = r->used + slots > r->room;
    if (!k->owned) {
        k->adj = r->adj + r->used;
        k->w = r->w + r->used;
    }
    r->used += slots;
}

/* Allocates an owned chunk's buffers (0, err in k set, when out of memory). */
static int chunk_alloc(const metis_header *h, chunk *k)
{
    const int64_t slots = chunk_slots(h, k);
    if (!k->owned || !slots)
        return 1;
    k->adj = xmalloc((size_t)slots * sizeof *k->adj, "adjacency", &k->err);
    k->w = k->adj ? xmalloc((size_t)slots * sizeof *k->w, "adjacency", &k->err) : NULL;
    return k->w != NULL;
}

/* Parses the vertex lines of chunk k (its global first vertex and line are
 * known) into arrays whose index 0 is vertex base: the length of row u goes
 * to xadj[u - base + 1], its weight to vwgt[u - base], its line to
 * line_of[u - base] (line_of may be NULL); a row not strictly increasing is
 * sorted (graph_sort_neighbours, *scratch [in/out] its buffer for long rows) while
 * it is still in the cache. ewgt is h->has_ewgt, a constant in each inlined
 * copy (parse_chunk), so the loop without edge weights stores 1.0 and tests
 * nothing for them. */
static inline __attribute__((always_inline)) int parse_chunk_rows(const text_input *t, const metis_header *h,
                                                                  chunk *k, int64_t base, int64_t *xadj,
                                                                  int64_t *vwgt, int64_t *line_of,
                                                                  graph_entry **scratch, int64_t *scratch_cap,
                                                                  const int ewgt)
{
    text_cursor c;
    text_cursor_init(&c, k->at.begin, k->at.end);
    c.line = k->at.first_line - 1;
    int64_t n = h->n, u = k->at.first_data;
    /* the chunk's counts in locals (stores to adj and ew cannot alias them);
     * stored in k at the end (a failed chunk's are not used) */
    int32_t *adj = k->adj;
    double *ew = k->w;
    int64_t count = 0, loops = 0; /* entries stored, self-loops dropped */
    const int comments = k->at.data_lines != k->at.lines; /* else no line is one */
    const char *s, *e;
    while (text_next_line(&c, &s, &e)) {
        if (comments && is_comment(s, e))
            continue;
        if (u >= n) {
            if (text_skip_blank(s, e) < e)
                return read_error(&k->err, t->name, c.line, "more lines than the %lld vertices of the header",
                                  (long long)n);
            continue;
        }
        if (line_of)
            line_of[u - base] = c.line;
        const char *p = s;
        int64_t x, before = count, last = -1; /* the row's last neighbour stored */
        int unsorted = 0;
        vwgt[u - base] = 1;
        for (int64_t q = 0; h->has_vwgt && q < h->ncon; q++) {
            const char *tok = p;
            int r = text_parse_int(&p, e, &x);
            if (r <= 0 || x < 0)
                return read_error_token(&k->err, t->name, c.line, "vertex weight must be an integer >= 0", tok, e);
            if (q == 0)
                vwgt[u - base] = x;
        }
        for (;;) {
            p = text_skip_blank(p, e);
            if (p == e)
                break;
            const char *tok = p;
            int r = text_parse_int_here(&p, e, t->padded, &x);
            if (r <= 0 || x < 1 || x > n)
                return r == 0 ? read_error_token(&k->err, t->name, c.line, "expected a neighbour id", tok, e)
                              : read_error(&k->err, t->name, c.line, "neighbour %lld out of range [1, %lld]",
                                           r < 0 ? 0LL : (long long)x, (long long)n);
            int64_t w = 1;
            if (ewgt) {
                tok = p;
                r = text_parse_int(&p, e, &w);
                if (r <= 0 || w < 1)
                    return read_error_token(&k->err, t->name, c.line, "edge weight must be an integer > 0", tok, e);
                if (w > EDGE_WEIGHT_EXACT_MAX)
                    return read_error_token(&k->err, t->name, c.line,
                                            "edge weight above 2^53, beyond which weights (doubles) are not exact",
                                            tok, e);
            }
            if (x - 1 == u) {
                loops++;
            } else { /* within chunk_slots */
                unsorted |= last >= x - 1;
                last = x - 1;
                adj[count] = (int32_t)last;
                ew[count++] = (double)w;
            }
        }
        if (unsorted && graph_sort_neighbours(adj + before, ew + before, count - before, scratch, scratch_cap))
            return error_nomem(&k->err, "row sort buffer", (size_t)(count - before) * sizeof **scratch);
        xadj[u - base + 1] = count - before;
        u++;
    }
    k->count = count;
    k->entries = count + loops;
    k->loops = loops;
    return COARSEN_OK;
}

/* parse_chunk_rows with a sort buffer of its own, with or without edge
 * weights. */
static int parse_chunk(const text_input *t, const metis_header *h, chunk *k, int64_t base, int64_t *xadj,
                       int64_t *vwgt, int64_t *line_of)
{
    graph_entry *scratch = NULL;
    int64_t cap = 0;
    int rc = h->has_ewgt ? parse_chunk_rows(t, h, k, base, xadj, vwgt, line_of, &scratch, &cap, 1)
                         : parse_chunk_rows(t, h, k, base, xadj, vwgt, line_of, &scratch, &cap, 0);
    free(scratch);
    return rc;
}

/* Checks the chunks ck[0..nchunks) (parsed; `line` is one past the last
 * line, `vertex` the vertex lines found) in file order and joins their
 * adjacency into g: the region r (taken over) becomes g's adjacency, sized
 * to the entries; the chunks in place move down over the slots left unused
 * before them, in file order (exact token counts leave none: nothing
 * moves), and the owned chunks are copied in after them. Errors are those
 * of the first failing chunk in file order, so they do not depend on the
 * thread count; then, when whole (the chunks are the whole file), the
 * vertex and entry counts against the header. Frees the chunks' buffers
 * (not ck) and, on error, the region. */
static int rows_assemble(const text_input *t, chunk *ck, int nchunks, int whole, int64_t vertex, int64_t line,
                         int64_t header_line, const metis_header *h, rows_region *r, coarsen_graph *g,
                         metis_rows *rows, coarsen_error *err)
{
    int rc = COARSEN_OK;
    int64_t nnz = 0;
    for (int k = 0; k < nchunks; k++) {
        if (ck[k].failed) {
            if (err)
                *err = ck[k].err;
            rc = ck[k].err.status;
            goto done;
        }
        rows->entries += ck[k].entries;
        rows->loops += ck[k].loops;
        ck[k].first_slot = nnz;
        nnz += ck[k].count;
    }
    if (whole && vertex < h->n) {
        rc = read_error(err, t->name, line - 1 > header_line ? line - 1 : header_line,
                        "file ends after %lld of the %lld vertex lines", (long long)vertex, (long long)h->n);
        goto done;
    }
    if (whole && rows->entries != 2 * h->m && rows->entries - rows->loops != 2 * h->m) {
        rc = read_error(err, t->name, line - 1 > header_line ? line - 1 : header_line,
                        "the header declares %lld edges (%lld adjacency entries) but the file lists %lld",
                        (long long)h->m, (long long)(2 * h->m), (long long)rows->entries);
        goto done;
    }
    for (int32_t u = 0; u < g->n; u++)
        g->xadj[u + 1] += g->xadj[u];
    if (nnz > r->room || !r->adj) { /* owned chunks follow: grow first (realloc of a large block moves no data) */
        const size_t places = (size_t)nnz + 1;
        int32_t *na = realloc(r->adj, places * sizeof *na);
        r->adj = na ? na : r->adj;
        double *nw = na ? realloc(r->w, places * sizeof *nw) : NULL;
        r->w = nw ? nw : r->w;
        if (!nw) {
            rc = error_nomem(err, "adjacency", places * sizeof *nw);
            goto done;
        }
        r->room = nnz;
        memory_advise_huge(r->adj, places * sizeof *r->adj);
        memory_advise_huge(r->w, places * sizeof *r->w);
    }
    for (int k = 0; k < nchunks; k++)
        if (!ck[k].owned && ck[k].count && ck[k].place != ck[k].first_slot) {
            memmove(r->adj + ck[k].first_slot, r->adj + ck[k].place, (size_t)ck[k].count * sizeof *r->adj);
            memmove(r->w + ck[k].first_slot, r->w + ck[k].place, (size_t)ck[k].count * sizeof *r->w);
        }
#pragma omp parallel for schedule(dynamic, 1) if (nchunks > 2)
    for (int k = 0; k < nchunks; k++) {
        if (ck[k].owned && ck[k].count) {
            memcpy(r->adj + ck[k].first_slot, ck[k].adj, (size_t)ck[k].count * sizeof *r->adj);
            memcpy(r->w + ck[k].first_slot, ck[k].w, (size_t)ck[k].count * sizeof *r->w);
        }
    }
    if (nnz < r->room) { /* shrinking moves no data */
        int32_t *na = realloc(r->adj, ((size_t)nnz + 1) * sizeof *na);
        double *nw = realloc(r->w, ((size_t)nnz + 1) * sizeof *nw);
        r->adj = na ? na : r->adj;
        r->w = nw ? nw : r->w;
    }
    free(g->adj);
    free(g->ewgt);
    g->adj = r->adj;
    g->ewgt = r->w;
    g->nnz = nnz;
    r->adj = NULL, r->w = NULL;
done:
    for (int k = 0; k < nchunks; k++)
        if (ck[k].owned) {
            free(ck[k].adj);
            free(ck[k].w);
        }
    free(r->adj);
    free(r->w);
    return rc;
}

/* Parses the whole lines [body, end), whose first line is number first_line
 * and whose first vertex line is vertex first_vertex, into g (xadj, vwgt,
 * adj, ewgt: rows first_vertex .. first_vertex + g->n - 1), in parallel over
 * chunks of whole lines, each straight into its place in the adjacency
 * (sized by the chunks' tokens). whole: [body, end) is the file after its
 * header (line header_line), whose counts are then checked (rows_assemble). */
static int parse_rows(const text_input *t, const char *body, const char *end, int64_t first_line, int64_t first_vertex,
                      int whole, int64_t header_line, const metis_header *h, coarsen_graph *g, metis_rows *rows,
                      coarsen_error *err)
{
    line_chunk *lc;
    int64_t vertex;
    int nchunks = line_chunks_split(body, end, first_line, LINES_METIS, &lc, &vertex, err);
    if (!nchunks)
        return COARSEN_ERR_NOMEM;
    int64_t line = lc[nchunks - 1].first_line + lc[nchunks - 1].lines; /* one past the last line */
    chunk *ck = xcalloc((size_t)nchunks, sizeof *ck, "chunks", err);
    if (!ck) {
        free(lc);
        return COARSEN_ERR_NOMEM;
    }
    int64_t slots = 0;
    for (int k = 0; k < nchunks; k++) {
        ck[k].at = lc[k];
        ck[k].at.first_data += first_vertex;
        slots += chunk_slots(h, &ck[k]);
    }
    free(lc);
    rows_region r;
    region_alloc(&r, slots);
    for (int k = 0; k < nchunks; k++)
        region_place(&r, h, &ck[k]);
#pragma omp parallel for schedule(dynamic, 1) if (nchunks > 1)
    for (int k = 0; k < nchunks; k++)
        ck[k].failed = !chunk_alloc(h, &ck[k]) ||
                       parse_chunk(t, h, &ck[k], first_vertex, g->xadj, g->vwgt, rows->line) != COARSEN_OK;
    int rc = rows_assemble(t, ck, nchunks, whole, vertex, line, header_line, h, &r, g, rows, err);
    free(ck);
    return rc;
}

/* What the streaming parse's chunks (line_chunks_stream) parse into. */
typedef struct row_stream {
    const text_input *t;
    const metis_header *h;
    coarsen_graph *g;
    metis_rows *rows;
    rows_region region;
} row_stream;

static void row_stream_place(void *ctx, line_chunk *at)
{
    row_stream *s = ctx;
    region_place(&s->region, s->h, (chunk *)at);
}

static void row_stream_parse(void *ctx, line_chunk *at)
{
    row_stream *s = ctx;
    chunk *k = (chunk *)at;
    k->failed = !chunk_alloc(s->h, k) ||
                parse_chunk(s->t, s->h, k, 0, s->g->xadj, s->g->vwgt, s->rows->line) != COARSEN_OK;
}

/* parse_rows on text still being inflated, from byte pos, into a region of
 * the 2m entries the header declares (a valid file stores no more; chunks
 * past it get their own buffers); the gzip stream's own error, if any,
 * comes first. */
static int parse_rows_stream(text_input *t, size_t pos, int64_t header_line, const metis_header *h, coarsen_graph *g,
                             metis_rows *rows, coarsen_error *err)
{
    row_stream s = {.t = t, .h = h, .g = g, .rows = rows};
    region_alloc(&s.region, 2 * h->m);
    static const line_stream_ops ops = {sizeof(chunk), row_stream_parse, row_stream_place};
    line_chunk **ck;
    int n;
    int64_t vertex;
    int rc = line_chunks_stream(t, pos, header_line + 1, LINES_METIS, &ops, &s, &ck, &n, &vertex, err);
    int gz = text_input_finish(t, err);
    chunk *flat = NULL;
    if (!rc && !gz && n) {
        flat = xmalloc((size_t)n * sizeof *flat, "chunks", err);
        rc = flat ? COARSEN_OK : COARSEN_ERR_NOMEM;
    }
    for (int k = 0; k < n; k++) {
        chunk *c = (chunk *)ck[k];
        if (flat)
            flat[k] = *c;
        else if (c->owned)
            free(c->adj), free(c->w);
    }
    line_chunks_stream_free(ck, n);
    if (gz || rc) {
        free(flat);
        free(s.region.adj);
        free(s.region.w);
        return gz ? gz : rc;
    }
    int64_t line = n ? flat[n - 1].at.first_line + flat[n - 1].at.lines : header_line + 1;
    rc = rows_assemble(t, flat, n, 1, vertex, line, header_line, h, &s.region, g, rows, err);
    free(flat);
    return rc;
}

/* Duplicates, missing mirrors and unequal weights (core/graph_symmetry.h),
 * worded with the lines of both vertices. */
static int check_rows(const text_input *t, const coarsen_graph *g, const metis_rows *rows, coarsen_error *err)
{
    graph_problem p;
    switch (graph_find_asymmetry(g, &p)) {
    case GRAPH_SYMMETRIC:
        return COARSEN_OK;
    case GRAPH_DUPLICATE:
        return read_error(err, t->name, rows->line[p.u], "vertex %d lists neighbour %d twice", p.u + 1, p.v + 1);
    case GRAPH_NO_MIRROR:
        return read_error(err, t->name, rows->line[p.u],
                          "vertex %d lists neighbour %d, but vertex %d (line %lld) does not list %d", p.u + 1,
                          p.v + 1, p.v + 1, (long long)rows->line[p.v], p.u + 1);
    default:
        return read_error(err, t->name, rows->line[p.u], "edge %d-%d has weight %.17g here but %.17g at line %lld",
                          p.u + 1, p.v + 1, g->ewgt[p.at], g->ewgt[p.mirror], (long long)rows->line[p.v]);
    }
}

/* 1 when [s, e) holds the header line (the first that is neither a
 * comment nor blank). */
static int has_header(const char *s, const char *e)
{
    text_cursor c;
    text_cursor_init(&c, s, e);
    const char *ls, *le;
    while (text_next_line(&c, &ls, &le))
        if (!is_comment(ls, le) && text_skip_blank(ls, le) < le)
            return 1;
    return 0;
}

int metis_read_header(text_input *t, metis_header *h, const char **body, const char **end, int64_t *header_line,
                      coarsen_error *err)
{
    const char *window = text_input_window(t, has_header, err);
    if (!window)
        return err ? err->status : COARSEN_ERR_INPUT;
    text_cursor c;
    text_cursor_init(&c, t->data, window);
    const char *s = NULL, *e = NULL;
    int have = 0;
    while ((have = text_next_line(&c, &s, &e)) && (is_comment(s, e) || text_skip_blank(s, e) == e))
        ;
    if (!have)
        return read_error(err, t->name, c.line ? c.line : 1, c.end > t->data ? "the METIS header line is missing" : "empty file");
    int rc = parse_header(t, c.line, s, e, h, err);
    if (rc)
        return rc;
    /* Every vertex needs a line (at least its line end): check the header
     * against the text (while it is inflated: the most it can have) before
     * allocating. The adjacency is sized after parsing, from the entries
     * actually found. */
    int64_t left = t->stream ? (int64_t)t->size_hint - (int64_t)(c.p - t->data) : (int64_t)(c.end - c.p);
    if (h->n > left + 1)
        return read_error(err, t->name, c.line,
                          "the header declares %lld vertices but only %lld bytes follow (truncated file or wrong header)",
                          (long long)h->n, (long long)left);
    *body = c.p;
    *end = c.end;
    *header_line = c.line;
    return COARSEN_OK;
}

int metis_read_block(const text_input *t, const metis_header *h, const char *begin, const char *end,
                     int64_t first_line, int64_t first_vertex, coarsen_graph *g, int64_t *entries, int64_t *loops,
                     coarsen_error *err)
{
    metis_rows rows = {0};
    int rc = parse_rows(t, begin, end, first_line, first_vertex, 0, first_line - 1, h, g, &rows, err);
    *entries = rows.entries;
    *loops = rows.loops;
    return rc;
}

void metis_report(const metis_header *h, int64_t entries, int64_t loops, coarsen_read_report *report)
{
    snprintf(report->format, sizeof report->format, "metis fmt %s ncon %lld", h->fmt, (long long)h->ncon);
    report->entries = entries;
    report->diagonal_dropped = loops;
    report->duplicates_merged = 0;
    report->zero_weight_edges = 0;
    report->complex_magnitude = 0;
    report->extra_constraints = (int)(h->ncon - 1);
}

int metis_read_graph_text(text_input *t, coarsen_graph **out, coarsen_read_report *report, coarsen_error *err)
{
    *out = NULL;
    metis_header h;
    const char *body, *end;
    int64_t header_line;
    int rc = metis_read_header(t, &h, &body, &end, &header_line, err);
    if (rc)
        return rc;
    coarsen_graph *g = coarsen_graph_alloc((int32_t)h.n, 0, err);
    metis_rows rows = {0};
    rows.line = g ? xmalloc((size_t)h.n * sizeof *rows.line, "line numbers", err) : NULL;
    if (!rows.line) {
        coarsen_graph_free(g);
        return COARSEN_ERR_NOMEM;
    }
    double t0 = timer_ms();
    rc = t->stream ? parse_rows_stream(t, (size_t)(body - t->data), header_line, &h, g, &rows, err)
                   : parse_rows(t, body, end, header_line + 1, 0, 1, header_line, &h, g, &rows, err);
    double t1 = timer_ms();
    if (!rc)
        rc = check_rows(t, g, &rows, err);
    free(rows.line);
    if (rc) {
        coarsen_graph_free(g);
        return rc;
    }
    g->integral_weights = 1;
    if (report) {
        metis_report(&h, rows.entries, rows.loops, report);
        report->parse_ms = t1 - t0;
        report->build_ms = timer_ms() - t1;
    }
    *out = g;
    return COARSEN_OK;
}
