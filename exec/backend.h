/* backend.h — the execution backend: where a run's work happens and every
 * phase entry point of the pipeline (matching, ROMA refinement, two-hop,
 * heavy-edge clustering, map, contraction, totals) and of the partitioner (cut, projection,
 * refinement), chosen once per run (exec/device_choice.h says which) and
 * passed to whatever runs a phase, as METIS passes its ctrl_t. The hierarchy
 * (coarsen/hierarchy.c) and the partitioner (partition/multilevel.c) reach
 * the algorithms only through it.
 *
 * Residence: the CPU backend's entries take host graphs and host arrays;
 * the GPU backend's take device graphs (on_device = 1) and device arrays and
 * leave their results on the device (only counts cross to the host). Both
 * give identical results bit for bit. Each entry has the contract of the
 * function it points to (matching/matching.h, matching/roma.h,
 * matching/two_hop.h, matching/hec.h, contract/contract.h, coarsen/graph_totals.h,
 * partition/partition.h). In a build without CUDA the GPU backend exists,
 * and each of its entries fails with COARSEN_ERR_DEVICE (exec/gpu_nocuda.c). */
#ifndef EXEC_BACKEND_H
#define EXEC_BACKEND_H

#include "coarsen.h"
#include "coarsen/graph_totals.h"
#include "matching/hec.h"
#include "matching/matching.h"
#include "matching/roma.h"
#include "matching/roma_complete.h"
#include "matching/two_hop.h"
#include "partition/partition.h"

typedef struct exec_backend {
    const char *name; /* "cpu" or "gpu" */
    int gpu;          /* 1: device residence */
    /* int32_t arrays where the backend computes (host or device memory); the
     * caller owns them and frees them with ints_free (NULL allowed) */
    int32_t *(*ints_alloc)(int32_t n, const char *what, coarsen_error *err);
    void (*ints_free)(int32_t *p);
    /* returns once the work queued so far is done (CPU: at once) */
    int (*sync)(coarsen_error *err);
    /* the pipeline */
    int (*match)(const coarsen_graph *, const matching_opts *, int32_t *mate, int32_t *strongest,
                 matching_stats *, coarsen_error *);
    int (*refine)(const coarsen_graph *, const roma_opts *, int32_t *mate, roma_stats *, coarsen_error *);
    /* ROMA on a complete graph of n x n dense weights (matching/roma_complete.h) */
    int (*refine_complete)(int32_t n, const float *w, const roma_opts *, int32_t *mate, roma_stats *,
                           coarsen_error *);
    int (*measure)(const coarsen_graph *, const int32_t *mate, matching_stats *, coarsen_error *);
    int (*two_hop)(const coarsen_graph *, const two_hop_opts *, int32_t *mate, two_hop_stats *, coarsen_error *);
    /* heavy-edge clustering: the coarse map directly (matching/hec.h) */
    int (*hec)(const coarsen_graph *, const matching_opts *, int32_t *cmap, int32_t *nc, hec_stats *,
               coarsen_error *);
    int (*map_from_mates)(int32_t n, const int32_t *mate, int32_t *cmap, int32_t *nc, coarsen_error *);
    int (*contract)(const coarsen_graph *, const int32_t *cmap, int32_t nc, coarsen_graph **out, coarsen_error *);
    int (*totals)(const coarsen_graph *, graph_totals *, coarsen_error *);
    /* the partitioner */
    int (*part_cut)(const coarsen_graph *, const int32_t *part, double *cut, coarsen_error *);
    int (*project)(int32_t n_fine, const int32_t *map, const int32_t *coarse_part, int32_t *fine_part,
                   coarsen_error *);
    int (*refine_parts)(const coarsen_graph *, int32_t k, int64_t cap, int max_rounds, int32_t *part,
                        partition_refine_stats *, coarsen_error *);
} exec_backend;

/* The two backends (static objects, never freed). */
const exec_backend *exec_backend_cpu(void);
const exec_backend *exec_backend_gpu(void);
/* exec_backend_gpu() when gpu is nonzero, else exec_backend_cpu(). */
const exec_backend *exec_backend_of(int gpu);

#endif
