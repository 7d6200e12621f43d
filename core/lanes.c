/* lanes.c — lanes_run (lanes.h): the plan (longest processing time first),
 * the lane threads, and the first failure by job index. */
#include "core/lanes.h"
#include "core/error.h"

#include <omp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

typedef struct lanes_plan {
    int count;
    const int64_t *cost;
    int *order;   /* job ids, largest cost first (ties: smaller id first) */
    int *lane_of; /* [count] the lane each job goes to */
    lane_job_fn job;
    void *ctx;
    atomic_int stop;     /* a job failed: begin no other */
    int *status;         /* [count] each job's status (COARSEN_OK when not run) */
    coarsen_error *errs; /* [count] each failed job's message */
} lanes_plan;

typedef struct lane {
    lanes_plan *plan;
    int id, threads;
    pthread_t thread;
} lane;

int lanes_for_threads(int threads)
{
    int lanes = threads / LANES_THREADS;
    return lanes < 1 ? 1 : lanes > LANES_MAX ? LANES_MAX : lanes;
}

typedef struct costed {
    int64_t cost;
    int id;
} costed;

/* Largest cost first, then smaller id. */
static int by_cost(const void *a, const void *b)
{
    const costed *x = a, *y = b;
    if (x->cost != y->cost)
        return x->cost > y->cost ? -1 : 1;
    return x->id - y->id;
}

/* Runs lane `id`'s jobs (or, for lane 0 with `orphans`, those of lanes that
 * could not start too), in plan order. */
static void lane_work(lanes_plan *p, int id, const char *orphans)
{
    for (int k = 0; k < p->count; k++) {
        int i = p->order[k];
        int mine = p->lane_of[i] == id || (orphans && orphans[p->lane_of[i]]);
        if (!mine || atomic_load(&p->stop))
            continue;
        int rc = p->job(p->ctx, i, &p->errs[i]);
        if (rc) {
            p->status[i] = rc;
            atomic_store(&p->stop, 1);
        }
    }
}

static void *lane_main(void *arg)
{
    lane *l = arg;
    omp_set_num_threads(l->threads);
    lane_work(l->plan, l->id, NULL);
    return NULL;
}

/* Longest processing time first: each job, largest first, to the lane with
 * the least cost so far (the lowest id among equals). */
static void plan_lanes(lanes_plan *p, int lanes)
{
    int64_t load[LANES_MAX] = {0};
    for (int k = 0; k < p->count; k++) {
        int i = p->order[k], best = 0;
        for (int l = 1; l < lanes; l++)
            if (load[l] < load[best])
                best = l;
        p->lane_of[i] = best;
        load[best] += p->cost[i] > 0 ? p->cost[i] : 0;
    }
}

int lanes_run(int count, const int64_t *cost, int lanes, lane_job_fn job, void *ctx, coarsen_error *err)
{
    if (count <= 0)
        return COARSEN_OK;
    lanes = lanes < 1 ? 1 : lanes > LANES_MAX ? LANES_MAX : lanes > count ? count : lanes;
    lanes_plan p = {.count = count, .cost = cost, .job = job, .ctx = ctx};
    p.order = xmalloc((size_t)count * sizeof *p.order, "lane plan", err);
    p.lane_of = p.order ? xmalloc((size_t)count * sizeof *p.lane_of, "lane plan", err) : NULL;
    p.status = p.lane_of ? xcalloc((size_t)count, sizeof *p.status, "lane plan", err) : NULL;
    p.errs = p.status ? xcalloc((size_t)count, sizeof *p.errs, "lane plan", err) : NULL;
    costed *c = p.errs ? xmalloc((size_t)count * sizeof *c, "lane plan", err) : NULL;
    int rc = c ? COARSEN_OK : COARSEN_ERR_NOMEM;
    if (!rc) {
        for (int i = 0; i < count; i++)
            c[i] = (costed){cost[i], i};
        qsort(c, (size_t)count, sizeof *c, by_cost);
        for (int i = 0; i < count; i++)
            p.order[i] = c[i].id;
        plan_lanes(&p, lanes);

        int threads = omp_get_max_threads();
        lane ls[LANES_MAX];
        char orphan[LANES_MAX] = {0};
        for (int l = 0; l < lanes; l++)
            ls[l] = (lane){.plan = &p, .id = l, .threads = threads / lanes + (l < threads % lanes)};
        for (int l = 1; l < lanes; l++)
            orphan[l] = pthread_create(&ls[l].thread, NULL, lane_main, &ls[l]) != 0;
        int before = omp_get_max_threads();
        omp_set_num_threads(ls[0].threads);
        lane_work(&p, 0, orphan);
        omp_set_num_threads(before);
        for (int l = 1; l < lanes; l++)
            if (!orphan[l])
                pthread_join(ls[l].thread, NULL);

        for (int i = 0; i < count && !rc; i++)
            if (p.status[i]) {
                rc = p.status[i];
                if (err)
                    *err = p.errs[i];
            }
    }
    free(c);
    free(p.errs);
    free(p.status);
    free(p.lane_of);
    free(p.order);
    return rc;
}
