/* cmd_remap.c — the `coarsen remap` subcommand: relabels partition B's parts
 * to agree as much as possible with partition A's (bipartite/remap.h), prints
 * the agreement before and after, writes the relabelled partition. */
#include "bipartite/remap.h"
#include "cli/cli.h"
#include "core/error.h"
#include "io/line_values.h"
#include "io/output_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char help[] =
    "Usage: coarsen remap A.part B.part [-o OUT]\n"
    "Relabels the parts of partition B (one label per line, one line per vertex, as\n"
    "written by METIS and coarsen) so that as many vertices as possible carry the same\n"
    "label in A and B: the label permutation of maximum agreement, by the auction on\n"
    "the overlap matrix of the two partitions. Parts keep their vertices.\n\n"
    "Options:\n"
    "  -o, --output FILE      the relabelled partition B (.gz: gzip)\n\n";

static int local_option(int opt, const char *arg, void *ctx)
{
    if (opt != 'o')
        return -1;
    *(const char **)ctx = arg;
    return 0;
}

int cmd_remap(int argc, char **argv)
{
    static const struct option longopts[] = {
        CLI_GLOBAL_LONGOPTS,
        {"output", required_argument, 0, 'o'},
        {0, 0, 0, 0},
    };
    cli_globals glob = {.seed = 1};
    const char *output = NULL;
    int done;
    int rc = cli_parse_options(argc, argv, "remap", "o:", longopts, help, &glob, local_option, &output, &done);
    if (rc || done)
        return rc;
    if (argc - optind != 2)
        return cli_usage_error("remap ", "remap: need two partition files, A and B");
    if ((rc = cli_check_output(output)))
        return rc;
    rc = cli_start_device(&glob);
    if (rc)
        return rc;
    coarsen_error err = {0};
    int32_t *a = NULL, *b = NULL, *out = NULL;
    int64_t na = 0, nb = 0;
    bip_remap_result res = {0};
    rc = line_values_read_ints(argv[optind], 0, INT32_MAX, &a, &na, &err);
    if (!rc)
        rc = line_values_read_ints(argv[optind + 1], 0, INT32_MAX, &b, &nb, &err);
    if (!rc && na != nb)
        rc = error_set(&err, COARSEN_ERR_INPUT, "remap: %s has %lld lines, %s has %lld",
                       argv[optind], (long long)na, argv[optind + 1], (long long)nb);
    if (!rc && !(out = xmalloc(((size_t)na + 1) * sizeof *out, "relabelled partition", &err)))
        rc = COARSEN_ERR_NOMEM;
    if (!rc)
        rc = bip_remap(a, b, na, glob.use_gpu, out, &res, &err);
    if (!rc && output)
        rc = io_write_ints(output, out, na, &err);
    free(a);
    free(b);
    free(out);
    if (rc)
        return cli_fail(&err);
    double pct = na ? 100.0 / (double)na : 0;
    if (glob.json)
        printf("{\"vertices\": %lld, \"labels\": %d, \"agree_before\": %lld, \"agree_after\": %lld, "
               "\"proven_optimal\": %s}\n",
               (long long)na, res.k, (long long)res.agree_before, (long long)res.agree_after,
               res.proven_optimal ? "true" : "false");
    else
        printf("vertices: %lld, labels: %d\nagreement before: %lld (%.2f%%)\nagreement after: %lld (%.2f%%), %s\n",
               (long long)na, res.k, (long long)res.agree_before, (double)res.agree_before * pct,
               (long long)res.agree_after, (double)res.agree_after * pct,
               res.proven_optimal ? "proven optimal" : "not proven optimal");
    return 0;
}
