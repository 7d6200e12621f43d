/* output_file.h — every file the project writes goes through here: it is
 * written under a temporary name in the same folder and renamed over the
 * final name only on output_commit, so a failed run leaves no partial file.
 * Names ending in ".gz" are gzip-compressed: the content is cut into
 * members of OUTPUT_GZ_MEMBER input bytes, compressed in parallel
 * (io/gzip_deflate.h, OpenMP) and written in order, as pigz does; the file
 * is a valid multi-member gzip file whose members record their sizes
 * (io/gzip_index.h) for parallel reading. "-" writes standard output (no rename,
 * never compressed). An existing path that is not a regular file (a device
 * such as /dev/stdout, a FIFO, a link to one) is written in place, never
 * renamed over (a FIFO blocks until a reader opens it); a symbolic link to a
 * regular file gets its target replaced, the link stays. Writes use write(2): interrupted and short writes are
 * resumed, the first failure (ENOSPC, EIO, EFBIG, ...) is latched, later
 * writes return at once, and output_commit reports it and removes the
 * temporary file. After SIGINT or SIGTERM (core/interrupt.h) the next write
 * fails the same way and output_commit reports COARSEN_ERR_INTERRUPTED.
 * One output_file is used by one thread at a time. */
#ifndef IO_OUTPUT_FILE_H
#define IO_OUTPUT_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "coarsen.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Uncompressed bytes per gzip member (bench/bench_gzip.c: 256 KiB .. 4 MiB
 * members compress to the same size; 1 MiB keeps 16 threads busy on files
 * of tens of MB). */
#define OUTPUT_GZ_MEMBER ((size_t)1 << 20)

typedef struct output_file output_file;

/* Opens path for writing; NULL (err set: "PATH: cannot create: ...") on
 * failure. The caller owns the result until output_commit/output_abort. */
output_file *output_open(const char *path, coarsen_error *err);
/* Checks, before any work, that output_open(path) and output_commit would
 * find their way: "-" always; an existing folder is refused ("PATH: is a
 * folder, not a file"); another existing path that is not a regular file
 * (a device, a FIFO) must be writable; otherwise (a new name, or a regular
 * file, replaced by a rename) the folder that receives it must exist and
 * take new files. COARSEN_ERR_IO with one line naming path. Creates
 * nothing; a later failure (a full disk) is still output_commit's. */
int output_check(const char *path, coarsen_error *err);
/* The part of output_check for a new entry: the folder of path exists, is
 * a folder and takes new entries ("PATH: cannot create: <reason>"). */
int output_check_creatable(const char *path, coarsen_error *err);

/* Appends data[0..bytes) ([in], copied or written before return); a failure
 * is latched and reported by output_commit. */
void output_write(output_file *f, const void *data, size_t bytes);
void output_printf(output_file *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Pieces: the row writer (io/row_writer.h) formats and compresses its
 * chunks in its own threads and hands them over whole. A piece is either
 * text (a file that does not compress) or one complete gzip member packed
 * by output_piece_pack. */
/* Bytes a piece of `bytes` text needs once packed: 0 when f does not
 * compress (the text is written as it is), else the member's bound. */
size_t output_piece_room(const output_file *f, size_t bytes);
/* Compresses in[0..bytes) into one gzip member at out[0..room) and returns
 * its size (0 on failure: out of memory in the library). Safe to call from
 * several threads at once on one f (it touches nothing of f). */
size_t output_piece_pack(const output_file *f, const void *in, size_t bytes, void *out, size_t room);
/* Appends a piece after what was written before ([in], written before
 * return): `data[0..bytes)` as it is, which for a compressing f must be a
 * member from output_piece_pack of `plain` text bytes (for a plain f,
 * plain == bytes). Failures are latched as output_write's. */
void output_write_piece(output_file *f, const void *data, size_t bytes, size_t plain);
/* Nonzero once a write has failed (later writes are skipped). */
int output_failed(const output_file *f);
/* Nonzero when f compresses (its writes run parallel compression). */
int output_compresses(const output_file *f);
/* Writes what is buffered, closes and renames into place; frees f whatever
 * happens. On failure: "PATH: write failed: <strerror>", COARSEN_ERR_IO,
 * and the temporary file is gone. */
int output_commit(output_file *f, coarsen_error *err);
/* Closes and deletes the temporary file; frees f. NULL is allowed. */
void output_abort(output_file *f);

/* One integer per line (e.g. mates, maps, partitions), written atomically,
 * formatted in parallel (io/row_writer.h). */
int io_write_ints(const char *path, const int32_t *values, int64_t n, coarsen_error *err);

/* Cumulative figures of this process's output files, for the run's phase
 * split. Times are wall seconds; bytes count committed files only (not
 * standard output): bytes_written is the sum of their sizes on disk,
 * bytes_plain the sum of their uncompressed contents (equal for plain
 * files). Updated under a lock at each commit or abort. */
typedef struct output_totals {
    double format_s;       /* formatting text (io/row_writer.c) */
    double compress_s;     /* gzip compression, parallel batches */
    double write_s;        /* write(2), close(2) and rename(2) */
    int64_t bytes_plain;   /* uncompressed bytes of the committed files */
    int64_t bytes_written; /* bytes of the committed files on disk */
    int64_t files;         /* files committed */
} output_totals;

/* Copies the totals into *t ([out]). */
void output_totals_get(output_totals *t);
/* Sets the totals to zero (tests; a run that reports per phase). */
void output_totals_reset(void);
/* Adds formatting and compression time spent for f (called by the row
 * writer, whose threads do both). */
void output_add_times(output_file *f, double format_s, double compress_s);

#ifdef __cplusplus
}
#endif
#endif
