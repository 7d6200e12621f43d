/* nccl_exchange.cu — the NCCL communicator of one rank per GPU and dist/'s
 * exchanges as grouped ncclSend/ncclRecv of device buffers
 * (dist/nccl_exchange.h). The exchanges run on the communicator's own
 * stream, ordered after the device layer's stream by an event and before
 * its later work by another, so that buffers from device_alloc (ordered on
 * that stream) are ready when sent and freed only after. */
#include "dist/nccl_exchange.h"

#include <nccl.h>

#include "core/error.h"
#include "device/cuda_check.cuh"

static_assert(DIST_NCCL_ID_BYTES == NCCL_UNIQUE_ID_BYTES, "ncclUniqueId size");

#define NCCL_TRY(err, call)                                                                                  \
    do {                                                                                                     \
        ncclResult_t nccl_try_rc_ = (call);                                                                  \
        if (nccl_try_rc_ != ncclSuccess)                                                                     \
            return error_set((err), COARSEN_ERR_DEVICE, "NCCL error in %s at %s:%d: %s", #call, __FILE__, \
                             __LINE__, ncclGetErrorString(nccl_try_rc_));                                    \
    } while (0)

struct dist_nccl {
    ncclComm_t comm;
    cudaStream_t stream; /* the exchanges' stream */
    cudaEvent_t ready;   /* recorded on one stream, waited for on the other */
    int nranks, rank;
};

extern "C" int dist_nccl_make_id(unsigned char id[DIST_NCCL_ID_BYTES], coarsen_error *err)
{
    ncclUniqueId u;
    NCCL_TRY(err, ncclGetUniqueId(&u));
    memcpy(id, u.internal, sizeof u.internal);
    return COARSEN_OK;
}

extern "C" void dist_nccl_destroy(dist_nccl *nc)
{
    if (!nc)
        return;
    if (nc->comm)
        ncclCommDestroy(nc->comm);
    if (nc->ready)
        cudaEventDestroy(nc->ready);
    if (nc->stream)
        cudaStreamDestroy(nc->stream);
    free(nc);
}

extern "C" int dist_nccl_size(const dist_nccl *nc) { return nc->nranks; }

static int create(dist_nccl *nc, int nranks, int rank, const unsigned char *id, coarsen_error *err)
{
    nc->nranks = nranks, nc->rank = rank;
    CUDA_TRY(err, cudaStreamCreateWithFlags(&nc->stream, cudaStreamNonBlocking));
    CUDA_TRY(err, cudaEventCreateWithFlags(&nc->ready, cudaEventDisableTiming));
    ncclUniqueId u;
    memcpy(u.internal, id, sizeof u.internal);
    NCCL_TRY(err, ncclCommInitRank(&nc->comm, nranks, u, rank));
    return COARSEN_OK;
}

extern "C" int dist_nccl_create(int nranks, int rank, const unsigned char id[DIST_NCCL_ID_BYTES], dist_nccl **out,
                                coarsen_error *err)
{
    *out = NULL;
    dist_nccl *nc = static_cast<dist_nccl *>(xmalloc(sizeof *nc, "NCCL communicator", err));
    if (!nc)
        return COARSEN_ERR_NOMEM;
    memset(nc, 0, sizeof *nc);
    if (int rc = create(nc, nranks, rank, id, err)) {
        dist_nccl_destroy(nc);
        return rc;
    }
    *out = nc;
    return COARSEN_OK;
}

static int64_t total(const int *count, const int *displ, int P) { return P ? (int64_t)displ[P - 1] + count[P - 1] : 0; }

/* The all-to-all-v between device buffers: one NCCL group of a send and a
 * receive per rank with a non-empty part, this rank's own included (NCCL
 * copies those), on nc's stream between the two events. */
static int exchange(dist_nccl *nc, const char *send, const int *sc, const int *sd, char *recv, const int *rc,
                    const int *rd, size_t elem, coarsen_error *err)
{
    CUDA_TRY(err, cudaEventRecord(nc->ready, device_stream()));
    CUDA_TRY(err, cudaStreamWaitEvent(nc->stream, nc->ready, 0));
    NCCL_TRY(err, ncclGroupStart());
    for (int r = 0; r < nc->nranks; r++) {
        if (sc[r])
            NCCL_TRY(err, ncclSend(send + (size_t)sd[r] * elem, (size_t)sc[r] * elem, ncclUint8, r, nc->comm,
                                   nc->stream));
        if (rc[r])
            NCCL_TRY(err, ncclRecv(recv + (size_t)rd[r] * elem, (size_t)rc[r] * elem, ncclUint8, r, nc->comm,
                                   nc->stream));
    }
    NCCL_TRY(err, ncclGroupEnd());
    CUDA_TRY(err, cudaEventRecord(nc->ready, nc->stream));
    CUDA_TRY(err, cudaStreamWaitEvent(device_stream(), nc->ready, 0));
    return COARSEN_OK;
}

extern "C" int dist_nccl_alltoallv_host(dist_nccl *nc, const void *send, const int *sc, const int *sd, void *recv,
                                        const int *rc, const int *rd, size_t elem, coarsen_error *err)
{
    const int P = nc->nranks;
    int *dev = static_cast<int *>(xmalloc(2 * (size_t)P * sizeof(int), "NCCL all-to-all plan", err));
    if (!dev)
        return COARSEN_ERR_NOMEM;
    int *dsd = dev, *drd = dev + P; /* the parts' places in the device buffers: packed, no gaps */
    int64_t sn = 0, rn = 0;
    for (int r = 0; r < P; r++) {
        dsd[r] = (int)sn, sn += sc[r];
        drd[r] = (int)rn, rn += rc[r];
    }
    char *buf = nullptr;
    int st = sn + rn ? dalloc(&buf, (size_t)(sn + rn) * elem, "NCCL all-to-all buffers", err) : COARSEN_OK;
    const char *s = static_cast<const char *>(send);
    char *d = static_cast<char *>(recv), *dsend = buf, *drecv = buf + (size_t)sn * elem;
    for (int r = 0; !st && r < P; r++)
        if (sc[r])
            st = device_copy_to_device(dsend + (size_t)dsd[r] * elem, s + (size_t)sd[r] * elem, (size_t)sc[r] * elem,
                                       err);
    if (!st && sn + rn)
        st = exchange(nc, dsend, sc, dsd, drecv, rc, drd, elem, err);
    for (int r = 0; !st && r < P; r++)
        if (rc[r])
            st = device_copy_to_host(d + (size_t)rd[r] * elem, drecv + (size_t)drd[r] * elem, (size_t)rc[r] * elem,
                                     err);
    device_free(buf);
    free(dev);
    return st;
}

/* dst[i] = src[idx[i]] for records of type T. */
template <class T>
__global__ void gather_records(const T *__restrict__ src, const int32_t *__restrict__ idx, int64_t n,
                               T *__restrict__ dst)
{
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
        dst[i] = src[idx[i]];
}

/* The same for records of any size, byte by byte. */
__global__ void gather_bytes(const char *__restrict__ src, const int32_t *__restrict__ idx, int64_t n, size_t elem,
                             char *__restrict__ dst)
{
    const int64_t bytes = n * (int64_t)elem;
    for (int64_t b = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; b < bytes; b += (int64_t)gridDim.x * blockDim.x)
        dst[b] = src[(size_t)idx[b / (int64_t)elem] * elem + (size_t)(b % (int64_t)elem)];
}

static int gather(const char *src, const int32_t *idx, int64_t n, size_t elem, char *dst, coarsen_error *err)
{
    if (n == 0)
        return COARSEN_OK;
    const int threads = 256;
    const int blocks = (int)((n + threads - 1) / threads < 65536 ? (n + threads - 1) / threads : 65536);
    cudaStream_t s = device_stream();
    switch (elem) {
    case 1: gather_records<<<blocks, threads, 0, s>>>((const uint8_t *)src, idx, n, (uint8_t *)dst); break;
    case 4: gather_records<<<blocks, threads, 0, s>>>((const uint32_t *)src, idx, n, (uint32_t *)dst); break;
    case 8: gather_records<<<blocks, threads, 0, s>>>((const uint64_t *)src, idx, n, (uint64_t *)dst); break;
    default: gather_bytes<<<blocks, threads, 0, s>>>(src, idx, n, elem, dst);
    }
    CUDA_LAUNCH_TRY(err);
    return COARSEN_OK;
}

extern "C" int dist_nccl_ghosts_dev(dist_nccl *nc, const int32_t *d_idx, const int *sc, const int *sd,
                                    const int *rc, const int *rd, void *d_ext, int32_t nlocal, size_t elem,
                                    void *d_packed, coarsen_error *err)
{
    char *ext = static_cast<char *>(d_ext), *packed = static_cast<char *>(d_packed);
    if (int st = gather(ext, d_idx, total(sc, sd, nc->nranks), elem, packed, err))
        return st;
    return exchange(nc, packed, sc, sd, ext + (size_t)nlocal * elem, rc, rd, elem, err);
}
