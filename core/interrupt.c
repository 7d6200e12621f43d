/* interrupt.c — the stop request of SIGINT and SIGTERM (interrupt.h), and
 * the bracket a program with its own SIGINT handler puts around a long call
 * (coarsen_interrupt_catch / _release, include/coarsen.h). */
#include "core/interrupt.h"
#include "core/error.h"

#include <errno.h>
#include <signal.h>
#include <string.h>

static volatile sig_atomic_t received;
static volatile sig_atomic_t fatal_next[2]; /* SIGINT, SIGTERM: the next one ends the process */
static pid_t passer;                         /* interrupt_pass_on_from's process, or 0 */
static struct sigaction caller_action;       /* SIGINT's action before coarsen_interrupt_catch */

/* The handler of catch mode (coarsen_interrupt_catch): every signal is a
 * request. */
static void on_signal(int sig)
{
    received = sig;
}

/* The handler of the program (interrupt_install): a signal records the
 * request; a second one of the same kind ends the process at once (the
 * default action), unless it is a request passed on by exit_detach's
 * waiting process (queued by it), which never is. */
static void on_program_signal(int sig, siginfo_t *info, void *ctx)
{
    (void)ctx;
    if (passer && info->si_code == SI_QUEUE && info->si_pid == passer) {
        if (!received)
            received = sig;
        return;
    }
    const int k = sig == SIGTERM;
    if (fatal_next[k]) {
        signal(sig, SIG_DFL);
        raise(sig); /* delivered when this handler returns */
        return;
    }
    fatal_next[k] = 1;
    received = sig;
}

/* on_signal as the action of sig, saving the previous one in old (may be
 * NULL). */
static int set_action(int sig, struct sigaction *old)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    return sigaction(sig, &sa, old);
}

/* handler, with its siginfo, as the action of SIGINT and SIGTERM. */
static void install_for_both(void (*handler)(int, siginfo_t *, void *))
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = handler;
    sa.sa_flags = SA_RESTART | SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

void interrupt_install(void)
{
    install_for_both(on_program_signal);
}

static pid_t pass_to;                 /* interrupt_pass_on_to's process */
static volatile sig_atomic_t passed;  /* how many it was passed */

/* The waiting process's handler: a signal from the terminal reaches the
 * whole process group, the worker too, so only others are passed on: the
 * first queued (a request, on_program_signal), the next ones as kill sends
 * them. */
static void pass_on(int sig, siginfo_t *info, void *ctx)
{
    (void)ctx;
    if (info->si_code == SI_KERNEL)
        return;
    if (!passed++)
        sigqueue(pass_to, sig, (union sigval){.sival_int = 0});
    else
        kill(pass_to, sig);
}

void interrupt_pass_on_to(pid_t pid)
{
    pass_to = pid;
    install_for_both(pass_on);
}

void interrupt_pass_on_from(pid_t pid)
{
    passer = pid;
}

int coarsen_interrupt_catch(coarsen_error *err)
{
    received = 0;
    if (set_action(SIGINT, &caller_action))
        return error_set(err, COARSEN_ERR_IO, "cannot install the SIGINT handler: %s", strerror(errno));
    return COARSEN_OK;
}

int coarsen_interrupt_release(void)
{
    sigaction(SIGINT, &caller_action, NULL);
    int sig = received;
    received = 0;
    return sig;
}

int interrupt_signal(void)
{
    return received;
}

int interrupt_check(coarsen_error *err)
{
    int sig = received;
    if (!sig)
        return COARSEN_OK;
    return error_set(err, COARSEN_ERR_INTERRUPTED, "interrupted by %s: the files this run was writing are removed",
                     sig == SIGINT ? "SIGINT" : "SIGTERM");
}
