/* fault.h — fault injection points, for the tests: output files ask before
 * each write(2) (io/output_file.c) and xmalloc/xcalloc before each
 * allocation (core/error.c) whether to fail it. The library's definitions
 * (core/fault.c) never fail and are weak symbols; only the test build's
 * program `coarsen-faulty` links strong ones (tests/fault/fault_inject.c)
 * that fail the Nth call as its environment says (docs/fuzzing.md, "Fault
 * injection"). The `coarsen` program and libcoarsen never fail by them. */
#ifndef CORE_FAULT_H
#define CORE_FAULT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Before a write(2) of *bytes (> 0) bytes: 0 to write, or an errno value
 * to fail it with as write(2) would; may lower *bytes (to at least 1) to
 * make the write short. */
int fault_write(size_t *bytes);

/* Before an allocation: 1 to fail it as if malloc had returned NULL. */
int fault_alloc(void);

#ifdef __cplusplus
}
#endif
#endif
