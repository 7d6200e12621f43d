/* cmd_bipartite.c — the `coarsen bipartite` subcommand (placeholder until implemented). */
#include "cli/cli.h"

#include <stdio.h>

int cmd_bipartite(int argc, char **argv)
{
    (void)argc, (void)argv;
    fprintf(stderr, "coarsen: bipartite: not implemented yet\n");
    return 1;
}
