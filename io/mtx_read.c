/* mtx_read.c — Matrix Market text to COO entries, and square matrices to
 * undirected graphs through core/graph_build (rules: docs/formats.md). */
#include "io/mtx_read.h"
#include "core/error.h"
#include "core/weight_sums.h"
#include "core/graph_build.h"
#include "core/timer.h"
#include "io/line_chunks.h"
#include "io/read_error.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const field_names[] = {"real", "integer", "pattern", "complex"};
static const char *const symmetry_names[] = {"general", "symmetric", "skew-symmetric", "hermitian"};

int mtx_has_banner(text_input *t)
{
    return text_input_wait(t, 14, NULL) >= 14 && !strncasecmp(t->data, "%%MatrixMarket", 14);
}

/* Copies the next word of [*p, e) into w (lower-cased); 0 when none. */
static int next_word(const char **p, const char *e, char *w, size_t cap)
{
    const char *s = text_skip_blank(*p, e);
    size_t n = 0;
    while (s < e && *s != ' ' && *s != '\t') {
        if (n + 1 < cap)
            w[n++] = (char)((*s >= 'A' && *s <= 'Z') ? *s - 'A' + 'a' : *s);
        s++;
    }
    w[n] = '\0';
    *p = s;
    return n > 0;
}

static int is_blank_or_comment(const char *s, const char *e)
{
    return !line_is_data(s, e, LINES_MTX);
}

static int parse_banner(const text_input *t, const char *s, const char *e, mtx_coo *m, coarsen_error *err)
{
    char w[64];
    const char *p = s + 14;
    if (!next_word(&p, e, w, sizeof w) || strcmp(w, "matrix"))
        return read_error_token(err, t->name, 1, "unknown Matrix Market object (expected 'matrix')", s + 14, e);
    const char *q = p;
    if (!next_word(&p, e, w, sizeof w) || (strcmp(w, "coordinate") && strcmp(w, "array")))
        return read_error_token(err, t->name, 1, "unknown Matrix Market format (expected coordinate or array)", q, e);
    m->is_array = !strcmp(w, "array");
    q = p;
    if (!next_word(&p, e, w, sizeof w))
        return read_error(err, t->name, 1, "Matrix Market banner lacks the field (real, integer, pattern, complex)");
    if (!strcmp(w, "real") || !strcmp(w, "double"))
        m->field = MTX_REAL;
    else if (!strcmp(w, "integer"))
        m->field = MTX_INTEGER;
    else if (!strcmp(w, "pattern") && !m->is_array)
        m->field = MTX_PATTERN;
    else if (!strcmp(w, "complex"))
        m->field = MTX_COMPLEX;
    else
        return read_error_token(err, t->name, 1, "unknown Matrix Market field (expected real, double, integer, "
                                "pattern or complex; pattern only with coordinate)", q, e);
    q = p;
    if (!next_word(&p, e, w, sizeof w))
        return read_error(err, t->name, 1, "Matrix Market banner lacks the symmetry (general, symmetric, "
                          "skew-symmetric, hermitian)");
    int sym = -1;
    for (int k = 0; k < 4; k++)
        if (!strcmp(w, symmetry_names[k]))
            sym = k;
    if (sym < 0)
        return read_error_token(err, t->name, 1, "unknown Matrix Market symmetry (expected general, symmetric, "
                                "skew-symmetric or hermitian)", q, e);
    m->symmetry = (mtx_symmetry)sym;
    if (m->symmetry == MTX_HERMITIAN && m->field != MTX_COMPLEX)
        return read_error(err, t->name, 1, "hermitian symmetry needs the complex field");
    if (m->symmetry == MTX_SKEW && m->field == MTX_PATTERN)
        return read_error(err, t->name, 1, "skew-symmetric symmetry cannot be pattern");
    if (next_word(&p, e, w, sizeof w))
        return read_error_token(err, t->name, 1, "unexpected text after the Matrix Market banner", q, e);
    return COARSEN_OK;
}

/* Parses one size: a non-negative integer that fits a vertex id. */
static int parse_dim(const text_input *t, int64_t line, const char **p, const char *e, const char *what,
                     int64_t limit, int64_t *out, coarsen_error *err)
{
    const char *s = *p;
    int r = text_parse_int(p, e, out);
    if (r == 0)
        return read_error_token(err, t->name, line, what, s, e);
    if (r < 0 || *out < 0 || *out > limit)
        return read_error(err, t->name, line, "%s: value out of range [0, %lld]", what, (long long)limit);
    return COARSEN_OK;
}

/* Reads the value(s) of one entry per the field. Inlined, like parse_entry,
 * into each loop over entry lines: the two calls an entry were a tenth of
 * a Matrix Market read's instructions (callgrind, one thread: road-NY
 * 222.6 -> 199.2 M, p2p-Gnutella06 17.2 -> 15.2 M). */
static inline __attribute__((always_inline)) int parse_value(const text_input *t, int64_t line, const char **p,
                                                             const char *e, mtx_field field, double *v,
                                                             coarsen_error *err)
{
    const char *s = *p;
    int r;
    switch (field) {
    case MTX_INTEGER: {
        int64_t x;
        r = text_parse_int_pad(p, e, t->padded, &x);
        if (r < 0)
            return read_error_token(err, t->name, line, "integer value out of range", s, e);
        if (r == 0)
            return read_error_token(err, t->name, line, "expected an integer value", s, e);
        if (x > EDGE_WEIGHT_EXACT_MAX || x < -EDGE_WEIGHT_EXACT_MAX)
            return read_error_token(err, t->name, line,
                                    "integer value beyond 2^53, where weights (doubles) are not exact", s, e);
        *v = (double)x;
        return COARSEN_OK;
    }
    case MTX_REAL:
    case MTX_COMPLEX: {
        double re, im = 0.0;
        r = text_parse_real(p, e, &re);
        if (r > 0 && field == MTX_COMPLEX) {
            s = *p;
            r = text_parse_real(p, e, &im);
        }
        if (r < 0)
            return read_error_token(err, t->name, line, "value is NaN or infinite", s, e);
        if (r == 0)
            return read_error_token(err, t->name, line,
                                    field == MTX_COMPLEX ? "expected a complex value (two reals)" : "expected a real value",
                                    s, e);
        *v = field == MTX_COMPLEX ? hypot(re, im) : re;
        if (!isfinite(*v))
            return read_error(err, t->name, line, "complex magnitude overflows");
        return COARSEN_OK;
    }
    case MTX_PATTERN:
    default:
        *v = 1.0;
        return COARSEN_OK;
    }
}

static int coo_reserve(mtx_coo *m, int64_t cap, coarsen_error *err)
{
    if (cap < 1)
        cap = 1;
    m->i = xmalloc((size_t)cap * sizeof *m->i, "matrix rows", err);
    m->j = m->i ? xmalloc((size_t)cap * sizeof *m->j, "matrix columns", err) : NULL;
    m->value = m->j ? xmalloc((size_t)cap * sizeof *m->value, "matrix values", err) : NULL;
    return m->value ? COARSEN_OK : COARSEN_ERR_NOMEM;
}

/* Reads the next line that is neither blank nor a comment. */
static int next_data_line(text_cursor *c, const char **ls, const char **le)
{
    while (text_next_line(c, ls, le))
        if (!is_blank_or_comment(*ls, *le))
            return 1;
    return 0;
}

static int at_line_end(const char *p, const char *e)
{
    return text_skip_blank(p, e) == e;
}

/* Parses the entry on line [s, e) (number `line`) into slot k of m
 * (inlined: see parse_value). */
static inline __attribute__((always_inline)) int parse_entry(const text_input *t, int64_t line, const char *s,
                                                             const char *e, mtx_coo *m, int64_t k, coarsen_error *err)
{
    const char *p = s;
    int64_t a, b;
    int r = text_parse_int_pad(&p, e, t->padded, &a);
    if (r <= 0 || a < 1 || a > m->rows)
        return r == 0 ? read_error_token(err, t->name, line, "expected a row index", s, e)
                      : read_error(err, t->name, line, "row index out of range [1, %lld]", (long long)m->rows);
    const char *q = p;
    r = text_parse_int_pad(&p, e, t->padded, &b);
    if (r <= 0 || b < 1 || b > m->cols)
        return r == 0 ? read_error_token(err, t->name, line, "expected a column index", q, e)
                      : read_error(err, t->name, line, "column index out of range [1, %lld]", (long long)m->cols);
    double v = 0.0; /* set by parse_value on success; its error paths return what read_error gives */
    if (parse_value(t, line, &p, e, m->field, &v, err))
        return COARSEN_ERR_INPUT;
    if (!at_line_end(p, e))
        return read_error_token(err, t->name, line, "unexpected text after the entry", p, e);
    m->i[k] = (int32_t)(a - 1);
    m->j[k] = (int32_t)(b - 1);
    m->value[k] = v;
    return COARSEN_OK;
}

typedef struct entry_chunk {
    line_chunk at;
    int failed;
    coarsen_error err; /* the chunk's first error */
} entry_chunk;

/* Parses every entry line of chunk k into its slots (from at.first_data). */
static int parse_entry_chunk(const text_input *t, mtx_coo *m, entry_chunk *k)
{
    text_cursor c;
    text_cursor_init(&c, k->at.begin, k->at.end);
    c.line = k->at.first_line - 1;
    int64_t slot = k->at.first_data;
    const char *s, *e;
    /* when every line is an entry (line_chunk_count found no comment or
     * blank line: the usual case), no line needs a look before its parse */
    const int all_data = k->at.data_lines == k->at.lines;
    while (all_data ? text_next_line(&c, &s, &e) : next_data_line(&c, &s, &e))
        if (parse_entry(t, c.line, s, e, m, slot++, &k->err))
            return COARSEN_ERR_INPUT;
    return COARSEN_OK;
}

/* Parses the lines entries of the chunks lc[0..n) (freed here) in parallel,
 * each into its own slots; the first failing chunk gives the error. */
static int parse_chunks(const text_input *t, mtx_coo *m, line_chunk *lc, int n, int64_t lines, coarsen_error *err)
{
    entry_chunk *ck = coo_reserve(m, lines, err) ? NULL : xcalloc((size_t)n, sizeof *ck, "chunks", err);
    if (!ck) {
        free(lc);
        return COARSEN_ERR_NOMEM;
    }
    for (int k = 0; k < n; k++)
        ck[k].at = lc[k];
    free(lc);
    int rc = COARSEN_OK;
#pragma omp parallel for schedule(dynamic, 1) if (n > 1)
    for (int k = 0; k < n; k++)
        ck[k].failed = parse_entry_chunk(t, m, &ck[k]) != COARSEN_OK;
    for (int k = 0; k < n && !rc; k++)
        if (ck[k].failed) {
            if (err)
                *err = ck[k].err;
            rc = COARSEN_ERR_INPUT;
        }
    m->count = rc ? 0 : lines;
    free(ck);
    return rc;
}

int mtx_read_entries(const text_input *t, mtx_coo *m, const char *begin, const char *end, int64_t first_line,
                     coarsen_error *err)
{
    line_chunk *lc;
    int64_t lines;
    int n = line_chunks_split(begin, end, first_line, LINES_MTX, &lc, &lines, err);
    return n ? parse_chunks(t, m, lc, n, lines, err) : COARSEN_ERR_NOMEM;
}

/* When the text holds exactly the declared number of entry lines (the
 * normal case) they are parsed in parallel over chunks (parse_chunks).
 * Otherwise one pass in file order finds the first problem, a bad entry or
 * the wrong count. */
static int read_coordinate(const text_input *t, text_cursor *c, mtx_coo *m, int64_t declared, coarsen_error *err)
{
    line_chunk *lc;
    int64_t lines;
    int n = line_chunks_split(c->p, c->end, c->line + 1, LINES_MTX, &lc, &lines, err);
    if (!n)
        return COARSEN_ERR_NOMEM;
    if (lines == declared)
        return parse_chunks(t, m, lc, n, lines, err);
    free(lc);
    /* Reserved from the lines actually present, never from the header. */
    if (coo_reserve(m, declared < lines ? declared : lines, err))
        return COARSEN_ERR_NOMEM;
    const char *s, *e;
    int64_t k = 0;
    while (k < declared && next_data_line(c, &s, &e)) {
        if (parse_entry(t, c->line, s, e, m, k, err))
            return COARSEN_ERR_INPUT;
        k++;
    }
    m->count = k;
    if (k < declared)
        return read_error(err, t->name, c->line, "file ends after %lld of the %lld entries declared", (long long)k,
                          (long long)declared);
    next_data_line(c, &s, &e); /* the first entry too many */
    return read_error(err, t->name, c->line, "more entries than the %lld declared", (long long)declared);
}

/* What the streaming reader's chunks parse into. */
typedef struct entry_stream {
    const text_input *t;
    mtx_coo *m;
    int64_t declared;
} entry_stream;

/* Chunks placed beyond the declared entries are left to the sequential path. */
static void entry_stream_parse(void *ctx, line_chunk *at)
{
    entry_stream *s = ctx;
    entry_chunk *k = (entry_chunk *)at;
    if (at->first_data + at->data_lines <= s->declared)
        k->failed = parse_entry_chunk(s->t, s->m, k) != COARSEN_OK;
}

/* Parses the entry lines from byte pos (line number first_line) while the
 * text is still being inflated (line_chunks_stream), each chunk into its
 * slots. 1 when every entry landed and their count is the declared one; 0
 * when the caller must take the sequential path (a count that differs); the
 * negated status with err set on an allocation failure or a bad entry. */
static int read_coordinate_stream(text_input *t, size_t pos, int64_t first_line, mtx_coo *m, int64_t declared,
                                  coarsen_error *err)
{
    if (declared > (int64_t)(t->size_hint / 4) + 1) /* an entry line has at least 4 bytes */
        return 0;
    if (coo_reserve(m, declared, err))
        return -COARSEN_ERR_NOMEM;
    entry_stream s = {.t = t, .m = m, .declared = declared};
    static const line_stream_ops ops = {sizeof(entry_chunk), entry_stream_parse, NULL};
    line_chunk **ck;
    int chunks, rc = 1;
    int64_t entries;
    if (line_chunks_stream(t, pos, first_line, LINES_MTX, &ops, &s, &ck, &chunks, &entries, err))
        rc = -COARSEN_ERR_NOMEM;
    else if (entries != declared)
        rc = 0;
    for (int k = 0; k < chunks && rc == 1; k++)
        if (((entry_chunk *)ck[k])->failed) {
            if (err)
                *err = ((entry_chunk *)ck[k])->err;
            rc = -COARSEN_ERR_INPUT;
        }
    line_chunks_stream_free(ck, chunks);
    if (rc == 1)
        m->count = declared;
    else
        mtx_coo_free(m);
    return rc;
}

static int read_array(const text_input *t, text_cursor *c, mtx_coo *m, coarsen_error *err)
{
    int64_t r = m->rows, cl = m->cols, declared;
    if (m->symmetry != MTX_GENERAL && r != cl)
        return read_error(err, t->name, m->size_line, "a %s array must be square, not %lldx%lld",
                          symmetry_names[m->symmetry], (long long)r, (long long)cl);
    if (m->symmetry == MTX_GENERAL)
        declared = r * cl;
    else if (m->symmetry == MTX_SKEW)
        declared = r * (r - 1) / 2;
    else
        declared = r * (r + 1) / 2;
    int64_t fit = (int64_t)(c->end - c->p) / 2 + 1;
    if (coo_reserve(m, declared < fit ? declared : fit, err))
        return COARSEN_ERR_NOMEM;
    /* Column-major; symmetric storage lists rows j..n-1 (skew: j+1..n-1). */
    int64_t row = m->symmetry == MTX_SKEW ? 1 : 0, col = 0, k = 0, stored = 0;
    const char *s, *e;
    while (k < declared && next_data_line(c, &s, &e)) {
        const char *p = s;
        double v = 0.0; /* as in parse_entry */
        if (parse_value(t, c->line, &p, e, m->field, &v, err))
            return COARSEN_ERR_INPUT;
        if (!at_line_end(p, e))
            return read_error_token(err, t->name, c->line, "unexpected text after the value", p, e);
        if (v != 0.0) {
            m->i[stored] = (int32_t)row;
            m->j[stored] = (int32_t)col;
            m->value[stored] = v;
            stored++;
        }
        k++;
        if (++row == r) {
            col++;
            row = m->symmetry == MTX_GENERAL ? 0 : m->symmetry == MTX_SKEW ? col + 1 : col;
        }
    }
    m->count = stored;
    if (k < declared)
        return read_error(err, t->name, c->line, "file ends after %lld of the %lld array values", (long long)k,
                          (long long)declared);
    if (next_data_line(c, &s, &e))
        return read_error(err, t->name, c->line, "more values than the %lld of the array", (long long)declared);
    return COARSEN_OK;
}

/* 1 when [s, e) holds the banner line and the size line (the first data
 * line after it). */
static int has_size_line(const char *s, const char *e)
{
    text_cursor c;
    text_cursor_init(&c, s, e);
    const char *ls, *le;
    return text_next_line(&c, &ls, &le) && next_data_line(&c, &ls, &le);
}

/* Empty rows and columns cost memory to whoever uses the matrix (a graph's
 * isolated vertices, a bipartite graph's sides) but no text: more than 64
 * of them per byte of text (and above 2^24) is a corrupt size line, refused
 * here for every reader of the file. */
int mtx_check_shape(const text_input *t, const mtx_coo *m, coarsen_error *err)
{
    int64_t most = (int64_t)t->len * 64 > ((int64_t)1 << 24) ? (int64_t)t->len * 64 : ((int64_t)1 << 24);
    int64_t larger = m->rows > m->cols ? m->rows : m->cols;
    if (larger <= most)
        return COARSEN_OK;
    return read_error(err, t->name, m->size_line,
                      "a %lld x %lld matrix for %zu bytes of text: more than 64 vertices per byte (and above 2^24) "
                      "is refused as a corrupt size line",
                      (long long)m->rows, (long long)m->cols, t->len);
}

int mtx_read_head(text_input *t, mtx_coo *m, text_cursor *body, int64_t *declared_out, coarsen_error *err)
{
    memset(m, 0, sizeof *m);
    const char *window = text_input_window(t, has_size_line, err);
    if (!window)
        return err ? err->status : COARSEN_ERR_INPUT;
    text_cursor c;
    text_cursor_init(&c, t->data, window);
    const char *s, *e;
    if (!text_next_line(&c, &s, &e))
        return read_error(err, t->name, 1, "empty file");
    if ((size_t)(e - s) < 14 || strncasecmp(s, "%%MatrixMarket", 14))
        return read_error(err, t->name, 1, "missing Matrix Market banner '%%%%MatrixMarket matrix ...'");
    int rc = parse_banner(t, s, e, m, err);
    if (rc)
        return rc;
    if (!next_data_line(&c, &s, &e))
        return read_error(err, t->name, c.line, "the size line is missing");
    m->size_line = c.line;
    const char *p = s;
    int64_t declared = 0;
    if ((rc = parse_dim(t, c.line, &p, e, "expected the number of rows", INT32_MAX, &m->rows, err)) ||
        (rc = parse_dim(t, c.line, &p, e, "expected the number of columns", INT32_MAX, &m->cols, err)))
        goto fail;
    if (!m->is_array) {
        if ((rc = parse_dim(t, c.line, &p, e, "expected the number of entries", INT64_MAX, &declared, err)))
            goto fail;
        int64_t most = m->rows * m->cols; /* < 2^62 */
        if (declared > most) {
            rc = read_error(err, t->name, c.line, "%lld entries declared but a %lldx%lld matrix has only %lld places",
                            (long long)declared, (long long)m->rows, (long long)m->cols, (long long)most);
            goto fail;
        }
    }
    if (!at_line_end(p, e)) {
        rc = read_error_token(err, t->name, c.line, "unexpected text after the size line", p, e);
        goto fail;
    }
    if (m->symmetry != MTX_GENERAL && m->rows != m->cols) {
        rc = read_error(err, t->name, c.line, "a %s matrix must be square, not %lldx%lld",
                        symmetry_names[m->symmetry], (long long)m->rows, (long long)m->cols);
        goto fail;
    }
    *body = c;
    *declared_out = declared;
    return COARSEN_OK;
fail:
    mtx_coo_free(m);
    return rc;
}

int mtx_read_coo_text(text_input *t, mtx_coo *m, coarsen_error *err)
{
    text_cursor c;
    int64_t declared = 0;
    int rc = mtx_read_head(t, m, &c, &declared, err);
    if (rc)
        return rc;
    if (t->stream && !m->is_array) {
        int r = read_coordinate_stream(t, (size_t)(c.p - t->data), c.line + 1, m, declared, err);
        if ((rc = text_input_finish(t, err)) || (rc = r < 0 ? -r : 0)) /* a gzip error comes first */
            goto fail;
        if (r > 0 && !(rc = mtx_check_shape(t, m, err)))
            return COARSEN_OK;
        if (rc)
            goto fail;
    }
    if ((rc = text_input_finish(t, err)))
        goto fail;
    c.end = t->data + t->len;
    rc = m->is_array ? read_array(t, &c, m, err) : read_coordinate(t, &c, m, declared, err);
    if (rc || (rc = mtx_check_shape(t, m, err)))
        goto fail;
    return COARSEN_OK;
fail:
    mtx_coo_free(m);
    return rc;
}

int mtx_read_coo(const char *path, mtx_coo *out, int64_t *bytes, coarsen_error *err)
{
    text_input t;
    memset(out, 0, sizeof *out);
    int rc = text_input_load(path, &t, err);
    if (rc)
        return rc;
    if (bytes)
        *bytes = (int64_t)t.len;
    rc = mtx_read_coo_text(&t, out, err);
    text_input_free(&t);
    return rc;
}

void mtx_coo_free(mtx_coo *m)
{
    free(m->i);
    free(m->j);
    free(m->value);
    m->i = m->j = NULL;
    m->value = NULL;
    m->count = 0;
}

void mtx_graph_opts(const mtx_coo *m, graph_build_opts *opts)
{
    opts->mirrored = m->symmetry != MTX_GENERAL;
    opts->dup_rule = m->field == MTX_PATTERN ? MERGE_MAX : MERGE_SUM;
    opts->sym_rule = MERGE_MAX;
}

void mtx_graph_report(const mtx_coo *m, int64_t diagonal, int64_t duplicates, int64_t zero_edges,
                      coarsen_read_report *report)
{
    snprintf(report->format, sizeof report->format, "matrix market %s %s %s", m->is_array ? "array" : "coordinate",
             field_names[m->field], symmetry_names[m->symmetry]);
    report->entries = m->count;
    report->diagonal_dropped = diagonal;
    report->duplicates_merged = duplicates;
    report->zero_weight_edges = zero_edges;
    report->complex_magnitude = m->field == MTX_COMPLEX;
    report->extra_constraints = 0;
}

int mtx_read_graph_text(text_input *t, coarsen_graph **out, coarsen_read_report *report, coarsen_error *err)
{
    *out = NULL;
    mtx_coo m;
    double t0 = timer_ms();
    int rc = mtx_read_coo_text(t, &m, err);
    if (rc)
        return rc;
    double t1 = timer_ms();
    if (m.rows != m.cols) {
        mtx_coo_free(&m);
        return read_error(err, t->name, m.size_line,
                          "the matrix is %lldx%lld (rectangular); use `coarsen bipartite` for rectangular matrices",
                          (long long)m.rows, (long long)m.cols);
    }
    edge_list e = {.count = m.count, .cap = m.count, .i = m.i, .j = m.j, .w = m.value};
    graph_build_opts opts;
    mtx_graph_opts(&m, &opts);
    graph_build_stats st;
    rc = graph_from_edges((int32_t)m.rows, &e, &opts, out, &st, err);
    if (!rc && report) {
        mtx_graph_report(&m, st.diagonal_dropped, st.duplicates_merged, st.zero_weight_edges, report);
        report->parse_ms = t1 - t0;
        report->build_ms = timer_ms() - t1;
    }
    mtx_coo_free(&m);
    return rc;
}
