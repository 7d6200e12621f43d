/* contract_gpu_memory.h — the device memory of the GPU contraction
 * (contract.cu): an upper bound on what one contract_gpu call allocates, for
 * callers that keep other data on the device (coarsen/hierarchy.c), and the
 * size of its run-numbering chunks, which tests shrink so that small graphs
 * cross many chunk borders (the output never depends on it). Not part of the
 * public interface. Accounting: docs/design-contraction.md. */
#ifndef CONTRACT_CONTRACT_GPU_MEMORY_H
#define CONTRACT_CONTRACT_GPU_MEMORY_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Default entries per run-numbering chunk (8 bytes each while numbering). */
#define CONTRACT_RUN_CHUNK ((int64_t)1 << 25)

/* Upper bound on the device bytes contract_gpu allocates (temporaries and the
 * coarse graph together, at the worst moment) to contract a graph of n
 * vertices and nnz entries, whatever the map; its inputs (the fine graph and
 * the map) are not included. */
int64_t contract_gpu_peak_bytes(int32_t n, int64_t nnz);

/* Entries per chunk for later contract_gpu calls in this process; 0 (or
 * less) restores CONTRACT_RUN_CHUNK. No effect in a build without CUDA. */
void contract_gpu_set_run_chunk(int64_t entries);

#ifdef __cplusplus
}
#endif
#endif
