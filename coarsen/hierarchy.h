/* hierarchy.h — the inside of coarsen_hierarchy (public API in
 * include/coarsen.h), shared by the builder (hierarchy.c), the file writer
 * (hierarchy_write.c) and the statistics writer (stats_json.c).
 *
 * One record per level (hierarchy_level). Ownership: level[0].host is the
 * caller's input graph (borrowed, never freed); every other graph and map
 * is owned by the hierarchy. On the GPU backend level[0].dev is the uploaded
 * input (freed once level 1 exists, or with opts.keep_input_on_device kept
 * until the budget needs its room) and the host copies of levels built on
 * the device are NULL until first downloaded. To keep the device within its
 * memory budget the builder may move a level's graph and map to the host
 * (dev / dmap NULL, host / map set): read device levels through
 * hierarchy_device_graph / _map, host ones through the public accessors. */
#ifndef COARSEN_HIERARCHY_H
#define COARSEN_HIERARCHY_H

#include "coarsen.h"
#include "matching/hec.h"
#include "matching/matching.h"
#include "matching/two_hop.h"

/* One level: its graph and map (map k takes level k-1's vertices to level
 * k's), where each copy lives, and its figures. */
typedef struct hierarchy_level {
    coarsen_graph *host;        /* host graph: level 0 the caller's (borrowed); others NULL on the GPU
                                   backend until downloaded, or when built there and not yet asked for */
    coarsen_graph *dev;         /* device graph, NULL on the CPU backend, for levels built on the host
                                   (opts.host_below) and once moved to the host */
    int32_t *map;               /* map k on the host (level 0: none), NULL until downloaded */
    int32_t *dmap;              /* map k on the device, like dev */
    coarsen_level_stats stats;
} hierarchy_level;

struct coarsen_hierarchy {
    coarsen_hierarchy_opts opts;  /* as given (callback included) */
    int levels;                   /* L: graphs 0..L */
    int on_gpu;                   /* the run's backend is the GPU (small levels may be built on the host) */
    char device_reason[256];      /* why on_gpu is what it is (exec/device_choice.h) */
    coarsen_stop_reason stop;
    int64_t stall_cap, stall_blocked; /* the cap and cap_blocked of the step that stalled (min-reduction
                                         or vertex-weight-cap; that step may not be a kept level) */
    double total_ms, transfer_ms;
    double download_ms; /* levels and maps copied to the host since the build */
    int64_t device_free_at_start; /* device_memory_free() after the input's upload (GPU backend) */
    int ranks;                    /* MPI processes that built it (dist/, stats.json's "ranks"); 0: a
                                     single-process build */
    int gpus;                     /* with ranks > 0: GPUs whose NCCL communicator carried the exchanges
                                     (dist/nccl.h, stats.json's "gpus"); 0: MPI alone */
    int distributed_levels;       /* with ranks > 0: levels 1..this were built across the ranks, the
                                     rest on rank 0 (stats.json's "distributed_levels") */
    int read_by_ranks;            /* with ranks > 0: 1 when every rank read its share of the input
                                     (dist/read.h), 0 when rank 0 read it (stats.json's "read_by_ranks") */
    double gather_ms;             /* with ranks > 0: rank 0's time gathering each distributed level's
                                     graph, map and mates (stats.json's "gather_ms") */
    int input_dev_borrowed;       /* level 0's device graph is the caller's (hierarchy_contract_input):
                                     never freed here */
    hierarchy_level *level;       /* [opts.levels + 1] */
};

/* 1 when level k's graph is on the device now (0..levels). */
int hierarchy_level_on_device(const coarsen_hierarchy *h, int k);

/* The device copy of level k's graph (0..levels) or of map k (1..levels) on
 * the GPU backend, uploaded again from the host copy when it was moved there;
 * owned by the hierarchy. */
int hierarchy_device_graph(coarsen_hierarchy *h, int k, const coarsen_graph **out, coarsen_error *err);
int hierarchy_device_map(coarsen_hierarchy *h, int k, const int32_t **out, coarsen_error *err);

/* Puts host graph g (borrowed, as coarsen_hierarchy_build's input; the
 * caller keeps it alive while h lives), and dg, its device copy when not
 * NULL (borrowed too; on a GPU hierarchy without it g is uploaded when a
 * level needs it), in place of level 0's graph and
 * replaces every level k's graph by the contraction of level k - 1's by
 * map k (contract/contract.h), on the device for the levels built there, on
 * the host for the others: h becomes g's hierarchy along the same maps. g
 * must have the vertices and vertex weights of the input h was built from
 * (the V-cycle, partition/vcycle.c, builds h on g without its cut edges).
 * The graph figures (vertices, edges, totals) are recorded again; the
 * matching figures stay the build's. */
int hierarchy_contract_input(coarsen_hierarchy *h, const coarsen_graph *g, const coarsen_graph *dg,
                             coarsen_error *err);

/* "handshake", "redblue" or "hec". */
const char *coarsen_matcher_name(coarsen_matcher m);
/* Merges of level k that are not an edge of level k-1: two-hop's leaf,
 * twin, relative and island pairs (HEC: islands paired or joined to a
 * group). */
static inline int64_t hierarchy_unjoined_pairs(const coarsen_level_stats *s)
{
    return s->leaf_pairs + s->twin_pairs + s->relative_pairs + s->island_pairs;
}

/* "weight", "expansion" or "expansion2". */
const char *coarsen_rating_name(coarsen_rating r);

/* ---- For a builder of levels outside hierarchy.c (dist/: the distributed
 * hierarchy), so that it decides, caps and stops exactly as the
 * single-process build does. */

/* Checks opts and allocates a hierarchy with no level built (CPU backend,
 * on_gpu 0) whose level 0 is g (borrowed, as in coarsen_hierarchy_build; it
 * may be NULL on a process that does not hold the graph). Level 0's figures
 * are the caller's to set. The caller owns *out (coarsen_hierarchy_free). */
int hierarchy_create(const coarsen_graph *g, const coarsen_hierarchy_opts *opts, coarsen_hierarchy **out,
                     coarsen_error *err);
/* The cap of a level built from a level of n vertices, for input weight W
 * (coarsen.h, COARSEN_VWGT_AUTO). */
int64_t hierarchy_level_cap(const coarsen_hierarchy_opts *o, int64_t total_vertex_weight, int32_t n);
/* [out] mo: the matcher options of level k built from a level of n
 * vertices (matcher, per-level seed, cap, ties, rating), as build_level
 * uses them. Needs level 0's figures. */
void hierarchy_matching_opts(const coarsen_hierarchy *h, int k, int32_t n, matching_opts *mo);
/* Two-hop's pair counts and cap_blocked [in] into a level's figures s [out]. */
void hierarchy_two_hop_figures(const two_hop_stats *t, coarsen_level_stats *s);
/* The graph figures (vertices, edges, totals) of host graph g into s, as
 * the CPU backend records them. */
int hierarchy_record_graph(const coarsen_graph *g, coarsen_level_stats *s, coarsen_error *err);
/* The matching figures of a level grouped by heavy-edge clustering (n fine
 * vertices into nc groups) from its stats hs [in] into s [out]: the pairs
 * the groups stand for, the pairs of step 4 by rule, rounds, cap-blocked. */
void hierarchy_record_hec(const hec_stats *hs, int32_t n, int32_t nc, coarsen_level_stats *s);
/* Before building level h->levels + 1: 1 when a stopping rule holds (levels,
 * coarsen-to, no edges), with h->stop set. Reads only the figures. */
int hierarchy_stop_before(coarsen_hierarchy *h);
/* After building level h->levels + 1, its figures in
 * h->level[h->levels + 1].stats (and, when kept, its graph and map stored):
 * kept 0 records the stall and returns 1; kept 1 counts the level, calls
 * opts.on_level, and returns 1 when the level removed too few vertices (the
 * stall recorded), else 0. */
int hierarchy_level_done(coarsen_hierarchy *h, int kept);
/* Builds the remaining levels on the host (CPU backend) from level
 * h->levels, whose host graph must be set, exactly as coarsen_hierarchy_build
 * goes on from there (results identical). */
int hierarchy_build_rest_cpu(coarsen_hierarchy *h, coarsen_error *err);

#endif
