/* gen_spec.c — "KIND[:key=value,...]" spec strings naming a generated graph,
 * so benchmarks and tests can say "rgg:n=1000000,deg=12" (gen/generators.h). */
#include "gen/generators.h"
#include "core/error.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int parse_int(const char *s, long long lo, long long hi, long long *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

static int parse_real(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !isfinite(v))
        return -1;
    *out = v;
    return 0;
}

/* Applies one key=value; -1 when the key is unknown or the value bad. */
static int apply(gen_opts *o, const char *key, const char *val)
{
    long long i;
    if (!strcmp(key, "n"))
        return parse_int(val, 1, INT32_MAX, &i) ? -1 : (o->n = i, 0);
    if (!strcmp(key, "nx"))
        return parse_int(val, 1, INT32_MAX, &i) ? -1 : (o->nx = (int32_t)i, 0);
    if (!strcmp(key, "ny"))
        return parse_int(val, 1, INT32_MAX, &i) ? -1 : (o->ny = (int32_t)i, 0);
    if (!strcmp(key, "nz"))
        return parse_int(val, 1, INT32_MAX, &i) ? -1 : (o->nz = (int32_t)i, 0);
    if (!strcmp(key, "maxw"))
        return parse_int(val, 1, INT64_MAX, &i) ? -1 : (o->max_int_weight = i, 0);
    if (!strcmp(key, "seed"))
        return parse_int(val, 0, INT64_MAX, &i) ? -1 : (o->seed = (uint64_t)i, 0);
    if (!strcmp(key, "weights"))
        return gen_weights_parse(val, &o->weights);
    double *real = !strcmp(key, "deg") ? &o->avg_degree : !strcmp(key, "lambda") ? &o->lambda
                 : !strcmp(key, "a") ? &o->rmat_a : !strcmp(key, "b") ? &o->rmat_b
                 : !strcmp(key, "c") ? &o->rmat_c : NULL;
    return real ? parse_real(val, real) : -1;
}

int gen_opts_parse_spec(const char *spec, gen_opts *opts, coarsen_error *err)
{
    gen_opts_default(opts);
    char buf[512];
    if (strlen(spec) >= sizeof buf)
        return error_set(err, COARSEN_ERR_INPUT, "graph spec too long: %.40s...", spec);
    strcpy(buf, spec);
    char *rest = strchr(buf, ':');
    if (rest)
        *rest++ = 0;
    if (gen_kind_parse(buf, &opts->kind))
        return error_set(err, COARSEN_ERR_INPUT,
                         "graph spec '%s': unknown kind '%s' (grid2d grid3d rgg er rmat delaunay complete)",
                         spec, buf);
    for (char *item = rest; item && *item;) {
        char *next = strchr(item, ',');
        if (next)
            *next++ = 0;
        char *eq = strchr(item, '=');
        if (!eq || (*eq = 0, apply(opts, item, eq + 1)))
            return error_set(err, COARSEN_ERR_INPUT,
                             "graph spec '%s': bad item '%s%s%s' (keys: n nx ny nz deg weights maxw lambda a b c seed)",
                             spec, item, eq ? "=" : "", eq ? eq + 1 : "");
        item = next;
    }
    return COARSEN_OK;
}
