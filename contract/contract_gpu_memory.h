/* contract_gpu_memory.h — the device memory and the paths of the GPU
 * contraction (contract.cu): upper bounds on what one contract_gpu call
 * takes from the device workspace and allocates, for callers that keep other data on the device
 * (coarsen/hierarchy.c), and the thresholds that send each coarse row to a
 * team, a warp's hash table or the segmented sort, which tests set so that
 * every path meets every shape and the benchmark sets to measure them (the
 * output never depends on them). Not part of the public interface.
 * Accounting: docs/design-contraction.md. */
#ifndef CONTRACT_CONTRACT_GPU_MEMORY_H
#define CONTRACT_CONTRACT_GPU_MEMORY_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Upper bounds for a graph of n vertices and nnz entries, whatever the map;
 * its inputs (the fine graph and the map) not included. The contraction's
 * temporaries all live in the device workspace (device/device.h): the main
 * buffer, at most contract_gpu_rows_bytes, and for rows above hash_max the
 * nested one; contract_gpu_workspace_bytes bounds both together.
 * contract_gpu_peak_bytes bounds what one contract_gpu call allocates when
 * the workspace starts empty: that and the coarse graph, its one allocation
 * of its own. */
int64_t contract_gpu_rows_bytes(int32_t n, int64_t nnz);
int64_t contract_gpu_workspace_bytes(int32_t n, int64_t nnz);
int64_t contract_gpu_peak_bytes(int32_t n, int64_t nnz);

/* Paths of later contract_gpu calls in this process, by a coarse row's bound
 * B (its members' fine entries): B <= team (8, 16 or 32 lanes; any other
 * value: chosen per level from the mean bound) goes to a team, B <= hash_max
 * to one warp's hash table, larger rows to the segmented sort. hash_max is
 * capped at the table's capacity (128); a negative value restores the
 * default (the cap), 0 sorts every row. No effect in a build without CUDA. */
void contract_gpu_set_paths(int team, int64_t hash_max);

#ifdef __cplusplus
}
#endif
#endif
