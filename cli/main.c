/* main.c — the process entry of the `coarsen` program: the SIGINT and
 * SIGTERM handlers and the device layer's preparation, then the command
 * line (cli_dispatch, commands.c), then the fast exit. */
#include "cli/cli.h"
#include "core/interrupt.h"

int main(int argc, char **argv)
{
    interrupt_install();
    device_preinit(); /* before the GPU start-up thread exists */
    int status = cli_dispatch(argc, argv);
    /* also after a failure: a GPU start-up thread that --device auto left
     * unjoined may still be inside the driver, where the runtime's exit
     * handlers must not meet it */
    return cli_exit_fast(status);
}
