/* cli_run.c — the CLI tests' program path and command runner (cli_run.h). */
#include "tests/support/cli_run.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

const char *cli_prog(void)
{
    const char *p = getenv("COARSEN_PROG");
    if (!p)
        cr_skip_test("COARSEN_PROG not set (run through make check)");
    return p;
}

/* At most size - 1 bytes of path into out, NUL-terminated (out NULL: nothing). */
static void read_capture(const char *path, char *out, size_t size)
{
    if (!out || !size)
        return;
    FILE *f = fopen(path, "rb");
    out[f ? fread(out, 1, size - 1, f) : 0] = 0;
    if (f)
        fclose(f);
}

int cli_run(const char *cmd, char *out, size_t size)
{
    char capture[] = "/tmp/coarsen-cli-run-XXXXXX", *full = NULL; /* not io_path: callers may hold its storage */
    int fd = mkstemp(capture);
    cr_assert_geq(fd, 0, "no temporary file for the command's output");
    close(fd);
    cr_assert_geq(asprintf(&full, "( %s ) >%s", cmd, capture), 0);
    int rc = system(full);
    free(full);
    read_capture(capture, out, size);
    remove(capture);
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

int cli_run_prog(const char *args, char *out, size_t out_size, char *err, size_t err_size)
{
    char errfile[] = "/tmp/coarsen-cli-err-XXXXXX", *cmd = NULL;
    int fd = mkstemp(errfile);
    cr_assert_geq(fd, 0, "no temporary file for the command's errors");
    close(fd);
    cr_assert_geq(asprintf(&cmd, "%s %s 2>%s", cli_prog(), args, errfile), 0);
    int rc = cli_run(cmd, out, out_size);
    free(cmd);
    read_capture(errfile, err, err_size);
    remove(errfile);
    return rc;
}
