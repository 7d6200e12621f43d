/* cli.h — what the command files of the `coarsen` program share: the global
 * options every subcommand accepts, number parsing, error printing, and the
 * entry point of each subcommand (one file per subcommand, cmd_*.c). */
#ifndef CLI_CLI_H
#define CLI_CLI_H

#include <getopt.h>
#include <stdint.h>

#include "coarsen.h"
#include "device/device.h"

typedef struct cli_globals {
    device_mode device;  /* --device auto|cpu|gpu */
    int threads;         /* --threads N (0 = all cores) */
    uint64_t seed;       /* --seed S */
    int quiet;           /* --quiet: no progress on stderr */
    int json;            /* --json: machine-readable summary on stdout */
    int use_gpu;         /* resolved by cli_start_device / cli_device_finish */
    int began;           /* cli_device_begin ran */
    char device_why[256]; /* why the backend is the one it is (exec/device_choice.h) */
} cli_globals;

/* Option codes of the global options (above the range of short options). */
enum { OPT_DEVICE = 1000, OPT_THREADS, OPT_SEED, OPT_QUIET, OPT_JSON, OPT_HELP, OPT_FIRST_LOCAL = 1100 };

#define CLI_GLOBAL_LONGOPTS                                   \
    {"device", required_argument, 0, OPT_DEVICE},             \
    {"threads", required_argument, 0, OPT_THREADS},           \
    {"seed", required_argument, 0, OPT_SEED},                 \
    {"quiet", no_argument, 0, OPT_QUIET},                     \
    {"json", no_argument, 0, OPT_JSON},                       \
    {"help", no_argument, 0, OPT_HELP}

/* The help text of the global options, for each subcommand's --help. */
extern const char *const cli_global_help;

/* Handles a global option: 1 when opt was one (and was valid), 0 when it is
 * not a global option, -1 after printing an error. OPT_HELP is not handled
 * here: each subcommand prints its own help. */
int cli_global_option(int opt, const char *arg, cli_globals *g);

/* The option loop of a subcommand: --help prints help and the global options
 * (*done = 1, returns 0); an unknown option or a missing value prints one
 * line naming it and returns 2; global options go to g, the others to
 * local(opt, optarg, ctx), which returns 0, or -1 after printing one line
 * (then 2 is returned). On 0 with *done = 0, optind is the first operand.
 * cmd is the subcommand as typed after `coarsen` ("" for the pipeline). */
int cli_parse_options(int argc, char **argv, const char *cmd, const char *shortopts, const struct option *longopts,
                      const char *help, cli_globals *g, int (*local)(int opt, const char *arg, void *ctx), void *ctx,
                      int *done);

/* Applies --threads and resolves --device for a command whose input size is
 * not known (auto: the GPU when one is usable), printing the device line
 * under --device auto unless quiet. Returns 0 or an exit status after
 * printing the error. */
int cli_start_device(cli_globals *g);
/* The same in two halves around reading the input, so that the GPU's
 * start-up runs in a thread while the caller reads: begin applies --threads
 * and starts the thread, unless --device cpu, or auto with an input file
 * (input, may be NULL) too small to reach the GPU crossover
 * (exec/device_choice.h). finish decides by the graph's `entries`
 * (adjacency entries; < 0: unknown, as cli_start_device), joins the thread
 * when the GPU is wanted (a thread left unjoined ends on its own), sets
 * use_gpu and device_why, prints the device line as cli_start_device does.
 * *waited_ms (may be NULL) gets how long finish blocked. */
void cli_device_begin(cli_globals *g, const char *input);
int cli_device_finish(cli_globals *g, int64_t entries, double *waited_ms);

/* Strict number parsing for option values: the whole string must parse and
 * lie in [lo, hi]; on failure prints "coarsen: --NAME: ..." and returns -1. */
int cli_parse_long(const char *name, const char *s, long long lo, long long hi, long long *out);
int cli_parse_double(const char *name, const char *s, double lo, double hi, double *out);
/* --matcher handshake|redblue|hec (hec only with allow_hec): *kind = 0, 1
 * or 2 (the values of coarsen_matcher and matcher_kind); -1 after printing
 * the error. */
int cli_parse_matcher(const char *s, int allow_hec, int *kind);
/* --rating weight|expansion|expansion2; -1 after printing the error. */
int cli_parse_rating(const char *s, coarsen_rating *rating);
/* --ties hashed|id: *hashed = 1 or 0; -1 after printing the error. */
int cli_parse_ties(const char *s, int *hashed);

/* Ends a run that succeeded: flushes stdio and leaves the process at once
 * with status, leaving the graphs, the hierarchy and the GPU context to the
 * operating system, which reclaims them in one go (freeing them piece by
 * piece and tearing the CUDA context down cost hundreds of ms on GB-sized
 * runs). Every file is complete before (output_commit). Returns status
 * instead in builds with AddressSanitizer, whose leak check needs the frees. */
int cli_exit_fast(int status);
/* Called first by cli_exit_fast when set (NULL by default): coarsen-mpi
 * (dist/main.c) releases its worker processes and finalises MPI there, which
 * _exit would skip. It may run more than once and must allow that. */
extern void (*cli_exit_hook)(void);

/* Prints "coarsen: <msg>" on stderr and returns the exit status for err. */
int cli_fail(const coarsen_error *err);
/* Prints "coarsen: <formatted>" and "Try 'coarsen CMD --help'." and returns 2. */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Subcommands: argv[0] is the subcommand's name; each returns the exit status. */
int cmd_coarsen(int argc, char **argv);   /* the pipeline (default command) */
int cmd_info(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_gen(int argc, char **argv);
int cmd_match(int argc, char **argv);
int cmd_partition(int argc, char **argv);
int cmd_bipartite(int argc, char **argv);
int cmd_remap(int argc, char **argv);

/* The whole command line of the `coarsen` program (main.c): subcommand
 * dispatch, the pipeline otherwise; returns the exit status (or leaves
 * through cli_exit_fast). */
int cli_main(int argc, char **argv);

/* What the pipeline (cmd_coarsen.c) builds its hierarchy with:
 * coarsen_hierarchy_build, same contract; coarsen-mpi sets the distributed
 * builder (dist/dist.h), which gives the same hierarchy. */
extern int (*cli_hierarchy_builder)(const coarsen_graph *g, const coarsen_hierarchy_opts *opts,
                                    coarsen_hierarchy **out, coarsen_error *err);

#endif
