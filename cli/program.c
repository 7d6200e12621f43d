/* program.c — main() of the `coarsen` program: the command line of main.c
 * (coarsen-mpi has its own main in dist/main.c and links the rest of cli/). */
#include "cli/cli.h"

int main(int argc, char **argv) { return cli_main(argc, argv); }
