/* device_nocuda.c — the device layer of a build without CUDA: no GPU is
 * ever usable, and every device operation fails with a clear message. */
#include "device/device.h"
#include "core/error.h"

int device_unavailable(coarsen_error *err)
{
    return error_set(err, COARSEN_ERR_DEVICE, "this coarsen was built without CUDA (no nvcc at build time)");
}

int device_built_with_cuda(void) { return 0; }
void device_preinit(void) {}
int device_gpu_count(void) { return 0; }
const char *device_name(void) { return "cpu"; }
size_t device_peak_bytes(void) { return 0; }
size_t device_used_bytes(void) { return 0; }
size_t device_allocations(void) { return 0; }
size_t device_memory_free(void) { return 0; }
void device_reset_peak(void) {}
void device_free(void *ptr) { (void)ptr; }
void device_workspace_give(void) {}
size_t device_workspace_bytes(void) { return 0; }
void device_workspace_release(void) {}

int device_workspace_take(size_t bytes, void **ptr, const char *what, coarsen_error *err)
{
    (void)bytes, (void)what;
    *ptr = NULL;
    return device_unavailable(err);
}

int device_workspace_reserve(size_t bytes, const char *what, coarsen_error *err)
{
    (void)bytes, (void)what;
    return device_unavailable(err);
}

int device_select(device_mode mode, int *use_gpu, coarsen_error *err)
{
    *use_gpu = 0;
    return mode == DEVICE_GPU ? device_unavailable(err) : COARSEN_OK;
}

int device_alloc(void **ptr, size_t bytes, const char *what, coarsen_error *err)
{
    (void)bytes, (void)what;
    *ptr = NULL;
    return device_unavailable(err);
}

int device_copy_to_device(void *dst, const void *src, size_t bytes, coarsen_error *err)
{
    (void)dst, (void)src, (void)bytes;
    return device_unavailable(err);
}

int device_copy_to_host(void *dst, const void *src, size_t bytes, coarsen_error *err)
{
    (void)dst, (void)src, (void)bytes;
    return device_unavailable(err);
}

int device_upload_via(void *dst, const void *src, size_t bytes, device_copy_path path, coarsen_error *err)
{
    (void)path;
    return device_copy_to_device(dst, src, bytes, err);
}

int device_download_via(void *dst, const void *src, size_t bytes, device_copy_path path, coarsen_error *err)
{
    (void)path;
    return device_copy_to_host(dst, src, bytes, err);
}

int device_transfer_prepare(coarsen_error *err) { return device_unavailable(err); }

int device_host_alloc(void **ptr, size_t bytes, const char *what, coarsen_error *err)
{
    (void)bytes, (void)what;
    *ptr = NULL;
    return device_unavailable(err);
}

void device_host_free(void *ptr) { (void)ptr; }

int device_synchronize(coarsen_error *err) { return device_unavailable(err); }

int device_graph_alloc(int32_t n, int64_t nnz, coarsen_graph **out, coarsen_error *err)
{
    (void)n, (void)nnz;
    *out = NULL;
    return device_unavailable(err);
}

int device_graph_upload(const coarsen_graph *host, coarsen_graph **out, coarsen_error *err)
{
    (void)host;
    *out = NULL;
    return device_unavailable(err);
}

int device_graph_download(const coarsen_graph *dev, coarsen_graph **out, coarsen_error *err)
{
    (void)dev;
    *out = NULL;
    return device_unavailable(err);
}
