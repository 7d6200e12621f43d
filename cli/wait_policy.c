/* wait_policy.c — passive OpenMP waiting by default for the `coarsen`
 * program. By default a libgomp thread that has no work spins for up to
 * 300000 pause loops (milliseconds) before it sleeps: on a machine whose
 * cores are busy with other work the spinning threads take the cores that
 * the working ones need (a partition 3x slower on a 2-core machine beside one
 * compile, docs/benchmarks.md). libgomp reads OMP_WAIT_POLICY and
 * GOMP_SPINCOUNT once, in its constructor, so setting them in main is too
 * late; the program links libgomp statically (Makefile: GOMP_STATIC), which
 * puts that constructor into the program's own constructor list, where this
 * one, of higher priority, runs first. When the user set neither variable it
 * sets OMP_WAIT_POLICY=passive: idle threads sleep at once. (Linked against
 * the shared libgomp, which is initialised before the program, the variable
 * comes too late and libgomp's default stays; LLVM's libomp reads it at the
 * first parallel region, so there it takes effect either way.) */
#include <stdlib.h>

__attribute__((constructor(101))) static void wait_policy_passive(void)
{
    if (!getenv("OMP_WAIT_POLICY") && !getenv("GOMP_SPINCOUNT"))
        setenv("OMP_WAIT_POLICY", "passive", 0);
}
