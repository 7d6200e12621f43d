/* test_partition_gpu.c — the GPU side of partition/ against the CPU
 * reference, bit for bit: projection, part weights, cut, the refinement
 * rounds (same partition, same round and move counts), the boundary list
 * the host polish starts from, the whole multilevel partitioner (with the
 * polish at every level or only at the coarse ones) and its V-cycles.
 * Skipped visibly without a GPU. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "device/device.h"
#include "partition/partition.h"
#include "tests/support/partition_check.h"
#include "tests/support/test_support.h"

#define NEED_GPU()                                          \
    do {                                                    \
        if (!test_have_gpu())                               \
            cr_skip_test("no GPU (or built without CUDA)"); \
    } while (0)

/* A device copy of a host int32 array (caller frees with device_free). */
static int32_t *upload_ints(const int32_t *a, int32_t n)
{
    void *d = NULL;
    coarsen_error err = {0};
    cr_assert_eq(device_alloc(&d, ((size_t)n + 1) * sizeof *a, "test ints", &err), 0, "%s", err.msg);
    cr_assert_eq(device_copy_to_device(d, a, (size_t)n * sizeof *a, &err), 0, "%s", err.msg);
    return d;
}

static void download_ints(int32_t *a, const int32_t *d, int32_t n)
{
    coarsen_error err = {0};
    cr_assert_eq(device_copy_to_host(a, d, (size_t)n * sizeof *a, &err), 0, "%s", err.msg);
}

Test(partition_gpu, metrics_and_projection_equal_the_cpu)
{
    NEED_GPU();
    coarsen_graph *g = partition_test_graph("rgg:n=5000,deg=10,weights=int,seed=4", 7, 2);
    coarsen_graph *dg = NULL;
    coarsen_error err = {0};
    cr_assert_eq(device_graph_upload(g, &dg, &err), 0, "%s", err.msg);
    int32_t k = 13;
    int32_t *part = random_partition(g, k, 5);
    int32_t *dpart = upload_ints(part, g->n);
    int64_t wc[13], wg[13];
    partition_part_weights(g, part, k, wc);
    cr_assert_eq(partition_part_weights_gpu(dg, dpart, k, wg, &err), 0, "%s", err.msg);
    for (int32_t p = 0; p < k; p++)
        cr_assert_eq(wg[p], wc[p]);
    double cut = 0;
    cr_assert_eq(partition_cut_gpu(dg, dpart, &cut, &err), 0, "%s", err.msg);
    cr_assert_eq(cut, partition_cut(g, part), "integer weights: exact");
    /* projection through an arbitrary map: vertex v -> v / 3 */
    int32_t nc = (g->n + 2) / 3;
    int32_t *map = malloc(g->n * sizeof *map), *fine = malloc(g->n * sizeof *fine), *back = malloc(g->n * sizeof *back);
    for (int32_t v = 0; v < g->n; v++)
        map[v] = v / 3;
    int32_t *dmap = upload_ints(map, g->n), *dcoarse = upload_ints(part, nc), *dfine = upload_ints(part, g->n);
    partition_project_cpu(g->n, map, part, fine);
    cr_assert_eq(partition_project_gpu(g->n, dmap, dcoarse, dfine, &err), 0, "%s", err.msg);
    download_ints(back, dfine, g->n);
    for (int32_t v = 0; v < g->n; v++)
        cr_assert_eq(back[v], fine[v]);
    device_free(dmap);
    device_free(dcoarse);
    device_free(dfine);
    device_free(dpart);
    free(map);
    free(fine);
    free(back);
    free(part);
    coarsen_graph_free(dg);
    coarsen_graph_free(g);
}

Test(partition_gpu, refinement_equals_the_cpu_bit_for_bit)
{
    NEED_GPU();
    const char *specs[] = {"rgg:n=20000,deg=10,weights=int,seed=2", "delaunay:n=20000,weights=real,seed=3",
                           "rmat:n=16384,deg=8,seed=4", "grid2d:nx=100,ny=100"};
    for (int s = 0; s < 4; s++) {
        coarsen_graph *g = partition_test_graph(specs[s], s == 1 ? 6 : 1, s);
        coarsen_graph *dg = NULL;
        coarsen_error err = {0};
        cr_assert_eq(device_graph_upload(g, &dg, &err), 0, "%s", err.msg);
        for (int32_t k = 2; k <= 128; k *= 8) {
            int64_t cap = oracle_cap(g, k, 0.03);
            int32_t *part = random_partition(g, k, 7 + k);
            cr_assert_eq(partition_rebalance_cpu(g, k, cap, part, NULL, &err), 0, "%s", err.msg);
            int32_t *dpart = upload_ints(part, g->n), *back = malloc(g->n * sizeof *back);
            partition_refine_stats sc = {0}, sg = {0};
            cr_assert_eq(partition_refine_cpu(g, k, cap, 30, part, &sc, &err), 0, "%s", err.msg);
            cr_assert_eq(partition_refine_gpu(dg, k, cap, 30, dpart, &sg, &err), 0, "%s", err.msg);
            download_ints(back, dpart, g->n);
            for (int32_t v = 0; v < g->n; v++)
                cr_assert_eq(back[v], part[v], "%s k %d vertex %d: GPU %d CPU %d", specs[s], k, v, back[v], part[v]);
            cr_assert_eq(sg.rounds, sc.rounds);
            cr_assert_eq(sg.moves, sc.moves);
            cr_assert_gt(sc.rounds, 0);
            expect_partition_within(g, part, k, cap);
            device_free(dpart);
            free(back);
            free(part);
        }
        coarsen_graph_free(dg);
        coarsen_graph_free(g);
    }
}

Test(partition_gpu, boundary_list_equals_a_host_scan)
{
    NEED_GPU();
    coarsen_graph *g = partition_test_graph("rgg:n=20000,deg=10,seed=6", 1, 3);
    coarsen_graph *dg = NULL;
    coarsen_error err = {0};
    cr_assert_eq(device_graph_upload(g, &dg, &err), 0, "%s", err.msg);
    for (int32_t k = 1; k <= 64; k *= 8) {
        int32_t *part = random_partition(g, k, 3), *dpart = upload_ints(part, g->n), *list = NULL, nb = -1;
        cr_assert_eq(partition_boundary_gpu(dg, dpart, &list, &nb, &err), 0, "%s", err.msg);
        int32_t expect = 0;
        for (int32_t v = 0; v < g->n; v++) {
            int on = 0;
            for (int64_t i = g->xadj[v]; i < g->xadj[v + 1]; i++)
                on |= part[g->adj[i]] != part[v];
            if (on) {
                cr_assert_lt(expect, nb, "k %d: list too short", k);
                cr_assert_eq(list[expect], v, "k %d entry %d", k, expect);
                expect++;
            }
        }
        cr_assert_eq(nb, expect, "k %d", k);
        cr_assert(k > 1 ? nb > 0 : list == NULL);
        free(list);
        device_free(dpart);
        free(part);
    }
    coarsen_graph_free(dg);
    coarsen_graph_free(g);
}

Test(partition_gpu, multilevel_equals_the_cpu)
{
    NEED_GPU();
    coarsen_graph *g = partition_test_graph("delaunay:n=30000,weights=int,seed=5", 1, 1);
    int64_t polished = 0; /* over all runs: the polish path must have been taken somewhere */
    for (int t = 0; t < 6; t++) {
        int32_t k = t % 3 == 0 ? 2 : t % 3 == 1 ? 8 : 64;
        int32_t *pc = malloc(g->n * sizeof *pc), *pg = malloc(g->n * sizeof *pg);
        partition_result rc, rg;
        coarsen_error err = {0};
        partition_opts o;
        partition_opts_default(&o);
        o.k = k;
        if (t >= 3) /* polish only the coarse levels: the same rule on both sides */
            o.polish_edges = 20000;
        o.hierarchy.device = COARSEN_DEVICE_CPU;
        cr_assert_eq(partition_multilevel(g, &o, pc, &rc, &err), 0, "%s", err.msg);
        o.hierarchy.device = COARSEN_DEVICE_GPU;
        cr_assert_eq(partition_multilevel(g, &o, pg, &rg, &err), 0, "%s", err.msg);
        cr_assert_eq(rg.on_gpu, 1);
        cr_assert_eq(rg.levels, rc.levels);
        for (int32_t v = 0; v < g->n; v++)
            cr_assert_eq(pg[v], pc[v], "k %d vertex %d", k, v);
        for (int lv = 0; lv <= rc.levels; lv++) {
            cr_assert_eq(rg.level[lv].cut_refined, rc.level[lv].cut_refined, "k %d level %d", k, lv);
            cr_assert_eq(rg.level[lv].st.polish_moves, rc.level[lv].st.polish_moves, "k %d level %d", k, lv);
            polished += rc.level[lv].st.polish_moves;
        }
        cr_assert_eq(rg.cut, rc.cut);
        expect_partition_within(g, pg, k, oracle_cap(g, k, 0.03));
        partition_result_free(&rc);
        partition_result_free(&rg);
        free(pc);
        free(pg);
    }
    cr_assert_gt(polished, 0, "the polish moved nothing in any of the six runs");
    coarsen_graph_free(g);
}

/* The V-cycles (partition/vcycle.c) on the GPU: hierarchy, contraction and
 * refinement on the device, the same partition as on the host. From a
 * rebalanced random start (which a V-cycle always improves, so its result is
 * kept; the V-cycle uploads g) and in the driver with 1 and 2 V-cycles (they
 * borrow the first cycle's device copy of g), on a mesh and an R-MAT
 * with real weights, k = 2, 8, 64: same parts, cut and counts. */
Test(partition_gpu, vcycles_equal_the_cpu)
{
    NEED_GPU();
    const char *specs[] = {"delaunay:n=10000,weights=int,seed=7", "rmat:n=4096,deg=12,weights=real,seed=3"};
    int64_t vmoves = 0; /* over the driver's runs: the V-cycles must have moved vertices */
    for (int s = 0; s < 2; s++) {
        coarsen_graph *g = partition_test_graph(specs[s], s == 0 ? 4 : 1, 5);
        for (int32_t k = 2; k <= 64; k *= 4) {
            partition_opts o;
            partition_opts_default(&o);
            o.k = k;
            o.restarts = 1; /* the V-cycles are the subject */
            coarsen_error err = {0};
            int32_t *pc = random_partition(g, k, 9), *pg = malloc(g->n * sizeof *pg);
            cr_assert_eq(partition_rebalance_cpu(g, k, partition_cap(g, k, o.imbalance), pc, NULL, &err), 0, "%s",
                         err.msg);
            memcpy(pg, pc, g->n * sizeof *pg);
            double start = partition_cut(g, pc); /* oracle_partition_cut takes at most 4096 vertices */
            partition_refine_stats sc = {0}, sg = {0};
            o.hierarchy.device = COARSEN_DEVICE_CPU;
            cr_assert_eq(partition_vcycle(g, NULL, &o, 4, pc, &sc, &err), 0, "%s", err.msg);
            o.hierarchy.device = COARSEN_DEVICE_GPU;
            cr_assert_eq(partition_vcycle(g, NULL, &o, 4, pg, &sg, &err), 0, "%s", err.msg);
            cr_assert_lt(partition_cut(g, pg), start, "%s k %d: the V-cycle kept nothing", specs[s], k);
            for (int32_t v = 0; v < g->n; v++)
                cr_assert_eq(pg[v], pc[v], "%s k %d vertex %d", specs[s], k, v);
            cr_assert_eq(sg.moves, sc.moves);
            cr_assert_eq(sg.rounds, sc.rounds);
            cr_assert_eq(sg.polish_moves, sc.polish_moves);
            cr_assert_eq(sg.rebalance_moves, sc.rebalance_moves);
            for (o.vcycles = 1; o.vcycles <= 2; o.vcycles++) {
                partition_result rc, rg;
                o.hierarchy.device = COARSEN_DEVICE_CPU;
                cr_assert_eq(partition_multilevel(g, &o, pc, &rc, &err), 0, "%s", err.msg);
                o.hierarchy.device = COARSEN_DEVICE_GPU;
                cr_assert_eq(partition_multilevel(g, &o, pg, &rg, &err), 0, "%s", err.msg);
                cr_assert_eq(rg.on_gpu, 1);
                cr_assert_eq(rg.vcycles, o.vcycles);
                for (int32_t v = 0; v < g->n; v++)
                    cr_assert_eq(pg[v], pc[v], "%s k %d, %d V-cycles: vertex %d", specs[s], k, o.vcycles, v);
                cr_assert_eq(rg.cut, rc.cut);
                cr_assert_eq(rg.vcycle_st.moves, rc.vcycle_st.moves);
                cr_assert_eq(rg.vcycle_st.polish_moves, rc.vcycle_st.polish_moves);
                vmoves += rc.vcycle_st.moves;
                expect_partition_within(g, pg, k, oracle_cap(g, k, o.imbalance));
                partition_result_free(&rc);
                partition_result_free(&rg);
            }
            free(pc);
            free(pg);
        }
        coarsen_graph_free(g);
    }
    cr_assert_gt(vmoves, 0, "the V-cycles moved nothing in any run");
}
