/* graph_free.c — coarsen_graph_free (include/coarsen.h) for graphs of either
 * residence: a host graph's arrays go back to malloc, a device graph's to
 * the device layer that allocated them. Here, not in core/, so that the core
 * graph type does not depend on the device layer. */
#include <stdlib.h>

#include "coarsen.h"
#include "device/device.h"

void coarsen_graph_free(coarsen_graph *g)
{
    if (!g)
        return;
    if (g->on_device) {
        device_free(g->xadj);
        device_free(g->adj);
        device_free(g->ewgt);
        device_free(g->vwgt);
    } else {
        free(g->xadj);
        free(g->adj);
        free(g->ewgt);
        free(g->vwgt);
    }
    free(g);
}
