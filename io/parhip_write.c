/* parhip_write.c — CSR to ParHIP binary: one parallel pass checks the
 * weights and picks the sections and widths, then each section is converted
 * block by block (in parallel) into little-endian words and streamed
 * through output_file, so no copy of the graph is ever made. */
#include "io/parhip_write.h"
#include "core/error.h"
#include "io/output_file.h"
#include "io/parhip_layout.h"

#include <math.h>
#include <stdlib.h>

/* Below this many words a loop runs on one thread. */
#define PARALLEL_MIN 65536
/* Words converted per block. */
#define BLOCK 65536
/* Largest weight written (as the METIS writer: below 2^63). */
#define WEIGHT_MAX 9.2e18

/* What a section's word i is. */
typedef uint64_t (*word_fn)(const coarsen_graph *g, int64_t i, const void *ctx);

typedef struct weight_rule {
    int integral;
    double scale; /* COARSEN_WEIGHT_UNIT: every weight 1 */
} weight_rule;

/* The integer written for edge weight w (may be out of range: checked first). */
static double edge_int(double w, const weight_rule *r)
{
    return r->scale == COARSEN_WEIGHT_UNIT ? 1 : r->integral ? w : nearbyint(w * r->scale);
}

static uint64_t offset_word(const coarsen_graph *g, int64_t i, const void *ctx)
{
    const parhip_layout *l = ctx;
    return l->adj_at + (uint64_t)g->xadj[i] * l->vid_bytes;
}

static uint64_t adj_word(const coarsen_graph *g, int64_t k, const void *ctx)
{
    (void)ctx;
    return (uint64_t)g->adj[k];
}

static uint64_t vwgt_word(const coarsen_graph *g, int64_t u, const void *ctx)
{
    (void)ctx;
    return (uint64_t)g->vwgt[u];
}

static uint64_t ewgt_word(const coarsen_graph *g, int64_t k, const void *ctx)
{
    return (uint64_t)(int64_t)edge_int(g->ewgt[k], ctx);
}

static void write_section(output_file *f, unsigned char *buf, const coarsen_graph *g, int64_t count, unsigned bytes,
                          word_fn word, const void *ctx)
{
    for (int64_t start = 0; start < count; start += BLOCK) {
        int64_t len = count - start < BLOCK ? count - start : BLOCK;
#pragma omp parallel for schedule(static) if (len >= PARALLEL_MIN)
        for (int64_t i = 0; i < len; i++)
            parhip_store(buf + (size_t)i * bytes, word(g, start + i, ctx), bytes);
        output_write(f, buf, (size_t)len * bytes);
    }
}

/* Checks every edge weight against the rule: the lowest offending entry is
 * reported. *any_not_one and *max [out] describe the written integers. */
static int check_edge_weights(const coarsen_graph *g, const weight_rule *r, const char *path, int *any_not_one,
                              double *max, coarsen_error *err)
{
    int64_t bad = g->nnz;
    int not_one = 0;
    double hi = 1;
#pragma omp parallel for schedule(static) reduction(min : bad) reduction(|| : not_one) reduction(max : hi) if (g->nnz > PARALLEL_MIN)
    for (int64_t k = 0; k < g->nnz; k++) {
        double x = edge_int(g->ewgt[k], r);
        if (!(x >= 1 && x <= WEIGHT_MAX))
            bad = k < bad ? k : bad;
        not_one = not_one || x != 1;
        hi = x > hi ? x : hi;
    }
    if (bad < g->nnz) {
        double w = g->ewgt[bad], x = edge_int(w, r);
        if (r->integral)
            return error_set(err, COARSEN_ERR_INPUT,
                             "%s: edge weight %.17g cannot be written in ParHIP format (it stores integers >= 1)", path,
                             w);
        return error_set(err, COARSEN_ERR_INPUT,
                         "%s: edge weight %.17g times the weight scale %g rounds to %.17g, outside the ParHIP range "
                         "[1, 9.2e18]; choose another scale",
                         path, w, r->scale, x);
    }
    *any_not_one = not_one;
    *max = hi;
    return COARSEN_OK;
}

int parhip_write_graph(const coarsen_graph *g, const char *path, double weight_scale, parhip_widths widths,
                       coarsen_error *err)
{
    int integral = 1;
#pragma omp parallel for reduction(&& : integral) if (g->nnz > PARALLEL_MIN)
    for (int64_t k = 0; k < g->nnz; k++)
        integral = integral && g->ewgt[k] == floor(g->ewgt[k]);
    weight_rule rule = {integral, weight_scale};
    if (!rule.integral && !(weight_scale > 0) && weight_scale != COARSEN_WEIGHT_UNIT)
        return error_set(err, COARSEN_ERR_INPUT,
                         "%s: the graph has real edge weights and ParHIP stores integers: give a weight scale S > 0 "
                         "(writes round(w*S), e.g. S = 1000) or write Matrix Market",
                         path);
    int ew = 0;
    double ew_max = 1;
    int rc = check_edge_weights(g, &rule, path, &ew, &ew_max, err);
    if (rc)
        return rc;
    int vw = 0;
    int64_t vw_max = 1;
#pragma omp parallel for reduction(|| : vw) reduction(max : vw_max) if (g->n > PARALLEL_MIN)
    for (int32_t u = 0; u < g->n; u++) {
        vw = vw || g->vwgt[u] != 1;
        vw_max = g->vwgt[u] > vw_max ? g->vwgt[u] : vw_max;
    }
    uint64_t version = (ew ? 0 : PARHIP_NO_EDGE_WEIGHTS) | (vw ? 0 : PARHIP_NO_VERTEX_WEIGHTS);
    if (widths == PARHIP_NARROW) {
        /* 32-bit offsets when the adjacency ends below 2^32 bytes. */
        uint64_t adj_end = PARHIP_HEADER_BYTES + 4 * ((uint64_t)g->n + 1) + 4 * (uint64_t)g->nnz;
        version |= PARHIP_VERTEX_ID_32 | (adj_end <= UINT32_MAX ? PARHIP_EDGE_ID_32 : 0) |
                   (vw_max <= INT32_MAX ? PARHIP_VERTEX_WEIGHT_32 : 0) | (ew_max <= INT32_MAX ? PARHIP_EDGE_WEIGHT_32 : 0);
    }
    parhip_layout l;
    if (parhip_layout_init(&l, version, (uint64_t)g->n, (uint64_t)g->nnz))
        return error_set(err, COARSEN_ERR_INPUT, "%s: the graph is too large for a file", path);
    unsigned char *buf = xmalloc((size_t)BLOCK * 8, "ParHIP output buffer", err);
    if (!buf)
        return COARSEN_ERR_NOMEM;
    output_file *f = output_open(path, err);
    if (!f) {
        free(buf);
        return err ? (int)err->status : COARSEN_ERR_IO;
    }
    unsigned char head[PARHIP_HEADER_BYTES];
    parhip_store(head, l.version, 8);
    parhip_store(head + 8, l.n, 8);
    parhip_store(head + 16, l.m, 8);
    output_write(f, head, sizeof head);
    write_section(f, buf, g, (int64_t)g->n + 1, l.eid_bytes, offset_word, &l);
    write_section(f, buf, g, g->nnz, l.vid_bytes, adj_word, NULL);
    if (l.has_vwgt)
        write_section(f, buf, g, g->n, l.vw_bytes, vwgt_word, NULL);
    if (l.has_ewgt)
        write_section(f, buf, g, g->nnz, l.ew_bytes, ewgt_word, &rule);
    free(buf);
    return output_commit(f, err);
}
