/* exit_detach.h — the `coarsen` program answers its caller as soon as its
 * work is done and leaves the teardown of its process (memory, GPU
 * context) to a second process that nobody waits for (exit_detach.c says
 * how, and how signals and deaths are passed between the two).
 * COARSEN_ONE_PROCESS=1 in the environment keeps a single process, for
 * tools that follow the process itself (valgrind, /usr/bin/time's peak
 * memory); builds with AddressSanitizer keep one always (the leak check
 * decides the exit status). coarsen-mpi does not detach (mpirun follows its
 * ranks). */
#ifndef CLI_EXIT_DETACH_H
#define CLI_EXIT_DETACH_H

/* Called first in main(), before any thread, device or file exists: forks.
 * Returns in the process that does the work (or in the only one, when
 * detaching is off or fork fails); the other never returns. */
void exit_detach_begin(void);

/* The work is done and its files are complete: flushes stdout and stderr,
 * points the standard streams at /dev/null (a caller reading a pipe sees
 * its end now) and hands status (0-255) to the waiting process, which exits
 * with it. Once; does nothing without exit_detach_begin's fork. */
void exit_detach_report(int status);

#endif
