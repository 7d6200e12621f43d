/* handshake.cu — the handshake matcher on the GPU, pass for pass the same
 * as handshake_cpu.c: (1) pointer step over the active lists (row
 * reductions of match_gpu.cuh, load-balanced by degree); (2) v matches iff
 * ptr[ptr[v]] == v; (3) compaction, whose counts are the pass's one copy to
 * the host. The first pass skips the neighbours' mate reads (none matched). */
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

struct HandshakeWork {
    int32_t *ptr = nullptr;
    uint8_t *alive = nullptr;
    ActiveLists A{};
    ~HandshakeWork()
    {
        device_free(ptr);
        device_free(alive);
        active_free(&A);
    }
};

int handshake_gpu(const coarsen_graph *g, const matching_opts *opts, int32_t *d_mate, int32_t *d_strongest,
                  matching_stats *stats, coarsen_error *err)
{
    const MatchGraph G = match_graph(g);
    const MatchShape shape = match_shape(g, opts);
    const size_t n = (size_t)g->n;
    HandshakeWork w;
    int rc = dalloc(&w.ptr, n, "handshake pointers", err);
    if (!rc)
        rc = dalloc(&w.alive, n, "handshake live flags", err);
    if (!rc)
        rc = active_init(G, shape, &w.A, err);
    if (rc)
        return rc;
    CUDA_TRY(err, cudaMemsetAsync(d_mate, 0xff, n * sizeof *d_mate, 0)); /* -1 everywhere */
    while (w.A.total() > 0 && (opts->max_passes == 0 || stats->passes < opts->max_passes)) {
        const bool first = stats->passes == 0;
        PointerOp op{first ? nullptr : d_mate, G.vwgt, opts->max_vertex_weight, w.ptr, w.alive};
        if ((rc = rows_launch(G, w.A, shape, op, err)))
            return rc;
        if (first && d_strongest) /* pass 1: every vertex active, none matched */
            CUDA_TRY(err, cudaMemcpyAsync(d_strongest, w.ptr, n * sizeof *w.ptr, cudaMemcpyDeviceToDevice, 0));
        if ((rc = each_active(w.A, MutualPointers{w.ptr, d_mate}, err)))
            return rc;
        unsigned long long matched = 0;
        if ((rc = active_compact(&w.A, d_mate, w.alive, &matched, err)))
            return rc;
        if (stats->passes++ == 0)
            stats->first_round_fraction = (double)(int64_t)matched / g->n;
    }
    stats->maximal = w.A.total() == 0;
    return COARSEN_OK;
}
