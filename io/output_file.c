/* output_file.c — atomic (temporary name + rename) and optionally gzip'd
 * output files; see output_file.h. */
#include "io/output_file.h"
#include "core/error.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

struct output_file {
    char *path, *tmp;
    FILE *plain;     /* plain file or stdout */
    gzFile gz;       /* gzip stream, when the name ends in .gz */
    int failed;      /* a write failed */
    int is_stdout;
    char buf[1 << 16];
    size_t used;
};

static int ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && !strcmp(s + a - b, suffix);
}

output_file *output_open(const char *path, coarsen_error *err)
{
    output_file *f = xcalloc(1, sizeof *f, "output file", err);
    if (!f)
        return NULL;
    if (!strcmp(path, "-")) {
        f->is_stdout = 1;
        f->plain = stdout;
        return f;
    }
    f->path = strdup(path);
    f->tmp = malloc(strlen(path) + 32);
    if (!f->path || !f->tmp) {
        error_nomem(err, "output file name", strlen(path));
        goto fail;
    }
    sprintf(f->tmp, "%s.tmp.%ld", path, (long)getpid());
    if (ends_with(path, ".gz")) {
        f->gz = gzopen(f->tmp, "wb6");
        if (!f->gz) {
            error_set(err, COARSEN_ERR_IO, "%s: cannot create: %s", path, strerror(errno));
            goto fail;
        }
    } else {
        f->plain = fopen(f->tmp, "wb");
        if (!f->plain) {
            error_set(err, COARSEN_ERR_IO, "%s: cannot create: %s", path, strerror(errno));
            goto fail;
        }
    }
    return f;
fail:
    free(f->path);
    free(f->tmp);
    free(f);
    return NULL;
}

static void flush_buffer(output_file *f)
{
    if (!f->used || f->failed)
        return;
    if (f->gz)
        f->failed = gzwrite(f->gz, f->buf, (unsigned)f->used) != (int)f->used;
    else
        f->failed = fwrite(f->buf, 1, f->used, f->plain) != f->used;
    f->used = 0;
}

void output_write(output_file *f, const void *data, size_t bytes)
{
    const char *p = data;
    while (bytes) {
        size_t room = sizeof f->buf - f->used, k = bytes < room ? bytes : room;
        memcpy(f->buf + f->used, p, k);
        f->used += k, p += k, bytes -= k;
        if (f->used == sizeof f->buf)
            flush_buffer(f);
    }
}

void output_printf(output_file *f, const char *fmt, ...)
{
    char line[4096];
    va_list ap;
    va_start(ap, fmt);
    int len = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (len < 0 || (size_t)len >= sizeof line) {
        f->failed = 1;
        return;
    }
    output_write(f, line, (size_t)len);
}

static void release(output_file *f)
{
    free(f->path);
    free(f->tmp);
    free(f);
}

int output_commit(output_file *f, coarsen_error *err)
{
    flush_buffer(f);
    int failed = f->failed;
    if (f->is_stdout) {
        failed |= fflush(stdout) != 0;
        free(f);
        return failed ? error_set(err, COARSEN_ERR_IO, "standard output: write failed") : COARSEN_OK;
    }
    if (f->gz)
        failed |= gzclose(f->gz) != Z_OK;
    else
        failed |= fclose(f->plain) != 0;
    if (!failed && rename(f->tmp, f->path) != 0)
        failed = 1;
    int rc = COARSEN_OK;
    if (failed) {
        rc = error_set(err, COARSEN_ERR_IO, "%s: write failed: %s", f->path, strerror(errno ? errno : EIO));
        unlink(f->tmp);
    }
    release(f);
    return rc;
}

void output_abort(output_file *f)
{
    if (!f)
        return;
    if (!f->is_stdout) {
        if (f->gz)
            gzclose(f->gz);
        else
            fclose(f->plain);
        unlink(f->tmp);
        release(f);
    } else {
        free(f);
    }
}

int io_write_ints(const char *path, const int32_t *values, int64_t n, coarsen_error *err)
{
    output_file *f = output_open(path, err);
    if (!f)
        return err ? err->status : COARSEN_ERR_IO;
    char line[16];
    for (int64_t k = 0; k < n; k++) {
        int len = snprintf(line, sizeof line, "%d\n", values[k]);
        output_write(f, line, (size_t)len);
    }
    return output_commit(f, err);
}
