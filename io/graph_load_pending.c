/* placeholder until io/ lands */
#include "coarsen.h"
#include "core/error.h"
int coarsen_graph_load(const char *path, coarsen_graph **out, coarsen_read_report *report, coarsen_error *err)
{ (void)report; *out = 0; return error_set(err, COARSEN_ERR_IO, "%s: readers not implemented yet", path); }
int coarsen_graph_write(const coarsen_graph *g, const char *path, coarsen_format fmt, double s, coarsen_error *err)
{ (void)g; (void)fmt; (void)s; return error_set(err, COARSEN_ERR_IO, "%s: writers not implemented yet", path); }
