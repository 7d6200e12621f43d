/* handshake.cu — the handshake matcher on the GPU, pass for pass the same
 * as handshake_cpu.c: (1) pointer step over the active lists (row
 * reductions of match_gpu.cuh, load-balanced by degree); (2) v matches iff
 * ptr[ptr[v]] == v; (3) compaction, whose counts are the pass's one copy to
 * the host. The first pass skips the neighbours' mate reads (none matched).
 * Graphs of up to a few hundred thousand vertices run all passes in one
 * launch instead (handshake_persistent.cu). */
#include "matching/match_gpu.cuh"

/* Step (2): 1 when v matched. */
struct MutualPointers {
    const int32_t *ptr;
    int32_t *mate;
    __device__ __forceinline__ unsigned operator()(int32_t v) const
    {
        int32_t p = ptr[v];
        if (p >= 0 && ptr[p] == v) {
            mate[v] = p;
            return 1u;
        }
        return 0u;
    }
};

int handshake_gpu(const coarsen_graph *g, const matching_opts *opts, int32_t *d_mate, int32_t *d_strongest,
                  matching_stats *stats, coarsen_error *err)
{
    if (handshake_persistent_fits(g, opts))
        return handshake_persistent_gpu(g, opts, d_mate, d_strongest, stats, err);
    const MatchGraph G = match_graph(g);
    const MatchShape shape = match_shape(g, opts);
    const size_t n = (size_t)g->n;
    MatchWork w;
    int rc = w.init(G, shape, d_mate, err);
    if (rc)
        return rc;
    int32_t *ptr = w.choice;
    while (w.A.total() > 0 && (opts->max_passes == 0 || stats->passes < opts->max_passes)) {
        const bool first = stats->passes == 0;
        PointerOp op{match_ties(opts), first ? nullptr : d_mate, G.vwgt, opts->max_vertex_weight, ptr, w.alive,
                     (int)opts->rating, nullptr};
        if ((rc = rows_launch(G, w.A, shape, op, err)))
            return rc;
        if (first && d_strongest) /* pass 1: every vertex active, none matched */
            CUDA_TRY(err,
                     cudaMemcpyAsync(d_strongest, ptr, n * sizeof *ptr, cudaMemcpyDeviceToDevice, device_stream()));
        if ((rc = each_active(w.A, MutualPointers{ptr, d_mate}, err)))
            return rc;
        if ((rc = w.end_pass(d_mate, g->n, stats, err)))
            return rc;
    }
    stats->maximal = w.A.total() == 0;
    return COARSEN_OK;
}
