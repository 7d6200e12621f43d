/* host_call.c — a backend's phases on host data (host_call.h). */
#include "exec/host_call.h"

#include "device/device.h"
#include "matching/roma_complete.h"
#include "matching/validate.h"

/* A device copy of host ints (src NULL: uninitialised), or NULL with err set. */
static int32_t *device_ints_of(const exec_backend *b, const int32_t *src, int32_t n, const char *what,
                               coarsen_error *err)
{
    int32_t *d = b->ints_alloc(n, what, err);
    if (d && src && device_copy_to_device(d, src, (size_t)n * sizeof *d, err)) {
        b->ints_free(d);
        return NULL;
    }
    return d;
}

int exec_match_host(const exec_backend *b, const coarsen_graph *g, const matching_opts *opts, int32_t *mate,
                    int32_t *strongest, matching_stats *stats, coarsen_error *err)
{
    if (!b->gpu)
        return b->match(g, opts, mate, strongest, stats, err);
    coarsen_graph *dg = NULL;
    int32_t *d_mate = NULL, *d_strong = NULL;
    size_t bytes = (size_t)g->n * sizeof *mate;
    int rc = device_graph_upload(g, &dg, err);
    if (!rc && !(d_mate = device_ints_of(b, NULL, g->n, "mates", err)))
        rc = err ? err->status : COARSEN_ERR_NOMEM;
    if (!rc && strongest && !(d_strong = device_ints_of(b, NULL, g->n, "strongest neighbours", err)))
        rc = err ? err->status : COARSEN_ERR_NOMEM;
    if (!rc)
        rc = b->match(dg, opts, d_mate, d_strong, stats, err);
    if (!rc)
        rc = device_copy_to_host(mate, d_mate, bytes, err);
    if (!rc && strongest)
        rc = device_copy_to_host(strongest, d_strong, bytes, err);
    b->ints_free(d_mate);
    b->ints_free(d_strong);
    coarsen_graph_free(dg);
    return rc;
}

int exec_refine_host(const exec_backend *b, const coarsen_graph *g, const roma_opts *opts, int32_t *mate,
                     roma_stats *stats, coarsen_error *err)
{
    if (!b->gpu)
        return b->refine(g, opts, mate, stats, err);
    coarsen_graph *dg = NULL;
    int32_t *d_mate = NULL;
    int rc = match_validate(g, mate, 0, NULL, err);
    if (!rc)
        rc = device_graph_upload(g, &dg, err);
    if (!rc && !(d_mate = device_ints_of(b, mate, g->n, "ROMA mates", err)))
        rc = err ? err->status : COARSEN_ERR_NOMEM;
    if (!rc)
        rc = b->refine(dg, opts, d_mate, stats, err);
    if (!rc)
        rc = device_copy_to_host(mate, d_mate, (size_t)g->n * sizeof *mate, err);
    b->ints_free(d_mate);
    coarsen_graph_free(dg);
    return rc;
}

int exec_refine_complete_host(const exec_backend *b, int32_t n, const float *w, const roma_opts *opts, int32_t *mate,
                              roma_stats *stats, coarsen_error *err)
{
    if (!b->gpu)
        return b->refine_complete(n, w, opts, mate, stats, err);
    void *d_w = NULL;
    int32_t *d_mate = NULL;
    size_t wbytes = (size_t)n * (size_t)n * sizeof *w;
    int rc = roma_complete_check(n, mate, err);
    if (!rc)
        rc = device_alloc(&d_w, wbytes, "dense weight matrix", err);
    if (!rc)
        rc = device_copy_to_device(d_w, w, wbytes, err);
    if (!rc && !(d_mate = device_ints_of(b, mate, n, "ROMA mates", err)))
        rc = err ? err->status : COARSEN_ERR_NOMEM;
    if (!rc)
        rc = b->refine_complete(n, d_w, opts, d_mate, stats, err);
    if (!rc)
        rc = device_copy_to_host(mate, d_mate, (size_t)n * sizeof *mate, err);
    b->ints_free(d_mate);
    device_free(d_w);
    return rc;
}
