/* test_device_choice.c — the --device auto rule (exec/device_choice.h): its
 * boundaries, the pre-read estimate, the library applying it (a small graph
 * never touches the GPU, a large one runs where a GPU is usable), and the
 * CLI's device line and stats.json saying which backend ran and why. */
#include <criterion/criterion.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "device/device.h"
#include "exec/device_choice.h"
#include "tests/support/cli_run.h"
#include "tests/support/test_support.h"

Test(device_choice, crossover_scales_with_threads_and_splits_exactly)
{
    for (int threads = 1; threads <= 64; threads *= 4) {
        int64_t min = device_auto_min_entries(threads);
        cr_assert_eq(min, (int64_t)DEVICE_AUTO_ENTRIES_PER_THREAD * threads);
        char why[256];
        int gpu = -1;
        device_auto_decide(DEVICE_AUTO, min - 1, threads, &gpu, why, sizeof why);
        cr_assert_eq(gpu, 0, "%d threads, %lld entries", threads, (long long)(min - 1));
        cr_assert(strstr(why, "below"), "%s", why);
        device_auto_decide(DEVICE_AUTO, min, threads, &gpu, why, sizeof why);
        cr_assert_eq(gpu, 1, "%d threads, %lld entries", threads, (long long)min);
        device_auto_decide(DEVICE_CPU, INT64_MAX, threads, &gpu, why, sizeof why);
        cr_assert_eq(gpu, 0);
        cr_assert_str_eq(why, "--device cpu");
        device_auto_decide(DEVICE_GPU, 0, threads, &gpu, why, sizeof why);
        cr_assert_eq(gpu, 1);
        cr_assert_str_eq(why, "--device gpu");
    }
    cr_assert_eq(device_auto_min_entries(0), DEVICE_AUTO_ENTRIES_PER_THREAD, "no threads counts as one");
}

Test(device_choice, start_up_begun_only_for_files_that_can_reach_the_crossover)
{
    int64_t min = device_auto_min_entries(4);
    cr_assert(device_auto_worth_starting(-1, 0, 4), "unknown size: begin");
    cr_assert(device_auto_worth_starting(7 * min, 0, 4), "plain text: about 7 bytes per entry");
    cr_assert(!device_auto_worth_starting(7 * min - 7, 0, 4));
    cr_assert(device_auto_worth_starting(7 * min / 4, 1, 4), "gzip inflates about 4x");
    cr_assert(!device_auto_worth_starting(7 * min / 4 - 2, 1, 4));
}

static coarsen_hierarchy *build_auto(const coarsen_graph *g)
{
    coarsen_hierarchy_opts o;
    coarsen_hierarchy_opts_default(&o);
    o.levels = 2;
    cr_assert_eq(o.device, COARSEN_DEVICE_AUTO, "auto is the default");
    coarsen_error err = {0};
    coarsen_hierarchy *h = NULL;
    cr_assert_eq(coarsen_hierarchy_build(g, &o, &h, &err), 0, "%s", err.msg);
    return h;
}

Test(device_choice, library_keeps_a_small_graph_on_the_cpu)
{
    coarsen_graph *g = test_gen("grid2d:nx=30,ny=30");
    coarsen_hierarchy *h = build_auto(g);
    cr_assert_eq(coarsen_hierarchy_on_gpu(h), 0);
    cr_assert(strstr(coarsen_hierarchy_device_reason(h), "below"), "%s", coarsen_hierarchy_device_reason(h));
    coarsen_hierarchy_free(h);
    coarsen_graph_free(g);
}

Test(device_choice, library_runs_a_large_graph_where_a_gpu_is_usable)
{
    omp_set_num_threads(1); /* crossover DEVICE_AUTO_ENTRIES_PER_THREAD: a grid of 4 n entries reaches it */
    char spec[64];
    int side = 16;
    while (4 * (int64_t)side * side < DEVICE_AUTO_ENTRIES_PER_THREAD + 8 * side)
        side *= 2;
    snprintf(spec, sizeof spec, "grid2d:nx=%d,ny=%d", side, side);
    coarsen_graph *g = test_gen(spec);
    cr_assert_geq(g->nnz, device_auto_min_entries(1));
    coarsen_hierarchy *h = build_auto(g);
    const char *why = coarsen_hierarchy_device_reason(h);
    if (test_have_gpu()) {
        cr_assert_eq(coarsen_hierarchy_on_gpu(h), 1, "%s", why);
        cr_assert(strstr(why, "at least"), "%s", why);
    } else {
        cr_assert_eq(coarsen_hierarchy_on_gpu(h), 0, "%s", why);
        cr_assert(strstr(why, "no usable GPU"), "%s", why);
    }
    coarsen_hierarchy_free(h);
    coarsen_graph_free(g);
}

Test(device_choice, cli_says_which_backend_ran_and_why)
{
    char file[] = "/tmp/coarsen-device-choice-XXXXXX";
    close(mkstemp(file));
    coarsen_graph *g = test_gen("grid2d:nx=20,ny=20");
    coarsen_error err = {0};
    cr_assert_eq(coarsen_graph_write(g, file, COARSEN_FORMAT_METIS, 0, &err), 0, "%s", err.msg);
    char cmd[1024], out[1 << 15];
    snprintf(cmd, sizeof cmd, "%s --levels 1 --json %s 2>&1", cli_prog(), file);
    cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "%s", out);
    char line[200];
    snprintf(line, sizeof line, "coarsen: device: cpu (auto: %lld adjacency entries, below the", (long long)g->nnz);
    cr_assert(strstr(out, line), "%s", out);
    cr_assert(strstr(out, "\"device\": \"cpu\""), "%s", out);
    cr_assert(strstr(out, "\"device_reason\": \"auto: "), "%s", out);
    snprintf(cmd, sizeof cmd, "%s --device cpu --levels 1 --json %s 2>&1", cli_prog(), file);
    cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "%s", out);
    cr_assert(!strstr(out, "coarsen: device:"), "no device line unless auto: %s", out);
    cr_assert(strstr(out, "\"device_reason\": \"--device cpu\""), "%s", out);
    coarsen_graph_free(g);
    unlink(file);
}
