/* contract_chunk.h — the size of the GPU contraction's run-numbering chunks
 * (contract.cu numbers the sorted entries chunk by chunk to bound its
 * memory). Tests shrink it so that small graphs cross many chunk borders;
 * the output never depends on it. Not part of the public interface. */
#ifndef CONTRACT_CONTRACT_CHUNK_H
#define CONTRACT_CONTRACT_CHUNK_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Entries per chunk for later contract_gpu calls in this process; 0 (or
 * less) restores the default. No effect in a build without CUDA. */
void contract_gpu_set_run_chunk(int64_t entries);

#ifdef __cplusplus
}
#endif
#endif
