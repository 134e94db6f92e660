/* test_plancache.c: the plan cache's lookups, exact matching and LRU eviction (no device:
 * the plans are empty shells; ASan and valgrind runs check that eviction frees them all). */
#include "engine/plancache.h"
#include "lc_test.h"

#include <stdlib.h>
#include <string.h>

static struct lc_target T1, T2;
static char dev_a, dev_b;   /* two distinct "devices": only their addresses matter */

/* A plan shell for the structure `words` (n words) on device d and target t. */
static struct lc_xplan *shell(const uint64_t *words, size_t n, lc_device_t d,
                              const struct lc_target *t, uint64_t key)
{
    struct lc_xplan *x = calloc(1, sizeof *x);
    x->words = malloc(n * sizeof *words);
    memcpy(x->words, words, n * sizeof *words);
    x->n_words = n;
    x->device = d;
    x->target = *t;
    x->key = key;
    return x;
}

static struct lc_xplan *find(const uint64_t *words, size_t n, lc_device_t d,
                             const struct lc_target *t, uint64_t key)
{
    struct lc_graph_sig sig;
    memset(&sig, 0, sizeof sig);
    sig.words = (uint64_t *)words;
    sig.n_words = n;
    return lc_plancache_find(key, &sig, d, t);
}

int main(void)
{
    setenv("LAZYCL_PLAN_CACHE", "3", 1);
    lc_target_init(&T1, LC_TARGET_SIMD, 1, 2, 4096, "cpu");
    lc_target_init(&T2, LC_TARGET_GPU, 1, 2, 4096, "cpu");
    lc_device_t A = (lc_device_t)(void *)&dev_a, B = (lc_device_t)(void *)&dev_b;
    CHECK(lc_plancache_capacity() == 3);

    const uint64_t w1[] = {1, 2, 3}, w2[] = {1, 2, 4}, w3[] = {7}, w4[] = {8, 9};
    struct lc_xplan *p1 = shell(w1, 3, A, &T1, 42);
    lc_plancache_add(p1);
    CHECK(find(w1, 3, A, &T1, 42) == p1);
    /* The same key with other words, another device, another target: no match. */
    CHECK(find(w2, 3, A, &T1, 42) == NULL);
    CHECK(find(w1, 2, A, &T1, 42) == NULL);
    CHECK(find(w1, 3, B, &T1, 42) == NULL);
    CHECK(find(w1, 3, A, &T2, 42) == NULL);
    CHECK(find(w1, 3, A, &T1, 43) == NULL);
    /* Two plans under one key (a collision) are told apart by their words. */
    struct lc_xplan *p2 = shell(w2, 3, A, &T1, 42);
    lc_plancache_add(p2);
    CHECK(find(w1, 3, A, &T1, 42) == p1 && find(w2, 3, A, &T1, 42) == p2);
    /* LRU: p1 was used last; a third plan fits, a fourth evicts the least recent (p2). */
    CHECK(find(w1, 3, A, &T1, 42) == p1);
    struct lc_xplan *p3 = shell(w3, 1, A, &T1, 7 + 1024); /* the same bucket as 7 */
    lc_plancache_add(p3);
    struct lc_xplan *p4 = shell(w4, 2, B, &T1, 7);
    lc_plancache_add(p4);
    CHECK(find(w2, 3, A, &T1, 42) == NULL);
    CHECK(find(w1, 3, A, &T1, 42) == p1);
    CHECK(find(w3, 1, A, &T1, 7 + 1024) == p3);
    CHECK(find(w4, 2, B, &T1, 7) == p4);
    /* Now p1 is the least recent: adding one more evicts it. */
    struct lc_xplan *p5 = shell(w2, 3, B, &T2, 5);
    lc_plancache_add(p5);
    CHECK(find(w1, 3, A, &T1, 42) == NULL);
    CHECK(find(w2, 3, B, &T2, 5) == p5 && find(w3, 1, A, &T1, 7 + 1024) == p3);
    /* The key mixes the device and the target in. */
    struct lc_graph_sig s = {0};
    s.key = 99;
    CHECK(lc_plancache_key(&s, A, &T1) != lc_plancache_key(&s, B, &T1));
    CHECK(lc_plancache_key(&s, A, &T1) != lc_plancache_key(&s, A, &T2));
    CHECK(lc_plancache_key(&s, A, &T1) == lc_plancache_key(&s, A, &T1));
    /* ... and so do the GEMM tiles the autotuner picked, and its CLBlast choice. */
    struct lc_target T3 = T1, T4 = T1;
    CHECK(lc_target_gemm_set(&T3, 1) == 0);
    T4.gemm_blas = 2;
    CHECK(lc_plancache_key(&s, A, &T1) != lc_plancache_key(&s, A, &T3));
    CHECK(lc_plancache_key(&s, A, &T1) != lc_plancache_key(&s, A, &T4));
    struct lc_xplan *p6 = shell(w4, 2, A, &T1, 11);
    lc_plancache_add(p6);
    CHECK(find(w4, 2, A, &T1, 11) == p6 && find(w4, 2, A, &T3, 11) == NULL &&
          find(w4, 2, A, &T4, 11) == NULL);
    lc_plancache_clear();
    CHECK(find(w2, 3, B, &T2, 5) == NULL);
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
