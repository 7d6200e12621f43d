/* read.c — the per-rank reading of METIS, ParHIP binary and Matrix Market
 * files (read.h): the format decided on rank 0, each rank's share read by the
 * io/ readers' block functions, the checks that need the whole file done by
 * reductions and dist_graph_symmetric, and the graph gathered to rank 0. */
#include "dist/read.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/graph_build.h"
#include "core/graph_symmetry.h"
#include "core/path_suffix.h"
#include "core/timer.h"
#include "core/weight_sums.h"
#include "dist/collective.h"
#include "dist/gather.h"
#include "dist/symmetry.h"
#include "io/line_chunks.h"
#include "io/metis_read.h"
#include "io/mtx_read.h"
#include "io/parhip_read.h"

enum { KIND_ROOT = 0, KIND_METIS, KIND_PARHIP, KIND_MTX };

/* Rank 0's choice, as coarsen_graph_load's dispatch makes it: ParHIP when
 * parhip_read_file would take the file; for a plain regular file, Matrix
 * Market when it has the banner, METIS when it has neither the banner nor
 * a Matrix Market name; rank 0 alone otherwise (gzip, standard input, a
 * Matrix Market name without the banner, unreadable). */
static int input_kind(const char *path)
{
    coarsen_error ignore = {0};
    const unsigned char *data;
    size_t len;
    int rc = parhip_map_file(path, &data, &len, &ignore);
    if (rc == COARSEN_OK) {
        parhip_unmap(data, len);
        return KIND_PARHIP;
    }
    if (rc != PARHIP_NOT_MINE || !strcmp(path, "-"))
        return KIND_ROOT;
    FILE *f = fopen(path, "rb");
    unsigned char head[2] = {0, 0};
    size_t got = f ? fread(head, 1, 2, f) : 0;
    if (f)
        fclose(f);
    if (!f || (got == 2 && head[0] == 0x1f && head[1] == 0x8b))
        return KIND_ROOT;
    text_input t;
    if (text_input_open(path, &t, &ignore))
        return KIND_ROOT;
    int kind = t.gzip || t.stream         ? KIND_ROOT
               : mtx_has_banner(&t)       ? KIND_MTX
               : path_ends_with(path, ".mtx") ? KIND_ROOT
                                          : KIND_METIS;
    text_input_free(&t);
    return kind;
}

/* 1 on every rank when ok is 1 on every rank. */
static int all_ok(int ok, MPI_Comm comm)
{
    int all = 0;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, comm);
    return all;
}

/* The first line start at or after p in [body, end]. */
static const char *line_start(const char *body, const char *end, const char *p)
{
    if (p <= body || p >= end)
        return p <= body ? body : end;
    if (p[-1] == '\n')
        return p;
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    return nl ? nl + 1 : end;
}

/* This rank's share of the text [body, end): P byte ranges, each moved to
 * the next line start; and the lines and data lines of kind in the ranges
 * before it (*before) and in all (*total), lines first. */
static void text_share(const char *body, const char *end, line_kind kind, MPI_Comm comm, const char **lo,
                       const char **hi, int64_t before[2], int64_t total[2], coarsen_error *err)
{
    int rank, P;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &P);
    const size_t len = (size_t)(end - body), q = len / (size_t)P, r = len % (size_t)P;
    *lo = line_start(body, end, body + q * (size_t)rank + r * (size_t)rank / (size_t)P);
    *hi = line_start(body, end, rank + 1 == P ? end : body + q * (size_t)(rank + 1) + r * (size_t)(rank + 1) / (size_t)P);
    line_chunk *lc = NULL;
    int64_t mine[2] = {0, 0};
    int nc = line_chunks_split(*lo, *hi, 0, kind, &lc, &mine[1], err);
    if (!nc)
        MPI_Abort(comm, COARSEN_ERR_NOMEM); /* the others are in the scan below (dist.h) */
    mine[0] = lc[nc - 1].first_line + lc[nc - 1].lines;
    free(lc);
    before[0] = before[1] = 0;
    MPI_Exscan(mine, before, 2, MPI_INT64_T, MPI_SUM, comm);
    if (rank == 0)
        before[0] = before[1] = 0; /* MPI_Exscan leaves rank 0's result undefined */
    MPI_Allreduce(mine, total, 2, MPI_INT64_T, MPI_SUM, comm);
}

/* METIS: this rank's byte range of the body; counts against the header
 * summed. 1 when this rank's share was read without fault (the caller
 * reduces it), d filled either way when it returns 1. */
static int read_metis(const char *path, MPI_Comm comm, dist_graph *d, metis_header *h, int64_t sums[2],
                      size_t *bytes, coarsen_error *err)
{
    int rank, P;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &P);
    text_input t;
    const char *body = NULL, *end = NULL;
    int64_t header_line = 0;
    int opened = text_input_open(path, &t, err) == COARSEN_OK;
    int ok = opened && metis_read_header(&t, h, &body, &end, &header_line, err) == COARSEN_OK;
    if (!all_ok(ok, comm)) {
        if (opened)
            text_input_free(&t);
        return 0;
    }
    *bytes = t.len;
    const char *lo, *hi; /* lines and vertex lines of the range, and of the ranges before it */
    int64_t before[2], total[2];
    text_share(body, end, LINES_METIS, comm, &lo, &hi, before, total, err);
    int64_t *vtxdist = malloc(((size_t)P + 1) * sizeof *vtxdist);
    if (!vtxdist)
        MPI_Abort(comm, COARSEN_ERR_NOMEM);
    int64_t first = before[1] < h->n ? before[1] : h->n;
    MPI_Allgather(&first, 1, MPI_INT64_T, vtxdist, 1, MPI_INT64_T, comm);
    vtxdist[P] = h->n;
    if (dist_graph_init(d, (int32_t)h->n, vtxdist, 0, 1, comm, err))
        MPI_Abort(comm, COARSEN_ERR_NOMEM);
    free(vtxdist);
    /* d->local's rows: the vertex lines of the range below h->n, which metis_read_block fills */
    ok = total[1] >= h->n && metis_read_block(&t, h, lo, hi, header_line + 1 + before[0], before[1], d->local,
                                              &sums[0], &sums[1], err) == COARSEN_OK;
    text_input_free(&t);
    return ok;
}

/* ParHIP: the rows of this rank's block, blocks of equal 1 + degree from
 * the offsets (read unchecked here: checked by parhip_read_block). */
static int read_parhip(const char *path, MPI_Comm comm, dist_graph *d, parhip_layout *l, int64_t sums[2],
                       size_t *bytes, coarsen_error *err)
{
    int rank, P;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &P);
    const unsigned char *data = NULL;
    size_t len = 0;
    int mapped = parhip_map_file(path, &data, &len, err) == COARSEN_OK;
    int ok = mapped && parhip_read_layout(path, data, len, l, err) == COARSEN_OK;
    if (!all_ok(ok, comm)) {
        if (mapped)
            parhip_unmap(data, len);
        return 0;
    }
    *bytes = len;
    const int64_t n = (int64_t)l->n, m = (int64_t)l->m;
    int64_t *vtxdist = malloc(((size_t)P + 1) * sizeof *vtxdist);
    if (!vtxdist)
        MPI_Abort(comm, COARSEN_ERR_NOMEM);
    for (int r = 0; r <= P; r++) {
        const int64_t target = (n + m) * (int64_t)r / P;
        int64_t lo = r ? vtxdist[r - 1] : 0, hi = n; /* first vertex whose weight before it reaches target */
        while (lo < hi) {
            int64_t mid = lo + (hi - lo) / 2;
            uint64_t o = parhip_load(data + l->offsets_at + (uint64_t)mid * l->eid_bytes, l->eid_bytes);
            int64_t e = o <= l->adj_at ? 0 : (int64_t)((o - l->adj_at) / l->vid_bytes);
            if (mid + (e < m ? e : m) < target)
                lo = mid + 1;
            else
                hi = mid;
        }
        vtxdist[r] = r == P ? n : lo;
    }
    coarsen_graph *g = NULL;
    ok = parhip_read_block(path, l, data, vtxdist[rank], vtxdist[rank + 1], &g, &sums[1], err) == COARSEN_OK;
    parhip_unmap(data, len);
    if (dist_graph_init(d, (int32_t)n, vtxdist, 0, 1, comm, err))
        MPI_Abort(comm, COARSEN_ERR_NOMEM);
    free(vtxdist);
    if (ok) {
        coarsen_graph_free(d->local);
        d->local = g;
        d->local->integral_weights = 1;
    }
    sums[0] = rank == 0 ? m : 0;
    return ok;
}

/* A stored entry sent to the owner of one of its rows: the entry (row, col)
 * of the stored (row, col) or, rev, the mirror of the stored (col, row). */
typedef struct placed {
    int32_t row, col;
    double w;
    int32_t rev;
} placed;

/* Matrix Market (coordinate, square): this rank's byte range of the
 * entries, every off-diagonal entry sent to the owners of both its rows
 * (blocks of equal vertex counts), arriving in file order per row (source
 * ranks in order, each in file order), placed and merged there with
 * graph_from_edges's own rules (graph_merge_rows). *head [out]: the header,
 * count = the entries; counts [out]: diagonal entries, duplicates merged,
 * zero-weight entries, here. */
static int read_mtx(const char *path, MPI_Comm comm, dist_graph *d, mtx_coo *head, int64_t counts[3], size_t *bytes,
                    coarsen_error *err)
{
    int rank, P;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &P);
    text_input t;
    text_cursor c;
    int64_t declared = 0;
    int opened = text_input_open(path, &t, err) == COARSEN_OK;
    int ok = opened && mtx_read_head(&t, head, &c, &declared, err) == COARSEN_OK && !head->is_array &&
             head->rows == head->cols && mtx_check_shape(&t, head, err) == COARSEN_OK;
    if (!all_ok(ok, comm)) {
        if (opened)
            text_input_free(&t);
        return 0;
    }
    *bytes = t.len;
    const char *lo, *hi;
    int64_t before[2], total[2];
    text_share(c.p, t.data + t.len, LINES_MTX, comm, &lo, &hi, before, total, err);
    mtx_coo m = *head; /* the header; the entries of this range */
    m.i = m.j = NULL, m.value = NULL, m.count = 0;
    ok = total[1] == declared && mtx_read_entries(&t, &m, lo, hi, c.line + 1 + before[0], err) == COARSEN_OK;
    text_input_free(&t);
    head->count = declared;
    if (!all_ok(ok, comm)) {
        mtx_coo_free(&m);
        return 0;
    }
    const int32_t n = (int32_t)head->rows;
    int64_t *vtxdist = dist_alloc((size_t)P + 1, sizeof *vtxdist, "vtxdist", comm, err);
    for (int r = 0; r <= P; r++)
        vtxdist[r] = (int64_t)n * r / P;
    int *cnt = dist_alloc(4 * (size_t)P, sizeof *cnt, "entry counts", comm, err);
    int *sc = cnt, *sd = cnt + P, *rc = cnt + 2 * P, *rd = cnt + 3 * P;
    int64_t *n64 = dist_alloc((size_t)P, sizeof *n64, "entry counts", comm, err);
    memset(n64, 0, (size_t)P * sizeof *n64);
    counts[0] = 0;
    for (int64_t k = 0; k < m.count; k++) {
        if (m.i[k] == m.j[k]) {
            counts[0]++;
            continue;
        }
        n64[dist_owner(vtxdist, P, m.i[k])]++;
        n64[dist_owner(vtxdist, P, m.j[k])]++;
    }
    for (int r = 0; r < P; r++)
        if (dist_int_count(n64[r], "entries", &sc[r], err))
            MPI_Abort(comm, COARSEN_ERR_NOMEM); /* the others are in the all-to-all (dist.h) */
    const int64_t got = dist_exchange_counts(sc, sd, rc, rd, P, comm);
    placed *send = dist_alloc((size_t)sd[P - 1] + (size_t)sc[P - 1], sizeof *send, "entries", comm, err);
    for (int r = 0; r < P; r++)
        n64[r] = sd[r];
    for (int64_t k = 0; k < m.count; k++) {
        const int32_t a = m.i[k], b = m.j[k];
        if (a == b)
            continue;
        send[n64[dist_owner(vtxdist, P, a)]++] = (placed){a, b, m.value[k], 0};
        send[n64[dist_owner(vtxdist, P, b)]++] = (placed){b, a, m.value[k], 1};
    }
    mtx_coo_free(&m);
    placed *recv = dist_alloc((size_t)got, sizeof *recv, "entries", comm, err);
    dist_alltoallv_records(send, sc, sd, recv, rc, rd, sizeof *send, comm);
    free(send);
    /* placed by row in arrival order: file order within each row */
    if (dist_graph_init(d, n, vtxdist, got, 1, comm, err))
        MPI_Abort(comm, COARSEN_ERR_NOMEM);
    coarsen_graph *g = d->local;
    const int32_t first = d->first;
    int64_t *off = dist_alloc((size_t)g->n + 1, sizeof *off, "row offsets", comm, err);
    uint8_t *rev = dist_alloc((size_t)got, 1, "entry directions", comm, err);
    memset(off, 0, ((size_t)g->n + 1) * sizeof *off);
    for (int64_t k = 0; k < got; k++)
        off[recv[k].row - first + 1]++;
    for (int32_t r = 0; r < g->n; r++)
        off[r + 1] += off[r];
    int64_t *at = dist_alloc((size_t)g->n + 1, sizeof *at, "row offsets", comm, err);
    memcpy(at, off, ((size_t)g->n + 1) * sizeof *at);
    for (int64_t k = 0; k < got; k++) {
        const int64_t x = at[recv[k].row - first]++;
        g->adj[x] = recv[k].col, g->ewgt[x] = recv[k].w, rev[x] = (uint8_t)recv[k].rev;
    }
    free(at), free(recv);
    graph_build_opts o;
    mtx_graph_opts(head, &o);
    ok = graph_merge_rows(g, off, o.mirrored ? NULL : rev, first, &o, &counts[1], &counts[2], err) == COARSEN_OK;
    free(rev), free(off), free(n64), free(cnt), free(vtxdist);
    return ok;
}

int dist_graph_read(const char *path, MPI_Comm comm, dist_graph *d, coarsen_graph **whole,
                    coarsen_read_report *report, coarsen_error *err)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    memset(d, 0, sizeof *d);
    *whole = NULL;
    int kind = rank == 0 ? input_kind(path) : KIND_ROOT;
    MPI_Bcast(&kind, 1, MPI_INT, 0, comm);
    if (kind == KIND_ROOT)
        return DIST_READ_ROOT;
    double t0 = timer_ms();
    /* every rank's faults are rank 0's to word: the messages here are dropped */
    coarsen_error mine = {0};
    metis_header mh;
    parhip_layout pl;
    mtx_coo mm;
    /* METIS and ParHIP: entries as stored, self-loops; Matrix Market:
     * diagonal entries, duplicates merged, zero-weight entries */
    int64_t sums[3] = {0, 0, 0}, total[3] = {0, 0, 0};
    size_t bytes = 0;
    int ok = kind == KIND_METIS  ? read_metis(path, comm, d, &mh, sums, &bytes, &mine)
             : kind == KIND_MTX ? read_mtx(path, comm, d, &mm, sums, &bytes, &mine)
                                : read_parhip(path, comm, d, &pl, sums, &bytes, &mine);
    if (!d->vtxdist) /* the header failed on every rank */
        return DIST_READ_ROOT;
    MPI_Allreduce(sums, total, 3, MPI_INT64_T, MPI_SUM, comm);
    int integral = d->local->integral_weights; /* Matrix Market's real weights */
    MPI_Allreduce(&integral, &d->integral_weights, 1, MPI_INT, MPI_MIN, comm);
    d->local->integral_weights = d->integral_weights;
    if (ok && kind == KIND_METIS) /* metis_read_graph_text's count check */
        ok = total[0] == 2 * mh.m || total[0] - total[1] == 2 * mh.m;
    double t1 = timer_ms();
    coarsen_graph *l = d->local;
    if (ok && !graph_rows_sorted(l))
        ok = graph_sort_rows(l, &mine) == COARSEN_OK && graph_rows_sorted(l); /* else a neighbour twice */
    int64_t nnz = l->nnz;
    MPI_Allreduce(&nnz, &d->nnz, 1, MPI_INT64_T, MPI_SUM, comm);
    /* a Matrix Market graph is symmetric as built (both directions placed) */
    if (!all_ok(ok, comm) || (kind != KIND_MTX && !dist_graph_symmetric(d, comm, &mine))) {
        dist_graph_free(d);
        return DIST_READ_ROOT;
    }
    dist_gather_graph(d, comm, whole, err);
    ok = rank != 0 || graph_check_weight_sums(path, *whole, &mine) == COARSEN_OK;
    MPI_Bcast(&ok, 1, MPI_INT, 0, comm);
    if (!ok) {
        coarsen_graph_free(*whole);
        *whole = NULL;
        dist_graph_free(d);
        return DIST_READ_ROOT;
    }
    if (rank == 0 && report) {
        memset(report, 0, sizeof *report);
        if (kind == KIND_METIS)
            metis_report(&mh, total[0], total[1], report);
        else if (kind == KIND_MTX)
            mtx_graph_report(&mm, total[0], total[1], total[2] / 2, report);
        else
            parhip_report(&pl, total[1], report);
        report->bytes = (int64_t)bytes;
        report->parse_ms = t1 - t0;
        report->build_ms = timer_ms() - t1;
    }
    return COARSEN_OK;
}
