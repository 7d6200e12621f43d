/* write_ints.c — io_write_ints (declared in io/output_file.h): one integer
 * per line, formatted in parallel by io/row_writer.h. */
#include "io/int_text.h"
#include "io/output_file.h"
#include "io/row_writer.h"

static char *int_row(const void *ctx, int64_t row, char *out)
{
    out = int_text_put(out, ((const int32_t *)ctx)[row]);
    *out++ = '\n';
    return out;
}

int io_write_ints(const char *path, const int32_t *values, int64_t n, coarsen_error *err)
{
    output_file *f = output_open(path, err);
    if (!f)
        return err ? (int)err->status : COARSEN_ERR_IO;
    row_layout l = {.rows = n, .row_bytes = 12};
    int rc = row_writer_run(f, &l, int_row, values, err);
    if (rc) {
        output_abort(f);
        return rc;
    }
    return output_commit(f, err);
}
