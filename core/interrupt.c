/* interrupt.c — the stop request of SIGINT and SIGTERM (interrupt.h). */
#include "core/interrupt.h"
#include "core/error.h"

#include <signal.h>
#include <string.h>

static volatile sig_atomic_t received;

static void on_signal(int sig)
{
    received = sig; /* SA_RESETHAND: the next one takes the default action */
}

void interrupt_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESETHAND | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
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
