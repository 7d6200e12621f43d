/* fuzz_cli_options.c — libFuzzer target for the option parsing of every
 * command of the `coarsen` program. The input is cut at NUL bytes into at
 * most 24 arguments; its first byte picks the command (or none: the
 * pipeline, or the global options before a command). The line is run
 * through cli_dispatch with two "--help" appended, so that every option
 * before them is parsed (an option taking a value takes at most the first)
 * and then the help is printed instead of any work: the status must be 0
 * (help) or 2 (a usage error), anything else aborts. "--" is left out (it
 * would end the options before the help). Run with -close_fd_mask=3: the
 * help and the error lines go to standard output and error. Build: `make
 * fuzz`; run: docs/fuzzing.md. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

enum { MAX_ARGS = 24 };

static const char *const names[] = {"info",     "convert",  "gen",       "match", "partition", "project",
                                    "evaluate", "contract", "bipartite", "remap", "help"};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!size)
        return 0;
    char *text = malloc(size + 1);
    memcpy(text, data + 1, size - 1);
    text[size - 1] = 0;
    char *argv[MAX_ARGS + 6];
    int argc = 0;
    argv[argc++] = "coarsen";
    size_t pick = data[0] % (sizeof names / sizeof names[0] + 2);
    if (pick < sizeof names / sizeof names[0])
        argv[argc++] = (char *)names[pick];
    /* pick == count: the pipeline; count + 1: globals first, then a command among the arguments */
    for (char *p = text, *end = text + size - 1; p <= end && argc < MAX_ARGS + 2; p += strlen(p) + 1)
        if (strcmp(p, "--"))
            argv[argc++] = p;
    char help1[] = "--help", help2[] = "--help";
    argv[argc++] = help1;
    argv[argc++] = help2;
    argv[argc] = NULL;
    int status = cli_dispatch(argc, argv);
    if (status != EXIT_OK && status != EXIT_USAGE)
        abort();
    free(text);
    return 0;
}
