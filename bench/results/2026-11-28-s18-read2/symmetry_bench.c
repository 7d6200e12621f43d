/* symmetry_bench.c — graph_find_asymmetry's two fast passes on a loaded graph, min of
 * REPS in-process runs each, alternating: blocks in parallel against one block on one
 * thread. It ran against a temporary build of graph_symmetry.c (between 36d2229 and
 * e4278f3) whose threshold read the environment variable SYMPAR (65536: blocks as on
 * main; 1e12: one block); that override is not in the committed code.
 *   cc -O2 -Iinclude -I. -fopenmp symmetry_bench.c build-cpu/libcoarsen.a -lisal -lm -lmetis
 *   OMP_NUM_THREADS=2 ./a.out FILE 21 */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
#include "coarsen.h"
#include "core/graph_symmetry.h"
#include "core/timer.h"
int main(int argc, char **argv)
{
    coarsen_graph *g; coarsen_error err = {0};
    if (coarsen_graph_load(argv[1], &g, NULL, &err)) { fprintf(stderr, "%s\n", err.msg); return 1; }
    int reps = atoi(argv[2]);
    double best[2] = {1e9, 1e9};
    for (int r = 0; r < reps; r++)
        for (int m = 0; m < 2; m++) {
            setenv("SYMPAR", m ? "1000000000000" : "65536", 1);
            double t0 = timer_ms();
            graph_find_asymmetry(g, NULL);
            double t = timer_ms() - t0;
            if (t < best[m]) best[m] = t;
        }
    printf("%s n %d nnz %lld threads %d: blocks %.3f ms, one block %.3f ms\n", argv[1], g->n, (long long)g->nnz, omp_get_max_threads(), best[0], best[1]);
    return 0;
}
