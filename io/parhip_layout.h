/* parhip_layout.h — the ParHIP binary graph layout, as KaMinPar reads and
 * writes it (kaminpar-io/parhip_parser.cc, docs/graph_file_format.md; KaHIP's
 * ParHIP writes the same layout with version 3): where each section starts,
 * how wide its words are, and the file size a header implies. Shared by the
 * reader and the writer; docs/formats.md describes the layout in words.
 *
 * Header: three little-endian uint64 words: version, n, m (m = adjacency
 * entries, i.e. twice the undirected edges). The version word is a set of
 * flags, each bit SET meaning the feature is ABSENT or NARROW (below). Then
 * offsets ((n + 1) words of the edge-id width: byte positions from the start
 * of the file of each row's first neighbour), adjacency (m words of the
 * vertex-id width, 0-based), vertex weights (n words, when present), edge
 * weights (m words, when present). */
#ifndef IO_PARHIP_LAYOUT_H
#define IO_PARHIP_LAYOUT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define PARHIP_HEADER_BYTES 24

enum parhip_flag {
    PARHIP_NO_EDGE_WEIGHTS = 1,    /* bit 0 set: no edge weight section */
    PARHIP_NO_VERTEX_WEIGHTS = 2,  /* bit 1 set: no vertex weight section */
    PARHIP_EDGE_ID_32 = 4,         /* bit 2 set: offsets are 32-bit (else 64) */
    PARHIP_VERTEX_ID_32 = 8,       /* bit 3 set: neighbour ids are 32-bit */
    PARHIP_VERTEX_WEIGHT_32 = 16,  /* bit 4 set: vertex weights are 32-bit */
    PARHIP_EDGE_WEIGHT_32 = 32,    /* bit 5 set: edge weights are 32-bit */
    PARHIP_KNOWN_FLAGS = 63
};

typedef struct parhip_layout {
    uint64_t version, n, m;          /* the header words */
    int has_vwgt, has_ewgt;
    unsigned eid_bytes, vid_bytes;   /* 4 or 8 */
    unsigned vw_bytes, ew_bytes;     /* 4 or 8 (also when the section is absent) */
    uint64_t offsets_at, adj_at, vwgt_at, ewgt_at; /* byte positions of the sections */
    uint64_t size;                   /* exact file size the header implies */
} parhip_layout;

/* Fills *l [out] from the three header words. Returns 0, or -1 when version
 * has bits beyond PARHIP_KNOWN_FLAGS, or -2 when the sizes would not fit in
 * 63 bits (no file is that large). */
int parhip_layout_init(parhip_layout *l, uint64_t version, uint64_t n, uint64_t m);

/* Little-endian unsigned word of `bytes` (4 or 8) bytes at p (any alignment). */
static inline uint64_t parhip_load(const unsigned char *p, unsigned bytes)
{
    uint64_t v = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* one load of the width at hand, not a loop over its bytes */
    if (bytes == 8) {
        memcpy(&v, p, 8);
        return v;
    }
    if (bytes == 4) {
        uint32_t w;
        memcpy(&w, p, 4);
        return w;
    }
#endif
    for (unsigned k = bytes; k-- > 0;)
        v = v << 8 | p[k];
    return v;
}

/* Stores the low `bytes` (4 or 8) bytes of v at p, little-endian. */
static inline void parhip_store(unsigned char *p, uint64_t v, unsigned bytes)
{
    for (unsigned k = 0; k < bytes; k++, v >>= 8)
        p[k] = (unsigned char)v;
}

#endif
