/* device.cu — the CUDA implementation of the device layer (device.h). */
#include "device/cuda_check.cuh"

#include <stdlib.h>
#include "core/error.h"

#include <stdio.h>
#include <string.h>

static int g_device = -1;         /* selected device, -1 before selection */
static int g_ordinal = 0;         /* the GPU device_init selects (device_use_ordinal) */
static char g_name[512] = "cpu";
static cudaStream_t g_stream;     /* the run's stream, made by device_init, never destroyed */

extern "C" int device_cuda_fail(coarsen_error *err, cudaError_t code, const char *call,
                                const char *file, int line)
{
    return error_set(err, COARSEN_ERR_DEVICE, "CUDA error in %s at %s:%d: %s", call, file, line,
                     cudaGetErrorString(code));
}

extern "C" int device_built_with_cuda(void) { return 1; }

/* Each kernel loaded at its first launch (lazy loading), whatever the
 * CUDA version's default: loading all ~730 kernels when the context is made
 * (EAGER) held the start-up 20-30 ms longer (H200, session 18: karate
 * --device gpu 0.278 -> 0.252 s, road-FLA 0.273 -> 0.252 s), more than the
 * 3 ms the first launches then cost road-FLA's 20 levels. A user's own
 * setting is kept. Must precede the process's first CUDA call, which reads
 * it. */
extern "C" void device_preinit(void) { setenv("CUDA_MODULE_LOADING", "LAZY", 0); }

extern "C" int device_gpu_count(void)
{
    device_preinit();
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess) {
        cudaGetLastError(); /* clear the sticky "no driver" state */
        return 0;
    }
    return count;
}

static int device_init(coarsen_error *err)
{
    if (g_device >= 0)
        return COARSEN_OK;
    CUDA_TRY(err, cudaSetDevice(g_ordinal));
    cudaDeviceProp prop;
    CUDA_TRY(err, cudaGetDeviceProperties(&prop, g_ordinal));
    cudaMemPool_t pool;
    CUDA_TRY(err, cudaDeviceGetDefaultMemPool(&pool, g_ordinal));
    uint64_t keep = UINT64_MAX; /* keep freed memory in the pool: allocation stays cheap */
    CUDA_TRY(err, cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep));
    /* Blocking (not cudaStreamNonBlocking): work on it waits for the legacy
     * default stream's and the reverse, so that a CUDA call outside the
     * project's code (a caller's, a library's) that uses the legacy stream
     * stays ordered with the run's work; the project itself issues nothing
     * there, so the implicit ordering never waits on anything. */
    CUDA_TRY(err, cudaStreamCreateWithFlags(&g_stream, cudaStreamDefault));
    snprintf(g_name, sizeof g_name, "%s (sm_%d%d, %d SMs, %.1f GiB)", prop.name, prop.major, prop.minor,
             prop.multiProcessorCount, (double)prop.totalGlobalMem / (1 << 30));
    g_device = g_ordinal;
    return COARSEN_OK;
}

extern "C" int device_use_ordinal(int ordinal, coarsen_error *err)
{
    if (g_device >= 0 && g_device != ordinal)
        return error_set(err, COARSEN_ERR_DEVICE, "GPU %d asked for after GPU %d was selected", ordinal, g_device);
    g_ordinal = ordinal;
    return device_init(err);
}

extern "C" int device_select(device_mode mode, int *use_gpu, coarsen_error *err)
{
    *use_gpu = 0;
    if (mode == DEVICE_CPU)
        return COARSEN_OK;
    if (device_gpu_count() == 0) {
        if (mode == DEVICE_GPU)
            return error_set(err, COARSEN_ERR_DEVICE, "--device gpu: no usable CUDA GPU (driver or device missing)");
        return COARSEN_OK;
    }
    if (int rc = device_init(err))
        return rc;
    if (int rc = device_transfer_prepare(err))
        return rc;
    *use_gpu = 1;
    return COARSEN_OK;
}

extern "C" cudaStream_t device_stream(void) { return g_stream; }

extern "C" const char *device_name(void) { return g_name; }

static size_t g_allocations; /* device_allocations */

extern "C" size_t device_allocations(void) { return g_allocations; }

extern "C" int device_alloc(void **ptr, size_t bytes, const char *what, coarsen_error *err)
{
    *ptr = nullptr;
    if (int rc = device_init(err))
        return rc;
    cudaError_t code = cudaMallocAsync(ptr, bytes ? bytes : 1, g_stream);
    if (code != cudaSuccess) {
        cudaGetLastError();
        size_t free_b = 0, total_b = 0;
        cudaMemGetInfo(&free_b, &total_b);
        return error_set(err, COARSEN_ERR_NOMEM, "GPU out of memory allocating %zu bytes for %s (%zu of %zu free): %s",
                         bytes, what, free_b, total_b, cudaGetErrorString(code));
    }
    g_allocations++;
    return COARSEN_OK;
}

extern "C" void device_free(void *ptr)
{
    if (ptr)
        cudaFreeAsync(ptr, g_stream);
}

/* The workspace (device.h): WORKSPACE_DEPTH buffers, one per phase held
 * at once (a phase and the one phase it calls), each grown to the largest
 * request at its depth, rounded up to WORKSPACE_GRAIN so that requests a
 * little larger than the last do not each replace it. */
static const size_t WORKSPACE_GRAIN = (size_t)1 << 20;
enum { WORKSPACE_DEPTH = 2 };
static void *g_workspace[WORKSPACE_DEPTH];
static size_t g_workspace_bytes[WORKSPACE_DEPTH];
static const char *g_workspace_holder[WORKSPACE_DEPTH]; /* what holds each, NULL when free */
static int g_workspace_held;                             /* buffers held: 0 .. WORKSPACE_DEPTH */

extern "C" int device_workspace_take(size_t bytes, void **ptr, const char *what, coarsen_error *err)
{
    *ptr = nullptr;
    const int d = g_workspace_held;
    if (d == WORKSPACE_DEPTH)
        return error_set(err, COARSEN_ERR_DEVICE, "device workspace asked for by %s while %s and %s hold it", what,
                         g_workspace_holder[0], g_workspace_holder[1]);
    if (bytes > g_workspace_bytes[d] || !g_workspace[d]) {
        const size_t want = (bytes + WORKSPACE_GRAIN - 1) / WORKSPACE_GRAIN * WORKSPACE_GRAIN;
        device_free(g_workspace[d]);
        g_workspace[d] = nullptr;
        g_workspace_bytes[d] = 0;
        if (int rc = device_alloc(&g_workspace[d], want ? want : WORKSPACE_GRAIN, what, err))
            return rc;
        g_workspace_bytes[d] = want ? want : WORKSPACE_GRAIN;
    }
    g_workspace_holder[d] = what;
    g_workspace_held = d + 1;
    *ptr = g_workspace[d];
    return COARSEN_OK;
}

extern "C" void device_workspace_give(void)
{
    if (g_workspace_held > 0)
        g_workspace_holder[--g_workspace_held] = nullptr;
}

extern "C" int device_workspace_reserve(size_t bytes, const char *what, coarsen_error *err)
{
    void *p = nullptr;
    if (int rc = device_workspace_take(bytes, &p, what, err))
        return rc;
    device_workspace_give();
    return COARSEN_OK;
}

extern "C" size_t device_workspace_bytes(void)
{
    size_t total = 0;
    for (int d = 0; d < WORKSPACE_DEPTH; d++)
        total += g_workspace_bytes[d];
    return total;
}

extern "C" void device_workspace_release(void)
{
    for (int d = g_workspace_held; d < WORKSPACE_DEPTH; d++) {
        device_free(g_workspace[d]);
        g_workspace[d] = nullptr;
        g_workspace_bytes[d] = 0;
    }
}

extern "C" int device_synchronize(coarsen_error *err)
{
    CUDA_TRY(err, cudaStreamSynchronize(g_stream));
    return COARSEN_OK;
}

extern "C" size_t device_memory_free(void)
{
    size_t free_b = 0, total_b = 0;
    if (g_device < 0 || cudaMemGetInfo(&free_b, &total_b) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return free_b;
}

/* An attribute of the default pool, 0 when it cannot be read. */
static size_t pool_bytes(cudaMemPoolAttr attr)
{
    cudaMemPool_t pool;
    uint64_t v = 0;
    if (g_device < 0 || cudaDeviceGetDefaultMemPool(&pool, g_device) != cudaSuccess ||
        cudaMemPoolGetAttribute(pool, attr, &v) != cudaSuccess)
        return 0;
    return (size_t)v;
}

extern "C" size_t device_peak_bytes(void) { return pool_bytes(cudaMemPoolAttrUsedMemHigh); }
extern "C" size_t device_used_bytes(void) { return pool_bytes(cudaMemPoolAttrUsedMemCurrent); }

extern "C" void device_reset_peak(void)
{
    cudaMemPool_t pool;
    uint64_t zero = 0;
    if (g_device >= 0 && cudaDeviceGetDefaultMemPool(&pool, g_device) == cudaSuccess)
        cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &zero);
}

extern "C" int device_graph_alloc(int32_t n, int64_t nnz, coarsen_graph **out, coarsen_error *err)
{
    *out = nullptr;
    coarsen_graph *g = (coarsen_graph *)xcalloc(1, sizeof *g, "graph", err);
    if (!g)
        return COARSEN_ERR_NOMEM;
    g->n = n;
    g->nnz = nnz;
    g->on_device = 1;
    g->integral_weights = 1;
    int rc = dalloc(&g->xadj, (size_t)n + 1, "row offsets", err);
    if (!rc)
        rc = dalloc(&g->adj, (size_t)nnz, "adjacency", err);
    if (!rc)
        rc = dalloc(&g->ewgt, (size_t)nnz, "edge weights", err);
    if (!rc)
        rc = dalloc(&g->vwgt, (size_t)n, "vertex weights", err);
    if (rc) {
        coarsen_graph_free(g);
        return rc;
    }
    *out = g;
    return COARSEN_OK;
}
