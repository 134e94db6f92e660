/* stats.c: the process-wide counters behind lc_stats_get (atomics, no locks). */
#include "runtime/cl_util.h"

struct lc_stats_atomic lc_stats_g;

void lc_stats_in_use_add(unsigned long long n)
{
    unsigned long long now = atomic_fetch_add_explicit(&lc_stats_g.bytes_in_use, n,
                                                       memory_order_relaxed) + n;
    unsigned long long peak = atomic_load_explicit(&lc_stats_g.peak_bytes, memory_order_relaxed);
    while (now > peak && !atomic_compare_exchange_weak_explicit(&lc_stats_g.peak_bytes, &peak, now,
                                                                 memory_order_relaxed,
                                                                 memory_order_relaxed))
        ;
}

#define LD(f) atomic_load_explicit(&lc_stats_g.f, memory_order_relaxed)

void lc_stats_get(struct lc_stats *out)
{
    out->kernels_compiled = LD(kernels_compiled);
    out->memory_cache_hits = LD(memory_cache_hits);
    out->disk_cache_hits = LD(disk_cache_hits);
    out->launches = LD(launches);
    out->buffers_allocated = LD(buffers_allocated);
    out->pool_hits = LD(pool_hits);
    out->bytes_in_use = LD(bytes_in_use);
    out->bytes_cached = LD(bytes_cached);
    out->peak_bytes = LD(peak_bytes);
    out->bytes_to_device = LD(bytes_to_device);
    out->bytes_from_device = LD(bytes_from_device);
    out->spirv_builds = LD(spirv_builds);
    out->spir_builds = LD(spir_builds);
    out->plan_hits = LD(plan_hits);
    out->plan_misses = LD(plan_misses);
    out->gemm_tunings = LD(gemm_tunings);
    out->launches_inthread = LD(launches_inthread);
}

void lc_stats_count_tuning(void)
{
    LC_STAT_ADD(gemm_tunings, 1);
}

void lc_stats_count_plan(int hit)
{
    if (hit)
        LC_STAT_ADD(plan_hits, 1);
    else
        LC_STAT_ADD(plan_misses, 1);
}

#define Z(f) atomic_store_explicit(&lc_stats_g.f, 0, memory_order_relaxed)

void lc_stats_reset(void)
{
    Z(kernels_compiled);
    Z(memory_cache_hits);
    Z(disk_cache_hits);
    Z(launches);
    Z(buffers_allocated);
    Z(pool_hits);
    Z(bytes_to_device);
    Z(bytes_from_device);
    Z(spirv_builds);
    Z(spir_builds);
    Z(plan_hits);
    Z(plan_misses);
    Z(gemm_tunings);
    Z(launches_inthread);
    atomic_store_explicit(&lc_stats_g.peak_bytes, LD(bytes_in_use), memory_order_relaxed);
}
