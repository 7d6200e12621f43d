/* inflate_bench.c — libdeflate's whole-buffer gzip decompression against ISA-L's
 * isal_inflate, into the same pre-faulted buffer, min of 30 (libdeflate did not pay).
 *   cc -O2 inflate_bench.c -ldeflate -lisal && ./a.out FILE.gz */
#include <libdeflate.h>
#include <isa-l/igzip_lib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e3 + t.tv_nsec / 1e6; }
int main(int argc, char **argv)
{
    FILE *f = fopen(argv[1], "rb"); fseek(f, 0, SEEK_END); long n = ftell(f); rewind(f);
    unsigned char *in = malloc(n); fread(in, 1, n, f); fclose(f);
    size_t cap = 64 << 20; unsigned char *out = malloc(cap); memset(out, 0, cap);
    double bl = 1e9, bi = 1e9; size_t got = 0;
    struct libdeflate_decompressor *d = libdeflate_alloc_decompressor();
    for (int r = 0; r < 30; r++) {
        double t0 = now();
        if (libdeflate_gzip_decompress(d, in, n, out, cap, &got)) return 1;
        double t1 = now();
        struct inflate_state s; isal_inflate_init(&s); s.crc_flag = ISAL_GZIP;
        s.next_in = in; s.avail_in = n; s.next_out = out; s.avail_out = cap;
        if (isal_inflate(&s)) return 2;
        double t2 = now();
        if (t1 - t0 < bl) bl = t1 - t0;
        if (t2 - t1 < bi) bi = t2 - t1;
    }
    printf("%s: %ld -> %zu bytes: libdeflate %.3f ms, isa-l %.3f ms (min of 30)\n", argv[1], n, got, bl, bi);
    return 0;
}
