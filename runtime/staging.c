/* staging.c: host <-> device transfers at the link's speed on devices with memory of their own.
 *
 * A DMA engine moves page-locked (pinned) host memory at the link's speed; NumPy's memory is
 * pageable, which a driver moves through small staging copies of its own (7.6 GB/s h2d and
 * 11.8 GB/s d2h on an H100, against ~25-50 GB/s pinned). Here:
 *
 * - pinned host memory is an OpenCL buffer made with CL_MEM_ALLOC_HOST_PTR and mapped once
 *   (the pattern NVIDIA's OpenCL guide gives for pinned memory); its mapping is the host
 *   pointer. lc_pinned_alloc hands such regions out, from a per-device cache of released
 *   ones (page-locking is slow), and keeps a list of the live ones, so that a transfer from
 *   or to a pinned region goes straight to the DMA engine;
 * - a transfer of at least LC_STAGE_MIN bytes between pageable memory and a device that does
 *   not compute in host memory is cut into chunks, spread over a few host threads: each
 *   copies its chunks into (or out of) two pinned slots of its own and keeps the DMA of one
 *   slot running while it copies the other, so host copies overlap each other and the DMA.
 *   The DMAs go on the caller's in-order queue, so the work enqueued after them waits for
 *   them. A write returns once its host copies are done (the source may then be freed); its
 *   last DMAs may still run (the next transfer to use their slots waits for them).
 *   LAZYCL_STAGE=0 turns staging off.
 *
 * CPU devices never stage: they compute in host memory (hostmem.c).
 */
#include "runtime/cl_util.h"

#include <stdlib.h>
#include <string.h>

#define LC_STAGE_MIN ((size_t)4 << 20)       /* smaller transfers go as they are */
#define LC_STAGE_CHUNK ((size_t)4 << 20)     /* bytes per slot */
#define LC_STAGE_THREADS 8                   /* host threads (at most) per transfer */

/* ---- pinned regions ------------------------------------------------------------------ */

struct lc_pinned {
    struct lc_device *dev;
    cl_mem mem;
    void *ptr;
    size_t size, cap;
    cl_command_queue mapq;      /* the queue it was mapped on (for the unmap) */
    struct lc_pinned *next;     /* the live list, or the cache's free list */
};

static pthread_mutex_t lc_pinned_lock = PTHREAD_MUTEX_INITIALIZER;
static struct lc_pinned *lc_pinned_live;     /* under the lock */
static struct lc_pinned *lc_pinned_cache;    /* under the lock: released, still mapped */
static size_t lc_pinned_cached;              /* under the lock: bytes on the free list */
#define LC_PINNED_CACHE_LIMIT ((size_t)4 << 30)

static void lc_pinned_destroy(struct lc_pinned *p)
{
    cl_event ev;
    if (clEnqueueUnmapMemObject(p->mapq, p->mem, p->ptr, 0, NULL, &ev) == CL_SUCCESS) {
        clWaitForEvents(1, &ev);
        clReleaseEvent(ev);
    }
    clReleaseCommandQueue(p->mapq);
    clReleaseMemObject(p->mem);
    free(p);
}

lc_status lc_pinned_alloc(lc_device_t d, size_t bytes, lc_pinned_t *out, void **ptr,
                          struct lc_error *e)
{
    size_t cap = lc_pool_class_size(lc_pool_class(bytes ? bytes : 1));
    struct lc_pinned *p = NULL, **pp;
    pthread_mutex_lock(&lc_pinned_lock);
    for (pp = &lc_pinned_cache; *pp; pp = &(*pp)->next)
        if ((*pp)->dev == d && (*pp)->cap == cap) {
            p = *pp;
            *pp = p->next;
            lc_pinned_cached -= p->cap;
            break;
        }
    if (p) {
        p->size = bytes;
        p->next = lc_pinned_live;
        lc_pinned_live = p;
    }
    pthread_mutex_unlock(&lc_pinned_lock);
    if (!p) {
        lc_queue_t q;
        LC_TRY(lc_device_queue(d, &q, e));
        p = calloc(1, sizeof *p);
        if (!p)
            return lc_error_set(e, LC_ERR_NOMEM, "out of host memory");
        cl_int rc;
        p->mem = clCreateBuffer(d->ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, cap, NULL, &rc);
        if (rc != CL_SUCCESS) {
            free(p);
            return lc_cl_fail(e, rc, "clCreateBuffer(CL_MEM_ALLOC_HOST_PTR)", d);
        }
        p->ptr = clEnqueueMapBuffer(q->q, p->mem, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, cap, 0,
                                    NULL, NULL, &rc);
        if (rc != CL_SUCCESS) {
            clReleaseMemObject(p->mem);
            free(p);
            return lc_cl_fail(e, rc, "clEnqueueMapBuffer (pinned)", d);
        }
        clRetainCommandQueue(q->q);
        p->mapq = q->q;
        p->dev = d;
        p->cap = cap;
        p->size = bytes;
        pthread_mutex_lock(&lc_pinned_lock);
        p->next = lc_pinned_live;
        lc_pinned_live = p;
        pthread_mutex_unlock(&lc_pinned_lock);
    }
    *out = p;
    *ptr = p->ptr;
    return LC_OK;
}

void lc_pinned_free(lc_pinned_t p)
{
    if (!p)
        return;
    struct lc_pinned *drop = NULL;
    pthread_mutex_lock(&lc_pinned_lock);
    for (struct lc_pinned **pp = &lc_pinned_live; *pp; pp = &(*pp)->next)
        if (*pp == p) {
            *pp = p->next;
            break;
        }
    if (lc_pinned_cached + p->cap <= LC_PINNED_CACHE_LIMIT) {
        p->next = lc_pinned_cache;
        lc_pinned_cache = p;
        lc_pinned_cached += p->cap;
    } else {
        drop = p;
    }
    pthread_mutex_unlock(&lc_pinned_lock);
    if (drop)
        lc_pinned_destroy(drop);
}

void lc_pinned_trim(void)
{
    pthread_mutex_lock(&lc_pinned_lock);
    struct lc_pinned *all = lc_pinned_cache;
    lc_pinned_cache = NULL;
    lc_pinned_cached = 0;
    pthread_mutex_unlock(&lc_pinned_lock);
    while (all) {
        struct lc_pinned *next = all->next;
        lc_pinned_destroy(all);
        all = next;
    }
}

/* Does [ptr, ptr + n) lie in a live pinned region of d? */
static int lc_pinned_holds(struct lc_device *d, const void *ptr, size_t n)
{
    int r = 0;
    uintptr_t a = (uintptr_t)ptr;
    pthread_mutex_lock(&lc_pinned_lock);
    for (struct lc_pinned *p = lc_pinned_live; p && !r; p = p->next)
        r = p->dev == d && a >= (uintptr_t)p->ptr && a + n <= (uintptr_t)p->ptr + p->cap;
    pthread_mutex_unlock(&lc_pinned_lock);
    return r;
}

/* ---- the staging slots --------------------------------------------------------------- */

struct lc_stage {
    pthread_mutex_t lock;        /* one staged transfer at a time per device */
    int n_slots;
    lc_pinned_t slot[2 * LC_STAGE_THREADS];
    void *ptr[2 * LC_STAGE_THREADS];
    cl_event ev[2 * LC_STAGE_THREADS];   /* under lock: a write's last DMA from each slot */
};

static pthread_mutex_t lc_stage_make_lock = PTHREAD_MUTEX_INITIALIZER;

/* The device's slots, made at its first staged transfer; NULL when they cannot be made. */
static struct lc_stage *lc_stage_of(struct lc_device *d)
{
    pthread_mutex_lock(&lc_stage_make_lock);
    if (!d->stage && !d->stage_failed) {
        struct lc_stage *s = calloc(1, sizeof *s);
        struct lc_error e = {0};
        int ok = s != NULL;
        for (int i = 0; ok && i < 2 * LC_STAGE_THREADS; i++, s->n_slots++)
            ok = lc_pinned_alloc(d, LC_STAGE_CHUNK, &s->slot[i], &s->ptr[i], &e) == LC_OK;
        if (!ok) {
            LC_LOG(1, "no pinned staging on '%s' (%s): transfers go as they are", d->info.name,
                   e.msg[0] ? e.msg : "out of memory");
            lc_error_clear(&e);
            for (int i = 0; s && i < s->n_slots; i++)
                lc_pinned_free(s->slot[i]);
            free(s);
            d->stage_failed = 1;
        } else {
            pthread_mutex_init(&s->lock, NULL);
            d->stage = s;
        }
    }
    struct lc_stage *r = d->stage;
    pthread_mutex_unlock(&lc_stage_make_lock);
    return r;
}

/* One host thread's share of a staged transfer: chunks t, t + T, t + 2T, ... */
struct lc_stage_job {
    struct lc_queue *lq;         /* the caller's queue (profiles) */
    int side;                    /* its side that q is (lc_queue_enter) */
    cl_command_queue q;
    cl_mem mem;
    size_t offset, n;            /* the buffer's range */
    char *host;                  /* the pageable side */
    int write;                   /* h2d, else d2h */
    int t, T;
    void *slot[2];
    cl_event ev[2];              /* the DMA last issued from (into) each slot */
    size_t at[2], len[2];        /* d2h: where each slot's chunk goes */
    cl_int rc;
};

static void lc_stage_wait(cl_event *ev, cl_int *rc)
{
    if (*ev) {
        cl_int r = clWaitForEvents(1, ev);
        if (r != CL_SUCCESS && *rc == CL_SUCCESS)
            *rc = r;
        clReleaseEvent(*ev);
        *ev = NULL;
    }
}

static void *lc_stage_run(void *arg)
{
    struct lc_stage_job *j = arg;
    int k = 0;
    for (size_t at = (size_t)j->t * LC_STAGE_CHUNK; at < j->n && j->rc == CL_SUCCESS;
         at += (size_t)j->T * LC_STAGE_CHUNK, k ^= 1) {
        size_t len = j->n - at < LC_STAGE_CHUNK ? j->n - at : LC_STAGE_CHUNK;
        if (j->write) {
            /* The slot's last DMA is done: fill it, send it. */
            lc_stage_wait(&j->ev[k], &j->rc);
            if (j->rc != CL_SUCCESS)
                break;
            memcpy(j->slot[k], j->host + at, len);
            unsigned long long t0 = lc_prof_t0();
            j->rc = clEnqueueWriteBuffer(j->q, j->mem, CL_FALSE, j->offset + at, len, j->slot[k], 0,
                                         NULL, &j->ev[k]);
            if (t0 && j->rc == CL_SUCCESS && clRetainEvent(j->ev[k]) == CL_SUCCESS)
                lc_prof_add(j->lq, j->side, LC_PROF_H2D, NULL, len, 0, t0, j->ev[k]);
        } else {
            /* Start this chunk's DMA into slot k, then copy out the chunk of the other slot. */
            lc_stage_wait(&j->ev[k], &j->rc);
            if (j->len[k])
                memcpy(j->host + j->at[k], j->slot[k], j->len[k]);
            unsigned long long t0 = lc_prof_t0();
            j->rc = clEnqueueReadBuffer(j->q, j->mem, CL_FALSE, j->offset + at, len, j->slot[k], 0,
                                        NULL, &j->ev[k]);
            if (t0 && j->rc == CL_SUCCESS && clRetainEvent(j->ev[k]) == CL_SUCCESS)
                lc_prof_add(j->lq, j->side, LC_PROF_D2H, NULL, len, 0, t0, j->ev[k]);
            if (j->rc == CL_SUCCESS)
                clFlush(j->q);
            j->at[k] = at;
            j->len[k] = j->rc == CL_SUCCESS ? len : 0;
        }
    }
    /* A write leaves its last DMAs running (the next use of the slot waits for them); a
     * read copies out its last chunks. */
    for (int s = 0; s < 2 && !j->write; s++) {
        int slot = s ^ k;        /* the older one first */
        lc_stage_wait(&j->ev[slot], &j->rc);
        if (j->len[slot] && j->rc == CL_SUCCESS)
            memcpy(j->host + j->at[slot], j->slot[slot], j->len[slot]);
    }
    return NULL;
}

/* -1 until read from LAZYCL_STAGE; then 0 or 1 (lc_stage_enable sets it). */
static atomic_int lc_stage_on = -1;

static int lc_stage_enabled(void)
{
    return lc_env_on(&lc_stage_on, "LAZYCL_STAGE");
}

void lc_stage_enable(int on)
{
    atomic_store(&lc_stage_on, on != 0);
}

int lc_stage_wanted(lc_device_t d, const void *host, size_t n)
{
    return n >= LC_STAGE_MIN && d->info.type != LC_DEVICE_CPU && !d->parent &&
           lc_device_host_sharing(d) == 0 && lc_stage_enabled() && !lc_pinned_holds(d, host, n);
}

lc_status lc_stage_transfer(lc_queue_t q, lc_buffer_t b, size_t offset, void *host, size_t n,
                            int write, int *done, struct lc_error *e)
{
    *done = 0;
    struct lc_device *d = q->dev;
    struct lc_stage *s = lc_stage_of(d);
    if (!s)
        return LC_OK;
    size_t chunks = (n + LC_STAGE_CHUNK - 1) / LC_STAGE_CHUNK;
    int T = chunks < LC_STAGE_THREADS ? (int)chunks : LC_STAGE_THREADS;
    struct lc_stage_job jobs[LC_STAGE_THREADS];
    pthread_t th[LC_STAGE_THREADS];
    int started[LC_STAGE_THREADS] = {0};
    /* The queue's threaded side (its profiling twin while a profile is open), in order with
     * its other side; the DMAs from the host threads go there. */
    int side;
    cl_int rc;
    cl_command_queue cq = lc_queue_enter(q, 0, &side, &rc);
    if (!cq)
        return lc_cl_fail(e, rc, "waiting for the other side of the queue", d);
    pthread_mutex_lock(&s->lock);
    for (int t = 0; t < T; t++) {
        jobs[t] = (struct lc_stage_job){q, side, cq, b->mem, offset, n, host, write, t, T,
                                        {s->ptr[2 * t], s->ptr[2 * t + 1]},
                                        {s->ev[2 * t], s->ev[2 * t + 1]}, {0, 0}, {0, 0},
                                        CL_SUCCESS};
        /* Thread 0 is the caller. */
        if (t > 0)
            started[t] = pthread_create(&th[t], NULL, lc_stage_run, &jobs[t]) == 0;
    }
    lc_stage_run(&jobs[0]);
    rc = jobs[0].rc;
    for (int t = 1; t < T; t++) {
        if (started[t])
            pthread_join(th[t], NULL);
        else
            lc_stage_run(&jobs[t]);   /* no thread: the caller does its share */
        if (rc == CL_SUCCESS)
            rc = jobs[t].rc;
    }
    for (int t = 0; t < T; t++) {
        s->ev[2 * t] = jobs[t].ev[0];
        s->ev[2 * t + 1] = jobs[t].ev[1];
    }
    pthread_mutex_unlock(&s->lock);
    /* A read waited for its DMAs, so for everything before them on that side. */
    lc_queue_leave(q, side, !write && rc == CL_SUCCESS);
    if (rc != CL_SUCCESS)
        return lc_cl_fail(e, rc, write ? "clEnqueueWriteBuffer (staged)" : "clEnqueueReadBuffer (staged)",
                          d);
    *done = 1;
    return LC_OK;
}
