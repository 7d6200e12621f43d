/* interrupt.c — the stop request of SIGINT and SIGTERM (interrupt.h), and
 * the bracket a program with its own SIGINT handler puts around a long call
 * (coarsen_interrupt_catch / _release, include/coarsen.h). */
#include "core/interrupt.h"
#include "core/error.h"

#include <errno.h>
#include <signal.h>
#include <string.h>

static volatile sig_atomic_t received;
static struct sigaction caller_action; /* SIGINT's action before coarsen_interrupt_catch */

static void on_signal(int sig)
{
    received = sig; /* interrupt_install's SA_RESETHAND: the next one takes the default action */
}

/* on_signal as the action of sig, saving the previous one in old (may be
 * NULL); once: the next signal takes the default action. */
static int set_action(int sig, int once, struct sigaction *old)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESTART | (once ? SA_RESETHAND : 0);
    sigemptyset(&sa.sa_mask);
    return sigaction(sig, &sa, old);
}

void interrupt_install(void)
{
    set_action(SIGINT, 1, NULL);
    set_action(SIGTERM, 1, NULL);
}

int coarsen_interrupt_catch(coarsen_error *err)
{
    received = 0;
    if (set_action(SIGINT, 0, &caller_action))
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
