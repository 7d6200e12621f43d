/* gen_delaunay.c — a Delaunay-like planar triangulated mesh (not a true
 * Delaunay triangulation): the points of an nx * ny grid, each jittered by up
 * to a quarter cell per axis, and every cell split into two triangles by its
 * shorter diagonal (the choice Delaunay makes for a convex quad's two
 * triangulations when the quad is close to a rectangle). Interior degree
 * averages 6. Vertex (i, j) is j * nx + i, at roughly ((i+.5)/nx, (j+.5)/ny). */
#include "gen/gen_internal.h"
#include "core/error.h"

#include <stdlib.h>

static void mesh_point(uint64_t js, int64_t nx, int64_t ny, int64_t i, int64_t j, double *x, double *y)
{
    int64_t v = j * nx + i;
    *x = ((double)i + 0.5 + 0.5 * (hash_unit(hash3(js, (uint64_t)v, 0)) - 0.5)) / (double)nx;
    *y = ((double)j + 0.5 + 0.5 * (hash_unit(hash3(js, (uint64_t)v, 1)) - 0.5)) / (double)ny;
}

void gen_delaunay_points(const gen_opts *opts, const gen_shape *s, double *x, double *y)
{
    uint64_t js = gen_stream(opts->seed, GEN_STREAM_JITTER);
#pragma omp parallel for schedule(static)
    for (int64_t v = 0; v < s->n; v++)
        mesh_point(js, s->nx, s->ny, v % s->nx, v / s->nx, &x[v], &y[v]);
}

typedef struct mesh {
    int64_t nx, ny;
    const unsigned char *main_diag; /* (nx-1)*(ny-1) cells: 1 when split (i,j)-(i+1,j+1) */
} mesh;

/* Which diagonal cell (i, j) uses; 0 for cells outside the mesh. */
static int main_diag(const mesh *m, int64_t i, int64_t j)
{
    return i >= 0 && j >= 0 && i + 1 < m->nx && j + 1 < m->ny && m->main_diag[j * (m->nx - 1) + i];
}

static int anti_diag(const mesh *m, int64_t i, int64_t j)
{
    return i >= 0 && j >= 0 && i + 1 < m->nx && j + 1 < m->ny && !m->main_diag[j * (m->nx - 1) + i];
}

/* Neighbours in increasing id: the row below (i-1, i, i+1), this row (i-1,
 * i+1), the row above (i-1, i, i+1). */
static int64_t mesh_row(const void *ctx, int32_t v, int32_t *out)
{
    const mesh *m = ctx;
    int64_t nx = m->nx, i = v % nx, j = v / nx, c = 0;
    if (main_diag(m, i - 1, j - 1))
        GEN_ROW_PUT(out, c, (int32_t)(v - nx - 1));
    if (j > 0)
        GEN_ROW_PUT(out, c, (int32_t)(v - nx));
    if (anti_diag(m, i, j - 1))
        GEN_ROW_PUT(out, c, (int32_t)(v - nx + 1));
    if (i > 0)
        GEN_ROW_PUT(out, c, v - 1);
    if (i + 1 < nx)
        GEN_ROW_PUT(out, c, v + 1);
    if (anti_diag(m, i - 1, j))
        GEN_ROW_PUT(out, c, (int32_t)(v + nx - 1));
    if (j + 1 < m->ny)
        GEN_ROW_PUT(out, c, (int32_t)(v + nx));
    if (main_diag(m, i, j))
        GEN_ROW_PUT(out, c, (int32_t)(v + nx + 1));
    return c;
}

int gen_delaunay(const gen_opts *opts, const gen_shape *s, coarsen_graph **out, coarsen_error *err)
{
    int64_t cw = s->nx - 1, ch = s->ny - 1, cells = cw > 0 && ch > 0 ? cw * ch : 0;
    unsigned char *diag = xmalloc((size_t)cells, "mesh diagonals", err);
    if (!diag)
        return COARSEN_ERR_NOMEM;
    uint64_t js = gen_stream(opts->seed, GEN_STREAM_JITTER);
#pragma omp parallel for schedule(static)
    for (int64_t c = 0; c < cells; c++) {
        int64_t i = c % cw, j = c / cw;
        double x00, y00, x10, y10, x01, y01, x11, y11;
        mesh_point(js, s->nx, s->ny, i, j, &x00, &y00);
        mesh_point(js, s->nx, s->ny, i + 1, j, &x10, &y10);
        mesh_point(js, s->nx, s->ny, i, j + 1, &x01, &y01);
        mesh_point(js, s->nx, s->ny, i + 1, j + 1, &x11, &y11);
        double dm = (x11 - x00) * (x11 - x00) + (y11 - y00) * (y11 - y00);
        double da = (x01 - x10) * (x01 - x10) + (y01 - y10) * (y01 - y10);
        diag[c] = dm <= da;
    }
    mesh m = {s->nx, s->ny, diag};
    int status = gen_csr_from_rows((int32_t)s->n, mesh_row, &m, out, err);
    free(diag);
    return status;
}
