"""(s18: session 17's instrument.py, adapted to this branch's step 4.)
Inserts per-step timing into a checkout (not committed): a stream
synchronization and a timestamp after each step of a HEC level, its
contraction and its totals, printed to stderr when HEC_PROF is set.
Usage: python3 instrument.py REPO_ROOT"""
import sys
root = sys.argv[1]
HDR = '''#include "core/timer.h"
#include <stdio.h>
#include <stdlib.h>
static double PR_t; static char PR_buf[1024]; static int PR_len;
static void PR_begin() { PR_len = 0; PR_buf[0] = 0; PR_t = timer_ms(); }
#define PROF(lab) do { if (getenv("HEC_PROF")) { cudaStreamSynchronize(device_stream()); double n_ = timer_ms(); PR_len += snprintf(PR_buf + PR_len, sizeof PR_buf - PR_len, " %s=%.3f", lab, n_ - PR_t); PR_t = timer_ms(); } } while (0)
#define PROF_END(what, n) do { if (getenv("HEC_PROF")) fprintf(stderr, "%s n=%d%s\\n", what, (int)(n), PR_buf); } while (0)
'''
def edit(path, pairs, header_after):
    p = root + '/' + path
    s = open(p).read()
    assert s.count(header_after) == 1, (path, header_after)
    s = s.replace(header_after, header_after + '\n' + HDR, 1)
    for old, new in pairs:
        assert s.count(old) == 1, (path, old)
        s = s.replace(old, new, 1)
    open(p, 'w').write(s)

edit('matching/hec.cu', [
    ('    if (int rc = hec_plan(n, W, err))\n        return rc;\n',
     '    PR_begin();\n    if (int rc = hec_plan(n, W, err))\n        return rc;\n    PROF("plan");\n'),
    ('        if (int rc = active_init(G, shape, &A, err))\n            return rc;\n',
     '        if (int rc = active_init(G, shape, &A, err))\n            return rc;\n        PROF("active");\n'),
    ('        if (int rc = rows_launch(G, A, shape, choose, err))\n            return rc;\n',
     '        if (int rc = rows_launch(G, A, shape, choose, err))\n            return rc;\n        PROF("choose");\n'),
    ('                                    "HEC pending vertices", err))\n            return rc;\n',
     '                                    "HEC pending vertices", err))\n            return rc;\n        PROF("roots");\n'),
    ('            if (int rc = tail_prepare(err))\n',
     '            PROF("rounds");\n            if (int rc = tail_prepare(err))\n'),
    ('            CUDA_LAUNCH_TRY(err);\n            break;\n',
     '            CUDA_LAUNCH_TRY(err);\n            PROF("tail");\n            break;\n'),
    ('    if (int rc = pair_alone(g, opts, W, err))\n        return rc;\n',
     '    if (int rc = pair_alone(g, opts, W, err))\n        return rc;\n    PROF("pair");\n'),
    ('    st->rounds += (int)h[HEC_ROUNDS];\n',
     '    PROF("number");\n    PROF_END("hec", n);\n    st->rounds += (int)h[HEC_ROUNDS];\n'),
    ('    const int32_t islands = h[0];\n',
     '    const int32_t islands = h[0];\n    PROF("alone");\n'),
    ('    if (int rc = two_hop_gpu_queued(g, &th, W.mate, &known, W.counts + HEC_TWO_HOP, err)) /* its counts come with ours */\n        return rc;\n',
     '    PROF("islands");\n    if (int rc = two_hop_gpu_queued(g, &th, W.mate, &known, W.counts + HEC_TWO_HOP, err)) /* its counts come with ours */\n        return rc;\n    PROF("twohop");\n'),
], '#include "core/timer.h"')
edit('contract/contract.cu', [
    ('    if (int rc = w.carve("contraction", err))\n        return rc;\n',
     '    PR_begin();\n    if (int rc = w.carve("contraction", err))\n        return rc;\n    PROF("carve");\n'),
    ('    return contract_rows(g, d_cmap, nc, hash_max, out, t, w, cc, err);\n}',
     '    PROF("groups");\n    int rc_ = contract_rows(g, d_cmap, nc, hash_max, out, t, w, cc, err);\n    PROF("rows");\n    PROF_END("contract", g->n);\n    return rc_;\n}'),
    ('    if (int rc = scan_and_summary(nc, t, w, cc, h, err))\n        return rc;\n    if (h[1] & 1)',
     '    PROF("hashed");\n    if (int rc = scan_and_summary(nc, t, w, cc, h, err))\n        return rc;\n    PROF("summary");\n    if (h[1] & 1)'),
    ('    if (int rc = device_graph_alloc(nc, h[0], &cg, err))\n        return rc;\n',
     '    if (int rc = device_graph_alloc(nc, h[0], &cg, err))\n        return rc;\n    PROF("alloc");\n'),
], '#include "device/cuda_check.cuh"')
edit('coarsen/graph_totals.cu', [
    ('    const int64_t chunks = fixed_sum_chunks(g->nnz);\n', '    PR_begin();\n    const int64_t chunks = fixed_sum_chunks(g->nnz);\n'),
    ('    free(out);\n    return rc;\n}', '    PROF("totals");\n    PROF_END("totals", g->n);\n    free(out);\n    return rc;\n}'),
], '#include "device/cuda_check.cuh"')
