/* graph_load.c — coarsen_graph_load: a ParHIP binary file (by content or
 * name) goes to the binary reader (mmap'd); anything else is opened as text
 * (gzip by magic bytes, inflated in a thread; "-" = stdin) and goes to the
 * binary reader when it is ParHIP, to the Matrix Market reader when it starts
 * with the banner (which parses gzip input while it is inflated), to the
 * METIS reader otherwise. */
#include "io/graph_load.h"
#include "core/path_suffix.h"
#include "core/error.h"
#include "core/weight_sums.h"
#include "io/metis_read.h"
#include "io/mtx_read.h"
#include "io/parhip_read.h"

#include <string.h>
#include <strings.h>

/* A file named *.mtx (or *.mtx.gz) without the banner gets the Matrix Market
 * reader's "missing banner" error rather than a METIS parse error. */
static int looks_like_mtx_name(const char *name)
{
    return path_ends_with(name, ".mtx") || path_ends_with(name, ".mtx.gz");
}

int graph_load_text(text_input *t, coarsen_graph **out, coarsen_read_report *report, coarsen_error *err)
{
    coarsen_read_report local;
    if (!report)
        report = &local;
    memset(report, 0, sizeof *report);
    int rc;
    size_t head = text_input_wait(t, 8, NULL);
    if (parhip_looks_binary(t->data, head) || parhip_has_name(t->name)) {
        if (!(rc = text_input_finish(t, err)))
            rc = parhip_read_buffer(t->name, (const unsigned char *)t->data, t->len, out, report, err);
    } else if (mtx_has_banner(t) || looks_like_mtx_name(t->name)) {
        rc = mtx_read_graph_text(t, out, report, err);
    } else {
        rc = metis_read_graph_text(t, out, report, err);
    }
    report->bytes = (int64_t)t->len;
    report->inflate_ms = t->inflate_ms;
    return rc;
}

int coarsen_graph_load(const char *path, coarsen_graph **out, coarsen_read_report *report, coarsen_error *err)
{
    *out = NULL;
    int rc = parhip_read_file(path, out, report, err);
    if (rc == PARHIP_NOT_MINE) {
        text_input t;
        rc = text_input_open(path, &t, err);
        if (rc)
            return rc;
        rc = graph_load_text(&t, out, report, err);
        text_input_free(&t);
    }
    if (!rc && (rc = graph_check_weight_sums(path, *out, err))) {
        coarsen_graph_free(*out);
        *out = NULL;
    }
    return rc;
}
