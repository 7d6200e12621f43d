/* parse_bench.c — the METIS parse in one process, min and median of RUNS
 * loads (coarsen_graph_load's report: parse_ms), so that the machine's other
 * load weighs less than in separate runs. Linked against each build's
 * libcoarsen.a:
 *   cc -O2 -fopenmp -Iinclude parse_bench.c BUILD/libcoarsen.a -lisal -lm -lmetis -o pb
 *   OMP_NUM_THREADS=T ./pb RUNS FILE... */
#include <stdio.h>
#include <stdlib.h>

#include "coarsen.h"

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    int runs = atoi(argv[1]);
    double *ms = malloc((size_t)runs * sizeof *ms);
    for (int f = 2; f < argc; f++) {
        for (int r = 0; r < runs; r++) {
            coarsen_graph *g;
            coarsen_read_report rep;
            coarsen_error err;
            if (coarsen_graph_load(argv[f], &g, &rep, &err)) {
                fprintf(stderr, "%s\n", err.msg);
                return 1;
            }
            ms[r] = rep.parse_ms;
            coarsen_graph_free(g);
        }
        qsort(ms, (size_t)runs, sizeof *ms, cmp);
        printf("%s min %.2f median %.2f\n", argv[f], ms[0], ms[runs / 2]);
    }
    free(ms);
    return 0;
}
