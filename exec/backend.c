/* backend.c — the CPU and GPU execution backends (backend.h): two tables of
 * entry points, plus the few adapters that give the host functions the
 * common signatures (allocation, a no-op wait, a cut and a projection that
 * cannot fail). */
#include "exec/backend.h"

#include <stdlib.h>

#include "contract/contract.h"
#include "core/error.h"
#include "device/device.h"

static int32_t *host_ints(int32_t n, const char *what, coarsen_error *err)
{
    return xmalloc((size_t)n * sizeof(int32_t), what, err);
}

static void host_free(int32_t *p) { free(p); }

static int host_sync(coarsen_error *err)
{
    (void)err;
    return COARSEN_OK;
}

static int host_cut(const coarsen_graph *g, const int32_t *part, double *cut, coarsen_error *err)
{
    (void)err;
    *cut = partition_cut(g, part);
    return COARSEN_OK;
}

static int host_project(int32_t n_fine, const int32_t *map, const int32_t *coarse_part, int32_t *fine_part,
                        coarsen_error *err)
{
    (void)err;
    partition_project_cpu(n_fine, map, coarse_part, fine_part);
    return COARSEN_OK;
}

static int32_t *device_ints(int32_t n, const char *what, coarsen_error *err)
{
    void *p = NULL;
    return device_alloc(&p, (size_t)n * sizeof(int32_t), what, err) ? NULL : p;
}

static void device_ints_free(int32_t *p) { device_free(p); }

static const exec_backend cpu = {
    .name = "cpu", .gpu = 0, .ints_alloc = host_ints, .ints_free = host_free, .sync = host_sync,
    .match = match_cpu, .refine = roma_replay_cpu, .refine_complete = roma_complete_replay_cpu, .measure = match_measure_cpu, .two_hop = two_hop_cpu,
    .hec = hec_cpu,
    .map_from_mates = contract_map_from_mates_cpu, .contract = contract_cpu, .totals = graph_totals_cpu,
    .part_cut = host_cut, .project = host_project, .refine_parts = partition_refine_cpu,
};

static const exec_backend gpu = {
    .name = "gpu", .gpu = 1, .ints_alloc = device_ints, .ints_free = device_ints_free,
    .sync = device_synchronize, .match = match_gpu, .refine = roma_gpu, .refine_complete = roma_complete_gpu,
    .measure = match_measure_gpu,
    .two_hop = two_hop_gpu, .hec = hec_gpu, .map_from_mates = contract_map_from_mates_gpu, .contract = contract_gpu,
    .totals = graph_totals_gpu, .part_cut = partition_cut_gpu, .project = partition_project_gpu,
    .refine_parts = partition_refine_gpu,
};

const exec_backend *exec_backend_cpu(void) { return &cpu; }
const exec_backend *exec_backend_gpu(void) { return &gpu; }
const exec_backend *exec_backend_of(int use_gpu) { return use_gpu ? &gpu : &cpu; }
