/* test_bipartite_remap.c — partition relabelling: on random partitions with
 * up to 6 labels the agreement after remapping equals the best over all
 * label permutations (enumerated), the output is b under one injective
 * relabelling, GPU equals CPU when a GPU is present; and `coarsen remap` end
 * to end (agreement lines, written file, bad input exits 2). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bipartite/remap.h"
#include "core/hash.h"
#include "tests/support/cli_run.h"
#include "tests/support/io_files.h"
#include "tests/support/test_support.h"

/* Best agreement over all permutations of 0..k-1 applied to b (k <= 7). */
static int64_t best_permutation(const int32_t *a, const int32_t *b, int64_t n, int32_t k)
{
    int32_t perm[8];
    for (int32_t x = 0; x < k; x++)
        perm[x] = x;
    int64_t best = -1;
    for (;;) {
        int64_t agree = 0;
        for (int64_t v = 0; v < n; v++)
            agree += perm[b[v]] == a[v];
        if (agree > best)
            best = agree;
        /* next permutation (lexicographic) */
        int32_t i = k - 2;
        while (i >= 0 && perm[i] >= perm[i + 1])
            i--;
        if (i < 0)
            return best;
        int32_t j = k - 1;
        while (perm[j] <= perm[i])
            j--;
        int32_t t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
        for (int32_t l = i + 1, r = k - 1; l < r; l++, r--) {
            t = perm[l];
            perm[l] = perm[r];
            perm[r] = t;
        }
    }
}

Test(bipartite_remap, agreement_is_the_best_over_all_permutations)
{
    int32_t a[300], b[300], out[300];
    for (uint64_t seed = 1; seed <= 60; seed++) {
        int32_t ka = 1 + (int32_t)(seed % 6), kb = 1 + (int32_t)(seed * 7 % 6);
        int64_t n = 20 + (int64_t)(seed * 37 % 280);
        for (int64_t v = 0; v < n; v++) {
            a[v] = (int32_t)(hash3(seed, 1, (uint64_t)v) % (uint64_t)ka);
            /* b mostly a shuffled copy of a, with noise */
            b[v] = hash3(seed, 2, (uint64_t)v) % 4 ? (a[v] * 5 + (int32_t)seed) % kb
                                                   : (int32_t)(hash3(seed, 3, (uint64_t)v) % (uint64_t)kb);
        }
        bip_remap_result res;
        coarsen_error err = {0};
        cr_assert_eq(bip_remap(a, b, n, 0, out, &res, &err), 0, "%s", err.msg);
        int32_t k = res.k;
        int64_t before = 0;
        for (int64_t v = 0; v < n; v++)
            before += a[v] == b[v];
        cr_expect_eq(res.agree_before, before);
        cr_assert_eq(res.agree_after, best_permutation(a, b, n, k), "seed %llu", (unsigned long long)seed);
        cr_expect_eq(res.proven_optimal, 1);
        int32_t image[8];
        for (int32_t x = 0; x < 8; x++)
            image[x] = -1;
        for (int64_t v = 0; v < n; v++) { /* one relabelling: b's label decides out's */
            cr_assert(out[v] >= 0 && out[v] < k);
            if (image[b[v]] == -1)
                image[b[v]] = out[v];
            cr_assert_eq(out[v], image[b[v]]);
        }
        for (int32_t x = 0; x < k; x++)
            for (int32_t y = x + 1; y < k; y++)
                cr_assert(image[x] == -1 || image[x] != image[y], "labels %d and %d merged", x, y);
        if (test_have_gpu()) {
            int32_t gout[300];
            bip_remap_result gres;
            cr_assert_eq(bip_remap(a, b, n, 1, gout, &gres, &err), 0, "%s", err.msg);
            cr_expect(!memcmp(gout, out, (size_t)n * sizeof *out), "GPU relabelling differs");
        }
    }
}

Test(bipartite_remap, negative_label_is_an_input_error)
{
    int32_t a[2] = {0, 1}, b[2] = {0, -1}, out[2];
    coarsen_error err = {0};
    cr_expect_eq(bip_remap(a, b, 2, 0, out, NULL, &err), COARSEN_ERR_INPUT);
}

Test(bipartite_remap, cli_prints_agreement_and_writes_the_relabelled_partition)
{
    const char *prog = cli_prog();
    char pa[1024], pb[1024], po[1024], cmd[8192];
    snprintf(pa, sizeof pa, "%s", io_file("a.part", "0\n0\n1\n1\n2\n2\n", 0));
    snprintf(pb, sizeof pb, "%s", io_file("b.part", "2\n2\n0\n1\n1\n1\n", 0));
    snprintf(po, sizeof po, "%s", io_path("c.part"));
    snprintf(cmd, sizeof cmd, "%s remap --quiet %s %s -o %s 2>/dev/null", prog, pa, pb, po);
    char text[1024] = {0};
    cr_assert_eq(cli_run(cmd, text, sizeof text), 0);
    /* b: 2->0 (2 vertices), 1->2 (2 of 3 agree), 0->1 (1 agrees): 5 of 6 */
    cr_expect(strstr(text, "agreement before: 1 (16.67%)"), "%s", text);
    cr_expect(strstr(text, "agreement after: 5 (83.33%), proven optimal"), "%s", text);
    FILE *f = fopen(po, "r");
    cr_assert(f);
    int want[6] = {0, 0, 1, 2, 2, 2}, x;
    for (int v = 0; v < 6; v++) {
        cr_assert_eq(fscanf(f, "%d", &x), 1);
        cr_expect_eq(x, want[v], "vertex %d", v);
    }
    fclose(f);
    snprintf(cmd, sizeof cmd, "%s remap --quiet %s >/dev/null 2>&1", prog, pa);
    cr_expect_eq(cli_run(cmd, NULL, 0), 2, "one file only is a usage error");
}
