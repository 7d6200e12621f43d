/* version.c — what a program or binding loading the library asks first:
 * coarsen_version and the sizes of the public structs (coarsen_abi_size,
 * include/coarsen.h), so that a binding's mirror of a layout can be checked. */
#include <string.h>

#include "coarsen.h"

const char *coarsen_version(void) { return COARSEN_VERSION; }

size_t coarsen_abi_size(const char *type_name)
{
#define SIZE_OF(t) {#t, sizeof(t)}
    static const struct {
        const char *name;
        size_t size;
    } sizes[] = {SIZE_OF(coarsen_error),          SIZE_OF(coarsen_graph),          SIZE_OF(coarsen_read_report),
                 SIZE_OF(coarsen_level_stats),    SIZE_OF(coarsen_hierarchy_opts), SIZE_OF(coarsen_match_opts),
                 SIZE_OF(coarsen_match_stats),    SIZE_OF(coarsen_partition_opts), SIZE_OF(coarsen_partition_info)};
#undef SIZE_OF
    for (size_t k = 0; type_name && k < sizeof sizes / sizeof sizes[0]; k++)
        if (!strcmp(type_name, sizes[k].name))
            return sizes[k].size;
    return 0;
}
