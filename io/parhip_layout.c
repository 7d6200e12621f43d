/* parhip_layout.c — section positions and file size of a ParHIP binary
 * graph from its header; see parhip_layout.h. */
#include "io/parhip_layout.h"

/* a + b * c into *out unless it exceeds 2^63 - 1 (then 0 is returned). */
static int add_mul(uint64_t a, uint64_t b, uint64_t c, uint64_t *out)
{
    const uint64_t max = (uint64_t)INT64_MAX;
    if (c && b > (max - a) / c)
        return 0;
    *out = a + b * c;
    return 1;
}

int parhip_layout_init(parhip_layout *l, uint64_t version, uint64_t n, uint64_t m)
{
    *l = (parhip_layout){.version = version, .n = n, .m = m};
    if (version & ~(uint64_t)PARHIP_KNOWN_FLAGS)
        return -1;
    l->has_ewgt = !(version & PARHIP_NO_EDGE_WEIGHTS);
    l->has_vwgt = !(version & PARHIP_NO_VERTEX_WEIGHTS);
    l->eid_bytes = version & PARHIP_EDGE_ID_32 ? 4 : 8;
    l->vid_bytes = version & PARHIP_VERTEX_ID_32 ? 4 : 8;
    l->vw_bytes = version & PARHIP_VERTEX_WEIGHT_32 ? 4 : 8;
    l->ew_bytes = version & PARHIP_EDGE_WEIGHT_32 ? 4 : 8;
    l->offsets_at = PARHIP_HEADER_BYTES;
    if (n == UINT64_MAX || !add_mul(l->offsets_at, n + 1, l->eid_bytes, &l->adj_at) ||
        !add_mul(l->adj_at, m, l->vid_bytes, &l->vwgt_at) ||
        !add_mul(l->vwgt_at, l->has_vwgt ? n : 0, l->vw_bytes, &l->ewgt_at) ||
        !add_mul(l->ewgt_at, l->has_ewgt ? m : 0, l->ew_bytes, &l->size))
        return -2;
    return 0;
}
