/* bench_gzip.c — one-thread gzip speed and ratio of the libraries the output
 * files could use, on the same text (a level file: METIS or Matrix Market):
 * ISA-L levels 0-3 (when built with it), libdeflate levels 1 and 6, zlib
 * levels 1 and 6, each compressing the text cut into independent members of
 * --member bytes (as io/output_file.c does) and decompressing them again
 * with the same library; every round trip is checked byte for byte.
 *
 *   bench_gzip [--bytes B] [--member M[,M...]] [--runs R] FILE
 *
 * Prints one line per library, level and member size:
 *   bench=gzip lib=isal level=1 member=1048576 bytes=... ratio=... compress_MBps=... decompress_MBps=...
 * (MB = 10^6 bytes of uncompressed text; medians of R runs). */
#include <getopt.h>
#include <libdeflate.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "core/timer.h"
#if COARSEN_HAVE_ISAL
#include <isa-l/igzip_lib.h>
#endif
#include "io/gzip_deflate.h"

enum { LIB_ISAL, LIB_LIBDEFLATE, LIB_ZLIB };
static const char *const lib_name[] = {"isal", "libdeflate", "zlib"};

/* One member of in[0..n) at out (room cap); its size, 0 on failure. */
static size_t compress_one(int lib, int level, const uint8_t *in, size_t n, uint8_t *out, size_t cap)
{
    if (lib == LIB_LIBDEFLATE) {
        struct libdeflate_compressor *c = libdeflate_alloc_compressor(level);
        size_t got = c ? libdeflate_gzip_compress(c, in, n, out, cap) : 0;
        libdeflate_free_compressor(c);
        return got;
    }
    if (lib == LIB_ZLIB) {
        z_stream z = {0};
        if (deflateInit2(&z, level, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY) != Z_OK)
            return 0;
        z.next_in = (Bytef *)(uintptr_t)in, z.avail_in = (uInt)n;
        z.next_out = out, z.avail_out = (uInt)cap;
        int rc = deflate(&z, Z_FINISH);
        deflateEnd(&z);
        return rc == Z_STREAM_END ? z.total_out : 0;
    }
    return gzip_deflate(in, n, out, cap, level); /* ISA-L in this build */
}

/* Decompresses one member of size csize into out (exactly n bytes); 0 on success. */
static int decompress_one(int lib, const uint8_t *in, size_t csize, uint8_t *out, size_t n)
{
    if (lib == LIB_LIBDEFLATE) {
        struct libdeflate_decompressor *d = libdeflate_alloc_decompressor();
        size_t got = 0;
        int rc = d ? (int)libdeflate_gzip_decompress(d, in, csize, out, n, &got) : -1;
        libdeflate_free_decompressor(d);
        return rc != LIBDEFLATE_SUCCESS || got != n;
    }
#if COARSEN_HAVE_ISAL
    if (lib == LIB_ISAL) {
        struct inflate_state s;
        isal_inflate_init(&s);
        s.crc_flag = ISAL_GZIP;
        s.next_in = (uint8_t *)(uintptr_t)in, s.avail_in = (uint32_t)csize;
        s.next_out = out, s.avail_out = (uint32_t)n;
        int rc = isal_inflate_stateless(&s);
        return rc != ISAL_DECOMP_OK || s.total_out != n;
    }
#endif
    z_stream z = {0};
    if (inflateInit2(&z, 31) != Z_OK)
        return 1;
    z.next_in = (Bytef *)(uintptr_t)in, z.avail_in = (uInt)csize;
    z.next_out = out, z.avail_out = (uInt)n;
    int rc = inflate(&z, Z_FINISH);
    inflateEnd(&z);
    return rc != Z_STREAM_END || z.total_out != n;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Compresses and decompresses text in members of `member` bytes, runs times;
 * prints the line. Returns 0, or 1 when a round trip failed. */
static int measure(int lib, int level, const uint8_t *text, size_t n, size_t member, int runs)
{
    size_t members = (n + member - 1) / member, cap = gzip_deflate_bound(member);
    uint8_t *packed = malloc(members * cap), *back = malloc(n);
    size_t *sizes = malloc(members * sizeof *sizes);
    double tc[64], td[64], total = 0;
    if (!packed || !back || !sizes)
        return fprintf(stderr, "bench_gzip: out of memory\n"), 1;
    for (int r = 0; r < runs; r++) {
        double t0 = timer_ms();
        total = 0;
        for (size_t m = 0; m < members; m++) {
            size_t len = m + 1 < members ? member : n - m * member;
            sizes[m] = compress_one(lib, level, text + m * member, len, packed + m * cap, cap);
            if (!sizes[m])
                return fprintf(stderr, "bench_gzip: %s level %d failed\n", lib_name[lib], level), 1;
            total += (double)sizes[m];
        }
        double t1 = timer_ms();
        for (size_t m = 0; m < members; m++) {
            size_t len = m + 1 < members ? member : n - m * member;
            if (decompress_one(lib, packed + m * cap, sizes[m], back + m * member, len))
                return fprintf(stderr, "bench_gzip: %s level %d: round trip failed\n", lib_name[lib], level), 1;
        }
        tc[r] = t1 - t0, td[r] = timer_ms() - t1;
    }
    if (memcmp(back, text, n))
        return fprintf(stderr, "bench_gzip: %s level %d: round trip differs\n", lib_name[lib], level), 1;
    qsort(tc, (size_t)runs, sizeof *tc, cmp_double);
    qsort(td, (size_t)runs, sizeof *td, cmp_double);
    printf("bench=gzip lib=%s level=%d member=%zu bytes=%zu ratio=%.3f compress_MBps=%.1f decompress_MBps=%.1f\n",
           lib_name[lib], level, member, n, (double)n / total, n / 1e3 / tc[runs / 2], n / 1e3 / td[runs / 2]);
    fflush(stdout);
    free(packed), free(back), free(sizes);
    return 0;
}

int main(int argc, char **argv)
{
    size_t limit = (size_t)64 << 20, member_list[16];
    int nmembers = 1, runs = 3;
    member_list[0] = (size_t)1 << 20;
    static const struct option opts[] = {{"bytes", required_argument, 0, 'b'}, {"member", required_argument, 0, 'm'},
                                         {"runs", required_argument, 0, 'r'}, {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    for (int c; (c = getopt_long(argc, argv, "", opts, NULL)) != -1;) {
        if (c == 'b')
            limit = strtoull(optarg, NULL, 10);
        else if (c == 'r')
            runs = atoi(optarg);
        else if (c == 'm') {
            nmembers = 0;
            for (char *s = optarg; *s && nmembers < 16; s += *s == ',')
                member_list[nmembers++] = strtoull(s, &s, 10);
        } else {
            fprintf(stderr, "usage: bench_gzip [--bytes B] [--member M[,M...]] [--runs R] FILE\n");
            return c == 'h' ? 0 : 2;
        }
    }
    if (optind != argc - 1 || runs < 1 || runs > 64 || !limit) {
        fprintf(stderr, "bench_gzip: give one FILE (--runs 1..64, --bytes > 0)\n");
        return 2;
    }
    FILE *f = fopen(argv[optind], "rb");
    uint8_t *text = malloc(limit);
    size_t n = f && text ? fread(text, 1, limit, f) : 0;
    if (f)
        fclose(f);
    if (!n) {
        fprintf(stderr, "%s: cannot read\n", argv[optind]);
        return 2;
    }
    static const int levels[][2] = {{LIB_ISAL, 0}, {LIB_ISAL, 1}, {LIB_ISAL, 2}, {LIB_ISAL, 3},
                                    {LIB_LIBDEFLATE, 1}, {LIB_LIBDEFLATE, 6}, {LIB_ZLIB, 1}, {LIB_ZLIB, 6}};
    int bad = 0;
    for (int m = 0; m < nmembers; m++)
        for (size_t k = 0; k < sizeof levels / sizeof *levels; k++) {
            if (levels[k][0] == LIB_ISAL && !COARSEN_HAVE_ISAL)
                continue;
            if (member_list[m] && member_list[m] <= UINT32_MAX / 2)
                bad |= measure(levels[k][0], levels[k][1], text, n, member_list[m], runs);
        }
    free(text);
    return bad;
}
