/* test_cli_coarsen.c — the `coarsen [OPTIONS] FILE` program (run as a
 * child process, COARSEN_PROG): --help, one-line errors with the documented
 * exit status for bad options (2), bad files (3) and missing ones (4), the per-level table and JSON, and --out:
 * every level and map file consistent (checked by independent recounts),
 * stats.json fields agreeing with the files, and no partial output after a
 * failure; the same bytes for 1 and 2 threads and through --gzip (inflated
 * by zlib), and --no-level0 skipping exactly level 0; reusing a folder:
 * a run replaces exactly the previous hierarchy's files (deeper levels,
 * another format, transversal.txt) and nothing else, a failed run leaves
 * the folder byte for byte as it was, no staging folder stays; with a GPU,
 * --device gpu writes the same files as --device cpu. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "gen/generators.h"
#include "tests/support/cli_run.h"
#include "tests/support/hierarchy_check.h"
#include "tests/support/test_support.h"

typedef struct result {
    int status;
    char out[1 << 16], err[1 << 14];
    int err_lines;
} result;

/* Reads at most size - 1 bytes of path into buf (NUL-terminated). */
static void slurp(const char *path, char *buf, size_t size)
{
    FILE *f = fopen(path, "rb");
    size_t len = f ? fread(buf, 1, size - 1, f) : 0;
    buf[len] = 0;
    if (f)
        fclose(f);
}

/* Runs COARSEN_PROG with args (a shell fragment) and captures its output. */
static void run_prog(const char *args, result *r)
{
    char err[] = "/tmp/coarsen-cli-err-XXXXXX";
    close(mkstemp(err));
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "%s %s 2>%s", cli_prog(), args, err);
    r->status = cli_run(cmd, r->out, sizeof r->out);
    slurp(err, r->err, sizeof r->err);
    unlink(err);
    r->err_lines = 0;
    for (const char *p = r->err; *p; p++)
        r->err_lines += *p == '\n';
}

/* A fresh empty folder name under /tmp (the folder itself not created). */
static void temp_dir(char *path, size_t size)
{
    snprintf(path, size, "/tmp/coarsen-cli-XXXXXX");
    cr_assert_not_null(mkdtemp(path));
    rmdir(path);
}

static void remove_tree(const char *dir)
{
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

/* Writes a generated graph to path; returns it (caller frees). */
static coarsen_graph *write_graph(const char *spec, const char *path, coarsen_format fmt)
{
    coarsen_error err = {0};
    gen_opts o;
    coarsen_graph *g = NULL;
    cr_assert_eq(gen_opts_parse_spec(spec, &o, &err), 0, "%s", err.msg);
    cr_assert_eq(gen_graph(&o, &g, &err), 0, "%s", err.msg);
    cr_assert_eq(coarsen_graph_write(g, path, fmt, 0, &err), 0, "%s", err.msg);
    return g;
}

static void assert_one_error_line(const result *r, int status, const char *what)
{
    cr_assert_eq(r->status, status, "%s: exit %d, stderr: %s", what, r->status, r->err);
    cr_assert_eq(r->err_lines, 1, "%s: %d stderr lines: %s", what, r->err_lines, r->err);
    cr_assert(!strncmp(r->err, "coarsen: ", 9), "%s: %s", what, r->err);
}

Test(cli_coarsen, help_lists_options)
{
    result r;
    run_prog("--help", &r);
    cr_assert_eq(r.status, 0);
    static const char *const opts[] = {"--levels", "--matcher", "--refine", "--coarsen-to", "--min-reduction",
                                       "--max-vertex-weight", "--two-hop-threshold", "--out", "--format",
                                       "--gzip", "--no-level0", "--device", "--json"};
    for (size_t k = 0; k < sizeof opts / sizeof opts[0]; k++)
        cr_assert(strstr(r.out, opts[k]), "--help does not mention %s", opts[k]);
}

Test(cli_coarsen, bad_options_and_files_exit_with_their_status_and_one_line)
{
    char dir[64], file[128], bad[128];
    temp_dir(dir, sizeof dir);
    mkdir(dir, 0777);
    snprintf(file, sizeof file, "%s/g.graph", dir);
    snprintf(bad, sizeof bad, "%s/bad.graph", dir);
    coarsen_graph_free(write_graph("grid2d:nx=10,ny=10", file, COARSEN_FORMAT_METIS));
    FILE *f = fopen(bad, "w");
    fputs("3 2\n2\n1 3\n9\n", f); /* neighbour 9 out of range */
    fclose(f);
    static const char *const cases[] = {
        "--levels x %s",         "--levels -1 %s",        "--bogus %s",
        "--matcher foo %s",      "--ties none %s",        "--refine x %s",
        "--format dot %s",       "--min-reduction 2 %s",  "--max-vertex-weight heavy %s",
        "--device tpu %s",       "--two-hop-threshold -1 %s", "%s %s",
        "--rating heavy %s",     "--vertex-weight-factor 1.5 %s", "--two-hop-relatives -1 %s",
        "--matcher hec --refine roma %s",                 "",                      "--levels",
    };
    char args[512];
    result r;
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        snprintf(args, sizeof args, cases[k], file, file);
        run_prog(args, &r);
        assert_one_error_line(&r, EXIT_USAGE, args);
    }
    snprintf(args, sizeof args, "--quiet %s/missing.graph", dir);
    run_prog(args, &r);
    assert_one_error_line(&r, EXIT_IO, "missing file");
    snprintf(args, sizeof args, "--quiet %s", bad);
    run_prog(args, &r);
    assert_one_error_line(&r, EXIT_INPUT, "malformed file");
    remove_tree(dir);
}

/* The number after "key": inside the object "section": {...} of json. */
static double json_number(const char *json, const char *section, const char *key)
{
    char pat[128];
    snprintf(pat, sizeof pat, "\"%s\": {", section);
    const char *obj = strstr(json, pat);
    cr_assert_not_null(obj, "JSON lacks %s", section);
    snprintf(pat, sizeof pat, "\"%s\": ", key);
    const char *p = strstr(obj, pat), *end = strchr(obj, '}');
    cr_assert(p && p < end, "JSON %s lacks %s", section, key);
    return strtod(p + strlen(pat), NULL);
}

/* Reads n integers, one per line, from a plain or gzip file. */
static int32_t *read_map(const char *path, int32_t n)
{
    gzFile f = gzopen(path, "rb");
    cr_assert_not_null(f, "%s missing", path);
    int32_t *m = malloc(((size_t)n + 1) * sizeof *m);
    char line[64];
    int32_t k = 0;
    while (gzgets(f, line, sizeof line)) {
        cr_assert_lt(k, n, "%s: more than %d lines", path, n);
        m[k++] = (int32_t)strtol(line, NULL, 10);
    }
    gzclose(f);
    cr_assert_eq(k, n, "%s: %d lines, expected %d", path, k, n);
    return m;
}

/* Reads the vertex weights of a Matrix Market level into g. */
static void read_vertex_weights(const char *dir, int k, const char *gz, coarsen_graph *g)
{
    char path[256];
    snprintf(path, sizeof path, "%s/level-%d.vwgt.txt%s", dir, k, gz);
    int32_t *w = read_map(path, g->n);
    for (int32_t v = 0; v < g->n; v++)
        g->vwgt[v] = w[v];
    free(w);
}

/* Runs `coarsen --out` on a generated graph and checks every file. */
static void check_out(const char *spec, const char *options, const char *ext)
{
    char dir[64], file[128], args[1024], path[256];
    temp_dir(dir, sizeof dir);
    snprintf(file, sizeof file, "%s.in.mtx", dir);
    coarsen_graph *g = write_graph(spec, file, COARSEN_FORMAT_MTX);
    snprintf(args, sizeof args, "--quiet --device cpu --coarsen-to 10 %s --out %s %s", options, dir, file);
    result r;
    run_prog(args, &r);
    cr_assert_eq(r.status, 0, "%s: %s", args, r.err);
    cr_assert_eq(r.out[0], 0, "--out without --json prints nothing on stdout: %s", r.out);
    snprintf(path, sizeof path, "%s/stats.json", dir);
    static char json[1 << 18];
    slurp(path, json, sizeof json);
    int levels = (int)json_number(json, "totals", "levels");
    cr_assert_eq(json_number(json, "options", "coarsen_to"), 10);
    cr_assert_geq(levels, 2, "%s", json);
    cr_assert(strstr(json, "\"stop_reason\": \""), "%s", json);
    cr_assert(strstr(json, "\"version\": \"" COARSEN_VERSION "\""), "%s", json);
    coarsen_error err = {0};
    coarsen_graph *fine = NULL;
    int64_t total_vwgt = 0;
    for (int k = 0; k <= levels; k++) {
        coarsen_graph *coarse = NULL;
        snprintf(path, sizeof path, "%s/level-%d.%s", dir, k, ext);
        cr_assert_eq(coarsen_graph_load(path, &coarse, NULL, &err), 0, "%s", err.msg);
        if (strstr(ext, "mtx"))
            read_vertex_weights(dir, k, strstr(ext, ".gz") ? ".gz" : "", coarse);
        if (k == 0) {
            cr_assert(coarse->n == g->n && coarse->nnz == g->nnz, "level 0 differs from the input");
            cr_assert(!memcmp(coarse->ewgt, g->ewgt, (size_t)g->nnz * sizeof *g->ewgt), "level 0 weights");
            for (int32_t v = 0; v < coarse->n; v++)
                total_vwgt += coarse->vwgt[v];
        } else {
            snprintf(path, sizeof path, "%s/map-%d.txt%s", dir, k, strstr(ext, ".gz") ? ".gz" : "");
            int32_t *map = read_map(path, fine->n);
            check_level(fine, coarse, map, 0, k, (uint64_t)k);
            free(map);
            coarsen_graph_free(fine);
        }
        /* the k-th entry of "levels" names this level's size */
        char key[64];
        snprintf(key, sizeof key, "{\"level\": %d, \"vertices\": ", k);
        const char *p = strstr(json, key);
        cr_assert_not_null(p, "stats.json lacks level %d", k);
        cr_assert_eq(strtol(p + strlen(key), NULL, 10), coarse->n, "stats.json level %d vertices", k);
        int64_t vw = 0;
        for (int32_t v = 0; v < coarse->n; v++)
            vw += coarse->vwgt[v];
        cr_assert_eq(vw, total_vwgt, "level %d file loses vertex weight", k);
        fine = coarse;
    }
    snprintf(path, sizeof path, "%s/level-%d.%s", dir, levels + 1, ext);
    cr_assert_neq(access(path, F_OK), 0, "a level beyond the reported count exists");
    coarsen_graph_free(fine);
    coarsen_graph_free(g);
    unlink(file);
    remove_tree(dir);
}

/* --levels N without --coarsen-to: a graph below coarsen-to's default
 * (100 vertices, grid 10 x 10) builds levels until it cannot shrink, for
 * both matchers; with --coarsen-to it stops there; the stop line names the
 * rule, a cap of 2 included. */
Test(cli_coarsen, levels_on_a_small_graph_never_block)
{
    char dir[64], file[128], args[512];
    temp_dir(dir, sizeof dir);
    mkdir(dir, 0777);
    snprintf(file, sizeof file, "%s/g.graph", dir);
    coarsen_graph_free(write_graph("grid2d:nx=10,ny=10", file, COARSEN_FORMAT_METIS));
    result r;
    static const char *const matchers[] = {"handshake", "hec"};
    for (int m = 0; m < 2; m++) {
        snprintf(args, sizeof args, "--device cpu --levels 20 --matcher %s %s", matchers[m], file);
        run_prog(args, &r);
        cr_assert_eq(r.status, 0, "%s: %s", args, r.err);
        cr_assert(strstr(r.out, "stopped: no-edges"), "%s:\n%s", args, r.out);
        cr_assert(strstr(r.out, "\n    1 "), "%s: level 1 missing:\n%s", args, r.out);
    }
    snprintf(args, sizeof args, "--device cpu --levels 20 --coarsen-to 1000 %s", file);
    run_prog(args, &r);
    cr_assert(strstr(r.out, "stopped: coarsen-to"), "%s:\n%s", args, r.out);
    snprintf(args, sizeof args, "--device cpu --levels 20 --max-vertex-weight 2 %s", file);
    run_prog(args, &r);
    cr_assert(strstr(r.out, "stopped: vertex-weight-cap (") && strstr(r.out, "the cap of 2 kept apart"), "%s:\n%s",
              args, r.out);
    remove_tree(dir);
}

Test(cli_coarsen, out_writes_consistent_metis_levels_maps_and_stats)
{
    check_out("rgg:n=3000,deg=8,weights=int,seed=2", "", "graph");
}

Test(cli_coarsen, out_mtx_gzip_keeps_real_weights)
{
    check_out("delaunay:nx=40,ny=40,weights=real", "--format mtx --gzip --levels 4", "mtx.gz");
}

Test(cli_coarsen, real_weights_into_metis_refused_before_any_output)
{
    char dir[64], file[128], args[512];
    temp_dir(dir, sizeof dir);
    snprintf(file, sizeof file, "%s.in.mtx", dir);
    coarsen_graph_free(write_graph("grid2d:nx=20,ny=20,weights=real", file, COARSEN_FORMAT_MTX));
    snprintf(args, sizeof args, "--quiet --out %s %s", dir, file);
    result r;
    run_prog(args, &r);
    assert_one_error_line(&r, EXIT_INPUT, "real weights into METIS");
    cr_assert(strstr(r.err, "--format mtx"), "the message names the way out: %s", r.err);
    cr_assert_neq(access(dir, F_OK), 0, "%s was created", dir);
    snprintf(args, sizeof args, "--quiet --weight-scale 1e9 --out %s %s", dir, file);
    run_prog(args, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    unlink(file);
    remove_tree(dir);
}

/* Names in dir other than "." and "..", sorted (strcmp), each followed by a space. */
static void list_dir(const char *dir, char *names, size_t size)
{
    struct dirent **list;
    int n = scandir(dir, &list, NULL, alphasort);
    cr_assert_geq(n, 0, "cannot list %s", dir);
    names[0] = 0;
    for (int k = 0; k < n; k++) {
        if (strcmp(list[k]->d_name, ".") && strcmp(list[k]->d_name, "..")) {
            strncat(names, list[k]->d_name, size - strlen(names) - 2);
            strcat(names, " ");
        }
        free(list[k]);
    }
    free(list);
}

Test(cli_coarsen, failed_write_leaves_no_partial_output)
{
    char dir[64], file[128], args[512], blocker[128], names[4096];
    temp_dir(dir, sizeof dir);
    snprintf(file, sizeof file, "%s.in.graph", dir);
    coarsen_graph_free(write_graph("grid2d:nx=30,ny=30", file, COARSEN_FORMAT_METIS));
    /* a folder named like map-2.txt: the levels and map 1 are written first, then renaming map 2 fails */
    mkdir(dir, 0777);
    snprintf(blocker, sizeof blocker, "%s/map-2.txt", dir);
    mkdir(blocker, 0777);
    snprintf(args, sizeof args, "--quiet --levels 3 --coarsen-to 0 --out %s %s", dir, file);
    result r;
    run_prog(args, &r);
    cr_assert_neq(r.status, 0, "the write should fail");
    cr_assert_eq(r.err_lines, 1, "%s", r.err);
    list_dir(dir, names, sizeof names);
    cr_assert_str_eq(names, "map-2.txt ", "left behind: %s", names);
    /* the same with the files written on two lanes at once (16 threads) */
    snprintf(args, sizeof args, "--quiet --threads 16 --levels 3 --coarsen-to 0 --out %s %s", dir, file);
    run_prog(args, &r);
    cr_assert_neq(r.status, 0, "the write should fail on lanes too");
    cr_assert_eq(r.err_lines, 1, "%s", r.err);
    cr_assert(strstr(r.err, "map-2.txt"), "the error names the file: %s", r.err);
    list_dir(dir, names, sizeof names);
    cr_assert_str_eq(names, "map-2.txt ", "left behind on lanes: %s", names);
    /* a folder that cannot be created: nothing created either */
    snprintf(args, sizeof args, "--quiet --out %s/sub %s", file, file);
    run_prog(args, &r);
    cr_assert_neq(r.status, 0);
    cr_assert_eq(r.err_lines, 1, "%s", r.err);
    unlink(file);
    remove_tree(dir);
}

Test(cli_coarsen, table_and_json_on_stdout)
{
    char file[] = "/tmp/coarsen-cli-table-XXXXXX";
    close(mkstemp(file));
    coarsen_graph_free(write_graph("grid2d:nx=40,ny=40", file, COARSEN_FORMAT_METIS));
    char args[512];
    result r;
    snprintf(args, sizeof args, "--device cpu --levels 3 --coarsen-to 0 %s", file);
    run_prog(args, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    int rows = 0;
    for (const char *p = r.out; (p = strchr(p, '\n')); p++)
        rows++;
    cr_assert_eq(rows, 1 + 4 + 2, "header, levels 0..3, stop line, total: %s", r.out);
    cr_assert(strstr(r.out, "stopped: levels"), "%s", r.out);
    cr_assert_eq(r.err_lines, 1 + 3 + 1 + 1, "level 0, three levels, the stop line and the time line: %s", r.err);
    cr_assert(strstr(r.err, "coarsen: level 3: "), "%s", r.err);
    const char *time_line = strstr(r.err, "coarsen: time: read ");
    cr_assert(time_line, "%s", r.err);
    cr_assert(strstr(time_line, "upload") && strstr(time_line, "levels") && strstr(time_line, "download") &&
                  strstr(time_line, "format") && strstr(time_line, "compress") && strstr(time_line, "write") &&
                  strstr(time_line, "wall"),
              "every phase named: %s", time_line);
    snprintf(args, sizeof args, "--quiet --json --levels 2 --coarsen-to 0 %s", file);
    run_prog(args, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert_eq(r.err[0], 0, "--quiet prints nothing on stderr: %s", r.err);
    cr_assert_eq(r.out[0], '{', "%s", r.out);
    cr_assert_eq(json_number(r.out, "totals", "levels"), 2);
    cr_assert(strstr(r.out, "\"stop_reason\": \"levels\""), "%s", r.out);
    cr_assert_eq(json_number(r.out, "totals", "vertices_in"), 1600);
    double read = json_number(r.out, "phases", "read_ms"), parse = json_number(r.out, "phases", "parse_ms");
    double levels = json_number(r.out, "phases", "levels_ms"), wall = json_number(r.out, "phases", "wall_ms");
    cr_assert(parse >= 0 && parse <= read && levels >= 0 && read + levels <= wall + 0.01,
              "read %g >= parse %g, read + levels %g <= wall %g", read, parse, levels, wall);
    unlink(file);
}

/* Every file of dir a but stats.json (and level-0.*, when skip0) is in dir b
 * with the same bytes; b's have ".gz" added when gz and are inflated by
 * zlib (all members). Returns how many files were compared. */
static int expect_same_files(const char *a, const char *b, int gz, int skip0)
{
    DIR *d = opendir(a);
    cr_assert_not_null(d);
    struct dirent *e;
    int compared = 0;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.' || !strcmp(e->d_name, "stats.json") || (skip0 && !strncmp(e->d_name, "level-0.", 8)))
            continue;
        char pa[512], pb[512];
        snprintf(pa, sizeof pa, "%s/%s", a, e->d_name);
        snprintf(pb, sizeof pb, "%s/%s%s", b, e->d_name, gz ? ".gz" : "");
        FILE *fa = fopen(pa, "rb");
        gzFile fb = gzopen(pb, "rb");
        cr_assert(fa && fb, "%s or %s missing", pa, pb);
        char x[1 << 16], y[1 << 16];
        size_t na;
        do {
            na = fread(x, 1, sizeof x, fa);
            int nb = gzread(fb, y, sizeof y);
            cr_assert(nb == (int)na && !memcmp(x, y, na), "%s and %s differ", pa, pb);
        } while (na);
        fclose(fa);
        gzclose(fb);
        compared++;
    }
    closedir(d);
    return compared;
}

Test(cli_coarsen, out_same_bytes_for_any_thread_count_gzip_and_no_level0)
{
    char d1[64], d2[64], d3[64], file[128], args[512], names[4096];
    temp_dir(d1, sizeof d1);
    temp_dir(d2, sizeof d2);
    temp_dir(d3, sizeof d3);
    snprintf(file, sizeof file, "%s.in.mtx", d1);
    coarsen_graph_free(write_graph("rgg:n=60000,deg=10,weights=real,seed=4", file, COARSEN_FORMAT_MTX));
    result r;
    const char *opts = "--quiet --format mtx --levels 3 --coarsen-to 0";
    snprintf(args, sizeof args, "%s --threads 1 --out %s %s", opts, d1, file);
    run_prog(args, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    snprintf(args, sizeof args, "%s --threads 2 --out %s %s", opts, d2, file);
    run_prog(args, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert_eq(expect_same_files(d1, d2, 0, 0), 4 * 2 + 3, "levels 0..3 with vertex weights, maps 1..3");
    /* 16 threads write the files on two lanes at once (core/lanes.h) */
    snprintf(args, sizeof args, "%s --threads 16 --out %s %s", opts, d2, file);
    run_prog(args, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert_eq(expect_same_files(d1, d2, 0, 0), 4 * 2 + 3, "16 threads: levels 0..3 with vertex weights, maps 1..3");
    snprintf(args, sizeof args, "%s --gzip --no-level0 --out %s %s", opts, d3, file);
    run_prog(args, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert_eq(expect_same_files(d1, d3, 1, 1), 3 * 2 + 3, "levels 1..3 with vertex weights, maps 1..3");
    list_dir(d3, names, sizeof names);
    cr_assert_null(strstr(names, "level-0."), "--no-level0 wrote level 0: %s", names);
    cr_assert(strstr(names, "stats.json") && strstr(names, "map-1.txt.gz"), "%s", names);
    unlink(file);
    remove_tree(d1);
    remove_tree(d2);
    remove_tree(d3);
}

Test(cli_coarsen_gpu, gpu_and_cpu_write_identical_files)
{
    if (!test_have_gpu())
        cr_skip_test("no GPU (or built without CUDA): --device gpu output not compared");
    char cpu_dir[64], gpu_dir[64], file[128], args[512];
    temp_dir(cpu_dir, sizeof cpu_dir);
    temp_dir(gpu_dir, sizeof gpu_dir);
    snprintf(file, sizeof file, "%s.in.mtx", cpu_dir);
    coarsen_graph_free(write_graph("rgg:n=20000,deg=10,weights=real,seed=9", file, COARSEN_FORMAT_MTX));
    result r;
    snprintf(args, sizeof args, "--quiet --device cpu --format mtx --coarsen-to 50 --out %s %s", cpu_dir, file);
    run_prog(args, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    snprintf(args, sizeof args, "--quiet --device gpu --format mtx --coarsen-to 50 --out %s %s", gpu_dir, file);
    run_prog(args, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "diff -r -q -x stats.json %s %s >/dev/null", cpu_dir, gpu_dir);
    cr_assert_eq(system(cmd), 0, "level or map files differ between --device cpu and --device gpu");
    unlink(file);
    remove_tree(cpu_dir);
    remove_tree(gpu_dir);
}

/* --device gpu where no GPU can run: the input is read while the GPU would
 * start up, then the run stops with the device's one-line error and exit 6,
 * nothing on stdout. */
Test(cli_coarsen, device_gpu_without_a_gpu_is_one_error_line_and_exit_6)
{
    if (test_have_gpu())
        cr_skip_test("a GPU is usable here: --device gpu runs");
    char file[] = "/tmp/coarsen-cli-nogpu-XXXXXX";
    close(mkstemp(file));
    coarsen_graph_free(write_graph("grid2d:nx=30,ny=30", file, COARSEN_FORMAT_METIS));
    char args[512];
    result r;
    snprintf(args, sizeof args, "--device gpu --levels 3 %s", file);
    run_prog(args, &r);
    cr_assert_eq(r.status, EXIT_DEVICE, "%s", r.err);
    cr_assert_eq(r.err_lines, 1, "%s", r.err);
    cr_assert(strstr(r.err, "CUDA") || strstr(r.err, "GPU"), "%s", r.err);
    cr_assert_eq(r.out[0], 0, "%s", r.out);
    unlink(file);
}

/* A file holding text. */
static void put_file(const char *dir, const char *name, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "%s", path);
    fputs(text, f);
    fclose(f);
}

/* A deep hierarchy with transversal.txt, then a 3-level run into the same
 * folder: exactly the 3-level run's files remain, with the user's files
 * (names that merely look like ours included) untouched. */
Test(cli_coarsen, rerun_into_folder_replaces_the_previous_hierarchy_only)
{
    char dir[64], file[128], args[512], names[4096], text[64];
    temp_dir(dir, sizeof dir);
    snprintf(file, sizeof file, "%s.in.mtx", dir);
    coarsen_graph_free(write_graph("grid2d:nx=40,ny=40", file, COARSEN_FORMAT_MTX));
    mkdir(dir, 0777);
    static const char *const user[] = {"notes.txt", "level-2.graph.orig", "level-07.graph", "map-x.txt"};
    for (size_t k = 0; k < sizeof user / sizeof user[0]; k++)
        put_file(dir, user[k], "keep me\n");
    result r;
    snprintf(args, sizeof args, "--quiet --levels 10 --coarsen-to 0 --min-reduction 0 --transversal pr --out %s %s",
             dir, file);
    run_prog(args, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    list_dir(dir, names, sizeof names);
    cr_assert(strstr(names, "level-5.graph ") && strstr(names, "map-5.txt ") && strstr(names, "transversal.txt "),
              "the first run wrote more than 3 levels and the permutation: %s", names);
    snprintf(args, sizeof args, "--quiet --levels 3 --coarsen-to 0 --min-reduction 0 --out %s %s", dir, file);
    run_prog(args, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    list_dir(dir, names, sizeof names);
    cr_assert_str_eq(names,
                     "level-0.graph level-07.graph level-1.graph level-2.graph level-2.graph.orig level-3.graph "
                     "map-1.txt map-2.txt map-3.txt map-x.txt notes.txt stats.json ",
                     "the folder holds: %s", names);
    for (size_t k = 0; k < sizeof user / sizeof user[0]; k++) {
        char path[256];
        snprintf(path, sizeof path, "%s/%s", dir, user[k]);
        slurp(path, text, sizeof text);
        cr_assert_str_eq(text, "keep me\n", "%s changed", path);
    }
    /* a replaced file holds the second run's bytes (stats.json names its
     * command line), and nothing of the first run stays in the folder */
    char path[256], stats[8192];
    snprintf(path, sizeof path, "%s/stats.json", dir);
    slurp(path, stats, sizeof stats);
    cr_assert(strstr(stats, "--levels 3") && !strstr(stats, "--levels 10"), "stats.json is not the second run's");
    cr_assert_null(strstr(names, ".coarsen-staging"), "a staging folder stayed: %s", names);
    unlink(file);
    remove_tree(dir);
}

/* METIS level files, then Matrix Market with --gzip: no .graph level stays. */
Test(cli_coarsen, rerun_in_another_format_removes_the_old_format_levels)
{
    char dir[64], file[128], args[512], names[4096];
    temp_dir(dir, sizeof dir);
    snprintf(file, sizeof file, "%s.in.graph", dir);
    coarsen_graph_free(write_graph("grid2d:nx=30,ny=30", file, COARSEN_FORMAT_METIS));
    result r;
    snprintf(args, sizeof args, "--quiet --levels 4 --coarsen-to 0 --min-reduction 0 --out %s %s", dir, file);
    run_prog(args, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    snprintf(args, sizeof args, "--quiet --levels 2 --coarsen-to 0 --format mtx --gzip --out %s %s", dir, file);
    run_prog(args, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    list_dir(dir, names, sizeof names);
    cr_assert_str_eq(names,
                     "level-0.mtx.gz level-0.vwgt.txt.gz level-1.mtx.gz level-1.vwgt.txt.gz level-2.mtx.gz "
                     "level-2.vwgt.txt.gz map-1.txt.gz map-2.txt.gz stats.json ",
                     "the folder holds: %s", names);
    unlink(file);
    remove_tree(dir);
}

/* A graph of n vertices of which the first 2000 form a path, the rest
 * isolated: its level files are much smaller than its maps. */
static void write_sparse_graph(const char *path, int n)
{
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "%s", path);
    fprintf(f, "%d %d\n", n, 1999);
    for (int v = 1; v <= n; v++) {
        if (v > 1 && v <= 2000)
            fprintf(f, "%d ", v - 1);
        if (v < 2000)
            fprintf(f, "%d", v + 1);
        fputc('\n', f);
    }
    fclose(f);
}

/* A run that fails after writing some files (a file size limit that the
 * level files fit under and map-1 does not) into a folder holding another
 * complete hierarchy: every file byte for byte as before, nothing added. */
Test(cli_coarsen, failed_rerun_leaves_the_folder_as_it_was)
{
    char dir[64], copy[80], file[128], args[512], names[4096], cmd[512];
    temp_dir(dir, sizeof dir);
    snprintf(copy, sizeof copy, "%s.copy", dir);
    snprintf(file, sizeof file, "%s.in.graph", dir);
    write_sparse_graph(file, 100000);
    result r;
    /* the old hierarchy: level-0..5.graph, map-1..5.txt, names the failing run writes too */
    snprintf(args, sizeof args, "--quiet --levels 5 --coarsen-to 0 --out %s %s", dir, file);
    run_prog(args, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    put_file(dir, "notes.txt", "keep me\n");
    snprintf(cmd, sizeof cmd, "cp -a %s %s", dir, copy);
    cr_assert_eq(system(cmd), 0);
    /* level-1..3.graph are about 300 kB each, map-1.txt about 590 kB */
    struct rlimit old, lim;
    cr_assert_eq(getrlimit(RLIMIT_FSIZE, &old), 0);
    lim = old;
    lim.rlim_cur = 450000;
    cr_assert_eq(setrlimit(RLIMIT_FSIZE, &lim), 0);
    signal(SIGXFSZ, SIG_IGN);
    snprintf(args, sizeof args,
             "--quiet --no-level0 --levels 3 --coarsen-to 0 --min-reduction 0 --two-hop-threshold 2 --out %s %s",
             dir, file);
    run_prog(args, &r);
    cr_assert_eq(setrlimit(RLIMIT_FSIZE, &old), 0);
    cr_assert_eq(r.status, EXIT_IO, "the run should fail: %s", r.err);
    cr_assert_eq(r.err_lines, 1, "%s", r.err);
    cr_assert(strstr(r.err, "map-1.txt") && strstr(r.err, "write failed"),
              "the levels were written, map-1.txt failed: %s", r.err);
    snprintf(cmd, sizeof cmd, "diff -r %s %s >/dev/null", dir, copy);
    cr_assert_eq(system(cmd), 0, "the folder changed");
    list_dir(dir, names, sizeof names);
    cr_assert_null(strstr(names, ".coarsen-staging"), "a staging folder stayed: %s", names);
    /* the same run without the limit replaces the hierarchy, leaves no staging folder */
    run_prog(args, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    list_dir(dir, names, sizeof names);
    cr_assert_str_eq(names,
                     "level-1.graph level-2.graph level-3.graph map-1.txt map-2.txt map-3.txt notes.txt "
                     "stats.json ",
                     "the folder holds: %s", names);
    unlink(file);
    remove_tree(dir);
    remove_tree(copy);
}
