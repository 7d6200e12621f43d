/* hierarchy.h — the inside of coarsen_hierarchy (public API in
 * include/coarsen.h), shared by the builder (hierarchy.c), the file writer
 * (hierarchy_write.c) and the statistics writer (stats_json.c).
 *
 * Ownership: host[0] is the caller's input graph (borrowed, never freed);
 * every other host[k], map[k], and on the GPU every dev[k] and dmap[k], is
 * owned by the hierarchy. On the GPU backend dev[0] is the uploaded input
 * (freed once level 1 exists, or with opts.keep_input_on_device kept until
 * the budget needs its room) and host[k] / map[k] (k >= 1) are NULL until
 * first downloaded. To keep the device within its memory budget the builder
 * may move a level's graph and map to the host (dev[k] / dmap[k] NULL, host[k]
 * / map[k] set): read device levels through hierarchy_device_graph / _map. */
#ifndef COARSEN_HIERARCHY_H
#define COARSEN_HIERARCHY_H

#include "coarsen.h"

struct coarsen_hierarchy {
    coarsen_hierarchy_opts opts;  /* as given (callback included) */
    int64_t vertex_weight_cap;    /* resolved cap passed to the matcher and two-hop (0 = none) */
    int levels;                   /* L: graphs 0..L */
    int on_gpu;
    char device_reason[256];      /* why on_gpu is what it is (exec/device_choice.h) */
    coarsen_stop_reason stop;
    double total_ms, transfer_ms;
    double download_ms; /* levels and maps copied to the host since the build */
    int64_t device_free_at_start; /* device_memory_free() after the input's upload (GPU backend) */
    coarsen_graph **host;         /* [opts.levels + 1] */
    coarsen_graph **dev;          /* [opts.levels + 1], NULL on the CPU backend */
    int32_t **map;                /* [opts.levels + 1], map[0] unused */
    int32_t **dmap;               /* [opts.levels + 1], NULL on the CPU backend */
    coarsen_level_stats *stats;   /* [opts.levels + 1] */
};

/* The device copy of level k's graph (0..levels) or of map k (1..levels) on
 * the GPU backend, uploaded again from the host copy when it was moved there;
 * owned by the hierarchy. */
int hierarchy_device_graph(coarsen_hierarchy *h, int k, const coarsen_graph **out, coarsen_error *err);
int hierarchy_device_map(coarsen_hierarchy *h, int k, const int32_t **out, coarsen_error *err);

/* "handshake" or "redblue". */
const char *coarsen_matcher_name(coarsen_matcher m);

#endif
