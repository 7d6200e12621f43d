/* cuda_check.cuh — checked CUDA calls and typed device allocation for .cu
 * files. Every CUDA runtime call and kernel launch in the project goes
 * through CUDA_TRY, whose message names the call, file and line. */
#ifndef DEVICE_CUDA_CHECK_CUH
#define DEVICE_CUDA_CHECK_CUH

#include <cuda_runtime.h>

#include <string.h>

#include "core/error.h"
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
 * allocation of the GPU backend is ordered on it (device.cu makes it when
 * the device is first used and owns it; the null stream before that). No
 * project code issues work on the legacy default stream: pass
 * device_stream() to every launch (<<<grid, block, shared, device_stream()>>>),
 * CUB call and cuda*Async call. */
extern "C" cudaStream_t device_stream(void);

/* cudaMemcpy on the run's stream: returns when the copy is complete. */
static inline cudaError_t stream_copy(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind)
{
    cudaError_t rc = cudaMemcpyAsync(dst, src, bytes, kind, device_stream());
    return rc != cudaSuccess ? rc : cudaStreamSynchronize(device_stream());
}

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

/* A phase's temporaries in the device workspace (device.h's contract): the
 * phase names every array with take() and sizes its CUB calls with
 * size_cub() (the size queries, null storage; one region serves them all,
 * as they run one after the other on the run's stream), then carve() takes
 * the workspace, grown if needed, and sets every pointer (256-byte aligned).
 * run_cub() runs a sized CUB call in that region. The phase holds the
 * workspace until this object dies: it lives as long as the phase, and no
 * other phase's may be carved meanwhile. Nothing is freed. */
class Workspace {
  public:
    Workspace() = default;
    Workspace(const Workspace &) = delete;
    Workspace &operator=(const Workspace &) = delete;
    ~Workspace()
    {
        if (held_)
            device_workspace_give();
    }
    template <class T>
    void take(T **p, size_t count)
    {
        add(p, count * sizeof(T));
    }
    template <class F>
    int size_cub(F &&f, coarsen_error *err)
    {
        size_t bytes = 0;
        CUDA_TRY(err, f(nullptr, bytes));
        cub_bytes_ = bytes > cub_bytes_ ? bytes : cub_bytes_;
        return COARSEN_OK;
    }
    int carve(const char *what, coarsen_error *err)
    {
        if (items_ > MAX_ITEMS)
            return error_set(err, COARSEN_ERR_DEVICE, "%s: more than %d workspace arrays", what, MAX_ITEMS);
        void **cub = &cub_temp_;
        add(cub, cub_bytes_);
        char *base = nullptr;
        if (int rc = device_workspace_take(need_, (void **)&base, what, err))
            return rc;
        held_ = true;
        for (int i = 0; i < items_; i++) {
            char *at = base + off_[i];
            memcpy(slot_[i], &at, sizeof at); /* a T * written as its bytes */
        }
        return COARSEN_OK;
    }
    template <class F>
    int run_cub(F &&f, const char *what, coarsen_error *err)
    {
        size_t bytes = 0;
        CUDA_TRY(err, f(nullptr, bytes));
        if (bytes > cub_bytes_)
            return error_set(err, COARSEN_ERR_DEVICE, "%s needs %zu bytes of CUB storage, its phase sized %zu", what,
                             bytes, cub_bytes_);
        bytes = cub_bytes_;
        cudaError_t code = f(cub_temp_, bytes);
        return code == cudaSuccess ? COARSEN_OK : device_cuda_fail(err, code, what, __FILE__, __LINE__);
    }

  private:
    static constexpr int MAX_ITEMS = 31; /* the phase's arrays, plus the CUB region */
    void *slot_[MAX_ITEMS + 1];
    size_t off_[MAX_ITEMS + 1];
    int items_ = 0;
    size_t need_ = 0, cub_bytes_ = 0;
    void *cub_temp_ = nullptr;
    bool held_ = false;
    template <class T>
    void add(T **p, size_t bytes)
    {
        *p = nullptr;
        if (items_ <= MAX_ITEMS) {
            need_ = (need_ + 255) / 256 * 256;
            slot_[items_] = (void *)p;
            off_[items_] = need_;
            need_ += bytes;
        }
        items_++;
    }
};

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
