/* hierarchy_write.c — a hierarchy into a folder (hierarchy_write.h), all or
 * nothing: every file goes into a staging folder (io/staged_dir.h) and
 * replaces the folder's previous hierarchy only once all are written. */
#include "coarsen/hierarchy_write.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coarsen/stats_json.h"
#include "core/error.h"
#include "core/fixed_sum.h"
#include "core/lanes.h"
#include "core/threads.h"
#include "core/timer.h"
#include "io/graph_format.h"
#include "io/int_text.h"
#include "io/output_file.h"
#include "io/row_writer.h"
#include "io/staged_dir.h"

/* 1 when name is one this program writes into an output folder:
 * level-K.{graph,mtx,parhip,vwgt.txt}[.gz], map-K.txt[.gz], stats.json or
 * transversal.txt, K a decimal number as %d prints it. */
static int hierarchy_file_name(const char *name)
{
    if (!strcmp(name, "stats.json") || !strcmp(name, "transversal.txt"))
        return 1;
    const char *p;
    int level = !strncmp(name, "level-", 6);
    if (level)
        p = name + 6;
    else if (!strncmp(name, "map-", 4))
        p = name + 4;
    else
        return 0;
    if (!isdigit((unsigned char)p[0]) || (p[0] == '0' && isdigit((unsigned char)p[1])))
        return 0;
    while (isdigit((unsigned char)*p))
        p++;
    if (*p++ != '.')
        return 0;
    size_t len = strlen(p);
    if (len > 3 && !strcmp(p + len - 3, ".gz"))
        len -= 3;
    if (!level)
        return len == 3 && !strncmp(p, "txt", 3);
    if (len == 8 && !strncmp(p, "vwgt.txt", 8))
        return 1;
    for (int f = COARSEN_FORMAT_METIS; f <= COARSEN_FORMAT_PARHIP; f++) {
        const char *ext = graph_format_ext((coarsen_format)f);
        if (len == strlen(ext) && !strncmp(p, ext, len))
            return 1;
    }
    return 0;
}

int hierarchy_write_check(const coarsen_graph *g, const hierarchy_write_opts *o, coarsen_error *err)
{
    if (o->format == COARSEN_FORMAT_MTX || o->weight_scale > 0 || o->weight_scale == COARSEN_WEIGHT_UNIT)
        return COARSEN_OK;
    const char *fmt = o->format == COARSEN_FORMAT_PARHIP ? "ParHIP" : "METIS";
    if (!g->integral_weights)
        return error_set(err, COARSEN_ERR_INPUT,
                         "the graph has real edge weights and %s files hold integers: use --format mtx "
                         "(exact), --weight-scale S|auto (weights times S, rounded) or --unit-weights",
                         fmt);
    double total = fixed_sum_cpu(g->ewgt, g->nnz); /* the heaviest coarse edge weighs at most the total */
    if (total / 2 > 9.2e18)
        return error_set(err, COARSEN_ERR_INPUT,
                         "the graph's integer edge weights add up to %.17g, beyond the largest integer %s files hold "
                         "(9.2e18) that a coarse edge may reach: use --format mtx, --weight-scale S|auto or "
                         "--unit-weights", total / 2, fmt);
    return COARSEN_OK;
}

/* Longest file name written: "level-" or "map-", a level of at most 10
 * digits, ".vwgt.txt.gz". */
enum { HIERARCHY_NAME_MAX = 40 };

/* The names of the files written so far, for stats.json. */
typedef struct name_list {
    char (*name)[HIERARCHY_NAME_MAX];
    int count, cap;
} name_list;

static int write_stats(coarsen_hierarchy *h, const char *path, const hierarchy_write_opts *o, const name_list *l,
                       coarsen_error *err)
{
    output_file *f = output_open(path, err);
    if (!f)
        return err ? err->status : COARSEN_ERR_IO;
    const char **names = xmalloc((size_t)l->count * sizeof *names, "the output file names", err);
    if (!names) {
        output_abort(f);
        return COARSEN_ERR_NOMEM;
    }
    for (int k = 0; k < l->count; k++)
        names[k] = l->name[k];
    stats_json_files files = {names, l->count};
    stats_json_write(f, h, o, &files);
    free(names);
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

/* The path of name in s's staging folder into *path, name recorded in l;
 * COARSEN_OK or the error. */
static int staged(staged_dir *s, name_list *l, const char *name, const char **path, coarsen_error *err)
{
    if (l->count == l->cap) {
        int cap = l->cap ? 2 * l->cap : 64;
        void *names = realloc(l->name, (size_t)cap * sizeof *l->name);
        if (!names)
            return error_nomem(err, "the output file names", (size_t)cap * sizeof *l->name);
        l->name = names;
        l->cap = cap;
    }
    snprintf(l->name[l->count++], sizeof *l->name, "%s", name);
    *path = staged_dir_file(s, name, err);
    return *path ? COARSEN_OK : err ? err->status : COARSEN_ERR_IO;
}

/* One file of the hierarchy to write: a level's graph (with, for Matrix
 * Market, its vertex weights beside it), or integers one a line (a map, the
 * transversal). */
typedef enum { JOB_GRAPH, JOB_VERTEX_WEIGHTS, JOB_INTS } write_job_kind;

typedef struct write_job {
    write_job_kind kind;
    char *path;                 /* owned: the file in the staging folder */
    const coarsen_graph *g;     /* JOB_GRAPH, JOB_VERTEX_WEIGHTS: the level's host graph (the hierarchy's) */
    const int32_t *ints;        /* JOB_INTS: the values (the hierarchy's or the caller's) */
    int64_t n;                  /* JOB_INTS: how many */
} write_job;

typedef struct write_jobs {
    write_job *job;
    int64_t *cost; /* about the bytes of text each job writes (lanes.h: the larger go first) */
    int count, cap;
    const hierarchy_write_opts *o;
} write_jobs;

static int add_job(write_jobs *w, staged_dir *s, name_list *l, const char *name, write_job job, int64_t cost,
                   coarsen_error *err)
{
    const char *path;
    int rc = staged(s, l, name, &path, err);
    if (rc)
        return rc;
    if (w->count == w->cap) {
        int cap = w->cap ? 2 * w->cap : 64;
        write_job *jobs = realloc(w->job, (size_t)cap * sizeof *jobs);
        if (jobs)
            w->job = jobs;
        int64_t *costs = jobs ? realloc(w->cost, (size_t)cap * sizeof *costs) : NULL;
        if (!costs)
            return error_nomem(err, "the output file list", (size_t)cap * sizeof *jobs);
        w->cost = costs;
        w->cap = cap;
    }
    job.path = strdup(path);
    if (!job.path)
        return error_nomem(err, "the output file list", strlen(path));
    w->cost[w->count] = cost;
    w->job[w->count++] = job;
    return COARSEN_OK;
}

static int run_job(void *ctx, int i, coarsen_error *err)
{
    const write_jobs *w = ctx;
    const write_job *j = &w->job[i];
    switch (j->kind) {
    case JOB_GRAPH:
        return coarsen_graph_write(j->g, j->path, w->o->format, w->o->weight_scale, err);
    case JOB_VERTEX_WEIGHTS:
        return write_vertex_weights(j->g, j->path, err);
    default:
        return io_write_ints(j->path, j->ints, j->n, err);
    }
}

/* The files to write, in stats.json's order: levels (and their vertex
 * weights), maps, the transversal. Levels and maps on the device are
 * downloaded here, one after the other, before any file is written. */
static int plan_files(coarsen_hierarchy *h, staged_dir *s, name_list *l, write_jobs *w, coarsen_error *err)
{
    const hierarchy_write_opts *o = w->o;
    const char *ext = graph_format_ext(o->format), *gz = o->gzip ? ".gz" : "";
    char name[64];
    int levels = coarsen_hierarchy_levels(h), rc = COARSEN_OK;
    for (int k = o->skip_level0 ? 1 : 0; !rc && k <= levels; k++) {
        const coarsen_graph *g;
        snprintf(name, sizeof name, "level-%d.%s%s", k, ext, gz);
        rc = coarsen_hierarchy_graph(h, k, &g, err);
        if (!rc)
            rc = add_job(w, s, l, name, (write_job){.kind = JOB_GRAPH, .g = g}, g->nnz + g->n, err);
        if (!rc && o->format == COARSEN_FORMAT_MTX) {
            snprintf(name, sizeof name, "level-%d.vwgt.txt%s", k, gz);
            rc = add_job(w, s, l, name, (write_job){.kind = JOB_VERTEX_WEIGHTS, .g = g}, g->n, err);
        }
    }
    for (int k = 1; !rc && k <= levels; k++) {
        const int32_t *map;
        int64_t n = coarsen_hierarchy_stats(h, k - 1)->vertices;
        snprintf(name, sizeof name, "map-%d.txt%s", k, gz);
        rc = coarsen_hierarchy_map(h, k, &map, err);
        if (!rc)
            rc = add_job(w, s, l, name, (write_job){.kind = JOB_INTS, .ints = map, .n = n}, n, err);
    }
    if (!rc && o->transversal && o->permutation)
        rc = add_job(w, s, l, "transversal.txt",
                     (write_job){.kind = JOB_INTS, .ints = o->permutation, .n = o->transversal->cols},
                     o->transversal->cols, err);
    return rc;
}

static int write_all(coarsen_hierarchy *h, staged_dir *s, const hierarchy_write_opts *o, name_list *l,
                     coarsen_error *err)
{
    write_jobs w = {.o = o};
    int rc = plan_files(h, s, l, &w, err);
    output_totals before, after;
    output_totals_get(&before);
    double t0 = timer_ms();
    if (!rc)
        rc = lanes_run(w.count, w.cost, lanes_for_threads(threads_available()), run_job, &w, err);
    double span_ms = timer_ms() - t0;
    for (int i = 0; i < w.count; i++)
        free(w.job[i].path);
    free(w.job);
    free(w.cost);
    if (rc)
        return rc;
    if (o->phases) {
        /* Files written side by side overlap their formatting, compression
         * and writing: the step's wall time is split in proportion to the
         * times summed over the files. */
        run_phases *p = o->phases;
        output_totals_get(&after);
        double fm = (after.format_s - before.format_s) * 1e3, cm = (after.compress_s - before.compress_s) * 1e3,
               wm = (after.write_s - before.write_s) * 1e3, sum = fm + cm + wm;
        double scale = sum > span_ms && sum > 0 ? span_ms / sum : 1;
        p->download_ms = coarsen_hierarchy_download_ms(h);
        p->format_ms = fm * scale;
        p->compress_ms = cm * scale;
        p->write_ms = wm * scale;
        p->wall_ms = timer_ms() - o->run_start_ms;
    }
    const char *path;
    rc = staged(s, l, "stats.json", &path, err);
    return rc ? rc : write_stats(h, path, o, l, err);
}

int hierarchy_write(coarsen_hierarchy *h, const char *dir, const hierarchy_write_opts *o, coarsen_error *err)
{
    staged_dir *s = staged_dir_open(dir, err);
    if (!s)
        return err ? err->status : COARSEN_ERR_IO;
    name_list names = {0};
    int rc = write_all(h, s, o, &names, err);
    free(names.name);
    if (rc) {
        staged_dir_abort(s);
        return rc;
    }
    return staged_dir_commit(s, hierarchy_file_name, err);
}
