/* interrupt.h — SIGINT and SIGTERM as a request to stop: the handler only
 * records the signal; the work checks interrupt_check at safe points
 * (between levels, at every buffer an output file writes) and fails with
 * COARSEN_ERR_INTERRUPTED, so that the ordinary error paths remove what the
 * run was writing (temporary files, a half-written hierarchy). A second
 * signal ends the process at once (the default action). A program with a
 * SIGINT handler of its own uses coarsen_interrupt_catch / _release
 * (include/coarsen.h) around a call instead: there no signal is fatal. */
#ifndef CORE_INTERRUPT_H
#define CORE_INTERRUPT_H

#include "coarsen.h"

#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Installs the handlers (the program does, once, at its start). */
void interrupt_install(void);
/* Signals queued (sigqueue) by process pid are requests passed on to this
 * one (cli/exit_detach.h): they stop the run like the first signal but
 * never end the process as a second one does. */
void interrupt_pass_on_from(pid_t pid);
/* In the process that waits for pid (cli/exit_detach.h): SIGINT and SIGTERM
 * sent to it are passed on to pid, the first as such a request; those from
 * the terminal are not (they reach pid's process group already). */
void interrupt_pass_on_to(pid_t pid);
/* The signal received (SIGINT, SIGTERM), or 0. */
int interrupt_signal(void);
/* COARSEN_OK, or COARSEN_ERR_INTERRUPTED with err set ("interrupted by
 * SIGINT") once a signal has arrived. */
int interrupt_check(coarsen_error *err);

#ifdef __cplusplus
}
#endif
#endif
