/* cmd_project.c — the `coarsen project DIR FILE` subcommand: carries one
 * value per vertex of level K of a hierarchy folder (written by `coarsen
 * --out DIR`: a partition, cluster ids, a vector) down to level J (default
 * 0) through the folder's maps, each value's text copied verbatim. */
#include "cli/cli.h"
#include "core/error.h"
#include "io/line_values.h"
#include "io/output_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char help[] =
    "Usage: coarsen project [OPTIONS] DIR FILE [-o OUT]\n"
    "Carries FILE, one value per line for the vertices of level K of the hierarchy that\n"
    "`coarsen --out DIR` wrote (a partition, cluster ids, a vector: any one word per line,\n"
    "copied as it is), down to level J through DIR's maps map-(J+1).txt .. map-K.txt\n"
    "(.gz too): line v of OUT is FILE's line for the level-K vertex that level-J vertex v\n"
    "is part of. A partition of level K projected to level 0 cuts the same weight.\n\n"
    "Options:\n"
    "  --level K              the level FILE belongs to (default: the level whose vertex\n"
    "                         count is FILE's line count; the levels' counts all differ)\n"
    "  --to J                 the level to carry FILE to (default 0)\n"
    "  -o, --output OUT       the result (.gz: gzip; default: standard output)\n\n";

enum { OPT_LEVEL = OPT_FIRST_LOCAL, OPT_TO };

typedef struct project_args {
    int level, to; /* -1: not given */
    const char *output;
} project_args;

static int local_option(int opt, const char *arg, void *ctx)
{
    project_args *a = ctx;
    long long v;
    switch (opt) {
    case OPT_LEVEL:
        if (cli_parse_long("level", arg, 0, 100000, &v))
            return -1;
        a->level = (int)v;
        return 0;
    case OPT_TO:
        if (cli_parse_long("to", arg, 0, 100000, &v))
            return -1;
        a->to = (int)v;
        return 0;
    case 'o':
        a->output = arg;
        return 0;
    }
    return -1;
}

/* The maps of a hierarchy folder: map[k] (1 <= k <= levels) sends the
 * n[k-1] vertices of level k-1 to level k's n[k]. */
typedef struct hierarchy_maps {
    int levels;
    int32_t **map;
    int64_t *n;
} hierarchy_maps;

static void maps_free(hierarchy_maps *m)
{
    for (int k = 1; k <= m->levels; k++)
        free(m->map[k]);
    free(m->map);
    free(m->n);
}

/* DIR/map-K.txt, or DIR/map-K.txt.gz when only that exists, into path;
 * 0 when neither exists. */
static int map_path(const char *dir, int k, char *path, size_t size)
{
    struct stat st;
    snprintf(path, size, "%s/map-%d.txt", dir, k);
    if (stat(path, &st) == 0)
        return 1;
    snprintf(path, size, "%s/map-%d.txt.gz", dir, k);
    return stat(path, &st) == 0;
}

/* Reads every map of dir and checks that each one's values index the next
 * one's lines. */
static int maps_load(const char *dir, hierarchy_maps *m, coarsen_error *err)
{
    memset(m, 0, sizeof *m);
    char path[4200];
    int levels = 0;
    while (map_path(dir, levels + 1, path, sizeof path))
        levels++;
    if (!levels)
        return error_set(err, COARSEN_ERR_IO, "%s: no map-1.txt or map-1.txt.gz: not a folder that coarsen --out wrote",
                         dir);
    m->map = xcalloc((size_t)levels + 1, sizeof *m->map, "the maps", err);
    m->n = m->map ? xcalloc((size_t)levels + 1, sizeof *m->n, "the level sizes", err) : NULL;
    if (!m->n)
        return COARSEN_ERR_NOMEM;
    for (int k = 1; k <= levels; k++) {
        map_path(dir, k, path, sizeof path);
        int64_t lines;
        int rc = line_values_read_ints(path, 0, INT32_MAX - 1, &m->map[k], &lines, err);
        if (rc)
            return rc;
        m->levels = k;
        if (k > 1 && lines != m->n[k - 1])
            return error_set(err, COARSEN_ERR_INPUT, "%s: %lld lines, but map-%d.txt maps onto %lld vertices", path,
                             (long long)lines, k - 1, (long long)m->n[k - 1]);
        m->n[k - 1] = lines;
        int32_t top = -1;
        for (int64_t v = 0; v < lines; v++)
            top = m->map[k][v] > top ? m->map[k][v] : top;
        m->n[k] = (int64_t)top + 1;
    }
    return COARSEN_OK;
}

/* The level of values: a->level, or the one whose size is count. */
static int find_level(const hierarchy_maps *m, const project_args *a, const char *file, int64_t count, int *level,
                      coarsen_error *err)
{
    if (a->level > m->levels)
        return error_set(err, COARSEN_ERR_INPUT, "--level %d: the folder has levels 0..%d", a->level, m->levels);
    for (int k = 0; k <= m->levels; k++)
        if (a->level == k || (a->level < 0 && m->n[k] == count)) {
            if (m->n[k] != count)
                return error_set(err, COARSEN_ERR_INPUT, "%s has %lld lines, but level %d has %lld vertices", file,
                                 (long long)count, k, (long long)m->n[k]);
            *level = k;
            return COARSEN_OK;
        }
    char sizes[512] = "";
    for (int k = 0, at = 0; k <= m->levels && at < (int)sizeof sizes - 24; k++)
        at += snprintf(sizes + at, sizeof sizes - (size_t)at, "%s%lld", k ? ", " : "", (long long)m->n[k]);
    return error_set(err, COARSEN_ERR_INPUT, "%s has %lld lines, which is no level's vertex count (levels 0..%d: %s)",
                     file, (long long)count, m->levels, sizes);
}

/* Writes, for each vertex of level `to`, the value of its level-`from` vertex. */
static int write_projection(const hierarchy_maps *m, const line_tokens *t, int from, int to, const char *output,
                            coarsen_error *err)
{
    output_file *f = output_open(output ? output : "-", err);
    if (!f)
        return err->status;
    for (int64_t v = 0; v < m->n[to] && !output_failed(f); v++) {
        int64_t c = v;
        for (int k = to + 1; k <= from; k++)
            c = m->map[k][c];
        output_write(f, t->start[c], (size_t)t->len[c]);
        output_write(f, "\n", 1);
    }
    return output_commit(f, err);
}

int cmd_project(int argc, char **argv)
{
    static const struct option longopts[] = {
        CLI_GLOBAL_LONGOPTS,
        {"level", required_argument, 0, OPT_LEVEL},
        {"to", required_argument, 0, OPT_TO},
        {"output", required_argument, 0, 'o'},
        {0, 0, 0, 0},
    };
    cli_globals glob = {.device = DEVICE_CPU, .seed = 1};
    project_args a = {.level = -1, .to = 0};
    int done;
    int rc = cli_parse_options(argc, argv, "project", "o:", longopts, help, &glob, local_option, &a, &done);
    if (rc || done)
        return rc;
    if (argc - optind != 2)
        return cli_usage_error("project ", "project needs DIR and FILE");
    if (a.level >= 0 && a.to > a.level)
        return cli_usage_error("project ", "--to %d is above --level %d: maps lead from fine to coarse levels", a.to,
                               a.level);
    if ((rc = cli_check_output(a.output)))
        return rc;
    const char *dir = argv[optind], *file = argv[optind + 1];
    coarsen_error err = {0};
    hierarchy_maps m;
    line_tokens t;
    memset(&t, 0, sizeof t);
    int level = 0;
    rc = maps_load(dir, &m, &err);
    if (!rc)
        rc = line_values_read_tokens(file, &t, &err);
    if (!rc)
        rc = find_level(&m, &a, file, t.count, &level, &err);
    if (!rc && a.to > level)
        rc = error_set(&err, COARSEN_ERR_INPUT, "--to %d is above %s's level %d", a.to, file, level);
    if (!rc)
        rc = write_projection(&m, &t, level, a.to, a.output, &err);
    if (!rc && !glob.quiet)
        fprintf(stderr, "coarsen: project: %lld values of level %d to the %lld vertices of level %d\n",
                (long long)t.count, level, (long long)m.n[a.to], a.to);
    line_tokens_free(&t);
    maps_free(&m);
    return rc ? cli_fail(&err) : 0;
}
