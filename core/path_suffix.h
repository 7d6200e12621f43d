/* path_suffix.h — whether a file name ends in an extension, the one test
 * every reader, writer and command uses (".gz", ".mtx", ".parhip", ...):
 * ASCII case ignored, so that a name the readers take as gzip or Matrix
 * Market is taken so by the writers too. */
#ifndef CORE_PATH_SUFFIX_H
#define CORE_PATH_SUFFIX_H

#include <string.h>
#include <strings.h>

static inline int path_ends_with(const char *name, const char *suffix)
{
    size_t a = strlen(name), b = strlen(suffix);
    return a >= b && !strcasecmp(name + a - b, suffix);
}

#endif
