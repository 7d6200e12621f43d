/* match_roma.h — the ROMA part of `coarsen match`: its options
 * (--refine roma|roma-seq, --roma-eps, --roma-phases, --roma-turns,
 * --roma-priority, --complete) and the
 * refinement of the matcher's result (or, in complete-graph mode without
 * --matcher, of a random perfect pairing). cmd_match.c parses through
 * match_roma_option and calls match_roma_run. */
#ifndef CLI_MATCH_ROMA_H
#define CLI_MATCH_ROMA_H

#include "cli/cli.h"
#include "matching/matching.h"
#include "matching/roma.h"

enum { OPT_REFINE = OPT_FIRST_LOCAL + 50, OPT_ROMA_EPS, OPT_ROMA_PHASES, OPT_ROMA_TURNS, OPT_ROMA_PRIORITY, OPT_COMPLETE };

#define MATCH_ROMA_LONGOPTS                                   \
    {"refine", required_argument, 0, OPT_REFINE},             \
    {"roma-eps", required_argument, 0, OPT_ROMA_EPS},         \
    {"roma-phases", required_argument, 0, OPT_ROMA_PHASES},   \
    {"roma-turns", required_argument, 0, OPT_ROMA_TURNS},     \
    {"roma-priority", required_argument, 0, OPT_ROMA_PRIORITY}, \
    {"complete", no_argument, 0, OPT_COMPLETE}

#define MATCH_ROMA_HELP                                                                              \
    "  --refine roma|roma-seq       refine by 2-augmentations (ROMA): roma = the deterministic\n"    \
    "                               parallel rule (identical on CPU and GPU), roma-seq = the\n"      \
    "                               sequential reference (CPU, seeded random order)\n"               \
    "  --roma-eps E                 threshold: real gains must exceed E x removed weight\n"          \
    "                               (default 1e-9; complete mode: absolute, default 1e-5)\n"         \
    "  --roma-phases N              at most N phases (default 64; complete mode 8)\n"                \
    "  --roma-turns on|off          parallel rule: on = a phase re-evaluates, pass after pass, the\n" \
    "                               centres whose turn is pending until every one had its turn;\n"  \
    "                               off = one evaluation per phase (default off; complete mode on)\n" \
    "  --roma-priority gain|random  parallel rule: conflicts go to the larger gain or to a seeded\n" \
    "                               random order (default gain)\n"                                 \
    "  --complete                   complete-graph mode: FILE as a dense matrix (even n), 4-cycle\n" \
    "                               flips of a perfect matching (random pairing unless --matcher)\n"

typedef struct match_roma_args {
    int refine;        /* 0 none, 1 parallel rule, 2 sequential */
    int complete;      /* --complete */
    int matcher_given; /* --matcher was given (complete mode: start from it) */
    double eps;        /* < 0: the mode's default */
    int phases;        /* 0: the mode's default */
    int turns;         /* -1: the mode's default, else 0 or 1 */
    int priority;      /* -1: the mode's default, else a ROMA_PRIORITY_* */
} match_roma_args;

void match_roma_init(match_roma_args *r);
/* Handles opt when it is one of ours: 1 handled, 0 not ours, -1 bad value
 * (message printed). */
int match_roma_option(int opt, const char *arg, match_roma_args *r);
/* Complete mode: refuses, before any work, a graph that is not complete (an
 * edge, possibly of weight 0, between every two vertices) or has an odd
 * vertex count (COARSEN_ERR_INPUT naming path); COARSEN_OK otherwise and
 * outside complete mode. */
int match_roma_check_input(const match_roma_args *r, const coarsen_graph *g, const char *path, coarsen_error *err);
/* The name of the matching the refinement starts from: the matcher's, or
 * "random-pairing" in complete mode without --matcher. */
const char *match_roma_start_name(const match_roma_args *r, const char *matcher);
/* 1 when the matcher must run first (not complete mode without --matcher). */
int match_roma_needs_matcher(const match_roma_args *r);
/* Refines mate in place (complete mode without --matcher: fills it), new
 * pairs under the vertex-weight cap (<= 0: none), and updates st (weight,
 * matched_edges, maximal, ms += refinement); one line of ROMA statistics
 * on stderr unless quiet. Nothing to do: returns 0. */
int match_roma_run(const match_roma_args *r, const cli_globals *gl, const coarsen_graph *g, int64_t cap,
                   int32_t *mate, matching_stats *st, coarsen_error *err);

#endif
