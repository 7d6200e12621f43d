/* cmd_gen.c — the `coarsen gen` subcommand (placeholder until implemented). */
#include "cli/cli.h"

#include <stdio.h>

int cmd_gen(int argc, char **argv)
{
    (void)argc, (void)argv;
    fprintf(stderr, "coarsen: gen: not implemented yet\n");
    return 1;
}
