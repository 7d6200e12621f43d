/* cmd_partition.c — the `coarsen partition` subcommand (placeholder until implemented). */
#include "cli/cli.h"

#include <stdio.h>

int cmd_partition(int argc, char **argv)
{
    (void)argc, (void)argv;
    fprintf(stderr, "coarsen: partition: not implemented yet\n");
    return 1;
}
