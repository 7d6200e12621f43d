/* match_roma.c — ROMA options and refinement for `coarsen match`
 * (match_roma.h). */
#include "cli/match_roma.h"
#include "core/error.h"
#include "exec/host_call.h"
#include "matching/match_weight.h"
#include "matching/roma_complete.h"
#include "matching/validate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void match_roma_init(match_roma_args *r)
{
    memset(r, 0, sizeof *r);
    r->eps = -1.0;
    r->turns = -1;
    r->priority = -1;
}

int match_roma_option(int opt, const char *arg, match_roma_args *r)
{
    long long v;
    switch (opt) {
    case OPT_REFINE:
        if (!strcmp(arg, "roma"))
            r->refine = 1;
        else if (!strcmp(arg, "roma-seq"))
            r->refine = 2;
        else
        {
            cli_usage_error("match ", "--refine: '%s' is not roma or roma-seq", arg);
            return -1;
        }
        return 1;
    case OPT_ROMA_EPS:
        return cli_parse_double("roma-eps", arg, 0.0, 1e300, &r->eps) ? -1 : 1;
    case OPT_ROMA_PHASES:
        if (cli_parse_long("roma-phases", arg, 1, ROMA_MAX_PHASES, &v))
            return -1;
        r->phases = (int)v;
        return 1;
    case OPT_ROMA_TURNS:
        if (!strcmp(arg, "on") || !strcmp(arg, "off")) {
            r->turns = !strcmp(arg, "on");
            return 1;
        }
        cli_usage_error("match ", "--roma-turns: '%s' is not on or off", arg);
        return -1;
    case OPT_ROMA_PRIORITY:
        if (!strcmp(arg, "gain") || !strcmp(arg, "random")) {
            r->priority = !strcmp(arg, "gain") ? ROMA_PRIORITY_GAIN : ROMA_PRIORITY_RANDOM;
            return 1;
        }
        cli_usage_error("match ", "--roma-priority: '%s' is not gain or random", arg);
        return -1;
    case OPT_COMPLETE:
        r->complete = 1;
        return 1;
    default:
        return 0;
    }
}

int match_roma_check_input(const match_roma_args *r, const coarsen_graph *g, const char *path, coarsen_error *err)
{
    if (!r->complete)
        return COARSEN_OK;
    int64_t pairs = (int64_t)g->n * (g->n - 1) / 2;
    if (g->nnz / 2 != pairs)
        return error_set(err, COARSEN_ERR_INPUT,
                         "%s: --complete needs a complete graph (a dense matrix), but only %lld of its %lld vertex "
                         "pairs are edges",
                         path, (long long)(g->nnz / 2), (long long)pairs);
    if (g->n % 2)
        return error_set(err, COARSEN_ERR_INPUT, "%s: --complete needs an even vertex count for a perfect matching, "
                                                 "not %d", path, g->n);
    return COARSEN_OK;
}

const char *match_roma_start_name(const match_roma_args *r, const char *matcher)
{
    return match_roma_needs_matcher(r) ? matcher : "random-pairing";
}

int match_roma_needs_matcher(const match_roma_args *r)
{
    return !r->complete || r->matcher_given;
}

static int refine_complete(const match_roma_args *r, const cli_globals *gl, const coarsen_graph *g,
                           const roma_opts *o, int32_t *mate, roma_stats *rs, coarsen_error *err)
{
    float *w = roma_dense_from_graph(g, err);
    if (!w)
        return COARSEN_ERR_NOMEM;
    int rc = r->matcher_given ? 0 : roma_random_pairing(g->n, gl->seed, mate, err);
    if (!rc)
        rc = r->refine == 2 ? roma_complete_cpu(g->n, w, o, mate, rs, err) /* sequential: the host's alone */
                            : exec_refine_complete_host(exec_backend_of(gl->use_gpu), g->n, w, o, mate, rs, err);
    free(w);
    return rc;
}

int match_roma_run(const match_roma_args *r, const cli_globals *gl, const coarsen_graph *g, int64_t cap,
                   int32_t *mate, matching_stats *st, coarsen_error *err)
{
    if (!r->refine && !r->complete)
        return COARSEN_OK;
    roma_opts o;
    if (r->complete)
        roma_complete_opts_default(&o);
    else
        roma_opts_default(&o);
    o.seed = gl->seed;
    o.max_vertex_weight = cap;
    if (r->eps >= 0)
        o.eps = r->eps;
    if (r->phases > 0)
        o.max_phases = r->phases;
    if (r->turns >= 0)
        o.turns = r->turns;
    if (r->priority >= 0)
        o.priority = r->priority;
    roma_stats rs;
    int rc;
    if (r->complete)
        rc = refine_complete(r, gl, g, &o, mate, &rs, err);
    else if (r->refine == 2)
        rc = roma_cpu(g, &o, mate, &rs, err);
    else
        rc = exec_refine_host(exec_backend_of(gl->use_gpu), g, &o, mate, &rs, err);
    if (rc)
        return rc;
    match_check c;
    if ((rc = match_validate(g, mate, cap, &c, err)))
        return rc;
    st->weight = c.weight;
    st->matched_edges = c.matched_edges;
    st->maximal = c.maximal;
    st->ms += rs.ms;
    if (!gl->quiet) {
        int64_t applied = 0;
        double gain = 0.0;
        for (int p = 0; p < rs.phases; p++)
            applied += rs.phase[p].applied, gain += rs.phase[p].gain;
        fprintf(stderr, "coarsen: match: %s ROMA%s on %s: %d phases, %lld augmentations, gain %.17g, %.3f ms\n",
                r->refine == 2 ? "sequential" : "parallel-rule", r->complete ? " (complete graph)" : "",
                gl->use_gpu && r->refine != 2 ? "gpu" : "cpu", rs.phases, (long long)applied, gain, rs.ms);
    }
    return COARSEN_OK;
}
