/* run_phases.c — printing a run's phase split (run_phases.h). */
#include "coarsen/run_phases.h"

void run_phases_print(FILE *f, const run_phases *p)
{
    fprintf(f, "coarsen: time: read %.1f ms (inflate %.1f, parse %.1f, build %.1f)", p->read_ms, p->inflate_ms,
            p->parse_ms, p->build_ms);
    if (p->device_ms >= 0.5)
        fprintf(f, ", waiting for the GPU %.1f ms", p->device_ms);
    fprintf(f, ", upload %.1f ms, levels %.1f ms, download %.1f ms, format %.1f ms, compress %.1f ms, write %.1f ms; "
               "wall %.1f ms\n",
            p->upload_ms, p->levels_ms, p->download_ms, p->format_ms, p->compress_ms, p->write_ms, p->wall_ms);
}

void run_phases_json(output_file *f, const run_phases *p)
{
    output_printf(f,
                  "{\"read_ms\": %.3f, \"inflate_ms\": %.3f, \"parse_ms\": %.3f, \"build_ms\": %.3f, "
                  "\"device_wait_ms\": %.3f, \"upload_ms\": %.3f, \"levels_ms\": %.3f, \"download_ms\": %.3f, "
                  "\"format_ms\": %.3f, \"compress_ms\": %.3f, \"write_ms\": %.3f, \"wall_ms\": %.3f}",
                  p->read_ms, p->inflate_ms, p->parse_ms, p->build_ms, p->device_ms, p->upload_ms, p->levels_ms,
                  p->download_ms, p->format_ms, p->compress_ms, p->write_ms, p->wall_ms);
}
