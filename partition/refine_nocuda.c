/* refine_nocuda.c — the GPU entry points of partition/ in a build without
 * CUDA: each fails with COARSEN_ERR_DEVICE. */
#include "core/error.h"
#include "partition/partition.h"

static int no_cuda(coarsen_error *err)
{
    return error_set(err, COARSEN_ERR_DEVICE, "partition: built without CUDA");
}

int partition_project_gpu(int32_t n_fine, const int32_t *map, const int32_t *coarse_part, int32_t *fine_part,
                          coarsen_error *err)
{
    (void)n_fine, (void)map, (void)coarse_part, (void)fine_part;
    return no_cuda(err);
}

int partition_part_weights_gpu(const coarsen_graph *g, const int32_t *part, int32_t k, int64_t *weights,
                               coarsen_error *err)
{
    (void)g, (void)part, (void)k, (void)weights;
    return no_cuda(err);
}

int partition_cut_gpu(const coarsen_graph *g, const int32_t *part, double *cut, coarsen_error *err)
{
    (void)g, (void)part, (void)cut;
    return no_cuda(err);
}

int partition_refine_gpu(const coarsen_graph *g, int32_t k, int64_t cap, int max_rounds, int32_t *part,
                         partition_refine_stats *st, coarsen_error *err)
{
    (void)g, (void)k, (void)cap, (void)max_rounds, (void)part, (void)st;
    return no_cuda(err);
}

int partition_boundary_gpu(const coarsen_graph *g, const int32_t *part, int32_t **boundary, int32_t *nb,
                           coarsen_error *err)
{
    (void)g, (void)part;
    *boundary = NULL;
    *nb = 0;
    return no_cuda(err);
}
