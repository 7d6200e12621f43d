/* device.h — the device layer: GPU selection, device memory, host<->device
 * transfers and CUDA error reporting, behind a C interface. It is the only
 * module that allocates device memory (stream-ordered pool on the run's one
 * stream, cuda_check.cuh's device_stream()) and the only host-visible owner
 * of CUDA state. Host C code never
 * includes CUDA headers; .cu files use device/cuda_check.cuh for checked calls.
 * In a build without CUDA (device_nocuda.c) no GPU is ever reported and every
 * allocation fails with COARSEN_ERR_DEVICE. */
#ifndef DEVICE_DEVICE_H
#define DEVICE_DEVICE_H

#include "coarsen.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum device_mode { DEVICE_AUTO = 0, DEVICE_CPU = 1, DEVICE_GPU = 2 } device_mode;

#if !COARSEN_HAVE_CUDA
/* A build without CUDA: sets err to the one "built without CUDA" error and
 * returns COARSEN_ERR_DEVICE; every GPU entry point's stub
 * (exec/gpu_nocuda.c) and the device layer's own fail through it. */
int device_unavailable(coarsen_error *err);
#endif

/* 1 when this library was built with the CUDA backend. */
int device_built_with_cuda(void);
/* Prepares the process environment for the CUDA runtime (lazy module
 * loading unless the user chose otherwise); call before any thread starts
 * where possible (setenv is not thread-safe); device_gpu_count calls it too. */
void device_preinit(void);
/* Usable GPUs (0 without CUDA, without a driver or without a device). */
int device_gpu_count(void);
/* Resolves the mode: *use_gpu = 1 when the GPU backend will run. DEVICE_GPU
 * without a usable GPU is an error naming why. */
int device_select(device_mode mode, int *use_gpu, coarsen_error *err);
#if COARSEN_HAVE_CUDA
/* Selects GPU `ordinal` (0..device_gpu_count()-1) for this process instead
 * of GPU 0, and initialises it; before any other device call (one rank per
 * GPU: dist/nccl_comm.c). Selecting another GPU later is an error. */
int device_use_ordinal(int ordinal, coarsen_error *err);
#endif
/* "NVIDIA H100 80GB HBM3 (sm_90, 132 SMs, 79.2 GiB)", or "cpu" when none. */
const char *device_name(void);

/* The device workspace: one device buffer, owned by the device layer, from
 * which a GPU phase (a matcher, two-hop, heavy-edge clustering, the graph
 * totals) takes all its temporaries, sized from its own needs (CUB's size
 * queries included), so that a level allocates nothing once the buffer is
 * big enough. Contract:
 *  - it lives on the device, in the pool of device_alloc: device_used_bytes
 *    and device_peak_bytes count it, from its growth until its release;
 *  - device_workspace_take: *ptr = the buffer, at least bytes long, for the
 *    caller alone until device_workspace_give. A shorter buffer is replaced
 *    (stream-ordered free and allocation: the contents are lost, and grow
 *    only); its contents are undefined at every take, and nothing written
 *    there outlives the holder's phase;
 *  - two phases at a time, nested: a phase may call one other phase that
 *    takes it (heavy-edge clustering calls two-hop), which gets a second
 *    buffer of its own; a third take while two are held fails
 *    (COARSEN_ERR_DEVICE); gives come in the reverse order of the takes;
 *  - not thread-safe (the device layer serves one run on one stream), and
 *    every use of it is ordered on the run's stream;
 *  - device_workspace_bytes: the size of its buffers now (0 when released),
 *    what the hierarchy's device budget counts; device_workspace_release
 *    frees the buffers not held. */
int device_workspace_take(size_t bytes, void **ptr, const char *what, coarsen_error *err);
void device_workspace_give(void);
/* Grows the next buffer a take would get to at least bytes now (a take
 * and a give): a caller that knows the largest need of the phases to come
 * (the hierarchy, before a level) spares them replacing it one after the
 * other as each needs more. */
int device_workspace_reserve(size_t bytes, const char *what, coarsen_error *err);
size_t device_workspace_bytes(void);
void device_workspace_release(void);

/* Device memory: *ptr is device memory the caller owns and frees with
 * device_free (NULL is allowed). Zero bytes give a valid unique pointer. */
int device_alloc(void **ptr, size_t bytes, const char *what, coarsen_error *err);
void device_free(void *ptr);
/* Copies between host memory (any) and device memory, by the default path
 * below; they return when the copy is complete. */
int device_copy_to_device(void *dst, const void *src, size_t bytes, coarsen_error *err);
int device_copy_to_host(void *dst, const void *src, size_t bytes, coarsen_error *err);

/* How a copy crosses the link (device/transfer.cu). DIRECT: one cudaMemcpy
 * (pageable host memory goes through the driver's own bounce buffer, at a
 * fraction of the link's speed; memory from device_host_alloc at full
 * speed). REGISTERED: the host range is pinned for the copy and unpinned
 * after. STAGED: copies of 1 MiB and more go through two pinned buffers of
 * the device layer, the host side copied by all OpenMP threads while the
 * other buffer is on the link. Paths other than DIRECT fall back to it for
 * small copies. */
typedef enum device_copy_path {
    DEVICE_COPY_DIRECT = 0,
    DEVICE_COPY_REGISTERED = 1,
    DEVICE_COPY_STAGED = 2
} device_copy_path;
/* The path of device_copy_to_device/host and the graph transfers, chosen
 * by bench_upload's measurements (docs/benchmarks.md). */
#define DEVICE_COPY_DEFAULT DEVICE_COPY_STAGED
int device_upload_via(void *dst, const void *src, size_t bytes, device_copy_path path, coarsen_error *err);
int device_download_via(void *dst, const void *src, size_t bytes, device_copy_path path, coarsen_error *err);
/* Allocates the staging buffers (device_select does it, in the start-up
 * thread when the CLI runs one); idempotent. */
int device_transfer_prepare(coarsen_error *err);
/* Pinned (page-locked) host memory the caller owns and frees with
 * device_host_free (NULL allowed): copies from and to it run at the link's
 * speed. */
int device_host_alloc(void **ptr, size_t bytes, const char *what, coarsen_error *err);
void device_host_free(void *ptr);
/* Returns when all work queued on the run's stream is done. */
int device_synchronize(coarsen_error *err);

/* Device memory the driver reports free now (bytes; 0 without a GPU). Memory
 * the pool keeps for reuse counts as used. */
size_t device_memory_free(void);

/* Peak device memory in use (bytes) since the last reset, and in use now
 * (allocations of the device layer's pool). */
size_t device_peak_bytes(void);
size_t device_used_bytes(void);
void device_reset_peak(void);
/* Successful device_alloc calls so far in this process: what shows that a
 * phase run again allocates nothing (tests/test_device_workspace.c). */
size_t device_allocations(void);

/* A device graph (on_device = 1) with arrays for n vertices and nnz entries;
 * freed with coarsen_graph_free. */
int device_graph_alloc(int32_t n, int64_t nnz, coarsen_graph **out, coarsen_error *err);
/* Copies a host graph to a new device graph, and back. */
int device_graph_upload(const coarsen_graph *host, coarsen_graph **out, coarsen_error *err);
int device_graph_download(const coarsen_graph *dev, coarsen_graph **out, coarsen_error *err);

#ifdef __cplusplus
}
#endif
#endif
