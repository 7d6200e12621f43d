/* fuzz_readers.c — libFuzzer target for both readers. The input bytes are
 * given, as text in memory, to the Matrix Market COO reader, the Matrix
 * Market graph reader, the METIS reader and the format dispatch; every
 * graph that comes out must satisfy every CSR invariant (abort otherwise),
 * and every failure must come with a one-line message. Build: `make fuzz`;
 * run: docs/fuzzing.md. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "coarsen.h"
#include "io/graph_load.h"
#include "io/metis_read.h"
#include "io/mtx_read.h"

static void check_result(int rc, coarsen_graph *g, const coarsen_error *err)
{
    if (rc) {
        if (g || !err->msg[0] || strchr(err->msg, '\n'))
            abort();
        return;
    }
    coarsen_error check = {0};
    if (!g || coarsen_graph_check(g, &check))
        abort();
    coarsen_graph_free(g);
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
    mtx_coo m;
    int rc = mtx_read_coo_text(&t, &m, &err);
    if (!rc) {
        for (int64_t k = 0; k < m.count; k++)
            if (m.i[k] < 0 || m.i[k] >= m.rows || m.j[k] < 0 || m.j[k] >= m.cols)
                abort();
        mtx_coo_free(&m);
    }
    memset(&err, 0, sizeof err);
    rc = mtx_read_graph_text(&t, &g, NULL, &err);
    check_result(rc, g, &err);
    memset(&err, 0, sizeof err);
    g = NULL;
    rc = metis_read_graph_text(&t, &g, NULL, &err);
    check_result(rc, g, &err);
    memset(&err, 0, sizeof err);
    g = NULL;
    rc = graph_load_text(&t, &g, NULL, &err);
    check_result(rc, g, &err);
    free(buf);
    return 0;
}
