/* test_hec.c — heavy-edge clustering (matching/hec.h) and the edge ratings
 * (edge_order.h): each vertex's choice against a plain scan of its row
 * under the rating formula written here; without a cap the groups are
 * exactly the trees of the choice pointers (union-find oracle); with a cap
 * every group stays under it, has at most one member whose choice lies
 * outside it or is a two-hop pair (two members with a common neighbour,
 * step 4), and a vertex with an eligible neighbour stays alone only under a
 * cap; the islands follow step 4a and two-hop's rule (0) exactly (the j-th
 * island joins the j-th group of two or more when the cap allows, the
 * others pair by position; an oracle replaying both); results do
 * not depend on the thread count; handshake under a rating equals the greedy
 * matching over the rated edges; and the GPU equals the CPU bit for bit
 * (skipped visibly without a GPU). */
#include <criterion/criterion.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/hash.h"
#include "device/device.h"
#include "matching/hec.h"
#include "tests/support/match_oracles.h"
#include "tests/support/test_support.h"

/* The rating of an edge of weight w between vertex weights a and b, as
 * matching.h states it. */
static double rate(int rating, double w, int64_t a, int64_t b)
{
    double ca = a > 1 ? (double)a : 1.0, cb = b > 1 ? (double)b : 1.0;
    return rating == MATCH_RATING_WEIGHT ? w : rating == MATCH_RATING_EXPANSION ? w / (ca * cb) : w * w / (ca * cb);
}

/* v's choice by a plain scan: the best rated neighbour within the cap, ties
 * to the smaller rank. */
static int32_t choice_of(const coarsen_graph *g, int32_t v, const matching_opts *o)
{
    const tie_rule t = match_ties(o);
    int32_t best = -1;
    double bk = 0;
    for (int64_t e = g->xadj[v]; e < g->xadj[v + 1]; e++) {
        int32_t u = g->adj[e];
        if (o->max_vertex_weight > 0 && g->vwgt[u] + g->vwgt[v] > o->max_vertex_weight)
            continue;
        double k = rate(o->rating, g->ewgt[e], g->vwgt[v], g->vwgt[u]);
        if (best < 0 || k > bk || (k == bk && tie_rank(t, u) < tie_rank(t, best)))
            best = u, bk = k;
    }
    return best;
}

static int32_t find(int32_t *up, int32_t v)
{
    while (up[v] != v)
        v = up[v] = up[up[v]];
    return v;
}

/* 1 when u and v have a common neighbour (a plain scan of both rows). */
static int shares_neighbour(const coarsen_graph *g, int32_t u, int32_t v)
{
    for (int64_t e = g->xadj[u]; e < g->xadj[u + 1]; e++)
        for (int64_t f = g->xadj[v]; f < g->xadj[v + 1]; f++)
            if (g->adj[e] == g->adj[f])
                return 1;
    return 0;
}

/* What check_islands saw over a test's cases: islands joined to a group,
 * refused by it under the cap, paired. */
static int64_t islands_joined, islands_refused, islands_paired;

/* The islands' part of the rule (hec.h, steps 4a and 4b's rule (0)) replayed
 * on cmap: the groups of two or more of steps 1-3 are the groups with two or
 * more connected members that are no two-hop pair (two_hop[c]), in
 * increasing coarse id (the leaders' order); island j joins group j when
 * the group's weight without it (w less isl_w) and its own fit the cap; the
 * islands left pair by position (2i with 2i + 1) under the cap. Returns the
 * merges. */
static int64_t check_islands(const coarsen_graph *g, int64_t cap, const int32_t *cmap, int32_t nc, const int32_t *conn,
                             const uint8_t *two_hop, const int64_t *w, const int64_t *isl_w, const char *what)
{
    int32_t *host = malloc(((size_t)nc + 1) * sizeof *host), hosts = 0, j = 0, pending = -1;
    for (int32_t c = 0; c < nc; c++)
        if (conn[c] >= 2 && !two_hop[c])
            host[hosts++] = c;
    int64_t merges = 0;
    for (int32_t v = 0; v < g->n; v++) {
        if (g->xadj[v + 1] != g->xadj[v])
            continue;
        if (j < hosts) {
            const int32_t c = host[j++];
            if (pair_eligible(cap, w[c] - isl_w[c], g->vwgt[v])) {
                cr_assert_eq(cmap[v], c, "%s: island %d (host %d) in group %d", what, v, c, cmap[v]);
                merges++;
                islands_joined++;
                continue;
            }
            cr_assert_neq(cmap[v], c, "%s: island %d joined group %d over the cap", what, v, c);
            islands_refused++;
        }
        if (pending < 0) { /* two-hop's rule (0): positions 2i and 2i + 1 of the islands left */
            pending = v;
            continue;
        }
        const int paired = pair_eligible(cap, g->vwgt[pending], g->vwgt[v]);
        cr_assert_eq(cmap[v] == cmap[pending], paired, "%s: islands %d and %d: paired %d, eligible %d", what, pending,
                     v, cmap[v] == cmap[pending], paired);
        merges += paired;
        islands_paired += paired;
        pending = -1;
    }
    free(host);
    return merges;
}

/* Checks cmap/nc against the rule (see the top comment); returns the
 * number of groups of two or more. */
static int32_t check_hec(const coarsen_graph *g, const matching_opts *o, const int32_t *cmap, int32_t nc,
                         const hec_stats *st, const char *what)
{
    const int32_t n = g->n;
    const int64_t cap = o->max_vertex_weight;
    int32_t *ch = malloc(((size_t)n + 1) * sizeof *ch), *size = calloc((size_t)nc + 1, sizeof *size);
    int32_t *outside = calloc((size_t)nc + 1, sizeof *outside);
    int32_t *conn = calloc((size_t)nc + 1, sizeof *conn); /* connected members, and the first of them */
    int32_t *first_conn = malloc(((size_t)nc + 1) * sizeof *first_conn);
    int64_t *w = calloc((size_t)nc + 1, sizeof *w), *isl_w = calloc((size_t)nc + 1, sizeof *isl_w);
    uint8_t *two_hop_pair = calloc((size_t)nc + 1, 1);
    for (int32_t v = 0; v < n; v++) {
        ch[v] = choice_of(g, v, o);
        cr_assert(cmap[v] >= 0 && cmap[v] < nc, "%s: cmap[%d] = %d outside [0, %d)", what, v, cmap[v], nc);
        size[cmap[v]]++;
        w[cmap[v]] += g->vwgt[v];
        if (g->xadj[v + 1] == g->xadj[v])
            isl_w[cmap[v]] += g->vwgt[v];
        else if (conn[cmap[v]]++ == 0)
            first_conn[cmap[v]] = v;
    }
    int32_t multi = 0;
    int64_t grouped = 0, blocked = 0;
    for (int32_t c = 0; c < nc; c++) {
        cr_assert(size[c] > 0, "%s: coarse vertex %d empty", what, c);
        multi += size[c] > 1;
        if (size[c] > 1 && cap > 0)
            cr_assert_leq(w[c], cap, "%s: group %d weighs %lld > cap %lld", what, c, (long long)w[c], (long long)cap);
    }
    for (int32_t v = 0; v < n; v++) {
        int32_t c = cmap[v];
        if (g->xadj[v + 1] == g->xadj[v]) {
            cr_assert(size[c] == conn[c] + 1 || conn[c] == 0, "%s: island %d in a group with %d others", what, v,
                      size[c] - conn[c] - 1);
            cr_assert(conn[c] > 0 || size[c] <= 2, "%s: island %d in a group of %d islands", what, v, size[c]);
            continue;
        }
        if (ch[v] < 0 || cmap[ch[v]] != c)
            outside[c]++;
        if (size[c] > 1)
            grouped++;
        else
            blocked++;
        if (cap <= 0)
            cr_assert(ch[v] < 0 || cmap[ch[v]] == c, "%s: no cap, yet %d is not with its choice %d", what, v, ch[v]);
        if (size[c] == 1 && ch[v] >= 0) /* turned away by the cap (by prefix: not always for want of room) */
            cr_assert(cap > 0 && w[cmap[ch[v]]] > g->vwgt[ch[v]], "%s: %d alone though it has a choice", what, v);
    }
    /* step 4's two-hop pairs: two members whose choices both lie outside, two hops apart */
    int64_t two_hop = 0;
    for (int32_t c = 0; c < nc; c++) {
        if (conn[c] == 2 && outside[c] == 2) {
            cr_assert_eq(size[c], 2, "%s: two-hop pair %d with an island", what, c);
            int32_t u = first_conn[c], v = u + 1;
            while (cmap[v] != c)
                v++;
            cr_assert(shares_neighbour(g, u, v), "%s: pair %d, %d of group %d is no two-hop pair", what, u, v, c);
            two_hop_pair[c] = 1;
            two_hop++;
            continue;
        }
        cr_assert_leq(outside[c], 1, "%s: group %d has %d members whose choice is outside it", what, c, outside[c]);
    }
    cr_assert_eq(st->leaf_pairs + st->twin_pairs + st->relative_pairs, two_hop, "%s: %lld two-hop pairs, %lld found",
                 what, (long long)(st->leaf_pairs + st->twin_pairs + st->relative_pairs), (long long)two_hop);
    const int64_t islands = check_islands(g, cap, cmap, nc, conn, two_hop_pair, w, isl_w, what);
    cr_assert_eq(st->island_pairs, islands, "%s: island merges %lld, %lld found", what, (long long)st->island_pairs,
                 (long long)islands);
    cr_assert(st->grouped == grouped && st->cap_blocked == blocked, "%s: grouped %lld/%lld, blocked %lld/%lld", what,
              (long long)st->grouped, (long long)grouped, (long long)st->cap_blocked, (long long)blocked);
    /* without a cap: the groups are the trees of the choice pointers */
    if (cap <= 0) {
        int32_t *up = malloc(((size_t)n + 1) * sizeof *up);
        for (int32_t v = 0; v < n; v++)
            up[v] = v;
        for (int32_t v = 0; v < n; v++)
            if (ch[v] >= 0)
                up[find(up, v)] = find(up, ch[v]);
        for (int32_t v = 0; v < n; v++)
            for (int32_t u = v + 1; u < n; u++)
                if (g->xadj[u + 1] > g->xadj[u] && g->xadj[v + 1] > g->xadj[v])
                    cr_assert_eq(find(up, u) == find(up, v), cmap[u] == cmap[v],
                                 "%s: %d and %d: same tree %d, same group %d", what, u, v, find(up, u) == find(up, v),
                                 cmap[u] == cmap[v]);
        free(up);
    }
    free(ch), free(size), free(outside), free(conn), free(first_conn), free(w), free(isl_w);
    free(two_hop_pair);
    return multi;
}

static matching_opts hec_opts(int t)
{
    matching_opts o;
    matching_opts_default(&o);
    o.kind = MATCHER_HEC;
    o.rating = (match_rating)(t % 3);
    o.hashed_ties = t % 2;
    o.seed = (uint64_t)t;
    o.max_vertex_weight = t % 4 == 0 ? 0 : 4 + t % 9;
    return o;
}

/* Small random graphs (isolated vertices among them), random vertex weights. */
static coarsen_graph *hec_case(int t)
{
    coarsen_graph *g = t % 5 == 4 ? test_star_graph(2 + t % 40, t % 7, t % 3, (uint64_t)t)
                                  : test_random_graph(1 + t % 50, 0.02 + 0.03 * (t % 6), t % 3, (uint64_t)t);
    test_random_vertex_weights(g, 1 + t % 5, (uint64_t)t);
    return g;
}

#define HEC_CASES 300

Test(hec, small_graphs_follow_the_rule)
{
    coarsen_error err = {0};
    int64_t groups = 0, islands = 0, blocked = 0, two_hop = 0;
    for (int t = 0; t < HEC_CASES; t++) {
        coarsen_graph *g = hec_case(t);
        matching_opts o = hec_opts(t);
        int32_t *cmap = malloc(((size_t)g->n + 1) * sizeof *cmap), nc = 0;
        hec_stats st;
        cr_assert_eq(hec_cpu(g, &o, cmap, &nc, &st, &err), 0, "%s", err.msg);
        char what[64];
        snprintf(what, sizeof what, "case %d", t);
        groups += check_hec(g, &o, cmap, nc, &st, what);
        islands += st.island_pairs;
        blocked += st.cap_blocked;
        two_hop += st.leaf_pairs + st.twin_pairs + st.relative_pairs;
        free(cmap);
        coarsen_graph_free(g);
    }
    cr_assert(groups > 500 && islands > 20 && blocked > 20 && two_hop > 20,
              "cases exercise groups %lld, islands %lld, blocked %lld, two-hop pairs %lld", (long long)groups,
              (long long)islands, (long long)blocked, (long long)two_hop);
    cr_assert(islands_joined > 20 && islands_refused > 5 && islands_paired > 5,
              "cases exercise islands joined %lld, refused %lld, paired %lld", (long long)islands_joined,
              (long long)islands_refused, (long long)islands_paired);
}

/* A star with unit weights and cap 5: the centre's group takes the leaves
 * in id order (all rate alike) until it weighs 5; the six leaves left over
 * pair up in id order as leaves of the centre (step 4). */
Test(hec, star_fills_the_centre_group_then_pairs_the_rest)
{
    coarsen_error err = {0};
    coarsen_graph *g = test_star_graph(11, 0, 0, 1);
    matching_opts o;
    matching_opts_default(&o);
    o.kind = MATCHER_HEC;
    o.max_vertex_weight = 5;
    int32_t cmap[11], nc = 0;
    hec_stats st;
    cr_assert_eq(hec_cpu(g, &o, cmap, &nc, &st, &err), 0, "%s", err.msg);
    /* leaf 1 and the centre are a mutual pair (the centre's choice: the smallest id) */
    for (int32_t v = 0; v <= 4; v++)
        cr_assert_eq(cmap[v], 0, "vertex %d", v);
    for (int32_t v = 5; v < 11; v++)
        cr_assert_eq(cmap[v], 1 + (v - 5) / 2, "vertex %d", v);
    cr_assert_eq(nc, 4);
    cr_assert_eq(st.rounds, 1);
    cr_assert_eq(st.leaf_pairs, 3);
    cr_assert_eq(st.cap_blocked, 0);
    coarsen_graph_free(g);
}

/* Case 4's star has more than THREADS_PARALLEL_MIN candidates in its first
 * round: on 2 threads they are sorted and admitted in blocks (join_round),
 * on 1 chained by group (admit_chained); the two must agree. */
Test(hec, thread_count_independent_on_larger_graphs)
{
    coarsen_error err = {0};
    for (int t = 0; t < 5; t++) {
        coarsen_graph *g = t == 4  ? test_star_graph(150000, 3000, 1, (uint64_t)t)
                           : t % 2 ? test_star_graph(20000, 40000, 1, (uint64_t)t)
                                   : test_sparse_graph(50000, 120000, 2, (uint64_t)t);
        test_random_vertex_weights(g, 3, (uint64_t)t);
        matching_opts o = hec_opts(t + 1);
        size_t bytes = ((size_t)g->n + 1) * sizeof(int32_t);
        int32_t *a = malloc(bytes), *b = malloc(bytes), na = 0, nb = 0;
        hec_stats sa, sb;
        omp_set_num_threads(1);
        cr_assert_eq(hec_cpu(g, &o, a, &na, &sa, &err), 0, "%s", err.msg);
        omp_set_num_threads(2);
        cr_assert_eq(hec_cpu(g, &o, b, &nb, &sb, &err), 0, "%s", err.msg);
        cr_assert(na == nb && !memcmp(a, b, (size_t)g->n * sizeof *a), "case %d: 1 and 2 threads differ", t);
        cr_assert(sa.rounds == sb.rounds && sa.grouped == sb.grouped && sa.cap_blocked == sb.cap_blocked &&
                  sa.relative_pairs == sb.relative_pairs);
        check_hec(g, &o, a, na, &sa, "larger graph");
        free(a), free(b);
        coarsen_graph_free(g);
    }
}

/* Handshake under a rating is the greedy matching over the rated edges: the
 * oracle runs on a copy whose weights are the ratings. */
Test(hec, handshake_ratings_equal_greedy_over_rated_edges)
{
    coarsen_error err = {0};
    for (int t = 0; t < 120; t++) {
        coarsen_graph *g = test_small_graph(t, (uint64_t)t);
        test_random_vertex_weights(g, 4, (uint64_t)t);
        matching_opts o;
        matching_opts_default(&o);
        o.rating = (match_rating)(1 + t % 2);
        o.hashed_ties = t % 3 == 0;
        o.seed = (uint64_t)t;
        o.max_vertex_weight = t % 4 ? 0 : 6;
        coarsen_graph *r = coarsen_graph_alloc(g->n, g->nnz, &err);
        memcpy(r->xadj, g->xadj, ((size_t)g->n + 1) * sizeof *r->xadj);
        memcpy(r->adj, g->adj, (size_t)g->nnz * sizeof *r->adj);
        memcpy(r->vwgt, g->vwgt, (size_t)g->n * sizeof *r->vwgt);
        for (int32_t v = 0; v < g->n; v++)
            for (int64_t e = g->xadj[v]; e < g->xadj[v + 1]; e++)
                r->ewgt[e] = rate(o.rating, g->ewgt[e], g->vwgt[v], g->vwgt[g->adj[e]]);
        int32_t *got = malloc(((size_t)g->n + 1) * sizeof *got), *want = malloc(((size_t)g->n + 1) * sizeof *want);
        matching_stats ms;
        cr_assert_eq(match_cpu(g, &o, got, NULL, &ms, &err), 0, "%s", err.msg);
        oracle_greedy_matching(r, o.max_vertex_weight, match_ties(&o), want);
        cr_assert(!memcmp(got, want, (size_t)g->n * sizeof *got), "case %d: handshake under rating %d is not greedy",
                  t, (int)o.rating);
        free(got), free(want);
        coarsen_graph_free(r);
        coarsen_graph_free(g);
    }
}

Test(hec, options_checked)
{
    coarsen_error err = {0};
    coarsen_graph *g = test_random_graph(10, 0.3, 0, 1);
    matching_opts o;
    matching_opts_default(&o);
    int32_t mate[10], nc;
    o.kind = MATCHER_HEC;
    cr_assert_eq(match_cpu(g, &o, mate, NULL, &(matching_stats){0}, &err), COARSEN_ERR_INPUT, "match_cpu runs no HEC");
    o.kind = MATCHER_REDBLUE;
    o.rating = MATCH_RATING_EXPANSION;
    cr_assert_eq(matching_opts_check(&o, &err), COARSEN_ERR_INPUT, "red/blue rates by weight only");
    o.kind = MATCHER_HEC;
    o.rating = (match_rating)7;
    cr_assert_eq(hec_cpu(g, &o, mate, &nc, NULL, &err), COARSEN_ERR_INPUT);
    o.rating = MATCH_RATING_WEIGHT;
    o.relatives_threshold = -0.5;
    cr_assert_eq(hec_cpu(g, &o, mate, &nc, NULL, &err), COARSEN_ERR_INPUT, "a negative relatives threshold");
    o.relatives_threshold = 0;
    cr_assert_eq(hec_cpu(g, &o, mate, &nc, NULL, &err), COARSEN_OK, "%s", err.msg);
    coarsen_graph_free(g);
}

/* CPU == GPU: the small cases, larger sparse and star graphs, and the
 * shared graphs when present. */
Test(hec_gpu, identical_to_cpu)
{
    if (!test_have_gpu())
        cr_skip_test("no GPU (or built without CUDA): GPU heavy-edge clustering not run");
    coarsen_error err = {0};
    for (int t = 0; t < HEC_CASES + 6; t++) {
        coarsen_graph *g = t < HEC_CASES         ? hec_case(t)
                           : t < HEC_CASES + 3 ? test_sparse_graph(300000, 500000, t % 3, (uint64_t)t)
                                               : test_star_graph(100000, 50000, t % 3, (uint64_t)t);
        if (t >= HEC_CASES)
            test_random_vertex_weights(g, 3, (uint64_t)t);
        matching_opts o = hec_opts(t);
        size_t bytes = ((size_t)g->n + 1) * sizeof(int32_t);
        int32_t *cpu = malloc(bytes), *gpu = malloc(bytes), nc = 0, ng = 0;
        hec_stats sc, sg;
        cr_assert_eq(hec_cpu(g, &o, cpu, &nc, &sc, &err), 0, "%s", err.msg);
        coarsen_graph *dg = NULL;
        void *d_cmap = NULL;
        cr_assert_eq(device_graph_upload(g, &dg, &err), 0, "%s", err.msg);
        cr_assert_eq(device_alloc(&d_cmap, bytes, "cmap", &err), 0, "%s", err.msg);
        cr_assert_eq(hec_gpu(dg, &o, d_cmap, &ng, &sg, &err), 0, "case %d: %s", t, err.msg);
        cr_assert_eq(device_copy_to_host(gpu, d_cmap, (size_t)g->n * sizeof *gpu, &err), 0, "%s", err.msg);
        cr_assert_eq(nc, ng, "case %d: %d groups on the CPU, %d on the GPU", t, nc, ng);
        cr_assert(!memcmp(cpu, gpu, (size_t)g->n * sizeof *cpu), "case %d: GPU map differs from CPU", t);
        cr_assert(sc.rounds == sg.rounds && sc.grouped == sg.grouped && sc.island_pairs == sg.island_pairs &&
                      sc.leaf_pairs == sg.leaf_pairs && sc.twin_pairs == sg.twin_pairs &&
                      sc.relative_pairs == sg.relative_pairs &&
                      sc.cap_blocked == sg.cap_blocked,
                  "case %d: stats differ", t);
        device_free(d_cmap);
        coarsen_graph_free(dg);
        free(cpu), free(gpu);
        coarsen_graph_free(g);
    }
}
