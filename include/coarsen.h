/* coarsen.h — the public C API of libcoarsen: the graph type, error reporting,
 * loading and writing graphs, and building a coarsening hierarchy.
 *
 * Conventions (every module follows them):
 *  - Vertex ids are int32_t (0-based); edge offsets and counts are int64_t.
 *  - Edge weights are double: integer weights stay exact through any number of
 *    levels as long as every sum stays below 2^53; vertex weights are int64_t.
 *  - Functions that can fail return 0 on success and a non-zero coarsen_status
 *    on failure, with a one-line message in the caller's coarsen_error.
 *  - Memory: whoever receives a coarsen_graph* from an *_alloc / *_load /
 *    hierarchy call owns it and releases it with the matching *_free call.
 */
#ifndef COARSEN_H
#define COARSEN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define COARSEN_VERSION "0.1.0"

typedef enum coarsen_status {
    COARSEN_OK = 0,
    COARSEN_ERR_INPUT = 2,   /* malformed input file or bad option value (the program exits 3) */
    COARSEN_ERR_NOMEM = 3,   /* an allocation failed or would exceed limits (exits 5) */
    COARSEN_ERR_DEVICE = 4,  /* a CUDA call failed or no GPU is usable (exits 6) */
    COARSEN_ERR_IO = 5,      /* the operating system refused a read or write (exits 4) */
    COARSEN_ERR_INTERRUPTED = 6 /* SIGINT or SIGTERM asked the run to stop (the program exits 128 + signal) */
} coarsen_status;

/* One line, no trailing newline, e.g. "graph.mtx:12: index 0 out of range".
 * status holds a coarsen_status; it is an int so that `coarsen_error err =
 * {0};` is valid C and C++ alike (the header compiles as both). */
typedef struct coarsen_error {
    int status;
    char msg[1024];
} coarsen_error;

/* Undirected graph in CSR form. Every undirected edge {u,v} appears twice
 * (v in u's row and u in v's row) with equal weights; rows are sorted by
 * neighbour id, without duplicates or self-loops.
 * When on_device is 0 the arrays are host memory from malloc; when it is 1
 * they are device memory owned by the device layer (device/device.h), and
 * host code must not dereference them. */
typedef struct coarsen_graph {
    int32_t n;             /* vertices */
    int64_t nnz;           /* adjacency entries = 2 * undirected edges */
    int64_t *xadj;         /* n + 1 row offsets, xadj[0] = 0, xadj[n] = nnz */
    int32_t *adj;          /* nnz neighbour ids */
    double *ewgt;          /* nnz edge weights (>= 0) */
    int64_t *vwgt;         /* n vertex weights (>= 0) */
    int integral_weights;  /* 1 when every edge weight is an integer */
    int on_device;         /* 0: host arrays, 1: device arrays */
} coarsen_graph;

/* Allocates a host graph with room for n vertices and nnz entries; arrays are
 * uninitialised except xadj[0] = 0. Returns NULL (and sets err) on failure. */
coarsen_graph *coarsen_graph_alloc(int32_t n, int64_t nnz, coarsen_error *err);
/* Frees a host or device graph and its arrays; NULL is allowed. */
void coarsen_graph_free(coarsen_graph *g);
/* Checks every CSR invariant above on a host graph; 0 when all hold. */
int coarsen_graph_check(const coarsen_graph *g, coarsen_error *err);

/* What a reader did to the input on its way to a graph (for `coarsen info`). */
typedef struct coarsen_read_report {
    char format[64];         /* e.g. "matrix market coordinate real symmetric" */
    int64_t entries;         /* entries / adjacency entries as stored */
    int64_t diagonal_dropped;/* self-loops / diagonal entries dropped */
    int64_t duplicates_merged;
    int64_t zero_weight_edges;
    int complex_magnitude;   /* 1 when complex values were replaced by |z| */
    int extra_constraints;   /* METIS ncon - 1 constraints ignored */
    int64_t bytes;           /* uncompressed bytes read */
    double inflate_ms;       /* gzip: inflating time (the streaming thread's overlaps parsing; indexed
                                members inflate on all threads before parsing) */
    double parse_ms;         /* text to entries or rows (wall, inflating included when overlapped) */
    double build_ms;         /* entries or rows to the checked CSR graph */
} coarsen_read_report;

/* Reads a Matrix Market, METIS or ParHIP binary graph (detected from content,
 * or a .parhip/.bgf name; gzip by magic bytes; "-" is standard input). report may be NULL. The caller owns *out. */
int coarsen_graph_load(const char *path, coarsen_graph **out,
                       coarsen_read_report *report, coarsen_error *err);

typedef enum coarsen_format { COARSEN_FORMAT_METIS = 0, COARSEN_FORMAT_MTX = 1, COARSEN_FORMAT_PARHIP = 2 } coarsen_format;
/* weight_scale value of coarsen_graph_write: every edge weight written as 1
 * (real, zero or huge weights into METIS or ParHIP, which hold integers >= 1). */
#define COARSEN_WEIGHT_UNIT (-1.0)
/* Writes a host graph; gzip when path ends in ".gz". Written to a temporary
 * name and renamed, so a failure leaves no partial file. PARHIP is the binary
 * layout of KaHIP's ParHIP and KaMinPar with 64-bit words (docs/formats.md).
 * weight_scale > 0 multiplies real weights before rounding for METIS and
 * ParHIP output, which hold integers (0 = refuse real weights there);
 * COARSEN_WEIGHT_UNIT writes every edge weight as 1, in every format. */
int coarsen_graph_write(const coarsen_graph *g, const char *path, coarsen_format fmt,
                        double weight_scale, coarsen_error *err);

/* Builds a host graph on n vertices from count entries (row[e], col[e], w[e])
 * of a square n x n matrix held in memory, by the rules of a general Matrix
 * Market file (docs/formats.md): diagonal entries dropped, duplicates of one
 * (row, col) summed, weights |w|, the edge {i, j} weighing max(|a_ij|, |a_ji|)
 * over the entries present, explicit zeros kept as edges of weight 0.
 * [in] row, col: count ids in [0, n); w: count finite weights, or NULL for
 * weight 1 each (a pattern); vwgt: n vertex weights >= 0, or NULL for 1 each.
 * All four are only read, and may be freed once the call returns.
 * [out] *out: a new host graph the caller owns (coarsen_graph_free), NULL on
 * failure. Fails with COARSEN_ERR_INPUT naming the first bad entry or vertex
 * (an id out of range, a NaN or infinite weight, a negative vertex weight,
 * weight totals no sum can hold, as coarsen_graph_load refuses them), or
 * COARSEN_ERR_NOMEM. */
int coarsen_graph_from_entries(int32_t n, int64_t count, const int32_t *row, const int32_t *col, const double *w,
                               const int64_t *vwgt, coarsen_graph **out, coarsen_error *err);

/* The library's version, COARSEN_VERSION of the build (static storage): a
 * program that loads the shared library checks it against its header's. */
const char *coarsen_version(void);

/* sizeof the public struct named type_name ("coarsen_hierarchy_opts",
 * "coarsen_level_stats", "coarsen_match_opts", "coarsen_partition_opts",
 * "coarsen_graph", "coarsen_error", ...; 0 for a name it does not know), for
 * bindings that mirror these layouts: the Python package refuses to load
 * when its mirrors disagree, instead of writing past them. */
size_t coarsen_abi_size(const char *type_name);


/* ---- Coarsening hierarchy ------------------------------------------------
 * Level 0 is the input graph; level k (1 <= k <= L) is level k-1 contracted
 * by a matching (plus two-hop pairs when the matching stalls), and map k
 * gives, for each vertex of level k-1, its 0-based vertex of level k. */

typedef enum coarsen_device { COARSEN_DEVICE_AUTO = 0, COARSEN_DEVICE_CPU = 1, COARSEN_DEVICE_GPU = 2 } coarsen_device;
/* HEC: heavy-edge clustering (groups, not pairs: matching/hec.h). */
typedef enum coarsen_matcher {
    COARSEN_MATCHER_HANDSHAKE = 0,
    COARSEN_MATCHER_REDBLUE = 1,
    COARSEN_MATCHER_HEC = 2
} coarsen_matcher;

/* Default of coarsen_hierarchy_opts.host_below: H200 host, session 18,
 * 20 GPU levels (levels_ms, medians of 7, two calls): 1024 against 2048
 * road-FLA 8.60 / 8.96-8.99 ms, mdual 6.01-6.45 / 6.58-6.81, copter2
 * 4.93-5.07 / 5.48-5.54; 512 about even with 1024, 256 and 0 worse. */
#define COARSEN_HOST_BELOW_DEFAULT 1024

/* What handshake and HEC maximise over a vertex's neighbours: the edge
 * weight w, w / (c(u) c(v)) or w^2 / (c(u) c(v)) for vertex weights c. */
typedef enum coarsen_rating {
    COARSEN_RATING_WEIGHT = 0,
    COARSEN_RATING_EXPANSION = 1,
    COARSEN_RATING_EXPANSION2 = 2
} coarsen_rating;

/* max_vertex_weight value asking for the automatic cap of each level built
 * from a level of n vertices and total vertex weight W:
 * max(floor(1.5 W / coarsen_to) (METIS's; 0 when coarsen_to is 0),
 *     ceil(max_vertex_weight_factor * W / n)), so that two vertices of
 * average weight may always merge. */
#define COARSEN_VWGT_AUTO (-1)

/* One level's figures. For level 0 only the graph figures are set; for
 * level k >= 1 the matching figures describe the step from k-1 to k. */
typedef struct coarsen_level_stats {
    int32_t vertices;
    int64_t edges;                /* undirected edges (nnz / 2) */
    int64_t total_vertex_weight;
    double total_edge_weight;     /* sum over undirected edges */
    int64_t max_vertex_weight;
    double matched_fraction;      /* vertices of level k-1 in a matched pair (before two-hop);
                                     HEC: in a group of two or more (islands not counted) */
    int64_t matched_pairs;        /* HEC: merges of steps 1-3, n(k-1) - n(k) less step 4's pairs and islands */
    double matching_weight;       /* total weight of the matched (HEC: contracted) edges */
    int matching_passes;          /* HEC: joining rounds */
    int64_t leaf_pairs, twin_pairs; /* two-hop pairs added (0 when two-hop did not run) */
    int64_t relative_pairs;       /* two-hop pairs of vertices sharing their heaviest neighbour */
    int64_t island_pairs;         /* pairs of isolated vertices (two-hop); HEC: isolated vertices
                                     merged, joined to a group or paired (each removes one vertex) */
    int64_t cap_blocked;          /* vertices of level k-1 left alone beside a neighbour left alone
                                     (matchers run to maximal, so only the cap keeps them apart;
                                     counted when two-hop ran, and always for HEC) */
    int64_t vertex_weight_cap;    /* the cap level k was built under (0: none) */
    double matching_ms, two_hop_ms, contraction_ms; /* contraction includes the map */
    int built_on_gpu;             /* 1 when this level was built by the GPU backend */
} coarsen_level_stats;

typedef enum coarsen_stop_reason {
    COARSEN_STOP_LEVELS = 0,        /* built the number of levels asked for */
    COARSEN_STOP_COARSEN_TO = 1,    /* the coarsest graph has <= coarsen_to vertices */
    COARSEN_STOP_MIN_REDUCTION = 2, /* the last level removed less than min_reduction of the vertices */
    COARSEN_STOP_VERTEX_WEIGHT = 3, /* as min-reduction, but the level would have met min_reduction had
                                       the vertices that the cap kept apart merged in pairs
                                       (cap_blocked / 2 more merges) */
    COARSEN_STOP_NO_EDGES = 4       /* the current level has no edge left to contract */
} coarsen_stop_reason;

/* "levels", "coarsen-to", "min-reduction", "vertex-weight-cap" or "no-edges". */
const char *coarsen_stop_reason_name(coarsen_stop_reason r);

typedef struct coarsen_hierarchy_opts {
    int levels;                   /* at most this many contractions (default 10) */
    coarsen_matcher matcher;      /* default hec */
    int32_t coarsen_to;           /* stop once a level has <= this many vertices (default 1000; 0 = never) */
    double min_reduction;         /* stop after a level with n_c > (1 - min_reduction) * n (default 0.05);
                                     a level that removes no vertex at all is not kept */
    int64_t max_vertex_weight;    /* > 0: no coarse vertex heavier (pairs above are not formed);
                                     0: no cap; COARSEN_VWGT_AUTO (default): per level, see above */
    double max_vertex_weight_factor; /* the auto cap lets a coarse vertex weigh this many times the
                                     average of the level it is built from (default 3; >= 2) */
    coarsen_rating rating;        /* handshake and HEC (default expansion2: deeper hierarchies;
                                     the partitioner keeps weight, its cuts are lower with it);
                                     red/blue ignores it (weight) */
    double two_hop_threshold;     /* run two-hop pairing (islands, leaves, twins) when more than this
                                     fraction of a level's vertices is left unmatched (default 0.25;
                                     > 1 disables) */
    double two_hop_relatives;     /* and, within it, pair relatives (vertices sharing their heaviest
                                     neighbour) when after those more than this fraction is still
                                     unmatched (default 0.25; > 1 disables) */
    double gpu_memory_factor;     /* GPU backend: > 0 keeps the kept levels, the level being built and
                                     contraction's working memory under this many times the input CSR
                                     by moving the oldest levels to the host (each move costs a
                                     download); 0 (default): move only when the device's free memory
                                     would not hold them */
    int32_t host_below;           /* GPU backend: a level built from a level of at most this many
                                     vertices, and every level after it, is built on the host (the
                                     CPU backend, same results bit for bit), where small levels take
                                     less time than the GPU's per-level latency; 0: never.
                                     Default COARSEN_HOST_BELOW_DEFAULT (measured, docs/benchmarks.md) */
    int keep_input_on_device;     /* GPU backend: 1 keeps the input's device copy (level 0) after
                                     level 1 is built, for callers that walk back down to level 0 on
                                     the GPU (the multilevel partitioner); it counts in the budget
                                     and is released first when memory runs short. Default 0 */
    int refine_roma;              /* 1: refine every level's matching by ROMA (the deterministic
                                     parallel rule; matching_ms includes it); needs the handshake or
                                     red/blue matcher (COARSEN_ERR_INPUT with HEC); default 0 */
    int hashed_ties;              /* equal edge weights: 1 (default) go to the smaller seeded scramble
                                     of the vertex id, 0 to the smaller id (the plain handshake rule,
                                     which needs O(n) passes on unit-weight meshes: docs/pipeline.md) */
    uint64_t seed;                /* randomised matchers and hashed ties (default 1) */
    coarsen_device device;        /* default auto: the GPU when one is usable and the graph is large
                                     enough to gain from it (coarsen_hierarchy_device_reason) */
    /* Called after each level is built (may be NULL): level k >= 1 and its stats. */
    void (*on_level)(int level, const coarsen_level_stats *stats, void *ctx);
    void *ctx;
} coarsen_hierarchy_opts;

void coarsen_hierarchy_opts_default(coarsen_hierarchy_opts *opts);

/* Opaque hierarchy. On the GPU backend every level's graph and map stay in
 * device memory; the accessors below download on first access and cache. */
typedef struct coarsen_hierarchy coarsen_hierarchy;

/* Builds the hierarchy of g (a host graph). g is borrowed, not copied: it is
 * level 0 and must outlive *out. The caller owns *out (coarsen_hierarchy_free). */
int coarsen_hierarchy_build(const coarsen_graph *g, const coarsen_hierarchy_opts *opts,
                            coarsen_hierarchy **out, coarsen_error *err);
/* L: the number of contractions; graphs are levels 0..L. */
int coarsen_hierarchy_levels(const coarsen_hierarchy *h);
/* The host graph of level k (0 <= k <= L); owned by h (valid until
 * coarsen_hierarchy_free), downloaded from the GPU on first access. */
int coarsen_hierarchy_graph(coarsen_hierarchy *h, int k, const coarsen_graph **out, coarsen_error *err);
/* Map k (1 <= k <= L): host array of level k-1's vertex count, owned by h. */
int coarsen_hierarchy_map(coarsen_hierarchy *h, int k, const int32_t **out, coarsen_error *err);
/* Level k's figures (0 <= k <= L; NULL otherwise), owned by h. */
const coarsen_level_stats *coarsen_hierarchy_stats(const coarsen_hierarchy *h, int k);
coarsen_stop_reason coarsen_hierarchy_stop_reason(const coarsen_hierarchy *h);
/* 1 when the levels live on the GPU. */
int coarsen_hierarchy_on_gpu(const coarsen_hierarchy *h);
/* Why the build ran where it did, one phrase owned by h: "--device gpu",
 * "--device cpu", or for COARSEN_DEVICE_AUTO the rule's verdict (the GPU
 * from a number of adjacency entries per CPU thread on, measured; the CPU
 * below, without touching the GPU; or no usable GPU). */
const char *coarsen_hierarchy_device_reason(const coarsen_hierarchy *h);
/* Wall time of the build (upload included, downloads and file I/O excluded),
 * and of the host-to-device upload alone (0 on the CPU). */
double coarsen_hierarchy_total_ms(const coarsen_hierarchy *h);
double coarsen_hierarchy_transfer_ms(const coarsen_hierarchy *h);
/* Milliseconds spent copying levels and maps back from the GPU so far (on
 * demand, by coarsen_hierarchy_graph and coarsen_hierarchy_map). */
double coarsen_hierarchy_download_ms(const coarsen_hierarchy *h);
void coarsen_hierarchy_free(coarsen_hierarchy *h);
/* Writes the statistics of h [in] to path as `coarsen --out` writes
 * stats.json (docs/pipeline.md), with "command_line" and "input" null and
 * no "phases"; atomically, gzip when path ends in ".gz", like every file the
 * library writes. COARSEN_ERR_IO when it cannot be written. */
int coarsen_hierarchy_write_stats(const coarsen_hierarchy *h, const char *path, coarsen_error *err);


/* ---- Matching ----------------------------------------------------------- */

typedef struct coarsen_match_opts {
    coarsen_matcher matcher;      /* default hec */
    int refine_roma;              /* 1: improve the matching by ROMA 2-augmentations afterwards (the
                                     deterministic parallel rule, as coarsen_hierarchy_opts); default 0 */
    int hashed_ties;              /* equal edge weights: 1 (default: the pipeline's, as `coarsen match`)
                                     to the smaller seeded scramble of the id, 0 to the smaller id */
    int64_t max_vertex_weight;    /* > 0: no pair whose vertex weights sum above it; default 0: no cap */
    uint64_t seed;                /* red/blue colouring and hashed ties (default 1) */
    coarsen_device device;        /* default auto */
} coarsen_match_opts;

typedef struct coarsen_match_stats {
    int64_t pairs;                /* matched pairs */
    double weight;                /* total weight of the matched edges */
    int passes;                   /* handshake passes or red/blue rounds */
    double ms;                    /* wall time, refinement included */
} coarsen_match_stats;

void coarsen_match_opts_default(coarsen_match_opts *opts);
/* Computes a matching of host graph g [in], as `coarsen match` does with the
 * same options: mate [out, caller-allocated, g->n entries] receives each
 * vertex's partner or -1. stats [out] may be NULL. The same mates on CPU and
 * GPU. */
int coarsen_match(const coarsen_graph *g, const coarsen_match_opts *opts, int32_t *mate, coarsen_match_stats *stats,
                  coarsen_error *err);


/* ---- Partitioning (multilevel: the hierarchy, METIS on the coarsest graph,
 * projection, refinement at every level; docs/partitioning.md) ------------ */

typedef struct coarsen_partition_opts {
    int32_t k;                    /* parts, >= 1 (default 2) */
    double imbalance;             /* every part weighs at most (1 + imbalance) * total / k, loosened to
                                     ceil(total / k) + heaviest vertex - 1 when that is larger (default 0.03) */
    uint64_t seed;                /* of every randomised step; replaces hierarchy.seed (default 1) */
    int recursive;                /* the METIS runs on the coarsest graph: default 0 both k-way and
                                     recursive bisection (each refined there, the lower cut kept);
                                     1: recursive bisection only; 2: k-way only */
    int max_rounds;               /* refinement rounds per level (default 16) */
    int64_t polish_edges;         /* FM polish at the levels of at most this many edges (default 2^21;
                                     < 0: none) */
    int metis_tries;              /* METIS runs of each kind on the coarsest graph, the lowest refined
                                     cut kept; default 0: k-way 4 times for k <= 8, once otherwise;
                                     recursive bisection 4 times */
    coarsen_hierarchy_opts hierarchy; /* matcher, ties, device, ...; defaults as coarsen_hierarchy_opts
                                         but 100 levels and coarsen_to 0, meaning max(40 k, 400) */
} coarsen_partition_opts;

typedef struct coarsen_partition_info {
    double cut;                   /* total weight of the edges between parts */
    double imbalance;             /* heaviest part / (total / k) */
    int64_t cap;                  /* the part weight allowed */
    int levels;                   /* hierarchy levels used */
    int on_gpu;                   /* 1 when the GPU backend ran */
    double total_ms;              /* wall time of the whole partitioning */
} coarsen_partition_info;

void coarsen_partition_opts_default(coarsen_partition_opts *opts);
/* Partitions host graph g [in] into opts->k parts, as `coarsen partition`:
 * part [out, caller-allocated, g->n entries] receives ids 0..k-1, every part
 * within the cap. info [out] may be NULL. */
int coarsen_partition(const coarsen_graph *g, const coarsen_partition_opts *opts, int32_t *part,
                      coarsen_partition_info *info, coarsen_error *err);


/* ---- Interrupts, for a program with SIGINT handling of its own ------------
 * A hierarchy build stops between levels, and a file being written at its
 * next write, once SIGINT has reached the library's handler, with
 * COARSEN_ERR_INTERRUPTED (the `coarsen` program installs that handler for
 * its whole run). A program that handles SIGINT itself, such as an
 * interpreter, brackets a long call with these two, from one thread, not
 * nested: catch installs the library's handler for SIGINT, keeping the
 * program's (COARSEN_ERR_IO when sigaction refuses), and forgets any earlier
 * request; release puts the program's handler back and returns the signal
 * that arrived in between (SIGINT) or 0. In between, every SIGINT is only
 * recorded, never fatal. The request is process-wide: calls running in
 * other threads stop at their next level too. */
int coarsen_interrupt_catch(coarsen_error *err);
int coarsen_interrupt_release(void);

#ifdef __cplusplus
}
#endif
#endif
