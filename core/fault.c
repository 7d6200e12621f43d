/* fault.c — the library's fault injection points (fault.h): weak
 * definitions that never fail, replaced only in the test build's
 * coarsen-faulty. */
#include "core/fault.h"

__attribute__((weak)) int fault_write(size_t *bytes)
{
    (void)bytes;
    return 0;
}

__attribute__((weak)) int fault_alloc(void)
{
    return 0;
}
