/* inthread.c: a CPU device's in-thread companion, and the size below which launches use it.
 *
 * PoCL's pthread device hands each command to worker threads: a launch and its wait cost
 * ~20 us however small the kernel. PoCL's basic device runs commands in the thread that
 * waits for them, with the same compiler: a small launch costs ~1-3 us there, but it uses
 * one core. When both are in one context they share buffers (host memory, no migration),
 * so lazycl lists the pthread device only and runs each launch on one or the other by its
 * kernel's work (engine/xplan.c); transfers always run in-thread. The crossing point is
 * timed once per device and kept on disk ("tune/inthread-<hash>.txt").
 *
 * LAZYCL_INTHREAD: unset or "auto": as above; "0" / "off": no companion (PoCL as the user
 * set it up); a number of bytes: that limit, untimed.
 */
#include "runtime/cl_util.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* -1: off, 0: timed, > 0: that limit. Read at each call (discovery reads it once). */
static long long lc_inthread_setting(void)
{
    const char *v = getenv("LAZYCL_INTHREAD");
    if (!v || !*v || !strcasecmp(v, "auto"))
        return 0;
    if (!strcmp(v, "0") || !strcasecmp(v, "off") || !strcasecmp(v, "no") || !strcasecmp(v, "false"))
        return -1;
    char *end;
    long long n = strtoll(v, &end, 10);
    if (*end || n <= 0) {
        LC_LOG(1, "LAZYCL_INTHREAD=\"%s\" is neither 0, auto nor a number of bytes; timing instead",
               v);
        return 0;
    }
    return n;
}

int lc_inthread_ask(void)
{
    if (lc_inthread_setting() < 0 || getenv("POCL_DEVICES"))
        return 0;
    return setenv("POCL_DEVICES", "pthread basic", 1) == 0;
}

/* PoCL's names: the threaded device and its in-thread sibling, "<prefix><cpu name>". PoCL 3
 * calls them pthread and basic, PoCL 5 cpu and cpu-minimal (and takes the old names in
 * POCL_DEVICES). */
static const struct { const char *threaded, *inthread; } lc_pocl_names[] = {
    {"pthread-", "basic-"},
    {"cpu-", "cpu-minimal-"},
};

static void lc_device_name(cl_device_id id, char *name, size_t n)
{
    name[0] = '\0';
    if (clGetDeviceInfo(id, CL_DEVICE_NAME, n, name, NULL) != CL_SUCCESS)
        name[0] = '\0';
    name[n - 1] = '\0';
}

static int lc_starts(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Is `name` an in-thread device's name (of any PoCL naming)? */
static int lc_is_inthread_name(const char *name)
{
    for (size_t p = 0; p < sizeof lc_pocl_names / sizeof *lc_pocl_names; p++)
        if (lc_starts(name, lc_pocl_names[p].inthread))
            return 1;
    return 0;
}

void lc_inthread_pairs(const cl_device_id *ids, cl_device_id *pair, cl_uint n)
{
    for (cl_uint j = 0; j < n; j++)
        pair[j] = NULL;
    if (lc_inthread_setting() < 0)
        return;
    for (cl_uint j = 0; j < n; j++) {
        char nj[256];
        lc_device_name(ids[j], nj, sizeof nj);
        if (pair[j] || lc_is_inthread_name(nj))
            continue;
        for (size_t p = 0; p < sizeof lc_pocl_names / sizeof *lc_pocl_names && !pair[j]; p++) {
            const char *tp = lc_pocl_names[p].threaded, *ip = lc_pocl_names[p].inthread;
            if (!lc_starts(nj, tp))
                continue;
            for (cl_uint i = 0; i < n; i++) {
                char ni[256];
                lc_device_name(ids[i], ni, sizeof ni);
                if (i == j || pair[i] || !lc_starts(ni, ip) || strcmp(ni + strlen(ip), nj + strlen(tp)))
                    continue;
                pair[j] = ids[i];
                pair[i] = ids[i];
                break;
            }
        }
    }
}

lc_device_t lc_device_inthread(lc_device_t d)
{
    return d ? d->inthread : NULL;
}

/* ---- the limit, timed once ------------------------------------------------------- */

#define LC_INTHREAD_MIN ((size_t)256 << 10)
#define LC_INTHREAD_MAX ((size_t)4 << 20)

/* A fused elementwise kernel of moderate cost (a square root and an exponential). */
static const char lc_probe_src[] =
    "__kernel void lc_inthread_probe(__global float *restrict y, __global const float *restrict x)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    float v = x[i];\n"
    "    y[i] = sqrt(v * v + y[i]) * exp(-v) + 0.5f;\n"
    "}\n";

/* Seconds of the best of `reps` launches of k over n items on cq, each waited for. */
static double lc_probe_time(cl_command_queue cq, cl_kernel k, size_t n, int reps)
{
    double best = 1e30;
    for (int r = 0; r < reps; r++) {
        unsigned long long t0 = lc_now_ns();
        if (clEnqueueNDRangeKernel(cq, k, 1, NULL, &n, NULL, 0, NULL, NULL) != CL_SUCCESS ||
            clFinish(cq) != CL_SUCCESS)
            return -1;
        double s = (double)(lc_now_ns() - t0) * 1e-9;
        if (s < best)
            best = s;
    }
    return best;
}

/* The bytes touched (both buffers) by the smallest axpy that the threads run faster than
 * the calling thread, twice in a row; 0 when timing failed. The probe goes around the
 * runtime's caches, pool and counters (lc.stats() does not see it): its own program,
 * buffers and queues. */
static size_t lc_limit_time(struct lc_device *d)
{
    const size_t n_max = (size_t)1 << 21;
    size_t limit = 0;
    cl_int rc;
    cl_device_id ids[2] = {d->id, d->inthread->id};
    cl_command_queue cq[2] = {NULL, NULL};
    cl_kernel k[2] = {NULL, NULL};
    cl_mem x = NULL, y = NULL;
    const char *src = lc_probe_src;
    cl_program prog = clCreateProgramWithSource(d->ctx, 1, &src, NULL, &rc);
    if (rc != CL_SUCCESS || (rc = clBuildProgram(prog, 2, ids, "", NULL, NULL)) != CL_SUCCESS)
        goto out;
    x = clCreateBuffer(d->ctx, CL_MEM_READ_WRITE, n_max * 4, NULL, &rc);
    if (rc == CL_SUCCESS)
        y = clCreateBuffer(d->ctx, CL_MEM_READ_WRITE, n_max * 4, NULL, &rc);
    for (int i = 0; i < 2 && rc == CL_SUCCESS; i++) {
        cq[i] = clCreateCommandQueue(d->ctx, ids[i], 0, &rc);
        if (rc == CL_SUCCESS)
            k[i] = clCreateKernel(prog, "lc_inthread_probe", &rc);
        if (rc == CL_SUCCESS)
            rc = clSetKernelArg(k[i], 0, sizeof y, &y);
        if (rc == CL_SUCCESS)
            rc = clSetKernelArg(k[i], 1, sizeof x, &x);
        /* Warm up: the first launches fault pages in and start PoCL's threads. */
        if (rc == CL_SUCCESS && lc_probe_time(cq[i], k[i], n_max, 2) < 0)
            rc = CL_OUT_OF_RESOURCES;
    }
    if (rc != CL_SUCCESS)
        goto out;
    int wins = 0;
    size_t first = 0;
    for (size_t n = 1024; n <= n_max; n *= 2) {
        double ti = lc_probe_time(cq[1], k[1], n, 7);
        double tt = ti < 0 ? -1 : lc_probe_time(cq[0], k[0], n, 7);
        if (tt < 0) {
            rc = CL_OUT_OF_RESOURCES;
            goto out;
        }
        LC_LOG(2, "in-thread probe on '%s': %zu floats: in-thread %.1f us, threaded %.1f us",
               d->info.name, n, ti * 1e6, tt * 1e6);
        if (tt < ti) {
            if (!wins++)
                first = n;
            if (wins == 2)
                break;
        } else {
            wins = 0;
        }
    }
    /* In bytes, 8 per item of the probe (the two floats it reads). The engine counts a
     * kernel's work as the bytes it reads and writes (engine/xplan.c), which for the probe
     * would be 12: a kernel of the probe's size counts a third over the limit, so the
     * crossing errs toward the threads. Kept within
     * [256 KiB, 4 MiB]: a loaded machine (other processes on the cores) makes the threads
     * look slow, an idle one with many cores makes them look fast, and a limit timed
     * either way is kept for good; outside that range one kind of kernel (memory-bound or
     * compute-bound) would lose more than the other gains. */
    limit = (wins ? first : n_max * 2) * 8;
    if (limit < LC_INTHREAD_MIN)
        limit = LC_INTHREAD_MIN;
    if (limit > LC_INTHREAD_MAX)
        limit = LC_INTHREAD_MAX;
out:
    if (!limit)
        LC_LOG(1, "timing the in-thread launches of '%s' failed (%s): small launches stay threaded",
               d->info.name, lc_cl_strerror(rc));
    for (int i = 0; i < 2; i++) {
        if (k[i])
            clReleaseKernel(k[i]);
        if (cq[i])
            clReleaseCommandQueue(cq[i]);
    }
    if (x)
        clReleaseMemObject(x);
    if (y)
        clReleaseMemObject(y);
    if (prog)
        clReleaseProgram(prog);
    return limit;
}

static void lc_limit_record_name(const struct lc_device *d, char *out, size_t n)
{
    char hex[33];
    lc_cache_key_hex(lc_cache_key_make("inthread-limit-1", LAZYCL_VERSION, d->info.name,
                                       d->info.platform_version, d->info.driver_version,
                                       d->inthread->info.name), hex);
    snprintf(out, n, "inthread-%s.txt", hex);
}

static pthread_mutex_t lc_limit_lock = PTHREAD_MUTEX_INITIALIZER;

size_t lc_device_inthread_limit(lc_device_t d)
{
    if (!d || !d->inthread)
        return 0;
    long long set = lc_inthread_setting();
    if (set != 0)
        return set < 0 ? 0 : (size_t)set;
    pthread_mutex_lock(&lc_limit_lock);
    if (!d->limit_known) {
        char name[64], path[4200];
        lc_limit_record_name(d, name, sizeof name);
        char *text = lc_disk_record_read("tune", name, path, sizeof path);
        unsigned long long v = 0;
        char tail;
        if (text && sscanf(text, "inthread_limit_bytes %llu %c", &v, &tail) == 1 && v > 0 &&
            v < ((unsigned long long)1 << 40)) {
            d->inthread_limit = (size_t)v;
        } else {
            if (text)
                lc_disk_record_discard(path, "not an in-thread limit record");
            d->inthread_limit = lc_limit_time(d);
            char rec[64];
            snprintf(rec, sizeof rec, "inthread_limit_bytes %zu\n", d->inthread_limit);
            if (d->inthread_limit)
                lc_disk_record_write("tune", name, rec, path, sizeof path);
        }
        free(text);
        d->limit_known = 1;
        LC_LOG(1, "'%s': launches touching under %zu bytes run in the calling thread", d->info.name,
               d->inthread_limit);
    }
    size_t limit = d->inthread_limit;
    pthread_mutex_unlock(&lc_limit_lock);
    return limit;
}
