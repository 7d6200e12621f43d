/* transfer.cu — host <-> device copies of the device layer (device.h).
 *
 * The host arrays of a graph are ordinary (pageable) memory, which the
 * driver copies through a small bounce buffer of its own at a fraction of
 * the link's speed. Large copies here go through two pinned staging buffers
 * instead: while the DMA engine moves chunk i, all OpenMP threads copy
 * chunk i+1 between the caller's memory and the other buffer. The buffers
 * are allocated once, by the start-up thread (device_transfer_prepare), and
 * live until the process ends. Copies run on the run's stream
 * (device_stream()), which every kernel of the project is ordered on, and
 * return when complete. */
#include "device/cuda_check.cuh"
#include "core/error.h"

#include <string.h>

/* Two buffers of this size; below STAGE_MIN a plain cudaMemcpy is cheaper. */
static const size_t STAGE_BYTES = (size_t)32 << 20;
static const size_t STAGE_MIN = (size_t)1 << 20;

static char *g_stage[2];
static cudaEvent_t g_free[2]; /* recorded when the copy out of / into buffer k is done */

extern "C" int device_transfer_prepare(coarsen_error *err)
{
    if (g_stage[0])
        return COARSEN_OK;
    void *p = nullptr;
    CUDA_TRY(err, cudaMallocHost(&p, 2 * STAGE_BYTES));
    for (int k = 0; k < 2; k++) {
        cudaError_t rc = cudaEventCreateWithFlags(&g_free[k], cudaEventDisableTiming);
        if (rc != cudaSuccess) {
            if (k)
                cudaEventDestroy(g_free[0]);
            cudaFreeHost(p);
            return device_cuda_fail(err, rc, "cudaEventCreateWithFlags", __FILE__, __LINE__);
        }
    }
    g_stage[0] = (char *)p;
    g_stage[1] = (char *)p + STAGE_BYTES;
    return COARSEN_OK;
}

/* memcpy by all OpenMP threads, in pieces of at least 1 MiB. */
static void parallel_memcpy(void *dst, const void *src, size_t bytes)
{
    const size_t piece = (size_t)1 << 20;
    long pieces = (long)((bytes + piece - 1) / piece);
#pragma omp parallel for schedule(static) if (pieces > 1)
    for (long k = 0; k < pieces; k++) {
        size_t off = (size_t)k * piece, len = bytes - off < piece ? bytes - off : piece;
        memcpy((char *)dst + off, (const char *)src + off, len);
    }
}

static int upload_staged(void *dst, const void *src, size_t bytes, coarsen_error *err)
{
    if (int rc = device_transfer_prepare(err))
        return rc;
    for (size_t off = 0, k = 0; off < bytes; off += STAGE_BYTES, k ^= 1) {
        size_t len = bytes - off < STAGE_BYTES ? bytes - off : STAGE_BYTES;
        CUDA_TRY(err, cudaEventSynchronize(g_free[k])); /* the copy out of buffer k two chunks ago */
        parallel_memcpy(g_stage[k], (const char *)src + off, len);
        CUDA_TRY(err, cudaMemcpyAsync((char *)dst + off, g_stage[k], len, cudaMemcpyHostToDevice, device_stream()));
        CUDA_TRY(err, cudaEventRecord(g_free[k], device_stream()));
    }
    CUDA_TRY(err, cudaStreamSynchronize(device_stream()));
    return COARSEN_OK;
}

static int download_staged(void *dst, const void *src, size_t bytes, coarsen_error *err)
{
    if (int rc = device_transfer_prepare(err))
        return rc;
    size_t chunks = (bytes + STAGE_BYTES - 1) / STAGE_BYTES;
    for (size_t i = 0; i <= chunks; i++) {
        if (i < chunks) { /* chunk i into buffer i % 2, whose last chunk the host has taken */
            size_t off = i * STAGE_BYTES, len = bytes - off < STAGE_BYTES ? bytes - off : STAGE_BYTES;
            CUDA_TRY(err, cudaMemcpyAsync(g_stage[i & 1], (const char *)src + off, len, cudaMemcpyDeviceToHost,
                                          device_stream()));
            CUDA_TRY(err, cudaEventRecord(g_free[i & 1], device_stream()));
        }
        if (i > 0) { /* chunk i - 1 out of its buffer while chunk i is in flight */
            size_t j = i - 1, off = j * STAGE_BYTES, len = bytes - off < STAGE_BYTES ? bytes - off : STAGE_BYTES;
            CUDA_TRY(err, cudaEventSynchronize(g_free[j & 1]));
            parallel_memcpy((char *)dst + off, g_stage[j & 1], len);
        }
    }
    return COARSEN_OK;
}

/* Pins the caller's memory for the one copy (registration costs about as
 * much as the pageable copy saves; kept for the benchmark's comparison). */
static int copy_registered(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind, coarsen_error *err)
{
    void *host = kind == cudaMemcpyHostToDevice ? const_cast<void *>(src) : dst;
    if (cudaHostRegister(host, bytes, cudaHostRegisterDefault) != cudaSuccess) {
        cudaGetLastError(); /* refused (already pinned, unsupported): not sticky */
        CUDA_TRY(err, stream_copy(dst, src, bytes, kind));
        return COARSEN_OK;
    }
    cudaError_t copy = stream_copy(dst, src, bytes, kind);
    cudaError_t unreg = cudaHostUnregister(host);
    if (copy != cudaSuccess)
        return device_cuda_fail(err, copy, "cudaMemcpy (registered)", __FILE__, __LINE__);
    if (unreg != cudaSuccess)
        return device_cuda_fail(err, unreg, "cudaHostUnregister", __FILE__, __LINE__);
    return COARSEN_OK;
}

extern "C" int device_upload_via(void *dst, const void *src, size_t bytes, device_copy_path path, coarsen_error *err)
{
    if (bytes == 0)
        return COARSEN_OK;
    if (path == DEVICE_COPY_STAGED && bytes >= STAGE_MIN)
        return upload_staged(dst, src, bytes, err);
    if (path == DEVICE_COPY_REGISTERED && bytes >= STAGE_MIN)
        return copy_registered(dst, src, bytes, cudaMemcpyHostToDevice, err);
    CUDA_TRY(err, stream_copy(dst, src, bytes, cudaMemcpyHostToDevice));
    return COARSEN_OK;
}

extern "C" int device_download_via(void *dst, const void *src, size_t bytes, device_copy_path path,
                                   coarsen_error *err)
{
    if (bytes == 0)
        return COARSEN_OK;
    if (path == DEVICE_COPY_STAGED && bytes >= STAGE_MIN)
        return download_staged(dst, src, bytes, err);
    if (path == DEVICE_COPY_REGISTERED && bytes >= STAGE_MIN)
        return copy_registered(dst, src, bytes, cudaMemcpyDeviceToHost, err);
    CUDA_TRY(err, stream_copy(dst, src, bytes, cudaMemcpyDeviceToHost));
    return COARSEN_OK;
}

extern "C" int device_copy_to_device(void *dst, const void *src, size_t bytes, coarsen_error *err)
{
    return device_upload_via(dst, src, bytes, DEVICE_COPY_DEFAULT, err);
}

extern "C" int device_copy_to_host(void *dst, const void *src, size_t bytes, coarsen_error *err)
{
    return device_download_via(dst, src, bytes, DEVICE_COPY_DEFAULT, err);
}

extern "C" int device_host_alloc(void **ptr, size_t bytes, const char *what, coarsen_error *err)
{
    *ptr = nullptr;
    cudaError_t code = cudaMallocHost(ptr, bytes ? bytes : 1);
    if (code != cudaSuccess) {
        cudaGetLastError();
        *ptr = nullptr;
        return error_set(err, COARSEN_ERR_NOMEM, "cannot pin %zu bytes of host memory for %s: %s", bytes, what,
                         cudaGetErrorString(code));
    }
    return COARSEN_OK;
}

extern "C" void device_host_free(void *ptr)
{
    if (ptr)
        cudaFreeHost(ptr);
}

/* The four arrays of a graph, in the given direction by the default path. */
static int graph_copy(coarsen_graph *dst, const coarsen_graph *src, int upload, coarsen_error *err)
{
    struct {
        void *d;
        const void *s;
        size_t bytes;
    } a[4] = {{dst->xadj, src->xadj, ((size_t)src->n + 1) * sizeof *src->xadj},
              {dst->adj, src->adj, (size_t)src->nnz * sizeof *src->adj},
              {dst->ewgt, src->ewgt, (size_t)src->nnz * sizeof *src->ewgt},
              {dst->vwgt, src->vwgt, (size_t)src->n * sizeof *src->vwgt}};
    for (int k = 0; k < 4; k++) {
        int rc = upload ? device_upload_via(a[k].d, a[k].s, a[k].bytes, DEVICE_COPY_DEFAULT, err)
                        : device_download_via(a[k].d, a[k].s, a[k].bytes, DEVICE_COPY_DEFAULT, err);
        if (rc)
            return rc;
    }
    dst->integral_weights = src->integral_weights;
    return COARSEN_OK;
}

extern "C" int device_graph_upload(const coarsen_graph *host, coarsen_graph **out, coarsen_error *err)
{
    if (int rc = device_graph_alloc(host->n, host->nnz, out, err))
        return rc;
    int rc = graph_copy(*out, host, 1, err);
    if (rc) {
        coarsen_graph_free(*out);
        *out = nullptr;
    }
    return rc;
}

extern "C" int device_graph_download(const coarsen_graph *dev, coarsen_graph **out, coarsen_error *err)
{
    *out = coarsen_graph_alloc(dev->n, dev->nnz, err);
    if (!*out)
        return err ? err->status : COARSEN_ERR_NOMEM;
    int rc = graph_copy(*out, dev, 0, err);
    if (rc) {
        coarsen_graph_free(*out);
        *out = nullptr;
    }
    return rc;
}
