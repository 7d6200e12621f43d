/* cmd_info.c — the `coarsen info` subcommand (placeholder until implemented). */
#include "cli/cli.h"

#include <stdio.h>

int cmd_info(int argc, char **argv)
{
    (void)argc, (void)argv;
    fprintf(stderr, "coarsen: info: not implemented yet\n");
    return 1;
}
