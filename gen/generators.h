/* generators.h — seeded, reproducible graph generators, in memory (for tests
 * and benchmarks) and behind `coarsen gen`. The same options and seed give
 * the same graph on any machine and any OpenMP thread count: every random
 * number is a counter hash (core/hash.h) of (seed, stream, item), never shared
 * RNG state. Every generated graph satisfies coarsen_graph_check: sorted rows,
 * no duplicates, no self-loops, both directions of an edge with one weight.
 * Vertex weights are 1. All graphs are host graphs (on_device = 0). */
#ifndef GEN_GENERATORS_H
#define GEN_GENERATORS_H

#include "coarsen.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum gen_kind {
    GEN_GRID2D,    /* nx * ny grid, 4-neighbour; vertex (i, j) is j * nx + i */
    GEN_GRID3D,    /* nx * ny * nz grid, 6-neighbour; vertex (i, j, k) is (k * ny + j) * nx + i */
    GEN_RGG,       /* random geometric graph in the unit square, radius sqrt(deg / (pi n));
                      vertices numbered by grid cell (row-major), so ids have locality */
    GEN_ER,        /* Erdos-Renyi G(n, m): m = n * deg / 2 hashed pairs, loops and
                      duplicates dropped, so the edge count can be slightly below m */
    GEN_RMAT,      /* R-MAT / Kronecker on n = 2^k vertices, n * deg / 2 samples with
                      quadrant probabilities (a, b, c, 1-a-b-c); loops and duplicates dropped */
    GEN_DELAUNAY,  /* Delaunay-like planar triangulation: jittered nx * ny grid, each cell
                      split by its shorter diagonal (interior degree 6 on average) */
    GEN_COMPLETE   /* complete graph on n vertices (n <= GEN_COMPLETE_MAX_N) */
} gen_kind;

typedef enum gen_weights {
    GEN_W_UNIT,         /* every edge weight 1 */
    GEN_W_INT,          /* uniform integers in [1, max_int_weight] */
    GEN_W_REAL,         /* uniform reals in (0, 1] */
    GEN_W_EXPONENTIAL,  /* exponential, rate lambda (3.5 by default): mean 1 / lambda */
    GEN_W_GEOMETRIC     /* Euclidean distance between the endpoints' points (gen_points) */
} gen_weights;

/* Largest complete graph built in CSR (about 3.2 GB of arrays). */
#define GEN_COMPLETE_MAX_N 16384

typedef struct gen_opts {
    gen_kind kind;
    int64_t n;              /* vertices (grids and delaunay: used only when nx is 0; the
                               side is then round(n^(1/d)), so the vertex count is a d-th power) */
    int32_t nx, ny, nz;     /* grid sides (0 = from n; ny, nz default to nx) */
    double avg_degree;      /* RGG, ER, R-MAT target average degree */
    double rmat_a, rmat_b, rmat_c; /* R-MAT quadrant probabilities (d = 1 - a - b - c) */
    gen_weights weights;
    int64_t max_int_weight; /* GEN_W_INT upper bound */
    double lambda;          /* GEN_W_EXPONENTIAL rate */
    uint64_t seed;
} gen_opts;

/* Defaults: 2-D grid 100 x 100 (n = 10000), avg degree 8, R-MAT (0.57, 0.19,
 * 0.19), unit weights, max_int_weight 100, lambda 3.5, seed 1. */
void gen_opts_default(gen_opts *opts);

/* Builds the graph on the host; the caller owns *out. Bad options give
 * COARSEN_ERR_INPUT with a message naming the option. */
int gen_graph(const gen_opts *opts, coarsen_graph **out, coarsen_error *err);

/* Number of vertices gen_graph will produce for opts (after resolving grid
 * sides), or -1 with err set when the options are invalid. */
int64_t gen_vertex_count(const gen_opts *opts, coarsen_error *err);

/* The points behind the graph, in vertex order, into caller-owned arrays of
 * gen_vertex_count(opts) doubles: the actual points for RGG and delaunay,
 * per-vertex hashed points in [0, 1)^2 for every other kind. Geometric
 * weights are distances between these points. */
int gen_points(const gen_opts *opts, double *x, double *y, coarsen_error *err);

/* RGG connection radius: every pair at distance <= r is an edge, no other. */
double gen_rgg_radius(const gen_opts *opts);

/* Names used by the CLI and spec strings: "grid2d", "grid3d", "rgg", "er",
 * "rmat", "delaunay", "complete"; "unit", "int", "real", "exponential",
 * "geometric". The parsers return 0, or -1 for an unknown name. */
const char *gen_kind_name(gen_kind kind);
int gen_kind_parse(const char *name, gen_kind *kind);
const char *gen_weights_name(gen_weights w);
int gen_weights_parse(const char *name, gen_weights *w);

/* Parses a spec string "KIND[:key=value,...]" into opts (starting from
 * gen_opts_default). Keys: n, nx, ny, nz, deg, weights, maxw, lambda, a, b, c,
 * seed; e.g. "rgg:n=1000000,deg=12" or "grid2d:nx=300,ny=200,weights=real".
 * Bad specs give COARSEN_ERR_INPUT naming the offending part. */
int gen_opts_parse_spec(const char *spec, gen_opts *opts, coarsen_error *err);

#ifdef __cplusplus
}
#endif
#endif
