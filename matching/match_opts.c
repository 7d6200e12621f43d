/* match_opts.c — default matcher options and their validation. */
#include "matching/matching.h"
#include "core/error.h"

void matching_opts_default(matching_opts *opts)
{
    *opts = (matching_opts){
        .kind = MATCHER_HANDSHAKE,
        .weighted = 1,
        .p = 0.53406,
        .seed = 1,
        .max_passes = 0,
        .max_vertex_weight = 0,
        .hashed_ties = 0,
        .rating = MATCH_RATING_WEIGHT,
        .relatives_threshold = 0.25,
        .gpu_group_width = 0,
        .gpu_heavy_degree = 0,
        .gpu_persistent_max = 0,
    };
}

int matching_opts_check(const matching_opts *opts, coarsen_error *err)
{
    if (opts->kind != MATCHER_HANDSHAKE && opts->kind != MATCHER_REDBLUE && opts->kind != MATCHER_HEC)
        return error_set(err, COARSEN_ERR_INPUT, "unknown matcher kind %d", (int)opts->kind);
    if (opts->rating != MATCH_RATING_WEIGHT && opts->rating != MATCH_RATING_EXPANSION &&
        opts->rating != MATCH_RATING_EXPANSION2)
        return error_set(err, COARSEN_ERR_INPUT, "unknown edge rating %d", (int)opts->rating);
    if (opts->kind == MATCHER_REDBLUE && opts->rating != MATCH_RATING_WEIGHT)
        return error_set(err, COARSEN_ERR_INPUT, "red/blue matching rates edges by weight only");
    if (!(opts->relatives_threshold >= 0))
        return error_set(err, COARSEN_ERR_INPUT, "relatives threshold %g is not >= 0", opts->relatives_threshold);
    if (!(opts->p > 0.0 && opts->p < 1.0))
        return error_set(err, COARSEN_ERR_INPUT, "red/blue probability p = %g is not in (0, 1)", opts->p);
    if (opts->max_passes < 0)
        return error_set(err, COARSEN_ERR_INPUT, "negative pass cap %d", opts->max_passes);
    if (opts->hashed_ties != 0 && opts->hashed_ties != 1)
        return error_set(err, COARSEN_ERR_INPUT, "hashed_ties must be 0 or 1, not %d", opts->hashed_ties);
    int w = opts->gpu_group_width;
    if (w < 0 || w > 32 || (w & (w - 1)))
        return error_set(err, COARSEN_ERR_INPUT, "GPU group width %d is not 0 or a power of two <= 32", w);
    if (opts->gpu_heavy_degree < 0)
        return error_set(err, COARSEN_ERR_INPUT, "negative GPU heavy degree %lld",
                         (long long)opts->gpu_heavy_degree);
    if (opts->gpu_persistent_max < -1)
        return error_set(err, COARSEN_ERR_INPUT, "GPU persistent bound %lld is not -1, 0 or a vertex count",
                         (long long)opts->gpu_persistent_max);
    return COARSEN_OK;
}
