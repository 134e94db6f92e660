/* program.c: lc_kernel_get: OpenCL C -> kernel, through the kernel caches or a build.
 *
 * lc_kernel_get looks in three places, in order:
 *   1. the device's memory cache (kcache.c): programs by cache key, each with
 *      the kernels made from it so far;
 *   2. the disk cache (diskcache.c): a device binary, loaded with
 *      clCreateProgramWithBinary + clBuildProgram;
 *   3. a build (build.c), on one of three routes (docs/env.md, LAZYCL_BUILD):
 *      SPIR-V (spirv.c: clang-15 -cc1 ... -emit-llvm-bc, llvm-spirv-15; then
 *      clCreateProgramWithIL) when a GPU takes SPIR-V (a CPU driver that does, Intel's,
 *      builds faster from source: pick_route); SPIR 1.2 bitcode
 *      (clang-15 alone; clCreateProgramWithBinary) for PoCL built on the same
 *      LLVM, which then skips parsing opencl-c.h for every program; else
 *      clCreateProgramWithSource. The binary then goes to disk.
 * The key (cachefile.c) covers the source, the options, the device, its
 * driver and the compiler route, so a route change never reuses a binary.
 *
 * Loads and builds of one device run one at a time under its build lock
 * (so a program is never built twice); lookups take only the table lock.
 */
#include "runtime/cl_util.h"

#include <stdlib.h>
#include <string.h>

static const char *route_name(int route)
{
    return route == LC_ROUTE_SPIRV ? "SPIR-V" : route == LC_ROUTE_SPIR ? "SPIR" : "source";
}

/* The compiler identity of a route in the cache key. */
static const char *route_id(int route)
{
    const struct lc_build_env *env = lc_build_env();
    return route == LC_ROUTE_SPIRV ? env->tools_id : route == LC_ROUTE_SPIR ? env->spir_id
                                                                            : LC_COMPILER_SOURCE;
}

/* The disk cache, else a build (then stored on disk). *clang_failed says a
 * route through clang failed, which auto mode retries from source. */
static lc_status load_or_build(struct lc_device *d, struct lc_cache_key key, const char *source,
                               const char *name, const char *options, int route, cl_program *out,
                               int *clang_failed, struct lc_error *e)
{
    *clang_failed = 0;
    lc_build_dump(name, source, route, NULL, 0);
    unsigned long long t0 = lc_now_ns();
    char dopts[4096];
    lc_build_driver_options(d, options, route, dopts, sizeof dopts);
    cl_program prog = lc_disk_load(d, key, dopts);
    if (prog) {
        LC_STAT_ADD(disk_cache_hits, 1);
        LC_LOG(2, "kernel %s: disk cache hit (%.1f ms)", name, (double)(lc_now_ns() - t0) / 1e6);
        *out = prog;
        return LC_OK;
    }
    lc_status st;
    char *bits = NULL;
    size_t bits_n = 0;
    if (route != LC_ROUTE_SOURCE) {
        st = lc_build_clang(d, source, name, options, route, &prog, &bits, &bits_n, e);
        if (bits)
            lc_build_dump(name, source, route, bits, bits_n);
        *clang_failed = st != LC_OK;
    } else {
        st = lc_build_source(d, source, name, options, &prog, e);
    }
    if (st != LC_OK) {
        free(bits);
        return st;
    }
    LC_STAT_ADD(kernels_compiled, 1);
    if (route == LC_ROUTE_SPIRV)
        LC_STAT_ADD(spirv_builds, 1);
    if (route == LC_ROUTE_SPIR)
        LC_STAT_ADD(spir_builds, 1);
    LC_LOG(2, "kernel %s: built %s%s for '%s' in %.1f ms", name,
           route == LC_ROUTE_SOURCE ? "from " : "via ", route_name(route), d->info.name,
           (double)(lc_now_ns() - t0) / 1e6);
    /* PoCL's SPIR: the disk keeps the bitcode, PoCL's own cache the kernels compiled from it
     * (a device binary would cost a second compile of every kernel: enum lc_entry_kind). */
    if (route == LC_ROUTE_SPIR)
        lc_disk_store_bytes(key, LC_ENTRY_SPIR, bits, bits_n);
    else
        lc_disk_store(d, key, prog);
    free(bits);
    *out = prog;
    return LC_OK;
}

static lc_status kernel_get(struct lc_device *d, const char *source, const char *name,
                            const char *options, int route, lc_kernel_t *out, struct lc_error *e)
{
    const struct lc_build_env *env = lc_build_env();
    struct lc_cache_key key = lc_cache_key_make(source, options, d->info.name, d->info.platform_version,
                                                d->info.driver_version, route_id(route));
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
    int clang_failed = 0;
    st = load_or_build(d, key, source, name, options, route, &prog, &clang_failed, e);
    if (st == LC_OK)
        st = lc_kcache_add(d, key, prog, name, out, e);
    lc_kcache_build_unlock(d);

    if (clang_failed && env->mode == LC_BUILD_AUTO) {
        LC_LOG(1, "kernel %s: %s build failed, building from source: %s", name, route_name(route),
               e ? e->msg : "");
        lc_error_clear(e);
        st = kernel_get(d, source, name, options, LC_ROUTE_SOURCE, out, e);
        if (st == LC_OK) {
            /* Remember the fallback under the clang route's key too (in memory and on
             * disk), so that this process and the next never retry the failing
             * build of the same source. */
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

/* The route for device d under LAZYCL_BUILD, or -1 with e set when the mode asks for a
 * route whose tools are missing. */
static int pick_route(struct lc_device *d, const char *source, struct lc_error *e)
{
    const struct lc_build_env *env = lc_build_env();
    int route = LC_ROUTE_SOURCE;
    if (env->mode == LC_BUILD_SOURCE)
        return route;
    /* A CPU driver that takes SPIR-V (Intel's CPU runtime) builds from source under auto:
     * its own compiler in-process. Through SPIR-V, llvm-spirv-15 aborted on most of lazycl's
     * kernels (clang-15's opaque pointers), so each went through clang twice and the
     * translator twice before its build from source (test_setops.py and test_join.py on it
     * from empty caches, 2 Zen 3 cores: 41 s from source, 119 s so). GPUs that take SPIR-V
     * keep it (none here to measure). */
    int cpu_source = env->mode == LC_BUILD_AUTO && d->info.type == LC_DEVICE_CPU;
    if (d->info.takes_spirv && env->mode != LC_BUILD_SPIR && !cpu_source) {
        if (env->tools_ok) {
            route = LC_ROUTE_SPIRV;
        } else if (env->mode == LC_BUILD_SPIRV) {
            lc_error_set(e, LC_ERR_COMPILE, "LAZYCL_BUILD=spirv, but the SPIR-V tools are not "
                         "usable: %s", env->tools_why);
            return -1;
        }
    } else if (d->info.spir_llvm && env->mode != LC_BUILD_SPIRV) {
        if (env->spir_ok && env->clang_major == d->info.spir_llvm) {
            route = LC_ROUTE_SPIR;
        } else if (env->mode == LC_BUILD_SPIR) {
            if (env->spir_ok)
                lc_error_set(e, LC_ERR_COMPILE, "LAZYCL_BUILD=spir, but %s is clang %d and "
                             "'%s' takes SPIR from LLVM %d", env->clang, env->clang_major,
                             d->info.name, d->info.spir_llvm);
            else
                lc_error_set(e, LC_ERR_COMPILE, "LAZYCL_BUILD=spir, but clang is not usable: %s",
                             env->spir_why);
            return -1;
        }
    }
    /* A kernel may ask for the driver's own compiler (LC_SOURCE_ONLY_MARK): one that some
     * driver miscompiles, or crashes on, from SPIR-V. Under LAZYCL_BUILD=auto only; looked
     * for only where a route through clang was chosen (every lookup passes here). */
    if (route != LC_ROUTE_SOURCE && env->mode == LC_BUILD_AUTO && strstr(source, LC_SOURCE_ONLY_MARK))
        route = LC_ROUTE_SOURCE;
    return route;
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
        return lc_error_set(e, LC_ERR_INVALID, "LAZYCL_BUILD must be auto, source, spirv or spir, "
                            "not '%s'", env->bad);
    int route = pick_route(d, source, e);
    if (route < 0)
        return LC_ERR_COMPILE;
    return kernel_get(d, source, name, options, route, out, e);
}
