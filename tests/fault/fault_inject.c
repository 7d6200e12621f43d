/* fault_inject.c — the test build's fault injection (core/fault.h): strong
 * definitions of fault_write and fault_alloc, linked only into the program
 * coarsen-faulty (make check builds it beside coarsen), that fail the Nth
 * call as the environment says:
 *   COARSEN_FAULT_WRITE=N:ENOSPC, N:EIO or N:SHORT  the Nth write(2) of an
 *       output file (1-based, counted over the whole run) fails with that
 *       errno, or writes half its bytes (the writer then resumes);
 *   COARSEN_FAULT_ALLOC=N  the Nth xmalloc/xcalloc returns NULL;
 *   COARSEN_FAULT_FIRED=PATH  created when a fault is injected, so that a
 *       test looping over N knows when N has passed the run's last call.
 * Only the Nth call fails; the others go through. Counting is atomic, but
 * the Nth call is reproducible only with --threads 1. */
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/fault.h"

static atomic_long writes, allocs;

/* N from the variable's "N[:...]" (0 when unset or malformed). */
static long nth(const char *var, const char **rest)
{
    const char *s = getenv(var);
    char *end;
    long n = s ? strtol(s, &end, 10) : 0;
    if (!s || end == s || n < 1)
        return 0;
    *rest = end;
    return n;
}

static void fired(void)
{
    const char *path = getenv("COARSEN_FAULT_FIRED");
    int fd = path ? open(path, O_WRONLY | O_CREAT, 0600) : -1;
    if (fd >= 0)
        close(fd);
}

int fault_write(size_t *bytes)
{
    const char *how = "";
    long n = nth("COARSEN_FAULT_WRITE", &how);
    if (!n || atomic_fetch_add(&writes, 1) + 1 != n)
        return 0;
    fired();
    if (!strcmp(how, ":SHORT")) {
        *bytes = *bytes > 1 ? *bytes / 2 : 1;
        return 0;
    }
    return !strcmp(how, ":EIO") ? EIO : ENOSPC;
}

int fault_alloc(void)
{
    const char *rest;
    long n = nth("COARSEN_FAULT_ALLOC", &rest);
    if (!n || atomic_fetch_add(&allocs, 1) + 1 != n)
        return 0;
    fired();
    return 1;
}
