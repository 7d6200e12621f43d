/* test_cli_exit_detach.c — the program answers from its first process while
 * a second does the work (cli/exit_detach.h): the second exists (and with
 * COARSEN_ONE_PROCESS=1 it does not), killing the first takes the second
 * with it, the second's death by a signal is the first's, and a signal to
 * the whole process group (both processes) stops the run once, cleanly.
 * The program reads a FIFO that the test holds open, so that it waits as
 * long as the test needs; /proc gives the processes' parents. Builds with
 * AddressSanitizer keep one process: the tests about the second skip.
 * The signal rules themselves (core/interrupt.h) are tested in this process:
 * a request passed on (queued by the passing process) is never the fatal
 * second signal, a second real one is. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/interrupt.h"
#include "tests/support/cli_run.h"
#include "tests/support/io_files.h"

extern char **environ;

static void nap_ms(long ms)
{
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

/* The processes whose parent is pid: their count, the first into *child. */
static int children_of(pid_t pid, pid_t *child)
{
    DIR *d = opendir("/proc");
    cr_assert(d, "/proc is needed");
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        char path[300], buf[512];
        if (e->d_name[0] < '1' || e->d_name[0] > '9')
            continue;
        snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        size_t len = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
        buf[len] = 0;
        char *close = strrchr(buf, ')'); /* the name may hold spaces and ')' */
        int ppid;
        char state;
        if (close && sscanf(close + 1, " %c %d", &state, &ppid) == 2 && ppid == pid) {
            if (child && !n)
                *child = (pid_t)atoi(e->d_name);
            n++;
        }
    }
    closedir(d);
    return n;
}

/* Starts `coarsen ARGS...` (stderr into err_path), in a process group of
 * its own when own_group. */
static pid_t start(const char *const *args, const char *err_path, int own_group)
{
    const char *argv[16] = {cli_prog()};
    int k = 1;
    for (; args[k - 1]; k++)
        argv[k] = args[k - 1];
    argv[k] = NULL;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawnattr_t at;
    posix_spawnattr_init(&at);
    if (own_group) {
        posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP);
        posix_spawnattr_setpgroup(&at, 0);
    }
    pid_t pid;
    cr_assert_eq(posix_spawn(&pid, argv[0], &fa, &at, (char *const *)argv, environ), 0);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    return pid;
}

/* A FIFO the program will read, and `coarsen info FIFO` started on it; *w
 * is the test's writing end once the program has opened the FIFO. */
static pid_t start_on_fifo(const char *name, int *w)
{
    char fifo[600], err[620];
    snprintf(fifo, sizeof fifo, "%s", io_path(name));
    snprintf(err, sizeof err, "%s.err", fifo);
    cr_assert_eq(mkfifo(fifo, 0600), 0, "mkfifo: %s", strerror(errno));
    const char *args[] = {"info", fifo, NULL};
    pid_t pid = start(args, err, 0);
    /* a writer opens without blocking only once a reader has the FIFO open */
    for (int i = 0; i < 1000 && (*w = open(fifo, O_WRONLY | O_NONBLOCK)) < 0; i++)
        nap_ms(10);
    cr_assert_geq(*w, 0, "the program never opened the FIFO");
    return pid;
}

/* The second process of pid, once it exists. */
static pid_t worker_of(pid_t pid)
{
    pid_t w = 0;
    for (int i = 0; i < 500 && children_of(pid, &w) == 0; i++)
        nap_ms(10);
    cr_assert_gt(w, 0, "no second process under %d", (int)pid);
    return w;
}

static void skip_without_detaching(void)
{
#if defined(__SANITIZE_ADDRESS__)
    cr_skip_test("AddressSanitizer builds keep one process (cli/exit_detach.h)");
#endif
}

Test(cli_exit_detach, one_process_switch_keeps_one)
{
    skip_without_detaching();
    for (int one = 0; one <= 1; one++) {
        if (one)
            setenv("COARSEN_ONE_PROCESS", "1", 1);
        int w;
        pid_t pid = start_on_fifo(one ? "fifo-one" : "fifo-two", &w);
        nap_ms(100);
        cr_expect_eq(children_of(pid, NULL), one ? 0 : 1, "COARSEN_ONE_PROCESS=%d", one);
        cr_assert_eq(write(w, "2 1\n2\n1\n", 8), 8);
        close(w);
        int ws;
        cr_assert_eq(waitpid(pid, &ws, 0), pid);
        cr_expect(WIFEXITED(ws) && WEXITSTATUS(ws) == 0, "status %#x", ws);
    }
}

Test(cli_exit_detach, killing_the_first_kills_the_second)
{
    skip_without_detaching();
    int w;
    pid_t pid = start_on_fifo("fifo-kill", &w);
    worker_of(pid);
    kill(pid, SIGKILL);
    int ws;
    cr_assert_eq(waitpid(pid, &ws, 0), pid);
    /* the reader (the second process) gone: the writing end reports it */
    struct pollfd p = {.fd = w, .events = 0}; /* POLLERR alone: poll waits for it */
    int gone = 0;
    for (int i = 0; i < 100 && !gone; i++) {
        p.revents = 0;
        gone = poll(&p, 1, 100) == 1 && (p.revents & POLLERR);
    }
    close(w);
    cr_assert(gone, "the second process still reads the FIFO after the first was killed");
}

Test(cli_exit_detach, second_killed_ends_the_first_by_the_same_signal)
{
    skip_without_detaching();
    int w;
    pid_t pid = start_on_fifo("fifo-crash", &w);
    kill(worker_of(pid), SIGKILL);
    int ws;
    cr_assert_eq(waitpid(pid, &ws, 0), pid);
    close(w);
    cr_assert(WIFSIGNALED(ws) && WTERMSIG(ws) == SIGKILL, "status %#x", ws);
}

Test(cli_exit_detach, group_signal_stops_the_run_once_cleanly)
{
    /* both processes get the signal, the second also as passed on by the
     * first: one request, not the fatal second signal */
    char dir[600], err[700], text[4096];
    snprintf(dir, sizeof dir, "%s", io_path("group"));
    cr_assert_eq(mkdir(dir, 0777), 0);
    char out[700];
    snprintf(out, sizeof out, "%s/g.mtx.gz", dir);
    snprintf(err, sizeof err, "%s.err", dir);
    const char *args[] = {"gen", "rgg", "--threads", "1", "--vertices", "4194304", "--degree", "12", "--quiet", "-o", out, NULL};
    pid_t pid = start(args, err, 1);
    nap_ms(150);
    cr_assert_eq(kill(-pid, SIGTERM), 0, "%s", strerror(errno));
    int ws;
    cr_assert_eq(waitpid(pid, &ws, 0), pid);
    cr_assert(WIFEXITED(ws) && WEXITSTATUS(ws) == 143, "status %#x", ws);
    FILE *f = fopen(err, "r");
    cr_assert(f);
    size_t len = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[len] = 0;
    cr_expect(strstr(text, "interrupted by SIGTERM"), "%s", text);
    DIR *d = opendir(dir);
    cr_assert(d);
    struct dirent *e;
    int left = 0;
    while ((e = readdir(d)))
        left += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    closedir(d);
    cr_expect_eq(left, 0, "an interrupted gen leaves no file");
}

Test(cli_exit_detach, closed_standard_streams_keep_the_exit_status)
{
    /* the status pipe must not take the number of a closed stream, or what
     * the program prints there would arrive as its status */
    const char *graph = io_file("closed.graph", "4 4\n2 4\n1 3\n2 4\n1 3\n", 0);
    char cmd[2048], out[64];
    snprintf(cmd, sizeof cmd, "%s --levels 2 %s <&- >&- 2>&-; echo $?", cli_prog(), graph);
    cr_assert_eq(cli_run(cmd, out, sizeof out), 0);
    cr_expect_eq(atoi(out), 0, "status %s", out);
    snprintf(cmd, sizeof cmd, "%s --levels 2 %s.missing <&- >&- 2>&-; echo $?", cli_prog(), graph);
    cr_assert_eq(cli_run(cmd, out, sizeof out), 0);
    cr_expect_eq(atoi(out), EXIT_IO, "status %s", out);
}

/* Sends sig to this process (queued, as exit_detach passes it on, or as
 * kill does) and waits until the handler has seen it. */
static void signal_self(int sig, int queued)
{
    if (queued)
        cr_assert_eq(sigqueue(getpid(), sig, (union sigval){.sival_int = 0}), 0);
    else
        cr_assert_eq(kill(getpid(), sig), 0);
    for (int i = 0; i < 100 && interrupt_signal() != sig; i++)
        nap_ms(1);
    nap_ms(20);
}

Test(cli_exit_detach, passed_on_requests_are_never_the_fatal_second)
{
    interrupt_install();
    interrupt_pass_on_from(getpid());
    signal_self(SIGTERM, 0);
    signal_self(SIGTERM, 1);
    signal_self(SIGTERM, 1);
    cr_expect_eq(interrupt_signal(), SIGTERM, "still here, the run asked to stop");
}

Test(cli_exit_detach, a_passed_on_request_then_a_real_signal_is_one_request)
{
    interrupt_install();
    interrupt_pass_on_from(getpid());
    signal_self(SIGINT, 1);
    signal_self(SIGINT, 0);
    cr_expect_eq(interrupt_signal(), SIGINT);
}

Test(cli_exit_detach, a_second_real_signal_ends_the_process, .signal = SIGTERM)
{
    interrupt_install();
    interrupt_pass_on_from(getpid());
    signal_self(SIGTERM, 0);
    signal_self(SIGTERM, 0);
    nap_ms(1000);
}
