/* nccl_handshake.cu — the distributed handshake's passes on this rank's GPU
 * (dist/nccl_handshake.h): the same choice and matching as
 * dist/handshake.c, one thread per local vertex. */
#include "dist/nccl_handshake.h"

#include "core/error.h"
#include "device/cuda_check.cuh"
#include "matching/edge_order.h"

struct dist_nccl_hs {
    dist_nccl *nc;
    dist_nccl_level lv;         /* the host plan's counts (borrowed) */
    int32_t n, next;            /* local vertices, local + ghosts */
    int64_t cap;
    int rating;
    tie_rule ties;
    int64_t *xadj;              /* device: the rows */
    int32_t *adj, *ladj;
    double *ewgt;
    int64_t *vw;                /* device, extended */
    uint8_t *taken;             /* device, extended: matched before this pass */
    int32_t *ptr;               /* device, extended: global id pointed at, or -1 */
    int32_t *choice, *mate;     /* device, local: extended index chosen; partner's global id */
    uint8_t *active;            /* device, local */
    int32_t *gid, *idx;         /* device: ghost ids, the plan's send_idx */
    void *packed;               /* device: the sent records, 8 bytes each at most */
    unsigned long long *count;  /* device: vertices still active */
};

/* Each active vertex's best rated eligible unmatched neighbour (extended
 * index, or -1) and the global id it points at. */
__global__ void hs_choose(int32_t n, int32_t first, const int64_t *__restrict__ xadj, const int32_t *__restrict__ adj,
                          const int32_t *__restrict__ ladj, const double *__restrict__ ewgt,
                          const int64_t *__restrict__ vw, const uint8_t *__restrict__ taken,
                          const uint8_t *__restrict__ active, int64_t cap, int rating, tie_rule ties,
                          const int32_t *__restrict__ gid, int32_t *__restrict__ choice, int32_t *__restrict__ ptr)
{
    const int32_t v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n || !active[v])
        return;
    const int64_t vwv = vw[v];
    int32_t best = -1, best_rank = -1;
    double best_w = 0.0;
    for (int64_t e = xadj[v]; e < xadj[v + 1]; e++) {
        const int32_t x = ladj[e];
        if (taken[x] || !pair_eligible(cap, vwv, vw[x]))
            continue;
        const int32_t rank = tie_rank(ties, adj[e]);
        const double k = edge_rating(rating, ewgt[e], vwv, vw[x]);
        if (edge_better(k, rank, best_w, best_rank))
            best = x, best_rank = rank, best_w = k;
    }
    choice[v] = best;
    ptr[v] = best < 0 ? -1 : best < n ? first + best : gid[best - n];
}

/* Mutual pointers match; a matched vertex or one without a candidate is no
 * longer active. Counts the active ones that remain. */
__global__ void hs_match(int32_t n, int32_t first, const int32_t *__restrict__ choice, const int32_t *__restrict__ ptr,
                         int32_t *__restrict__ mate, uint8_t *__restrict__ taken, uint8_t *__restrict__ active,
                         unsigned long long *__restrict__ count)
{
    const int32_t v = blockIdx.x * blockDim.x + threadIdx.x;
    int keep = 0;
    if (v < n && active[v]) {
        const int32_t c = choice[v];
        if (c >= 0 && ptr[c] == first + v)
            mate[v] = ptr[v], taken[v] = 1, active[v] = 0;
        else if (c < 0)
            active[v] = 0;
        else
            keep = 1;
    }
    const int kept = __syncthreads_count(keep);
    if (threadIdx.x == 0 && kept)
        atomicAdd(count, (unsigned long long)kept);
}

extern "C" void dist_nccl_hs_free(dist_nccl_hs *s)
{
    if (!s)
        return;
    void *all[] = {s->xadj, s->adj, s->ladj, s->ewgt, s->vw, s->taken, s->ptr, s->choice, s->mate,
                   s->active, s->gid, s->idx, s->packed, s->count};
    for (void *p : all)
        device_free(p);
    free(s);
}

static int64_t total(const int *count, const int *displ, int P) { return P ? (int64_t)displ[P - 1] + count[P - 1] : 0; }

static int begin(dist_nccl_hs *s, const dist_nccl_level *lv, int nranks, coarsen_error *err)
{
    const coarsen_graph *l = lv->local;
    const int64_t m = l->nnz, nsend = total(lv->sc, lv->sd, nranks), next = s->next;
    if (int rc = dalloc(&s->xadj, (size_t)l->n + 1, "handshake rows", err))
        return rc;
    if (int rc = dalloc(&s->adj, (size_t)m, "handshake rows", err))
        return rc;
    if (int rc = dalloc(&s->ladj, (size_t)m, "handshake rows", err))
        return rc;
    if (int rc = dalloc(&s->ewgt, (size_t)m, "handshake rows", err))
        return rc;
    if (int rc = dalloc(&s->vw, (size_t)next, "handshake weights", err))
        return rc;
    if (int rc = dalloc(&s->taken, (size_t)next, "handshake status", err))
        return rc;
    if (int rc = dalloc(&s->ptr, (size_t)next, "handshake pointers", err))
        return rc;
    if (int rc = dalloc(&s->choice, (size_t)l->n, "handshake choices", err))
        return rc;
    if (int rc = dalloc(&s->mate, (size_t)l->n, "handshake mates", err))
        return rc;
    if (int rc = dalloc(&s->active, (size_t)l->n, "handshake active flags", err))
        return rc;
    if (int rc = dalloc(&s->gid, (size_t)lv->nghost, "ghost ids", err))
        return rc;
    if (int rc = dalloc(&s->idx, (size_t)nsend, "ghost plan", err))
        return rc;
    if (int rc = device_alloc(&s->packed, (size_t)nsend * 8, "ghost exchange", err))
        return rc;
    if (int rc = dalloc(&s->count, 1, "handshake count", err))
        return rc;
    if (int rc = device_copy_to_device(s->xadj, l->xadj, ((size_t)l->n + 1) * sizeof *l->xadj, err))
        return rc;
    if (int rc = device_copy_to_device(s->adj, l->adj, (size_t)m * sizeof *l->adj, err))
        return rc;
    if (int rc = device_copy_to_device(s->ladj, lv->ladj, (size_t)m * sizeof *lv->ladj, err))
        return rc;
    if (int rc = device_copy_to_device(s->ewgt, l->ewgt, (size_t)m * sizeof *l->ewgt, err))
        return rc;
    if (int rc = device_copy_to_device(s->vw, l->vwgt, (size_t)l->n * sizeof *l->vwgt, err))
        return rc;
    if (int rc = device_copy_to_device(s->gid, lv->ghost_gid, (size_t)lv->nghost * sizeof *lv->ghost_gid, err))
        return rc;
    if (int rc = device_copy_to_device(s->idx, lv->send_idx, (size_t)nsend * sizeof *lv->send_idx, err))
        return rc;
    cudaStream_t st = device_stream();
    CUDA_TRY(err, cudaMemsetAsync(s->taken, 0, (size_t)next, st));
    CUDA_TRY(err, cudaMemsetAsync(s->ptr, 0xff, (size_t)next * sizeof *s->ptr, st));    /* -1 */
    CUDA_TRY(err, cudaMemsetAsync(s->mate, 0xff, (size_t)l->n * sizeof *s->mate, st)); /* -1 */
    CUDA_TRY(err, cudaMemsetAsync(s->active, 1, (size_t)l->n, st));
    return dist_nccl_ghosts_dev(s->nc, s->idx, lv->sc, lv->sd, lv->rc, lv->rd, s->vw, s->n, sizeof *s->vw, s->packed,
                                err);
}

extern "C" int dist_nccl_hs_begin(dist_nccl *nc, const dist_nccl_level *lv, const matching_opts *mo,
                                  dist_nccl_hs **out, coarsen_error *err)
{
    *out = nullptr;
    dist_nccl_hs *s = static_cast<dist_nccl_hs *>(xmalloc(sizeof *s, "handshake state", err));
    if (!s)
        return COARSEN_ERR_NOMEM;
    memset(s, 0, sizeof *s);
    s->nc = nc, s->lv = *lv;
    s->n = lv->local->n, s->next = lv->local->n + lv->nghost;
    s->cap = mo->max_vertex_weight, s->rating = mo->rating, s->ties = match_ties(mo);
    if (int rc = begin(s, lv, dist_nccl_size(nc), err)) {
        dist_nccl_hs_free(s);
        return rc;
    }
    *out = s;
    return COARSEN_OK;
}

extern "C" int dist_nccl_hs_pass(dist_nccl_hs *s, int64_t *active, coarsen_error *err)
{
    const dist_nccl_level *lv = &s->lv;
    cudaStream_t st = device_stream();
    const int threads = 256, blocks = (int)((s->n + threads - 1) / threads);
    /* who was matched by the last pass */
    if (int rc = dist_nccl_ghosts_dev(s->nc, s->idx, lv->sc, lv->sd, lv->rc, lv->rd, s->taken, s->n, 1, s->packed, err))
        return rc;
    if (blocks)
        hs_choose<<<blocks, threads, 0, st>>>(s->n, lv->first, s->xadj, s->adj, s->ladj, s->ewgt, s->vw, s->taken,
                                              s->active, s->cap, s->rating, s->ties, s->gid, s->choice, s->ptr);
    CUDA_LAUNCH_TRY(err);
    if (int rc = dist_nccl_ghosts_dev(s->nc, s->idx, lv->sc, lv->sd, lv->rc, lv->rd, s->ptr, s->n, sizeof *s->ptr,
                                      s->packed, err))
        return rc;
    CUDA_TRY(err, cudaMemsetAsync(s->count, 0, sizeof *s->count, st));
    if (blocks)
        hs_match<<<blocks, threads, 0, st>>>(s->n, lv->first, s->choice, s->ptr, s->mate, s->taken, s->active,
                                             s->count);
    CUDA_LAUNCH_TRY(err);
    unsigned long long kept = 0;
    if (int rc = device_copy_to_host(&kept, s->count, sizeof kept, err))
        return rc;
    *active = (int64_t)kept;
    return COARSEN_OK;
}

extern "C" int dist_nccl_hs_mates(dist_nccl_hs *s, int32_t *mate, coarsen_error *err)
{
    return device_copy_to_host(mate, s->mate, (size_t)s->n * sizeof *mate, err);
}
