/* main.c — the `coarsen` command line (cli_main): --version, top-level
 * --help and dispatch to the subcommand named by the first argument; anything
 * else runs the pipeline (cmd_coarsen.c). The program's main() is in
 * program.c, so that coarsen-mpi (dist/main.c) runs the same command line. */
#include "cli/cli.h"
#include "core/interrupt.h"

#include <stdio.h>
#include <string.h>

static const struct {
    const char *name;
    int (*run)(int, char **);
    const char *what;
} commands[] = {
    {"info", cmd_info, "describe a graph file"},
    {"convert", cmd_convert, "convert a graph between METIS, Matrix Market and ParHIP binary"},
    {"gen", cmd_gen, "generate a graph"},
    {"match", cmd_match, "compute a matching"},
    {"partition", cmd_partition, "partition a graph into k parts (multilevel, METIS on the coarsest level)"},
    {"bipartite", cmd_bipartite, "bipartite matching / assignment of a sparse matrix"},
    {"remap", cmd_remap, "relabel one partition's parts to agree with another's"},
};

static void usage(void)
{
    printf("Usage: coarsen [OPTIONS] FILE          build a coarsening hierarchy (see coarsen --help)\n"
           "       coarsen COMMAND [OPTIONS] ...   \n\nCommands:\n");
    for (size_t k = 0; k < sizeof commands / sizeof commands[0]; k++)
        printf("  %-10s %s\n", commands[k].name, commands[k].what);
    printf("\nEach command takes --help. Version %s.\n", COARSEN_VERSION);
}

int cli_main(int argc, char **argv)
{
    interrupt_install();
    device_preinit(); /* before the GPU start-up thread exists */
    if (argc >= 2 && !strcmp(argv[1], "--version")) {
        printf("coarsen %s (%s)\n", COARSEN_VERSION,
               device_built_with_cuda() ? "CUDA backend built in" : "CPU only");
        return 0;
    }
    if (argc >= 2 && !strcmp(argv[1], "commands")) {
        usage();
        return 0;
    }
    int status = -1;
    for (size_t k = 0; argc >= 2 && status < 0 && k < sizeof commands / sizeof commands[0]; k++)
        if (!strcmp(argv[1], commands[k].name))
            status = commands[k].run(argc - 1, argv + 1);
    if (status < 0)
        status = cmd_coarsen(argc, argv);
    /* also after a failure: a GPU start-up thread that --device auto left
     * unjoined may still be inside the driver, where the runtime's exit
     * handlers must not meet it */
    return cli_exit_fast(status);
}
