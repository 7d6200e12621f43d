/* fuzz_readers.c — libFuzzer target for the readers. The input bytes are
 * given, in memory, to the Matrix Market COO reader, the Matrix Market graph
 * reader, the METIS reader, the ParHIP binary reader and the format
 * dispatch; every
 * graph that comes out must satisfy every CSR invariant (abort otherwise),
 * and every failure must come with a one-line message. Both readers also run
 * cut into tiny chunks (io/line_chunks.h) and must give the same result or
 * the same error as in one piece. Build: `make fuzz`; run: docs/fuzzing.md. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "coarsen.h"
#include "io/graph_load.h"
#include "io/line_chunks.h"
#include "io/metis_read.h"
#include "io/mtx_read.h"
#include "io/parhip_read.h"

static void check_result(int rc, const coarsen_graph *g, const coarsen_error *err)
{
    if (rc) {
        if (g || !err->msg[0] || strchr(err->msg, '\n'))
            abort();
        return;
    }
    coarsen_error check = {0};
    if (!g || coarsen_graph_check(g, &check))
        abort();
}

static int same_graph(const coarsen_graph *a, const coarsen_graph *b)
{
    return a->n == b->n && a->nnz == b->nnz && !memcmp(a->xadj, b->xadj, ((size_t)a->n + 1) * sizeof *a->xadj) &&
           !memcmp(a->adj, b->adj, (size_t)a->nnz * sizeof *a->adj) &&
           !memcmp(a->ewgt, b->ewgt, (size_t)a->nnz * sizeof *a->ewgt) &&
           !memcmp(a->vwgt, b->vwgt, (size_t)a->n * sizeof *a->vwgt);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* The readers need the NUL after the text that text_input provides. */
    char *buf = malloc(size + 1);
    if (!buf)
        return 0;
    memcpy(buf, data, size);
    buf[size] = '\0';
    text_input t;
    text_input_wrap(&t, "fuzz", buf, size);

    coarsen_error err = {0};
    coarsen_graph *g = NULL;
    mtx_coo m, m2;
    int rc = mtx_read_coo_text(&t, &m, &err);
    coarsen_error err2 = {0};
    line_chunks_set_min_bytes(1 + size % 37);
    int rc2 = mtx_read_coo_text(&t, &m2, &err2);
    line_chunks_set_min_bytes((size_t)1 << 20);
    if (rc2 != rc || (rc && strcmp(err.msg, err2.msg)))
        abort();
    if (!rc) {
        for (int64_t k = 0; k < m.count; k++)
            if (m.i[k] < 0 || m.i[k] >= m.rows || m.j[k] < 0 || m.j[k] >= m.cols)
                abort();
        if (m2.count != m.count || memcmp(m.i, m2.i, (size_t)m.count * sizeof *m.i) ||
            memcmp(m.j, m2.j, (size_t)m.count * sizeof *m.j) ||
            memcmp(m.value, m2.value, (size_t)m.count * sizeof *m.value))
            abort();
        mtx_coo_free(&m);
        mtx_coo_free(&m2);
    }
    memset(&err, 0, sizeof err);
    rc = mtx_read_graph_text(&t, &g, NULL, &err);
    check_result(rc, g, &err);
    coarsen_graph_free(g);

    memset(&err, 0, sizeof err);
    g = NULL;
    line_chunks_set_min_bytes((size_t)1 << 20);
    rc = metis_read_graph_text(&t, &g, NULL, &err);
    check_result(rc, g, &err);
    memset(&err2, 0, sizeof err2);
    coarsen_graph *g2 = NULL;
    line_chunks_set_min_bytes(1 + size % 37);
    rc2 = metis_read_graph_text(&t, &g2, NULL, &err2);
    line_chunks_set_min_bytes((size_t)1 << 20);
    if (rc2 != rc || (rc && strcmp(err.msg, err2.msg)) || (!rc && !same_graph(g, g2)))
        abort();
    coarsen_graph_free(g);
    coarsen_graph_free(g2);

    memset(&err, 0, sizeof err);
    g = NULL;
    rc = parhip_read_buffer("fuzz", data, size, &g, NULL, &err);
    check_result(rc, g, &err);
    coarsen_graph_free(g);

    memset(&err, 0, sizeof err);
    g = NULL;
    rc = graph_load_text(&t, &g, NULL, &err);
    check_result(rc, g, &err);
    coarsen_graph_free(g);
    free(buf);
    return 0;
}
