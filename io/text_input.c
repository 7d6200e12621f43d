/* text_input.c — loading a whole (possibly gzip'd) file into memory, and the
 * real-number parser of the readers; see text_input.h. */
#include "io/text_input.h"
#include "core/error.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

static int64_t count_lines(const char *p, size_t len)
{
    int64_t n = 0;
    for (const char *e = p + len; (p = memchr(p, '\n', (size_t)(e - p))); p++)
        n++;
    return n;
}

/* Reads a plain regular file with read(2): no copy through zlib. */
static int load_plain(int fd, const char *path, size_t size, text_input *t, coarsen_error *err)
{
    char *buf = xmalloc(size + 1, "input text", err);
    if (!buf)
        return COARSEN_ERR_NOMEM;
    size_t len = 0;
    while (len < size) {
        ssize_t got = read(fd, buf + len, size - len > (1u << 30) ? (1u << 30) : size - len);
        if (got < 0) {
            free(buf);
            return error_set(err, COARSEN_ERR_IO, "%s: read failed: %s", path, strerror(errno));
        }
        if (got == 0)
            break; /* shrunk while reading: take what is there */
        len += (size_t)got;
    }
    buf[len] = '\0';
    t->data = buf;
    t->len = len;
    return COARSEN_OK;
}

/* Reads a gzip stream (or, through zlib's transparent mode, a plain pipe). */
static int load_zlib(int fd, const char *path, size_t cap, text_input *t, coarsen_error *err)
{
    gzFile gz = gzdopen(fd, "rb");
    if (!gz) {
        close(fd);
        return error_nomem(err, "gzip stream", 0);
    }
    gzbuffer(gz, 1 << 18);
    char *buf = xmalloc(cap, "input text", err);
    size_t len = 0;
    int rc = buf ? COARSEN_OK : COARSEN_ERR_NOMEM;
    while (!rc) {
        if (cap - len < 2) {
            size_t ncap = cap * 2;
            char *nb = realloc(buf, ncap);
            if (!nb) {
                rc = error_nomem(err, "input text", ncap);
                break;
            }
            buf = nb, cap = ncap;
        }
        size_t want = cap - len - 1;
        if (want > (1u << 30))
            want = 1u << 30;
        int got = gzread(gz, buf + len, (unsigned)want);
        int errnum = Z_OK;
        const char *msg = gzerror(gz, &errnum);
        if (!strncmp(msg, "<fd:", 4) && strstr(msg, ": ")) /* zlib prefixes its name for the descriptor */
            msg = strstr(msg, ": ") + 2;
        if (got < 0 || (got == 0 && errnum != Z_OK)) {
            rc = error_set(err, errnum == Z_ERRNO ? COARSEN_ERR_IO : COARSEN_ERR_INPUT,
                           "%s:%lld: corrupt or truncated gzip data (%s)", path, (long long)count_lines(buf, len) + 1,
                           errnum == Z_ERRNO ? strerror(errno) : msg);
            break;
        }
        if (got == 0)
            break;
        len += (size_t)got;
    }
    gzclose(gz);
    if (rc) {
        free(buf);
        return rc;
    }
    buf[len] = '\0';
    t->data = buf;
    t->len = len;
    return COARSEN_OK;
}

int text_input_load(const char *path, text_input *t, coarsen_error *err)
{
    memset(t, 0, sizeof *t);
    t->name = path;
    int is_stdin = !strcmp(path, "-");
    int fd = is_stdin ? dup(0) : open(path, O_RDONLY);
    if (fd < 0)
        return error_set(err, COARSEN_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    /* gzip is recognised by its magic bytes 1f 8b, whatever the name. */
    struct stat st;
    memset(&st, 0, sizeof st);
    unsigned char magic[2];
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && pread(fd, magic, 2, 0) >= 0 &&
        (st.st_size < 2 || magic[0] != 0x1f || magic[1] != 0x8b) && lseek(fd, 0, SEEK_CUR) == 0) {
        int rc = load_plain(fd, path, (size_t)st.st_size, t, err);
        close(fd);
        return rc;
    }
    size_t cap = 1 << 20;
    if (S_ISREG(st.st_mode) && (size_t)st.st_size * 4 + 1 > cap)
        cap = (size_t)st.st_size * 4 + 1; /* a guess at the compression ratio; grows when wrong */
    return load_zlib(fd, path, cap, t, err);
}

void text_input_wrap(text_input *t, const char *name, const char *data, size_t len)
{
    t->data = (char *)data;
    t->len = len;
    t->name = name;
}

void text_input_free(text_input *t)
{
    free(t->data);
    memset(t, 0, sizeof *t);
}

/* Exact powers of ten: every 10^k with k <= 22 is a double exactly, so for a
 * mantissa below 2^53 one multiplication or division is correctly rounded
 * (Clinger's fast path); everything else goes to strtod. */
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

int text_parse_real(const char **p, const char *e, double *out)
{
    const char *s = text_skip_blank(*p, e);
    int neg = 0;
    if (s < e && (*s == '-' || *s == '+'))
        neg = *s++ == '-';
    uint64_t m = 0;
    int digits = 0, exp10 = 0, any = 0;
    while (s < e && (unsigned)(*s - '0') < 10) {
        if (digits < 19) {
            m = m * 10 + (unsigned)(*s - '0');
            digits += m != 0;
        } else {
            return parse_real_slow(p, e, out);
        }
        s++, any = 1;
    }
    if (s < e && *s == '.') {
        s++;
        while (s < e && (unsigned)(*s - '0') < 10) {
            if (digits >= 19)
                return parse_real_slow(p, e, out);
            m = m * 10 + (unsigned)(*s - '0');
            digits += m != 0;
            exp10--;
            s++, any = 1;
        }
    }
    if (!any)
        return parse_real_slow(p, e, out);
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
        exp10 += eneg ? -ev : ev;
    }
    if (s < e && *s != ' ' && *s != '\t')
        return parse_real_slow(p, e, out);
    if (m >= (UINT64_C(1) << 53) || exp10 < -22 || exp10 > 22) {
        if (m == 0) {
            *out = neg ? -0.0 : 0.0;
            *p = s;
            return 1;
        }
        return parse_real_slow(p, e, out);
    }
    double v = (double)m;
    v = exp10 < 0 ? v / pow10_exact[-exp10] : v * pow10_exact[exp10];
    *out = neg ? -v : v;
    *p = s;
    return 1;
}
