/* test_gzip_split.c — one gzip member inflated on several threads
 * (io/gzip_split.h, io/deflate_decode.h, io/gzip_crc.h): the text of
 * generated graphs, random bytes (stored blocks), highly repetitive text
 * (long matches across chunk borders), text in fixed, Huffman-only and RLE
 * blocks, from zlib at levels 1, 6 and 9 (also with tiny blocks), gzip -1
 * and -9 and ISA-L's deflate, read back exactly on 1 and 2 threads with
 * chunks from a few hundred bytes up, so that a small input spans many
 * chunks (the texts themselves are the oracle: zlib and gzip wrote the
 * files from them). A corrupt byte, a truncated file, a wrong CRC or
 * ISIZE, trailing garbage and a second member are refused (0: the caller
 * falls back), and through text_input the user gets exactly the one-line
 * error of the sequential stream. The CRC combination is checked against
 * zlib's crc32_combine. */
#include <criterion/criterion.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#if COARSEN_HAVE_ISAL
#include <isa-l/igzip_lib.h>
#endif

#include "gen/generators.h"
#include "io/deflate_decode.h"
#include "io/gzip_crc.h"
#include "io/gzip_split.h"
#include "io/text_input.h"
#include "tests/support/io_files.h"

typedef struct bytes {
    unsigned char *p;
    size_t len;
} bytes;

/* text gzip'd by zlib (one member) at level with memLevel (1: blocks of a
 * few hundred symbols) and strategy. */
static bytes zlib_gzip(const bytes *text, int level, int mem_level, int strategy)
{
    z_stream z = {0};
    cr_assert_eq(deflateInit2(&z, level, Z_DEFLATED, 15 + 16, mem_level, strategy), Z_OK);
    bytes out = {malloc(deflateBound(&z, text->len) + 64), 0};
    z.next_in = text->p;
    z.avail_in = (uInt)text->len;
    z.next_out = out.p;
    z.avail_out = (uInt)deflateBound(&z, text->len) + 64;
    cr_assert_eq(deflate(&z, Z_FINISH), Z_STREAM_END);
    out.len = z.total_out;
    deflateEnd(&z);
    return out;
}

static bytes slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "cannot open %s", path);
    fseek(f, 0, SEEK_END);
    bytes b = {malloc((size_t)ftell(f) + 1), (size_t)ftell(f)};
    fseek(f, 0, SEEK_SET);
    cr_assert_eq(fread(b.p, 1, b.len, f), b.len);
    fclose(f);
    return b;
}

/* text gzip'd by the gzip program at level (without make test's GZIP). */
static bytes program_gzip(const bytes *text, int level)
{
    const char *plain = io_path("program.txt");
    FILE *f = fopen(plain, "wb");
    cr_assert_not_null(f);
    cr_assert_eq(fwrite(text->p, 1, text->len, f), text->len);
    fclose(f);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "env -u GZIP gzip -%d -c '%s' > '%s.gz'", level, plain, plain);
    cr_assert_eq(system(cmd), 0, "%s", cmd);
    snprintf(cmd, sizeof cmd, "%s.gz", plain);
    return slurp(cmd);
}

#if COARSEN_HAVE_ISAL
/* text gzip'd by ISA-L's deflate at level (0..3). */
static bytes isal_gzip(const bytes *text, int level)
{
    struct isal_zstream z;
    isal_deflate_stateless_init(&z);
    size_t room = text->len + text->len / 8 + 1024;
    bytes out = {malloc(room), 0};
    static uint8_t buf[ISAL_DEF_LVL3_DEFAULT];
    z.level = (uint32_t)level;
    z.level_buf = buf;
    z.level_buf_size = sizeof buf;
    z.gzip_flag = IGZIP_GZIP;
    z.end_of_stream = 1;
    z.flush = NO_FLUSH;
    z.next_in = text->p;
    z.avail_in = (uint32_t)text->len;
    z.next_out = out.p;
    z.avail_out = (uint32_t)room;
    cr_assert_eq(isal_deflate_stateless(&z), COMP_OK);
    out.len = z.total_out;
    return out;
}
#endif

/* The Matrix Market text of a generated graph. */
static bytes graph_text(const char *spec)
{
    gen_opts o;
    coarsen_error err = {0};
    cr_assert_eq(gen_opts_parse_spec(spec, &o, &err), 0, "%s", err.msg);
    coarsen_graph *g = NULL;
    cr_assert_eq(gen_graph(&o, &g, &err), 0, "%s", err.msg);
    const char *path = io_path("graph.mtx");
    cr_assert_eq(coarsen_graph_write(g, path, COARSEN_FORMAT_MTX, 0, &err), 0, "%s", err.msg);
    coarsen_graph_free(g);
    return slurp(path);
}

static bytes random_bytes(size_t len, uint64_t seed)
{
    bytes b = {malloc(len + 1), len};
    for (size_t i = 0; i < len; i++) {
        seed = seed * 6364136223846793005u + 1442695040888963407u;
        b.p[i] = (unsigned char)(seed >> 56);
    }
    return b;
}

/* A line repeated (matches of 258 back to the line before, across every
 * chunk border), then one byte repeated (distance 1). */
static bytes repetitive_text(size_t len)
{
    bytes b = {malloc(len + 1), len};
    static const char line[] = "1048576 2097151 0.125\n";
    for (size_t i = 0; i < len / 2; i++)
        b.p[i] = (unsigned char)line[i % (sizeof line - 1)];
    memset(b.p + len / 2, 'z', len - len / 2);
    return b;
}

/* Asserts that gz inflates to exactly text on 1 and 2 threads (the test
 * machine's cores: more would only spin), with chunks of each size in
 * chunk_sizes (0-ended). */
static void expect_inflates(const bytes *gz, const bytes *text, const size_t *chunk_sizes, const char *what)
{
    static const int threads[] = {1, 2};
    size_t cap = text->len + 4096;
    char *out = malloc(cap);
    for (const size_t *c = chunk_sizes; *c; c++)
        for (int t = 0; t < 2; t++) {
            omp_set_num_threads(threads[t]);
            size_t len = 0;
            memset(out, 0xa5, cap);
            cr_assert_eq(gzip_split_inflate(gz->p, gz->len, out, cap, *c, &len), 1, "%s: chunk %zu, %d threads", what,
                         *c, threads[t]);
            cr_assert_eq(len, text->len, "%s: chunk %zu, %d threads", what, *c, threads[t]);
            cr_assert(!memcmp(out, text->p, len), "%s: chunk %zu, %d threads: wrong text", what, *c, threads[t]);
        }
    omp_set_num_threads(omp_get_num_procs());
    free(out);
}

static const size_t small_chunks[] = {997, 16381, GZIP_SPLIT_CHUNK, 0};

Test(gzip_split, generated_graph_text_from_zlib_levels_and_block_sizes)
{
    bytes text = graph_text("rgg:n=8000,deg=12,weights=exponential");
    static const int levels[] = {1, 6, 9};
    for (int l = 0; l < 3; l++)
        for (int mem = 1; mem <= 8; mem += 7) {
            bytes gz = zlib_gzip(&text, levels[l], mem, Z_DEFAULT_STRATEGY);
            char what[64];
            snprintf(what, sizeof what, "zlib level %d memLevel %d", levels[l], mem);
            expect_inflates(&gz, &text, small_chunks, what);
            free(gz.p);
        }
    free(text.p);
}

Test(gzip_split, fixed_huffman_only_and_rle_blocks)
{
    bytes text = graph_text("grid2d:nx=150,ny=120");
    static const int strategies[] = {Z_FIXED, Z_HUFFMAN_ONLY, Z_RLE};
    for (int s = 0; s < 3; s++) {
        bytes gz = zlib_gzip(&text, 6, 1, strategies[s]);
        expect_inflates(&gz, &text, small_chunks, "zlib strategy");
        free(gz.p);
    }
    free(text.p);
}

Test(gzip_split, random_bytes_in_stored_blocks_between_text)
{
    bytes text = graph_text("er:n=5000,deg=6"), noise = random_bytes(300000, 7);
    bytes mixed = {malloc(2 * text.len + noise.len), 2 * text.len + noise.len};
    memcpy(mixed.p, text.p, text.len);
    memcpy(mixed.p + text.len, noise.p, noise.len);
    memcpy(mixed.p + text.len + noise.len, text.p, text.len);
    bytes gz = zlib_gzip(&mixed, 6, 8, Z_DEFAULT_STRATEGY), gz0 = zlib_gzip(&noise, 0, 8, Z_DEFAULT_STRATEGY);
    expect_inflates(&gz, &mixed, small_chunks, "text, random, text");
    expect_inflates(&gz0, &noise, small_chunks, "level 0 (stored only)");
    free(gz.p), free(gz0.p), free(mixed.p), free(noise.p), free(text.p);
}

Test(gzip_split, highly_repetitive_text_with_matches_across_chunks)
{
    bytes text = repetitive_text(3000000);
    for (int l = 1; l <= 9; l += 8) {
        bytes gz = zlib_gzip(&text, l, 8, Z_DEFAULT_STRATEGY);
        expect_inflates(&gz, &text, small_chunks, "repetitive");
        free(gz.p);
    }
    free(text.p);
}

Test(gzip_split, files_of_the_gzip_program_and_isal)
{
    bytes text = graph_text("rgg:n=10000,deg=10");
    for (int l = 1; l <= 9; l += 8) {
        bytes gz = program_gzip(&text, l);
        expect_inflates(&gz, &text, small_chunks, "gzip program");
        free(gz.p);
    }
#if COARSEN_HAVE_ISAL
    for (int l = 0; l <= 3; l++) {
        bytes gz = isal_gzip(&text, l);
        expect_inflates(&gz, &text, small_chunks, "isa-l");
        free(gz.p);
    }
#endif
    free(text.p);
}

Test(gzip_split, an_empty_member_is_an_empty_text)
{
    bytes empty = {(unsigned char *)"", 0};
    bytes gz = zlib_gzip(&empty, 6, 8, Z_DEFAULT_STRATEGY);
    char out[16];
    size_t len = 99;
    cr_assert_eq(gzip_split_inflate(gz.p, gz.len, out, sizeof out, 4096, &len), 1);
    cr_assert_eq(len, 0);
    free(gz.p);
}

Test(gzip_split, more_text_than_the_room_is_refused)
{
    bytes text = repetitive_text(200000);
    bytes gz = zlib_gzip(&text, 6, 8, Z_DEFAULT_STRATEGY);
    char *out = malloc(text.len);
    size_t len;
    omp_set_num_threads(2);
    cr_assert_eq(gzip_split_inflate(gz.p, gz.len, out, text.len - 1, 1000, &len), 0);
    cr_assert_eq(gzip_split_inflate(gz.p, gz.len, out, text.len, 1000, &len), 1);
    omp_set_num_threads(omp_get_num_procs());
    free(out), free(gz.p), free(text.p);
}

/* The damaged variants of a good file gz (each freshly allocated). */
enum { BAD_BYTE, BAD_TRUNCATED, BAD_CRC, BAD_ISIZE, BAD_GARBAGE, BAD_SECOND_MEMBER, BAD_KINDS };
static const char *const bad_name[] = {"corrupt byte", "truncated", "wrong CRC", "wrong ISIZE", "trailing garbage",
                                       "second member"};

static bytes damaged(const bytes *gz, int kind)
{
    bytes b = {malloc(2 * gz->len + 16), gz->len};
    memcpy(b.p, gz->p, gz->len);
    switch (kind) {
    case BAD_BYTE:
        b.p[gz->len / 2] ^= 0x5a;
        break;
    case BAD_TRUNCATED:
        b.len = gz->len * 2 / 3;
        break;
    case BAD_CRC:
        b.p[gz->len - 8] ^= 1;
        break;
    case BAD_ISIZE:
        b.p[gz->len - 4] ^= 1;
        break;
    case BAD_GARBAGE:
        memcpy(b.p + gz->len, "garbage!", 8), b.len += 8;
        break;
    default:
        memcpy(b.p + gz->len, gz->p, gz->len), b.len *= 2;
    }
    return b;
}

Test(gzip_split, damaged_files_are_refused)
{
    bytes text = graph_text("rgg:n=20000,deg=12");
    bytes gz = zlib_gzip(&text, 6, 8, Z_DEFAULT_STRATEGY);
    size_t cap = 2 * text.len + 4096, len;
    char *out = malloc(cap);
    omp_set_num_threads(2);
    for (int k = 0; k < BAD_KINDS; k++)
        for (size_t chunk = 4093; chunk <= 65536; chunk *= 16) {
            bytes bad = damaged(&gz, k);
            cr_assert_eq(gzip_split_inflate(bad.p, bad.len, out, cap, chunk, &len), 0, "%s, chunk %zu", bad_name[k],
                         chunk);
            free(bad.p);
        }
    omp_set_num_threads(omp_get_num_procs());
    free(out), free(gz.p), free(text.p);
}

/* Reads path through text_input on `threads` threads: COARSEN_OK with the
 * text (*text, *len: owned by the caller) and *streamed (1: the inflating
 * thread was used), or the error in *err. */
static int load(const char *path, int threads, char **text, size_t *len, int *streamed, coarsen_error *err)
{
    omp_set_num_threads(threads);
    text_input t;
    int rc = text_input_open(path, &t, err);
    if (rc) { /* t holds nothing */
        omp_set_num_threads(omp_get_num_procs());
        return rc;
    }
    *streamed = t.stream != NULL;
    rc = text_input_finish(&t, err);
    if (!rc) {
        *text = malloc(t.len + 1);
        memcpy(*text, t.data, t.len);
        *len = t.len;
    }
    text_input_free(&t);
    omp_set_num_threads(omp_get_num_procs());
    return rc;
}

Test(gzip_split, text_input_reads_a_large_one_member_file_on_all_threads, .timeout = 120)
{
    /* at least TEXT_INPUT_SPLIT_MIN_BYTES of gzip: graph text repeated
     * with random lines between, so that it does not shrink too much */
    bytes graph = graph_text("rgg:n=60000,deg=12"), noise = random_bytes(1 << 20, 3);
    size_t rounds = 0;
    bytes text = {NULL, 0}, gz = {NULL, 0};
    while (gz.len < TEXT_INPUT_SPLIT_MIN_BYTES + (1 << 20)) {
        rounds += 4;
        free(text.p), free(gz.p);
        text.len = rounds * (graph.len + 4096);
        text.p = malloc(text.len);
        for (size_t r = 0; r < rounds; r++) {
            memcpy(text.p + r * (graph.len + 4096), graph.p, graph.len);
            memcpy(text.p + r * (graph.len + 4096) + graph.len, noise.p + (r * 4096) % (noise.len - 4096), 4096);
        }
        gz = zlib_gzip(&text, 1, 8, Z_DEFAULT_STRATEGY);
    }
    const char *path = io_file_bytes("large.txt.gz", gz.p, gz.len, 0);
    char *got;
    size_t len;
    int streamed;
    coarsen_error err = {0};
    cr_assert_eq(load(path, TEXT_INPUT_SPLIT_MIN_THREADS, &got, &len, &streamed, &err), 0, "%s", err.msg);
    cr_assert_eq(streamed, 0, "read on all threads, not by the streaming thread");
    cr_assert_eq(len, text.len);
    cr_assert(!memcmp(got, text.p, len));
    free(got);
    cr_assert_eq(load(path, TEXT_INPUT_SPLIT_MIN_THREADS - 1, &got, &len, &streamed, &err), 0, "%s", err.msg);
    cr_assert_eq(streamed, 1, "fewer threads: the streaming thread");
    cr_assert(len == text.len && !memcmp(got, text.p, len));
    free(got);

    /* damaged: the same one-line error as the stream gives on one thread */
    for (int k = 0; k < BAD_KINDS; k++) {
        bytes bad = damaged(&gz, k);
        const char *bad_path = io_file_bytes("damaged.txt.gz", bad.p, bad.len, 0);
        coarsen_error one = {0}, all = {0};
        int rc1 = load(bad_path, 1, &got, &len, &streamed, &one);
        if (!rc1)
            free(got);
        int rcn = load(bad_path, TEXT_INPUT_SPLIT_MIN_THREADS, &got, &len, &streamed, &all);
        if (!rcn)
            free(got);
        cr_assert_eq(rcn, rc1, "%s", bad_name[k]);
        if (k == BAD_SECOND_MEMBER) { /* valid gzip: read whole, by the stream */
            cr_assert_eq(rcn, 0, "%s", all.msg);
            cr_assert_eq(len, 2 * text.len);
            free(bad.p);
            continue;
        }
        cr_assert_neq(rc1, 0, "%s", bad_name[k]);
        cr_assert_str_eq(all.msg, one.msg, "%s", bad_name[k]);
        cr_assert_null(strchr(all.msg, '\n'));
        cr_assert(strstr(all.msg, bad_path), "%s", all.msg);
        free(bad.p);
    }
    free(gz.p), free(text.p), free(graph.p), free(noise.p);
}

Test(gzip_split, crc_pieces_combine_as_zlib_does)
{
    bytes b = random_bytes(100000, 11);
    uint32_t whole = (uint32_t)crc32(0, b.p, (uInt)b.len);
    cr_assert_eq(gzip_crc32(0, b.p, b.len), whole);
    static const size_t cuts[] = {0, 1, 7, 4096, 65535, 99999, 100000};
    for (int k = 0; k < 7; k++) {
        size_t c = cuts[k];
        uint32_t a = gzip_crc32(0, b.p, c), z = gzip_crc32(0, b.p + c, b.len - c);
        cr_assert_eq(gzip_crc32_combine(a, z, b.len - c), whole, "cut at %zu", c);
        cr_assert_eq(gzip_crc32_combine(a, z, b.len - c), (uint32_t)crc32_combine(a, z, (z_off_t)(b.len - c)));
    }
    free(b.p);
}

Test(gzip_split, the_block_search_finds_the_real_block_starts)
{
    /* zlib with memLevel 1: a block every few hundred symbols. Every block
     * a decode from the data's start passes must be where the search,
     * started a bit after the previous one, stops first (dynamic blocks
     * only: that is what zlib writes at level 6 here) */
    bytes text = graph_text("rgg:n=3000,deg=8");
    bytes gz = zlib_gzip(&text, 6, 1, Z_DEFAULT_STRATEGY);
    size_t head = 10, in_len = gz.len - 8, found = 0, n = 0, *starts = malloc(gz.len * sizeof *starts);
    deflate_symbols s;
    cr_assert_eq(deflate_symbols_init(&s, 1024), 0);
    deflate_run r = {.start_bit = head * 8, .stop_bit = 0, .window = 0, .max_out = text.len};
    for (;;) { /* one block at a time: stop_bit 0 stops after each */
        starts[n++] = r.start_bit;
        cr_assert_eq(deflate_decode(gz.p, in_len, &r, &s), DEFLATE_OK);
        if (r.final)
            break;
        r.start_bit = r.end_bit;
    }
    for (size_t k = 0; k + 1 < n; k++) { /* the last block is final: not searched for */
        size_t b = starts[k];
        int type = (gz.p[(b + 1) / 8] >> ((b + 1) % 8) & 1) | (gz.p[(b + 2) / 8] >> ((b + 2) % 8) & 1) << 1;
        if (type != 2)
            continue;
        cr_assert_eq(deflate_find_dynamic(gz.p, in_len, b, in_len * 8), b, "block %zu at bit %zu", k, b);
        if (k)
            cr_assert_leq(deflate_find_dynamic(gz.p, in_len, starts[k - 1] + 1, in_len * 8), b,
                          "a header found before a real one may be false, never one after it");
        found++;
    }
    free(starts);
    cr_assert_gt(found, 20);
    cr_assert_eq(s.len, text.len);
    for (size_t i = 0; i < s.len; i++)
        cr_assert_eq(s.data[DEFLATE_WINDOW + i], text.p[i]);
    free(s.data), free(gz.p), free(text.p);
}
