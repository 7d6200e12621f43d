/* cmd_coarsen.c — the `coarsen coarsen` subcommand (placeholder until implemented). */
#include "cli/cli.h"

#include <stdio.h>

int cmd_coarsen(int argc, char **argv)
{
    (void)argc, (void)argv;
    fprintf(stderr, "coarsen: coarsen: not implemented yet\n");
    return 1;
}
