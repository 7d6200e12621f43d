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
#include "io/parhip_layout.h"

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

/* The pieces of parhip_read_file that coarsen-mpi's per-rank reading
 * (dist/read.h) runs on its own share of the file.
 * parhip_map_file: path mapped read-only into *data, *len [out] (release
 * with parhip_unmap) when it is for this reader (as parhip_read_file
 * decides: PARHIP_NOT_MINE otherwise); COARSEN_ERR_IO when mmap fails. */
int parhip_map_file(const char *path, const unsigned char **data, size_t *len, coarsen_error *err);
void parhip_unmap(const unsigned char *data, size_t len);
/* The header of data[0..len) checked against len into *l [out]; errors as
 * parhip_read_buffer's. */
int parhip_read_layout(const char *name, const unsigned char *data, size_t len, parhip_layout *l, coarsen_error *err);
/* The rows of vertices lo..hi-1 (0 <= lo <= hi <= l->n) of a header-checked
 * file, with offsets lo..hi checked, into *out [out, owned by the caller: a
 * graph of hi - lo rows whose neighbour ids are global], self-loops dropped
 * (*loops [out]: their number) and rows sorted; errors as
 * parhip_read_buffer's for those rows. Symmetry is the caller's to check. */
int parhip_read_block(const char *name, const parhip_layout *l, const unsigned char *data, int64_t lo, int64_t hi,
                      coarsen_graph **out, int64_t *loops, coarsen_error *err);
/* The reader's report of a file of this layout (times and bytes aside). */
void parhip_report(const parhip_layout *l, int64_t loops, coarsen_read_report *report);

#ifdef __cplusplus
}
#endif
#endif
