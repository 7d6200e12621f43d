/* graph_write.c — coarsen_graph_write: METIS (fmt 0/1/10/11 as the weights
 * need) and Matrix Market coordinate symmetric (integer or real), through
 * io/output_file.h (atomic, gzip by name). Rules: docs/formats.md. */
#include "coarsen.h"
#include "core/error.h"
#include "core/timer.h"
#include "io/int_text.h"
#include "io/output_file.h"
#include "io/parhip_write.h"
#include "io/row_writer.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Below this many entries a loop runs on one thread: waking a team costs
 * more than the work (and much more on a busy machine). */
#define PARALLEL_MIN 65536

/* 1 when every weight is a whole number (of any size). */
static int all_whole(const double *w, int64_t n)
{
    int ok = 1;
#pragma omp parallel for reduction(&& : ok) if (n > PARALLEL_MIN)
    for (int64_t k = 0; k < n; k++)
        ok = ok && w[k] == floor(w[k]);
    return ok;
}

/* Edge weights w[0..n) in one parallel pass: *integral = every one an
 * integer METIS holds as it is; *not_one = one of them is not 1. Its time
 * goes to f's formatting: reading the weights is part of making the text. */
static void edge_weight_facts(output_file *f, const double *w, int64_t n, int *integral, int *not_one)
{
    double t0 = timer_ms();
    int ok = 1, other = 0;
#pragma omp parallel for reduction(&& : ok) reduction(|| : other) if (n > PARALLEL_MIN)
    for (int64_t k = 0; k < n; k++) {
        ok = ok && w[k] == floor(w[k]) && fabs(w[k]) < 9.2e18;
        other = other || w[k] != 1.0;
    }
    *integral = ok;
    *not_one = other;
    output_add_times(f, (timer_ms() - t0) * 1e-3, 0);
}

/* The METIS integer of weight w, or 0 when it is outside [1, 9.2e18]
 * (NaN included). */
static int64_t metis_value(double w, int integral, double scale)
{
    double x = integral ? w : nearbyint(w * scale);
    return x >= 1 && x <= 9.2e18 ? (int64_t)x : 0; /* false for NaN */
}

/* The METIS integer of weight w: exact when every weight is an integer,
 * round(w * scale) otherwise; 0 when it cannot be written (err set). */
static int64_t metis_weight(double w, int integral, double scale, const char *path, coarsen_error *err)
{
    int64_t v = metis_value(w, integral, scale);
    if (!v) {
        double x = integral ? w : nearbyint(w * scale);
        if (integral)
            error_set(err, COARSEN_ERR_INPUT,
                      "%s: edge weight %.17g cannot be written in METIS format (METIS needs integers >= 1)", path, w);
        else
            error_set(err, COARSEN_ERR_INPUT,
                      "%s: edge weight %.17g times the weight scale %g rounds to %.17g, outside the METIS range "
                      "[1, 9.2e18]; choose another scale", path, w, scale, x);
        return 0;
    }
    return v;
}

/* What the row formatters need; one struct for both formats. */
typedef struct rows_ctx {
    const coarsen_graph *g;
    int vw, ew;      /* METIS: vertex / edge weights written */
    int integral;    /* every edge weight is an integer */
    int unit;        /* every edge weight written as 1 (COARSEN_WEIGHT_UNIT) */
    double scale;    /* METIS with real weights */
} rows_ctx;

/* One METIS adjacency line: "[vwgt ]v1 [w1 ]v2 [w2 ]...\n". */
static char *metis_row(const void *ctx, int64_t row, char *p)
{
    const rows_ctx *c = ctx;
    const coarsen_graph *g = c->g;
    if (c->vw) {
        p = int_text_put(p, g->vwgt[row]);
        *p++ = ' ';
    }
    for (int64_t k = g->xadj[row]; k < g->xadj[row + 1]; k++) {
        p = int_text_put(p, g->adj[k] + 1);
        *p++ = ' ';
        if (c->ew) {
            int64_t w = metis_value(g->ewgt[k], c->integral, c->scale);
            if (!w)
                return NULL;
            p = int_text_put(p, w);
            *p++ = ' ';
        }
    }
    *p++ = '\n';
    return p;
}

/* Matrix Market lines "u v w" of row u's neighbours below u (adjacency
 * sorted), reals exactly as "%.17g" prints them. */
static char *mtx_row(const void *ctx, int64_t row, char *p)
{
    const rows_ctx *c = ctx;
    const coarsen_graph *g = c->g;
    for (int64_t k = g->xadj[row]; k < g->xadj[row + 1] && g->adj[k] < row; k++) {
        p = int_text_put(p, row + 1);
        *p++ = ' ';
        p = int_text_put(p, g->adj[k] + 1);
        *p++ = ' ';
        if (c->unit || c->integral)
            p = int_text_put(p, c->unit ? 1 : (int64_t)g->ewgt[k]);
        else
            p += snprintf(p, 32, "%.17g", g->ewgt[k]);
        *p++ = '\n';
    }
    return p;
}

/* Bytes of text per item: two ids of up to 11 characters, a weight of up to
 * 24 ("%.17g") or INT_TEXT_MAX, separators. */
#define ID_TEXT 11
#define REAL_TEXT 24

/* 1 when a vertex weight of g is not 1 (one parallel pass). */
static int vertex_weights_not_one(const coarsen_graph *g)
{
    int other = 0;
#pragma omp parallel for reduction(|| : other) if (g->n > PARALLEL_MIN)
    for (int32_t u = 0; u < g->n; u++)
        other = other || g->vwgt[u] != 1;
    return other;
}

static int write_metis(const coarsen_graph *g, const char *path, double scale, output_file *f, coarsen_error *err)
{
    int unit = scale == COARSEN_WEIGHT_UNIT;
    int integral, ew, vw = vertex_weights_not_one(g);
    edge_weight_facts(f, g->ewgt, g->nnz, &integral, &ew);
    integral = integral || unit;
    if (!integral && !(scale > 0))
        return error_set(err, COARSEN_ERR_INPUT,
                         all_whole(g->ewgt, g->nnz)
                             ? "%s: the graph has integer edge weights beyond what METIS stores ([1, 9.2e18]): give "
                               "a weight scale S > 0 (writes round(w*S)) or write Matrix Market"
                             : "%s: the graph has real edge weights and METIS stores integers: give a weight scale "
                               "S > 0 (writes round(w*S), e.g. S = 1000) or write Matrix Market",
                         path);
    ew = (ew && !unit) || !integral;
    output_printf(f, "%d %lld%s\n", g->n, (long long)(g->nnz / 2), vw && ew ? " 11" : vw ? " 10" : ew ? " 1" : "");
    rows_ctx c = {.g = g, .vw = vw, .ew = ew, .integral = integral, .scale = scale};
    row_layout l = {.rows = g->n, .items = g->xadj, .row_bytes = INT_TEXT_MAX + 2,
                    .item_bytes = ID_TEXT + 1 + INT_TEXT_MAX + 1};
    int rc = row_writer_run(f, &l, metis_row, &c, err);
    if (rc == COARSEN_ERR_INPUT) /* a weight METIS cannot hold: name the first */
        for (int64_t k = 0; k < g->nnz; k++)
            if (!metis_weight(g->ewgt[k], integral, scale, path, err))
                break;
    return rc;
}

static int write_mtx(const coarsen_graph *g, int unit, output_file *f, coarsen_error *err)
{
    int integral = 1, not_one;
    if (!unit)
        edge_weight_facts(f, g->ewgt, g->nnz, &integral, &not_one);
    output_printf(f, "%%%%MatrixMarket matrix coordinate %s symmetric\n%% written by coarsen %s\n%d %d %lld\n",
                  integral ? "integer" : "real", COARSEN_VERSION, g->n, g->n, (long long)(g->nnz / 2));
    rows_ctx c = {.g = g, .integral = integral, .unit = unit};
    row_layout l = {.rows = g->n, .items = g->xadj, .row_bytes = 0,
                    .item_bytes = 2 * (ID_TEXT + 1) + REAL_TEXT + 1};
    return row_writer_run(f, &l, mtx_row, &c, err);
}

int coarsen_graph_write(const coarsen_graph *g, const char *path, coarsen_format fmt, double weight_scale,
                        coarsen_error *err)
{
    if (!g || g->on_device)
        return error_set(err, COARSEN_ERR_INPUT, "%s: only host graphs can be written", path);
    if (fmt == COARSEN_FORMAT_PARHIP)
        return parhip_write_graph(g, path, weight_scale, PARHIP_WIDE, err);
    if (fmt != COARSEN_FORMAT_METIS && fmt != COARSEN_FORMAT_MTX)
        return error_set(err, COARSEN_ERR_INPUT, "%s: unknown output format %d", path, (int)fmt);
    output_file *f = output_open(path, err);
    if (!f)
        return err ? (int)err->status : COARSEN_ERR_IO;
    int rc = fmt == COARSEN_FORMAT_METIS ? write_metis(g, path, weight_scale, f, err) : write_mtx(g, weight_scale == COARSEN_WEIGHT_UNIT, f, err);
    if (rc) {
        output_abort(f);
        return rc;
    }
    return output_commit(f, err);
}
