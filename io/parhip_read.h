/* parhip_read.h — the ParHIP binary graph reader (layout: io/parhip_layout.h
 * and docs/formats.md). Every flag combination KaMinPar defines is read
 * (32/64-bit offsets, ids and weights; vertex and edge weights optional).
 * Validated completely before a graph is returned: the header against the
 * file length (before anything is allocated), offsets in range, aligned and
 * monotone, neighbour ids in range, weights positive (edges) or >= 0
 * (vertices), no neighbour listed twice, symmetric adjacency with equal
 * weights. Self-loops are dropped and counted, as the METIS reader does.
 * Input errors are one line "FILE: what is wrong" (ids 0-based, as stored)
 * with status COARSEN_ERR_INPUT. */
#ifndef IO_PARHIP_READ_H
#define IO_PARHIP_READ_H

#include <stddef.h>

#include "coarsen.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Reads the ParHIP graph in data[0..len) [in, borrowed]; name [in] is used in
 * messages. Fills report [out] (may be NULL) except report->bytes. On success
 * the caller owns *out; on failure *out is NULL. */
int parhip_read_buffer(const char *name, const unsigned char *data, size_t len, coarsen_graph **out,
                       coarsen_read_report *report, coarsen_error *err);

/* 1 when data[0..len) starts with a ParHIP version word (a little-endian
 * uint64 below 64: text never starts with NUL bytes). */
int parhip_looks_binary(const void *data, size_t len);

/* 1 when name ends in .parhip or .bgf (KaMinPar's and KaHIP's extensions),
 * optionally followed by .gz; case-insensitive. */
int parhip_has_name(const char *name);

/* Returned by parhip_read_file when path is not for this reader. */
#define PARHIP_NOT_MINE (-1)

/* Reads path through mmap when it is a regular, uncompressed file that is
 * ParHIP by its content or its name; fills report (may be NULL) including
 * report->bytes. Returns PARHIP_NOT_MINE without touching *out or err for
 * anything else ("-", pipes, gzip, text, unopenable paths), which the text
 * loader then handles (it also detects ParHIP in memory: graph_load.h). */
int parhip_read_file(const char *path, coarsen_graph **out, coarsen_read_report *report, coarsen_error *err);

#ifdef __cplusplus
}
#endif
#endif
