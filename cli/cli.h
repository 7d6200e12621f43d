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

/* The exit status of every subcommand (one table, printed by `coarsen
 * --help` from cli_exit_help and written in README.md): a library error
 * maps to the row of its coarsen_status (cli_fail), an interrupted run
 * exits 128 + the signal (130 for SIGINT, 143 for SIGTERM). */
enum {
    EXIT_OK = 0,
    EXIT_CHECK = 1,   /* a result failed the check asked for (match --check) */
    EXIT_USAGE = 2,   /* unknown option, bad option value, missing or extra operands */
    EXIT_INPUT = 3,   /* COARSEN_ERR_INPUT: a malformed input, or one beyond the limits */
    EXIT_IO = 4,      /* COARSEN_ERR_IO: a file could not be read or written */
    EXIT_NOMEM = 5,   /* COARSEN_ERR_NOMEM */
    EXIT_DEVICE = 6   /* COARSEN_ERR_DEVICE: the GPU failed, or none is usable for --device gpu */
};
/* The table above as help text, one line per status. */
extern const char *const cli_exit_help;

/* Option codes of the global options (above the range of short options). */
enum { OPT_DEVICE = 1000, OPT_THREADS, OPT_SEED, OPT_QUIET, OPT_JSON, OPT_HELP, OPT_FIRST_LOCAL = 1100 };

#define CLI_GLOBAL_LONGOPTS                                   \
    {"device", required_argument, 0, OPT_DEVICE},             \
    {"threads", required_argument, 0, OPT_THREADS},           \
    {"seed", required_argument, 0, OPT_SEED},                 \
    {"quiet", no_argument, 0, OPT_QUIET},                     \
    {"json", no_argument, 0, OPT_JSON},                       \
    {"help", no_argument, 0, OPT_HELP}

/* The options of the commands that write graph files: how edge weights
 * that METIS and ParHIP cannot hold (real, zero, huge) are written. */
enum { OPT_WEIGHT_SCALE = 1050, OPT_UNIT_WEIGHTS };
#define CLI_WEIGHT_LONGOPTS                                     \
    {"weight-scale", required_argument, 0, OPT_WEIGHT_SCALE},   \
    {"unit-weights", no_argument, 0, OPT_UNIT_WEIGHTS}
#define CLI_WEIGHT_HELP                                                                               \
    "  --weight-scale S|auto    METIS or ParHIP output of real edge weights: write round(w * S);\n"  \
    "                           auto: the largest power of two keeping the total within 2^31 - 1\n"  \
    "                           (32-bit METIS), the relative error of every weight stated on stderr\n" \
    "  --unit-weights           write every edge weight as 1 (zero or real weights into METIS)\n"
/* The value of weight_scale standing for --weight-scale auto until the
 * graph is known (cli_weight_scale_resolve). */
#define CLI_WEIGHT_SCALE_AUTO (-2.0)
/* Handles OPT_WEIGHT_SCALE and OPT_UNIT_WEIGHTS into *scale (a scale > 0,
 * CLI_WEIGHT_SCALE_AUTO or COARSEN_WEIGHT_UNIT; the last option given
 * wins): 1 when opt was one of them, 0 when not, -1 after printing an error. */
int cli_weight_option(int opt, const char *arg, double *scale);
/* Replaces CLI_WEIGHT_SCALE_AUTO in *scale by io/weight_scale.h's choice
 * for g, with one line on stderr unless quiet naming the scale and the
 * relative error; other values stay. 0, or the exit status after printing
 * the error. */
int cli_weight_scale_resolve(const coarsen_graph *g, double *scale, int quiet);

/* The help text of the global options, for each subcommand's --help. */
extern const char *const cli_global_help;

/* Handles a global option: 1 when opt was one (and was valid), 0 when it is
 * not a global option, -1 after printing an error. OPT_HELP is not handled
 * here: each subcommand prints its own help. */
int cli_global_option(int opt, const char *arg, cli_globals *g);

/* The option loop of a subcommand: --help (or -h) prints help, the global
 * options and the exit statuses (*done = 1, returns 0); an unknown option or
 * a missing value prints one line naming it and returns EXIT_USAGE; global options go to g, the others to
 * local(opt, optarg, ctx), which returns 0, or -1 after printing one line
 * (then EXIT_USAGE is returned). shortopts lists the short options as
 * getopt does, without a leading ':'. On 0 with *done = 0, optind is the first operand.
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

/* Checks output paths before any work (io/output_file.h's output_check;
 * for a folder that --out fills, io/staged_dir.h's staged_dir_check): 0,
 * or the exit status after printing the one-line error. NULL: nothing to
 * check. */
int cli_check_output(const char *path);
int cli_check_output_dir(const char *dir);

/* Warns on stderr, unless quiet, about what the reader of path dropped
 * that the graph cannot carry: METIS vertex weight constraints beyond the
 * first (ncon > 1; only the first is kept). */
void cli_reader_warnings(const char *path, const coarsen_read_report *r, int quiet);

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

/* Prints "coarsen: <msg>" on stderr and returns the exit status of
 * err->status (the table above). */
int cli_fail(const coarsen_error *err);
/* The exit status of a library status (the table above; 0 for COARSEN_OK). */
int cli_exit_status(int status);
/* Prints the one line "coarsen: <formatted> (see coarsen CMD --help)" and
 * returns EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Runs the command line argv (argv[0] the program; argv may be reordered):
 * --version, the help, or the command it names (the pipeline when it names
 * none); returns the exit status. Option parsing comes first in every
 * command and does nothing else, so that a line ending in --help runs no
 * work (fuzz/fuzz_cli_options.c relies on it). */
int cli_dispatch(int argc, char **argv);

/* Subcommands: argv[0] is the subcommand's name; each returns the exit status. */
int cmd_coarsen(int argc, char **argv);   /* the pipeline (default command) */
const char *cmd_coarsen_help(void);       /* the pipeline's options, for `coarsen --help` */
int cmd_info(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_gen(int argc, char **argv);
int cmd_match(int argc, char **argv);
int cmd_partition(int argc, char **argv);
int cmd_bipartite(int argc, char **argv);
int cmd_remap(int argc, char **argv);
int cmd_project(int argc, char **argv);
int cmd_evaluate(int argc, char **argv);
int cmd_contract(int argc, char **argv);

/* The whole command line of the `coarsen` program (main.c): subcommand
 * dispatch, the pipeline otherwise; returns the exit status (or leaves
 * through cli_exit_fast). */
int cli_main(int argc, char **argv);

/* What the pipeline (cmd_coarsen.c) builds its hierarchy with, and `partition`
 * its first cycle's (partition_opts.build_hierarchy):
 * coarsen_hierarchy_build, same contract; coarsen-mpi sets the distributed
 * builder (dist/dist.h), which gives the same hierarchy. */
extern int (*cli_hierarchy_builder)(const coarsen_graph *g, const coarsen_hierarchy_opts *opts,
                                    coarsen_hierarchy **out, coarsen_error *err);
/* What the pipeline (without --transversal) and `partition` read their input with:
 * coarsen_graph_load, same contract; coarsen-mpi sets a loader under which
 * every rank reads its share (dist/read.h), which gives the same graph and
 * the same errors. */
extern int (*cli_graph_loader)(const char *path, coarsen_graph **out, coarsen_read_report *report,
                               coarsen_error *err);

#endif
