/* exit_detach.c — the `coarsen` program answers its caller once its work is
 * done, not once its process has torn down (exit_detach.h). main() forks at
 * once: the first process, the one the caller waits for, only waits for the
 * second's exit status, which comes through a pipe once the second has
 * finished its files and closed its standard streams, and exits with it;
 * the second then returns its memory and its GPU context to the system on
 * its own (50-80 ms for a GB-sized run on the CPU, 100-200 ms with a CUDA
 * context: docs/benchmarks.md, session 16 and 17).
 *
 * Signals (core/interrupt.h). A signal from the terminal (Ctrl-C) reaches
 * both processes, which share a process group, so the first does not pass
 * it on; one sent to the first alone (kill PID, timeout) is passed on: the
 * first time queued, which the second's handler counts as a request, never
 * as the fatal second signal, then as kill sends it. If the first
 * process dies (SIGKILL), the second gets SIGKILL (PR_SET_PDEATHSIG). If
 * the second dies without reporting, the first exits as it did: the same
 * status, or the same signal. */
#include "cli/exit_detach.h"
#include "core/interrupt.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

static int report_fd = -1; /* the worker's end of the status pipe, or -1 */
static pid_t worker;        /* in the first process: the second's pid */

/* The first process: waits for the status and leaves with it. */
static _Noreturn void wait_for_worker(int fd)
{
    interrupt_pass_on_to(worker);
    unsigned char status;
    ssize_t r;
    while ((r = read(fd, &status, 1)) < 0 && errno == EINTR)
        ;
    if (r == 1)
        _exit(status);
    /* the worker ended without reporting: leave as it did */
    int ws = 0;
    while (waitpid(worker, &ws, 0) < 0 && errno == EINTR)
        ;
    if (WIFSIGNALED(ws)) {
        int sig = WTERMSIG(ws);
        signal(sig, SIG_DFL);
        sigset_t set;
        sigemptyset(&set);
        sigaddset(&set, sig);
        sigprocmask(SIG_UNBLOCK, &set, NULL);
        raise(sig);
    }
    _exit(WIFEXITED(ws) ? WEXITSTATUS(ws) : 1);
}

void exit_detach_begin(void)
{
#if defined(__SANITIZE_ADDRESS__)
    return; /* the leak check runs at the process's exit and must decide its status */
#else
    const char *one = getenv("COARSEN_ONE_PROCESS");
    if (one && *one && strcmp(one, "0") != 0)
        return;
    int fds[2];
    if (pipe2(fds, O_CLOEXEC))
        return; /* one process, as without detaching */
    /* with a standard stream closed, the pipe would take its number and
     * receive what the program writes there: above 2, the stream stays closed */
    for (int i = 0; i < 2; i++)
        if (fds[i] <= STDERR_FILENO) {
            int high = fcntl(fds[i], F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
            close(fds[i]);
            fds[i] = high;
        }
    if (fds[0] < 0 || fds[1] < 0) {
        if (fds[0] >= 0)
            close(fds[0]);
        if (fds[1] >= 0)
            close(fds[1]);
        return;
    }
    const pid_t first = getpid();
    fflush(NULL);
    const pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return;
    }
    if (pid > 0) {
        close(fds[1]);
        worker = pid;
        wait_for_worker(fds[0]);
    }
    close(fds[0]);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != first) /* the first died before prctl */
        _exit(128 + SIGKILL);
    report_fd = fds[1];
    interrupt_pass_on_from(first);
#endif
}

void exit_detach_report(int status)
{
    if (report_fd < 0)
        return;
    fflush(stdout);
    fflush(stderr);
    /* the caller's pipes see their end now, not after the teardown */
    int null = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (null >= 0) {
        dup2(null, STDIN_FILENO);
        dup2(null, STDOUT_FILENO);
        dup2(null, STDERR_FILENO);
        close(null);
    }
    unsigned char s = (unsigned char)status;
    while (write(report_fd, &s, 1) < 0 && errno == EINTR)
        ;
    close(report_fd);
    report_fd = -1;
}
