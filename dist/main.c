/* main.c — the coarsen-mpi program: `mpirun -np P coarsen-mpi [OPTIONS]
 * FILE` takes the options of `coarsen` and writes the same files. Rank 0
 * runs the `coarsen` command line (cli/), whose pipeline builds its
 * hierarchy through dist_hierarchy_build (dist.h) here; the other ranks
 * serve: each hierarchy rank 0 starts is announced to them by one broadcast
 * of the options (a job), and a job without work releases them. Every other
 * command (partition, info, ...) runs on rank 0 alone.
 * COARSEN_MPI_GATHER_BELOW=N sets dist_opts.gather_below (default
 * DIST_GATHER_BELOW_DEFAULT). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "dist/dist.h"

/* What rank 0 broadcasts to start (go = 1) or release (go = 0) the others. */
typedef struct dist_job {
    int go;
    coarsen_hierarchy_opts opts; /* callbacks not used off rank 0 */
    dist_opts d;
} dist_job;

static dist_opts job_opts;
static int released;

static int root_build(const coarsen_graph *g, const coarsen_hierarchy_opts *opts, coarsen_hierarchy **out,
                      coarsen_error *err)
{
    dist_job job = {.go = 1, .opts = *opts, .d = job_opts};
    MPI_Bcast(&job, (int)sizeof job, MPI_BYTE, 0, MPI_COMM_WORLD);
    return dist_hierarchy_build(g, opts, &job.d, MPI_COMM_WORLD, out, err);
}

/* cli_exit_hook of rank 0: releases the workers and finalises MPI, once. */
static void root_release(void)
{
    if (released)
        return;
    released = 1;
    dist_job job;
    memset(&job, 0, sizeof job);
    MPI_Bcast(&job, (int)sizeof job, MPI_BYTE, 0, MPI_COMM_WORLD);
    MPI_Finalize();
}

static int serve(void)
{
    for (;;) {
        dist_job job;
        MPI_Bcast(&job, (int)sizeof job, MPI_BYTE, 0, MPI_COMM_WORLD);
        if (!job.go)
            return 0;
        job.opts.on_level = NULL;
        job.opts.ctx = NULL;
        coarsen_hierarchy *h = NULL;
        coarsen_error err = {0};
        dist_hierarchy_build(NULL, &job.opts, &job.d, MPI_COMM_WORLD, &h, &err); /* rank 0 reports */
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
    cli_exit_hook = root_release;
    int status = cli_main(argc, argv);
    root_release();
    return status;
}
