/* partition.h — multilevel k-way graph partitioning on top of the coarsening
 * hierarchy: METIS on the coarsest graph (several runs, the best kept),
 * projection through the maps, and a refinement with a balance constraint at
 * every level (CPU reference and a GPU port of the same rounds, bit-
 * identical) followed on the levels of at most polish_edges edges by a
 * sequential FM polish on the host (shared by both backends), plus the
 * quality metrics.
 *
 * Parts are int32 ids 0..k-1, one per vertex. A part array is host memory
 * unless a function's name ends in _gpu, whose part arrays are device memory
 * (device/device.h) and whose graphs are device graphs (on_device = 1).
 *
 * Balance: with W the total vertex weight and wmax the heaviest vertex, the
 * cap on every part's weight is
 *     cap = max(floor((1 + imbalance) * W / k), ceil(W / k) + wmax - 1),
 * the METIS bound, loosened only when vertex weights make it unreachable
 * (the second term can always be met: partition_rebalance_cpu proves it). */
#ifndef PARTITION_PARTITION_H
#define PARTITION_PARTITION_H

#include "coarsen.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- metrics (metrics.c) ---- */

/* Sum of the weights of the edges whose ends lie in different parts. */
double partition_cut(const coarsen_graph *g, const int32_t *part);
/* weights[p] (k entries, caller-allocated) = total vertex weight of part p. */
void partition_part_weights(const coarsen_graph *g, const int32_t *part, int32_t k, int64_t *weights);
/* The cap above for g (host graph), and from W and wmax directly. */
int64_t partition_cap(const coarsen_graph *g, int32_t k, double imbalance);
int64_t partition_cap_of(int64_t total, int64_t wmax, int32_t k, double imbalance);
/* *out = max part weight / (W / k), 1 for an empty graph; 0, or
 * COARSEN_ERR_NOMEM when the k part weights cannot be allocated. */
int partition_imbalance(const coarsen_graph *g, const int32_t *part, int32_t k, double *out, coarsen_error *err);
/* 0 when every part id lies in 0..k-1; otherwise fills err naming the vertex. */
int partition_check(const coarsen_graph *g, const int32_t *part, int32_t k, coarsen_error *err);
/* Total weight of a cut in fixed point: each vertex's external weight scaled
 * by 2^s and rounded, summed in int64 (order-independent, hence identical on
 * CPU and GPU). s from partition_fixed_shift. Refinement decides on this. */
int partition_fixed_shift(double max_edge_weight, int64_t nnz);
int64_t partition_cut_fixed(const coarsen_graph *g, const int32_t *part, int shift);
/* On the device (graph and part in device memory, results on the host): the
 * part weights, and the cut as partition_cut_fixed / 2^(s+1) (each vertex's
 * external weight rounded to 2^-s; exact for integer weights). */
int partition_part_weights_gpu(const coarsen_graph *g, const int32_t *part, int32_t k, int64_t *weights,
                               coarsen_error *err);
int partition_cut_gpu(const coarsen_graph *g, const int32_t *part, double *cut, coarsen_error *err);

/* ---- METIS (metis_coarsest.c) ---- */

/* Partitions g with METIS_PartGraphKway (or METIS_PartGraphRecursive when
 * recursive), ubvec from imbalance, METIS's seed from seed. Real edge weights
 * are scaled and rounded to integers, every one to >= 1 (zero included). */
int partition_metis(const coarsen_graph *g, int32_t k, double imbalance, uint64_t seed, int recursive,
                    int32_t *part, coarsen_error *err);

/* ---- projection (project.c) ---- */

/* fine_part[v] = coarse_part[map[v]] for v < n_fine. */
void partition_project_cpu(int32_t n_fine, const int32_t *map, const int32_t *coarse_part, int32_t *fine_part);
int partition_project_gpu(int32_t n_fine, const int32_t *map, const int32_t *coarse_part, int32_t *fine_part,
                          coarsen_error *err);

/* ---- refinement (refine_cpu.c, refine.cu) ---- */

typedef struct partition_refine_stats {
    int rounds;        /* label-propagation rounds applied (the best partition may be an earlier one) */
    int64_t moves;     /* vertices moved by those rounds */
    int64_t rebalance_moves; /* vertices moved by partition_rebalance_cpu */
    int64_t polish_moves;    /* moves kept by partition_polish_cpu */
} partition_refine_stats;

/* Moves vertices out of parts heavier than cap, heaviest-excess first, each
 * time the movable vertex (weight > 0) of best gain to a part that stays
 * within cap (the lightest part when none is better). Terminates with every
 * part within cap whenever cap >= ceil(W/k) + wmax - 1. Deterministic.
 * Adds to st->rebalance_moves (st may be NULL). */
int partition_rebalance_cpu(const coarsen_graph *g, int32_t k, int64_t cap, int32_t *part,
                            partition_refine_stats *st, coarsen_error *err);

/* Boundary label propagation in synchronous rounds, Jet-style: every vertex
 * picks the adjacent part of highest connectivity (ties: lowest id) and is a
 * candidate when that gain is >= -NEGATIVE_GAIN * its own-part connectivity;
 * an afterburner recomputes each candidate's gain assuming candidates of
 * higher priority (gain, then lower id) move, and keeps the positive ones;
 * moves are admitted into each part by priority (gain descending, then id)
 * while it stays within cap (repeated until stable), so a balanced input
 * stays balanced. Rounds stop after PATIENCE rounds without a new lowest
 * fixed-point cut, after max_rounds, or when nothing moves; the partition of
 * lowest cut is returned, so the cut never grows. The GPU version runs the
 * same rounds: same output bit for bit. */
#define PARTITION_REFINE_NEGATIVE_GAIN 0.25
#define PARTITION_REFINE_PATIENCE 3
int partition_refine_cpu(const coarsen_graph *g, int32_t k, int64_t cap, int max_rounds, int32_t *part,
                         partition_refine_stats *st, coarsen_error *err);
int partition_refine_gpu(const coarsen_graph *g, int32_t k, int64_t cap, int max_rounds, int32_t *part,
                         partition_refine_stats *st, coarsen_error *err);

/* Sequential boundary FM polish on the host (polish_fm.c), run after the
 * label propagation by both backends on the same host data, hence the same
 * result: passes of Fiduccia-Mattheyses over the boundary, each moving the
 * vertex of highest gain (ties: lowest id) to its adjacent part of highest
 * connectivity among those that stay within cap (ties: lowest id), each
 * vertex at most once per pass, negative gains allowed, until
 * PARTITION_POLISH_STALL moves in a row bring no new lowest cut; the pass is
 * then rolled back to its lowest cut. At most PARTITION_POLISH_PASSES passes,
 * fewer when one keeps nothing. The cut never grows, balance within cap is
 * kept. weights (k entries): the part weights of part on entry, updated.
 * boundary (nb ids, any order) lists at least every vertex with a neighbour
 * in another part; NULL: found by a scan of g. Work: the boundary and the
 * neighbourhoods of the moves, plus that scan when boundary is NULL. */
#define PARTITION_POLISH_STALL 256
#define PARTITION_POLISH_PASSES 8
int partition_polish_cpu(const coarsen_graph *g, int32_t k, int64_t cap, int32_t *part, int64_t *weights,
                         const int32_t *boundary, int32_t nb, partition_refine_stats *st, coarsen_error *err);
/* The multilevel driver's default partition_opts.polish_edges: it polishes
 * the levels of at most this many undirected edges (graphs cheap enough to
 * have on the host when they live on the device: at most ~50 MB to download;
 * 2^18 until issue 15, which left the finest levels of mdual and copter2
 * unpolished). */
#define PARTITION_POLISH_HOST_EDGES (1 << 21)
/* The vertices of device graph g with a neighbour in another part (part:
 * device memory), in increasing order, into *boundary (host memory, malloc'd,
 * the caller frees; NULL when *nb = 0). */
int partition_boundary_gpu(const coarsen_graph *g, const int32_t *part, int32_t **boundary, int32_t *nb,
                           coarsen_error *err);

/* ---- multilevel driver (multilevel.c) ---- */

/* The METIS runs on the coarsest graph (partition_opts.recursive): k-way and
 * recursive bisection (default), or one kind only. */
#define PARTITION_INITIAL_BOTH 0
#define PARTITION_INITIAL_RB 1
#define PARTITION_INITIAL_KWAY 2
/* METIS runs of each kind by default: k-way PARTITION_METIS_TRIES times for
 * k <= PARTITION_METIS_TRIES_MAX_K (coarsest graphs of about 400 vertices, a
 * run of a few ms at most), once above (k = 64: 20-45 ms a run on 2500
 * vertices here); recursive bisection PARTITION_RB_TRIES times (3-5 times
 * cheaper than k-way at k = 64). */
#define PARTITION_METIS_TRIES 4
#define PARTITION_METIS_TRIES_MAX_K 8
#define PARTITION_RB_TRIES 4
/* The V-cycles run on graphs of at most this many undirected edges (their
 * inner graph, carrying down and polish are host work, and the polish covers
 * only levels of at most PARTITION_POLISH_HOST_EDGES edges). */
#define PARTITION_VCYCLE_MAX_EDGES (1 << 21)

/* Whole multilevel runs (hierarchy, coarsest level, refinement, V-cycles) by
 * default, each with its own seed, the lowest cut kept: PARTITION_RESTARTS for
 * k <= PARTITION_RESTART_MAX_K on graphs of at most
 * PARTITION_RESTART_MAX_EDGES undirected edges, where a run takes a few tens
 * of ms at most here and its cut varies most from seed to seed; one
 * otherwise (at k = 64 the coarsest level's runs cost more and the cut is
 * already below the others': docs/benchmarks.md, cut2 branch). */
#define PARTITION_RESTARTS 3
#define PARTITION_RESTART_MAX_EDGES (1 << 16)
#define PARTITION_RESTART_MAX_K 8

typedef struct partition_opts {
    int32_t k;
    double imbalance;              /* default 0.03 */
    uint64_t seed;
    int recursive;                 /* the METIS runs on the coarsest graph: PARTITION_INITIAL_BOTH (default),
                                      _RB (recursive bisection only) or _KWAY (k-way only) */
    int max_rounds;                /* refinement rounds per level (default 16) */
    int64_t polish_edges;          /* FM polish (partition_polish_cpu) at the levels of at most this many
                                      edges, on both backends (default PARTITION_POLISH_HOST_EDGES; < 0: none) */
    int metis_tries;               /* METIS runs of each kind on the coarsest graph (seeds seed, seed + 1,
                                      ...), each refined there, the lowest refined cut kept; 0 (default):
                                      k-way PARTITION_METIS_TRIES times for k <= PARTITION_METIS_TRIES_MAX_K
                                      (a small k depends most on the start), once otherwise; recursive
                                      bisection PARTITION_RB_TRIES times */
    int vcycles;                   /* V-cycles (partition_vcycle) after the first cycle, on its backend,
                                      each from the previous result with seed + cycle number, on graphs
                                      of at most PARTITION_VCYCLE_MAX_EDGES edges (default 1) */
    int restarts;                  /* whole runs, seeds seed + i x 0x9E3779B97F4A7C15, the lowest cut kept;
                                      0 (default): PARTITION_RESTARTS for k <= PARTITION_RESTART_MAX_K on
                                      graphs of at most PARTITION_RESTART_MAX_EDGES edges, 1 otherwise */
    coarsen_hierarchy_opts hierarchy; /* device, matcher, ...; default 100 levels, and coarsen_to
                                        0: max(40 k, 400); the seed is replaced by seed */
    /* What builds the first cycle's hierarchy (of every restart): NULL (default) is
     * coarsen_hierarchy_build; any other builder must keep its contract
     * (host graph g borrowed as level 0, *out owned by the caller) and give
     * the same hierarchy, whose levels the partitioner then reads through
     * the public accessors (coarsen-mpi passes the distributed builder,
     * dist/dist.h). The V-cycles' hierarchies use coarsen_hierarchy_build. */
    int (*build_hierarchy)(const coarsen_graph *g, const coarsen_hierarchy_opts *opts, coarsen_hierarchy **out,
                           coarsen_error *err);
} partition_opts;

void partition_opts_default(partition_opts *o);

typedef struct partition_level_report {
    int32_t vertices;
    double cut_projected;   /* cut right after projection (= coarser level's final cut) */
    double cut_rebalanced;  /* after the rebalancing step (= cut_projected when none was needed) */
    double cut_refined;     /* after refinement */
    partition_refine_stats st;
} partition_level_report;

typedef struct partition_result {
    double cut, imbalance;
    int64_t cap;
    int levels;                      /* hierarchy levels L */
    partition_level_report *level;   /* [L + 1], level[L] = coarsest (METIS); owned, free with partition_result_free */
    double coarsen_ms, initial_ms, refine_ms, total_ms;
    double polish_ms;                /* the part of refine_ms in partition_polish_cpu (and its transfers) */
    int vcycles;                     /* V-cycles run after the first cycle (0 when skipped) */
    int restarts;                    /* whole runs made; the report is the kept run's, total_ms all of them */
    double vcycle_ms;                /* the part of refine_ms in them */
    partition_refine_stats vcycle_st; /* what the V-cycles' refinement did */
    int on_gpu;
    int ranks;                       /* processes that built the first hierarchy (0: one process, the
                                        default builder; coarsen_hierarchy's "ranks" in stats.json) */
    int distributed_levels;          /* with ranks > 0: levels 1..this were built across them */
} partition_result;

/* Partitions host graph g into part (g->n entries, caller-allocated). */
int partition_multilevel(const coarsen_graph *g, const partition_opts *o, int32_t *part, partition_result *res,
                         coarsen_error *err);
void partition_result_free(partition_result *res);

/* ---- the way up a hierarchy (uncoarsen.c) ---- */

/* Rebalances (partition_rebalance_cpu, when a part exceeds the level's cap),
 * refines (partition_refine_cpu / _gpu) and polishes (partition_polish_cpu,
 * at most o->polish_edges edges) level lv of h: part is host memory when dg
 * is NULL (the level's host graph is used), device memory when dg, the
 * level's device graph, is given; both give the same part. Fills *r (its st
 * counts added to) and adds the polish time to *polish_ms. projected: the cut
 * of part when known (>= 0), else -1. */
int partition_refine_level(coarsen_hierarchy *h, int lv, const coarsen_graph *dg, const partition_opts *o,
                           int32_t *part, double projected, partition_level_report *r, double *polish_ms,
                           coarsen_error *err);
/* From the partition of h's coarsest level L (coarse, host memory, refined
 * there, its report in rep[L]) up to level 0: at each level the projection
 * and partition_refine_level, on the device for a GPU hierarchy (the part
 * array stays there between levels), on the host otherwise. rep: L + 1
 * reports, levels 0..L-1 filled; part [out]: level 0's partition (host, n of
 * level 0 entries); coarse and fine: host scratch of level 0's n + 1 entries
 * each (coarse's contents are lost). Adds the polish time to *polish_ms. */
int partition_uncoarsen(coarsen_hierarchy *h, const partition_opts *o, int32_t *coarse, int32_t *fine,
                        int32_t *part, partition_level_report *rep, double *polish_ms, coarsen_error *err);

/* ---- iterated V-cycle (vcycle.c) ---- */

/* One more multilevel cycle from part (host memory, g a host graph; dg: a
 * device copy of g the V-cycle may borrow on the GPU, or NULL): g without
 * its cut edges is coarsened (hierarchy options of o, its device
 * included, seed seed), so coarse vertices stay inside one part (isolated
 * vertices may still be paired across parts), g itself is contracted by the
 * same maps (hierarchy_contract_input), the partition carried down (a coarse
 * vertex takes its last member's part), refined at the coarsest level and
 * taken back up by partition_uncoarsen: on the device when the hierarchy is
 * built there, with the same result as on the host. part is replaced only
 * when the result cuts less, so the cut never grows; every part of the
 * result is within the cap of g. Adds to st's counts. */
int partition_vcycle(const coarsen_graph *g, const coarsen_graph *dg, const partition_opts *o, uint64_t seed,
                     int32_t *part, partition_refine_stats *st, coarsen_error *err);

#ifdef __cplusplus
}
#endif
#endif
