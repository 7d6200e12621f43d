/* json_text.h — JSON values written through an output_file (io/output_file.h):
 * string literals, and the reader's report (coarsen_read_report) as the
 * object that `coarsen info --json` and stats.json share. */
#ifndef IO_JSON_TEXT_H
#define IO_JSON_TEXT_H

#include "coarsen.h"
#include "io/output_file.h"

/* s as a JSON string literal: quotes, backslashes and control bytes
 * escaped; other bytes as they are (UTF-8 passes through). NULL: null. */
void json_string(output_file *f, const char *s);

/* r as one JSON object on one line: format, entries, diagonal_dropped,
 * duplicates_merged, zero_weight_edges, complex_magnitude,
 * extra_constraints, bytes. NULL: null. */
void json_read_report(output_file *f, const coarsen_read_report *r);

#endif
