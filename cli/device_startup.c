/* device_startup.c — the backend of a command: the GPU's start-up (driver,
 * context, memory pool, staging buffers: hundreds of ms) in a thread while
 * the command reads its input, begun only when the input may be large enough
 * for --device auto to pick the GPU, and the choice itself once the graph's
 * size is known, by exec/device_choice.h's rule (the library applies the
 * same rule to COARSEN_DEVICE_AUTO, so both agree). */
#include <omp.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "core/path_suffix.h"
#include "core/timer.h"
#include "exec/device_choice.h"

/* One start-up per process. A thread that auto leaves unjoined (the graph
 * turned out small) finishes on its own; the process ends without waiting
 * for it (cli_exit_fast). */
static struct {
    pthread_t thread;
    int started;
    device_mode mode;
    int use_gpu;
    int rc;
    coarsen_error err;
} job;

static void *select_device(void *arg)
{
    (void)arg;
    job.rc = device_select(job.mode, &job.use_gpu, &job.err);
    return NULL;
}

/* Size in bytes of the input at path, -1 when unknown (standard input, a pipe). */
static int64_t input_bytes(const char *path)
{
    struct stat st;
    if (!path || !strcmp(path, "-") || stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return -1;
    return (int64_t)st.st_size;
}

void cli_device_begin(cli_globals *g, const char *input)
{
    if (g->threads > 0)
        omp_set_num_threads(g->threads);
    g->began = 1;
    if (g->device == DEVICE_CPU || job.started)
        return;
    if (g->device == DEVICE_AUTO && input &&
        !device_auto_worth_starting(input_bytes(input), path_ends_with(input, ".gz"), omp_get_max_threads()))
        return;
    job.mode = g->device;
    job.started = pthread_create(&job.thread, NULL, select_device, NULL) == 0;
}

int cli_device_finish(cli_globals *g, int64_t entries, double *waited_ms)
{
    if (!g->began)
        cli_device_begin(g, NULL);
    double t0 = timer_ms();
    int wants = 0;
    device_auto_decide(g->device, entries < 0 ? INT64_MAX : entries, omp_get_max_threads(), &wants, g->device_why,
                       (int)sizeof g->device_why);
    g->use_gpu = 0;
    if (wants) {
        if (job.started) {
            pthread_join(job.thread, NULL);
            job.started = 0;
        } else {
            job.mode = g->device;
            select_device(NULL);
        }
        if (job.rc)
            return cli_fail(&job.err);
        g->use_gpu = job.use_gpu;
        if (!g->use_gpu)
            snprintf(g->device_why, sizeof g->device_why, "auto: no usable GPU; --device gpu to require one");
    }
    if (waited_ms)
        *waited_ms = timer_ms() - t0;
    if (!g->quiet && g->device == DEVICE_AUTO)
        fprintf(stderr, "coarsen: device: %s (%s)\n", g->use_gpu ? device_name() : "cpu", g->device_why);
    return 0;
}

int cli_start_device(cli_globals *g)
{
    cli_device_begin(g, NULL);
    return cli_device_finish(g, -1, NULL);
}
