/* output_file.c — atomic (temporary name + rename) and optionally gzip'd
 * output files through write(2), with parallel gzip members and the
 * process's output totals; see output_file.h. */
#include "io/output_file.h"
#include "core/path_suffix.h"
#include "core/error.h"
#include "core/fault.h"
#include "core/interrupt.h"
#include "core/threads.h"
#include "core/timer.h"
#include "io/gzip_deflate.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Plain files and standard output: bytes gathered before one write(2). */
#define PLAIN_BUFFER ((size_t)1 << 20)

struct output_file {
    char *path, *tmp; /* NULL for standard output */
    int fd;
    int gz;
    int error;        /* errno of the first failure, 0 while none */
    int direct;       /* an existing device or FIFO: written in place, no rename */
    char *buf;        /* plain: PLAIN_BUFFER bytes; gzip: slots members */
    size_t cap, used;
    int slots;        /* gzip: members compressed per parallel batch */
    char *packed;     /* gzip: slots * gzip_deflate_bound(OUTPUT_GZ_MEMBER) bytes */
    size_t *packed_size;
    int64_t members;  /* gzip members written */
    output_totals t;  /* this file's share, added to the totals at the end */
};

static pthread_mutex_t totals_lock = PTHREAD_MUTEX_INITIALIZER;
static output_totals totals;

void output_totals_get(output_totals *t)
{
    pthread_mutex_lock(&totals_lock);
    *t = totals;
    pthread_mutex_unlock(&totals_lock);
}

void output_totals_reset(void)
{
    pthread_mutex_lock(&totals_lock);
    memset(&totals, 0, sizeof totals);
    pthread_mutex_unlock(&totals_lock);
}

void output_add_times(output_file *f, double format_s, double compress_s)
{
    f->t.format_s += format_s;
    f->t.compress_s += compress_s;
}

/* Adds f's figures to the totals; its bytes only when it was committed. */
static void add_totals(const output_file *f, int committed)
{
    pthread_mutex_lock(&totals_lock);
    totals.format_s += f->t.format_s;
    totals.compress_s += f->t.compress_s;
    totals.write_s += f->t.write_s;
    if (committed && f->path) {
        totals.bytes_plain += f->t.bytes_plain;
        totals.bytes_written += f->t.bytes_written;
        totals.files++;
    }
    pthread_mutex_unlock(&totals_lock);
}

static void release(output_file *f)
{
    free(f->path);
    free(f->tmp);
    free(f->buf);
    free(f->packed);
    free(f->packed_size);
    free(f);
}

int output_check_creatable(const char *path, coarsen_error *err)
{
    size_t len = strlen(path);
    char *dir = malloc(len + 2);
    if (!dir)
        return error_nomem(err, "output folder name", len + 2);
    memcpy(dir, path, len + 1);
    char *slash = strrchr(dir, '/');
    if (!slash)
        strcpy(dir, ".");
    else
        slash[slash == dir] = 0; /* "/name": the root */
    struct stat st;
    int e = stat(dir, &st) != 0 ? errno : !S_ISDIR(st.st_mode) ? ENOTDIR : access(dir, W_OK | X_OK) != 0 ? errno : 0;
    free(dir);
    return e ? error_set(err, COARSEN_ERR_IO, "%s: cannot create: %s", path, strerror(e)) : COARSEN_OK;
}

int output_check(const char *path, coarsen_error *err)
{
    struct stat st;
    if (!strcmp(path, "-") || stat(path, &st) != 0) /* stat follows links */
        return !strcmp(path, "-") ? COARSEN_OK : output_check_creatable(path, err);
    if (S_ISDIR(st.st_mode))
        return error_set(err, COARSEN_ERR_IO, "%s: is a folder, not a file", path);
    if (!S_ISREG(st.st_mode)) /* written in place */
        return access(path, W_OK) != 0 ? error_set(err, COARSEN_ERR_IO, "%s: cannot open: %s", path, strerror(errno))
                                       : COARSEN_OK;
    char *target = realpath(path, NULL); /* a link's target is what gets replaced */
    if (!target)
        return error_set(err, COARSEN_ERR_IO, "%s: cannot create: %s", path, strerror(errno));
    int rc = output_check_creatable(target, err);
    free(target);
    return rc;
}

output_file *output_open(const char *path, coarsen_error *err)
{
    output_file *f = xcalloc(1, sizeof *f, "output file", err);
    if (!f)
        return NULL;
    f->fd = -1;
    int is_stdout = !strcmp(path, "-");
    f->gz = !is_stdout && path_ends_with(path, ".gz");
    if (f->gz) {
        int threads = threads_available();
        f->slots = threads > 1 ? threads : 2;
        f->cap = (size_t)f->slots * OUTPUT_GZ_MEMBER;
        f->packed = malloc((size_t)f->slots * gzip_deflate_bound(OUTPUT_GZ_MEMBER));
        f->packed_size = malloc((size_t)f->slots * sizeof *f->packed_size);
    } else {
        f->cap = PLAIN_BUFFER;
    }
    f->buf = malloc(f->cap);
    if (!f->buf || (f->gz && (!f->packed || !f->packed_size))) {
        error_nomem(err, "output buffers", f->cap * 2);
        goto fail;
    }
    if (is_stdout) {
        fflush(stdout); /* what stdio holds goes first */
        f->fd = STDOUT_FILENO;
        return f;
    }
    /* A regular file (or a new name) is replaced by a rename; anything else
     * that exists (a device, a FIFO, a link to one) is written in place; a
     * link to a regular file replaces its target, not the link. */
    struct stat st;
    char *target = NULL;
    if (lstat(path, &st) == 0) {
        if (S_ISLNK(st.st_mode) && (target = realpath(path, NULL)) && stat(target, &st) != 0) {
            free(target);
            target = NULL;
        }
        if (S_ISDIR(st.st_mode)) {
            free(target);
            error_set(err, COARSEN_ERR_IO, "%s: is a folder, not a file", path);
            goto fail;
        }
        f->direct = !S_ISREG(st.st_mode);
    }
    f->path = strdup(path);
    const char *final = target && !f->direct ? target : path;
    f->tmp = f->direct ? NULL : malloc(strlen(final) + 32);
    if (!f->path || (!f->direct && !f->tmp)) {
        free(target);
        error_nomem(err, "output file name", strlen(path));
        goto fail;
    }
    if (f->direct) {
        f->fd = open(path, O_WRONLY | O_CLOEXEC);
    } else {
        sprintf(f->tmp, "%s.tmp.%ld", final, (long)getpid());
        if (target) { /* rename over the link's target */
            free(f->path);
            f->path = target;
            target = NULL;
        }
        f->fd = open(f->tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    }
    free(target);
    if (f->fd < 0) {
        error_set(err, COARSEN_ERR_IO, "%s: cannot %s: %s", path, f->direct ? "open" : "create", strerror(errno));
        goto fail;
    }
    return f;
fail:
    release(f);
    return NULL;
}

/* write(2) of all of p[0..n): resumes after EINTR and short writes, latches
 * the first failure. */
static void write_fd(output_file *f, const char *p, size_t n)
{
    if (!f->error && interrupt_signal())
        f->error = EINTR; /* asked to stop: the file is abandoned like a failed one */
    if (f->error)
        return;
    double t0 = timer_ms();
    while (n) {
        size_t chunk = n < ((size_t)1 << 30) ? n : (size_t)1 << 30;
        int injected = fault_write(&chunk); /* tests only (core/fault.h) */
        ssize_t k = injected ? (errno = injected, -1) : write(f->fd, p, chunk);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            f->error = k < 0 ? errno : EIO;
            break;
        }
        p += k, n -= (size_t)k;
        f->t.bytes_written += k;
    }
    f->t.write_s += (timer_ms() - t0) * 1e-3;
}

/* Compresses buf[0..used) as members of OUTPUT_GZ_MEMBER bytes in parallel
 * and writes them in order; at least one member when none was written yet
 * (an empty file is then one empty member, which gzip accepts). */
static void flush_gzip(output_file *f)
{
    int count = (int)((f->used + OUTPUT_GZ_MEMBER - 1) / OUTPUT_GZ_MEMBER);
    if (!count && !f->members)
        count = 1;
    size_t bound = gzip_deflate_bound(OUTPUT_GZ_MEMBER);
    double t0 = timer_ms();
#pragma omp parallel for schedule(dynamic, 1) if (count > 1)
    for (int m = 0; m < count; m++) {
        size_t off = (size_t)m * OUTPUT_GZ_MEMBER, len = f->used - off < OUTPUT_GZ_MEMBER ? f->used - off
                                                                                          : OUTPUT_GZ_MEMBER;
        f->packed_size[m] = gzip_deflate(f->buf + off, len, f->packed + (size_t)m * bound, bound,
                                         GZIP_DEFLATE_LEVEL);
    }
    f->t.compress_s += (timer_ms() - t0) * 1e-3;
    for (int m = 0; m < count; m++) {
        if (!f->packed_size[m] && !f->error)
            f->error = ENOMEM; /* the only way the libraries fail here */
        write_fd(f, f->packed + (size_t)m * bound, f->packed_size[m]);
    }
    f->members += count;
    f->used = 0;
}

static void flush_buffer(output_file *f)
{
    if (f->gz)
        flush_gzip(f);
    else if (f->used)
        write_fd(f, f->buf, f->used);
    f->used = 0;
}

void output_write(output_file *f, const void *data, size_t bytes)
{
    if (f->error)
        return;
    f->t.bytes_plain += (int64_t)bytes;
    const char *p = data;
    if (!f->gz && f->used + bytes > f->cap) {
        flush_buffer(f);
        if (bytes >= f->cap) { /* large pieces go out without a copy */
            write_fd(f, p, bytes);
            return;
        }
    }
    while (bytes && !f->error) {
        size_t room = f->cap - f->used, k = bytes < room ? bytes : room;
        memcpy(f->buf + f->used, p, k);
        f->used += k, p += k, bytes -= k;
        if (f->used == f->cap)
            flush_buffer(f);
    }
}

size_t output_piece_room(const output_file *f, size_t bytes)
{
    return f->gz ? gzip_deflate_bound(bytes) : 0;
}

size_t output_piece_pack(const output_file *f, const void *in, size_t bytes, void *out, size_t room)
{
    (void)f;
    return gzip_deflate(in, bytes, out, room, GZIP_DEFLATE_LEVEL);
}

void output_write_piece(output_file *f, const void *data, size_t bytes, size_t plain)
{
    if (f->error)
        return;
    if (f->used)
        flush_buffer(f); /* what output_write buffered goes first */
    if (!bytes && f->gz) {
        f->error = ENOMEM; /* a member that could not be packed */
        return;
    }
    f->t.bytes_plain += (int64_t)plain;
    if (f->gz)
        f->members++;
    write_fd(f, data, bytes);
}

void output_printf(output_file *f, const char *fmt, ...)
{
    char line[4096];
    va_list ap, again;
    va_start(ap, fmt);
    va_copy(again, ap);
    int len = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (len >= 0 && (size_t)len < sizeof line) {
        output_write(f, line, (size_t)len);
    } else if (len >= 0) {
        char *big = malloc((size_t)len + 1);
        if (big)
            vsnprintf(big, (size_t)len + 1, fmt, again), output_write(f, big, (size_t)len);
        else if (!f->error)
            f->error = ENOMEM;
        free(big);
    } else if (!f->error) {
        f->error = EINVAL;
    }
    va_end(again);
}

int output_failed(const output_file *f)
{
    return f->error != 0;
}

int output_compresses(const output_file *f)
{
    return f->gz;
}

int output_commit(output_file *f, coarsen_error *err)
{
    flush_buffer(f);
    double t0 = timer_ms();
    if (f->path) {
        if (close(f->fd) != 0 && !f->error)
            f->error = errno;
        if (!f->direct && !f->error && rename(f->tmp, f->path) != 0)
            f->error = errno;
        if (!f->direct && f->error)
            unlink(f->tmp);
    }
    f->t.write_s += (timer_ms() - t0) * 1e-3;
    int rc = COARSEN_OK;
    if (f->error == EINTR && interrupt_signal())
        rc = interrupt_check(err);
    else if (f->error)
        rc = error_set(err, COARSEN_ERR_IO, "%s: write failed: %s", f->path ? f->path : "standard output",
                       strerror(f->error));
    add_totals(f, rc == COARSEN_OK);
    release(f);
    return rc;
}

void output_abort(output_file *f)
{
    if (!f)
        return;
    if (f->path) {
        close(f->fd);
        if (!f->direct)
            unlink(f->tmp);
    }
    add_totals(f, 0);
    release(f);
}
