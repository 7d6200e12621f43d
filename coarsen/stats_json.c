/* stats_json.c — JSON statistics of a hierarchy (stats_json.h), and the
 * public coarsen_hierarchy_write_stats that writes them to a file. Keys and
 * units: times in milliseconds, edges undirected, fractions in [0, 1]. */
#include "coarsen/stats_json.h"

#include <omp.h>

#include "coarsen/hierarchy.h"
#include "device/device.h"
#include "io/graph_format.h"
#include "io/json_text.h"

static void json_level(output_file *f, int k, const coarsen_level_stats *s)
{
    output_printf(f,
                  "    {\"level\": %d, \"vertices\": %d, \"edges\": %lld, \"total_vertex_weight\": %lld, "
                  "\"total_edge_weight\": %.17g, \"max_vertex_weight\": %lld, \"matched_fraction\": %.6f, "
                  "\"matched_pairs\": %lld, \"matching_weight\": %.17g, \"matching_passes\": %d, "
                  "\"two_hop_pairs\": %lld, \"leaf_pairs\": %lld, \"twin_pairs\": %lld, "
                  "\"relative_pairs\": %lld, \"island_pairs\": %lld, \"cap_blocked\": %lld, "
                  "\"vertex_weight_cap\": %lld, "
                  "\"matching_ms\": %.3f, \"two_hop_ms\": %.3f, \"contraction_ms\": %.3f, \"built_on\": \"%s\"}",
                  k, s->vertices, (long long)s->edges, (long long)s->total_vertex_weight, s->total_edge_weight,
                  (long long)s->max_vertex_weight, s->matched_fraction, (long long)s->matched_pairs,
                  s->matching_weight, s->matching_passes, (long long)hierarchy_unjoined_pairs(s),
                  (long long)s->leaf_pairs, (long long)s->twin_pairs, (long long)s->relative_pairs,
                  (long long)s->island_pairs, (long long)s->cap_blocked, (long long)s->vertex_weight_cap,
                  s->matching_ms, s->two_hop_ms, s->contraction_ms, k == 0 ? "input" : s->built_on_gpu ? "gpu" : "cpu");
}

/* "output": what shaped the files of the folder, and their names. */
static void json_output(output_file *f, const hierarchy_write_opts *run, const stats_json_files *files)
{
    if (!run || !files) {
        output_printf(f, "null");
        return;
    }
    int unit = run->weight_scale == COARSEN_WEIGHT_UNIT;
    output_printf(f,
                  "{\"format\": \"%s\", \"gzip\": %s, \"weight_scale\": %.17g, \"unit_weights\": %s, "
                  "\"level0\": %s, \"files\": [",
                  graph_format_word(run->format), run->gzip ? "true" : "false", unit ? 0.0 : run->weight_scale,
                  unit ? "true" : "false", run->skip_level0 ? "false" : "true");
    for (int k = 0; k < files->count; k++) {
        output_printf(f, k ? ", " : "");
        json_string(f, files->names[k]);
    }
    output_printf(f, "]}");
}

void stats_json_write(output_file *f, const coarsen_hierarchy *h, const hierarchy_write_opts *run,
                      const stats_json_files *files)
{
    const transversal_info *t = run ? run->transversal : NULL;
    const run_phases *phases = run ? run->phases : NULL;
    const coarsen_hierarchy_opts *o = &h->opts;
    double match_ms = 0, two_hop_ms = 0, contract_ms = 0;
    int64_t two_hop_pairs = 0;
    for (int k = 1; k <= h->levels; k++) {
        match_ms += h->level[k].stats.matching_ms;
        two_hop_ms += h->level[k].stats.two_hop_ms;
        contract_ms += h->level[k].stats.contraction_ms;
        two_hop_pairs += hierarchy_unjoined_pairs(&h->level[k].stats);
    }
    const coarsen_level_stats *first = &h->level[0].stats, *last = &h->level[h->levels].stats;
    output_printf(f, "{\n  \"version\": \"%s\",\n", COARSEN_VERSION);
    if (h->ranks > 0) /* a distributed build (dist/) */
        output_printf(f,
                      "  \"ranks\": %d,\n  \"gpus\": %d,\n  \"distributed_levels\": %d,\n  \"read_by_ranks\": %d,\n"
                      "  \"gather_ms\": %.3f,\n",
                      h->ranks, h->gpus, h->distributed_levels, h->read_by_ranks, h->gather_ms);
    output_printf(f, "  \"device\": ");
    json_string(f, h->on_gpu ? device_name() : "cpu");
    output_printf(f, ",\n  \"device_reason\": ");
    json_string(f, h->device_reason);
    output_printf(f, ",\n  \"command_line\": ");
    json_string(f, run ? run->command_line : NULL);
    output_printf(f, ",\n  \"input\": ");
    json_string(f, run ? run->input : NULL);
    output_printf(f, ",\n  \"threads\": %d,\n  \"reader\": ", omp_get_max_threads());
    json_read_report(f, run ? run->reader : NULL);
    output_printf(f, ",\n  \"output\": ");
    json_output(f, run, files);
    output_printf(f,
                  ",\n  \"options\": {\"levels\": %d, \"matcher\": \"%s\", \"rating\": \"%s\", "
                  "\"coarsen_to\": %d, \"min_reduction\": %g, \"max_vertex_weight\": %lld, "
                  "\"max_vertex_weight_rule\": \"%s\", \"max_vertex_weight_factor\": %g, "
                  "\"two_hop_threshold\": %g, \"two_hop_relatives\": %g, \"ties\": \"%s\", "
                  "\"refine\": \"%s\", \"seed\": %llu, \"host_below\": %d},\n",
                  o->levels, coarsen_matcher_name(o->matcher), coarsen_rating_name(o->rating), o->coarsen_to,
                  o->min_reduction, (long long)(h->levels > 0 ? h->level[1].stats.vertex_weight_cap : o->max_vertex_weight),
                  o->max_vertex_weight == COARSEN_VWGT_AUTO ? "auto" : "fixed", o->max_vertex_weight_factor,
                  o->two_hop_threshold, o->two_hop_relatives, o->hashed_ties ? "hashed" : "id",
                  o->refine_roma ? "roma" : "none", (unsigned long long)o->seed, (int)o->host_below);
    if (t)
        output_printf(f,
                      "  \"transversal\": {\"kind\": \"%s\", \"rows\": %d, \"cols\": %d, \"structural_rank\": %lld, "
                      "\"diagonal_before\": %lld, \"diagonal_after\": %lld},\n",
                      transversal_kind_name(t->kind), t->rows, t->cols, (long long)t->res.rank,
                      (long long)t->res.diag_before, (long long)t->res.diag_after);
    output_printf(f, "  \"stop_reason\": \"%s\",\n", coarsen_stop_reason_name(h->stop));
    output_printf(f,
                  "  \"totals\": {\"levels\": %d, \"vertices_in\": %d, \"vertices_out\": %d, \"edges_in\": %lld, "
                  "\"edges_out\": %lld, \"vertex_reduction\": %.6f, \"two_hop_pairs\": %lld, \"total_ms\": %.3f, "
                  "\"transfer_ms\": %.3f, \"matching_ms\": %.3f, \"two_hop_ms\": %.3f, \"contraction_ms\": %.3f},\n",
                  h->levels, first->vertices, last->vertices, (long long)first->edges, (long long)last->edges,
                  first->vertices ? 1.0 - (double)last->vertices / (double)first->vertices : 0.0,
                  (long long)two_hop_pairs, h->total_ms, h->transfer_ms, match_ms, two_hop_ms, contract_ms);
    if (phases) {
        output_printf(f, "  \"phases\": ");
        run_phases_json(f, phases);
        output_printf(f, ",\n");
    }
    output_printf(f, "  \"levels\": [\n");
    for (int k = 0; k <= h->levels; k++) {
        json_level(f, k, &h->level[k].stats);
        output_printf(f, k < h->levels ? ",\n" : "\n");
    }
    output_printf(f, "  ]\n}\n");
}

int coarsen_hierarchy_write_stats(const coarsen_hierarchy *h, const char *path, coarsen_error *err)
{
    output_file *f = output_open(path, err);
    if (!f)
        return err ? err->status : COARSEN_ERR_IO;
    stats_json_write(f, h, NULL, NULL);
    return output_commit(f, err);
}
