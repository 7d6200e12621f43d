/* test_io_parhip.c — the ParHIP binary reader and writer through the library:
 * files written are byte for byte the layout written out by hand here (the
 * independent expectation), hand-made files read as the expected graph,
 * text -> binary -> text round trips give identical CSR arrays (generated and
 * shared graphs, on 1, 2 and all threads), and lying or corrupt files are
 * refused with one line naming the file and the problem. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "io/parhip_write.h"
#include "tests/support/io_files.h"
#include "tests/support/test_support.h"

/* One little-endian 64-bit / 32-bit word as bytes, for the hand-made files. */
#define W64(x) (x) & 255, ((x) >> 8) & 255, ((x) >> 16) & 255, ((x) >> 24) & 255, 0, 0, 0, 0
#define W32(x) (x) & 255, ((x) >> 8) & 255, ((x) >> 16) & 255, ((x) >> 24) & 255

/* The path 0 - 1 - 2, unweighted: KaHIP's version 3. Offsets are byte
 * positions: the adjacency starts at 24 + 4 * 8 = 56. */
static const unsigned char path_v3[] = {
    W64(3), W64(3), W64(4),             /* version, n, m (adjacency entries) */
    W64(56), W64(64), W64(80), W64(88), /* rows: [1], [0 2], [1] */
    W64(1), W64(0), W64(2), W64(1),
};

/* The same path with vertex weights 2, 1, 3 and edge weights {0,1} = 5,
 * {1,2} = 7: version 0 (both sections present, 64-bit). */
static const unsigned char path_v0[] = {
    W64(0), W64(3), W64(4),
    W64(56), W64(64), W64(80), W64(88),
    W64(1), W64(0), W64(2), W64(1),
    W64(2), W64(1), W64(3),             /* vertex weights */
    W64(5), W64(5), W64(7), W64(7),     /* edge weights, parallel to the adjacency */
};

/* The weighted path narrow: every width flag set (4+8+16+32 = 60), the
 * adjacency starts at 24 + 4 * 4 = 40. */
static const unsigned char path_v60[] = {
    W64(60), W64(3), W64(4),
    W32(40), W32(44), W32(52), W32(56),
    W32(1), W32(0), W32(2), W32(1),
    W32(2), W32(1), W32(3),
    W32(5), W32(5), W32(7), W32(7),
};

static coarsen_graph *path_graph(int weighted)
{
    coarsen_error err = {0};
    coarsen_graph *g = coarsen_graph_alloc(3, 4, &err);
    cr_assert_not_null(g);
    const int64_t xadj[] = {0, 1, 3, 4};
    const int32_t adj[] = {1, 0, 2, 1};
    const double w[] = {5, 5, 7, 7};
    const int64_t vw[] = {2, 1, 3};
    memcpy(g->xadj, xadj, sizeof xadj);
    memcpy(g->adj, adj, sizeof adj);
    for (int k = 0; k < 4; k++)
        g->ewgt[k] = weighted ? w[k] : 1;
    for (int u = 0; u < 3; u++)
        g->vwgt[u] = weighted ? vw[u] : 1;
    g->integral_weights = 1;
    return g;
}

static void expect_file_bytes(const char *path, const unsigned char *want, size_t len)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "cannot open %s", path);
    unsigned char got[512];
    size_t n = fread(got, 1, sizeof got, f);
    fclose(f);
    cr_assert_eq(n, len, "%s: %zu bytes, expected %zu", path, n, len);
    for (size_t k = 0; k < len; k++)
        cr_assert_eq(got[k], want[k], "%s: byte %zu is %u, expected %u", path, k, got[k], want[k]);
}

Test(io_parhip, writer_is_bit_exact_to_the_hand_written_layout)
{
    coarsen_error err = {0};
    for (int weighted = 0; weighted < 2; weighted++) {
        coarsen_graph *g = path_graph(weighted);
        const char *p = io_path("exact.parhip");
        cr_assert_eq(coarsen_graph_write(g, p, COARSEN_FORMAT_PARHIP, 0, &err), 0, "%s", err.msg);
        if (weighted)
            expect_file_bytes(p, path_v0, sizeof path_v0);
        else
            expect_file_bytes(p, path_v3, sizeof path_v3);
        if (weighted) {
            cr_assert_eq(parhip_write_graph(g, p, 0, PARHIP_NARROW, &err), 0, "%s", err.msg);
            expect_file_bytes(p, path_v60, sizeof path_v60);
        }
        coarsen_graph_free(g);
    }
}

Test(io_parhip, hand_written_files_read_as_the_expected_graph)
{
    const io_edge unit[] = {{0, 1, 1}, {1, 2, 1}}, weighted[] = {{0, 1, 5}, {1, 2, 7}};
    const struct {
        const unsigned char *bytes;
        size_t len;
        int weighted;
        const char *format;
    } cases[] = {
        {path_v3, sizeof path_v3, 0, "parhip v3 eid64 vid64"},
        {path_v0, sizeof path_v0, 1, "parhip v0 eid64 vid64 vw64 ew64"},
        {path_v60, sizeof path_v60, 1, "parhip v60 eid32 vid32 vw32 ew32"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        /* No telling name: detected by content. */
        const char *p = io_file_bytes("hand.bin", cases[c].bytes, cases[c].len, 0);
        coarsen_graph *g = NULL;
        coarsen_read_report r;
        coarsen_error err = {0};
        cr_assert_eq(coarsen_graph_load(p, &g, &r, &err), 0, "case %zu: %s", c, err.msg);
        io_expect_graph(g, 3, cases[c].weighted ? weighted : unit, 2);
        const int64_t vw[] = {2, 1, 3};
        for (int u = 0; u < 3; u++)
            cr_expect_eq(g->vwgt[u], cases[c].weighted ? vw[u] : 1);
        cr_expect_str_eq(r.format, cases[c].format);
        cr_expect_eq(r.entries, 4);
        cr_expect_eq(r.bytes, (int64_t)cases[c].len);
        coarsen_graph_free(g);
    }
}

Test(io_parhip, self_loops_are_dropped_and_counted_unsorted_rows_sorted)
{
    /* n = 3, rows [2 0 1] (a loop at 0, unsorted), [0], [0]: m = 5. */
    const unsigned char bytes[] = {
        W64(3), W64(3), W64(5),
        W64(56), W64(80), W64(88), W64(96),
        W64(2), W64(0), W64(1), W64(0), W64(0),
    };
    const char *p = io_file_bytes("loop.parhip", bytes, sizeof bytes, 0);
    coarsen_graph *g = NULL;
    coarsen_read_report r;
    coarsen_error err = {0};
    cr_assert_eq(coarsen_graph_load(p, &g, &r, &err), 0, "%s", err.msg);
    const io_edge e[] = {{0, 1, 1}, {0, 2, 1}};
    io_expect_graph(g, 3, e, 2);
    cr_expect_eq(r.diagonal_dropped, 1);
    cr_expect_eq(r.entries, 5);
    coarsen_graph_free(g);
}

/* Loads bytes (a modified copy of a valid file) and expects an input error
 * "PATH: ..." on one line containing expect. */
static void expect_rejected(const char *what, const unsigned char *bytes, size_t len, const char *expect)
{
    const char *p = io_file_bytes("bad.parhip", bytes, len, 0);
    char path[600];
    snprintf(path, sizeof path, "%s: ", p);
    coarsen_graph *g = (coarsen_graph *)1;
    coarsen_error err = {0};
    int rc = coarsen_graph_load(p, &g, NULL, &err);
    cr_assert_eq(rc, COARSEN_ERR_INPUT, "%s: status %d (%s)", what, rc, err.msg);
    cr_assert_null(g, "%s: no graph on error", what);
    cr_assert(!strncmp(err.msg, path, strlen(path)), "%s: message '%s' does not name the file", what, err.msg);
    cr_assert(strstr(err.msg, expect), "%s: message '%s' lacks '%s'", what, err.msg, expect);
    cr_assert(!strchr(err.msg, '\n'), "%s: message is not one line", what);
}

/* path_v3 or path_v0 with the 64-bit word at index `word` replaced. */
static void expect_word_rejected(const char *what, int weighted, int word, uint64_t value, const char *expect)
{
    unsigned char b[sizeof path_v0];
    size_t len = weighted ? sizeof path_v0 : sizeof path_v3;
    memcpy(b, weighted ? path_v0 : path_v3, len);
    for (int k = 0; k < 8; k++)
        b[8 * word + k] = (unsigned char)(value >> (8 * k));
    expect_rejected(what, b, len, expect);
}

Test(io_parhip, lying_headers_and_corrupt_sections_are_refused)
{
    expect_rejected("empty", path_v3, 0, "shorter than the 24-byte ParHIP header");
    expect_rejected("truncated header", path_v3, 23, "shorter than the 24-byte");
    expect_rejected("truncated body", path_v3, sizeof path_v3 - 1, "needs 88 bytes but the file has 87");
    expect_word_rejected("unknown flag", 0, 0, 64 + 3, "flags beyond the 6 defined");
    expect_word_rejected("n too large", 0, 1, 4, "needs 96 bytes but the file has 88");
    expect_word_rejected("n too small", 0, 1, 2, "needs 80 bytes but the file has 88");
    expect_word_rejected("n beyond 32 bits", 0, 1, (uint64_t)1 << 40, "at most 2147483647");
    expect_word_rejected("n overflowing", 0, 1, UINT64_MAX / 2, "more than 2^63");
    expect_word_rejected("m too large", 0, 2, 6, "needs 104 bytes but the file has 88");
    expect_word_rejected("m too small", 0, 2, 2, "needs 72 bytes but the file has 88");
    expect_word_rejected("m overflowing", 0, 2, UINT64_MAX, "more than 2^63");
    expect_word_rejected("weights flag lies", 0, 0, 2, "needs 120 bytes");
    expect_word_rejected("first offset", 0, 3, 64, "offset of vertex 0 (byte 24) is 64");
    expect_word_rejected("last offset", 0, 6, 80, "final offset (byte 48) is 80");
    expect_word_rejected("offset out of range", 0, 4, 1000, "outside the adjacency bytes [56, 88]");
    expect_word_rejected("offset misaligned", 0, 4, 65, "not at the start of a 8-byte id");
    expect_word_rejected("offsets decrease", 0, 5, 56, "offsets decrease at vertex 2");
    expect_word_rejected("id out of range", 0, 8, 3, "vertex 1: neighbour id 3 (byte 64) out of range [0, 3)");
    expect_word_rejected("huge id", 0, 8, UINT64_MAX, "out of range");
    /* Row 2 lists 0 instead of 1: 1 lists 2, 2 does not list 1 (the lowest row). */
    expect_word_rejected("asymmetric", 0, 10, 0, "vertex 1 lists neighbour 2, but vertex 2 does not list 1");
    /* Row 1 lists 0 twice. */
    expect_word_rejected("duplicate", 0, 9, 0, "vertex 1 lists neighbour 0 twice");
    expect_word_rejected("weight mismatch", 1, 15, 6, "edge 0-1 has weight 5 in row 0 but 6 in row 1");
    expect_word_rejected("zero edge weight", 1, 14, 0, "vertex 0: edge weight 0 to neighbour 1");
    expect_word_rejected("negative edge weight", 1, 17, UINT64_MAX, "edge weight -1");
    expect_word_rejected("negative vertex weight", 1, 12, (uint64_t)INT64_MIN, "vertex 1: weight -9223372036854775808");
    /* A named .parhip text file gets the binary reader's error. */
    const char *p = io_file("text.parhip", "3 2\n2\n1 3\n2\n", 0);
    coarsen_graph *g = NULL;
    coarsen_error err = {0};
    cr_assert_eq(coarsen_graph_load(p, &g, NULL, &err), COARSEN_ERR_INPUT);
    cr_assert(strstr(err.msg, "not a ParHIP graph"), "%s", err.msg);
}

/* Writes g as METIS, reads it (a), writes a as ParHIP (wide or narrow,
 * plain or gzip'd), reads that (b), writes b as METIS and reads it (c): the
 * three graphs and the two METIS files must be identical. */
static void text_binary_text(const coarsen_graph *g, int narrow, int gz)
{
    coarsen_error err = {0};
    char t1[600], t2[600], bin[600];
    snprintf(t1, sizeof t1, "%s", io_path("rt1.graph"));
    snprintf(t2, sizeof t2, "%s", io_path("rt2.graph"));
    snprintf(bin, sizeof bin, "%s", io_path(gz ? "rt.parhip.gz" : "rt.parhip"));
    coarsen_graph *a = NULL, *b = NULL, *c = NULL;
    cr_assert_eq(coarsen_graph_write(g, t1, COARSEN_FORMAT_METIS, 0, &err), 0, "%s", err.msg);
    cr_assert_eq(coarsen_graph_load(t1, &a, NULL, &err), 0, "%s", err.msg);
    cr_assert_eq(parhip_write_graph(a, bin, 0, narrow ? PARHIP_NARROW : PARHIP_WIDE, &err), 0, "%s", err.msg);
    cr_assert_eq(coarsen_graph_load(bin, &b, NULL, &err), 0, "%s", err.msg);
    cr_assert_eq(coarsen_graph_write(b, t2, COARSEN_FORMAT_METIS, 0, &err), 0, "%s", err.msg);
    cr_assert_eq(coarsen_graph_load(t2, &c, NULL, &err), 0, "%s", err.msg);
    io_expect_same_graph(g, a);
    io_expect_same_graph(a, b);
    io_expect_same_graph(b, c);
    FILE *f1 = fopen(t1, "rb"), *f2 = fopen(t2, "rb");
    cr_assert(f1 && f2);
    for (int x, y;;) {
        x = fgetc(f1), y = fgetc(f2);
        cr_assert_eq(x, y, "the METIS files differ");
        if (x == EOF)
            break;
    }
    fclose(f1);
    fclose(f2);
    coarsen_graph_free(a);
    coarsen_graph_free(b);
    coarsen_graph_free(c);
}

Test(io_parhip, generated_graphs_round_trip_on_1_2_and_all_threads)
{
    int saved = omp_get_max_threads(), threads[] = {1, 2, omp_get_num_procs()};
    for (int t = 0; t < 3; t++) {
        omp_set_num_threads(threads[t]);
        for (int mode = 0; mode < 2; mode++) {
            /* 3000 vertices: past the one-thread threshold of the parallel loops. */
            coarsen_graph *g = test_random_graph(3000, 0.02, mode, 40 + (uint64_t)mode);
            for (int32_t u = 0; u < g->n && mode; u++)
                g->vwgt[u] = u % 7; /* zero vertex weights are valid */
            for (int narrow = 0; narrow < 2; narrow++)
                for (int gz = 0; gz < 2; gz++)
                    text_binary_text(g, narrow, gz);
            coarsen_graph_free(g);
        }
    }
    omp_set_num_threads(saved);
}

Test(io_parhip, real_weights_need_a_scale_and_round_as_documented)
{
    coarsen_graph *g = test_random_graph(30, 0.2, 2, 9);
    coarsen_error err = {0};
    const char *p = io_path("real.parhip");
    cr_assert_eq(coarsen_graph_write(g, p, COARSEN_FORMAT_PARHIP, 0, &err), COARSEN_ERR_INPUT);
    cr_assert(strstr(err.msg, "give a weight scale"), "%s", err.msg);
    struct stat st;
    cr_assert_neq(stat(p, &st), 0, "a refused write leaves no file");
    cr_assert_eq(coarsen_graph_write(g, p, COARSEN_FORMAT_PARHIP, 1000, &err), 0, "%s", err.msg);
    coarsen_graph *h = NULL;
    cr_assert_eq(coarsen_graph_load(p, &h, NULL, &err), 0, "%s", err.msg);
    cr_assert_eq(h->nnz, g->nnz);
    for (int64_t k = 0; k < g->nnz; k++) {
        double want = nearbyint(g->ewgt[k] * 1000);
        cr_assert_eq(h->ewgt[k], want < 1 ? 1 : want, "entry %lld", (long long)k);
    }
    coarsen_graph_free(h);
    /* A scale that rounds a weight to 0 is refused, naming the weight. */
    cr_assert_eq(coarsen_graph_write(g, p, COARSEN_FORMAT_PARHIP, 1e-9, &err), COARSEN_ERR_INPUT);
    cr_assert(strstr(err.msg, "outside the ParHIP range"), "%s", err.msg);
    coarsen_graph_free(g);
}

Test(io_parhip, shared_graphs_round_trip)
{
    const char *dir = test_data_dir();
    if (!dir)
        cr_skip_test("shared graphs absent (COARSEN_DATA or ../shared/data)");
    DIR *d = opendir(dir);
    cr_assert_not_null(d);
    int tried = 0, saved = omp_get_max_threads(), threads[] = {1, 2, omp_get_num_procs()};
    for (struct dirent *e; (e = readdir(d));) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        /* Graph files up to 1 MB stored (the large road networks would only slow the suite). */
        if (e->d_name[0] == '.' || strstr(e->d_name, "README") || stat(path, &st) || st.st_size > (1 << 20))
            continue;
        coarsen_graph *g = NULL;
        coarsen_error err = {0};
        if (coarsen_graph_load(path, &g, NULL, &err))
            continue; /* rectangular matrices are not graphs */
        int positive_integers = g->integral_weights;
        for (int64_t k = 0; k < g->nnz && positive_integers; k++)
            positive_integers = g->ewgt[k] >= 1;
        if (!positive_integers) {
            /* Real or zero weights (GD97_b, bayer10): the format holds integers >= 1
             * (the real-weight test covers the scale). */
            coarsen_graph_free(g);
            continue;
        }
        for (int t = 0; t < 3; t++) {
            omp_set_num_threads(threads[t]);
            const char *bin = io_path("shared.parhip");
            cr_assert_eq(coarsen_graph_write(g, bin, COARSEN_FORMAT_PARHIP, 0, &err), 0, "%s: %s", e->d_name,
                         err.msg);
            coarsen_graph *h = NULL;
            cr_assert_eq(coarsen_graph_load(bin, &h, NULL, &err), 0, "%s: %s", e->d_name, err.msg);
            io_expect_same_graph(g, h);
            coarsen_graph_free(h);
        }
        tried++;
        coarsen_graph_free(g);
    }
    closedir(d);
    omp_set_num_threads(saved);
    cr_assert_gt(tried, 10, "only %d shared graphs were read", tried);
}
