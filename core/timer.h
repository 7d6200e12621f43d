/* timer.h — wall-clock milliseconds for progress lines and statistics. */
#ifndef CORE_TIMER_H
#define CORE_TIMER_H

#include <time.h>

static inline double timer_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

#endif
