/* test_graph_build.c — the edge-list to CSR builder: merge rules of
 * docs/formats.md (diagonal dropped, duplicates summed, |w|, A + A^T with
 * max), sorted rows and every CSR invariant, against a dense oracle. */
#include <criterion/criterion.h>
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "core/graph_build.h"
#include "core/hash.h"

/* Weight of (u, v) in g, or NAN when absent. */
static double weight_of(const coarsen_graph *g, int32_t u, int32_t v)
{
    for (int64_t e = g->xadj[u]; e < g->xadj[u + 1]; e++)
        if (g->adj[e] == v)
            return g->ewgt[e];
    return NAN;
}

Test(graph_build, general_matrix_takes_max_of_summed_directions)
{
    coarsen_error err = {0};
    edge_list e;
    cr_assert_eq(edge_list_init(&e, 4, &err), 0);
    edge_list_push(&e, 0, 1, 2.0, &err);
    edge_list_push(&e, 0, 1, -5.0, &err); /* duplicate: summed first -> -3 -> |.| = 3 */
    edge_list_push(&e, 1, 0, 1.5, &err);  /* other direction: max(3, 1.5) = 3 */
    edge_list_push(&e, 2, 2, 7.0, &err);  /* diagonal: dropped */
    edge_list_push(&e, 2, 0, 0.0, &err);  /* explicit zero stays an edge */
    graph_build_opts o = {.mirrored = 0, .dup_rule = MERGE_SUM, .sym_rule = MERGE_MAX};
    graph_build_stats st;
    coarsen_graph *g = NULL;
    cr_assert_eq(graph_from_edges(3, &e, &o, &g, &st, &err), 0, "%s", err.msg);
    cr_assert_eq(coarsen_graph_check(g, &err), 0, "%s", err.msg);
    cr_assert_eq(g->nnz, 4);
    cr_assert_eq(weight_of(g, 0, 1), 3.0);
    cr_assert_eq(weight_of(g, 1, 0), 3.0);
    cr_assert_eq(weight_of(g, 0, 2), 0.0);
    cr_assert_eq(st.diagonal_dropped, 1);
    cr_assert_eq(st.duplicates_merged, 1);
    cr_assert_eq(st.zero_weight_edges, 1);
    cr_assert(g->integral_weights, "1.5 lost to max(3, 1.5): every weight left is integral");
    coarsen_graph_free(g);
    edge_list_free(&e);
}

Test(graph_build, random_lists_match_dense_oracle)
{
    coarsen_error err = {0};
    for (int trial = 0; trial < 200; trial++) {
        int32_t n = 1 + (int32_t)(hash3(7, trial, 0) % 12);
        int mirrored = trial & 1;
        double dense[12][12] = {{0}}, pres[12][12] = {{0}};
        edge_list e;
        edge_list_init(&e, 1, &err);
        int count = (int)(hash3(7, trial, 1) % 40);
        for (int k = 0; k < count; k++) {
            int32_t i = (int32_t)(hash3(7, trial, 10 + 3 * k) % (uint64_t)n);
            int32_t j = (int32_t)(hash3(7, trial, 11 + 3 * k) % (uint64_t)n);
            double w = (double)((int64_t)(hash3(7, trial, 12 + 3 * k) % 9) - 4);
            edge_list_push(&e, i, j, w, &err);
            if (i == j)
                continue;
            if (mirrored && i < j) {
                int32_t t = i;
                i = j, j = t;
            }
            dense[i][j] += w;
            pres[i][j] = 1;
        }
        graph_build_opts o = {.mirrored = mirrored, .dup_rule = MERGE_SUM, .sym_rule = MERGE_MAX};
        coarsen_graph *g = NULL;
        cr_assert_eq(graph_from_edges(n, &e, &o, &g, NULL, &err), 0, "%s", err.msg);
        cr_assert_eq(coarsen_graph_check(g, &err), 0, "trial %d: %s", trial, err.msg);
        for (int32_t i = 0; i < n; i++)
            for (int32_t j = 0; j < n; j++) {
                if (i == j)
                    continue;
                int present = pres[i][j] || pres[j][i];
                double want = fmax(pres[i][j] ? fabs(dense[i][j]) : 0, pres[j][i] ? fabs(dense[j][i]) : 0);
                double got = weight_of(g, i, j);
                if (!present)
                    cr_assert(isnan(got), "trial %d: (%d,%d) should be absent", trial, i, j);
                else
                    cr_assert_eq(got, want, "trial %d: (%d,%d) = %g, want %g", trial, i, j, got, want);
            }
        coarsen_graph_free(g);
        edge_list_free(&e);
    }
}

/* One entry of the sequential reference below: (row, col, w) and a
 * sequence number that fixes the merge order of equal (row, col). */
typedef struct ref_entry {
    int32_t row, col;
    int64_t seq;
    double w;
} ref_entry;

static int ref_cmp(const void *a, const void *b)
{
    const ref_entry *x = a, *y = b;
    if (x->row != y->row)
        return (x->row > y->row) - (x->row < y->row);
    if (x->col != y->col)
        return (x->col > y->col) - (x->col < y->col);
    return (x->seq > y->seq) - (x->seq < y->seq);
}

static double ref_merge(merge_rule rule, double a, double b)
{
    return rule == MERGE_SUM ? a + b : (a > b ? a : b);
}

/* Sorts r[0..cnt) and folds equal (row, col) in seq order with rule, in
 * place; returns the new count and adds the entries folded away to *merged. */
static int64_t ref_sort_fold(ref_entry *r, int64_t cnt, merge_rule rule, int64_t *merged)
{
    qsort(r, (size_t)cnt, sizeof *r, ref_cmp);
    int64_t out = 0;
    for (int64_t k = 0; k < cnt; k++) {
        if (out > 0 && r[out - 1].row == r[k].row && r[out - 1].col == r[k].col) {
            r[out - 1].w = ref_merge(rule, r[out - 1].w, r[k].w);
            ++*merged;
        } else {
            r[out++] = r[k];
        }
    }
    return out;
}

/* The merge rules done the plain way, in two passes: fold the duplicates of
 * each stored key in input order, then emit |w| in both directions (keys in
 * (row, col) order, the stored direction first) and fold each pair of
 * directions in that order. */
static void ref_build(int32_t n, const edge_list *e, const graph_build_opts *o, int64_t *xadj, int32_t *adj,
                      double *ewgt, graph_build_stats *st)
{
    ref_entry *r = malloc((size_t)(2 * e->count + 1) * sizeof *r);
    int64_t cnt = 0, ignored = 0;
    *st = (graph_build_stats){0};
    for (int64_t k = 0; k < e->count; k++) {
        int32_t a = e->i[k], b = e->j[k];
        if (a == b) {
            st->diagonal_dropped++;
            continue;
        }
        if (o->mirrored && a < b)
            r[cnt++] = (ref_entry){b, a, k, e->w[k]};
        else
            r[cnt++] = (ref_entry){a, b, k, e->w[k]};
    }
    cnt = ref_sort_fold(r, cnt, o->dup_rule, &st->duplicates_merged);
    for (int64_t k = cnt - 1; k >= 0; k--) {
        ref_entry x = r[k];
        r[2 * k] = (ref_entry){x.row, x.col, 2 * k, fabs(x.w)};
        r[2 * k + 1] = (ref_entry){x.col, x.row, 2 * k + 1, fabs(x.w)};
    }
    cnt = ref_sort_fold(r, 2 * cnt, o->sym_rule, &ignored);
    for (int32_t v = 0; v <= n; v++)
        xadj[v] = 0;
    for (int64_t k = 0; k < cnt; k++) {
        xadj[r[k].row + 1]++;
        adj[k] = r[k].col;
        ewgt[k] = r[k].w;
        st->zero_weight_edges += r[k].w == 0.0;
    }
    st->zero_weight_edges /= 2;
    for (int32_t v = 0; v < n; v++)
        xadj[v + 1] += xadj[v];
    free(r);
}

Test(graph_build, bit_identical_to_two_pass_reference)
{
    coarsen_error err = {0};
    for (int trial = 0; trial < 400; trial++) {
        int32_t n = 1 + (int32_t)(hash3(11, trial, 0) % 60);
        graph_build_opts o = {.mirrored = trial & 1,
                              .dup_rule = (trial >> 1) & 1 ? MERGE_MAX : MERGE_SUM,
                              .sym_rule = (trial >> 2) & 1 ? MERGE_SUM : MERGE_MAX};
        int64_t count = (int64_t)(hash3(11, trial, 1) % 700);
        edge_list e;
        cr_assert_eq(edge_list_init(&e, 1, &err), 0);
        for (int64_t k = 0; k < count; k++) {
            /* Few rows and many entries: long rows (sorted by qsort) with
             * many duplicates; weights of mixed sign and scale, so that the
             * order of a sum shows in its bits. */
            int32_t i = (int32_t)(hash3(11, trial, 10 + 3 * k) % (uint64_t)n);
            int32_t j = (int32_t)(hash3(11, trial, 11 + 3 * k) % (uint64_t)n);
            uint64_t h = hash3(11, trial, 12 + 3 * k);
            double w = ldexp((double)(int64_t)(h % 2001) - 1000.0, (int)((h >> 20) % 100) - 50);
            cr_assert_eq(edge_list_push(&e, i, j, w, &err), 0);
        }
        int64_t *xadj = malloc(((size_t)n + 1) * sizeof *xadj);
        int32_t *adj = malloc((size_t)(2 * count + 1) * sizeof *adj);
        double *ewgt = malloc((size_t)(2 * count + 1) * sizeof *ewgt);
        graph_build_stats want, got;
        ref_build(n, &e, &o, xadj, adj, ewgt, &want);
        coarsen_graph *g = NULL;
        cr_assert_eq(graph_from_edges(n, &e, &o, &g, &got, &err), 0, "%s", err.msg);
        cr_assert_eq(coarsen_graph_check(g, &err), 0, "trial %d: %s", trial, err.msg);
        cr_assert_eq(memcmp(g->xadj, xadj, ((size_t)n + 1) * sizeof *xadj), 0, "trial %d: row offsets", trial);
        cr_assert_eq(memcmp(g->adj, adj, (size_t)g->nnz * sizeof *adj), 0, "trial %d: neighbours", trial);
        cr_assert_eq(memcmp(g->ewgt, ewgt, (size_t)g->nnz * sizeof *ewgt), 0, "trial %d: weights", trial);
        int integral = 1;
        for (int64_t k = 0; k < g->nnz; k++)
            integral = integral && ewgt[k] == floor(ewgt[k]);
        cr_assert_eq(g->integral_weights, integral, "trial %d", trial);
        cr_assert_eq(got.diagonal_dropped, want.diagonal_dropped, "trial %d", trial);
        cr_assert_eq(got.duplicates_merged, want.duplicates_merged, "trial %d", trial);
        cr_assert_eq(got.zero_weight_edges, want.zero_weight_edges, "trial %d", trial);
        coarsen_graph_free(g);
        free(xadj);
        free(adj);
        free(ewgt);
        edge_list_free(&e);
    }
}

/* The parallel bucket pass (lists of PARALLEL_MIN entries and more) places
 * every row's entries in input order whatever the thread count: the result
 * equals the two-pass reference bit for bit on 1, 2, 3, 7 and 16 threads,
 * with long runs of duplicates whose sums show their order in the last bits.
 * Half the trials have a few thousand vertices (on several threads a bucket
 * is then one row), half 2-20 * 10^4 (buckets of many rows, the last one
 * short, and the hubs' bucket far larger than the others). */
Test(graph_build, parallel_bucket_pass_bit_identical_on_any_thread_count)
{
    coarsen_error err = {0};
    int saved = omp_get_max_threads();
    for (int trial = 0; trial < 8; trial++) {
        int32_t n = trial < 4 ? 500 + (int32_t)(hash3(13, trial, 0) % 3000)
                              : 20001 + 2 * (int32_t)(hash3(13, trial, 0) % 90000);
        graph_build_opts o = {.mirrored = trial & 1,
                              .dup_rule = (trial >> 1) & 1 ? MERGE_MAX : MERGE_SUM,
                              .sym_rule = (trial >> 2) & 1 ? MERGE_SUM : MERGE_MAX};
        int64_t count = 150000 + (int64_t)(hash3(13, trial, 1) % 100000);
        edge_list e;
        cr_assert_eq(edge_list_init(&e, count, &err), 0);
        for (int64_t k = 0; k < count; k++) {
            /* Rows concentrated on a few hubs too, so one thread's range is uneven. */
            uint64_t h = hash3(13, trial, 10 + 3 * k);
            int32_t i = (int32_t)(h % 4 == 0 ? h % 7 : hash3(13, trial, 11 + 3 * k) % (uint64_t)n);
            int32_t j = (int32_t)(hash3(13, trial, 12 + 3 * k) % (uint64_t)(n / 8 + 1));
            double w = ldexp((double)(int64_t)(h % 2001) - 1000.0, (int)((h >> 20) % 100) - 50);
            cr_assert_eq(edge_list_push(&e, i, j, w, &err), 0);
        }
        int64_t *xadj = malloc(((size_t)n + 1) * sizeof *xadj);
        int32_t *adj = malloc((size_t)(2 * count + 1) * sizeof *adj);
        double *ewgt = malloc((size_t)(2 * count + 1) * sizeof *ewgt);
        graph_build_stats want;
        ref_build(n, &e, &o, xadj, adj, ewgt, &want);
        static const int threads[] = {1, 2, 3, 7, 16};
        for (int t = 0; t < 5; t++) {
            omp_set_num_threads(threads[t]);
            coarsen_graph *g = NULL;
            graph_build_stats got;
            cr_assert_eq(graph_from_edges(n, &e, &o, &g, &got, &err), 0, "%s", err.msg);
            cr_assert_eq(memcmp(g->xadj, xadj, ((size_t)n + 1) * sizeof *xadj), 0, "trial %d, %d threads: offsets",
                         trial, threads[t]);
            cr_assert_eq(memcmp(g->adj, adj, (size_t)g->nnz * sizeof *adj), 0, "trial %d, %d threads: neighbours",
                         trial, threads[t]);
            cr_assert_eq(memcmp(g->ewgt, ewgt, (size_t)g->nnz * sizeof *ewgt), 0, "trial %d, %d threads: weights",
                         trial, threads[t]);
            cr_assert_eq(got.diagonal_dropped, want.diagonal_dropped, "trial %d, %d threads", trial, threads[t]);
            cr_assert_eq(got.duplicates_merged, want.duplicates_merged, "trial %d, %d threads", trial, threads[t]);
            coarsen_graph_free(g);
        }
        free(xadj);
        free(adj);
        free(ewgt);
        edge_list_free(&e);
    }
    omp_set_num_threads(saved);
}

/* Oracle order of graph_sort_neighbours: by neighbour, then by input position. */
typedef struct sort_ref {
    int32_t col;
    int64_t at;
} sort_ref;

static int sort_ref_cmp(const void *a, const void *b)
{
    const sort_ref *x = a, *y = b;
    return x->col != y->col ? (x->col > y->col) - (x->col < y->col) : (x->at > y->at) - (x->at < y->at);
}

/* graph_sort_neighbours against qsort with the input position as the tie-break, on
 * rows of 0 to 200 entries (the short ones sorted in place, the long ones
 * through the scratch buffer), sorted, reversed and random, with ids from a
 * small range (many repeats, whose weights, their input positions, must keep
 * their order). */
Test(graph_build, sort_row_is_a_stable_sort)
{
    graph_entry *scratch = NULL;
    int64_t cap = 0;
    uint64_t state = 5;
    int32_t adj[200];
    double w[200];
    sort_ref ref[200];
    for (int64_t len = 0; len <= 200; len++)
        for (int shape = 0; shape < 4; shape++) {
            for (int64_t k = 0; k < len; k++) {
                int32_t c = shape == 0 ? (int32_t)k : shape == 1 ? (int32_t)(len - k) : (int32_t)(hash_mix64(++state) % (uint64_t)(shape == 2 ? 8 : 1000));
                adj[k] = c, w[k] = (double)k;
                ref[k] = (sort_ref){c, k};
            }
            qsort(ref, (size_t)len, sizeof *ref, sort_ref_cmp);
            cr_assert_eq(graph_sort_neighbours(adj, w, len, &scratch, &cap), 0);
            for (int64_t k = 0; k < len; k++)
                cr_assert(adj[k] == ref[k].col && w[k] == (double)ref[k].at,
                          "length %lld shape %d at %lld: (%d, %g), want (%d, %lld)", (long long)len, shape,
                          (long long)k, adj[k], w[k], ref[k].col, (long long)ref[k].at);
        }
    free(scratch);
}
