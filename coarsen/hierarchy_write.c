/* hierarchy_write.c — a hierarchy into a folder (hierarchy_write.h), all or
 * nothing: the paths written so far are kept and removed on any failure. */
#include "coarsen/hierarchy_write.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "coarsen/stats_json.h"
#include "core/error.h"
#include "core/timer.h"
#include "io/graph_format.h"
#include "io/int_text.h"
#include "io/output_file.h"
#include "io/row_writer.h"

/* The files written so far, removed again on failure. */
typedef struct written {
    char **paths;
    int count;
} written;

/* dir/name into path; error when it does not fit. */
static int join(char *path, size_t size, const char *dir, const char *name, coarsen_error *err)
{
    int len = snprintf(path, size, "%s/%s", dir, name);
    if (len < 0 || (size_t)len >= size)
        return error_set(err, COARSEN_ERR_INPUT, "%s: output folder name too long", dir);
    return COARSEN_OK;
}

static int remember(written *w, const char *path, coarsen_error *err)
{
    char **grown = realloc(w->paths, ((size_t)w->count + 1) * sizeof *grown);
    char *copy = strdup(path);
    if (!grown || !copy) {
        free(copy);
        if (grown)
            w->paths = grown;
        return error_nomem(err, "output file list", strlen(path));
    }
    w->paths = grown;
    w->paths[w->count++] = copy;
    return COARSEN_OK;
}

int hierarchy_write_check(const coarsen_graph *g, const hierarchy_write_opts *o, coarsen_error *err)
{
    if (o->format != COARSEN_FORMAT_MTX && !g->integral_weights && !(o->weight_scale > 0))
        return error_set(err, COARSEN_ERR_INPUT,
                         "the graph has real edge weights and %s files hold integers: use --format mtx "
                         "(exact) or --weight-scale S (weights times S, rounded)",
                         o->format == COARSEN_FORMAT_PARHIP ? "ParHIP" : "METIS");
    return COARSEN_OK;
}

static int write_stats(coarsen_hierarchy *h, const char *path, const hierarchy_write_opts *o, coarsen_error *err)
{
    output_file *f = output_open(path, err);
    if (!f)
        return err ? err->status : COARSEN_ERR_IO;
    stats_json_write(f, h, o->input, o->command_line, o->transversal, o->phases);
    return output_commit(f, err);
}

static char *vertex_weight_row(const void *ctx, int64_t row, char *out)
{
    out = int_text_put(out, ((const coarsen_graph *)ctx)->vwgt[row]);
    *out++ = '\n';
    return out;
}

/* One vertex weight per line: Matrix Market files cannot hold them. */
static int write_vertex_weights(const coarsen_graph *g, const char *path, coarsen_error *err)
{
    output_file *f = output_open(path, err);
    if (!f)
        return err ? err->status : COARSEN_ERR_IO;
    row_layout l = {.rows = g->n, .row_bytes = INT_TEXT_MAX + 1};
    int rc = row_writer_run(f, &l, vertex_weight_row, g, err);
    if (rc) {
        output_abort(f);
        return rc;
    }
    return output_commit(f, err);
}

static int write_all(coarsen_hierarchy *h, const char *dir, const hierarchy_write_opts *o, written *w,
                     coarsen_error *err)
{
    const char *ext = graph_format_ext(o->format), *gz = o->gzip ? ".gz" : "";
    char name[64], path[4096];
    int levels = coarsen_hierarchy_levels(h);
    for (int k = o->skip_level0 ? 1 : 0; k <= levels; k++) {
        const coarsen_graph *g;
        snprintf(name, sizeof name, "level-%d.%s%s", k, ext, gz);
        int rc = join(path, sizeof path, dir, name, err);
        if (!rc)
            rc = coarsen_hierarchy_graph(h, k, &g, err);
        if (!rc)
            rc = coarsen_graph_write(g, path, o->format, o->weight_scale, err);
        if (!rc)
            rc = remember(w, path, err);
        if (!rc && o->format == COARSEN_FORMAT_MTX) {
            snprintf(name, sizeof name, "level-%d.vwgt.txt%s", k, gz);
            rc = join(path, sizeof path, dir, name, err);
            if (!rc)
                rc = write_vertex_weights(g, path, err);
            if (!rc)
                rc = remember(w, path, err);
        }
        if (rc)
            return rc;
    }
    for (int k = 1; k <= levels; k++) {
        const int32_t *map;
        snprintf(name, sizeof name, "map-%d.txt%s", k, gz);
        int rc = join(path, sizeof path, dir, name, err);
        if (!rc)
            rc = coarsen_hierarchy_map(h, k, &map, err);
        if (!rc)
            rc = io_write_ints(path, map, coarsen_hierarchy_stats(h, k - 1)->vertices, err);
        if (!rc)
            rc = remember(w, path, err);
        if (rc)
            return rc;
    }
    if (o->phases) {
        run_phases *p = o->phases;
        output_totals t;
        output_totals_get(&t);
        p->download_ms = coarsen_hierarchy_download_ms(h);
        p->format_ms = t.format_s * 1e3;
        p->compress_ms = t.compress_s * 1e3;
        p->write_ms = t.write_s * 1e3;
        p->wall_ms = timer_ms() - o->run_start_ms;
    }
    int rc = join(path, sizeof path, dir, "stats.json", err);
    if (!rc)
        rc = write_stats(h, path, o, err);
    return rc ? rc : remember(w, path, err);
}

int hierarchy_write(coarsen_hierarchy *h, const char *dir, const hierarchy_write_opts *o, coarsen_error *err)
{
    int created = 0;
    if (mkdir(dir, 0777) == 0)
        created = 1;
    else if (errno != EEXIST)
        return error_set(err, COARSEN_ERR_IO, "%s: cannot create folder: %s", dir, strerror(errno));
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return error_set(err, COARSEN_ERR_IO, "%s: not a folder", dir);
    written w = {0};
    int rc = write_all(h, dir, o, &w, err);
    for (int k = 0; k < w.count; k++) {
        if (rc)
            unlink(w.paths[k]);
        free(w.paths[k]);
    }
    free(w.paths);
    if (rc && created)
        rmdir(dir);
    return rc;
}
