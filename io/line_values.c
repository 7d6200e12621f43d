/* line_values.c — reading files of one value per line (line_values.h). */
#include "io/line_values.h"

#include <stdlib.h>
#include <string.h>

#include "core/error.h"

/* The lines of t as spans of one value each: calls take(k, s, e, ctx) for
 * line k's value [s, e); stops at the first nonzero return. */
static int each_value(const text_input *t, int (*take)(int64_t k, const char *s, const char *e, void *ctx), void *ctx,
                      int64_t *count, coarsen_error *err)
{
    if (!t->len) /* data may be NULL then */
        return error_set(err, COARSEN_ERR_INPUT, "%s: no values (an empty file)", t->name);
    text_cursor c;
    text_cursor_init(&c, t->data, t->data + t->len);
    const char *ls, *le;
    int64_t k = 0;
    while (text_next_line(&c, &ls, &le)) {
        const char *s = text_skip_blank(ls, le), *e = le;
        while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
            e--;
        const char *gap = s;
        while (gap < e && *gap != ' ' && *gap != '\t')
            gap++;
        if (s == e || gap != e)
            return error_set(err, COARSEN_ERR_INPUT, "%s:%lld: expected one value per line, found %s", t->name,
                             (long long)c.line, s == e ? "an empty line" : "more than one");
        int rc = take(k++, s, e, ctx);
        if (rc)
            return error_set(err, COARSEN_ERR_INPUT, "%s:%lld: %s", t->name, (long long)c.line,
                             rc == 1 ? "not an integer in the range allowed here" : "out of memory");
    }
    *count = k;
    return COARSEN_OK;
}

/* Lines are at most as many as newlines plus one. */
static int64_t max_lines(const text_input *t)
{
    int64_t n = 1;
    if (!t->len)
        return n;
    for (const char *p = t->data, *e = t->data + t->len; (p = memchr(p, '\n', (size_t)(e - p))); p++)
        n++;
    return n;
}

typedef struct ints_ctx {
    int64_t lo, hi;
    int32_t *v;
} ints_ctx;

static int take_int(int64_t k, const char *s, const char *e, void *ctx)
{
    ints_ctx *c = ctx;
    int64_t x;
    if (text_parse_int(&s, e, &x) != 1 || s != e || x < c->lo || x > c->hi)
        return 1;
    c->v[k] = (int32_t)x;
    return 0;
}

int line_values_read_ints(const char *path, int64_t lo, int64_t hi, int32_t **out, int64_t *count,
                          coarsen_error *err)
{
    text_input t;
    int rc = text_input_load(path, &t, err);
    if (rc)
        return rc;
    ints_ctx c = {lo < INT32_MIN ? INT32_MIN : lo, hi > INT32_MAX ? INT32_MAX : hi, NULL};
    c.v = xmalloc((size_t)max_lines(&t) * sizeof *c.v, "the values of a file", err);
    rc = c.v ? each_value(&t, take_int, &c, count, err) : COARSEN_ERR_NOMEM;
    if (rc == COARSEN_ERR_INPUT && strstr(err->msg, "not an integer")) {
        char line[sizeof err->msg];
        memcpy(line, err->msg, sizeof line);
        error_set(err, COARSEN_ERR_INPUT, "%.900s: [%lld, %lld]", line, (long long)c.lo, (long long)c.hi);
    }
    text_input_free(&t);
    if (rc) {
        free(c.v);
        return rc;
    }
    *out = c.v;
    return COARSEN_OK;
}

static int take_token(int64_t k, const char *s, const char *e, void *ctx)
{
    line_tokens *t = ctx;
    if (e - s > INT32_MAX)
        return 1;
    t->start[k] = s;
    t->len[k] = (int32_t)(e - s);
    return 0;
}

int line_values_read_tokens(const char *path, line_tokens *t, coarsen_error *err)
{
    memset(t, 0, sizeof *t);
    int rc = text_input_load(path, &t->text, err);
    if (rc)
        return rc;
    int64_t n = max_lines(&t->text);
    t->start = xmalloc((size_t)n * sizeof *t->start, "the lines of a file", err);
    t->len = t->start ? xmalloc((size_t)n * sizeof *t->len, "the lines of a file", err) : NULL;
    if (!t->len)
        return COARSEN_ERR_NOMEM;
    return each_value(&t->text, take_token, t, &t->count, err);
}

void line_tokens_free(line_tokens *t)
{
    text_input_free(&t->text);
    free(t->start);
    free(t->len);
    memset(t, 0, sizeof *t);
}
