/* cmd_match.c — the `coarsen match` subcommand (placeholder until implemented). */
#include "cli/cli.h"

#include <stdio.h>

int cmd_match(int argc, char **argv)
{
    (void)argc, (void)argv;
    fprintf(stderr, "coarsen: match: not implemented yet\n");
    return 1;
}
