/* gen_weights.c — edge and vertex weights of generated graphs. An edge's
 * weight is a pure function of its unordered pair and the seed (hashed as
 * (min, max)), so both directions agree without communication. */
#include "gen/gen_internal.h"

#include <math.h>

void gen_fill_weights(coarsen_graph *g, const gen_opts *o, const double *x, const double *y)
{
    const uint64_t ws = gen_stream(o->seed, GEN_STREAM_WEIGHTS);
    const gen_weights kind = o->weights;
    const uint64_t maxw = (uint64_t)o->max_int_weight;
    const double lambda = o->lambda;
    g->integral_weights = kind == GEN_W_UNIT || kind == GEN_W_INT;
#pragma omp parallel for schedule(dynamic, 4096)
    for (int32_t u = 0; u < g->n; u++) {
        g->vwgt[u] = 1;
        for (int64_t e = g->xadj[u]; e < g->xadj[u + 1]; e++) {
            int32_t v = g->adj[e], a = u < v ? u : v, b = u < v ? v : u;
            uint64_t h = hash3(ws, (uint64_t)a, (uint64_t)b);
            double w = 1.0;
            switch (kind) {
            case GEN_W_UNIT:
                break;
            case GEN_W_INT:
                w = (double)(1 + h % maxw);
                break;
            case GEN_W_REAL:
                w = 1.0 - hash_unit(h);
                break;
            case GEN_W_EXPONENTIAL:
                w = -log1p(-hash_unit(h)) / lambda;
                break;
            case GEN_W_GEOMETRIC: {
                double dx = x[a] - x[b], dy = y[a] - y[b];
                w = sqrt(dx * dx + dy * dy);
                break;
            }
            }
            g->ewgt[e] = w;
        }
    }
}
