/* project.c — carrying a partition of level k down to level k-1 through the
 * hierarchy's map (the GPU version lives in refine.cu). */
#include "partition/partition.h"

#include "core/threads.h"

void partition_project_cpu(int32_t n_fine, const int32_t *map, const int32_t *coarse_part, int32_t *fine_part)
{
#pragma omp parallel for schedule(static) if (n_fine >= THREADS_PARALLEL_MIN)
    for (int32_t v = 0; v < n_fine; v++)
        fine_part[v] = coarse_part[map[v]];
}
