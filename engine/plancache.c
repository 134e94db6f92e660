/* plancache.c: executable plans by graph structure: a chained hash table plus an LRU list. */
#include "engine/plancache.h"

#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#define LC_PLAN_BUCKETS 1024 /* a power of two */

/* Guarded by the engine's lock (every caller holds it). */
static struct {
    int ready;
    size_t capacity, n;
    struct lc_xplan *bucket[LC_PLAN_BUCKETS];
    struct lc_xplan *head, *tail; /* most recent first */
} lc_pc;

static void lc_plancache_init(void)
{
    if (lc_pc.ready)
        return;
    lc_pc.ready = 1;
    lc_pc.capacity = LC_PLAN_CACHE_DEFAULT;
    const char *s = getenv("LAZYCL_PLAN_CACHE");
    if (s && *s) {
        char *end;
        long long v = strtoll(s, &end, 10);
        if (*end == '\0' && v >= 0)
            lc_pc.capacity = (size_t)v;
    }
}

size_t lc_plancache_capacity(void)
{
    lc_plancache_init();
    return lc_pc.capacity;
}

uint64_t lc_plancache_key(const struct lc_graph_sig *sig, lc_device_t d, const struct lc_target *t)
{
    struct { uint64_t key; const void *device; } head = {sig->key, d};
    return XXH3_64bits_withSeed(t, sizeof *t, XXH3_64bits(&head, sizeof head));
}

static void lc_lru_unlink(struct lc_xplan *x)
{
    if (x->lru_prev)
        x->lru_prev->lru_next = x->lru_next;
    else
        lc_pc.head = x->lru_next;
    if (x->lru_next)
        x->lru_next->lru_prev = x->lru_prev;
    else
        lc_pc.tail = x->lru_prev;
    x->lru_prev = x->lru_next = NULL;
}

static void lc_lru_push_front(struct lc_xplan *x)
{
    x->lru_prev = NULL;
    x->lru_next = lc_pc.head;
    if (lc_pc.head)
        lc_pc.head->lru_prev = x;
    lc_pc.head = x;
    if (!lc_pc.tail)
        lc_pc.tail = x;
}

struct lc_xplan *lc_plancache_find(uint64_t key, const struct lc_graph_sig *sig, lc_device_t d,
                                   const struct lc_target *t)
{
    lc_plancache_init();
    for (struct lc_xplan *x = lc_pc.bucket[key & (LC_PLAN_BUCKETS - 1)]; x; x = x->chain)
        if (x->key == key && x->device == d && !memcmp(&x->target, t, sizeof *t) &&
            lc_graph_sig_equal(x->words, x->n_words, sig->words, sig->n_words)) {
            if (lc_pc.head != x) {
                lc_lru_unlink(x);
                lc_lru_push_front(x);
            }
            return x;
        }
    return NULL;
}

static void lc_plancache_drop(struct lc_xplan *x)
{
    struct lc_xplan **p = &lc_pc.bucket[x->key & (LC_PLAN_BUCKETS - 1)];
    while (*p != x)
        p = &(*p)->chain;
    *p = x->chain;
    lc_lru_unlink(x);
    lc_pc.n--;
    lc_xplan_free(x);
}

void lc_plancache_add(struct lc_xplan *x)
{
    lc_plancache_init();
    if (!lc_pc.capacity) {
        lc_xplan_free(x);
        return;
    }
    struct lc_xplan **b = &lc_pc.bucket[x->key & (LC_PLAN_BUCKETS - 1)];
    x->chain = *b;
    *b = x;
    lc_lru_push_front(x);
    lc_pc.n++;
    while (lc_pc.n > lc_pc.capacity)
        lc_plancache_drop(lc_pc.tail);
}

void lc_plancache_clear(void)
{
    while (lc_pc.tail)
        lc_plancache_drop(lc_pc.tail);
}
