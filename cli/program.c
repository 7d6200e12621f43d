/* program.c — main() of the `coarsen` program: the command line of main.c
 * in a process that answers its caller before its teardown (exit_detach.h;
 * coarsen-mpi has its own main in dist/main.c and links the rest of cli/). */
#include "cli/cli.h"
#include "cli/exit_detach.h"

int main(int argc, char **argv)
{
    exit_detach_begin();
    return cli_main(argc, argv);
}
