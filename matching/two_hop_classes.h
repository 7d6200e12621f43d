/* two_hop_classes.h — the host steps of two-hop pairing (two_hop.h) on a
 * list of candidates sorted by (key, hash, id): islands by position, classes
 * greedily, and the hub of rule (3). two_hop_cpu runs them on the whole
 * graph; the distributed two-hop (dist/two_hop.c) runs them on the classes
 * each rank gathers, which gives the same pairs because every class is whole
 * on one rank. Host C only. */
#ifndef MATCHING_TWO_HOP_CLASSES_H
#define MATCHING_TWO_HOP_CLASSES_H

#include "matching/two_hop.h"

/* key: the degree (rules 0-2) or the hub (rule 3); hash: the list hash
 * (rules 1-2, else 0); id: the vertex. */
typedef struct two_hop_candidate {
    int64_t key;
    uint64_t hash;
    int32_t id;
} two_hop_candidate;

/* qsort order: key, then hash, then id. */
int two_hop_candidate_cmp(const void *a, const void *b);
/* Sorts cand[0..m) [in/out] into that order, given in increasing id with
 * keys >= 0 (a radix sort by the key and the hash's top bits, the runs of
 * equal ones finished by comparison; qsort when its scratch cannot be
 * allocated). */
void two_hop_sort(two_hop_candidate *cand, int32_t m);
/* The hash of v's neighbour list: the sum of two_hop_term over it. */
uint64_t two_hop_list_hash(const coarsen_graph *g, int32_t v);
/* The heaviest neighbour of row v of g (by ewgt, ties to the smaller id in
 * adj), -1 for an empty row. g's rows are only read: adj may hold ids of
 * another numbering than the rows'. */
int32_t two_hop_hub(const coarsen_graph *g, int32_t v);

/* Rule (0): cand[0..islands) [in] the islands in increasing id, paired by
 * position ((0,1), (2,3), ...) when vwgt [in, by id] respects cap; mate
 * [in/out, by id] set for both ends; pairs[3] [in/out] counts them. */
void two_hop_pair_islands(const int64_t *vwgt, int64_t cap, const two_hop_candidate *cand, int32_t islands,
                          int32_t *mate, int64_t pairs[4]);
/* Rules (1)-(3): the sorted cand[0..m) [in] paired greedily
 * (two_hop_pair_step) within classes: a class starts where (key, hash)
 * changes or, with lists = 1, where the neighbour list (rows of g, by id)
 * differs from the previous candidate's. g [in] gives vwgt (and the rows with
 * lists); mate [in/out, by id]; each pair counted in pairs[kind], or for
 * kind < 0 in pairs[0] (key 1: leaves) or pairs[1] (twins). */
void two_hop_pair_classes(const coarsen_graph *g, int64_t cap, const two_hop_candidate *cand, int32_t m, int lists,
                          int kind, int32_t *mate, int64_t pairs[4]);

#endif
