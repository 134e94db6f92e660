/* queue.c: command queues: the canonical in-order queue of each device, and extra ones. */
#include "runtime/cl_util.h"

#include <stdlib.h>

static lc_status queue_new(struct lc_device *d, int profiling, struct lc_queue **out, struct lc_error *e)
{
    struct lc_queue *q = calloc(1, sizeof *q);
    if (!q)
        return lc_error_set(e, LC_ERR_NOMEM, "out of memory creating a queue");
    cl_int rc;
    if (d->platform_cl_major >= 2) {
        cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, profiling ? CL_QUEUE_PROFILING_ENABLE : 0, 0};
        q->q = clCreateCommandQueueWithProperties(d->ctx, d->id, props, &rc);
    } else {
        q->q = clCreateCommandQueue(d->ctx, d->id, profiling ? CL_QUEUE_PROFILING_ENABLE : 0, &rc);
    }
    if (rc != CL_SUCCESS) {
        free(q);
        return lc_cl_fail(e, rc, "clCreateCommandQueue", d);
    }
    atomic_init(&q->refs, 1);
    q->dev = d;
    q->profiling = profiling != 0;
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
    return queue_new(d, profiling, out, e);
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
    clFinish(q->q);
    clReleaseCommandQueue(q->q);
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

lc_status lc_queue_finish(lc_queue_t q, struct lc_error *e)
{
    LC_CL_CHECK(e, q->dev, clFinish(q->q));
    return LC_OK;
}
