/* commands.c — the command table of the `coarsen` program and the dispatch
 * of a command line (cli_dispatch): --version, the top-level help (`coarsen
 * --help`, `coarsen help [COMMAND]`), global options typed before the
 * command's name, and the subcommand named by the first operand; anything
 * else runs the pipeline (cmd_coarsen.c). */
#include "cli/cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char *name;
    int (*run)(int, char **);
    const char *what;
} commands[] = {
    {"info", cmd_info, "describe a graph file: sizes, weights, degrees, what the reader merged"},
    {"convert", cmd_convert, "convert a graph between METIS, Matrix Market and ParHIP binary"},
    {"gen", cmd_gen, "generate a graph (grids, random geometric, Erdos-Renyi, R-MAT, meshes)"},
    {"match", cmd_match, "compute a matching (handshake, red/blue, ROMA refinement)"},
    {"partition", cmd_partition, "partition a graph into k parts (multilevel, METIS on the coarsest level)"},
    {"project", cmd_project, "carry a partition or vector of level K of a hierarchy back to level 0"},
    {"evaluate", cmd_evaluate, "cut, balance, part weights and connectivity of a partition"},
    {"contract", cmd_contract, "contract a graph by a clustering given as one cluster id per vertex"},
    {"bipartite", cmd_bipartite, "bipartite matching / assignment of a sparse matrix"},
    {"remap", cmd_remap, "relabel one partition's parts to agree with another's"},
    {"help", NULL, "this help, or a command's: coarsen help COMMAND"},
};
enum { COMMANDS = sizeof commands / sizeof commands[0] };

static int find_command(const char *name)
{
    for (int k = 0; k < COMMANDS; k++)
        if (!strcmp(name, commands[k].name))
            return k;
    return -1;
}

/* The commands, then the pipeline's help (the command without a name), the
 * global options and the exit statuses. */
static void usage(void)
{
    printf("Usage: coarsen [GLOBAL OPTIONS] COMMAND [OPTIONS] ...   (coarsen help COMMAND: its options)\n\n"
           "Commands:\n");
    for (int k = 0; k < COMMANDS; k++)
        printf("  %-10s %s\n", commands[k].name, commands[k].what);
    printf("Global options go before or after the command's name.\n\n%s%s%s\ncoarsen %s\n", cmd_coarsen_help(),
           cli_global_help, cli_exit_help, COARSEN_VERSION);
}

/* `coarsen help [COMMAND]`: argv[0] is "help". */
static int help(int argc, char **argv)
{
    if (argc < 2) {
        usage();
        return EXIT_OK;
    }
    if (argc > 2)
        return cli_usage_error("", "help takes one COMMAND");
    char flag[] = "--help";
    int k = find_command(argv[1]);
    if (!strcmp(argv[1], "coarsen")) { /* the pipeline has no command name */
        char *args[] = {argv[1], flag, NULL};
        return cmd_coarsen(2, args);
    }
    if (k < 0)
        return cli_usage_error("", "help: '%s' is not a command (coarsen --help lists them)", argv[1]);
    if (!commands[k].run)
        return usage(), EXIT_OK;
    char *args[] = {argv[1], flag, NULL};
    return commands[k].run(2, args);
}

/* The number of arguments from argv[1] on that are global options with
 * their values (--device X, --device=X, --threads N, --seed S, --quiet,
 * --json), stopping at the first that is not one. */
static int leading_globals(int argc, char **argv)
{
    static const char *const valued[] = {"--device", "--threads", "--seed"};
    int k = 1;
    while (k < argc) {
        const char *a = argv[k];
        if (!strcmp(a, "--quiet") || !strcmp(a, "--json")) {
            k++;
            continue;
        }
        int took = 0;
        for (int v = 0; v < 3 && !took; v++) {
            size_t len = strlen(valued[v]);
            if (!strncmp(a, valued[v], len) && a[len] == '=')
                took = 1;
            else if (!strcmp(a, valued[v]) && k + 1 < argc)
                took = 2;
        }
        if (!took)
            break;
        k += took;
    }
    return k - 1;
}

int cli_dispatch(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "--version")) {
        printf("coarsen %s (%s)\n", COARSEN_VERSION,
               device_built_with_cuda() ? "CUDA backend built in" : "CPU only");
        return EXIT_OK;
    }
    if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        usage();
        return EXIT_OK;
    }
    /* COMMAND after global options: move them behind the name, where the
     * command's own option loop reads them (argv is the program's to edit) */
    int globals = leading_globals(argc, argv);
    if (1 + globals < argc) {
        int k = find_command(argv[1 + globals]);
        if (k >= 0) {
            char *name = argv[1 + globals];
            memmove(argv + 2, argv + 1, (size_t)globals * sizeof *argv);
            argv[1] = name;
            return commands[k].run ? commands[k].run(argc - 1, argv + 1) : help(argc - 1, argv + 1);
        }
    }
    return cmd_coarsen(argc, argv);
}
