/* parhip_write.h — the ParHIP binary graph writer (layout: io/parhip_layout.h,
 * docs/formats.md), behind coarsen_graph_write(COARSEN_FORMAT_PARHIP). */
#ifndef IO_PARHIP_WRITE_H
#define IO_PARHIP_WRITE_H

#include "coarsen.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum parhip_widths {
    /* 64-bit offsets, ids and weights: KaHIP's ParHIP (version 3 when
     * unweighted) and KaMinPar's 64-bit builds (its Python package) read it. */
    PARHIP_WIDE = 0,
    /* 32-bit ids; 32-bit offsets and weights where the values fit, else 64:
     * half the size, read by every KaMinPar build, not by KaHIP's ParHIP. */
    PARHIP_NARROW = 1
} parhip_widths;

/* Writes host graph g [in] to path through io/output_file.h (atomic; ".gz"
 * compresses; "-" is standard output). Vertex and edge weight sections are
 * written only when some weight is not 1. Edge weights must be integers
 * >= 1; real weights need weight_scale > 0 (round(w * scale) is written) and
 * are refused otherwise, naming the way out. */
int parhip_write_graph(const coarsen_graph *g, const char *path, double weight_scale, parhip_widths widths,
                       coarsen_error *err);

#ifdef __cplusplus
}
#endif
#endif
