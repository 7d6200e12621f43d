/* gen_rgg.c — random geometric graph in the unit square: n hashed points,
 * every pair at distance <= r = sqrt(deg / (pi n)) an edge. Points are binned
 * into G x G cells of side 1/G >= r and renumbered by cell (row-major, stable
 * by hash index), so a vertex's neighbours lie in the 3 x 3 cells around it,
 * and scanning those cells in order yields the row already sorted: O(n deg). */
#include "gen/gen_internal.h"
#include "core/error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

double gen_rgg_radius(const gen_opts *opts)
{
    return sqrt(opts->avg_degree / (M_PI * (double)opts->n));
}

/* Cells per side: side 1/G >= r with a margin for rounding, and G*G <= n so
 * the cell table stays O(n) and cell ids fit int32. */
static int64_t cells_per_side(double r, int64_t n)
{
    double g = floor((1.0 / r) * (1.0 - 1e-9)), cap = floor(sqrt((double)n));
    if (g > cap)
        g = cap;
    return g < 1 ? 1 : (int64_t)g;
}

static int64_t cell_of(double x, int64_t G)
{
    int64_t c = (int64_t)(x * (double)G);
    return c < G ? c : G - 1;
}

/* Point i before renumbering. */
static void raw_point(uint64_t ps, int64_t i, double *x, double *y)
{
    *x = hash_unit(hash3(ps, (uint64_t)i, 0));
    *y = hash_unit(hash3(ps, (uint64_t)i, 1));
}

void gen_hashed_points(uint64_t seed, int64_t n, double *x, double *y)
{
    uint64_t ps = gen_stream(seed, GEN_STREAM_POINTS);
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < n; i++)
        raw_point(ps, i, &x[i], &y[i]);
}

/* Renumbers the points by cell with a stable counting sort (so the order is
 * the same for any thread count), in two parallel steps: by cell row over nt
 * fixed ranges of points, then by column within each cell row. */
int gen_rgg_points(const gen_opts *opts, const gen_shape *s, double *x, double *y, coarsen_error *err)
{
    const int64_t n = s->n, G = cells_per_side(gen_rgg_radius(opts), n);
    const uint64_t ps = gen_stream(opts->seed, GEN_STREAM_POINTS);
    const int nt = omp_get_max_threads();
    int status = COARSEN_ERR_NOMEM;
    int32_t *cell = xmalloc((size_t)n * sizeof *cell, "point cells", err);
    int32_t *byrow = cell ? xmalloc((size_t)n * sizeof *byrow, "points by cell row", err) : NULL;
    int64_t *hist = byrow ? xcalloc((size_t)nt * (size_t)G, sizeof *hist, "cell row counts", err) : NULL;
    int64_t *rowstart = hist ? xcalloc((size_t)G + 1, sizeof *rowstart, "cell row offsets", err) : NULL;
    if (!rowstart)
        goto done;
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < n; i++) {
        double px, py;
        raw_point(ps, i, &px, &py);
        cell[i] = (int32_t)(cell_of(py, G) * G + cell_of(px, G));
    }
    GEN_FOR_RANGES(n, nt, t, i)
    {
        hist[(size_t)t * (size_t)G + (size_t)(cell[i] / G)]++;
    }
    for (int64_t r = 0; r < G; r++) { /* cursors: row r holds range 0's points, then range 1's, ... */
        int64_t at = rowstart[r];
        for (int t = 0; t < nt; t++) {
            int64_t c = hist[(size_t)t * (size_t)G + (size_t)r];
            hist[(size_t)t * (size_t)G + (size_t)r] = at;
            at += c;
        }
        rowstart[r + 1] = at;
    }
    GEN_FOR_RANGES(n, nt, t, i)
    {
        byrow[hist[(size_t)t * (size_t)G + (size_t)(cell[i] / G)]++] = (int32_t)i;
    }
    int failed = 0;
#pragma omp parallel
    {
        int64_t *cnt = malloc((size_t)G * sizeof *cnt);
#pragma omp for schedule(dynamic, 16)
        for (int64_t r = 0; r < G; r++) {
            if (!cnt) {
#pragma omp atomic write
                failed = 1;
                continue;
            }
            memset(cnt, 0, (size_t)G * sizeof *cnt);
            for (int64_t k = rowstart[r]; k < rowstart[r + 1]; k++)
                cnt[cell[byrow[k]] % G]++;
            for (int64_t c = 0, at = rowstart[r]; c < G; c++) {
                int64_t m = cnt[c];
                cnt[c] = at;
                at += m;
            }
            for (int64_t k = rowstart[r]; k < rowstart[r + 1]; k++) {
                int64_t p = cnt[cell[byrow[k]] % G]++;
                raw_point(ps, byrow[k], &x[p], &y[p]);
            }
        }
        free(cnt);
    }
    status = failed ? error_nomem(err, "cell counts", (size_t)G * sizeof(int64_t)) : COARSEN_OK;
done:
    free(rowstart);
    free(hist);
    free(byrow);
    free(cell);
    return status;
}

typedef struct rgg {
    int64_t G;
    const int64_t *start; /* G*G + 1 offsets of each cell's vertices */
    const double *x, *y;
    double r2;
} rgg;

static int64_t rgg_row(const void *ctx, int32_t v, int32_t *out)
{
    const rgg *g = ctx;
    int64_t G = g->G, cx = cell_of(g->x[v], G), cy = cell_of(g->y[v], G), c = 0;
    double xv = g->x[v], yv = g->y[v];
    for (int64_t j = cy - 1; j <= cy + 1; j++) {
        if (j < 0 || j >= G)
            continue;
        int64_t lo = cx > 0 ? cx - 1 : 0, hi = cx + 1 < G ? cx + 1 : G - 1;
        for (int64_t w = g->start[j * G + lo]; w < g->start[j * G + hi + 1]; w++) {
            double dx = g->x[w] - xv, dy = g->y[w] - yv;
            if (w != v && dx * dx + dy * dy <= g->r2)
                GEN_ROW_PUT(out, c, (int32_t)w);
        }
    }
    return c;
}

int gen_rgg(const gen_opts *opts, const gen_shape *s, const double *x, const double *y,
            coarsen_graph **out, coarsen_error *err)
{
    double r = gen_rgg_radius(opts);
    int64_t n = s->n, G = cells_per_side(r, n);
    int64_t *start = xcalloc((size_t)(G * G + 1), sizeof *start, "cell offsets", err);
    if (!start)
        return COARSEN_ERR_NOMEM;
    for (int64_t v = 0; v < n; v++)
        start[cell_of(y[v], G) * G + cell_of(x[v], G) + 1]++;
    for (int64_t c = 0; c < G * G; c++)
        start[c + 1] += start[c];
    rgg g = {G, start, x, y, r * r};
    int status = gen_csr_from_rows((int32_t)n, rgg_row, &g, out, err);
    free(start);
    return status;
}
