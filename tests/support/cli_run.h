/* cli_run.h — running the coarsen program under test from the CLI tests:
 * its path (COARSEN_PROG, which `make check` sets) and a shell command's
 * exit status with its standard output captured. */
#ifndef TESTS_SUPPORT_CLI_RUN_H
#define TESTS_SUPPORT_CLI_RUN_H

#include <stddef.h>

/* The program's path; skips the running test when COARSEN_PROG is unset. */
const char *cli_prog(void);

/* Runs the shell command cmd with its standard output into out (at most
 * size - 1 bytes, NUL-terminated; out NULL: discarded), through a
 * temporary file so that a long output never blocks the child.
 * The command chooses where its standard error goes ("2>&1" with stdout,
 * "2>/dev/null", or "2>&1 >/dev/null" to capture it alone). Returns the
 * exit status, -1 when the command did not exit normally. */
int cli_run(const char *cmd, char *out, size_t size);

#endif
