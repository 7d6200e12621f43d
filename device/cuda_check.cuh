/* cuda_check.cuh — checked CUDA calls and typed device allocation for .cu
 * files. Every CUDA runtime call and kernel launch in the project goes
 * through CUDA_TRY, whose message names the call, file and line. */
#ifndef DEVICE_CUDA_CHECK_CUH
#define DEVICE_CUDA_CHECK_CUH

#include <cuda_runtime.h>

#include "device/device.h"

/* Fills err with "CUDA error in CALL at FILE:LINE: reason" and returns
 * COARSEN_ERR_DEVICE. */
extern "C" int device_cuda_fail(coarsen_error *err, cudaError_t code, const char *call,
                                const char *file, int line);

#define CUDA_TRY(err, call)                                                      \
    do {                                                                         \
        cudaError_t cuda_try_rc_ = (call);                                       \
        if (cuda_try_rc_ != cudaSuccess)                                         \
            return device_cuda_fail((err), cuda_try_rc_, #call, __FILE__, __LINE__); \
    } while (0)

/* The run's stream: every kernel, copy, CUB call and stream-ordered
 * allocation of the GPU backend is ordered on it (device.cu owns it). */
extern "C" cudaStream_t device_stream(void);

/* After a kernel launch: reports launch-configuration errors. */
#define CUDA_LAUNCH_TRY(err) CUDA_TRY(err, cudaGetLastError())

/* Typed wrapper over device_alloc: count elements of T. */
template <class T>
static inline int dalloc(T **ptr, size_t count, const char *what, coarsen_error *err)
{
    void *p = nullptr;
    int rc = device_alloc(&p, count * sizeof(T), what, err);
    *ptr = static_cast<T *>(p);
    return rc;
}

/* Runs a CUB device algorithm (a callable taking (void *temp, size_t &bytes))
 * twice: once to size its temporary storage, once for real. */
template <class F>
static inline int cub_run(F &&f, const char *what, coarsen_error *err)
{
    size_t bytes = 0;
    CUDA_TRY(err, f(nullptr, bytes));
    void *temp = nullptr;
    if (int rc = device_alloc(&temp, bytes, what, err))
        return rc;
    cudaError_t code = f(temp, bytes);
    device_free(temp);
    if (code != cudaSuccess)
        return device_cuda_fail(err, code, what, __FILE__, __LINE__);
    return 0;
}

/* Temporary storage of a CUB device algorithm run many times at the same
 * size (a phase loop): reserve() sizes and allocates it once, so that the
 * runs, f(p, bytes) on a stream, allocate nothing and may be captured in a
 * CUDA graph. */
struct CubScratch {
    void *p = nullptr;
    size_t bytes = 0;
    ~CubScratch() { device_free(p); }
    template <class F>
    int reserve(F &&f, const char *what, coarsen_error *err)
    {
        size_t need = 0;
        CUDA_TRY(err, f(nullptr, need));
        if (need <= bytes)
            return 0;
        device_free(p);
        p = nullptr, bytes = 0;
        if (int rc = device_alloc(&p, need, what, err))
            return rc;
        bytes = need;
        return 0;
    }
};

#endif
