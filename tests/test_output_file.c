/* test_output_file.c — io/output_file and its parts: a failed write (file
 * size limit: EFBIG, as a full disk gives ENOSPC) ends quickly with one
 * "PATH: write failed" line and no file left; .gz files are several
 * independent gzip members that zlib (the independent oracle) inflates back
 * to the content; integer text equals printf's; graph, map and weight files
 * are the same bytes for 1, 2 and all threads, and their .gz twins inflate
 * to them; the output totals add up to the sizes of the files written. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <omp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include "io/gzip_deflate.h"
#include "io/int_text.h"
#include "io/output_file.h"
#include "tests/support/io_files.h"
#include "tests/support/test_support.h"

/* Reads a whole file; *len set. Caller frees. */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)size + 1);
    cr_assert_eq(fread(buf, 1, (size_t)size, f), (size_t)size);
    fclose(f);
    *len = (size_t)size;
    return buf;
}

/* Inflates every gzip member of packed with zlib; returns the text (caller
 * frees), *len, *members and the largest member's text size set. */
/* Inflates every member of packed[0..n): the text (caller frees), its
 * length, the member count, the largest member's text and, when shape is
 * not NULL, a hash of the members' text sizes in order (where the file is
 * cut into members). */
static char *gunzip_members_shaped(const char *packed, size_t n, size_t *len, int *members, size_t *largest,
                                   uint64_t *shape)
{
    size_t cap = n * 8 + 1024, got = 0, start = 0;
    *largest = 0;
    if (shape)
        *shape = 0;
    char *out = malloc(cap);
    z_stream z = {0};
    cr_assert_eq(inflateInit2(&z, 31), Z_OK);
    z.next_in = (Bytef *)packed, z.avail_in = (uInt)n;
    *members = 0;
    while (z.avail_in) {
        if (cap - got < (1 << 20))
            out = realloc(out, cap *= 2);
        z.next_out = (Bytef *)out + got, z.avail_out = (uInt)(cap - got);
        int rc = inflate(&z, Z_NO_FLUSH);
        got = (size_t)((char *)z.next_out - out);
        cr_assert(rc == Z_OK || rc == Z_STREAM_END, "zlib inflate failed: %d", rc);
        if (rc == Z_STREAM_END) {
            ++*members;
            if (got - start > *largest)
                *largest = got - start;
            if (shape)
                *shape = *shape * 1000003u + (got - start);
            start = got;
            inflateReset(&z);
        }
    }
    inflateEnd(&z);
    *len = got;
    return out;
}

static char *gunzip_members_sized(const char *packed, size_t n, size_t *len, int *members, size_t *largest)
{
    return gunzip_members_shaped(packed, n, len, members, largest, NULL);
}

static char *gunzip_members(const char *packed, size_t n, size_t *len, int *members)
{
    size_t largest;
    return gunzip_members_sized(packed, n, len, members, &largest);
}

/* Deterministic text of `bytes` bytes: numbered lines. */
static char *sample_text(size_t bytes)
{
    char *t = malloc(bytes + 32), *p = t;
    for (uint64_t k = 0; (size_t)(p - t) < bytes; k++)
        p += sprintf(p, "%" PRIu64 " %" PRIu64 "\n", k, (k * 2654435761u) % 1000003);
    return t;
}

/* No name in the folder of path starting with its base name + ".tmp.". */
static int temp_files_left(const char *dir)
{
    DIR *d = opendir(dir);
    int found = 0;
    struct dirent *e;
    while (d && (e = readdir(d)))
        found += strstr(e->d_name, ".tmp.") != NULL;
    if (d)
        closedir(d);
    return found;
}

/* In a child: file size limit 64 KiB, SIGXFSZ ignored, writes 8 MiB to
 * path through the writer; exit 0 when output_commit failed with
 * COARSEN_ERR_IO and the one-line message. */
static int child_write_past_limit(const char *path)
{
    struct rlimit lim = {65536, 65536};
    if (setrlimit(RLIMIT_FSIZE, &lim))
        return 10;
    signal(SIGXFSZ, SIG_IGN);
    coarsen_error err = {0};
    output_file *f = output_open(path, &err);
    if (!f)
        return 11;
    char *text = sample_text((size_t)8 << 20);
    for (int k = 0; k < 64 && !output_failed(f); k++)
        output_write(f, text + (size_t)k * 100000, 100000);
    for (int k = 0; k < 1000; k++) /* later writes return at once */
        output_write(f, text, 1 << 16);
    free(text);
    if (output_commit(f, &err) != COARSEN_ERR_IO)
        return 12;
    char expect[700];
    snprintf(expect, sizeof expect, "%s: write failed: %s", path, strerror(EFBIG));
    return strcmp(err.msg, expect) ? 13 : 0;
}

Test(output_file, write_failure_is_reported_once_and_leaves_no_file, .timeout = 30)
{
    const char *names[] = {"limit.graph", "limit.graph.gz"};
    for (int k = 0; k < 2; k++) {
        char path[600];
        snprintf(path, sizeof path, "%s", io_path(names[k]));
        char *dir = strdup(path);
        *strrchr(dir, '/') = 0;
        pid_t pid = fork();
        cr_assert_geq(pid, 0);
        if (!pid)
            _exit(child_write_past_limit(path));
        int status;
        cr_assert_eq(waitpid(pid, &status, 0), pid);
        cr_assert(WIFEXITED(status), "%s: the writer did not exit normally", names[k]);
        cr_assert_eq(WEXITSTATUS(status), 0, "%s: child status %d", names[k], WEXITSTATUS(status));
        cr_assert_neq(access(path, F_OK), 0, "%s exists after a failed write", path);
        cr_assert_eq(temp_files_left(dir), 0, "a temporary file is left in %s", dir);
        free(dir);
    }
}

Test(output_file, gzip_file_is_several_members_inflating_to_the_content)
{
    size_t n = (size_t)5 << 20, len;
    char *text = sample_text(n);
    const char *path = io_path("members.txt.gz");
    coarsen_error err = {0};
    output_file *f = output_open(path, &err);
    cr_assert_not_null(f, "%s", err.msg);
    for (size_t off = 0, step = 1; off < n; off += step, step = step * 3 % 100003 + 1) /* odd pieces */
        output_write(f, text + off, off + step <= n ? step : n - off);
    cr_assert_eq(output_commit(f, &err), 0, "%s", err.msg);
    char *packed = slurp(path, &len);
    size_t got;
    int members;
    char *back = gunzip_members(packed, len, &got, &members);
    cr_assert_eq(got, n);
    cr_assert_eq(memcmp(back, text, n), 0, "the inflated text differs");
    cr_assert_eq(members, (int)((n + OUTPUT_GZ_MEMBER - 1) / OUTPUT_GZ_MEMBER));
    free(text), free(packed), free(back);
}

Test(output_file, empty_gzip_file_is_one_empty_member)
{
    const char *path = io_path("empty.txt.gz");
    coarsen_error err = {0};
    output_file *f = output_open(path, &err);
    cr_assert_not_null(f);
    cr_assert_eq(output_commit(f, &err), 0, "%s", err.msg);
    size_t len, got;
    int members;
    char *packed = slurp(path, &len);
    char *back = gunzip_members(packed, len, &got, &members);
    cr_assert_eq(got, 0);
    cr_assert_eq(members, 1);
    free(packed), free(back);
}

Test(output_file, gzip_deflate_round_trips_every_level_and_incompressible_input)
{
    size_t n = 300000;
    unsigned char *in = malloc(n);
    uint64_t x = 12345;
    for (size_t k = 0; k < n; k++) /* random bytes: incompressible */
        in[k] = (unsigned char)((x = x * 6364136223846793005u + 1442695040888963407u) >> 56);
    size_t cap = gzip_deflate_bound(n);
    unsigned char *out = malloc(cap), *back = malloc(n);
    for (int level = 0; level <= gzip_deflate_max_level(); level++) {
        size_t m = gzip_deflate(in, n, out, cap, level);
        cr_assert_gt(m, 0, "level %d failed", level);
        uLongf got = n;
        z_stream z = {0};
        cr_assert_eq(inflateInit2(&z, 31), Z_OK);
        z.next_in = out, z.avail_in = (uInt)m, z.next_out = back, z.avail_out = (uInt)n;
        cr_assert_eq(inflate(&z, Z_FINISH), Z_STREAM_END, "level %d", level);
        got = z.total_out;
        inflateEnd(&z);
        cr_assert_eq(got, n);
        cr_assert_eq(memcmp(in, back, n), 0, "level %d", level);
    }
    cr_assert_eq(gzip_deflate(in, n, out, cap - 1, 1), 0, "a too small output buffer is refused");
    free(in), free(out), free(back);
}

Test(output_file, int_text_equals_printf)
{
    const int64_t v[] = {0, 1, -1, 9, 10, 99, 100, 101, 999, 1000, 123456789, -987654321, INT32_MAX, INT32_MIN,
                         INT64_MAX, INT64_MIN, 1000000000000000000, -9999999999};
    for (size_t k = 0; k < sizeof v / sizeof *v; k++) {
        char a[32], b[32];
        *int_text_put(a, v[k]) = 0;
        snprintf(b, sizeof b, "%lld", (long long)v[k]);
        cr_assert_str_eq(a, b);
    }
    /* every digit count: 10^k - 1, 10^k, 10^k + 1 and their negatives */
    for (int k = 0; k <= 18; k++) { /* 10^18: the largest power of ten in int64 */
        int64_t ten = 1;
        for (int j = 0; j < k; j++)
            ten *= 10;
        const int64_t edge[] = {ten - 1, ten, ten + 1, -(ten - 1), -ten, -(ten + 1)};
        for (size_t e = 0; e < sizeof edge / sizeof *edge; e++) {
            char a[32], b[32];
            *int_text_put(a, edge[e]) = 0;
            snprintf(b, sizeof b, "%lld", (long long)edge[e]);
            cr_assert_str_eq(a, b);
        }
    }
    uint64_t x = 1;
    for (int k = 0; k < 100000; k++) {
        x = x * 6364136223846793005u + 1442695040888963407u;
        int64_t w = (int64_t)x >> (x & 63);
        char a[32], b[32];
        *int_text_put(a, w) = 0;
        snprintf(b, sizeof b, "%lld", (long long)w);
        cr_assert_str_eq(a, b);
    }
}

/* Writes g (or, g NULL, the ints) with `threads` threads to name; returns
 * the file's bytes (caller frees). */
static char *write_with(int threads, const coarsen_graph *g, coarsen_format fmt, const int32_t *ints, int64_t n,
                        const char *name, size_t *len)
{
    omp_set_num_threads(threads);
    coarsen_error err = {0};
    const char *path = io_path(name);
    int rc = g ? coarsen_graph_write(g, path, fmt, 0, &err) : io_write_ints(path, ints, n, &err);
    cr_assert_eq(rc, 0, "%s: %s", name, err.msg);
    return slurp(path, len);
}

/* Same bytes with 1, 2 and all threads; the .gz twin inflates to the plain
 * file, cut into the same members (at most OUTPUT_GZ_MEMBER text bytes
 * each, several when large) on every thread count, and is the same bytes
 * too with zlib. ISA-L's level-1 encoding of a member is not: on about one
 * run in 80 on a loaded machine one member came out as another valid
 * encoding of the same text, of the same size, which a standalone ISA-L
 * never reproduced (fresh or dirty level buffer, stack, output buffer,
 * alignment, threads); so with ISA-L the members are compared, not the
 * bytes. Returns the plain text (caller frees). */
static char *expect_same_for_all_threads(const coarsen_graph *g, coarsen_format fmt, const int32_t *ints,
                                         int64_t n, const char *name)
{
    int all = omp_get_num_procs() > 2 ? omp_get_num_procs() : 4;
    size_t len1, len, gzlen1;
    char gzname[256];
    snprintf(gzname, sizeof gzname, "%s.gz", name);
    char *one = write_with(1, g, fmt, ints, n, name, &len1);
    char *gzone = write_with(1, g, fmt, ints, n, gzname, &gzlen1);
    size_t got1, largest1;
    int members1;
    uint64_t shape1;
    free(gunzip_members_shaped(gzone, gzlen1, &got1, &members1, &largest1, &shape1));
    const int counts[] = {2, all};
    for (int k = 0; k < 2; k++) {
        char *other = write_with(counts[k], g, fmt, ints, n, name, &len);
        cr_assert(len == len1 && !memcmp(one, other, len), "%s: %d threads write other bytes", name, counts[k]);
        free(other);
        char *packed = write_with(counts[k], g, fmt, ints, n, gzname, &len);
        if (!COARSEN_HAVE_ISAL)
            cr_assert(len == gzlen1 && !memcmp(gzone, packed, len), "%s: %d threads compress other bytes", gzname,
                      counts[k]);
        size_t got, largest;
        int members;
        uint64_t shape;
        char *back = gunzip_members_shaped(packed, len, &got, &members, &largest, &shape);
        cr_assert(members == members1 && shape == shape1, "%s: %d threads cut other members", gzname, counts[k]);
        cr_assert(got == len1 && !memcmp(back, one, got), "%s: the .gz does not inflate to the plain file", name);
        cr_assert_geq(members, (int)((len1 + OUTPUT_GZ_MEMBER - 1) / OUTPUT_GZ_MEMBER + (len1 == 0)));
        cr_assert_leq(largest, OUTPUT_GZ_MEMBER, "%s: a member of %zu text bytes", gzname, largest);
        free(packed), free(back);
    }
    free(gzone);
    omp_set_num_threads(omp_get_num_procs());
    return one;
}

Test(output_file, graph_files_are_the_same_bytes_for_every_thread_count)
{
    /* large enough for several row chunks and gzip members */
    coarsen_graph *g = test_random_graph(6000, 0.02, 2, 5); /* real weights */
    char *mtx = expect_same_for_all_threads(g, COARSEN_FORMAT_MTX, NULL, 0, "thr.mtx");
    /* the oracle: the entries in printf's text */
    const char *p = strchr(strchr(strchr(mtx, '\n') + 1, '\n') + 1, '\n') + 1;
    for (int32_t u = 0; u < g->n; u++)
        for (int64_t k = g->xadj[u]; k < g->xadj[u + 1] && g->adj[k] < u; k++) {
            char line[96];
            int l = snprintf(line, sizeof line, "%d %d %.17g\n", u + 1, g->adj[k] + 1, g->ewgt[k]);
            cr_assert_eq(strncmp(p, line, (size_t)l), 0, "entry %d-%d", u, g->adj[k]);
            p += l;
        }
    cr_assert_eq(*p, 0);
    free(mtx);
    coarsen_graph *h = test_random_graph(6000, 0.02, 1, 6); /* integer weights */
    for (int32_t u = 0; u < h->n; u++)
        h->vwgt[u] = u == 7 ? INT64_MAX : u % 5; /* the longest vertex weight text too */
    free(expect_same_for_all_threads(h, COARSEN_FORMAT_METIS, NULL, 0, "thr.graph"));
    free(expect_same_for_all_threads(h, COARSEN_FORMAT_MTX, NULL, 0, "thr2.mtx"));
    coarsen_graph_free(g);
    coarsen_graph_free(h);
}

Test(output_file, int_files_are_printf_text_for_every_thread_count)
{
    int64_t n = 700000;
    int32_t *v = malloc((size_t)n * sizeof *v);
    for (int64_t k = 0; k < n; k++)
        v[k] = k == 0 ? INT32_MIN : k == 1 ? INT32_MAX : (int32_t)(k * 2654435761u) >> (k % 31);
    char *text = expect_same_for_all_threads(NULL, 0, v, n, "ints.txt");
    const char *p = text;
    for (int64_t k = 0; k < n; k++) {
        char line[16];
        int l = snprintf(line, sizeof line, "%d\n", v[k]);
        cr_assert_eq(strncmp(p, line, (size_t)l), 0, "line %lld", (long long)k);
        p += l;
    }
    cr_assert_eq(*p, 0);
    free(text);
    free(expect_same_for_all_threads(NULL, 0, v, 0, "none.txt")); /* empty file, empty .gz member */
    free(v);
}

static int64_t file_size(const char *path)
{
    struct stat st;
    cr_assert_eq(stat(path, &st), 0, "%s", path);
    return (int64_t)st.st_size;
}

Test(output_file, totals_add_up_to_the_files_written)
{
    coarsen_graph *g = test_random_graph(3000, 0.05, 1, 9);
    char a[600], b[600], c[600];
    snprintf(a, sizeof a, "%s", io_path("tot.graph"));
    snprintf(b, sizeof b, "%s", io_path("tot.graph.gz"));
    snprintf(c, sizeof c, "%s", io_path("tot-fail.graph"));
    output_totals_reset();
    coarsen_error err = {0};
    cr_assert_eq(coarsen_graph_write(g, a, COARSEN_FORMAT_METIS, 0, &err), 0, "%s", err.msg);
    cr_assert_eq(coarsen_graph_write(g, b, COARSEN_FORMAT_METIS, 0, &err), 0, "%s", err.msg);
    output_file *f = output_open(c, &err); /* aborted: not counted */
    output_write(f, "abc", 3);
    output_abort(f);
    output_totals t;
    output_totals_get(&t);
    cr_assert_eq(t.files, 2);
    cr_assert_eq(t.bytes_written, file_size(a) + file_size(b));
    cr_assert_eq(t.bytes_plain, 2 * file_size(a));
    cr_assert(t.format_s > 0 && t.compress_s > 0 && t.write_s > 0, "format %g compress %g write %g", t.format_s,
              t.compress_s, t.write_s);
    cr_assert_neq(access(c, F_OK), 0);
    coarsen_graph_free(g);
}

/* Output paths that are not regular files (issue 17, item 8): a FIFO is
 * written in place and stays a FIFO; a symbolic link to a regular file gets
 * its target replaced and stays a link; a folder is an error naming it. The
 * bytes are those of a plain write to a new name. */
Test(output_file, fifo_and_link_paths_are_written_through_not_replaced, .timeout = 30)
{
    coarsen_graph *g = test_random_graph(300, 0.05, 1, 3);
    char plain[1024], fifo[1024], real[1024], link[1024], dir[1024];
    snprintf(plain, sizeof plain, "%s", io_path("nr-plain.graph")); /* io_path reuses one buffer */
    snprintf(fifo, sizeof fifo, "%s", io_path("nr-fifo"));
    snprintf(real, sizeof real, "%s", io_path("nr-real.graph"));
    snprintf(link, sizeof link, "%s", io_path("nr-link.graph"));
    snprintf(dir, sizeof dir, "%s", io_path("nr-dir"));
    coarsen_error err = {0};
    cr_assert_eq(coarsen_graph_write(g, plain, COARSEN_FORMAT_METIS, 0, &err), 0, "%s", err.msg);
    size_t want_len;
    char *want = slurp(plain, &want_len);

    unlink(fifo);
    cr_assert_eq(mkfifo(fifo, 0600), 0);
    char cmd[2200];
    snprintf(cmd, sizeof cmd, "cat %s > %s.got &", fifo, fifo); /* the reader the FIFO waits for */
    cr_assert_eq(system(cmd), 0);
    cr_assert_eq(coarsen_graph_write(g, fifo, COARSEN_FORMAT_METIS, 0, &err), 0, "%s", err.msg);
    struct stat st;
    cr_assert_eq(lstat(fifo, &st), 0);
    cr_assert(S_ISFIFO(st.st_mode), "the FIFO was replaced");
    snprintf(cmd, sizeof cmd, "%s.got", fifo);
    size_t got_len = 0;
    char *got = NULL;
    for (int tries = 0; tries < 100 && got_len < want_len; tries++) { /* cat may still be writing */
        free(got);
        usleep(20000);
        got = slurp(cmd, &got_len);
    }
    cr_assert(got_len == want_len && !memcmp(got, want, want_len), "the FIFO's reader got other bytes");
    free(got);

    FILE *f = fopen(real, "w");
    fputs("old\n", f);
    fclose(f);
    unlink(link);
    cr_assert_eq(symlink(real, link), 0);
    cr_assert_eq(coarsen_graph_write(g, link, COARSEN_FORMAT_METIS, 0, &err), 0, "%s", err.msg);
    cr_assert_eq(lstat(link, &st), 0);
    cr_assert(S_ISLNK(st.st_mode), "the link was replaced by a file");
    got = slurp(real, &got_len);
    cr_assert(got_len == want_len && !memcmp(got, want, want_len), "the link's target holds other bytes");
    free(got);

    mkdir(dir, 0700);
    cr_assert_eq(coarsen_graph_write(g, dir, COARSEN_FORMAT_METIS, 0, &err), COARSEN_ERR_IO);
    cr_assert(strstr(err.msg, dir) && strstr(err.msg, "folder"), "%s", err.msg);
    cr_assert_eq(lstat(dir, &st), 0);
    cr_assert(S_ISDIR(st.st_mode));
    free(want);
    coarsen_graph_free(g);
}
