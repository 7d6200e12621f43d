/* transversal_graph.c — the graph of a matrix with its columns permuted by a
 * maximum transversal (transversal_graph.h). */
#include "coarsen/transversal_graph.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/error.h"
#include "core/graph_build.h"
#include "io/text_input.h"

const char *transversal_kind_name(bip_transversal_kind kind)
{
    return kind == BIP_TRANSVERSAL_PR ? "pr" : "weighted";
}

/* 0 when path starts with the Matrix Market banner (plain or gzip). Standard
 * input ("-") is not peeked at: the Matrix Market reader checks it. */
static int require_matrix_market(const char *path, coarsen_error *err)
{
    static const char banner[] = "%%MatrixMarket";
    char head[sizeof banner] = {0};
    if (!strcmp(path, "-"))
        return COARSEN_OK;
    text_input t;
    int rc = text_input_open(path, &t, err);
    if (rc)
        return rc;
    size_t got = text_input_wait(&t, sizeof banner - 1, NULL);
    if (got >= sizeof banner - 1)
        memcpy(head, t.data, sizeof banner - 1);
    text_input_free(&t);
    if (got < sizeof banner - 1 || strncasecmp(head, banner, sizeof banner - 1))
        return error_set(err, COARSEN_ERR_INPUT,
                         "%s: --transversal needs a Matrix Market matrix (this is not one: METIS graphs have "
                         "no columns to permute)",
                         path);
    return COARSEN_OK;
}

/* The graph of B (B[:, p] = A[:, col_perm[p]]) padded to a square. */
static int permuted_graph(const bip_graph *b, const int32_t *col_perm, coarsen_graph **out, coarsen_error *err)
{
    int32_t *pos = xmalloc(((size_t)b->cols + 1) * sizeof *pos, "column positions", err);
    edge_list e = {0};
    int rc = pos ? edge_list_init(&e, b->nnz, err) : COARSEN_ERR_NOMEM;
    if (!rc) {
        for (int32_t p = 0; p < b->cols; p++)
            pos[col_perm[p]] = p;
        for (int32_t r = 0; r < b->rows && !rc; r++)
            for (int64_t k = b->rptr[r]; k < b->rptr[r + 1] && !rc; k++)
                rc = edge_list_push(&e, r, pos[b->rind[k]], b->rval[k], err);
    }
    if (!rc) {
        graph_build_opts o = {.mirrored = 0, .dup_rule = MERGE_SUM, .sym_rule = MERGE_MAX};
        rc = graph_from_edges(b->rows > b->cols ? b->rows : b->cols, &e, &o, out, NULL, err);
    }
    edge_list_free(&e);
    free(pos);
    return rc;
}

int transversal_graph_load(const char *path, bip_transversal_kind kind, int use_gpu, coarsen_graph **out,
                           int32_t **col_perm, transversal_info *info, coarsen_error *err)
{
    *out = NULL;
    *col_perm = NULL;
    bip_graph *b = NULL;
    int rc = require_matrix_market(path, err);
    if (!rc)
        rc = bip_load(path, &b, err);
    if (rc)
        return rc;
    info->kind = kind;
    info->rows = b->rows;
    info->cols = b->cols;
    int32_t *perm = xmalloc(((size_t)b->cols + 1) * sizeof *perm, "column permutation", err);
    rc = perm ? bip_transversal(b, kind, use_gpu, perm, &info->res, err) : COARSEN_ERR_NOMEM;
    if (!rc)
        rc = permuted_graph(b, perm, out, err);
    bip_free(b);
    if (rc)
        free(perm);
    else
        *col_perm = perm;
    return rc;
}
