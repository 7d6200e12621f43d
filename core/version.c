/* version.c — coarsen_version (include/coarsen.h): the version the library
 * was built as, for programs that load it at run time. */
#include "coarsen.h"

const char *coarsen_version(void) { return COARSEN_VERSION; }
