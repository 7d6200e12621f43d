/* test_cli_parhip.c — ParHIP binary files through the program: `coarsen
 * convert` between every format (graphs compared with the library's reading
 * of the source), files truncated at every length and corrupted byte by
 * byte are refused with exit 2 and one line, lying headers via the CLI,
 * standard input and gzip, the hierarchy's --format parhip, and KaMinPar's
 * own Python loader reading what we write (skipped when not installed). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/support/cli_run.h"
#include "tests/support/io_files.h"
#include "tests/support/test_support.h"

/* Runs `coarsen ARGS` with stderr captured into err (stdout discarded). */
static int run_err(const char *args, char *err, size_t size)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "%s %s 2>&1 >/dev/null", cli_prog(), args);
    return cli_run(cmd, err, size);
}

static void convert_ok(const char *opts, const char *in, const char *out)
{
    char args[2048], err[2048];
    snprintf(args, sizeof args, "convert --quiet %s %s %s", opts, in, out);
    int rc = run_err(args, err, sizeof err);
    cr_assert_eq(rc, 0, "coarsen %s: exit %d: %s", args, rc, err);
}

static coarsen_graph *load(const char *path)
{
    coarsen_graph *g = NULL;
    coarsen_error err = {0};
    cr_assert_eq(coarsen_graph_load(path, &g, NULL, &err), 0, "%s", err.msg);
    return g;
}

static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "%s", path);
    char *buf = malloc(1 << 20);
    *len = fread(buf, 1, 1 << 20, f);
    fclose(f);
    return buf;
}

/* `coarsen info FILE` must fail with exit 3 (bad input) and one line "coarsen: FILE...". */
static void expect_info_refuses(const char *path, const char *what, const char *expect)
{
    char args[1024], err[2048];
    snprintf(args, sizeof args, "info %s", path);
    int rc = run_err(args, err, sizeof err);
    cr_assert_eq(rc, EXIT_INPUT, "%s: exit %d (%s)", what, rc, err);
    char prefix[700];
    snprintf(prefix, sizeof prefix, "coarsen: %s", path);
    cr_assert(!strncmp(err, prefix, strlen(prefix)), "%s: '%s' does not name the file", what, err);
    cr_assert(strchr(err, '\n') == err + strlen(err) - 1, "%s: not one line: '%s'", what, err);
    if (expect)
        cr_assert(strstr(err, expect), "%s: '%s' lacks '%s'", what, err, expect);
}

static const char path_metis[] = "3 2\n2\n1 3\n2\n";
static const char path_metis_weighted[] = "3 2 11\n2 2 5\n1 1 5 3 7\n3 2 7\n";

Test(cli_parhip, convert_writes_the_documented_bytes_and_lies_are_refused)
{
    char bin[600], wbin[600];
    convert_ok("", io_file("p.graph", path_metis, 0), strcpy(bin, io_path("p.parhip")));
    convert_ok("", io_file("pw.graph", path_metis_weighted, 0), strcpy(wbin, io_path("pw.parhip")));
    size_t len, wlen;
    unsigned char *b = (unsigned char *)read_all(bin, &len), *w = (unsigned char *)read_all(wbin, &wlen);
    /* Words (little-endian uint64) as docs/formats.md lays them out. */
    const uint64_t want[] = {3, 3, 4, 56, 64, 80, 88, 1, 0, 2, 1};
    const uint64_t wwant[] = {0, 3, 4, 56, 64, 80, 88, 1, 0, 2, 1, 2, 1, 3, 5, 5, 7, 7};
    cr_assert_eq(len, sizeof want);
    cr_assert_eq(wlen, sizeof wwant);
    for (size_t k = 0; k < wlen; k++) {
        if (k < len)
            cr_assert_eq(b[k], (unsigned char)(want[k / 8] >> (8 * (k % 8))), "byte %zu", k);
        cr_assert_eq(w[k], (unsigned char)(wwant[k / 8] >> (8 * (k % 8))), "weighted byte %zu", k);
    }
    const struct {
        int weighted, word;
        uint64_t value;
        const char *what, *expect;
    } lies[] = {
        {0, 1, 4, "n too large", "needs 96 bytes but the file has 88"},
        {0, 1, 2, "n too small", "needs 80 bytes"},
        {0, 2, 6, "m too large", "needs 104 bytes"},
        {0, 2, 2, "m too small", "needs 72 bytes"},
        {0, 5, 56, "non-monotone offsets", "offsets decrease at vertex 2"},
        {0, 8, 7, "id out of range", "neighbour id 7"},
        {0, 10, 0, "asymmetric adjacency", "does not list"},
        {1, 15, 6, "edge weight mismatch", "has weight 5 in row 0 but 6 in row 1"},
        {1, 12, (uint64_t)-5, "negative vertex weight", "weight -5"},
    };
    for (size_t c = 0; c < sizeof lies / sizeof lies[0]; c++) {
        unsigned char buf[256];
        size_t n = lies[c].weighted ? wlen : len;
        memcpy(buf, lies[c].weighted ? w : b, n);
        for (int k = 0; k < 8; k++)
            buf[8 * lies[c].word + k] = (unsigned char)(lies[c].value >> (8 * k));
        expect_info_refuses(io_file_bytes("lie.parhip", buf, n, 0), lies[c].what, lies[c].expect);
    }
    free(b);
    free(w);
}

Test(cli_parhip, truncated_at_every_length_and_corrupted_bytes_exit_3)
{
    coarsen_graph *g = test_random_graph(7, 0.5, 1, 3);
    coarsen_error err = {0};
    char src[600], bin[600], narrow[600];
    strcpy(src, io_path("t.graph"));
    cr_assert_eq(coarsen_graph_write(g, src, COARSEN_FORMAT_METIS, 0, &err), 0, "%s", err.msg);
    coarsen_graph_free(g);
    convert_ok("", src, strcpy(bin, io_path("t.parhip")));
    convert_ok("--narrow", src, strcpy(narrow, io_path("t.bgf")));
    for (int file = 0; file < 2; file++) {
        size_t len;
        unsigned char *b = (unsigned char *)read_all(file ? narrow : bin, &len);
        for (size_t cut = 0; cut < len; cut++) {
            char what[64];
            snprintf(what, sizeof what, "file %d cut at %zu of %zu", file, cut, len);
            expect_info_refuses(io_file_bytes("cut.parhip", b, cut, 0), what, NULL);
            /* Without the name, by content (or as text when too short for a header). */
            expect_info_refuses(io_file_bytes("cut.bin", b, cut, 0), what, NULL);
        }
        for (size_t at = 0; at < len; at++) {
            char what[64];
            snprintf(what, sizeof what, "file %d byte %zu corrupted", file, at);
            b[at] ^= 0xff;
            const char *p = io_file_bytes("bad.parhip", b, len, 0);
            if (file == 0) {
                /* Wide and unweighted: every byte is checked (flags, sizes, aligned offsets, ids < 256). */
                expect_info_refuses(p, what, NULL);
            } else {
                /* Weights may take other valid values: refused cleanly or read. */
                char args[700], out[2048];
                snprintf(args, sizeof args, "info %s", p);
                int rc = run_err(args, out, sizeof out);
                cr_assert(rc == 0 || rc == EXIT_INPUT, "%s: exit %d (%s)", what, rc, out);
                if (rc == EXIT_INPUT)
                    expect_info_refuses(p, what, NULL);
            }
            b[at] ^= 0xff;
        }
        free(b);
    }
}

Test(cli_parhip, convert_between_every_format)
{
    coarsen_graph *ref = test_random_graph(300, 0.03, 1, 21);
    for (int32_t u = 0; u < ref->n; u++)
        ref->vwgt[u] = 1 + u % 4;
    coarsen_graph *unit_vw = test_random_graph(300, 0.03, 1, 21); /* what Matrix Market keeps */
    coarsen_error err = {0};
    char src[600];
    strcpy(src, io_path("c-src.graph"));
    cr_assert_eq(coarsen_graph_write(ref, src, COARSEN_FORMAT_METIS, 0, &err), 0, "%s", err.msg);
    static const char *const names[] = {"c.graph", "c.graph.gz", "c.metis", "c.mtx", "c.mtx.gz", "c.parhip",
                                        "c.parhip.gz", "c.bgf"};
    enum { N = sizeof names / sizeof names[0] };
    char paths[N][600];
    for (int k = 0; k < N; k++) {
        strcpy(paths[k], io_path(names[k]));
        convert_ok(strstr(names[k], ".bgf") ? "--narrow" : "", src, paths[k]);
    }
    for (int a = 0; a < N; a++)
        for (int b = 0; b < N; b++) {
            char out[600], name[64];
            snprintf(name, sizeof name, "x%d-%s", a, names[b]);
            strcpy(out, io_path(name));
            convert_ok("", paths[a], out);
            coarsen_graph *g = load(out);
            int lost_vw = strstr(names[a], ".mtx") || strstr(names[b], ".mtx");
            io_expect_same_graph(lost_vw ? unit_vw : ref, g);
            coarsen_graph_free(g);
        }
    /* --format overrides the name; "-" writes standard output. */
    char cmd[2048], out[600];
    strcpy(out, io_path("stdout.bin"));
    snprintf(cmd, sizeof cmd, "%s convert --quiet --format parhip %s - > %s", cli_prog(), src, out);
    cr_assert_eq(cli_run(cmd, NULL, 0), 0);
    coarsen_graph *g = load(out);
    io_expect_same_graph(ref, g);
    coarsen_graph_free(g);
    /* Standard input (a pipe: read whole, detected by content). */
    snprintf(cmd, sizeof cmd, "cat %s | %s convert --quiet - %s", paths[5], cli_prog(), io_path("fromstdin.graph"));
    cr_assert_eq(cli_run(cmd, NULL, 0), 0);
    g = load(io_path("fromstdin.graph"));
    io_expect_same_graph(ref, g);
    coarsen_graph_free(g);
    /* Errors: unknown extension, real weights without a scale, --narrow on text. */
    char errtext[2048];
    snprintf(cmd, sizeof cmd, "convert %s %s", src, io_path("c.txt"));
    cr_assert_eq(run_err(cmd, errtext, sizeof errtext), 2);
    cr_assert(strstr(errtext, "cannot tell the output format"), "%s", errtext);
    coarsen_graph *real = test_random_graph(20, 0.3, 2, 5);
    char rsrc[600];
    strcpy(rsrc, io_path("real.mtx"));
    cr_assert_eq(coarsen_graph_write(real, rsrc, COARSEN_FORMAT_MTX, 0, &err), 0);
    snprintf(cmd, sizeof cmd, "convert %s %s", rsrc, io_path("real.parhip"));
    cr_assert_eq(run_err(cmd, errtext, sizeof errtext), EXIT_INPUT);
    cr_assert(strstr(errtext, "give a weight scale"), "%s", errtext);
    snprintf(cmd, sizeof cmd, "convert --quiet --weight-scale 1000 %s %s", rsrc, io_path("real.parhip"));
    cr_assert_eq(run_err(cmd, errtext, sizeof errtext), 0, "%s", errtext);
    snprintf(cmd, sizeof cmd, "convert --narrow %s %s", src, io_path("n.graph"));
    cr_assert_eq(run_err(cmd, errtext, sizeof errtext), 2);
    /* The summary line. */
    snprintf(cmd, sizeof cmd, "convert %s %s", src, io_path("s.parhip"));
    cr_assert_eq(run_err(cmd, errtext, sizeof errtext), 0);
    cr_assert(strstr(errtext, "converted") && strstr(errtext, "300 vertices") && strstr(errtext, "(parhip)"), "%s",
              errtext);
    coarsen_graph_free(real);
    coarsen_graph_free(ref);
    coarsen_graph_free(unit_vw);
}

Test(cli_parhip, every_command_reads_binary_and_the_hierarchy_writes_it)
{
    coarsen_graph *ref = test_random_graph(400, 0.02, 1, 8);
    coarsen_error err = {0};
    char src[600], bin[600], d1[600], d2[600], cmd[4096];
    strcpy(src, io_path("h.graph"));
    cr_assert_eq(coarsen_graph_write(ref, src, COARSEN_FORMAT_METIS, 0, &err), 0);
    convert_ok("", src, strcpy(bin, io_path("h.parhip")));
    strcpy(d1, io_path("hier-metis"));
    strcpy(d2, io_path("hier-parhip"));
    snprintf(cmd, sizeof cmd, "%s --quiet --device cpu --levels 3 --coarsen-to 0 --out %s %s && "
             "%s --quiet --device cpu --levels 3 --coarsen-to 0 --out %s --format parhip %s",
             cli_prog(), d1, src, cli_prog(), d2, bin);
    cr_assert_eq(cli_run(cmd, NULL, 0), 0);
    for (int k = 0; k <= 3; k++) {
        char p1[700], p2[700];
        snprintf(p1, sizeof p1, "%s/level-%d.graph", d1, k);
        snprintf(p2, sizeof p2, "%s/level-%d.parhip", d2, k);
        coarsen_graph *a = load(p1), *b = load(p2);
        io_expect_same_graph(a, b);
        coarsen_graph_free(a);
        coarsen_graph_free(b);
    }
    snprintf(cmd, sizeof cmd, "%s match --quiet --device cpu %s -o %s && %s partition --quiet --device cpu -k 2 %s",
             cli_prog(), bin, io_path("mates.txt"), cli_prog(), bin);
    cr_assert_eq(cli_run(cmd, NULL, 0), 0);
    coarsen_graph_free(ref);
}

Test(cli_parhip, kaminpar_python_loader_reads_our_files)
{
    if (cli_run("python3 -c 'import kaminpar' 2>/dev/null", NULL, 0) != 0)
        cr_skip_test("python3 or its kaminpar package (pip install kaminpar) is not installed");
    coarsen_graph *g = test_random_graph(200, 0.05, 1, 77);
    for (int32_t u = 0; u < g->n; u++)
        g->vwgt[u] = 1 + u % 3;
    coarsen_error err = {0};
    char src[600];
    strcpy(src, io_path("k.graph"));
    cr_assert_eq(coarsen_graph_write(g, src, COARSEN_FORMAT_METIS, 0, &err), 0);
    for (int narrow = 0; narrow < 2; narrow++) {
        char bin[600], cmd[2048], out[8192];
        strcpy(bin, io_path(narrow ? "k-narrow.parhip" : "k.parhip"));
        convert_ok(narrow ? "--narrow" : "", src, bin);
        snprintf(cmd, sizeof cmd, "python3 tests/kaminpar_load.py %s 0 1 57 199 2>&1", bin);
        int rc = cli_run(cmd, out, sizeof out);
        if (rc == 77)
            cr_skip_test("the kaminpar Python package is not installed");
        cr_assert_eq(rc, 0, "kaminpar_load.py: %s", out);
        /* The same lines from our own graph. */
        char want[8192];
        int k = snprintf(want, sizeof want, "%d %lld\n", g->n, (long long)g->nnz);
        const int32_t us[] = {0, 1, 57, 199};
        for (int i = 0; i < 4; i++) {
            int32_t u = us[i];
            k += snprintf(want + k, sizeof want - (size_t)k, "%d %lld %lld", u, (long long)(g->xadj[u + 1] - g->xadj[u]),
                          (long long)g->vwgt[u]);
            k += snprintf(want + k, sizeof want - (size_t)k, " ");
            for (int64_t e = g->xadj[u]; e < g->xadj[u + 1]; e++)
                k += snprintf(want + k, sizeof want - (size_t)k, "%s%d:%lld", e > g->xadj[u] ? " " : "", g->adj[e],
                              (long long)g->ewgt[e]);
            k += snprintf(want + k, sizeof want - (size_t)k, "\n");
        }
        cr_assert_str_eq(out, want, "KaMinPar read (narrow %d):\n%s\nexpected:\n%s", narrow, out, want);
    }
    coarsen_graph_free(g);
}
