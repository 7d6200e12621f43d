/* read_bench.c — in-process wall of coarsen_graph_load (open, inflate,
 * parse, build, weight check) on one file, REPS times after one warm-up:
 * min and median in ms. In process, so no fork, exec or teardown, and the
 * minimum shows the read when the machine's other load leaves it alone.
 *   cc -O2 -fopenmp -I../../../include -I../../.. read_bench.c BUILD/libcoarsen.a -lisal -lz -lmetis -lm
 *   ./a.out FILE REPS THREADS */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "coarsen.h"
#include "io/graph_load.h"

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    if (argc != 4)
        return 2;
    int reps = atoi(argv[2]);
    omp_set_num_threads(atoi(argv[3]));
    double *t = malloc((size_t)reps * sizeof *t);
    for (int r = -1; r < reps; r++) {
        coarsen_graph *g = NULL;
        coarsen_error err;
        double t0 = now_ms();
        if (coarsen_graph_load(argv[1], &g, NULL, &err)) {
            fprintf(stderr, "%s\n", err.msg);
            return 1;
        }
        double t1 = now_ms();
        coarsen_graph_free(g);
        if (r >= 0)
            t[r] = t1 - t0;
    }
    qsort(t, (size_t)reps, sizeof *t, cmp);
    printf("%.3f %.3f\n", t[0], t[reps / 2]);
    return 0;
}
