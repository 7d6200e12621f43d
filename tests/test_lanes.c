/* test_lanes.c — lanes_run (core/lanes.h): every job runs once; jobs on one
 * lane run on one thread, in order of decreasing cost, and the plan is the
 * longest-processing-time one (checked against a plan recomputed here from
 * the costs); each lane's parallel regions get its share of the threads and
 * the shares add up to the caller's; the caller's thread count is given back;
 * the failed job of smallest index is the one reported, and a lane begins no
 * job after a failure it has seen. */
#include <criterion/criterion.h>
#include <omp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "core/lanes.h"

enum { JOBS = 23 };

typedef struct record {
    atomic_int runs[JOBS];
    pthread_t thread[JOBS];
    int team[JOBS];  /* threads a parallel region of the job got */
    int seq[JOBS];   /* the job's place in its thread's sequence */
    atomic_int next; /* run order over all jobs */
    int fail_a, fail_b;
} record;

static int job(void *ctx, int i, coarsen_error *err)
{
    record *r = ctx;
    atomic_fetch_add(&r->runs[i], 1);
    r->thread[i] = pthread_self();
    r->seq[i] = atomic_fetch_add(&r->next, 1);
    int team = 0;
#pragma omp parallel
    {
#pragma omp single
        team = omp_get_num_threads();
    }
    r->team[i] = team;
    if (i == r->fail_a || i == r->fail_b)
        return error_set(err, COARSEN_ERR_IO, "job %d failed", i);
    return COARSEN_OK;
}

static int64_t cost_of(int i) { return (int64_t)((i * 7919) % 31) * 100 + (i % 3); }

Test(lanes, lanes_for_threads_follows_its_rule)
{
    cr_assert_eq(lanes_for_threads(1), 1);
    cr_assert_eq(lanes_for_threads(2), 1);
    cr_assert_eq(lanes_for_threads(2 * LANES_THREADS - 1), 1);
    cr_assert_eq(lanes_for_threads(2 * LANES_THREADS), 2);
    cr_assert_eq(lanes_for_threads(16), 16 / LANES_THREADS < LANES_MAX ? 16 / LANES_THREADS : LANES_MAX);
    cr_assert_eq(lanes_for_threads(1000), LANES_MAX);
}

Test(lanes, every_job_once_on_the_planned_lane_with_its_share)
{
    omp_set_dynamic(0);
    for (int lanes = 1; lanes <= LANES_MAX; lanes++) {
        int threads = 4 * lanes + 1; /* not a multiple: the first lane gets the extra thread */
        omp_set_num_threads(threads);
        static record r;
        memset(&r, 0, sizeof r);
        r.fail_a = r.fail_b = -1;
        int64_t cost[JOBS];
        for (int i = 0; i < JOBS; i++)
            cost[i] = cost_of(i);
        coarsen_error err = {0};
        cr_assert_eq(lanes_run(JOBS, cost, lanes, job, &r, &err), COARSEN_OK, "%s", err.msg);
        cr_assert_eq(omp_get_max_threads(), threads, "the caller's thread count is given back");

        /* the oracle's plan: jobs by cost descending (ties: smaller id), each to
         * the least loaded lane (ties: the lower lane) */
        int order[JOBS], lane_of[JOBS];
        for (int i = 0; i < JOBS; i++)
            order[i] = i;
        for (int a = 0; a < JOBS; a++)
            for (int b = a + 1; b < JOBS; b++)
                if (cost[order[b]] > cost[order[a]] || (cost[order[b]] == cost[order[a]] && order[b] < order[a])) {
                    int t = order[a];
                    order[a] = order[b];
                    order[b] = t;
                }
        int64_t load[LANES_MAX] = {0};
        for (int k = 0; k < JOBS; k++) {
            int best = 0;
            for (int l = 1; l < lanes; l++)
                if (load[l] < load[best])
                    best = l;
            lane_of[order[k]] = best;
            load[best] += cost[order[k]];
        }
        int team_sum = 0, seen[LANES_MAX] = {0};
        for (int i = 0; i < JOBS; i++) {
            cr_assert_eq(atomic_load(&r.runs[i]), 1, "%d lanes: job %d ran %d times", lanes, i,
                         atomic_load(&r.runs[i]));
            cr_assert_eq(r.team[i], threads / lanes + (lane_of[i] < threads % lanes), "%d lanes: job %d's team %d",
                         lanes, i, r.team[i]);
            for (int j = 0; j < JOBS; j++) {
                int same_lane = lane_of[i] == lane_of[j];
                cr_assert_eq(pthread_equal(r.thread[i], r.thread[j]) != 0, same_lane,
                             "%d lanes: jobs %d and %d on one thread: %d, planned on one lane: %d", lanes, i, j,
                             !same_lane, same_lane);
                if (same_lane && (cost[i] > cost[j] || (cost[i] == cost[j] && i < j)))
                    cr_assert_lt(r.seq[i], r.seq[j], "%d lanes: job %d should run before job %d", lanes, i, j);
            }
            if (!seen[lane_of[i]]++)
                team_sum += r.team[i];
        }
        cr_assert_eq(team_sum, threads, "%d lanes: the shares add up to %d, not %d", lanes, threads, team_sum);
    }
    omp_set_num_threads(omp_get_num_procs());
}

Test(lanes, the_failed_job_of_smallest_index_is_reported)
{
    for (int lanes = 1; lanes <= LANES_MAX; lanes++) {
        omp_set_num_threads(2 * lanes);
        static record r;
        memset(&r, 0, sizeof r);
        int64_t cost[JOBS];
        for (int i = 0; i < JOBS; i++)
            cost[i] = 1000 - i; /* run in id order on one lane */
        r.fail_a = 5;
        r.fail_b = 2 + lanes; /* may or may not begin before 5 fails, on another lane */
        coarsen_error err = {0};
        int rc = lanes_run(JOBS, cost, lanes, job, &r, &err);
        cr_assert_eq(rc, COARSEN_ERR_IO);
        /* the smaller of the two that began (a failure may stop the other before it begins) */
        int lo = r.fail_a < r.fail_b ? r.fail_a : r.fail_b, hi = r.fail_a ^ r.fail_b ^ lo;
        int first = atomic_load(&r.runs[lo]) ? lo : hi;
        cr_assert(atomic_load(&r.runs[first]), "%d lanes: neither failing job began", lanes);
        char want[64];
        snprintf(want, sizeof want, "job %d failed", first);
        cr_assert_str_eq(err.msg, want, "%d lanes", lanes);
        if (lanes == 1) /* one lane: nothing after the first failure */
            for (int i = 0; i < JOBS; i++)
                cr_assert_eq(atomic_load(&r.runs[i]), i <= first, "one lane: job %d", i);
    }
    omp_set_num_threads(omp_get_num_procs());
}
