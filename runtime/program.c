/* program.c: lc_kernel_get: OpenCL C -> kernel, through the kernel caches or a build.
 *
 * lc_kernel_get looks in three places, in order:
 *   1. the device's memory cache (kcache.c): programs by cache key, each with
 *      the kernels made from it so far;
 *   2. the disk cache (diskcache.c): a device binary, loaded with
 *      clCreateProgramWithBinary + clBuildProgram;
 *   3. a build (build.c): SPIR-V (spirv.c: clang-15 -cc1 ... -emit-llvm-bc,
 *      llvm-spirv-15; then clCreateProgramWithIL) when the device takes SPIR-V
 *      and LAZYCL_BUILD allows it, else clCreateProgramWithSource. The binary
 *      then goes to disk.
 * The key (cachefile.c) covers the source, the options, the device, its
 * driver and the compiler route, so a route change never reuses a binary.
 *
 * Loads and builds of one device run one at a time under its build lock
 * (so a program is never built twice); lookups take only the table lock.
 */
#include "runtime/cl_util.h"

#include <stdlib.h>
#include <string.h>

/* The disk cache, else a build (then stored on disk). *spirv_failed says a
 * SPIR-V route failed, which auto mode retries from source. */
static lc_status load_or_build(struct lc_device *d, struct lc_cache_key key, const char *source,
                               const char *name, const char *options, int spirv, cl_program *out,
                               int *spirv_failed, struct lc_error *e)
{
    *spirv_failed = 0;
    lc_build_dump(name, source, NULL, 0);
    unsigned long long t0 = lc_now_ns();
    char dopts[4096];
    lc_build_driver_options(d, options, spirv, dopts, sizeof dopts);
    cl_program prog = lc_disk_load(d, key, dopts);
    if (prog) {
        LC_STAT_ADD(disk_cache_hits, 1);
        LC_LOG(2, "kernel %s: disk cache hit (%.1f ms)", name, (double)(lc_now_ns() - t0) / 1e6);
        *out = prog;
        return LC_OK;
    }
    lc_status st;
    if (spirv) {
        char *spv = NULL;
        size_t spv_n = 0;
        st = lc_build_spirv(d, source, name, options, &prog, &spv, &spv_n, e);
        if (spv)
            lc_build_dump(name, source, spv, spv_n);
        free(spv);
        *spirv_failed = st != LC_OK;
    } else {
        st = lc_build_source(d, source, name, options, &prog, e);
    }
    if (st != LC_OK)
        return st;
    LC_STAT_ADD(kernels_compiled, 1);
    if (spirv)
        LC_STAT_ADD(spirv_builds, 1);
    LC_LOG(2, "kernel %s: built %s for '%s' in %.1f ms", name, spirv ? "via SPIR-V" : "from source",
           d->info.name, (double)(lc_now_ns() - t0) / 1e6);
    lc_disk_store(d, key, prog);
    *out = prog;
    return LC_OK;
}

static lc_status kernel_get(struct lc_device *d, const char *source, const char *name,
                            const char *options, int spirv, lc_kernel_t *out, struct lc_error *e)
{
    const struct lc_build_env *env = lc_build_env();
    struct lc_cache_key key = lc_cache_key_make(source, options, d->info.name, d->info.platform_version,
                                                d->info.driver_version,
                                                spirv ? env->tools_id : LC_COMPILER_SOURCE);
    lc_status st = LC_OK;
    if (lc_kcache_lookup(d, key, name, out, &st, e))
        return st;

    /* One build at a time per device: a second thread that wants the same
     * program waits here and then finds it in memory instead of building it
     * again. Memory-cache hits never take this lock. */
    lc_kcache_build_lock(d);
    if (lc_kcache_lookup(d, key, name, out, &st, e)) {
        lc_kcache_build_unlock(d);
        return st;
    }
    cl_program prog = NULL;
    int spirv_failed = 0;
    st = load_or_build(d, key, source, name, options, spirv, &prog, &spirv_failed, e);
    if (st == LC_OK)
        st = lc_kcache_add(d, key, prog, name, out, e);
    lc_kcache_build_unlock(d);

    if (spirv_failed && env->mode == LC_BUILD_AUTO) {
        LC_LOG(1, "kernel %s: SPIR-V build failed, building from source: %s", name, e ? e->msg : "");
        lc_error_clear(e);
        st = kernel_get(d, source, name, options, 0, out, e);
        if (st == LC_OK) {
            /* Remember the fallback under the SPIR-V key too (in memory and on
             * disk), so that this process and the next never retry the failing
             * SPIR-V build of the same source. */
            struct lc_cache_key skey = lc_cache_key_make(source, options, d->info.name,
                                                         d->info.platform_version,
                                                         d->info.driver_version, LC_COMPILER_SOURCE);
            cl_program alias = lc_kcache_alias(d, key, skey);
            if (alias)
                lc_disk_store(d, key, alias);
        }
    }
    return st;
}

lc_status lc_kernel_get(lc_device_t d, const char *source, const char *name, const char *options,
                        lc_kernel_t *out, struct lc_error *e)
{
    if (!source || !name || !name[0])
        return lc_error_set(e, LC_ERR_INVALID, "lc_kernel_get: source and kernel name are required");
    if (!options)
        options = "";
    const struct lc_build_env *env = lc_build_env();
    if (env->bad[0])
        return lc_error_set(e, LC_ERR_INVALID, "LAZYCL_BUILD must be auto, source or spirv, not '%s'",
                            env->bad);
    int spirv = d->info.takes_spirv && env->mode != LC_BUILD_SOURCE;
    /* A kernel may ask for the driver's own compiler (LC_SOURCE_ONLY_MARK): one that some
     * driver miscompiles, or crashes on, from SPIR-V. Under LAZYCL_BUILD=auto only. */
    if (spirv && env->mode == LC_BUILD_AUTO && strstr(source, LC_SOURCE_ONLY_MARK))
        spirv = 0;
    if (spirv && !env->tools_ok) {
        if (env->mode == LC_BUILD_SPIRV)
            return lc_error_set(e, LC_ERR_COMPILE, "LAZYCL_BUILD=spirv, but the SPIR-V tools are not "
                                "usable: %s", env->tools_why);
        spirv = 0;
    }
    return kernel_get(d, source, name, options, spirv, out, e);
}
