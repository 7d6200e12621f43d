/* generators.h — seeded, reproducible graph generators, in memory (for tests
 * and benchmarks) and behind `coarsen gen`. The same options and seed give
 * the same graph on any machine and thread count. */
#ifndef GEN_GENERATORS_H
#define GEN_GENERATORS_H

#include "coarsen.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum gen_kind {
    GEN_GRID2D,    /* nx * ny grid, 4-neighbour */
    GEN_GRID3D,    /* nx * ny * nz grid, 6-neighbour */
    GEN_RGG,       /* random geometric graph in the unit square, radius from avg_degree */
    GEN_ER,        /* Erdos-Renyi G(n, m) with m = n * avg_degree / 2 */
    GEN_RMAT,      /* R-MAT / Kronecker, skewed degrees (a, b, c, d) */
    GEN_DELAUNAY,  /* planar triangulated mesh (perturbed grid triangulation) */
    GEN_COMPLETE   /* complete graph on n vertices */
} gen_kind;

typedef enum gen_weights {
    GEN_W_UNIT,         /* every edge weight 1 */
    GEN_W_INT,          /* uniform integers in [1, max_int_weight] */
    GEN_W_REAL,         /* uniform reals in (0, 1] */
    GEN_W_EXPONENTIAL,  /* exponential, rate lambda (3.5 by default) */
    GEN_W_GEOMETRIC     /* Euclidean distance between random points in the unit square */
} gen_weights;

typedef struct gen_opts {
    gen_kind kind;
    int64_t n;              /* vertices (grids: from nx, ny, nz when those are set) */
    int32_t nx, ny, nz;     /* grid sides */
    double avg_degree;      /* RGG, ER, R-MAT target average degree */
    double rmat_a, rmat_b, rmat_c; /* R-MAT quadrant probabilities (d = 1 - a - b - c) */
    gen_weights weights;
    int64_t max_int_weight; /* GEN_W_INT upper bound */
    double lambda;          /* GEN_W_EXPONENTIAL rate */
    uint64_t seed;
} gen_opts;

/* Defaults: 2-D grid 100 x 100, avg degree 8, R-MAT (0.57, 0.19, 0.19),
 * unit weights, max_int_weight 100, lambda 3.5, seed 1. */
void gen_opts_default(gen_opts *opts);

/* Builds the graph on the host; the caller owns *out. */
int gen_graph(const gen_opts *opts, coarsen_graph **out, coarsen_error *err);

#ifdef __cplusplus
}
#endif
#endif
