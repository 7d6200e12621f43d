/* lanes.h — independent jobs run a few at once, each lane a thread with its
 * share of the OpenMP threads. For work that one thread cannot share: the
 * kernel takes the writes of one file one at a time (a buffered file's
 * writes hold its inode lock), so files written side by side go several
 * times faster than one after the other (docs/benchmarks.md, session 16),
 * while each file's own formatting still runs on its lane's threads.
 *
 * Lane 0 is the calling thread; lanes 1.. are threads started here and
 * joined before lanes_run returns. A lane's parallel regions get its share
 * (omp_set_num_threads in that thread), so the team sizes add up to the
 * caller's omp_get_max_threads(). Jobs go largest first, each to the lane
 * with the least cost so far (longest processing time first), and a lane
 * runs its jobs in that order. Results must not depend on which lane runs a
 * job or when: jobs share nothing they write. */
#ifndef CORE_LANES_H
#define CORE_LANES_H

#include <stdint.h>

#include "coarsen.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Runs job i; COARSEN_OK or a status with *err set ([out], the lane's own). */
typedef int (*lane_job_fn)(void *ctx, int i, coarsen_error *err);

/* Lanes worth running for files written with `threads` OpenMP threads: one
 * per LANES_THREADS threads, at most LANES_MAX (below 2 * LANES_THREADS
 * threads, one: the caller alone). Measured on the 16-core GPU host writing
 * a hierarchy of 1.7 GB (docs/benchmarks.md, session 16): 2 lanes took the
 * output step from 871 to 588 ms, 4 lanes of 4 threads 795 and 8 lanes 824,
 * since the largest file (level 0, half the bytes) is formatted by its
 * lane's threads alone; at 8 threads 2 lanes beat 1 as well. */
#define LANES_THREADS 4
#define LANES_MAX 2
int lanes_for_threads(int threads);

/* Runs job(ctx, i, .) for every i in [0, count) ([in] cost[i] >= 0: its
 * expected size, bytes say) on at most `lanes` lanes. Once a job fails, the
 * jobs not yet begun are skipped. Returns COARSEN_OK, or the status of the
 * failed job of smallest index with *err its message; COARSEN_ERR_NOMEM when
 * the plan cannot be allocated. A lane that cannot be started has its jobs
 * run by lane 0. */
int lanes_run(int count, const int64_t *cost, int lanes, lane_job_fn job, void *ctx, coarsen_error *err);

#ifdef __cplusplus
}
#endif
#endif
