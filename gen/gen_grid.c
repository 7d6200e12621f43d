/* gen_grid.c — 2-D (4-neighbour) and 3-D (6-neighbour) grids, built row by
 * row: vertex (i, j, k) is (k * ny + j) * nx + i, so each row's neighbours are
 * v - nx*ny, v - nx, v - 1, v + 1, v + nx, v + nx*ny (those inside). */
#include "gen/gen_internal.h"

typedef struct grid {
    int64_t nx, ny, nz;
} grid;

static int64_t grid_row(const void *ctx, int32_t v, int32_t *out)
{
    const grid *g = ctx;
    int64_t plane = g->nx * g->ny, i = v % g->nx, j = (v / g->nx) % g->ny, k = v / plane, c = 0;
    if (k > 0)
        GEN_ROW_PUT(out, c, (int32_t)(v - plane));
    if (j > 0)
        GEN_ROW_PUT(out, c, (int32_t)(v - g->nx));
    if (i > 0)
        GEN_ROW_PUT(out, c, v - 1);
    if (i + 1 < g->nx)
        GEN_ROW_PUT(out, c, v + 1);
    if (j + 1 < g->ny)
        GEN_ROW_PUT(out, c, (int32_t)(v + g->nx));
    if (k + 1 < g->nz)
        GEN_ROW_PUT(out, c, (int32_t)(v + plane));
    return c;
}

int gen_grid(const gen_opts *opts, const gen_shape *s, coarsen_graph **out, coarsen_error *err)
{
    grid g = {s->nx, s->ny, opts->kind == GEN_GRID3D ? s->nz : 1};
    return gen_csr_from_rows((int32_t)s->n, grid_row, &g, out, err);
}
