/* hec_cpu.c — heavy-edge clustering on the host (hec.h), the reference of
 * hec.cu: choices in parallel (match_strongest_cpu), then rounds over
 * the shrinking list of vertices not yet in a group: the candidates sorted
 * by (leader, rating descending, id) and admitted by prefix under the cap
 * (on one thread, each group's candidates chained and only they sorted);
 * the islands joined to groups by position, two_hop_cpu on the vertices
 * still alone; coarse ids by leader. */
#include "matching/hec.h"
#include "matching/match_internal.h"
#include "matching/two_hop.h"
#include "core/error.h"
#include "core/radix_sort.h"
#include "core/threads.h"
#include "core/timer.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct joiner { /* 16 bytes: the sorts move fewer */
    int32_t leader; /* the group of the vertex's choice */
    int32_t id;
    double key; /* rating of the edge to the choice */
} joiner;

static int joiner_cmp(const void *a, const void *b)
{
    const joiner *x = a, *y = b;
    if (x->leader != y->leader)
        return x->leader < y->leader ? -1 : 1;
    if (x->key != y->key)
        return x->key > y->key ? -1 : 1;
    return (x->id > y->id) - (x->id < y->id);
}

/* The arrays of one run; free_all releases whatever was allocated. */
typedef struct hec_work {
    int32_t *choice, *leader, *pending, *spare;
    int32_t *head; /* per vertex: its first chained candidate (admit_chained), -1 between rounds */
    double *key;
    int64_t *gw; /* group weight, valid at leaders */
    joiner *join, *sorted;
} hec_work;

static void free_all(hec_work *w)
{
    free(w->choice), free(w->leader), free(w->pending), free(w->spare), free(w->head), free(w->key), free(w->gw),
        free(w->join), free(w->sorted);
}

/* The blocks of an ordered parallel loop over [0, n): thread t of nt owns
 * [n t / nt, n (t + 1) / nt), and what it selects goes after what the
 * threads before it selected, so lists keep their order on any thread count. */
enum { MAX_BLOCKS = 1024 };
static int blocks_for(int64_t n)
{
    const int t = threads_for(n);
    return t < MAX_BLOCKS ? t : MAX_BLOCKS;
}
#ifdef _OPENMP
#define BLOCK_SELF(t, nt) const int t = omp_get_thread_num(), nt = omp_get_num_threads()
#else
#define BLOCK_SELF(t, nt) const int t = 0, nt = 1 /* a build without OpenMP (the fuzz target) */
#endif

/* Inside the parallel region of the blocks: block t of nt selected count
 * items; returns where they start in the shared list, and the list's length
 * in *total, once every block has counted. starts: nt + 1 shared slots,
 * starts[0] = 0. */
static int32_t block_start(int32_t *starts, int t, int nt, int32_t count, int32_t *total)
{
    starts[t + 1] = count;
#pragma omp barrier
#pragma omp single
    {
        for (int u = 0; u < nt; u++)
            starts[u + 1] += starts[u];
        *total = starts[nt];
    }
    return starts[t]; /* the single's closing barrier published them */
}

/* The candidates' order (joiner_cmp's; dist/hec.c's the same way): a radix
 * sort by leader, each leader's few candidates then sorted by joiner_cmp
 * (core/radix_sort.h's radix_sort_refined: two or three radix passes where
 * (leader, rating) took up to twelve). a[0..m) sorted in place, tmp of m
 * entries scratch. An allocation failure goes to qsort. */
static uint64_t leader_word(const void *item, int word)
{
    (void)word;
    return (uint64_t)(uint32_t)((const joiner *)item)->leader;
}

static void sort_joiners(joiner *a, joiner *tmp, int32_t m)
{
    if (radix_sort_refined(a, tmp, m, sizeof *a, 1, leader_word, joiner_cmp))
        qsort(a, (size_t)m, sizeof *a, joiner_cmp);
}

/* Admits the candidates of join[0..m), sorted, whose leaders no other
 * caller's share: in order, each leader's prefix that fits under the cap
 * joins, the rest start groups of their own. */
static void admit(const coarsen_graph *g, int64_t cap, hec_work *w, const joiner *join, int32_t m)
{
    int64_t base = 0, sum = 0;
    for (int32_t i = 0; i < m; i++) {
        int32_t lead = join[i].leader, v = join[i].id;
        if (i == 0 || lead != join[i - 1].leader)
            base = w->gw[lead], sum = 0;
        sum += g->vwgt[v];
        if (cap <= 0 || base + sum <= cap) {
            w->leader[v] = lead;
            w->gw[lead] = base + sum; /* read again only in later rounds */
        } else {
            w->leader[v] = v;
            w->gw[v] = g->vwgt[v];
        }
    }
}

/* admit on one thread without sorting all of join[0..m): each leader's
 * candidates are chained (head[leader], then spare[i] the next, in
 * increasing input order: join is in increasing id, so a chain copied out
 * is already in joiner_cmp's order where its ratings tie, as all do on a
 * unit-weight level, and the insertion sort moves nothing there), and at a
 * leader's first candidate in join its chain is copied to sorted, put in
 * joiner_cmp's order and admitted; head is -1 again on return. Leaders do
 * not share candidates, so the order in which they are admitted changes
 * nothing. */
static void admit_chained(const coarsen_graph *g, int64_t cap, hec_work *w, int32_t m)
{
    for (int32_t i = m - 1; i >= 0; i--) {
        const int32_t lead = w->join[i].leader;
        w->spare[i] = w->head[lead];
        w->head[lead] = i;
    }
    for (int32_t i = 0; i < m; i++) {
        const int32_t lead = w->join[i].leader;
        if (w->head[lead] < 0)
            continue; /* admitted at its first candidate */
        if (w->spare[w->head[lead]] < 0) { /* the only candidate: nothing to sort */
            admit(g, cap, w, w->join + i, 1);
            w->head[lead] = -1;
            continue;
        }
        int32_t len = 0;
        for (int32_t j = w->head[lead]; j >= 0; j = w->spare[j])
            w->sorted[len++] = w->join[j];
        w->head[lead] = -1;
        radix_sort_run(w->sorted, len, sizeof *w->sorted, joiner_cmp);
        admit(g, cap, w, w->sorted, len);
    }
}

/* Splits pending[0..*count) in order into the candidates, join[0..return)
 * (the vertices whose choice is in a group, with that group's leader), and
 * the others, kept in pending[0..*count). */
static int32_t split_pending(hec_work *w, int32_t *count)
{
    const int32_t c = *count;
    const int blocks = blocks_for(c);
    int32_t joins[MAX_BLOCKS + 1] = {0}, keeps[MAX_BLOCKS + 1] = {0}, m = 0, kept = 0;
#pragma omp parallel num_threads(blocks) if (blocks > 1)
    {
        BLOCK_SELF(t, nt);
        const int32_t lo = (int32_t)((int64_t)c * t / nt), hi = (int32_t)((int64_t)c * (t + 1) / nt);
        int32_t j = 0;
        for (int32_t i = lo; i < hi; i++)
            j += w->leader[w->choice[w->pending[i]]] >= 0;
        int32_t jo = block_start(joins, t, nt, j, &m), ko = block_start(keeps, t, nt, hi - lo - j, &kept);
        for (int32_t i = lo; i < hi; i++) {
            const int32_t v = w->pending[i], lead = w->leader[w->choice[v]];
            if (lead >= 0)
                w->join[jo++] = (joiner){.leader = lead, .id = v, .key = w->key[v]};
            else
                w->spare[ko++] = v;
        }
    }
    memcpy(w->pending, w->spare, (size_t)kept * sizeof *w->pending);
    *count = kept;
    return m;
}

/* Step 3, one round: admits or turns into leaders the candidates among
 * pending[0..*count), keeping the others in the list. Returns the number of
 * candidates (0: nothing left to join). The candidates are sorted by
 * (leader, rating descending, id) and cut into one block per thread at
 * leader boundaries, each admitted on its own: every leader's candidates
 * meet in one block, so the result does not depend on the thread count.
 * One thread's work is admitted by admit_chained instead. */
static int32_t join_round(const coarsen_graph *g, int64_t cap, hec_work *w, int32_t *count)
{
    const int32_t m = split_pending(w, count);
    const int blocks = blocks_for(m);
    if (blocks == 1) {
        admit_chained(g, cap, w, m);
        return m;
    }
    sort_joiners(w->join, w->sorted, m);
#pragma omp parallel num_threads(blocks)
    {
        BLOCK_SELF(t, nt);
        int32_t lo = (int32_t)((int64_t)m * t / nt), hi = (int32_t)((int64_t)m * (t + 1) / nt);
        while (lo > 0 && lo < m && w->join[lo].leader == w->join[lo - 1].leader)
            lo++; /* a leader's candidates belong to the block where they start */
        while (hi > 0 && hi < m && w->join[hi].leader == w->join[hi - 1].leader)
            hi++;
        if (lo < hi)
            admit(g, cap, w, w->join + lo, hi - lo);
    }
    return m;
}

/* Steps 1 and 2; the vertices left for step 3 into pending[0..*count), in
 * increasing id. */
static void choose_and_root(const coarsen_graph *g, const matching_opts *opts, hec_work *w, int32_t *count)
{
    const int32_t n = g->n;
    match_strongest_cpu(g, opts, w->choice, w->key);
    const int blocks = blocks_for(n);
    int32_t starts[MAX_BLOCKS + 1] = {0}, m = 0;
#pragma omp parallel num_threads(blocks) if (blocks > 1)
    {
        BLOCK_SELF(t, nt);
        const int32_t lo = (int32_t)((int64_t)n * t / nt), hi = (int32_t)((int64_t)n * (t + 1) / nt);
        int32_t pend = 0;
        for (int32_t v = lo; v < hi; v++) {
            int32_t c = w->choice[v];
            w->key[v] += 0.0; /* -0.0 as +0.0, as the GPU's radix sort needs */
            w->leader[v] = -1;
            if (c < 0) {
                w->leader[v] = v;
                w->gw[v] = g->vwgt[v];
            } else if (w->choice[c] == v) {
                w->leader[v] = v < c ? v : c;
                w->gw[v] = g->vwgt[v] + g->vwgt[c]; /* meaningful at the leader only */
            } else {
                pend++;
            }
        }
        int32_t o = block_start(starts, t, nt, pend, &m);
        for (int32_t v = lo; v < hi; v++)
            if (w->leader[v] == -1)
                w->pending[o++] = v;
    }
    *count = m;
}

/* Step 4a on mate[] (-1: alone): the j-th island alone joins the j-th
 * group of two or more (its leader u: leader[u] = u = mate[u]) when the
 * cap allows, and leaves the alone ones (mate[v] = v). gw: the groups'
 * weights at their leaders. Returns the islands joined. */
static int64_t join_islands(const coarsen_graph *g, int64_t cap, const int64_t *gw, int32_t *leader, int32_t *mate)
{
    const int32_t n = g->n;
    int64_t joined = 0;
    int32_t host = 0;
    for (int32_t v = 0; v < n; v++) {
        if (mate[v] != -1 || g->xadj[v + 1] != g->xadj[v])
            continue;
        while (host < n && !(leader[host] == host && mate[host] == host))
            host++;
        if (host == n)
            break;
        if (pair_eligible(cap, gw[host], g->vwgt[v])) {
            leader[v] = host;
            mate[v] = v;
            joined++;
        }
        host++;
    }
    return joined;
}

/* Step 4: the vertices alone after step 3 (leader[v] = v and nobody's
 * leader) as unmatched (-1) in mate[], the others as themselves; islands
 * joined to groups (4a), two-hop pairing on the rest (two_hop.h), each pair
 * joined under its smaller id. *joined: 4a's islands. */
static int pair_alone(const coarsen_graph *g, const two_hop_opts *th, const int64_t *gw, int32_t *leader,
                      int32_t *mate, two_hop_stats *ts, int64_t *joined, coarsen_error *err)
{
    const int32_t n = g->n;
    const int threads = threads_for(n);
#pragma omp parallel num_threads(threads) if (threads > 1)
    {
#pragma omp for schedule(static)
        for (int32_t v = 0; v < n; v++)
            mate[v] = leader[v] == v ? -1 : v;
#pragma omp for schedule(static)
        for (int32_t v = 0; v < n; v++)
            if (leader[v] != v) {
                const int32_t l = leader[v];
#pragma omp atomic write
                mate[l] = l; /* every member of the group writes the same */
            }
    }
    *joined = join_islands(g, th->max_vertex_weight, gw, leader, mate);
    int rc = two_hop_cpu(g, th, mate, ts, err);
    if (rc)
        return rc;
#pragma omp parallel for schedule(static) num_threads(threads) if (threads > 1)
    for (int32_t v = 0; v < n; v++)
        if (mate[v] >= 0 && mate[v] < v)
            leader[v] = mate[v];
    return COARSEN_OK;
}

/* Step 5 and the figures: cmap from leader; grouped and cap-blocked
 * vertices counted with multi[] (1 at leaders of groups of two or more,
 * borrowed from pending's memory). */
static void number_groups(const coarsen_graph *g, const int32_t *leader, uint8_t *multi, int32_t *cmap, int32_t *nc,
                          hec_stats *st)
{
    const int32_t n = g->n;
    const int blocks = blocks_for(n);
    int32_t starts[MAX_BLOCKS + 1] = {0}, c = 0;
    int64_t grouped = 0, blocked = 0;
    memset(multi, 0, (size_t)n);
#pragma omp parallel num_threads(blocks) if (blocks > 1) reduction(+ : grouped, blocked)
    {
        BLOCK_SELF(t, nt);
        const int32_t lo = (int32_t)((int64_t)n * t / nt), hi = (int32_t)((int64_t)n * (t + 1) / nt);
        int32_t leaders = 0;
        for (int32_t v = lo; v < hi; v++) {
            if (leader[v] == v) {
                leaders++;
            } else {
                const int32_t l = leader[v];
#pragma omp atomic write
                multi[l] = 1; /* every member of the group writes the same */
            }
        }
        int32_t id = block_start(starts, t, nt, leaders, &c);
        for (int32_t v = lo; v < hi; v++)
            cmap[v] = leader[v] == v ? id++ : -1;
#pragma omp barrier
        for (int32_t v = lo; v < hi; v++) {
            if (leader[v] != v)
                cmap[v] = cmap[leader[v]]; /* a leader's own entry, final since the barrier */
            if (g->xadj[v + 1] == g->xadj[v])
                continue;
            if (leader[v] != v || multi[v])
                grouped++;
            else
                blocked++;
        }
    }
    *nc = c;
    st->grouped = grouped;
    st->cap_blocked = blocked;
}

int hec_cpu(const coarsen_graph *g, const matching_opts *opts, int32_t *cmap, int32_t *nc, hec_stats *stats,
            coarsen_error *err)
{
    double t0 = timer_ms();
    hec_stats st = {0};
    if (stats)
        *stats = st;
    if (g->on_device)
        return error_set(err, COARSEN_ERR_INPUT, "hec_cpu needs a host graph");
    int rc = matching_opts_check(opts, err);
    if (rc)
        return rc;
    const size_t n = (size_t)g->n + 1;
    hec_work w = {0};
    w.choice = xmalloc(n * sizeof *w.choice, "HEC choices", err);
    w.leader = w.choice ? xmalloc(n * sizeof *w.leader, "HEC leaders", err) : NULL;
    w.pending = w.leader ? xmalloc(n * sizeof *w.pending, "HEC pending vertices", err) : NULL;
    w.spare = w.pending ? xmalloc(n * sizeof *w.spare, "HEC pending vertices", err) : NULL;
    w.head = w.spare ? xmalloc(n * sizeof *w.head, "HEC candidate chains", err) : NULL;
    w.key = w.head ? xmalloc(n * sizeof *w.key, "HEC ratings", err) : NULL;
    w.gw = w.key ? xmalloc(n * sizeof *w.gw, "HEC group weights", err) : NULL;
    w.join = w.gw ? xmalloc(n * sizeof *w.join, "HEC candidates", err) : NULL;
    w.sorted = w.join ? xmalloc(n * sizeof *w.sorted, "HEC candidates", err) : NULL;
    if (!w.sorted) {
        free_all(&w);
        return COARSEN_ERR_NOMEM;
    }
    for (size_t v = 0; v < n; v++)
        w.head[v] = -1;
    int32_t count = 0;
    choose_and_root(g, opts, &w, &count);
    while (join_round(g, opts->max_vertex_weight, &w, &count) > 0)
        st.rounds++;
    two_hop_stats ts;
    const two_hop_opts th = {opts->max_vertex_weight, opts->relatives_threshold};
    int64_t joined = 0;
    if ((rc = pair_alone(g, &th, w.gw, w.leader, w.pending, &ts, &joined, err))) {
        free_all(&w);
        return rc;
    }
    st.island_pairs = joined + ts.island_pairs;
    st.leaf_pairs = ts.leaf_pairs, st.twin_pairs = ts.twin_pairs, st.relative_pairs = ts.relative_pairs;
    number_groups(g, w.leader, (uint8_t *)w.pending, cmap, nc, &st);
    free_all(&w);
    st.ms = timer_ms() - t0;
    if (stats)
        *stats = st;
    return COARSEN_OK;
}
