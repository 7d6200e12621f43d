/* bench_one_member.c — inflating one gzip member (a file plain gzip wrote):
 * one-thread speed of our marker-aware deflate decoder (io/deflate_decode.h)
 * against ISA-L (when built with it) and zlib, and the chunked parallel
 * inflate (io/gzip_split.h) on the OpenMP threads; every result is checked
 * byte for byte against zlib's.
 *
 *   bench_one_member [--runs R] [--chunk BYTES] [--only DECODER] FILE.gz
 *
 * Prints one line per decoder (MB = 10^6 bytes of text; medians of R runs):
 *   bench=one_member dec=split threads=2 chunk=4194304 text_bytes=... median_ms=... MBps=... */
#include <getopt.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "core/timer.h"
#if COARSEN_HAVE_ISAL
#include <isa-l/igzip_lib.h>
#endif
#include "io/deflate_decode.h"
#include "io/gzip_index.h"
#include "io/gzip_split.h"

enum { DEC_ZLIB, DEC_ISAL, DEC_OURS, DEC_SPLIT, DECODERS };
static const char *const dec_name[] = {"zlib", "isal", "deflate_decode", "split"};

/* Inflates with decoder d into out (room cap); the text's length, or
 * (size_t)-1 on failure. */
static size_t run_one(int d, const unsigned char *gz, size_t size, unsigned char *out, size_t cap, size_t chunk)
{
    if (d == DEC_ZLIB) {
        z_stream z = {0};
        if (inflateInit2(&z, 15 + 16) != Z_OK)
            return (size_t)-1;
        z.next_in = (Bytef *)(uintptr_t)gz;
        z.avail_in = (uInt)size;
        size_t got = 0;
        int rc;
        do {
            z.next_out = out + got;
            z.avail_out = (uInt)(cap - got < (1u << 30) ? cap - got : 1u << 30);
            rc = inflate(&z, Z_NO_FLUSH);
            got = z.total_out;
        } while (rc == Z_OK);
        inflateEnd(&z);
        return rc == Z_STREAM_END ? got : (size_t)-1;
    }
    if (d == DEC_ISAL) {
#if COARSEN_HAVE_ISAL
        struct inflate_state *s = malloc(sizeof *s);
        isal_inflate_init(s);
        s->crc_flag = ISAL_GZIP;
        s->next_in = (uint8_t *)(uintptr_t)gz;
        s->avail_in = (uint32_t)size;
        s->next_out = out;
        s->avail_out = (uint32_t)(cap < UINT32_MAX ? cap : UINT32_MAX);
        int rc = isal_inflate(s);
        size_t got = s->total_out;
        int ok = rc == ISAL_DECOMP_OK && s->block_state == ISAL_BLOCK_FINISH;
        free(s);
        return ok ? got : (size_t)-1;
#else
        return (size_t)-1;
#endif
    }
    if (d == DEC_OURS) { /* one thread, from the first block: symbols, then narrowed */
        size_t head = gzip_header_size(gz, size);
        deflate_symbols s;
        if (!head || deflate_symbols_init(&s, cap))
            return (size_t)-1;
        deflate_run r = {.start_bit = head * 8, .stop_bit = SIZE_MAX, .window = 0, .max_out = cap};
        int rc = deflate_decode(gz, size - 8, &r, &s);
        for (size_t i = 0; i < s.len; i++)
            out[i] = (unsigned char)s.data[DEFLATE_WINDOW + i];
        size_t got = rc == DEFLATE_OK && r.final ? s.len : (size_t)-1;
        free(s.data);
        return got;
    }
    size_t len;
    return gzip_split_inflate(gz, size, (char *)out, cap, chunk, &len) ? len : (size_t)-1;
}

int main(int argc, char **argv)
{
    int runs = 5;
    size_t chunk = GZIP_SPLIT_CHUNK;
    const char *only = NULL;
    static const struct option opts[] = {{"runs", 1, 0, 'r'}, {"chunk", 1, 0, 'c'}, {"only", 1, 0, 'o'}, {0, 0, 0, 0}};
    for (int o; (o = getopt_long(argc, argv, "", opts, NULL)) != -1;) {
        if (o == 'r')
            runs = atoi(optarg);
        else if (o == 'c')
            chunk = strtoull(optarg, NULL, 10);
        else if (o == 'o')
            only = optarg;
        else
            return 2;
    }
    if (optind + 1 != argc || runs < 1 || !chunk) {
        fprintf(stderr, "usage: bench_one_member [--runs R] [--chunk BYTES] [--only zlib|isal|deflate_decode|split] FILE.gz\n");
        return 2;
    }
    FILE *f = fopen(argv[optind], "rb");
    if (!f) {
        perror(argv[optind]);
        return 1;
    }
    fseek(f, 0, SEEK_END);
    size_t size = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *gz = malloc(size);
    if (!gz || fread(gz, 1, size, f) != size)
        return 1;
    fclose(f);
    size_t cap = (size_t)gz[size - 4] | (size_t)gz[size - 3] << 8 | (size_t)gz[size - 2] << 16 |
                 (size_t)gz[size - 1] << 24;
    cap += (size_t)1 << 20; /* ISIZE is mod 2^32: big texts need more */
    if (cap < size * 8)
        cap = size * 8;
    unsigned char *want = malloc(cap), *out = malloc(cap);
    size_t want_len = run_one(DEC_ZLIB, gz, size, want, cap, chunk);
    if (want_len == (size_t)-1) {
        fprintf(stderr, "zlib cannot inflate %s\n", argv[optind]);
        return 1;
    }
    double *ms = malloc((size_t)runs * sizeof *ms);
    for (int d = 0; d < DECODERS; d++) {
        if ((d == DEC_ISAL && !COARSEN_HAVE_ISAL) || (only && strcmp(only, dec_name[d])))
            continue;
        for (int r = 0; r < runs; r++) {
            memset(out, 0, want_len);
            double t0 = timer_ms();
            size_t got = run_one(d, gz, size, out, cap, chunk);
            ms[r] = timer_ms() - t0;
            if (got != want_len || memcmp(out, want, want_len)) {
                fprintf(stderr, "%s: wrong text\n", dec_name[d]);
                return 1;
            }
        }
        for (int a = 1; a < runs; a++) /* insertion sort for the median */
            for (int b = a; b > 0 && ms[b] < ms[b - 1]; b--) {
                double x = ms[b];
                ms[b] = ms[b - 1], ms[b - 1] = x;
            }
        double med = ms[runs / 2];
        printf("bench=one_member dec=%s threads=%d chunk=%zu text_bytes=%zu median_ms=%.1f MBps=%.1f\n", dec_name[d],
               d == DEC_SPLIT ? omp_get_max_threads() : 1, chunk, want_len, med, want_len / med / 1e3);
    }
    return 0;
}
