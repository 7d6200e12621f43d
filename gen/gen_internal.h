/* gen_internal.h — what the generator files share and nothing else includes:
 * resolved sizes, the random streams of one seed, and the two CSR builders
 * every generator uses (rows produced in sorted order; hashed pairs). The
 * builders fill xadj and adj only; gen_fill_weights fills ewgt and vwgt. */
#ifndef GEN_GEN_INTERNAL_H
#define GEN_GEN_INTERNAL_H

#include <omp.h>

#include "core/hash.h"
#include "gen/generators.h"

/* Sizes after resolving grid sides from n. */
typedef struct gen_shape {
    int64_t n;
    int32_t nx, ny, nz;
} gen_shape;

/* Validates opts and resolves the sizes; COARSEN_ERR_INPUT when invalid. */
int gen_resolve(const gen_opts *opts, gen_shape *shape, coarsen_error *err);

/* Independent random streams of one seed: a value is hash3(gen_stream(seed,
 * S), item, part). */
enum { GEN_STREAM_POINTS = 1, GEN_STREAM_PAIRS, GEN_STREAM_WEIGHTS, GEN_STREAM_JITTER };
static inline uint64_t gen_stream(uint64_t seed, uint64_t stream)
{
    return hash3(seed, 0x67656e657261746fULL, stream);
}

/* Start of range t of `count` items split into `parts` near-equal ranges. */
static inline int64_t gen_range_start(int64_t count, int parts, int t)
{
    return count / parts * t + (t < count % parts ? t : count % parts);
}

/* Loops over items 0 .. count-1 in nt fixed ranges: range t (k from its start
 * to the next range's) is handled by one thread, so per-range state (counter
 * row t) does not depend on how many threads the runtime grants. Expects nt
 * in scope (the pragma names it). */
#define GEN_FOR_RANGES(count, nt, t, k)                                               \
    _Pragma("omp parallel num_threads(nt)")                                           \
    for (int t = omp_get_thread_num(); t < (nt); t += omp_get_num_threads())          \
        for (int64_t k = gen_range_start(count, nt, t); k < gen_range_start(count, nt, t + 1); k++)

/* Writes the neighbours of v in increasing order to out (when out is not
 * NULL) and returns how many there are. Must be a pure function of v. */
typedef int64_t (*gen_row_fn)(const void *ctx, int32_t v, int32_t *out);

/* In a row function: appends id to out (when not NULL) and counts it in c. */
#define GEN_ROW_PUT(out, c, id)  \
    do {                         \
        if (out)                 \
            (out)[c] = (id);     \
        (c)++;                   \
    } while (0)

/* A graph on n vertices whose rows come from row (counted, then filled in
 * parallel); ewgt and vwgt are left for gen_fill_weights. */
int gen_csr_from_rows(int32_t n, gen_row_fn row, const void *ctx, coarsen_graph **out, coarsen_error *err);

/* Sets *u, *v to the endpoints of sample k (a pure function of k); loops are
 * allowed and dropped by the builder. */
typedef void (*gen_pair_fn)(const void *ctx, int64_t k, int32_t *u, int32_t *v);

/* A graph on n vertices whose edges are samples 0 .. samples-1 of pair, with
 * loops and duplicates dropped. The result does not depend on thread timing:
 * rows are sorted and deduplicated after the parallel scatter. */
int gen_csr_from_pairs(int32_t n, int64_t samples, gen_pair_fn pair, const void *ctx,
                       coarsen_graph **out, coarsen_error *err);

/* Fills vertex weights (1) and edge weights of opts->weights; geometric
 * weights use the points x, y (NULL otherwise). */
void gen_fill_weights(coarsen_graph *g, const gen_opts *opts, const double *x, const double *y);

/* The structure of each kind (weights not yet filled). */
int gen_grid(const gen_opts *opts, const gen_shape *s, coarsen_graph **out, coarsen_error *err);
int gen_delaunay(const gen_opts *opts, const gen_shape *s, coarsen_graph **out, coarsen_error *err);
int gen_complete(const gen_shape *s, coarsen_graph **out, coarsen_error *err);
int gen_random_pairs(const gen_opts *opts, const gen_shape *s, coarsen_graph **out, coarsen_error *err);
/* RGG from its points (gen_points order). */
int gen_rgg(const gen_opts *opts, const gen_shape *s, const double *x, const double *y,
            coarsen_graph **out, coarsen_error *err);

/* Points of each kind, in vertex order. */
void gen_hashed_points(uint64_t seed, int64_t n, double *x, double *y);
int gen_rgg_points(const gen_opts *opts, const gen_shape *s, double *x, double *y, coarsen_error *err);
void gen_delaunay_points(const gen_opts *opts, const gen_shape *s, double *x, double *y);

#endif
