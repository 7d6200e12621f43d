/* device_choice.c — the `--device auto` rule (device_choice.h). */
#include "exec/device_choice.h"

#include <stdio.h>

int64_t device_auto_min_entries(int threads)
{
    return (int64_t)DEVICE_AUTO_ENTRIES_PER_THREAD * (threads > 0 ? threads : 1);
}

/* Text spends about 7 bytes per adjacency entry (METIS: an id and its
 * separator; Matrix Market: a symmetric line of two ids and a value stands
 * for two entries), and gzip shrinks such text about 4 times (the shared
 * graphs: 3.3 to 4.4). The estimate only decides whether the start-up
 * begins beside the reading: a wrong guess costs time, never a result. */
int device_auto_worth_starting(int64_t bytes, int gzip, int threads)
{
    if (bytes < 0)
        return 1;
    int64_t likely = (gzip ? 4 * bytes : bytes) / 7;
    return likely >= device_auto_min_entries(threads);
}

void device_auto_decide(device_mode mode, int64_t entries, int threads, int *wants_gpu, char *why, int why_size)
{
    int64_t min = device_auto_min_entries(threads);
    if (mode == DEVICE_CPU) {
        *wants_gpu = 0;
        snprintf(why, (size_t)why_size, "--device cpu");
    } else if (mode == DEVICE_GPU) {
        *wants_gpu = 1;
        snprintf(why, (size_t)why_size, "--device gpu");
    } else if (entries < min) {
        *wants_gpu = 0;
        snprintf(why, (size_t)why_size,
                 "auto: %lld adjacency entries, below the %lld (%d per thread x %d threads) from which the GPU "
                 "backend is faster; --device gpu forces it",
                 (long long)entries, (long long)min, DEVICE_AUTO_ENTRIES_PER_THREAD, threads > 0 ? threads : 1);
    } else {
        *wants_gpu = 1;
        snprintf(why, (size_t)why_size, "auto: %lld adjacency entries, at least the %lld from which the GPU backend "
                 "is faster", (long long)entries, (long long)min);
    }
}
