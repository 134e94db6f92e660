/* queue.c: command queues: the canonical in-order queue of each device, and extra ones.
 *
 * On a device with an in-thread companion (inthread.c) a queue is a pair of OpenCL
 * queues, one per device, kept in one order: a command for one side first waits for the
 * other side's unfinished work.
 *
 * Every live queue is listed (lc_queues_finish waits for all of a device's). Once a queue
 * other than the canonical ones exists, buffers given back by a force are held by its queue
 * until a marker after that force completes (lc_queue_hold), so that another queue cannot
 * take them from the pool while they are still in use. */
#include "runtime/cl_util.h"

#include <stdlib.h>

/* Every live queue, for lc_queues_finish, and how many of them are extra queues. */
static pthread_mutex_t lc_live_lock = PTHREAD_MUTEX_INITIALIZER;
static struct lc_queue *lc_live;
static atomic_int lc_extra_queues;

/* Buffers a queue holds until a marker enqueued after their last use has completed. */
struct lc_hold {
    struct lc_hold *next;
    cl_event ev;
    size_t n;
    lc_buffer_t bufs[];
};

static cl_command_queue cl_queue_new(struct lc_device *d, int profiling, cl_int *rc)
{
    if (d->platform_cl_major >= 2) {
        cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, profiling ? CL_QUEUE_PROFILING_ENABLE : 0, 0};
        return clCreateCommandQueueWithProperties(d->ctx, d->id, props, rc);
    }
    return clCreateCommandQueue(d->ctx, d->id, profiling ? CL_QUEUE_PROFILING_ENABLE : 0, rc);
}

static lc_status queue_new(struct lc_device *d, int profiling, struct lc_queue **out, struct lc_error *e)
{
    struct lc_queue *q = calloc(1, sizeof *q);
    if (!q)
        return lc_error_set(e, LC_ERR_NOMEM, "out of memory creating a queue");
    cl_int rc;
    q->q = cl_queue_new(d, profiling, &rc);
    if (rc != CL_SUCCESS) {
        free(q);
        return lc_cl_fail(e, rc, "clCreateCommandQueue", d);
    }
    if (d->inthread) {
        q->qi = cl_queue_new(d->inthread, profiling, &rc);
        if (rc != CL_SUCCESS) {
            clReleaseCommandQueue(q->q);
            free(q);
            return lc_cl_fail(e, rc, "clCreateCommandQueue (in-thread)", d->inthread);
        }
    }
    pthread_mutex_init(&q->lock, NULL);
    pthread_mutex_init(&q->hold_lock, NULL);
    atomic_init(&q->refs, 1);
    atomic_init(&q->mixed, 0);
    q->dev = d;
    q->profiling = profiling != 0;
    static atomic_ullong ids;
    q->id = atomic_fetch_add_explicit(&ids, 1, memory_order_relaxed) + 1;
    pthread_mutex_lock(&lc_live_lock);
    q->live_next = lc_live;
    if (lc_live)
        lc_live->live_prev = q;
    lc_live = q;
    pthread_mutex_unlock(&lc_live_lock);
    *out = q;
    return LC_OK;
}

lc_status lc_device_queue(lc_device_t d, lc_queue_t *out, struct lc_error *e)
{
    lc_status st = LC_OK;
    pthread_mutex_lock(&d->lock);
    if (!d->queue)
        st = queue_new(d, 0, &d->queue, e);   /* the device holds this reference for ever */
    *out = d->queue;
    pthread_mutex_unlock(&d->lock);
    return st;
}

lc_status lc_queue_create(lc_device_t d, int profiling, lc_queue_t *out, struct lc_error *e)
{
    LC_TRY(queue_new(d, profiling, out, e));
    (*out)->extra = 1;
    atomic_fetch_add(&lc_extra_queues, 1);
    /* While the canonical queue was alone it gave buffers back to the pool as soon as its
     * last command using them was enqueued (lc_queue_alone); the new queue may take them
     * from the pool: that work finishes first. */
    lc_queue_t c;
    pthread_mutex_lock(&d->lock);
    c = d->queue;
    pthread_mutex_unlock(&d->lock);
    lc_status st = c ? lc_queue_finish(c, e) : LC_OK;
    if (st != LC_OK) {
        lc_queue_release(*out);
        *out = NULL;
    }
    return st;
}

int lc_queue_alone(lc_queue_t q)
{
    (void)q;
    return atomic_load_explicit(&lc_extra_queues, memory_order_acquire) == 0;
}

/* Give back the held buffers of q whose marker has completed (all of them with `all`, after
 * a finish). Called with q->hold_lock held. */
static void hold_reap(struct lc_queue *q, int all)
{
    while (q->held) {
        struct lc_hold *h = q->held;
        if (!all) {
            cl_int status = CL_QUEUED;
            if (clGetEventInfo(h->ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status,
                               NULL) != CL_SUCCESS || status > CL_COMPLETE)
                break;   /* not done yet (an error status is < 0: done, the buffers go) */
        }
        q->held = h->next;
        clReleaseEvent(h->ev);
        for (size_t i = 0; i < h->n; i++)
            lc_buffer_release(h->bufs[i]);
        free(h);
    }
}

static cl_command_queue side_queue(const struct lc_queue *q, int side);

lc_status lc_queue_hold(lc_queue_t q, lc_buffer_t *bufs, size_t n, struct lc_error *e)
{
    if (!n)
        return LC_OK;
    struct lc_hold *h = malloc(sizeof *h + n * sizeof *bufs);
    cl_int rc = CL_SUCCESS;
    int side = 0, nothing = 0, marked = 0;
    if (h && (q->qi || atomic_load(&q->mixed))) {
        /* The side that may hold unfinished work gets the marker (at most one does:
         * lc_queue_enter); with none there is nothing to wait for. */
        pthread_mutex_lock(&q->lock);
        int pending = q->pending & (LC_SIDE_THREADED | LC_SIDE_INTHREAD | LC_SIDE_PROFILED);
        nothing = pending == 0;
        if (pending && !(pending & (pending - 1))) {
            rc = clEnqueueMarkerWithWaitList(side_queue(q, pending), 0, NULL, &h->ev);
            marked = rc == CL_SUCCESS;
        }
        pthread_mutex_unlock(&q->lock);
    } else if (h) {
        cl_command_queue cq = lc_queue_enter(q, 0, &side, &rc);
        if (cq) {
            rc = clEnqueueMarkerWithWaitList(cq, 0, NULL, &h->ev);
            marked = rc == CL_SUCCESS;
            lc_queue_leave(q, side, 0);
        }
    }
    if (marked) {
        h->next = NULL;
        h->n = n;
        for (size_t i = 0; i < n; i++)
            h->bufs[i] = bufs[i];
        pthread_mutex_lock(&q->hold_lock);
        hold_reap(q, 0);
        struct lc_hold **tail = &q->held;
        while (*tail)
            tail = &(*tail)->next;
        *tail = h;
        pthread_mutex_unlock(&q->hold_lock);
        return LC_OK;
    }
    free(h);
    /* Nothing pending, or no marker: wait for the queue (unless nothing is pending), then
     * give them back. */
    lc_status st = nothing ? LC_OK : lc_queue_finish(q, e);
    for (size_t i = 0; i < n; i++)
        lc_buffer_release(bufs[i]);
    if (st == LC_OK && rc != CL_SUCCESS)
        st = lc_cl_fail(e, rc, "clEnqueueMarkerWithWaitList", q->dev);
    return st;
}

lc_status lc_queue_zero(lc_queue_t q, lc_buffer_t b, size_t offset, size_t n, struct lc_error *e)
{
    if (!n)
        return LC_OK;
    if (offset + n > b->size || offset + n < offset)
        return lc_error_set(e, LC_ERR_INVALID, "internal: zeroing [%zu, %zu) of a buffer of %zu bytes",
                            offset, offset + n, b->size);
    /* In-thread (as lc_buffer_write's transfers), unless the threaded side holds unfinished
     * work: then there, behind it, rather than waiting for it (the pending side may change
     * before lc_queue_enter: at worst it waits, as for any transfer). */
    int side, inthread = 1;
    cl_int rc;
    if (q->qi) {
        pthread_mutex_lock(&q->lock);
        inthread = !(q->pending & (LC_SIDE_THREADED | LC_SIDE_PROFILED));
        pthread_mutex_unlock(&q->lock);
    }
    cl_command_queue cq = lc_queue_enter(q, inthread, &side, &rc);
    if (cq) {
        /* Counters and error words (the usual case) are written from static zeros, without
         * waiting (the memory outlives the command); Oclgrind counts a fill's bytes as
         * uninitialized, a write's as written. More is filled. */
        static const cl_uchar zeros[4096];
        static const cl_uint zero4 = 0;
        static const cl_uchar zero1 = 0;
        int wide = offset % 4 == 0 && n % 4 == 0;
        if (n <= sizeof zeros)
            rc = clEnqueueWriteBuffer(cq, b->mem, CL_FALSE, offset, n, zeros, 0, NULL, NULL);
        else
            rc = clEnqueueFillBuffer(cq, b->mem, wide ? (const void *)&zero4 : (const void *)&zero1,
                                     wide ? 4 : 1, offset, n, 0, NULL, NULL);
        lc_queue_leave(q, side, 0);
    }
    if (rc != CL_SUCCESS)
        return lc_cl_fail(e, rc, n <= 4096 ? "clEnqueueWriteBuffer (zeros)" : "clEnqueueFillBuffer",
                          q->dev);
    return LC_OK;
}

lc_status lc_queues_finish(lc_device_t d, struct lc_error *e)
{
    /* A snapshot of the live queues, each retained (a dying one is skipped: its release
     * finishes it). */
    size_t n = 0, cap = 0;
    struct lc_queue **qs = NULL;
    int oom = 0;
    pthread_mutex_lock(&lc_live_lock);
    for (struct lc_queue *q = lc_live; q; q = q->live_next) {
        if (d && q->dev != d)
            continue;
        long r = atomic_load(&q->refs);
        while (r > 0 && !atomic_compare_exchange_weak(&q->refs, &r, r + 1))
            ;
        if (r <= 0)
            continue;
        if (n == cap) {
            size_t nc = cap ? cap * 2 : 8;
            struct lc_queue **g = realloc(qs, nc * sizeof *g);
            if (!g) {
                lc_queue_release(q);
                oom = 1;
                break;
            }
            qs = g;
            cap = nc;
        }
        qs[n++] = q;
    }
    pthread_mutex_unlock(&lc_live_lock);
    lc_status st = oom ? lc_error_set(e, LC_ERR_NOMEM, "out of host memory") : LC_OK;
    for (size_t i = 0; i < n; i++) {
        if (st == LC_OK)
            st = lc_queue_finish(qs[i], e);
        lc_queue_release(qs[i]);
    }
    free(qs);
    return st;
}

void lc_queue_retain(lc_queue_t q)
{
    atomic_fetch_add_explicit(&q->refs, 1, memory_order_relaxed);
}

void lc_queue_release(lc_queue_t q)
{
    if (!q)
        return;
    if (atomic_fetch_sub_explicit(&q->refs, 1, memory_order_acq_rel) != 1)
        return;
    /* Work still queued finishes first: the user's handle is gone, the driver's is not. */
    pthread_mutex_lock(&lc_live_lock);
    if (q->live_prev)
        q->live_prev->live_next = q->live_next;
    else
        lc_live = q->live_next;
    if (q->live_next)
        q->live_next->live_prev = q->live_prev;
    pthread_mutex_unlock(&lc_live_lock);
    clFinish(q->q);
    if (q->qi)
        clFinish(q->qi);
    if (q->qp)
        clFinish(q->qp);
    hold_reap(q, 1);
    clReleaseCommandQueue(q->q);
    if (q->qi)
        clReleaseCommandQueue(q->qi);
    if (q->qp)
        clReleaseCommandQueue(q->qp);
    if (q->extra)
        atomic_fetch_sub(&lc_extra_queues, 1);
    pthread_mutex_destroy(&q->hold_lock);
    pthread_mutex_destroy(&q->lock);
    free(q);
}

lc_device_t lc_queue_device(lc_queue_t q)
{
    return q->dev;
}

int lc_queue_profiling(lc_queue_t q)
{
    return q->profiling;
}

uint64_t lc_queue_id(lc_queue_t q)
{
    return q->id;
}

/* After a finish: every held buffer goes back. */
static void hold_drop_all(struct lc_queue *q)
{
    pthread_mutex_lock(&q->hold_lock);
    hold_reap(q, 1);
    pthread_mutex_unlock(&q->hold_lock);
}

lc_status lc_queue_finish(lc_queue_t q, struct lc_error *e)
{
    if (!q->qi && !atomic_load(&q->mixed)) {
        LC_CL_CHECK(e, q->dev, clFinish(q->q));
        hold_drop_all(q);
        return LC_OK;
    }
    pthread_mutex_lock(&q->lock);
    /* At most one side is pending (lc_queue_enter waits for the other). */
    cl_int rc = CL_SUCCESS;
    int side = q->pending;
    if (side & LC_SIDE_THREADED)
        rc = clFinish(q->q);
    if (rc == CL_SUCCESS && (side & LC_SIDE_INTHREAD))
        rc = clFinish(q->qi);
    if (rc == CL_SUCCESS && (side & LC_SIDE_PROFILED))
        rc = clFinish(q->qp);
    if (rc == CL_SUCCESS)
        q->pending = 0;
    pthread_mutex_unlock(&q->lock);
    if (rc != CL_SUCCESS)
        return lc_cl_fail(e, rc, "clFinish", side & LC_SIDE_INTHREAD ? q->dev->inthread : q->dev);
    hold_drop_all(q);
    return LC_OK;
}

static cl_command_queue side_queue(const struct lc_queue *q, int side)
{
    return side & LC_SIDE_INTHREAD ? q->qi : side & LC_SIDE_PROFILED ? q->qp : q->q;
}

cl_command_queue lc_queue_enter(struct lc_queue *q, int inthread, int *side, cl_int *rc)
{
    *rc = CL_SUCCESS;
    /* While a profile is open the threaded side's commands go to the profiling twin (a
     * profiling queue costs on every command: 8 us more per blocking read on an H100). */
    int prof = atomic_load_explicit(&lc_prof_open_g, memory_order_relaxed) && !q->profiling;
    if (!q->qi && !prof && !atomic_load(&q->mixed)) {
        *side = LC_SIDE_THREADED | LC_SIDE_UNLOCKED;   /* one queue: nothing to order, no lock */
        return q->q;
    }
    int s = inthread && q->qi ? LC_SIDE_INTHREAD : prof ? LC_SIDE_PROFILED : LC_SIDE_THREADED;
    pthread_mutex_lock(&q->lock);
    if (s == LC_SIDE_PROFILED && !q->qp) {
        q->qp = cl_queue_new(q->dev, 1, rc);
        if (*rc != CL_SUCCESS) {
            q->qp = NULL;
            pthread_mutex_unlock(&q->lock);
            return NULL;
        }
        /* From now on every command takes the lock; those that did not may have left work
         * on q->q (and lc_queue_leave marks what one still enqueues there). */
        atomic_store(&q->mixed, 1);
        q->pending |= LC_SIDE_THREADED;
    }
    for (int o = LC_SIDE_THREADED; o <= LC_SIDE_PROFILED; o <<= 1) {
        if (o == s || !(q->pending & o))
            continue;
        /* The other sides' work first: they are one in-order queue. */
        *rc = clFinish(side_queue(q, o));
        if (*rc != CL_SUCCESS) {
            pthread_mutex_unlock(&q->lock);
            return NULL;
        }
        q->pending &= ~o;
    }
    *side = s;
    return side_queue(q, s);
}

void lc_queue_leave(struct lc_queue *q, int side, int done)
{
    if (side & LC_SIDE_UNLOCKED) {
        /* q became mixed meanwhile: the command enqueued on q->q is waited for as others
         * (the fence orders the enqueue before the load, as lc_queue_enter's store is
         * ordered before its finish of q->q by the driver's lock on q->q). */
        atomic_thread_fence(memory_order_seq_cst);
        if (!done && atomic_load(&q->mixed)) {
            pthread_mutex_lock(&q->lock);
            q->pending |= LC_SIDE_THREADED;
            pthread_mutex_unlock(&q->lock);
        }
        return;
    }
    if (done)
        q->pending &= ~side;
    else
        q->pending |= side;
    pthread_mutex_unlock(&q->lock);
}
