/* queue.c: command queues: the canonical in-order queue of each device, and extra ones.
 *
 * On a device with an in-thread companion (inthread.c) a queue is a pair of OpenCL
 * queues, one per device, kept in one order: a command for one side first waits for the
 * other side's unfinished work. */
#include "runtime/cl_util.h"

#include <stdlib.h>

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
    if (q->qi) {
        clFinish(q->qi);
        clReleaseCommandQueue(q->qi);
    }
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

lc_status lc_queue_finish(lc_queue_t q, struct lc_error *e)
{
    if (!q->qi) {
        LC_CL_CHECK(e, q->dev, clFinish(q->q));
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
    if (rc == CL_SUCCESS)
        q->pending = 0;
    pthread_mutex_unlock(&q->lock);
    if (rc != CL_SUCCESS)
        return lc_cl_fail(e, rc, "clFinish", side & LC_SIDE_THREADED ? q->dev : q->dev->inthread);
    return LC_OK;
}

cl_command_queue lc_queue_enter(struct lc_queue *q, int inthread, int *side, cl_int *rc)
{
    *rc = CL_SUCCESS;
    if (!q->qi) {
        *side = LC_SIDE_THREADED;   /* one queue: nothing to order, no lock */
        return q->q;
    }
    int s = inthread ? LC_SIDE_INTHREAD : LC_SIDE_THREADED;
    pthread_mutex_lock(&q->lock);
    if (q->pending & ~s) {
        /* The other side's work first: the pair is one in-order queue. */
        *rc = clFinish(s == LC_SIDE_INTHREAD ? q->q : q->qi);
        if (*rc != CL_SUCCESS) {
            pthread_mutex_unlock(&q->lock);
            return NULL;
        }
        q->pending &= s;
    }
    *side = s;
    return s == LC_SIDE_INTHREAD ? q->qi : q->q;
}

void lc_queue_leave(struct lc_queue *q, int side, int done)
{
    if (!q->qi)
        return;
    if (done)
        q->pending &= ~side;
    else
        q->pending |= side;
    pthread_mutex_unlock(&q->lock);
}
