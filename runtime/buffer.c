/* buffer.c: device buffers from a per-device caching pool; reads, writes, copies, maps.
 *
 * Every pooled buffer is allocated at its size class (poolclass.c), so a
 * released buffer serves any later request of the same class. At refcount
 * zero a buffer goes back to its device's free list for its class, unless
 * the pool already caches `cache_limit` bytes, in which case it goes back to
 * the driver. Requests whose class would exceed the device's max_alloc get
 * an exact-size buffer that is never pooled.
 *
 * Reuse is safe on one in-order queue: work that still reads a released
 * buffer was enqueued before the work of its next owner. A caller that
 * releases a buffer still in use on another queue must finish that queue
 * first.
 */
#include "runtime/cl_util.h"

#include <stdlib.h>
#include <string.h>

/* The last buffer id handed out (atomic: no lock). */
static atomic_ullong lc_buffer_ids;

void lc_buffer_init_id(struct lc_buffer *b)
{
    b->id = atomic_fetch_add_explicit(&lc_buffer_ids, 1, memory_order_relaxed) + 1;
}

struct lc_pool {
    pthread_mutex_t lock;
    unsigned n_classes;
    struct lc_buffer **free;   /* n_classes singly linked lists */
    size_t cached;             /* bytes on the free lists */
    size_t cache_limit;
};

lc_status lc_pool_init(struct lc_device *d, struct lc_error *e)
{
    struct lc_pool *p = calloc(1, sizeof *p);
    if (!p)
        return lc_error_set(e, LC_ERR_NOMEM, "out of memory");
    p->n_classes = lc_pool_class(SIZE_MAX) + 1;
    p->free = calloc(p->n_classes, sizeof *p->free);
    if (!p->free) {
        free(p);
        return lc_error_set(e, LC_ERR_NOMEM, "out of memory");
    }
    pthread_mutex_init(&p->lock, NULL);
    /* Keep at most a quarter of the device's memory cached (at least 64 MiB). */
    p->cache_limit = (size_t)(d->info.global_mem / 4);
    if (p->cache_limit < ((size_t)64 << 20))
        p->cache_limit = (size_t)64 << 20;
    d->pool = p;
    return LC_OK;
}

static void buffer_destroy(struct lc_buffer *b)
{
    clReleaseMemObject(b->mem);
    free(b);
}

void lc_pool_trim(lc_device_t d)
{
    struct lc_pool *p = d->pool;
    struct lc_buffer *all = NULL;
    size_t bytes = 0;
    pthread_mutex_lock(&p->lock);
    for (unsigned c = 0; c < p->n_classes; c++) {
        while (p->free[c]) {
            struct lc_buffer *b = p->free[c];
            p->free[c] = b->next;
            b->next = all;
            all = b;
        }
    }
    bytes = p->cached;
    p->cached = 0;
    pthread_mutex_unlock(&p->lock);
    LC_STAT_SUB(bytes_cached, bytes);
    while (all) {
        struct lc_buffer *b = all;
        all = b->next;
        buffer_destroy(b);
    }
    if (bytes)
        LC_LOG(2, "pool of '%s' trimmed: %zu bytes back to the driver", d->info.name, bytes);
}

lc_status lc_buffer_alloc(lc_device_t d, size_t bytes, lc_buffer_t *out, struct lc_error *e)
{
    if (bytes > d->info.max_alloc)
        return lc_error_set(e, LC_ERR_NOMEM, "cannot allocate %zu bytes on device '%s': larger than its "
                            "largest allocation (max_alloc %llu bytes)", bytes, d->info.name,
                            (unsigned long long)d->info.max_alloc);
    struct lc_pool *p = d->pool;
    unsigned cls = lc_pool_class(bytes);
    size_t cap = lc_pool_class_size(cls);
    int pooled = cap <= d->info.max_alloc;
    if (!pooled)
        cap = bytes;

    if (pooled) {
        pthread_mutex_lock(&p->lock);
        struct lc_buffer *b = p->free[cls];
        if (b) {
            p->free[cls] = b->next;
            p->cached -= cap;
        }
        pthread_mutex_unlock(&p->lock);
        if (b) {
            b->next = NULL;
            b->size = bytes;
            atomic_store_explicit(&b->refs, 1, memory_order_relaxed);
            LC_STAT_ADD(pool_hits, 1);
            LC_STAT_SUB(bytes_cached, cap);
            lc_stats_in_use_add(cap);
            *out = b;
            return LC_OK;
        }
    }

    struct lc_buffer *b = calloc(1, sizeof *b);
    if (!b)
        return lc_error_set(e, LC_ERR_NOMEM, "out of host memory allocating a buffer record");
    cl_int rc = CL_SUCCESS;
    b->mem = lc_huge_buffer(d, cap);
    if (!b->mem)
        b->mem = clCreateBuffer(d->ctx, CL_MEM_READ_WRITE, cap, NULL, &rc);
    if (rc != CL_SUCCESS && lc_cl_is_oom(rc)) {
        /* Out of memory: give the cached buffers back to the driver and try once more. */
        LC_LOG(1, "clCreateBuffer(%zu bytes) on '%s' failed with %s: trimming the pool and retrying",
               cap, d->info.name, lc_cl_strerror(rc));
        lc_pool_trim(d);
        b->mem = clCreateBuffer(d->ctx, CL_MEM_READ_WRITE, cap, NULL, &rc);
    }
    if (rc != CL_SUCCESS) {
        free(b);
        if (lc_cl_is_oom(rc))
            return lc_error_set(e, LC_ERR_NOMEM, "out of device memory: cannot allocate %zu bytes on '%s' "
                                "(clCreateBuffer: %s)", cap, d->info.name, lc_cl_strerror(rc));
        return lc_cl_fail(e, rc, "clCreateBuffer", d);
    }
    atomic_init(&b->refs, 1);
    b->dev = d;
    lc_buffer_init_id(b);
    b->size = bytes;
    b->cap = cap;
    b->cls = cls;
    b->pooled = pooled;
    LC_STAT_ADD(buffers_allocated, 1);
    lc_stats_in_use_add(cap);
    *out = b;
    return LC_OK;
}

void lc_buffer_retain(lc_buffer_t b)
{
    atomic_fetch_add_explicit(&b->refs, 1, memory_order_relaxed);
}

void lc_buffer_release(lc_buffer_t b)
{
    if (!b)
        return;
    if (atomic_fetch_sub_explicit(&b->refs, 1, memory_order_acq_rel) != 1)
        return;
    LC_STAT_SUB(bytes_in_use, b->cap);
    if (b->pooled) {
        struct lc_pool *p = b->dev->pool;
        int cached = 0;
        pthread_mutex_lock(&p->lock);
        if (p->cached + b->cap <= p->cache_limit) {
            b->next = p->free[b->cls];
            p->free[b->cls] = b;
            p->cached += b->cap;
            cached = 1;
        }
        pthread_mutex_unlock(&p->lock);
        if (cached) {
            LC_STAT_ADD(bytes_cached, b->cap);
            return;
        }
    }
    buffer_destroy(b);
}

size_t lc_buffer_size(lc_buffer_t b)
{
    return b->size;
}

/* The range [off, off+n) must lie in the buffer, and the buffer on q's device. */
static lc_status check_range(lc_queue_t q, lc_buffer_t b, size_t off, size_t n, const char *what,
                             struct lc_error *e)
{
    if (b->dev != q->dev)
        return lc_error_set(e, LC_ERR_PLACEMENT, "%s: buffer is on device '%s', queue on '%s'", what,
                            b->dev->info.name, q->dev->info.name);
    if (off > b->size || n > b->size - off)
        return lc_error_set(e, LC_ERR_INVALID, "%s: range [%zu, %zu) outside the buffer of %zu bytes",
                            what, off, off + n, b->size);
    return LC_OK;
}

lc_status lc_buffer_write(lc_queue_t q, lc_buffer_t b, size_t offset, const void *src, size_t n,
                          int blocking, struct lc_error *e)
{
    LC_TRY(check_range(q, b, offset, n, "lc_buffer_write", e));
    if (n == 0)
        return LC_OK;
    if (lc_stage_wanted(q->dev, src, n)) {
        int done;
        LC_TRY(lc_stage_transfer(q, b, offset, (void *)src, n, 1, &done, e));
        if (done) {
            LC_STAT_ADD(bytes_to_device, n);
            return LC_OK;
        }
    }
    int side;
    cl_int rc;
    cl_command_queue cq = lc_queue_enter(q, 1, &side, &rc);
    if (cq) {
        unsigned long long t0 = lc_prof_t0();
        cl_event ev = NULL;
        rc = clEnqueueWriteBuffer(cq, b->mem, blocking ? CL_TRUE : CL_FALSE, offset, n, src, 0, NULL,
                                  lc_prof_event(t0, side, &ev));
        if (t0 && rc == CL_SUCCESS)
            lc_prof_add(q, side, LC_PROF_H2D, NULL, n, 0, t0, ev);
        /* Never done, even blocking: a blocking write only lets the caller reuse src (the
         * driver may have copied it and still hold the command: Intel's CPU runtime does),
         * so the other side of the queue waits for it as for any command. */
        lc_queue_leave(q, side, 0);
    }
    if (rc != CL_SUCCESS)
        return lc_cl_fail(e, rc, "clEnqueueWriteBuffer", q->dev);
    LC_STAT_ADD(bytes_to_device, n);
    return LC_OK;
}

lc_status lc_buffer_read(lc_queue_t q, lc_buffer_t b, size_t offset, void *dst, size_t n,
                         struct lc_error *e)
{
    LC_TRY(check_range(q, b, offset, n, "lc_buffer_read", e));
    if (n == 0)
        return LC_OK;
    if (lc_stage_wanted(q->dev, dst, n)) {
        int done;
        LC_TRY(lc_stage_transfer(q, b, offset, dst, n, 0, &done, e));
        if (done) {
            LC_STAT_ADD(bytes_from_device, n);
            return LC_OK;
        }
    }
    /* Blocking: no finish is needed after it, nor before it on its own side. */
    int side;
    cl_int rc;
    cl_command_queue cq = lc_queue_enter(q, 1, &side, &rc);
    if (cq) {
        unsigned long long t0 = lc_prof_t0();
        cl_event ev = NULL;
        rc = clEnqueueReadBuffer(cq, b->mem, CL_TRUE, offset, n, dst, 0, NULL,
                                 lc_prof_event(t0, side, &ev));
        if (t0 && rc == CL_SUCCESS)
            lc_prof_add(q, side, LC_PROF_D2H, NULL, n, 0, t0, ev);
        lc_queue_leave(q, side, rc == CL_SUCCESS);
    }
    if (rc != CL_SUCCESS)
        return lc_cl_fail(e, rc, "clEnqueueReadBuffer", q->dev);
    LC_STAT_ADD(bytes_from_device, n);
    return LC_OK;
}

lc_status lc_buffer_copy(lc_queue_t q, lc_buffer_t src, size_t src_off, lc_buffer_t dst,
                         size_t dst_off, size_t n, struct lc_error *e)
{
    LC_TRY(check_range(q, src, src_off, n, "lc_buffer_copy (source)", e));
    LC_TRY(check_range(q, dst, dst_off, n, "lc_buffer_copy (destination)", e));
    if (n == 0)
        return LC_OK;
    if (src == dst && src_off < dst_off + n && dst_off < src_off + n)
        return lc_error_set(e, LC_ERR_INVALID, "lc_buffer_copy: overlapping ranges in one buffer");
    int side;
    cl_int rc;
    cl_command_queue cq = lc_queue_enter(q, 1, &side, &rc);
    if (cq) {
        unsigned long long t0 = lc_prof_t0();
        cl_event ev = NULL;
        rc = clEnqueueCopyBuffer(cq, src->mem, dst->mem, src_off, dst_off, n, 0, NULL,
                                 lc_prof_event(t0, side, &ev));
        if (t0 && rc == CL_SUCCESS)
            lc_prof_add(q, side, LC_PROF_COPY, NULL, 2 * (uint64_t)n, 0, t0, ev);
        lc_queue_leave(q, side, 0);
    }
    if (rc != CL_SUCCESS)
        return lc_cl_fail(e, rc, "clEnqueueCopyBuffer", q->dev);
    return LC_OK;
}

lc_status lc_buffer_map_read(lc_queue_t q, lc_buffer_t b, size_t offset, size_t n, void **ptr,
                             struct lc_error *e)
{
    LC_TRY(check_range(q, b, offset, n, "lc_buffer_map_read", e));
    /* OpenCL cannot map zero bytes: map one byte of the (never empty) allocation. */
    size_t mn = n ? n : 1, moff = n ? offset : 0;
    int side;
    cl_int rc;
    void *p = NULL;
    cl_command_queue cq = lc_queue_enter(q, 1, &side, &rc);
    if (cq) {
        unsigned long long t0 = lc_prof_t0();
        cl_event ev = NULL;
        p = clEnqueueMapBuffer(cq, b->mem, CL_TRUE, CL_MAP_READ, moff, mn, 0, NULL,
                               lc_prof_event(t0, side, &ev), &rc);
        if (t0 && rc == CL_SUCCESS)
            lc_prof_add(q, side, LC_PROF_MAP, NULL, n, 0, t0, ev);
        lc_queue_leave(q, side, rc == CL_SUCCESS);
    }
    if (rc != CL_SUCCESS)
        return lc_cl_fail(e, rc, "clEnqueueMapBuffer", q->dev);
    LC_STAT_ADD(bytes_from_device, n);
    *ptr = p;
    return LC_OK;
}

lc_status lc_buffer_unmap(lc_queue_t q, lc_buffer_t b, void *ptr, struct lc_error *e)
{
    if (!ptr)
        return LC_OK;
    int side;
    cl_int rc;
    cl_command_queue cq = lc_queue_enter(q, 1, &side, &rc);
    if (cq) {
        unsigned long long t0 = lc_prof_t0();
        cl_event ev = NULL;
        rc = clEnqueueUnmapMemObject(cq, b->mem, ptr, 0, NULL, lc_prof_event(t0, side, &ev));
        if (t0 && rc == CL_SUCCESS)
            lc_prof_add(q, side, LC_PROF_UNMAP, NULL, 0, 0, t0, ev);
        lc_queue_leave(q, side, 0);
    }
    if (rc != CL_SUCCESS)
        return lc_cl_fail(e, rc, "clEnqueueUnmapMemObject", q->dev);
    return LC_OK;
}

