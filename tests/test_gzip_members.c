/* test_gzip_members.c — indexed gzip members (io/gzip_index.h) and their
 * parallel inflation (io/gzip_parallel.h through io/text_input.h): our
 * writer's .gz files carry the size subfield in every member and stay valid
 * gzip for zlib (the independent oracle), gzip and pigz; they read back on
 * 1, 2 and all threads to exactly the text, without an inflating thread; a
 * BGZF-like file built here reads in parallel too (on one thread, the
 * streaming thread reads them, overlapping parsing); a corrupt member is one
 * clean error naming the file and the member's first line (exit 2 from the
 * CLI); a lying index, a plain member appended, and trailing garbage fall
 * back to the streaming inflater, which reads them or reports them. */
#include <criterion/criterion.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "io/gzip_deflate.h"
#include "io/gzip_index.h"
#include "io/line_chunks.h"
#include "io/output_file.h"
#include "io/read_error.h"
#include "io/text_input.h"
#include "tests/support/cli_run.h"
#include "tests/support/io_files.h"

/* A Matrix Market path graph on n vertices: a valid graph whose text is
 * about 14 n bytes. Caller frees; *len set. */
static char *path_graph_text(int n, size_t *len)
{
    char *t = malloc((size_t)n * 32 + 128), *p = t;
    p += sprintf(p, "%%%%MatrixMarket matrix coordinate pattern symmetric\n%d %d %d\n", n, n, n - 1);
    for (int v = 2; v <= n; v++)
        p += sprintf(p, "%d %d\n", v, v - 1);
    *len = (size_t)(p - t);
    return t;
}

static unsigned char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *buf = malloc((size_t)size + 1);
    cr_assert_eq(fread(buf, 1, (size_t)size, f), (size_t)size);
    fclose(f);
    *len = (size_t)size;
    return buf;
}

/* Writes text through our writer as NAME (.gz) and returns its path. */
static const char *write_ours(const char *name, const char *text, size_t len)
{
    const char *path = io_path(name);
    coarsen_error err = {0};
    output_file *f = output_open(path, &err);
    cr_assert_not_null(f, "%s", err.msg);
    output_write(f, text, len);
    cr_assert_eq(output_commit(f, &err), COARSEN_OK, "%s", err.msg);
    return path;
}

/* The whole file through zlib's gzread; caller frees, *len set. */
static char *zlib_gzread(const char *path, size_t *len)
{
    gzFile g = gzopen(path, "rb");
    cr_assert(g, "gzopen %s", path);
    size_t cap = 1 << 20, got = 0;
    char *out = malloc(cap);
    int k;
    while ((k = gzread(g, out + got, (unsigned)(cap - got))) > 0) {
        got += (size_t)k;
        if (got == cap)
            out = realloc(out, cap *= 2);
    }
    cr_assert_geq(k, 0, "gzread failed");
    gzclose(g);
    *len = got;
    return out;
}

static uint32_t le16(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8;
}

static uint32_t le32(const unsigned char *p)
{
    return le16(p) | le16(p + 2) << 16;
}

/* Member starts of our file, found from the raw bytes without the code
 * under test; asserts our exact header layout in each. Returns the count. */
static int our_members(const unsigned char *gz, size_t len, size_t *starts, int max)
{
    int n = 0;
    for (size_t at = 0; at < len; n++) {
        cr_assert_lt(n, max);
        const unsigned char *p = gz + at;
        cr_assert(p[0] == 0x1f && p[1] == 0x8b && p[2] == 8, "member %d: magic/method", n);
        cr_assert_eq(p[3], 0x04, "member %d: FEXTRA alone", n);
        cr_assert_eq(le16(p + 10), 8, "member %d: XLEN", n);
        cr_assert(p[12] == 'c' && p[13] == 'Z' && le16(p + 14) == 4, "member %d: subfield", n);
        uint32_t size = le32(p + 16);
        cr_assert(size > 28 && at + size <= len, "member %d: size %u", n, size);
        starts[n] = at;
        at += size;
    }
    return n;
}

/* Opens path and asserts the text is complete at once (the parallel path:
 * no inflating thread; below TEXT_INPUT_PARALLEL_MIN_THREADS OpenMP
 * threads the streaming thread instead)
 * and equal to expect[0, len). */
static void expect_parallel_read(const char *path, const char *expect, size_t len)
{
    text_input t;
    coarsen_error err = {0};
    cr_assert_eq(text_input_open(path, &t, &err), COARSEN_OK, "%s", err.msg);
    int parallel = omp_get_max_threads() >= TEXT_INPUT_PARALLEL_MIN_THREADS;
    cr_assert_eq(t.stream == NULL, parallel, "%s: %d threads, %s path expected", path, omp_get_max_threads(),
                 parallel ? "parallel" : "streaming");
    cr_assert_eq(t.len, parallel ? len : 0);
    cr_assert(t.gzip);
    int complete = 0;
    cr_assert_eq(text_input_wait(&t, SIZE_MAX, &complete), len);
    cr_assert(complete);
    cr_assert_eq(text_input_finish(&t, &err), COARSEN_OK);
    cr_assert_eq(memcmp(t.data, expect, len), 0, "%s: text differs", path);
    cr_assert_eq(t.data[len], '\0');
    text_input_free(&t);
}

/* Loads path completely; asserts whether the streaming thread was used. */
static int load(const char *path, int expect_stream, text_input *t, coarsen_error *err)
{
    int rc = text_input_open(path, t, err);
    if (rc)
        return rc;
    cr_assert_eq(t->stream != NULL, expect_stream, "%s: %s path expected", path,
                 expect_stream ? "streaming" : "parallel");
    rc = text_input_finish(t, err);
    if (rc)
        text_input_free(t);
    return rc;
}

Test(gzip_members, our_files_index_every_member_and_stay_valid_gzip)
{
    size_t len, gzlen, zlen;
    char *text = path_graph_text(250000, &len); /* about 3.4 MB: 4 members */
    const char *path = write_ours("ours.mtx.gz", text, len);
    unsigned char *gz = slurp(path, &gzlen);
    size_t starts[64];
    int n = our_members(gz, gzlen, starts, 64);
    cr_assert_eq((size_t)n, (len + OUTPUT_GZ_MEMBER - 1) / OUTPUT_GZ_MEMBER);
    /* zlib inflates every member on its own, consuming exactly its recorded size. */
    for (int k = 0; k < n; k++) {
        size_t size = le32(gz + starts[k] + 16), want = k + 1 < n ? OUTPUT_GZ_MEMBER : len - (size_t)k * OUTPUT_GZ_MEMBER;
        char *out = malloc(want + 1);
        z_stream z = {0};
        cr_assert_eq(inflateInit2(&z, 31), Z_OK);
        z.next_in = gz + starts[k], z.avail_in = (uInt)size;
        z.next_out = (Bytef *)out, z.avail_out = (uInt)want + 1;
        cr_assert_eq(inflate(&z, Z_FINISH), Z_STREAM_END, "member %d", k);
        cr_assert_eq(z.avail_in, 0, "member %d: its recorded size is its whole size", k);
        cr_assert_eq(z.total_out, want);
        cr_assert_eq(memcmp(out, text + (size_t)k * OUTPUT_GZ_MEMBER, want), 0);
        inflateEnd(&z);
        free(out);
    }
    char *z = zlib_gzread(path, &zlen);
    cr_assert_eq(zlen, len);
    cr_assert_eq(memcmp(z, text, len), 0);
    char cmd[1200], out[256]; /* GZIP in the environment (make GZIP=zlib) would be options to gzip */
    snprintf(cmd, sizeof cmd, "env -u GZIP gzip -t '%s' 2>&1", path);
    cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "gzip -t: %s", out);
    snprintf(cmd, sizeof cmd, "! command -v pigz >/dev/null || env -u GZIP pigz -t '%s' 2>&1", path);
    cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "pigz -t: %s", out);
    free(z), free(gz), free(text);
}

Test(gzip_members, our_files_read_in_parallel_on_1_2_and_all_threads)
{
    size_t len, zlen;
    char *text = path_graph_text(400000, &len); /* about 5.7 MB: 6 members */
    const char *path = write_ours("threads.mtx.gz", text, len);
    char *z = zlib_gzread(path, &zlen);
    cr_assert_eq(zlen, len);
    cr_assert_eq(memcmp(z, text, len), 0, "zlib's reading differs from the text");
    int all = omp_get_num_procs(), threads[] = {1, 2, all > TEXT_INPUT_PARALLEL_MIN_THREADS ? all : TEXT_INPUT_PARALLEL_MIN_THREADS};
    for (int k = 0; k < 3; k++) {
        omp_set_num_threads(threads[k]);
        expect_parallel_read(path, z, zlen);
    }
    /* Small files: one member, and an empty text (one empty member). */
    omp_set_num_threads(TEXT_INPUT_PARALLEL_MIN_THREADS);
    const char *one = write_ours("one.txt.gz", "1 2\n", 4);
    expect_parallel_read(one, "1 2\n", 4);
    const char *empty = write_ours("empty.txt.gz", "", 0);
    expect_parallel_read(empty, "", 0);
    free(z), free(text);
}

/* Appends one BGZF member of in[0, n) (n < 64 KiB, compressible) to out at
 * *at: subfield 'B' 'C', payload = member size - 1. */
static void bgzf_member(unsigned char *out, size_t *at, const char *in, size_t n)
{
    unsigned char *p = out + *at;
    static const unsigned char head[18] = {0x1f, 0x8b, 8, 4, 0, 0, 0, 0, 0, 0xff, 6, 0, 'B', 'C', 2, 0, 0, 0};
    memcpy(p, head, sizeof head);
    z_stream z = {0};
    cr_assert_eq(deflateInit2(&z, 6, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY), Z_OK);
    z.next_in = (Bytef *)in, z.avail_in = (uInt)n;
    z.next_out = p + 18, z.avail_out = 65536 - 26;
    cr_assert_eq(deflate(&z, Z_FINISH), Z_STREAM_END);
    size_t size = 18 + z.total_out + 8;
    deflateEnd(&z);
    uint32_t crc = (uint32_t)crc32(0, (const Bytef *)in, (uInt)n), isize = (uint32_t)n;
    for (int k = 0; k < 4; k++) {
        p[size - 8 + k] = (unsigned char)(crc >> (8 * k));
        p[size - 4 + k] = (unsigned char)(isize >> (8 * k));
    }
    p[16] = (unsigned char)((size - 1) & 0xff), p[17] = (unsigned char)((size - 1) >> 8);
    *at += size;
}

Test(gzip_members, a_bgzf_file_reads_in_parallel)
{
    size_t len;
    char *text = path_graph_text(40000, &len); /* about 480 KB: 8 members */
    unsigned char *gz = malloc(len + 65536);
    size_t at = 0;
    for (size_t off = 0; off < len; off += 60000)
        bgzf_member(gz, &at, text + off, len - off < 60000 ? len - off : 60000);
    bgzf_member(gz, &at, "", 0); /* BGZF's end-of-file marker: an empty member */
    const char *path = io_file_bytes("bgzf.mtx.gz", gz, at, 0);
    omp_set_num_threads(TEXT_INPUT_PARALLEL_MIN_THREADS);
    expect_parallel_read(path, text, len);
    free(gz), free(text);
}

/* Our file of text with one data byte of member k flipped. */
static const char *corrupt_member(const char *name, const char *text, size_t len, int k, size_t *member_start)
{
    const char *path = write_ours(name, text, len);
    size_t gzlen, starts[64];
    unsigned char *gz = slurp(path, &gzlen);
    int n = our_members(gz, gzlen, starts, 64);
    cr_assert_lt(k, n);
    size_t size = le32(gz + starts[k] + 16);
    gz[starts[k] + GZIP_INDEX_HEADER + (size - GZIP_INDEX_HEADER - GZIP_TRAILER) / 2] ^= 0x55;
    path = io_file_bytes(name, gz, gzlen, 0);
    *member_start = starts[k];
    free(gz);
    return path;
}

Test(gzip_members, a_corrupt_member_is_one_error_naming_the_file_and_its_line)
{
    size_t len, start;
    char *text = path_graph_text(250000, &len);
    const char *path = corrupt_member("corrupt.mtx.gz", text, len, 2, &start);
    text_input t;
    coarsen_error err = {0};
    omp_set_num_threads(TEXT_INPUT_PARALLEL_MIN_THREADS);
    cr_assert_eq(text_input_load(path, &t, &err), COARSEN_ERR_INPUT);
    char expect[1200];
    snprintf(expect, sizeof expect, "%s:%lld: corrupt or truncated gzip data (member at byte %zu: ", path,
             (long long)read_error_line_at(text, 2 * OUTPUT_GZ_MEMBER), start);
    cr_assert_eq(strncmp(err.msg, expect, strlen(expect)), 0, "'%s' does not start with '%s'", err.msg, expect);
    cr_assert_null(strchr(err.msg, '\n'), "one line: '%s'", err.msg);
    /* The CLI: exit 3 (bad input), the one line on stderr. */
    char cmd[1400], out[1200];
    snprintf(cmd, sizeof cmd, "'%s' info '%s' 2>&1 >/dev/null", cli_prog(), path);
    cr_assert_eq(cli_run(cmd, out, sizeof out), EXIT_INPUT, "%s", out);
    cr_assert(strstr(out, path) && strstr(out, "corrupt or truncated gzip data"), "%s", out);
    cr_assert_eq(strchr(out, '\n'), strrchr(out, '\n'), "one line: '%s'", out);
    free(text);
}

Test(gzip_members, a_wrong_text_size_in_a_trailer_is_an_error)
{
    size_t len, gzlen, starts[64];
    char *text = path_graph_text(250000, &len);
    const char *path = write_ours("isize.mtx.gz", text, len);
    unsigned char *gz = slurp(path, &gzlen);
    int n = our_members(gz, gzlen, starts, 64);
    omp_set_num_threads(TEXT_INPUT_PARALLEL_MIN_THREADS);
    for (int delta = -1; delta <= 1; delta += 2) {
        unsigned char *p = gz + starts[1] + le32(gz + starts[1] + 16) - 4;
        p[0] = (unsigned char)(p[0] + delta);
        const char *bad = io_file_bytes("isize_bad.mtx.gz", gz, gzlen, 0);
        text_input t;
        coarsen_error err = {0};
        cr_assert_eq(text_input_load(bad, &t, &err), COARSEN_ERR_INPUT, "ISIZE %+d accepted", delta);
        cr_assert(strstr(err.msg, bad) && strstr(err.msg, "corrupt or truncated gzip data"), "%s", err.msg);
        p[0] = (unsigned char)(p[0] - delta);
    }
    cr_assert_gt(n, 1);
    free(gz), free(text);
}

Test(gzip_members, a_lying_index_falls_back_to_the_stream)
{
    size_t len, gzlen, starts[64];
    char *text = path_graph_text(250000, &len);
    const char *path = write_ours("lie.mtx.gz", text, len);
    unsigned char *gz = slurp(path, &gzlen);
    int n = our_members(gz, gzlen, starts, 64);
    cr_assert_gt(n, 2);
    omp_set_num_threads(TEXT_INPUT_PARALLEL_MIN_THREADS); /* the parallel path would be taken, were the index right */
    /* Sizes one too small or large, far too small, past the file's end, zero:
     * the walk loses its way and the stream reads the (valid) gzip. */
    const int64_t lies[] = {-1, 1, -1000, (int64_t)gzlen, -(int64_t)le32(gz + starts[1] + 16)};
    for (int k = 0; k < 5; k++) {
        unsigned char *p = gz + starts[1] + 16;
        uint32_t real = le32(p), lie = (uint32_t)((int64_t)real + lies[k]);
        for (int b = 0; b < 4; b++)
            p[b] = (unsigned char)(lie >> (8 * b));
        const char *bad = io_file_bytes("lie_bad.mtx.gz", gz, gzlen, 0);
        text_input t;
        coarsen_error err = {0};
        cr_assert_eq(load(bad, 1, &t, &err), COARSEN_OK, "lie %lld: %s", (long long)lies[k], err.msg);
        cr_assert_eq(t.len, len);
        cr_assert_eq(memcmp(t.data, text, len), 0);
        text_input_free(&t);
        for (int b = 0; b < 4; b++)
            p[b] = (unsigned char)(real >> (8 * b));
    }
    /* A lie in the last member and a truncated file: the stream's errors. */
    size_t cut = gzlen - 5;
    const char *trunc = io_file_bytes("lie_trunc.mtx.gz", gz, cut, 0);
    text_input t;
    coarsen_error err = {0};
    cr_assert_eq(text_input_load(trunc, &t, &err), COARSEN_ERR_INPUT);
    cr_assert(strstr(err.msg, trunc) && strstr(err.msg, "corrupt or truncated gzip data"), "%s", err.msg);
    free(gz), free(text);
}

Test(gzip_members, a_plain_member_appended_falls_back_and_reads)
{
    size_t len, gzlen, plainlen;
    char *text = path_graph_text(150000, &len);
    const char *path = write_ours("mixed.mtx.gz", text, len);
    unsigned char *gz = slurp(path, &gzlen);
    const char *tail = "% appended by zlib\n";
    const char *plain = io_file_bytes("plain.gz", tail, strlen(tail), 1); /* zlib's gzip: no extra field */
    unsigned char *p = slurp(plain, &plainlen);
    cr_assert_eq(p[3] & 0x04, 0, "zlib's member has no extra field");
    gz = realloc(gz, gzlen + plainlen);
    memcpy(gz + gzlen, p, plainlen);
    const char *mixed = io_file_bytes("mixed_cat.mtx.gz", gz, gzlen + plainlen, 0);
    omp_set_num_threads(TEXT_INPUT_PARALLEL_MIN_THREADS);
    text_input t;
    coarsen_error err = {0};
    cr_assert_eq(load(mixed, 1, &t, &err), COARSEN_OK, "%s", err.msg);
    cr_assert_eq(t.len, len + strlen(tail));
    cr_assert_eq(memcmp(t.data, text, len), 0);
    cr_assert_str_eq(t.data + len, tail);
    text_input_free(&t);
    free(p), free(gz), free(text);
}

Test(gzip_members, trailing_garbage_after_indexed_members_is_an_error)
{
    size_t len, gzlen;
    char *text = path_graph_text(150000, &len);
    const char *path = write_ours("garbage.mtx.gz", text, len);
    unsigned char *gz = slurp(path, &gzlen);
    const char *junk[] = {"x", "garbage\n", "\x1f"};
    for (int k = 0; k < 3; k++) {
        size_t j = strlen(junk[k]);
        unsigned char *g = malloc(gzlen + j);
        memcpy(g, gz, gzlen);
        memcpy(g + gzlen, junk[k], j);
        const char *bad = io_file_bytes("garbage_bad.mtx.gz", g, gzlen + j, 0);
        text_input t;
        coarsen_error err = {0};
        cr_assert_eq(text_input_load(bad, &t, &err), COARSEN_ERR_INPUT, "junk %d accepted", k);
        cr_assert(strstr(err.msg, bad), "%s", err.msg);
        cr_assert(strstr(err.msg, "trailing garbage") || strstr(err.msg, "corrupt or truncated"), "%s", err.msg);
        free(g);
    }
    free(gz), free(text);
}

/* Appends one gzip member of text[0, len) to out at *at: ours (indexed,
 * io/gzip_deflate.h) or zlib's plain one (no index). */
static void append_member(unsigned char *out, size_t *at, const char *text, size_t len, int ours)
{
    if (ours) {
        size_t got = gzip_deflate(text, len, out + *at, gzip_deflate_bound(len), GZIP_DEFLATE_LEVEL);
        cr_assert_gt(got, 0);
        *at += got;
        return;
    }
    z_stream z;
    memset(&z, 0, sizeof z);
    cr_assert_eq(deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
    z.next_in = (Bytef *)text, z.avail_in = (uInt)len;
    z.next_out = out + *at, z.avail_out = (uInt)deflateBound(&z, (uLong)len);
    cr_assert_eq(deflate(&z, Z_FINISH), Z_STREAM_END);
    *at += z.total_out;
    deflateEnd(&z);
}

/* A member boundary at every position of a small Matrix Market file, as
 * two plain members (the streaming thread), two indexed members (inflated
 * in parallel from TEXT_INPUT_PARALLEL_MIN_THREADS threads, by the
 * streaming thread on one), and an indexed one followed by a plain one (the
 * fallback): every split gives the file's graph, the same CSR as the
 * plain text's. */
Test(gzip_members, a_member_boundary_at_every_position_reads_the_same_graph)
{
    size_t len;
    char *text = path_graph_text(40, &len);
    const char *plain = io_path("split.mtx");
    FILE *f = fopen(plain, "wb");
    cr_assert_not_null(f);
    cr_assert_eq(fwrite(text, 1, len, f), len);
    fclose(f);
    coarsen_error err = {0};
    coarsen_graph *want = NULL;
    cr_assert_eq(coarsen_graph_load(plain, &want, NULL, &err), COARSEN_OK, "%s", err.msg);
    unsigned char *gz = malloc(2 * gzip_deflate_bound(len) + 256);
    const char *path = io_path("split.mtx.gz");
    static const int threads[] = {1, TEXT_INPUT_PARALLEL_MIN_THREADS};
    for (int kind = 0; kind < 3; kind++)
        for (size_t k = 0; k <= len; k++) {
            size_t at = 0;
            append_member(gz, &at, text, k, kind != 0);
            append_member(gz, &at, text + k, len - k, kind == 1);
            f = fopen(path, "wb");
            cr_assert_eq(fwrite(gz, 1, at, f), at);
            fclose(f);
            for (int t = 0; t < 2; t++) {
                omp_set_num_threads(threads[t]);
                coarsen_graph *g = NULL;
                cr_assert_eq(coarsen_graph_load(path, &g, NULL, &err), COARSEN_OK, "kind %d, split at %zu: %s", kind, k,
                             err.msg);
                cr_assert(g->n == want->n && g->nnz == want->nnz &&
                              !memcmp(g->xadj, want->xadj, ((size_t)g->n + 1) * sizeof *g->xadj) &&
                              !memcmp(g->adj, want->adj, (size_t)g->nnz * sizeof *g->adj) &&
                              !memcmp(g->ewgt, want->ewgt, (size_t)g->nnz * sizeof *g->ewgt),
                          "kind %d, split at %zu, %d threads: another graph", kind, k, threads[t]);
                coarsen_graph_free(g);
            }
        }
    omp_set_num_threads(omp_get_num_procs());
    coarsen_graph_free(want);
    free(gz);
    free(text);
}

/* Writes text as NAME and as a one-member gzip NAME.gz, reads the plain
 * file and, on 1 and on 2 threads, the .gz with 64 KiB chunks (parsed while
 * it is inflated: by the one thread between its waits for text, or by the
 * second while the first waits) and asserts the same graph, or, when
 * bad_line > 0, the same error at that line. */
static void expect_streamed_read_equals_plain(const char *text, size_t len, const char *name, int64_t bad_line)
{
    char gzname[64], tag[32];
    snprintf(gzname, sizeof gzname, "%s.gz", name);
    const char *plain = io_path(name), *path = io_path(gzname);
    FILE *f = fopen(plain, "wb");
    cr_assert_eq(fwrite(text, 1, len, f), len);
    fclose(f);
    unsigned char *gz = malloc(gzip_deflate_bound(len) + 256);
    size_t at = 0;
    append_member(gz, &at, text, len, 0);
    f = fopen(path, "wb");
    cr_assert_eq(fwrite(gz, 1, at, f), at);
    fclose(f);
    free(gz);
    line_chunks_set_min_bytes(1 << 16);
    omp_set_num_threads(2);
    coarsen_error e1 = {0}, e2[2] = {{0}};
    coarsen_graph *a = NULL, *b[2] = {NULL, NULL};
    int r1 = coarsen_graph_load(plain, &a, NULL, &e1), r2[2];
    for (int t = 0; t < 2; t++) {
        omp_set_num_threads(t + 1);
        r2[t] = coarsen_graph_load(path, &b[t], NULL, &e2[t]);
    }
    line_chunks_set_min_bytes(1 << 20);
    omp_set_num_threads(omp_get_num_procs());
    for (int t = 0; t < 2; t++) {
        if (bad_line > 0) {
            snprintf(tag, sizeof tag, ":%lld: ", (long long)bad_line);
            cr_assert(r1 == COARSEN_ERR_INPUT && r2[t] == COARSEN_ERR_INPUT, "%s, %d threads: %d %d", name, t + 1, r1,
                      r2[t]);
            cr_assert(strstr(e1.msg, tag), "%s", e1.msg);
            cr_assert_str_eq(strchr(e1.msg, ':'), strchr(e2[t].msg, ':'),
                             "%d threads: same message but the file name: %s / %s", t + 1, e1.msg, e2[t].msg);
            continue;
        }
        cr_assert(r1 == 0 && r2[t] == 0, "%s / %s", e1.msg, e2[t].msg);
        cr_assert(a->n == b[t]->n && a->nnz == b[t]->nnz &&
                      !memcmp(a->xadj, b[t]->xadj, ((size_t)a->n + 1) * sizeof *a->xadj) &&
                      !memcmp(a->adj, b[t]->adj, (size_t)a->nnz * sizeof *a->adj) &&
                      !memcmp(a->ewgt, b[t]->ewgt, (size_t)a->nnz * sizeof *a->ewgt),
                  "%s, %d threads: the streamed graph differs", name, t + 1);
        coarsen_graph_free(b[t]);
    }
    coarsen_graph_free(a);
}

/* The Matrix Market reader parses a one-member gzip file while it is being
 * inflated (chunks of 64 KiB here, the inflater publishing every 256 KiB):
 * the graph equals the plain file's, and a bad entry deep in the stream is
 * reported at the same line as in the plain file. */
Test(gzip_members, streamed_parse_equals_the_plain_read_and_its_errors)
{
    size_t len;
    char *text = path_graph_text(1500000, &len); /* about 20 MB */
    expect_streamed_read_equals_plain(text, len, "stream.mtx", 0);
    char *p = strstr(text, "\n1000002 1000001\n"); /* line 1 000 003 */
    cr_assert_not_null(p);
    p[9] = 'x';
    expect_streamed_read_equals_plain(text, len, "stream.mtx", 1000003);
    free(text);
}

/* A METIS path graph on n vertices (about 16 n bytes). Caller frees. */
static char *metis_path_text(int n, size_t *len)
{
    char *t = malloc((size_t)n * 32 + 64), *p = t;
    p += sprintf(p, "%% a path\n%d %d\n", n, n - 1);
    for (int v = 1; v <= n; v++) {
        if (v > 1)
            p += sprintf(p, "%d", v - 1);
        if (v < n)
            p += sprintf(p, v > 1 ? " %d" : "%d", v + 1);
        *p++ = '\n';
    }
    *len = (size_t)(p - t);
    return t;
}

/* The METIS reader parses a one-member gzip file while it is inflated too:
 * the same graph as the plain file's, and a bad neighbour deep in the
 * stream reported at the same line. */
Test(gzip_members, streamed_metis_parse_equals_the_plain_read_and_its_errors)
{
    size_t len;
    char *text = metis_path_text(1500000, &len);
    expect_streamed_read_equals_plain(text, len, "stream.graph", 0);
    char *p = strstr(text, "\n999999 1000001\n"); /* vertex 1 000 000, line 1 000 002 */
    cr_assert_not_null(p);
    p[8] = 'x';
    expect_streamed_read_equals_plain(text, len, "stream.graph", 1000002);
    free(text);
}
