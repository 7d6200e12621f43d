/* text_input.c — loading a whole (possibly gzip'd) file into memory: plain
 * regular files by mmap; gzip files whose members are all indexed
 * (io/gzip_parallel.h), and large one-member files (io/gzip_split.h),
 * inflated on all threads before text_input_open returns; other gzip by a
 * thread that inflates into a reserved region while readers wait on its
 * progress; and the real-number parser of the readers.
 * See text_input.h. */
#include "io/text_input.h"
#include "core/error.h"
#include "core/threads.h"
#include "core/timer.h"
#include "io/gzip_inflate.h"
#include "io/gzip_parallel.h"
#include "io/gzip_split.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* deflate expands at most 1032:1 (RFC 1951: a 258-byte match in 2 bits). */
#define DEFLATE_MAX_RATIO 1032

struct text_stream {
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t moved;
    int fd;
    unsigned char first[2]; /* the magic bytes, already read */
    size_t first_len;
    size_t produced; /* final bytes (under lock) */
    int complete;    /* under lock */
    int cancel;      /* under lock: the reader no longer wants the text */
    int status;
    coarsen_error err;
    int joined;
};

static size_t page_size(void)
{
    long p = sysconf(_SC_PAGESIZE);
    return p > 0 ? (size_t)p : 4096;
}

/* The most text any input may have: the memory available now (Linux's
 * MemAvailable), else the machine's physical memory. A text that does not
 * fit is refused with one line instead of meeting the OOM killer (a pipe
 * from /dev/zero, a gzip bomb). */
static size_t memory_cap(void)
{
    long pages = sysconf(_SC_PHYS_PAGES);
    size_t cap = pages > 0 ? (size_t)pages * page_size() : (size_t)1 << 40;
    FILE *f = fopen("/proc/meminfo", "r");
    char line[128];
    unsigned long long kb;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1 && kb > 0 && (size_t)kb * 1024 < cap)
            cap = (size_t)kb * 1024;
    if (f)
        fclose(f);
    return cap;
}

/* Reserves bytes (+ a NUL and TEXT_INPUT_PAD) of address space that is
 * committed only where written; NULL on failure. */
static char *reserve(size_t bytes, size_t *region)
{
    size_t ps = page_size(), r = (bytes + 1 + TEXT_INPUT_PAD + ps - 1) / ps * ps;
    void *p = mmap(NULL, r, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    memory_advise_huge(p, r);
    *region = r;
    return p;
}

/* Reserves at most *cap bytes for a text of unknown length: the largest of
 * *cap, *cap / 2, ... (down to 64 MiB) that the address space allows (a
 * ulimit -v, say), lowering *cap to it. NULL on failure. */
static char *reserve_up_to(size_t *cap, size_t *region)
{
    for (size_t want = *cap;; want /= 2) {
        char *p = reserve(want, region);
        if (p || want <= ((size_t)64 << 20)) {
            if (p)
                *cap = want;
            return p;
        }
    }
}

/* A plain regular file mapped, followed by a zero page for the NUL. */
static int map_plain(int fd, const char *path, size_t size, text_input *t, coarsen_error *err)
{
    size_t region;
    char *base = reserve(size, &region);
    if (!base)
        return error_nomem(err, "input text", size);
    if (size && mmap(base, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_FIXED, fd, 0) == MAP_FAILED) {
        int e = errno;
        munmap(base, region);
        return error_set(err, COARSEN_ERR_IO, "%s: cannot map: %s", path, strerror(e));
    }
    madvise(base, size, MADV_SEQUENTIAL);
    base[size] = '\0'; /* in the anonymous page after the file, or past its end in the last page */
    t->data = base, t->len = size, t->region = region, t->owned = 1, t->padded = 1;
    return COARSEN_OK;
}

/* A plain stream (pipe, standard input, device) read to its end, at most cap
 * bytes; first holds bytes already read. */
static int read_stream(int fd, const char *path, const unsigned char *first, size_t first_len, text_input *t,
                       coarsen_error *err)
{
    size_t cap = memory_cap(), region, len = first_len;
    char *buf = reserve_up_to(&cap, &region);
    if (!buf)
        return error_nomem(err, "input text", cap);
    memcpy(buf, first, first_len);
    for (;;) {
        if (len == cap) {
            munmap(buf, region);
            return error_set(err, COARSEN_ERR_INPUT, "%s: more than %zu bytes, the memory available to this process",
                             path, cap);
        }
        size_t want = cap - len < ((size_t)1 << 30) ? cap - len : (size_t)1 << 30;
        ssize_t got = read(fd, buf + len, want);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            int e = errno;
            munmap(buf, region);
            return error_set(err, COARSEN_ERR_IO, "%s: read failed: %s", path, strerror(e));
        }
        if (got == 0)
            break;
        len += (size_t)got;
    }
    buf[len] = '\0';
    t->data = buf, t->len = len, t->region = region, t->owned = 1, t->padded = 1;
    return COARSEN_OK;
}

static int inflate_progress(void *ctx, size_t produced)
{
    text_stream *s = ctx;
    pthread_mutex_lock(&s->lock);
    s->produced = produced;
    int cancel = s->cancel;
    pthread_cond_broadcast(&s->moved);
    pthread_mutex_unlock(&s->lock);
    return cancel;
}

static void *inflate_thread(void *arg)
{
    text_input *t = arg;
    text_stream *s = t->stream;
    double t0 = timer_ms();
    size_t len = 0;
    int rc = gzip_inflate_fd(s->fd, t->name, s->first, s->first_len, t->data, t->region - 1, &len, inflate_progress, s,
                             &s->err);
    close(s->fd);
    t->inflate_ms = timer_ms() - t0;
    pthread_mutex_lock(&s->lock);
    s->status = rc;
    s->produced = len;
    s->complete = 1;
    pthread_cond_broadcast(&s->moved);
    pthread_mutex_unlock(&s->lock);
    return NULL;
}

/* The most text a gzip file of size bytes (0: unknown) may inflate to. */
static size_t gzip_cap(size_t size)
{
    size_t cap = memory_cap();
    if (size && size < cap / DEFLATE_MAX_RATIO)
        cap = size * DEFLATE_MAX_RATIO;
    return cap;
}

/* Inflates the regular gzip file fd of size bytes on all threads when every
 * member is indexed and the text fits the cap: returns COARSEN_OK with the
 * text complete in t, or an error. *fallback = 1 (nothing changed, fd
 * untouched) when the file is not for this path or only one thread would
 * run it. */
static int inflate_indexed(int fd, size_t size, text_input *t, int *fallback, coarsen_error *err)
{
    *fallback = 1;
    double t0 = timer_ms();
    if (size < 18 || threads_available() < TEXT_INPUT_PARALLEL_MIN_THREADS)
        return COARSEN_OK;
    unsigned char *file = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (file == MAP_FAILED)
        return COARSEN_OK;
    gzip_member *members;
    size_t count, text;
    int rc = gzip_members_walk(file, size, &members, &count, &text, err);
    if (rc == 1 && text > gzip_cap(size)) { /* the stream reports it, at the line where the cap is passed */
        free(members);
        rc = 0;
    }
    if (rc != 1) { /* 0: not indexed; or out of memory */
        munmap(file, size);
        *fallback = !rc;
        return rc;
    }
    *fallback = 0;
    madvise(file, size, MADV_WILLNEED);
    size_t region = 0;
    char *buf = reserve(text, &region);
    rc = buf ? gzip_members_inflate(t->name, file, members, count, buf, err) : error_nomem(err, "input text", text);
    free(members);
    munmap(file, size);
    if (rc) {
        if (buf)
            munmap(buf, region);
        return rc;
    }
    buf[text] = '\0';
    t->data = buf, t->len = text, t->region = region, t->owned = 1, t->gzip = 1, t->size_hint = text, t->padded = 1;
    t->inflate_ms = timer_ms() - t0;
    return COARSEN_OK;
}

/* Inflates the regular gzip file fd of size bytes, one member without an
 * index, on all threads (io/gzip_split.h) when it is large enough to pay:
 * returns 1 with the text complete in t; 0 (nothing changed) when not
 * done: too small, too few threads, or anything the split path doubts,
 * which the stream then reads or reports. */
static int inflate_one_member(int fd, size_t size, text_input *t)
{
    double t0 = timer_ms();
    if (size < TEXT_INPUT_SPLIT_MIN_BYTES || threads_available() < TEXT_INPUT_SPLIT_MIN_THREADS)
        return 0;
    unsigned char *file = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (file == MAP_FAILED)
        return 0;
    madvise(file, size, MADV_WILLNEED);
    size_t cap = gzip_cap(size), region = 0, len = 0;
    char *buf = reserve_up_to(&cap, &region);
    int done = buf && gzip_split_inflate(file, size, buf, cap, GZIP_SPLIT_CHUNK, &len);
    munmap(file, size);
    if (!done) {
        if (buf)
            munmap(buf, region);
        return 0;
    }
    buf[len] = '\0';
    t->data = buf, t->len = len, t->region = region, t->owned = 1, t->gzip = 1, t->size_hint = len, t->padded = 1;
    t->inflate_ms = timer_ms() - t0;
    return 1;
}

static int start_inflate(int fd, const unsigned char *magic, size_t size, text_input *t,
                         coarsen_error *err)
{
    size_t cap = gzip_cap(size);
    text_stream *s = xcalloc(1, sizeof *s, "gzip stream", err);
    size_t region = 0;
    char *buf = s ? reserve_up_to(&cap, &region) : NULL;
    if (!buf) {
        free(s);
        close(fd);
        return s ? error_nomem(err, "input text", cap) : COARSEN_ERR_NOMEM;
    }
    s->fd = fd;
    memcpy(s->first, magic, 2);
    s->first_len = 2;
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->moved, NULL);
    t->data = buf, t->region = region, t->owned = 1, t->gzip = 1, t->size_hint = cap;
    t->stream = s;
    if (pthread_create(&s->thread, NULL, inflate_thread, t)) {
        s->joined = 1; /* no thread to join: inflate here */
        inflate_thread(t);
    }
    return COARSEN_OK;
}

/* Reads up to 2 bytes at the start of a stream; the count read. */
static ssize_t read_magic(int fd, unsigned char *magic)
{
    size_t got = 0;
    while (got < 2) {
        ssize_t r = read(fd, magic + got, 2 - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return -1;
        if (r == 0)
            break;
        got += (size_t)r;
    }
    return (ssize_t)got;
}

int text_input_open(const char *path, text_input *t, coarsen_error *err)
{
    memset(t, 0, sizeof *t);
    t->name = path;
    int is_stdin = !strcmp(path, "-");
    int fd = is_stdin ? dup(0) : open(path, O_RDONLY);
    if (fd < 0)
        return error_set(err, COARSEN_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0)
        memset(&st, 0, sizeof st);
    if (S_ISDIR(st.st_mode)) {
        close(fd);
        return error_set(err, COARSEN_ERR_IO, "%s: is a folder, not a file", path);
    }
    unsigned char magic[2];
    int regular = S_ISREG(st.st_mode) && lseek(fd, 0, SEEK_CUR) == 0;
    ssize_t got = regular ? pread(fd, magic, 2, 0) : read_magic(fd, magic);
    if (got < 0) {
        int e = errno;
        close(fd);
        return error_set(err, COARSEN_ERR_IO, "%s: read failed: %s", path, strerror(e));
    }
    if (got == 2 && magic[0] == 0x1f && magic[1] == 0x8b) {
        if (regular) {
            int fallback, rc = inflate_indexed(fd, (size_t)st.st_size, t, &fallback, err);
            if (!fallback || inflate_one_member(fd, (size_t)st.st_size, t)) {
                close(fd);
                return fallback ? COARSEN_OK : rc;
            }
            lseek(fd, 2, SEEK_SET);
        }
        return start_inflate(fd, magic, regular ? (size_t)st.st_size : 0, t, err);
    }
    int rc = regular ? map_plain(fd, path, (size_t)st.st_size, t, err)
                     : read_stream(fd, path, magic, (size_t)got, t, err);
    close(fd);
    if (!rc)
        t->size_hint = t->len;
    return rc;
}

size_t text_input_wait(text_input *t, size_t want, int *complete)
{
    text_stream *s = t->stream;
    if (!s) {
        if (complete)
            *complete = 1;
        return t->len;
    }
    pthread_mutex_lock(&s->lock);
    while (!s->complete && s->produced < want)
        pthread_cond_wait(&s->moved, &s->lock);
    size_t have = s->produced;
    if (complete)
        *complete = s->complete;
    pthread_mutex_unlock(&s->lock);
    return have;
}

const char *text_input_window(text_input *t, int (*ready)(const char *begin, const char *end), coarsen_error *err)
{
    for (size_t want = (size_t)1 << 16;; want *= 2) {
        int complete;
        size_t have = text_input_wait(t, want, &complete);
        if (complete)
            return text_input_finish(t, err) ? NULL : t->data + t->len;
        const char *end = t->data + have;
        while (end > t->data && end[-1] != '\n')
            end--;
        if (ready(t->data, end))
            return end;
    }
}

static void join(text_stream *s)
{
    if (!s->joined) {
        pthread_join(s->thread, NULL);
        s->joined = 1;
    }
}

int text_input_finish(text_input *t, coarsen_error *err)
{
    text_stream *s = t->stream;
    if (!s)
        return COARSEN_OK;
    text_input_wait(t, SIZE_MAX, NULL);
    join(s);
    int rc = s->status;
    if (rc && err)
        *err = s->err;
    t->len = rc ? 0 : s->produced;
    t->data[t->len] = '\0';
    pthread_mutex_destroy(&s->lock);
    pthread_cond_destroy(&s->moved);
    free(s);
    t->stream = NULL;
    return rc;
}

int text_input_load(const char *path, text_input *t, coarsen_error *err)
{
    int rc = text_input_open(path, t, err);
    if (!rc)
        rc = text_input_finish(t, err);
    if (rc)
        text_input_free(t);
    return rc;
}

void text_input_wrap(text_input *t, const char *name, const char *data, size_t len)
{
    memset(t, 0, sizeof *t);
    t->data = (char *)data;
    t->len = len;
    t->name = name;
    t->size_hint = len;
}

void text_input_free(text_input *t)
{
    if (t->stream) {
        pthread_mutex_lock(&t->stream->lock);
        t->stream->cancel = 1;
        pthread_mutex_unlock(&t->stream->lock);
        text_input_finish(t, NULL);
    }
    if (t->owned)
        munmap(t->data, t->region);
    memset(t, 0, sizeof *t);
}

/* Exact powers of ten: every 10^k with k <= 22 is a double exactly, so for a
 * mantissa below 2^53 one multiplication or division is correctly rounded
 * (Clinger's fast path), as strtod's result is: the two agree bit for bit
 * wherever the fast path is taken, so which inputs take it only matters for
 * speed. Everything else goes to strtod. */
static const double pow10_exact[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                       1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                       1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

static int parse_real_slow(const char **p, const char *e, double *out)
{
    const char *s = text_skip_blank(*p, e);
    char tmp[512];
    size_t n = 0;
    while (s + n < e && s[n] != ' ' && s[n] != '\t')
        n++;
    if (n == 0 || n >= sizeof tmp)
        return 0;
    memcpy(tmp, s, n);
    tmp[n] = '\0';
    char *end;
    double v = strtod(tmp, &end);
    if (end != tmp + n)
        return 0;
    if (!isfinite(v))
        return -1;
    *out = v;
    *p = s + n;
    return 1;
}

/* Appends the run of decimal digits at s to *m (modulo 2^64: the caller
 * counts the digits) and returns its end. One byte at a time: the runs of
 * real input are short (integer part and fraction), and an 8-byte (SWAR)
 * conversion of each cost more than this loop (callgrind, 1138_bus.mtx:
 * 213 against 160 instructions a value). */
static inline const char *append_digits(const char *s, const char *e, uint64_t *m)
{
    uint64_t acc = *m;
    for (; s < e && (unsigned)(*s - '0') < 10; s++)
        acc = acc * 10 + (unsigned)(*s - '0');
    *m = acc;
    return s;
}

int text_parse_real(const char **p, const char *e, double *out)
{
    const char *s = text_skip_blank(*p, e);
    int neg = 0;
    if (s < e && (*s == '-' || *s == '+'))
        neg = *s++ == '-';
    uint64_t m = 0;
    const char *start = s;
    s = append_digits(s, e, &m);
    ptrdiff_t digits = s - start, places = 0;
    if (s < e && *s == '.') {
        const char *frac = ++s;
        s = append_digits(s, e, &m);
        places = s - frac;
        digits += places;
    }
    if (!digits)
        return parse_real_slow(p, e, out);
    int exp10 = 0;
    if (s < e && (*s == 'e' || *s == 'E')) {
        s++;
        int eneg = 0, ed = 0, ev = 0;
        if (s < e && (*s == '-' || *s == '+'))
            eneg = *s++ == '-';
        while (s < e && (unsigned)(*s - '0') < 10) {
            if (ev < 100000)
                ev = ev * 10 + (*s - '0');
            s++, ed++;
        }
        if (!ed)
            return 0;
        exp10 = eneg ? -ev : ev;
    }
    if (s < e && *s != ' ' && *s != '\t')
        return parse_real_slow(p, e, out);
    /* up to 19 digits, m is exact (< 10^19 < 2^64); more go to strtod, as
     * do mantissas from 2^53 and exponents beyond +-22 */
    if (digits > 19 || m >= (UINT64_C(1) << 53) || exp10 - places < -22 || exp10 - places > 22) {
        if (m == 0 && digits <= 19) {
            *out = neg ? -0.0 : 0.0;
            *p = s;
            return 1;
        }
        return parse_real_slow(p, e, out);
    }
    exp10 -= (int)places;
    double v = (double)m;
    v = exp10 < 0 ? v / pow10_exact[-exp10] : v * pow10_exact[exp10];
    *out = neg ? -v : v;
    *p = s;
    return 1;
}
