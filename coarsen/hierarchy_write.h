/* hierarchy_write.h — writing a hierarchy into a folder: level-K graphs,
 * map-K.txt files, stats.json and transversal.txt (the output of `coarsen
 * --out DIR`), replacing the folder's previous hierarchy only when all of
 * them are written. */
#ifndef COARSEN_HIERARCHY_WRITE_H
#define COARSEN_HIERARCHY_WRITE_H

#include "coarsen.h"
#include "coarsen/run_phases.h"
#include "coarsen/transversal_graph.h"

typedef struct hierarchy_write_opts {
    coarsen_format format;    /* level-K.graph (METIS), level-K.mtx or level-K.parhip (binary) */
    int gzip;                 /* add .gz to the graph and map files */
    int skip_level0;          /* no level-0 graph (nor level-0.vwgt.txt): it is the input as read */
    double weight_scale;      /* METIS or ParHIP with real weights: > 0 scales and rounds, 0 refuses;
                                 COARSEN_WEIGHT_UNIT writes every edge weight as 1 */
    const char *input;        /* recorded in stats.json (may be NULL) */
    const char *command_line; /* recorded in stats.json (may be NULL) */
    const coarsen_read_report *reader; /* what the reader dropped or merged: stats.json's "reader"
                                          (may be NULL) */
    const transversal_info *transversal; /* recorded in stats.json (NULL without --transversal) */
    const int32_t *permutation; /* with transversal: its transversal->cols columns, written as
                                   transversal.txt (NULL: none) */
    run_phases *phases;       /* may be NULL; else its download and output phases are added to
                                 and it goes into stats.json, wall time up to that file */
    double run_start_ms;      /* timer_ms() at the run's start, for phases->wall_ms */
} hierarchy_write_opts;

/* Fails (COARSEN_ERR_INPUT, naming the way out) when g's weights cannot be
 * written in the chosen format: real weights into METIS or ParHIP without a
 * scale (nor unit weights), or integer weights whose total (the most a
 * coarse edge may weigh) is beyond the integers those files hold.
 * Every level has g's kind of weights, so callers check before building. */
int hierarchy_write_check(const coarsen_graph *g, const hierarchy_write_opts *o, coarsen_error *err);

/* Writes levels 0..L (1..L with o->skip_level0) (level-K.graph, level-K.parhip or level-K.mtx, plus for Matrix Market,
 * which has no vertex weights, level-K.vwgt.txt; ".gz" added with o->gzip), maps 1..L (map-K.txt: line
 * i = level-K vertex of level-(K-1) vertex i), transversal.txt (with o->permutation) and stats.json into dir
 * (created when missing; a path that is not a folder is refused).
 * All of them are written into a staging folder inside dir first (io/staged_dir.h); only when every one is
 * written are they renamed into dir, each over the file of the same name, and then the files of an earlier
 * run that this one does not produce are removed: only names of the forms above (any K, any format, with or
 * without .gz), never other files in dir. On failure before that dir is left exactly as it was (removed
 * when this call created it) and no staging folder remains. */
int hierarchy_write(coarsen_hierarchy *h, const char *dir, const hierarchy_write_opts *o, coarsen_error *err);

#endif
