/* plancache.h: executable plans kept by graph structure, least recently used out first.
 *
 * A graph whose structure was planned before skips fusion, codegen, source
 * hashing and program lookup: its force finds the xplan by the signature's
 * key, checks the exact words (and the device and target), and runs it.
 * Capacity: LAZYCL_PLAN_CACHE plans (default LC_PLAN_CACHE_DEFAULT, 0 turns
 * the cache off), read once.
 *
 * Not thread-safe by itself: every call is made under the engine's lock.
 */
#ifndef LC_ENGINE_PLANCACHE_H
#define LC_ENGINE_PLANCACHE_H

#include "engine/xplan.h"

#define LC_PLAN_CACHE_DEFAULT 4096

/* The cache's key for a signature on a device and target. */
uint64_t lc_plancache_key(const struct lc_graph_sig *sig, lc_device_t d, const struct lc_target *t);
/* The plan made for this structure, or NULL. A hit becomes the most recent. */
struct lc_xplan *lc_plancache_find(uint64_t key, const struct lc_graph_sig *sig, lc_device_t d,
                                   const struct lc_target *t);
/* Keep x (the cache owns it from now on, or frees it at once when the cache
 * is off); the least recently used plan beyond capacity is freed. */
void lc_plancache_add(struct lc_xplan *x);
size_t lc_plancache_capacity(void);
/* Free every plan. */
void lc_plancache_clear(void);

#endif
