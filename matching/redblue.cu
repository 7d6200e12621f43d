/* redblue.cu — the red/blue matcher on the GPU, round for round the same as
 * redblue_cpu.c (same draws from redblue_rules.h): (1) proposal step: every
 * active vertex finds whether it is still live and, when blue, its best red
 * unmatched eligible neighbour; (2) acceptance step: every red active vertex
 * picks its best proposer and writes both mates (a blue vertex proposes to
 * one red vertex only, so no two threads write one mate); (3) compaction. */
#include "matching/match_gpu.cuh"
#include "matching/redblue_rules.h"

/* What both steps of round r need to know. */
struct RoundRules {
    uint64_t seed;
    double p;
    int32_t round;
    int weighted;
    __device__ __forceinline__ bool blue(int32_t v) const { return redblue_is_blue(seed, round, v, p); }
    __device__ __forceinline__ double key(uint64_t salt, int32_t v, int32_t u, const double *w) const
    {
        return weighted ? __ldg(w) : redblue_random_key(seed, salt, round, v, u);
    }
};

struct ProposeOp {
    tie_rule ties;
    RoundRules R;
    const int32_t *mate;
    const int64_t *vwgt;
    int64_t cap;
    int32_t *prop;
    uint8_t *alive;
    struct Ctx {
        int64_t vw;
        bool blue;
    };
    __device__ __forceinline__ Ctx prepare(int32_t v) const { return Ctx{cap > 0 ? vwgt[v] : 0, R.blue(v)}; }
    __device__ __forceinline__ bool scans(const Ctx &) const { return true; }
    __device__ __forceinline__ int visit(const Ctx &c, int32_t v, int32_t u, const double *w, double &key) const
    {
        if (__ldg(mate + u) >= 0 || (cap > 0 && !pair_eligible(cap, c.vw, __ldg(vwgt + u))))
            return 0;
        if (!c.blue || R.blue(u))
            return VISIT_LIVE;
        key = R.key(REDBLUE_SALT_PROPOSE, v, u, w);
        return VISIT_LIVE | VISIT_CAND;
    }
    __device__ __forceinline__ void finish(int32_t v, const Ctx &c, const RowBest &b) const
    {
        prop[v] = c.blue ? b.id : -1;
        alive[v] = (uint8_t)b.live;
    }
};

struct AcceptOp {
    tie_rule ties;
    RoundRules R;
    const int32_t *prop;
    int32_t *mate;
    unsigned long long *matched;
    struct Ctx {
        bool blue;
    };
    __device__ __forceinline__ Ctx prepare(int32_t v) const { return Ctx{R.blue(v)}; }
    __device__ __forceinline__ bool scans(const Ctx &c) const { return !c.blue; }
    __device__ __forceinline__ int visit(const Ctx &, int32_t v, int32_t u, const double *w, double &key) const
    {
        if (__ldg(prop + u) != v)
            return 0;
        key = R.key(REDBLUE_SALT_ACCEPT, v, u, w);
        return VISIT_CAND;
    }
    __device__ __forceinline__ void finish(int32_t v, const Ctx &c, const RowBest &b) const
    {
        if (c.blue || b.id < 0)
            return;
        mate[v] = b.id;
        mate[b.id] = v;
        atomicAdd(matched, 2ull);
    }
};

int redblue_gpu(const coarsen_graph *g, const matching_opts *opts, int32_t *d_mate, int32_t *d_strongest,
                matching_stats *stats, coarsen_error *err)
{
    const MatchGraph G = match_graph(g);
    const MatchShape shape = match_shape(g, opts);
    MatchWork w;
    int rc = w.init(G, shape, d_mate, err);
    if (rc)
        return rc;
    int32_t *prop = w.choice; /* an inactive v keeps -1 or its mate: stale values never name an unmatched vertex */
    const tie_rule ties = match_ties(opts);
    const int64_t cap = opts->max_vertex_weight;
    const PointerOp strongest{ties, nullptr, G.vwgt, cap, d_strongest, nullptr, MATCH_RATING_WEIGHT, nullptr};
    if (d_strongest && (rc = rows_launch(G, w.A, shape, strongest, err)))
        return rc;
    const int max_rounds = opts->max_passes ? opts->max_passes : MATCH_REDBLUE_DEFAULT_ROUNDS;
    for (int32_t r = 0; w.A.total() > 0 && r < max_rounds; r++) {
        const RoundRules R{opts->seed, opts->p, r, opts->weighted};
        if ((rc = rows_launch(G, w.A, shape, ProposeOp{ties, R, d_mate, G.vwgt, cap, prop, w.alive}, err)) ||
            (rc = rows_launch(G, w.A, shape, AcceptOp{ties, R, prop, d_mate, w.A.matched_counter()}, err)))
            return rc;
        if ((rc = w.end_pass(d_mate, g->n, stats, err)))
            return rc;
    }
    stats->maximal = w.A.total() == 0;
    return COARSEN_OK;
}
