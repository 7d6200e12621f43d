/* main.c — the coarsen-mpi program: `mpirun -np P coarsen-mpi [OPTIONS]
 * FILE` takes the options of `coarsen` and writes the same files. Rank 0
 * runs the `coarsen` command line (cli/), whose pipeline reads its input
 * through dist_graph_read (read.h: every rank its share; rank 0 alone when
 * that gives DIST_READ_ROOT) and builds its hierarchy through
 * dist_hierarchy_build (dist.h) here; the other ranks serve: each read and
 * each hierarchy rank 0 starts is announced to them by one broadcast (a
 * job), and a job without work releases them. `partition` reads its input
 * and builds its first hierarchy the same way (cli.h's hooks), then
 * partitions on rank 0; every other command (info, match, ...) runs on
 * rank 0 alone. Between jobs the other ranks wait asleep (job_bcast), not
 * polling a core that rank 0's threads may need.
 * COARSEN_MPI_GATHER_BELOW=N sets dist_opts.gather_below (default
 * DIST_GATHER_BELOW_DEFAULT). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "dist/dist.h"
#include "dist/read.h"

/* What rank 0 broadcasts: release the others, read a file (its path in a
 * second broadcast of path_len bytes), or build a hierarchy. */
enum { JOB_RELEASE = 0, JOB_READ, JOB_BUILD };
typedef struct dist_job {
    int go;
    int path_len;                /* JOB_READ */
    int level0;                  /* JOB_BUILD: every rank holds the input's blocks from the last read */
    coarsen_hierarchy_opts opts; /* callbacks not used off rank 0 */
    dist_opts d;
} dist_job;

/* How long a waiting rank sleeps between two tests of the job broadcast:
 * a job starts at most this late on the other ranks (a few jobs a run). */
#define JOB_POLL_NS 1000000L

/* The job broadcast, on every rank: nonblocking on all of them (a
 * nonblocking collective matches only nonblocking ones), so that a rank
 * waiting for its next job (quiet) sleeps between tests instead of spinning
 * in MPI_Bcast while rank 0 works alone (the partitioner's METIS,
 * refinement and V-cycles, the files); rank 0 just waits. */
static void job_bcast(dist_job *job, int quiet)
{
    MPI_Request req;
    MPI_Ibcast(job, (int)sizeof *job, MPI_BYTE, 0, MPI_COMM_WORLD, &req);
    int done = 0;
    if (!quiet) {
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        return;
    }
    const struct timespec nap = {0, JOB_POLL_NS};
    for (MPI_Test(&req, &done, MPI_STATUS_IGNORE); !done; MPI_Test(&req, &done, MPI_STATUS_IGNORE))
        nanosleep(&nap, NULL);
}

static dist_opts job_opts;
static int released;
/* The blocks of the last input read by the ranks (every rank), and on rank 0
 * the graph they were gathered into (to recognise it in root_build). */
static dist_graph level0;
static int have_level0;
static const coarsen_graph *level0_whole;

static void drop_level0(void)
{
    if (have_level0)
        dist_graph_free(&level0);
    have_level0 = 0;
    level0_whole = NULL;
}

/* Every rank's part of a read job. */
static int read_job(const char *path, coarsen_graph **g, coarsen_read_report *report, coarsen_error *err)
{
    drop_level0();
    int rc = dist_graph_read(path, MPI_COMM_WORLD, &level0, g, report, err);
    have_level0 = rc == COARSEN_OK;
    level0_whole = have_level0 ? *g : NULL;
    return rc;
}

/* cli_graph_loader of rank 0. */
static int root_load(const char *path, coarsen_graph **g, coarsen_read_report *report, coarsen_error *err)
{
    dist_job job;
    memset(&job, 0, sizeof job);
    job.go = JOB_READ;
    job.path_len = (int)strlen(path) + 1;
    job_bcast(&job, 0);
    MPI_Bcast((void *)path, job.path_len, MPI_CHAR, 0, MPI_COMM_WORLD);
    int rc = read_job(path, g, report, err);
    return rc == DIST_READ_ROOT ? coarsen_graph_load(path, g, report, err) : rc;
}

static int root_build(const coarsen_graph *g, const coarsen_hierarchy_opts *opts, coarsen_hierarchy **out,
                      coarsen_error *err)
{
    dist_job job = {.go = JOB_BUILD, .level0 = have_level0 && g == level0_whole, .opts = *opts, .d = job_opts};
    job_bcast(&job, 0);
    if (!job.level0)
        drop_level0();
    int rc = dist_hierarchy_build(g, job.level0 ? &level0 : NULL, opts, &job.d, MPI_COMM_WORLD, out, err);
    have_level0 = 0; /* consumed */
    level0_whole = NULL;
    return rc;
}

/* cli_exit_hook of rank 0: releases the workers and finalises MPI, once. */
static void root_release(void)
{
    if (released)
        return;
    released = 1;
    dist_job job;
    memset(&job, 0, sizeof job);
    job_bcast(&job, 0);
    drop_level0();
    MPI_Finalize();
}

static int serve(void)
{
    for (;;) {
        dist_job job;
        job_bcast(&job, 1);
        coarsen_error err = {0};
        if (job.go == JOB_RELEASE) {
            drop_level0();
            return 0;
        }
        if (job.go == JOB_READ) {
            char *path = malloc((size_t)job.path_len);
            if (!path)
                MPI_Abort(MPI_COMM_WORLD, COARSEN_ERR_NOMEM); /* rank 0 waits in the broadcast */
            MPI_Bcast(path, job.path_len, MPI_CHAR, 0, MPI_COMM_WORLD);
            coarsen_graph *none = NULL;
            read_job(path, &none, NULL, &err); /* rank 0 reports */
            free(path);
            continue;
        }
        if (!job.level0)
            drop_level0();
        job.opts.on_level = NULL;
        job.opts.ctx = NULL;
        coarsen_hierarchy *h = NULL;
        dist_hierarchy_build(NULL, job.level0 ? &level0 : NULL, &job.opts, &job.d, MPI_COMM_WORLD, &h,
                             &err); /* rank 0 reports */
        have_level0 = 0; /* consumed */
        coarsen_hierarchy_free(h);
    }
}

int main(int argc, char **argv)
{
    int provided = 0, rank = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided); /* OpenMP threads never call MPI */
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank != 0) {
        int status = serve();
        MPI_Finalize();
        return status;
    }
    job_opts.gather_below = DIST_GATHER_BELOW_DEFAULT;
    const char *env = getenv("COARSEN_MPI_GATHER_BELOW");
    if (env) {
        char *end;
        long v = strtol(env, &end, 10);
        if (*env == 0 || *end || v < 0 || v > INT32_MAX) {
            fprintf(stderr, "coarsen-mpi: COARSEN_MPI_GATHER_BELOW='%s' is not a vertex count\n", env);
            root_release();
            return 2;
        }
        job_opts.gather_below = (int32_t)v;
    }
    cli_hierarchy_builder = root_build;
    cli_graph_loader = root_load;
    cli_exit_hook = root_release;
    int status = cli_main(argc, argv);
    root_release();
    return status;
}
