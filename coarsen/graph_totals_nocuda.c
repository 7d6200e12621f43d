/* graph_totals_nocuda.c — graph_totals_gpu in a build without CUDA. */
#include "coarsen/graph_totals.h"
#include "core/error.h"

int graph_totals_gpu(const coarsen_graph *g, graph_totals *t, coarsen_error *err)
{
    (void)g, (void)t;
    return error_set(err, COARSEN_ERR_DEVICE, "this coarsen was built without CUDA (no nvcc at build time)");
}
