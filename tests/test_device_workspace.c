/* test_device_workspace.c — the device workspace's contract (device.h): one
 * holder at a time, grow only, counted by the pool's figures, released on
 * demand; and what it is for: once a level's phases have grown it, running
 * them again allocates no device memory but the coarse graphs (counted by
 * device_allocations), with the same results. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "coarsen/graph_totals.h"
#include "contract/contract.h"
#include "device/device.h"
#include "matching/hec.h"
#include "matching/matching.h"
#include "matching/two_hop.h"
#include "tests/support/test_support.h"

#define MIB ((size_t)1 << 20)

#define SKIP_WITHOUT_GPU()                                                                         \
    do {                                                                                           \
        if (!test_have_gpu())                                                                      \
            cr_skip_test("no GPU (or built without CUDA): device workspace not exercised");        \
    } while (0)

Test(device_workspace, without_cuda_taking_it_is_the_device_error)
{
    if (device_built_with_cuda())
        cr_skip_test("built with CUDA: the no-CUDA stub is not linked");
    coarsen_error err = {0};
    void *p = &err;
    cr_assert_eq(device_workspace_take(MIB, &p, "test", &err), COARSEN_ERR_DEVICE);
    cr_assert_null(p);
    cr_assert(strstr(err.msg, "without CUDA"), "%s", err.msg);
    cr_assert_eq(device_workspace_bytes(), 0);
}

Test(device_workspace, one_holder_grow_only_counted_by_the_pool)
{
    SKIP_WITHOUT_GPU();
    coarsen_error err = {0};
    int gpu = 0;
    cr_assert_eq(device_select(DEVICE_GPU, &gpu, &err), 0, "%s", err.msg);
    device_workspace_release();
    const size_t used0 = device_used_bytes();
    void *a = NULL, *b = NULL;
    cr_assert_eq(device_workspace_take(3 * MIB + 5, &a, "first phase", &err), 0, "%s", err.msg);
    cr_assert_not_null(a);
    const size_t bytes = device_workspace_bytes();
    cr_assert_geq(bytes, 3 * MIB + 5);
    cr_assert_geq(device_used_bytes(), used0 + bytes, "the pool does not count the workspace");
    /* a nested phase gets a buffer of its own; a third holder is refused,
     * naming the other two */
    void *c = NULL;
    cr_assert_eq(device_workspace_take(MIB, &c, "nested phase", &err), 0, "%s", err.msg);
    cr_assert(c && c != a, "the nested phase got the first phase's buffer");
    cr_assert_eq(device_workspace_take(MIB, &b, "third phase", &err), COARSEN_ERR_DEVICE);
    cr_assert_null(b);
    cr_assert(strstr(err.msg, "third phase") && strstr(err.msg, "first phase") && strstr(err.msg, "nested phase"),
              "%s", err.msg);
    device_workspace_release(); /* no effect on buffers held */
    const size_t both = device_workspace_bytes();
    cr_assert_geq(both, bytes + MIB);
    device_workspace_give(); /* the nested phase's */
    device_workspace_release(); /* frees the nested buffer only */
    cr_assert_eq(device_workspace_bytes(), bytes);
    device_workspace_give();
    /* a smaller request reuses it as it is */
    cr_assert_eq(device_workspace_take(MIB, &b, "smaller phase", &err), 0, "%s", err.msg);
    cr_assert_eq(b, a, "a smaller request replaced the workspace");
    cr_assert_eq(device_workspace_bytes(), bytes);
    device_workspace_give();
    /* a larger one grows it */
    cr_assert_eq(device_workspace_take(bytes + 1, &b, "larger phase", &err), 0, "%s", err.msg);
    cr_assert_gt(device_workspace_bytes(), bytes);
    device_workspace_give();
    device_workspace_release();
    cr_assert_eq(device_workspace_bytes(), 0);
    cr_assert_eq(device_synchronize(&err), 0, "%s", err.msg);
    cr_assert_eq(device_used_bytes(), used0, "release left %zu bytes", device_used_bytes() - used0);
}

/* Contracts dg by d_cmap on the device; returns the coarse entry count
 * (the coarse graph freed). */
static int64_t contract_once(const coarsen_graph *dg, const int32_t *d_cmap, int32_t nc)
{
    coarsen_error err = {0};
    coarsen_graph *cg = NULL;
    cr_assert_eq(contract_gpu(dg, d_cmap, nc, &cg, &err), 0, "%s", err.msg);
    const int64_t nnz = cg->nnz;
    coarsen_graph_free(cg);
    return nnz;
}

/* Every per-level phase on g (matching, its weight, two-hop, the map from
 * the mates and its contraction, heavy-edge clustering and its
 * contraction, totals); mates and cmap are the caller's. Returns a digest of
 * the results. */
static uint64_t phases(const coarsen_graph *dg, int32_t *d_mate, int32_t *d_cmap, int32_t *h_mate, int32_t *h_cmap)
{
    coarsen_error err = {0};
    matching_opts o;
    matching_opts_default(&o);
    o.gpu_persistent_max = -1; /* the multi-launch matcher: active lists, compactions */
    matching_stats ms;
    cr_assert_eq(match_gpu(dg, &o, d_mate, NULL, &ms, &err), 0, "%s", err.msg);
    two_hop_opts t = {0, 0.0};
    two_hop_stats ts;
    cr_assert_eq(two_hop_gpu(dg, &t, d_mate, &ts, &err), 0, "%s", err.msg);
    o.kind = MATCHER_REDBLUE;
    cr_assert_eq(match_gpu(dg, &o, d_mate, NULL, &ms, &err), 0, "%s", err.msg);
    int32_t nm = 0;
    cr_assert_eq(contract_map_from_mates_gpu(dg->n, d_mate, d_cmap, &nm, &err), 0, "%s", err.msg);
    const int64_t matched_nnz = contract_once(dg, d_cmap, nm);
    o.kind = MATCHER_HEC;
    int32_t nc = 0;
    cr_assert_eq(hec_gpu(dg, &o, d_cmap, &nc, NULL, &err), 0, "%s", err.msg);
    const int64_t clustered_nnz = contract_once(dg, d_cmap, nc);
    graph_totals tot;
    cr_assert_eq(graph_totals_gpu(dg, &tot, &err), 0, "%s", err.msg);
    cr_assert_eq(device_copy_to_host(h_mate, d_mate, (size_t)dg->n * sizeof *h_mate, &err), 0, "%s", err.msg);
    cr_assert_eq(device_copy_to_host(h_cmap, d_cmap, (size_t)dg->n * sizeof *h_cmap, &err), 0, "%s", err.msg);
    uint64_t h = (uint64_t)nc * 1000003u + (uint64_t)tot.vertex_weight + (uint64_t)ms.passes;
    h = h * 31u + (uint64_t)nm * 17u + (uint64_t)matched_nnz * 13u + (uint64_t)clustered_nnz;
    for (int32_t v = 0; v < dg->n; v++)
        h = h * 31u + (uint64_t)(uint32_t)h_mate[v] * 7u + (uint64_t)(uint32_t)h_cmap[v];
    return h;
}

Test(device_workspace, phases_run_again_allocate_nothing)
{
    SKIP_WITHOUT_GPU();
    coarsen_error err = {0};
    coarsen_graph *g = test_gen("rgg:n=60000,deg=8,weights=real,seed=7");
    coarsen_graph *dg = NULL;
    cr_assert_eq(device_graph_upload(g, &dg, &err), 0, "%s", err.msg);
    void *m = NULL, *c = NULL;
    cr_assert_eq(device_alloc(&m, (size_t)g->n * sizeof(int32_t), "mates", &err), 0, "%s", err.msg);
    cr_assert_eq(device_alloc(&c, (size_t)g->n * sizeof(int32_t), "cmap", &err), 0, "%s", err.msg);
    int32_t *hm = malloc((size_t)g->n * sizeof *hm), *hc = malloc((size_t)g->n * sizeof *hc);
    /* what one device graph costs in allocations: each contraction's one own */
    const size_t a0 = device_allocations();
    coarsen_graph *probe = NULL;
    cr_assert_eq(device_graph_alloc(4, 8, &probe, &err), 0, "%s", err.msg);
    const size_t per_graph = device_allocations() - a0;
    coarsen_graph_free(probe);
    cr_assert_gt(per_graph, 0, "device_allocations did not count a graph's arrays");
    const uint64_t first = phases(dg, m, c, hm, hc);
    const size_t grown = device_workspace_bytes();
    cr_assert_gt(grown, (size_t)g->nnz * 12, "the phases did not use the workspace (%zu bytes)", grown);
    cr_assert_eq(device_synchronize(&err), 0, "%s", err.msg);
    const size_t allocs = device_allocations();
    const uint64_t again = phases(dg, m, c, hm, hc);
    cr_assert_eq(device_synchronize(&err), 0, "%s", err.msg);
    cr_assert_eq(again, first, "the phases gave other results the second time");
    cr_assert_eq(device_workspace_bytes(), grown, "the workspace grew the second time");
    cr_assert_eq(device_allocations() - allocs, 2 * per_graph,
                 "the phases made %zu device allocations, the two coarse graphs %zu",
                 device_allocations() - allocs, 2 * per_graph);
    free(hm);
    free(hc);
    device_free(m);
    device_free(c);
    coarsen_graph_free(dg);
    coarsen_graph_free(g);
}
