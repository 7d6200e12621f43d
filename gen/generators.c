/* generators.c — the public face of gen/: defaults, option validation, size
 * resolution, names, and gen_graph, which builds a kind's structure and then
 * fills its weights. */
#include "gen/gen_internal.h"
#include "core/error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const kind_names[] = {"grid2d", "grid3d", "rgg", "er", "rmat", "delaunay", "complete"};
static const char *const weight_names[] = {"unit", "int", "real", "exponential", "geometric"};
#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

const char *gen_kind_name(gen_kind kind)
{
    return (int)kind >= 0 && (int)kind < COUNT(kind_names) ? kind_names[kind] : "?";
}

const char *gen_weights_name(gen_weights w)
{
    return (int)w >= 0 && (int)w < COUNT(weight_names) ? weight_names[w] : "?";
}

static int find_name(const char *const *names, int count, const char *name)
{
    for (int k = 0; k < count; k++)
        if (!strcmp(names[k], name))
            return k;
    return -1;
}

int gen_kind_parse(const char *name, gen_kind *kind)
{
    int k = find_name(kind_names, COUNT(kind_names), name);
    if (k < 0)
        return -1;
    *kind = (gen_kind)k;
    return 0;
}

int gen_weights_parse(const char *name, gen_weights *w)
{
    int k = find_name(weight_names, COUNT(weight_names), name);
    if (k < 0)
        return -1;
    *w = (gen_weights)k;
    return 0;
}

void gen_opts_default(gen_opts *o)
{
    memset(o, 0, sizeof *o);
    o->kind = GEN_GRID2D;
    o->n = 10000;
    o->avg_degree = 8;
    o->rmat_a = 0.57, o->rmat_b = 0.19, o->rmat_c = 0.19;
    o->weights = GEN_W_UNIT;
    o->max_int_weight = 100;
    o->lambda = 3.5;
    o->seed = 1;
}

/* Grid side from n for d dimensions: round(n^(1/d)), at least 1. */
static int64_t side_from_n(int64_t n, int d)
{
    int64_t s = llround(pow((double)n, 1.0 / d));
    return s < 1 ? 1 : s;
}

int gen_resolve(const gen_opts *o, gen_shape *s, coarsen_error *err)
{
    memset(s, 0, sizeof *s);
    if ((int)o->kind < 0 || (int)o->kind >= COUNT(kind_names))
        return error_set(err, COARSEN_ERR_INPUT, "gen: unknown graph kind %d", (int)o->kind);
    const char *kn = kind_names[o->kind];
    int dims = o->kind == GEN_GRID3D ? 3 : o->kind == GEN_GRID2D || o->kind == GEN_DELAUNAY ? 2 : 0;
    if (dims && (o->nx < 0 || o->ny < 0 || o->nz < 0))
        return error_set(err, COARSEN_ERR_INPUT, "gen %s: grid sides must be positive", kn);
    if (dims && o->nx == 0 && (o->ny || o->nz))
        return error_set(err, COARSEN_ERR_INPUT, "gen %s: --ny/--nz need --nx", kn);
    if (!dims || o->nx == 0) {
        if (o->n < 1 || o->n > INT32_MAX)
            return error_set(err, COARSEN_ERR_INPUT, "gen %s: vertex count %lld not in [1, %d]", kn,
                             (long long)o->n, INT32_MAX);
    }
    if (dims) {
        int64_t nx = o->nx ? o->nx : side_from_n(o->n, dims);
        int64_t ny = o->ny ? o->ny : nx, nz = dims == 3 ? (o->nz ? o->nz : nx) : 1;
        if (nx > INT32_MAX || ny > INT32_MAX || nz > INT32_MAX || nx * ny > INT32_MAX / nz)
            return error_set(err, COARSEN_ERR_INPUT, "gen %s: %lld x %lld x %lld vertices exceed %d", kn,
                             (long long)nx, (long long)ny, (long long)nz, INT32_MAX);
        s->nx = (int32_t)nx, s->ny = (int32_t)ny, s->nz = (int32_t)nz;
        s->n = nx * ny * nz;
    } else {
        s->n = o->n;
    }
    int degree_kind = o->kind == GEN_RGG || o->kind == GEN_ER || o->kind == GEN_RMAT;
    if (degree_kind && !(o->avg_degree > 0 && o->avg_degree <= (double)(s->n - 1)))
        return error_set(err, COARSEN_ERR_INPUT, "gen %s: average degree %g not in (0, n-1 = %lld]", kn,
                         o->avg_degree, (long long)(s->n - 1));
    if (o->kind == GEN_RMAT) {
        double a = o->rmat_a, b = o->rmat_b, c = o->rmat_c;
        if (!(a >= 0 && b >= 0 && c >= 0 && a + b + c <= 1 + 1e-12))
            return error_set(err, COARSEN_ERR_INPUT,
                             "gen rmat: probabilities a=%g b=%g c=%g must be >= 0 with a+b+c <= 1", a, b, c);
        if (s->n & (s->n - 1))
            return error_set(err, COARSEN_ERR_INPUT, "gen rmat: vertex count %lld is not a power of two",
                             (long long)s->n);
    }
    if (o->kind == GEN_COMPLETE && s->n > GEN_COMPLETE_MAX_N)
        return error_set(err, COARSEN_ERR_INPUT,
                         "gen complete: %lld vertices would need %.1f GB in CSR; at most %d (a dense "
                         "complete-graph mode does not use CSR)",
                         (long long)s->n, (double)s->n * (double)(s->n - 1) * 12e-9, GEN_COMPLETE_MAX_N);
    if ((int)o->weights < 0 || (int)o->weights >= COUNT(weight_names))
        return error_set(err, COARSEN_ERR_INPUT, "gen: unknown weight kind %d", (int)o->weights);
    if (o->weights == GEN_W_INT && !(o->max_int_weight >= 1 && o->max_int_weight <= (INT64_C(1) << 53)))
        return error_set(err, COARSEN_ERR_INPUT, "gen: max integer weight %lld not in [1, 2^53]",
                         (long long)o->max_int_weight);
    if (o->weights == GEN_W_EXPONENTIAL && !(o->lambda > 0 && isfinite(o->lambda)))
        return error_set(err, COARSEN_ERR_INPUT, "gen: exponential rate %g must be > 0", o->lambda);
    return COARSEN_OK;
}

int64_t gen_vertex_count(const gen_opts *opts, coarsen_error *err)
{
    gen_shape s;
    return gen_resolve(opts, &s, err) ? -1 : s.n;
}

static int points_of(const gen_opts *o, const gen_shape *s, double *x, double *y, coarsen_error *err)
{
    if (o->kind == GEN_RGG)
        return gen_rgg_points(o, s, x, y, err);
    if (o->kind == GEN_DELAUNAY)
        gen_delaunay_points(o, s, x, y);
    else
        gen_hashed_points(o->seed, s->n, x, y);
    return COARSEN_OK;
}

int gen_points(const gen_opts *opts, double *x, double *y, coarsen_error *err)
{
    gen_shape s;
    int status = gen_resolve(opts, &s, err);
    return status ? status : points_of(opts, &s, x, y, err);
}

int gen_graph(const gen_opts *o, coarsen_graph **out, coarsen_error *err)
{
    *out = NULL;
    gen_shape s;
    int status = gen_resolve(o, &s, err);
    if (status)
        return status;
    double *x = NULL, *y = NULL;
    if (o->kind == GEN_RGG || o->weights == GEN_W_GEOMETRIC) {
        x = xmalloc((size_t)s.n * sizeof *x, "points", err);
        y = x ? xmalloc((size_t)s.n * sizeof *y, "points", err) : NULL;
        status = y ? points_of(o, &s, x, y, err) : COARSEN_ERR_NOMEM;
    }
    coarsen_graph *g = NULL;
    if (!status) {
        switch (o->kind) {
        case GEN_GRID2D:
        case GEN_GRID3D:
            status = gen_grid(o, &s, &g, err);
            break;
        case GEN_RGG:
            status = gen_rgg(o, &s, x, y, &g, err);
            break;
        case GEN_ER:
        case GEN_RMAT:
            status = gen_random_pairs(o, &s, &g, err);
            break;
        case GEN_DELAUNAY:
            status = gen_delaunay(o, &s, &g, err);
            break;
        case GEN_COMPLETE:
            status = gen_complete(&s, &g, err);
            break;
        }
    }
    if (!status) {
        gen_fill_weights(g, o, x, y);
        *out = g;
    }
    free(x);
    free(y);
    return status;
}
