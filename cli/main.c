/* main.c — the `coarsen` command line as a process runs it (cli_main): the
 * SIGINT and SIGTERM handlers and the device layer's preparation, then the
 * command line (cli_dispatch, commands.c), then the fast exit. The
 * program's main() is in program.c, so that coarsen-mpi (dist/main.c) runs
 * the same command line. */
#include "cli/cli.h"
#include "core/interrupt.h"

int cli_main(int argc, char **argv)
{
    interrupt_install();
    device_preinit(); /* before the GPU start-up thread exists */
    int status = cli_dispatch(argc, argv);
    /* also after a failure: a GPU start-up thread that --device auto left
     * unjoined may still be inside the driver, where the runtime's exit
     * handlers must not meet it */
    return cli_exit_fast(status);
}
