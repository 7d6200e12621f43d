/* graph_write.c — coarsen_graph_write: METIS (fmt 0/1/10/11 as the weights
 * need) and Matrix Market coordinate symmetric (integer or real), through
 * io/output_file.h (atomic, gzip by name). Rules: docs/formats.md. */
#include "coarsen.h"
#include "core/error.h"
#include "io/output_file.h"
#include "io/parhip_write.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Below this many entries a loop runs on one thread: waking a team costs
 * more than the work (and much more on a busy machine). */
#define PARALLEL_MIN 65536

/* Writes v in decimal at p; returns the end. */
static char *put_int(char *p, int64_t v)
{
    char tmp[24];
    int n = 0;
    uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
    do {
        tmp[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0)
        *p++ = '-';
    while (n)
        *p++ = tmp[--n];
    return p;
}

static int all_integral(const double *w, int64_t n)
{
    int ok = 1;
#pragma omp parallel for reduction(&& : ok) if (n > PARALLEL_MIN)
    for (int64_t k = 0; k < n; k++)
        ok = ok && w[k] == floor(w[k]) && fabs(w[k]) < 9.2e18;
    return ok;
}

/* The METIS integer of weight w: exact when every weight is an integer,
 * round(w * scale) otherwise; 0 when it cannot be written (err set). */
static int64_t metis_weight(double w, int integral, double scale, const char *path, coarsen_error *err)
{
    double x = integral ? w : nearbyint(w * scale);
    if (x < 1 || x > 9.2e18) {
        if (integral)
            error_set(err, COARSEN_ERR_INPUT,
                      "%s: edge weight %.17g cannot be written in METIS format (METIS needs integers >= 1)", path, w);
        else
            error_set(err, COARSEN_ERR_INPUT,
                      "%s: edge weight %.17g times the weight scale %g rounds to %.17g, outside the METIS range "
                      "[1, 9.2e18]; choose another scale", path, w, scale, x);
        return 0;
    }
    return (int64_t)x;
}

static int write_metis(const coarsen_graph *g, const char *path, double scale, output_file *f, coarsen_error *err)
{
    int integral = all_integral(g->ewgt, g->nnz);
    if (!integral && !(scale > 0))
        return error_set(err, COARSEN_ERR_INPUT,
                         "%s: the graph has real edge weights and METIS stores integers: give a weight scale "
                         "S > 0 (writes round(w*S), e.g. S = 1000) or write Matrix Market", path);
    int vw = 0, ew = 0;
    for (int32_t u = 0; u < g->n && !vw; u++)
        vw = g->vwgt[u] != 1;
    for (int64_t k = 0; k < g->nnz && !ew; k++)
        ew = g->ewgt[k] != 1.0;
    ew = ew || !integral;
    output_printf(f, "%d %lld%s\n", g->n, (long long)(g->nnz / 2), vw && ew ? " 11" : vw ? " 10" : ew ? " 1" : "");
    char line[64];
    for (int32_t u = 0; u < g->n; u++) {
        char *p = line;
        if (vw) {
            p = put_int(p, g->vwgt[u]);
            *p++ = ' ';
        }
        output_write(f, line, (size_t)(p - line));
        for (int64_t k = g->xadj[u]; k < g->xadj[u + 1]; k++) {
            p = put_int(line, g->adj[k] + 1);
            *p++ = ' ';
            if (ew) {
                int64_t w = metis_weight(g->ewgt[k], integral, scale, path, err);
                if (!w)
                    return COARSEN_ERR_INPUT;
                p = put_int(p, w);
                *p++ = ' ';
            }
            output_write(f, line, (size_t)(p - line));
        }
        output_write(f, "\n", 1);
    }
    return COARSEN_OK;
}

static int write_mtx(const coarsen_graph *g, output_file *f)
{
    int integral = all_integral(g->ewgt, g->nnz);
    output_printf(f, "%%%%MatrixMarket matrix coordinate %s symmetric\n%% written by coarsen %s\n%d %d %lld\n",
                  integral ? "integer" : "real", COARSEN_VERSION, g->n, g->n, (long long)(g->nnz / 2));
    char line[96];
    for (int32_t u = 0; u < g->n; u++) {
        for (int64_t k = g->xadj[u]; k < g->xadj[u + 1] && g->adj[k] < u; k++) {
            char *p = put_int(line, u + 1);
            *p++ = ' ';
            p = put_int(p, g->adj[k] + 1);
            *p++ = ' ';
            if (integral)
                p = put_int(p, (int64_t)g->ewgt[k]);
            else
                p += snprintf(p, 32, "%.17g", g->ewgt[k]);
            *p++ = '\n';
            output_write(f, line, (size_t)(p - line));
        }
    }
    return COARSEN_OK;
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
    int rc = fmt == COARSEN_FORMAT_METIS ? write_metis(g, path, weight_scale, f, err) : write_mtx(g, f);
    if (rc) {
        output_abort(f);
        return rc;
    }
    return output_commit(f, err);
}
