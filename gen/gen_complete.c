/* gen_complete.c — the complete graph in CSR: row v is every other vertex.
 * Its size is bounded by GEN_COMPLETE_MAX_N (checked in gen_resolve). */
#include "gen/gen_internal.h"

static int64_t complete_row(const void *ctx, int32_t v, int32_t *out)
{
    int32_t n = *(const int32_t *)ctx;
    if (out)
        for (int32_t w = 0, c = 0; w < n; w++)
            if (w != v)
                out[c++] = w;
    return n - 1;
}

int gen_complete(const gen_shape *s, coarsen_graph **out, coarsen_error *err)
{
    int32_t n = (int32_t)s->n;
    return gen_csr_from_rows(n, complete_row, &n, out, err);
}
