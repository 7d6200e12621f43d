/* json_text.c — JSON string literals and the reader's report object
 * (json_text.h). */
#include "io/json_text.h"

void json_string(output_file *f, const char *s)
{
    if (!s) {
        output_printf(f, "null");
        return;
    }
    output_write(f, "\"", 1);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            output_printf(f, "\\%c", c);
        else if (c < 0x20)
            output_printf(f, "\\u%04x", c);
        else
            output_write(f, s, 1);
    }
    output_write(f, "\"", 1);
}

void json_read_report(output_file *f, const coarsen_read_report *r)
{
    if (!r) {
        output_printf(f, "null");
        return;
    }
    output_printf(f, "{\"format\": ");
    json_string(f, r->format);
    output_printf(f,
                  ", \"entries\": %lld, \"diagonal_dropped\": %lld, \"duplicates_merged\": %lld, "
                  "\"zero_weight_edges\": %lld, \"complex_magnitude\": %s, \"extra_constraints\": %d, "
                  "\"bytes\": %lld}",
                  (long long)r->entries, (long long)r->diagonal_dropped, (long long)r->duplicates_merged,
                  (long long)r->zero_weight_edges, r->complex_magnitude ? "true" : "false", r->extra_constraints,
                  (long long)r->bytes);
}
