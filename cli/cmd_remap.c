/* cmd_remap.c — the `coarsen remap` subcommand (placeholder until implemented). */
#include "cli/cli.h"

#include <stdio.h>

int cmd_remap(int argc, char **argv)
{
    (void)argc, (void)argv;
    fprintf(stderr, "coarsen: remap: not implemented yet\n");
    return 1;
}
