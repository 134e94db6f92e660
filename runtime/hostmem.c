/* hostmem.c: host memory shared with a CPU device: pinned mappings and buffers over host memory.
 *
 * DLPack (python/py_dlpack.c) hands the memory of a lazycl buffer to another
 * library and takes another library's memory as a lazycl buffer, without a
 * copy where the device computes in host memory:
 *
 * - a pin maps a buffer for reading and writing and keeps it mapped while the
 *   other library holds it; the mapping is the buffer's storage on the CPU
 *   drivers probed below, so lazycl's later kernels and the other library
 *   see each other's writes;
 * - a wrapped buffer is made with CL_MEM_USE_HOST_PTR over the other
 *   library's memory, and tells its owner when the driver has let go of it
 *   (clSetMemObjectDestructorCallback), so that memory outlives every
 *   command that used it.
 *
 * The OpenCL spec promises neither (a kernel may not touch a region mapped
 * for writing; a driver may cache a host pointer's memory), so each device is
 * probed once for what its driver does, on small buffers of its own, and
 * sharing is used only where the probe saw it.
 */
#include "runtime/cl_util.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define LC_HOST_PROBED 0x100

/* Guards the pin state of every buffer (pins, host, pin_q); pins are rare. */
static pthread_mutex_t lc_pin_lock = PTHREAD_MUTEX_INITIALIZER;

static void CL_CALLBACK lc_free_cb(cl_mem m, void *p)
{
    (void)m;
    free(p);
}

/* The words of a 256-byte region are all `v`? */
static int lc_all_words(const uint32_t *w, uint32_t v)
{
    for (int i = 0; i < 64; i++)
        if (w[i] != v)
            return 0;
    return 1;
}

/* Does a fill through the buffer show in host memory `h`, and a host write to
 * `h` in a read through the buffer? (256 bytes; h stays valid throughout.) */
static int lc_probe_both_ways(cl_command_queue q, cl_mem m, uint32_t *h)
{
    uint32_t pat = 0x5a17c3e1u, back[64];
    if (clEnqueueFillBuffer(q, m, &pat, sizeof pat, 0, 256, 0, NULL, NULL) != CL_SUCCESS ||
        clFinish(q) != CL_SUCCESS || !lc_all_words(h, pat))
        return 0;
    for (int i = 0; i < 64; i++)
        h[i] = 0x0badf00du;
    return clEnqueueReadBuffer(q, m, CL_TRUE, 0, 256, back, 0, NULL, NULL) == CL_SUCCESS &&
           lc_all_words(back, 0x0badf00du);
}

static int lc_probe(struct lc_device *d)
{
    if (d->info.type != LC_DEVICE_CPU)
        return 0;
    struct lc_error e = {0};
    lc_queue_t lq;
    if (lc_device_queue(d, &lq, &e) != LC_OK) {
        lc_error_clear(&e);
        return 0;
    }
    cl_command_queue q = lq->q;
    int r = 0;
    cl_int rc;

    /* A buffer of the driver's own, mapped and kept mapped. */
    cl_mem m = clCreateBuffer(d->ctx, CL_MEM_READ_WRITE, 256, NULL, &rc);
    if (rc == CL_SUCCESS) {
        void *p = clEnqueueMapBuffer(q, m, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, 256, 0, NULL, NULL,
                                     &rc);
        if (rc == CL_SUCCESS) {
            if (lc_probe_both_ways(q, m, p))
                r |= LC_HOST_MAP;
            clEnqueueUnmapMemObject(q, m, p, 0, NULL, NULL);
            clFinish(q);
        }
        clReleaseMemObject(m);
    }

    /* A buffer over host memory 16 bytes past a page (the alignment of a
     * typical NumPy array); the memory is freed once the driver lets go. */
    char *raw = aligned_alloc(4096, 8192);
    if (raw) {
        m = clCreateBuffer(d->ctx, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, 256, raw + 16, &rc);
        if (rc != CL_SUCCESS) {
            free(raw);
        } else if (clSetMemObjectDestructorCallback(m, lc_free_cb, raw) != CL_SUCCESS) {
            clReleaseMemObject(m);
            clFinish(q);
            free(raw);   /* no callback: the driver is done with it after the finish */
        } else {
            if (lc_probe_both_ways(q, m, (uint32_t *)(raw + 16)))
                r |= LC_HOST_WRAP;
            clReleaseMemObject(m);
        }
    }
    LC_LOG(1, "host sharing on '%s': mapped buffers %s, buffers over host memory %s", d->info.name,
           r & LC_HOST_MAP ? "are their storage" : "are copies",
           r & LC_HOST_WRAP ? "use it" : "copy it");
    return r;
}

int lc_device_host_sharing(lc_device_t d)
{
    int v = atomic_load(&d->host_sharing);
    if (v & LC_HOST_PROBED)
        return v & ~LC_HOST_PROBED;
    /* Two threads may probe at once: both find the same. */
    v = lc_probe(d);
    atomic_store(&d->host_sharing, v | LC_HOST_PROBED);
    return v;
}

lc_status lc_buffer_pin(lc_queue_t q, lc_buffer_t b, void **ptr, struct lc_error *e)
{
    if (b->dev != q->dev)
        return lc_error_set(e, LC_ERR_PLACEMENT, "lc_buffer_pin: buffer is on device '%s', queue on '%s'",
                            b->dev->info.name, q->dev->info.name);
    if (!(lc_device_host_sharing(b->dev) & LC_HOST_MAP))
        return lc_error_set(e, LC_ERR_UNSUPPORTED, "device '%s' does not share its buffers with the host",
                            b->dev->info.name);
    pthread_mutex_lock(&lc_pin_lock);
    if (atomic_load(&b->pins) == 0) {
        cl_int rc;
        /* A buffer is never empty (its class has >= 64 bytes); map at least one byte. */
        size_t n = b->size ? b->size : 1;
        int side;
        void *p = NULL;
        cl_command_queue cq = lc_queue_enter(q, 1, &side, &rc);
        if (cq) {
            p = clEnqueueMapBuffer(cq, b->mem, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, n, 0, NULL,
                                   NULL, &rc);
            lc_queue_leave(q, side, rc == CL_SUCCESS);
        }
        if (rc != CL_SUCCESS) {
            pthread_mutex_unlock(&lc_pin_lock);
            return lc_cl_fail(e, rc, "clEnqueueMapBuffer", q->dev);
        }
        b->host = p;
        b->pin_q = q;
        lc_queue_retain(q);
    } else {
        /* Already mapped: what q wrote since must be done before the host reads. */
        lc_status st = lc_queue_finish(q, e);
        if (st != LC_OK) {
            pthread_mutex_unlock(&lc_pin_lock);
            return st;
        }
    }
    atomic_fetch_add(&b->pins, 1);
    lc_buffer_retain(b);
    *ptr = b->host;
    pthread_mutex_unlock(&lc_pin_lock);
    return LC_OK;
}

void lc_buffer_unpin(lc_buffer_t b)
{
    pthread_mutex_lock(&lc_pin_lock);
    if (atomic_fetch_sub(&b->pins, 1) == 1) {
        struct lc_queue *q = b->pin_q;
        cl_event ev;
        int side;
        cl_int rc;
        cl_command_queue cq = lc_queue_enter(q, 1, &side, &rc);
        if (cq) {
            rc = clEnqueueUnmapMemObject(cq, b->mem, b->host, 0, NULL, &ev);
            lc_queue_leave(q, side, 0);
        }
        b->host = NULL;
        b->pin_q = NULL;
        pthread_mutex_unlock(&lc_pin_lock);
        /* Wait, so that the buffer's next owner (from the pool, on any queue)
         * finds it unmapped. */
        if (rc == CL_SUCCESS) {
            clWaitForEvents(1, &ev);
            clReleaseEvent(ev);
        } else {
            LC_LOG(1, "clEnqueueUnmapMemObject on '%s' failed: %s", q->dev->info.name,
                   lc_cl_strerror(rc));
        }
        lc_queue_release(q);
    } else {
        pthread_mutex_unlock(&lc_pin_lock);
    }
    lc_buffer_release(b);
}

int lc_buffer_shared(lc_buffer_t b)
{
    return b->wraps_host || atomic_load(&b->pins) > 0;
}

int lc_buffer_pinned(lc_buffer_t b)
{
    return atomic_load(&b->pins) > 0;
}

void *lc_buffer_host_owner(lc_buffer_t b)
{
    return b->wraps_host ? b->host_owner : NULL;
}

struct lc_wrap_cb {
    void (*fn)(void *ctx);
    void *ctx;
};

static void CL_CALLBACK lc_wrap_freed(cl_mem m, void *p)
{
    (void)m;
    struct lc_wrap_cb *w = p;
    w->fn(w->ctx);
    free(w);
}

lc_status lc_buffer_wrap_host(lc_device_t d, void *ptr, size_t bytes, void (*on_free)(void *ctx),
                              void *ctx, lc_buffer_t *out, struct lc_error *e)
{
    if (!ptr || !bytes)
        return lc_error_set(e, LC_ERR_INVALID, "lc_buffer_wrap_host: no memory to wrap");
    if (!(lc_device_host_sharing(d) & LC_HOST_WRAP))
        return lc_error_set(e, LC_ERR_UNSUPPORTED, "device '%s' cannot compute in host memory",
                            d->info.name);
    struct lc_buffer *b = calloc(1, sizeof *b);
    struct lc_wrap_cb *w = malloc(sizeof *w);
    if (!b || !w) {
        free(b);
        free(w);
        return lc_error_set(e, LC_ERR_NOMEM, "out of host memory");
    }
    cl_int rc;
    b->mem = clCreateBuffer(d->ctx, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, bytes, ptr, &rc);
    if (rc != CL_SUCCESS) {
        free(b);
        free(w);
        if (lc_cl_is_oom(rc))
            return lc_error_set(e, LC_ERR_NOMEM, "cannot make a buffer of %zu bytes over host memory "
                                "on '%s' (clCreateBuffer: %s)", bytes, d->info.name, lc_cl_strerror(rc));
        return lc_cl_fail(e, rc, "clCreateBuffer(CL_MEM_USE_HOST_PTR)", d);
    }
    w->fn = on_free;
    w->ctx = ctx;
    rc = clSetMemObjectDestructorCallback(b->mem, lc_wrap_freed, w);
    if (rc != CL_SUCCESS) {
        clReleaseMemObject(b->mem);
        free(b);
        free(w);
        return lc_cl_fail(e, rc, "clSetMemObjectDestructorCallback", d);
    }
    atomic_init(&b->refs, 1);
    b->dev = d;
    b->size = bytes;
    b->cap = bytes;
    b->wraps_host = 1;
    b->host_owner = ctx;
    lc_buffer_init_id(b);
    lc_stats_in_use_add(bytes);
    *out = b;
    return LC_OK;
}

/* -1 until read from LAZYCL_HUGE_PAGES; then 0 or 1. */
static atomic_int lc_huge_on = -1;

/* A CPU driver's own buffers sit in 4 KiB pages, as Linux gives them unless asked (its
 * transparent huge pages are mostly set to "madvise"). A kernel reading or writing
 * places all over a big buffer then misses the TLB at nearly every access: x[idx] over
 * 2^24 float32 took 100-112 ms in the driver's buffers, 70-76 in NumPy's (which asks for
 * huge pages past 4 MiB), on two Zen 3 cores under PoCL. So a big buffer of a device that
 * computes in host memory is made over memory of ours, asked for in 2 MiB pages. */
cl_mem lc_huge_buffer(struct lc_device *d, size_t cap)
{
    const size_t page = (size_t)2 << 20;
    if (cap < LC_HUGE_MIN || !lc_env_on(&lc_huge_on, "LAZYCL_HUGE_PAGES") ||
        !(lc_device_host_sharing(d) & LC_HOST_WRAP))
        return NULL;
    size_t n = (cap + page - 1) / page * page;
    void *p = aligned_alloc(page, n);
    if (!p)
        return NULL;
#ifdef MADV_HUGEPAGE
    madvise(p, n, MADV_HUGEPAGE);   /* a hint: where it is refused, 4 KiB pages serve */
#endif
    cl_int rc;
    cl_mem m = clCreateBuffer(d->ctx, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, cap, p, &rc);
    if (rc != CL_SUCCESS) {
        free(p);
        return NULL;
    }
    if (clSetMemObjectDestructorCallback(m, lc_free_cb, p) != CL_SUCCESS) {
        clReleaseMemObject(m);   /* never used: the driver holds nothing of p after this */
        free(p);
        return NULL;
    }
    return m;
}
