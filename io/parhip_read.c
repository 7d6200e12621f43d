/* parhip_read.c — ParHIP binary graph (mmap'd file or memory) to CSR: the
 * header is checked against the length first, then offsets and rows are
 * read and checked in parallel, self-loops dropped, rows sorted when they
 * are not, and symmetry checked (core/graph_symmetry.h). Every error names
 * the lowest offending vertex, so it does not depend on the thread count. */
#include "io/parhip_read.h"
#include "core/path_suffix.h"
#include "io/read_error.h"
#include "core/error.h"
#include "core/weight_sums.h"
#include "core/graph_build.h"
#include "core/graph_symmetry.h"
#include "io/parhip_layout.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* Below this many entries a loop runs on one thread: waking a team costs
 * more than the work (and much more on a busy machine). */
#define PARALLEL_MIN 65536

/* A signed little-endian word of 4 or 8 bytes (KaMinPar's weights are signed). */
static int64_t load_signed(const unsigned char *p, unsigned bytes)
{
    uint64_t v = parhip_load(p, bytes);
    if (bytes == 4)
        return v >= ((uint64_t)1 << 31) ? (int64_t)v - ((int64_t)1 << 32) : (int64_t)v;
    return v > (uint64_t)INT64_MAX ? -(int64_t)(~v) - 1 : (int64_t)v;
}

/* Checks offset i (0 <= i <= n) and stores its entry index in *index.
 * Returns 0, or 1 after describing the problem in err (may be NULL). */
static int read_offset(const char *name, const parhip_layout *l, const unsigned char *d, int64_t i, int64_t *index,
                       coarsen_error *err)
{
    uint64_t at = l->offsets_at + (uint64_t)i * l->eid_bytes;
    uint64_t o = parhip_load(d + at, l->eid_bytes);
    uint64_t end = l->adj_at + l->m * l->vid_bytes;
    if (i == 0 && o != l->adj_at)
        return read_error_file(err, name, "offset of vertex 0 (byte %llu) is %llu, but the adjacency starts at byte %llu",
                         (unsigned long long)at, (unsigned long long)o, (unsigned long long)l->adj_at) != 0;
    if ((uint64_t)i == l->n && o != end)
        return read_error_file(err, name,
                         "final offset (byte %llu) is %llu, but the %llu adjacency entries of the header end at "
                         "byte %llu",
                         (unsigned long long)at, (unsigned long long)o, (unsigned long long)l->m,
                         (unsigned long long)end) != 0;
    if (o < l->adj_at || o > end)
        return read_error_file(err, name, "offset of vertex %lld (byte %llu) is %llu, outside the adjacency bytes [%llu, %llu]",
                         (long long)i, (unsigned long long)at, (unsigned long long)o, (unsigned long long)l->adj_at,
                         (unsigned long long)end) != 0;
    if ((o - l->adj_at) % l->vid_bytes)
        return read_error_file(err, name, "offset of vertex %lld (byte %llu) is %llu, not at the start of a %u-byte id",
                         (long long)i, (unsigned long long)at, (unsigned long long)o, l->vid_bytes) != 0;
    if (i > 0) {
        uint64_t prev = parhip_load(d + at - l->eid_bytes, l->eid_bytes);
        if (o < prev)
            return read_error_file(err, name, "offsets decrease at vertex %lld (byte %llu): %llu after %llu", (long long)i,
                             (unsigned long long)at, (unsigned long long)o, (unsigned long long)prev) != 0;
    }
    *index = (int64_t)((o - l->adj_at) / l->vid_bytes);
    return 0;
}

/* Reads row u (and its vertex weight) into g, a block whose row 0 is vertex
 * lo and whose entry 0 is the file's entry base, as stored, self-loops
 * included; *loops [out] gets their number. Returns 0, or 1 after
 * describing the first problem of the row in err (may be NULL). */
static int read_row(const char *name, const parhip_layout *l, const unsigned char *d, int32_t u, int64_t lo,
                    int64_t base, coarsen_graph *g, int64_t *loops, coarsen_error *err)
{
    *loops = 0;
    for (int64_t j = g->xadj[u - lo]; j < g->xadj[u - lo + 1]; j++) {
        const int64_t k = base + j;
        uint64_t at = l->adj_at + (uint64_t)k * l->vid_bytes;
        uint64_t v = parhip_load(d + at, l->vid_bytes);
        if (v >= l->n)
            return read_error_file(err, name, "vertex %d: neighbour id %llu (byte %llu) out of range [0, %llu)", u,
                             (unsigned long long)v, (unsigned long long)at, (unsigned long long)l->n) != 0;
        g->adj[j] = (int32_t)v;
        *loops += v == (uint64_t)u;
        int64_t w = 1;
        if (l->has_ewgt) {
            at = l->ewgt_at + (uint64_t)k * l->ew_bytes;
            w = load_signed(d + at, l->ew_bytes);
            if (w < 1)
                return read_error_file(err, name, "vertex %d: edge weight %lld to neighbour %llu (byte %llu) is not >= 1", u,
                                 (long long)w, (unsigned long long)v, (unsigned long long)at) != 0;
            if (w > EDGE_WEIGHT_EXACT_MAX)
                return read_error_file(err, name,
                                       "vertex %d: edge weight %lld to neighbour %llu (byte %llu) is above 2^53, beyond "
                                       "which weights (doubles) are not exact",
                                       u, (long long)w, (unsigned long long)v, (unsigned long long)at) != 0;
        }
        g->ewgt[j] = (double)w;
    }
    int64_t *vw = &g->vwgt[u - lo];
    *vw = 1;
    if (l->has_vwgt) {
        uint64_t at = l->vwgt_at + (uint64_t)u * l->vw_bytes;
        *vw = load_signed(d + at, l->vw_bytes);
        if (*vw < 0)
            return read_error_file(err, name, "vertex %d: weight %lld (byte %llu) is negative", u, (long long)*vw,
                             (unsigned long long)at) != 0;
    }
    return 0;
}

/* Drops self-loops in place from block g whose row 0 is vertex lo (only
 * called when there are some; sequential, entries only move towards the
 * front). */
static void drop_loops(coarsen_graph *g, int64_t lo)
{
    int64_t w = 0, begin = 0;
    for (int32_t u = 0; u < g->n; u++) {
        int64_t end = g->xadj[u + 1];
        for (int64_t k = begin; k < end; k++)
            if (g->adj[k] != lo + u) {
                g->adj[w] = g->adj[k];
                g->ewgt[w++] = g->ewgt[k];
            }
        begin = end;
        g->xadj[u + 1] = w;
    }
    g->nnz = w;
}

static int check_symmetry(const char *name, const coarsen_graph *g, coarsen_error *err)
{
    graph_problem p;
    switch (graph_find_asymmetry(g, &p)) {
    case GRAPH_SYMMETRIC:
        return COARSEN_OK;
    case GRAPH_DUPLICATE:
        return read_error_file(err, name, "vertex %d lists neighbour %d twice", p.u, p.v);
    case GRAPH_NO_MIRROR:
        return read_error_file(err, name, "vertex %d lists neighbour %d, but vertex %d does not list %d (asymmetric adjacency)",
                         p.u, p.v, p.v, p.u);
    default:
        return read_error_file(err, name, "edge %d-%d has weight %.17g in row %d but %.17g in row %d", p.u, p.v,
                         g->ewgt[p.at], p.u, g->ewgt[p.mirror], p.v);
    }
}

int parhip_read_block(const char *name, const parhip_layout *l, const unsigned char *d, int64_t lo, int64_t hi,
                      coarsen_graph **out, int64_t *loops, coarsen_error *err)
{
    *out = NULL;
    int64_t first = hi + 1, index;
#pragma omp parallel for schedule(static) reduction(min : first) if (hi - lo > PARALLEL_MIN)
    for (int64_t i = lo; i <= hi; i++)
        if (i < first && read_offset(name, l, d, i, &index, NULL))
            first = i;
    if (first <= hi)
        return read_offset(name, l, d, first, &index, err), COARSEN_ERR_INPUT;
    int64_t base, last;
    read_offset(name, l, d, lo, &base, NULL);
    read_offset(name, l, d, hi, &last, NULL);
    coarsen_graph *g = coarsen_graph_alloc((int32_t)(hi - lo), last - base, err);
    if (!g)
        return err ? (int)err->status : COARSEN_ERR_NOMEM;
#pragma omp parallel for schedule(static) if (hi - lo > PARALLEL_MIN)
    for (int64_t i = lo; i <= hi; i++) {
        read_offset(name, l, d, i, &g->xadj[i - lo], NULL);
        g->xadj[i - lo] -= base;
    }
    int64_t total = 0;
    int32_t bad = (int32_t)hi;
#pragma omp parallel for schedule(dynamic, 4096) reduction(min : bad) reduction(+ : total) if (last - base > PARALLEL_MIN)
    for (int32_t u = (int32_t)lo; u < (int32_t)hi; u++) {
        int64_t c = 0;
        if (u < bad && read_row(name, l, d, u, lo, base, g, &c, NULL))
            bad = u;
        total += c;
    }
    if (bad < hi) {
        int64_t c;
        read_row(name, l, d, bad, lo, base, g, &c, err);
        coarsen_graph_free(g);
        return COARSEN_ERR_INPUT;
    }
    *loops = total;
    if (total)
        drop_loops(g, lo);
    int rc = graph_rows_sorted(g) ? COARSEN_OK : graph_sort_rows(g, err);
    if (rc) {
        coarsen_graph_free(g);
        return rc;
    }
    *out = g;
    return COARSEN_OK;
}

int parhip_read_layout(const char *name, const unsigned char *data, size_t len, parhip_layout *l, coarsen_error *err)
{
    if (len >= 8 && !parhip_looks_binary(data, len))
        return read_error_file(err, name, "not a ParHIP graph: version word %llu has flags beyond the 6 defined (0-63)",
                         (unsigned long long)parhip_load(data, 8));
    if (len < PARHIP_HEADER_BYTES)
        return read_error_file(err, name, "%zu bytes, shorter than the %d-byte ParHIP header (truncated file?)", len,
                         PARHIP_HEADER_BYTES);
    int r = parhip_layout_init(l, parhip_load(data, 8), parhip_load(data + 8, 8), parhip_load(data + 16, 8));
    if (r == 0 && l->n > INT32_MAX)
        return read_error_file(err, name, "the header declares %llu vertices; at most %d are supported (32-bit ids)",
                         (unsigned long long)l->n, INT32_MAX);
    if (r == -2 || l->size != (uint64_t)len) {
        char need[40] = "more than 2^63";
        if (r == 0)
            snprintf(need, sizeof need, "%llu", (unsigned long long)l->size);
        return read_error_file(err, name,
                         "the header (version %llu, %llu vertices, %llu adjacency entries) needs %s bytes but the "
                         "file has %zu (truncated file or wrong header)",
                         (unsigned long long)l->version, (unsigned long long)l->n, (unsigned long long)l->m, need, len);
    }
    return COARSEN_OK;
}

void parhip_report(const parhip_layout *l, int64_t loops, coarsen_read_report *report)
{
    int k = snprintf(report->format, sizeof report->format, "parhip v%llu eid%u vid%u",
                     (unsigned long long)l->version, 8 * l->eid_bytes, 8 * l->vid_bytes);
    if (l->has_vwgt && k > 0 && (size_t)k < sizeof report->format)
        k += snprintf(report->format + k, sizeof report->format - (size_t)k, " vw%u", 8 * l->vw_bytes);
    if (l->has_ewgt && k > 0 && (size_t)k < sizeof report->format)
        snprintf(report->format + k, sizeof report->format - (size_t)k, " ew%u", 8 * l->ew_bytes);
    report->entries = (int64_t)l->m;
    report->diagonal_dropped = loops;
    report->duplicates_merged = 0;
    report->zero_weight_edges = 0;
    report->complex_magnitude = 0;
    report->extra_constraints = 0;
}

int parhip_read_buffer(const char *name, const unsigned char *data, size_t len, coarsen_graph **out,
                       coarsen_read_report *report, coarsen_error *err)
{
    *out = NULL;
    parhip_layout l;
    int rc = parhip_read_layout(name, data, len, &l, err);
    if (rc)
        return rc;
    /* Sizes now agree with the file: n <= len / 4 and m <= len / 4, so the
     * graph takes a bounded multiple of the file's size. */
    coarsen_graph *g = NULL;
    int64_t loops = 0;
    rc = parhip_read_block(name, &l, data, 0, (int64_t)l.n, &g, &loops, err);
    if (!rc && (rc = check_symmetry(name, g, err))) {
        coarsen_graph_free(g);
        g = NULL;
    }
    if (rc)
        return rc;
    g->integral_weights = 1;
    if (report)
        parhip_report(&l, loops, report);
    *out = g;
    return COARSEN_OK;
}
int parhip_looks_binary(const void *data, size_t len)
{
    return len >= 8 && parhip_load(data, 8) <= PARHIP_KNOWN_FLAGS;
}

int parhip_has_name(const char *name)
{
    return path_ends_with(name, ".parhip") || path_ends_with(name, ".bgf") || path_ends_with(name, ".parhip.gz") ||
           path_ends_with(name, ".bgf.gz");
}

int parhip_map_file(const char *path, const unsigned char **data, size_t *len, coarsen_error *err)
{
    if (!strcmp(path, "-"))
        return PARHIP_NOT_MINE;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return PARHIP_NOT_MINE;
    struct stat st;
    unsigned char head[8] = {0};
    ssize_t got = 0;
    if (fstat(fd, &st) || !S_ISREG(st.st_mode) || (got = pread(fd, head, sizeof head, 0)) < 0 ||
        (got >= 2 && head[0] == 0x1f && head[1] == 0x8b) ||
        !(parhip_looks_binary(head, (size_t)got) || parhip_has_name(path))) {
        close(fd);
        return PARHIP_NOT_MINE;
    }
    *len = (size_t)st.st_size;
    *data = (const unsigned char *)"";
    if (*len) {
        void *map = mmap(NULL, *len, PROT_READ, MAP_PRIVATE, fd, 0);
        if (map == MAP_FAILED) {
            int rc = error_set(err, COARSEN_ERR_IO, "%s: cannot map: %s", path, strerror(errno));
            close(fd);
            return rc;
        }
        madvise(map, *len, MADV_WILLNEED);
        *data = map;
    }
    close(fd);
    return COARSEN_OK;
}

void parhip_unmap(const unsigned char *data, size_t len)
{
    if (len)
        munmap((void *)data, len);
}

int parhip_read_file(const char *path, coarsen_graph **out, coarsen_read_report *report, coarsen_error *err)
{
    const unsigned char *data;
    size_t len;
    int rc = parhip_map_file(path, &data, &len, err);
    if (rc)
        return rc;
    coarsen_read_report local;
    if (!report)
        report = &local;
    memset(report, 0, sizeof *report);
    report->bytes = (int64_t)len;
    rc = parhip_read_buffer(path, data, len, out, report, err);
    parhip_unmap(data, len);
    return rc;
}
