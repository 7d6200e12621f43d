/* cli_run.h — running the coarsen program under test from the CLI tests:
 * its path (COARSEN_PROG, which `make check` sets) and a shell command's
 * exit status with its standard output captured. */
#ifndef TESTS_SUPPORT_CLI_RUN_H
#define TESTS_SUPPORT_CLI_RUN_H

#include <stddef.h>

/* The exit statuses as README.md and `coarsen --help` document them,
 * restated here so that the tests hold the program to the document. */
enum {
    EXIT_CHECK = 1,  /* a result failed its check (match --check) */
    EXIT_USAGE = 2,  /* bad option, value or operands */
    EXIT_INPUT = 3,  /* a malformed input */
    EXIT_IO = 4,     /* a file could not be read or written */
    EXIT_NOMEM = 5,  /* out of memory */
    EXIT_DEVICE = 6  /* the GPU failed or none is usable */
};

/* The program's path; skips the running test when COARSEN_PROG is unset. */
const char *cli_prog(void);

/* Runs the shell command cmd with its standard output into out (at most
 * size - 1 bytes, NUL-terminated; out NULL: discarded), through a
 * temporary file so that a long output never blocks the child.
 * The command chooses where its standard error goes ("2>&1" with stdout,
 * "2>/dev/null", or "2>&1 >/dev/null" to capture it alone). Returns the
 * exit status, -1 when the command did not exit normally. */
int cli_run(const char *cmd, char *out, size_t size);

/* Runs the program under test with args (a shell fragment): its standard
 * output into out, its standard error into err (either NULL: discarded;
 * sizes as cli_run's). Returns the exit status as cli_run does. */
int cli_run_prog(const char *args, char *out, size_t out_size, char *err, size_t err_size);

#endif
