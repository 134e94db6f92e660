/* profile.c: the launches and transfers recorded while a profile is open.
 *
 * While no profile is open a command costs one relaxed atomic load here (lc_prof_t0). While
 * one is open, every command enqueued on any queue, from any thread, is recorded with the host
 * time before its enqueue:
 *   - a command of a queue's threaded side asks for an event, read when the profile closes
 *     (CL_PROFILING_COMMAND_START and END): while a profile is open those commands go to a
 *     profiling twin of the queue, kept in one order with it (queue.c), since a profiling
 *     queue costs on every command (an H100's blocking read: 10 us plain, 18 us profiling);
 *   - a command of the in-thread side runs inside its enqueue call (PoCL's basic device runs
 *     it in the calling thread, every command before it on the pair being done: queue.c), so
 *     the host clock around that call times it; it asks for no event.
 * A device's clock is mapped onto the host's by its events' CL_PROFILING_COMMAND_QUEUED,
 * stamped inside the enqueue call that started at the recorded host time: the largest
 * (host - queued) over a profile's events of one device is that device's offset, so the
 * commands of one device, on all its queues, share one time line.
 *
 * Records are kept in one list while any profile is open. A profile owns those made from its
 * opening to the start of its closing (nested and concurrent profiles share records); the list
 * is emptied when the last open profile closes. Everything here is under one lock, but for the
 * waits on events.
 */
#include "runtime/cl_util.h"

#include <stdlib.h>
#include <string.h>

atomic_int lc_prof_open_g;

struct lc_prof_rec {
    struct lc_prof_record r;   /* start_ms, end_ms filled when a profile closes */
    cl_event ev;               /* a threaded command's, until resolved (then NULL) */
    unsigned long long host0;  /* host ns before the enqueue */
    unsigned long long host1;  /* in-thread: host ns after it */
    cl_ulong queued, start, end;   /* device ns, once resolved */
    int timed;                 /* 0: event pending, 1: device times, 2: host times */
};

static pthread_mutex_t lc_prof_lock = PTHREAD_MUTEX_INITIALIZER;
static struct lc_prof_rec *lc_prof_recs;   /* under the lock */
static size_t lc_prof_n, lc_prof_cap;
static uint64_t lc_prof_base;              /* the sequence number of lc_prof_recs[0] */
static int lc_prof_opened;                 /* open profiles (lc_prof_open_g mirrors it) */
static size_t lc_prof_live;                /* records holding an event */
static size_t lc_prof_reaped;              /* records before it are resolved (lc_prof_reap) */

/* What the caller of the next kernel launch of this thread said of it (lc_profile_note). */
static _Thread_local struct { int set, ops; uint64_t bytes; } lc_prof_note_t;

const char *lc_prof_kind_name(int kind)
{
    switch (kind) {
    case LC_PROF_KERNEL: return "kernel";
    case LC_PROF_H2D: return "h2d";
    case LC_PROF_D2H: return "d2h";
    case LC_PROF_COPY: return "copy";
    case LC_PROF_FILL: return "fill";
    case LC_PROF_MAP: return "map";
    case LC_PROF_UNMAP: return "unmap";
    }
    return "?";
}

int lc_profile_active(void)
{
    return atomic_load_explicit(&lc_prof_open_g, memory_order_relaxed) > 0;
}

void lc_profile_note(int ops, uint64_t bytes)
{
    lc_prof_note_t.set = 1;
    lc_prof_note_t.ops = ops;
    lc_prof_note_t.bytes = bytes;
}

int lc_prof_take_note(int *ops, uint64_t *bytes)
{
    if (!lc_prof_note_t.set)
        return 0;
    lc_prof_note_t.set = 0;
    *ops = lc_prof_note_t.ops;
    *bytes = lc_prof_note_t.bytes;
    return 1;
}

/* A finished command's queued, start and end times (device ns). */
static cl_int lc_prof_times(cl_event ev, cl_ulong t[3])
{
    static const cl_profiling_info what[3] = {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_START,
                                              CL_PROFILING_COMMAND_END};
    cl_int rc = CL_SUCCESS;
    for (int i = 0; i < 3 && rc == CL_SUCCESS; i++)
        rc = clGetEventProfilingInfo(ev, what[i], sizeof t[i], &t[i], NULL);
    return rc;
}

/* Under the lock: resolve r with its times t (when rc says they were read) and drop its
 * event. Without device times (a failed command) it keeps its enqueue's host time. */
static void lc_prof_set(struct lc_prof_rec *r, cl_int rc, const cl_ulong t[3])
{
    if (rc == CL_SUCCESS) {
        r->queued = t[0] ? t[0] : t[1];
        r->start = t[1];
        r->end = t[2] > t[1] ? t[2] : t[1];
        r->timed = 1;
    } else {
        LC_LOG(1, "profile: no device times for '%s' (%s)", r->r.name, lc_cl_strerror(rc));
        r->host1 = r->host0;
        r->timed = 2;
    }
    clReleaseEvent(r->ev);
    r->ev = NULL;
    lc_prof_live--;
}

/* Under the lock, once LC_PROF_LIVE_MAX events are held: read the times of the finished
 * commands recorded before the newest LC_PROF_RECENT, oldest first, up to the first one still
 * running, and drop their events, so that a long profile keeps a bounded number alive.
 * Shorter profiles read every time at their end: asking each command's status as it goes
 * cost more (an H100's small launch: 28 us profiled against 22 us, and more in all). */
#define LC_PROF_LIVE_MAX 16384
#define LC_PROF_RECENT 1024
static void lc_prof_reap(void)
{
    size_t stop = lc_prof_n > LC_PROF_RECENT ? lc_prof_n - LC_PROF_RECENT : 0;
    for (; lc_prof_reaped < stop; lc_prof_reaped++) {
        struct lc_prof_rec *r = &lc_prof_recs[lc_prof_reaped];
        if (!r->ev)
            continue;
        cl_int status = CL_QUEUED;
        cl_ulong t[3];
        if (clGetEventInfo(r->ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status,
                           NULL) != CL_SUCCESS || status != CL_COMPLETE)
            break;
        lc_prof_set(r, lc_prof_times(r->ev, t), t);
    }
}

void lc_prof_add(struct lc_queue *q, int side, int kind, const char *name, uint64_t bytes, int ops,
                 unsigned long long t0, cl_event ev)
{
    unsigned long long t1 = lc_now_ns();
    pthread_mutex_lock(&lc_prof_lock);
    if (!lc_prof_opened) {   /* the profile closed since the command's t0 */
        pthread_mutex_unlock(&lc_prof_lock);
        if (ev)
            clReleaseEvent(ev);
        return;
    }
    if (lc_prof_n == lc_prof_cap) {
        size_t cap = lc_prof_cap ? lc_prof_cap * 2 : 256;
        void *p = realloc(lc_prof_recs, cap * sizeof *lc_prof_recs);
        if (!p) {   /* out of host memory: the command goes unrecorded */
            pthread_mutex_unlock(&lc_prof_lock);
            if (ev)
                clReleaseEvent(ev);
            return;
        }
        lc_prof_recs = p;
        lc_prof_cap = cap;
    }
    struct lc_prof_rec *r = &lc_prof_recs[lc_prof_n++];
    memset(r, 0, sizeof *r);
    snprintf(r->r.name, sizeof r->r.name, "%s", name ? name : lc_prof_kind_name(kind));
    r->r.kind = kind;
    r->r.queue = q->id;
    r->r.device = q->dev;
    r->r.inthread = side == LC_SIDE_INTHREAD;
    r->r.bytes = bytes;
    r->r.ops = ops;
    r->host0 = t0;
    r->host1 = t1;
    r->ev = ev;
    r->timed = ev ? 0 : 2;
    lc_prof_live += ev != NULL;
    if (lc_prof_live >= LC_PROF_LIVE_MAX)
        lc_prof_reap();
    pthread_mutex_unlock(&lc_prof_lock);
}

void lc_profile_begin(struct lc_profile_mark *m)
{
    pthread_mutex_lock(&lc_prof_lock);
    lc_prof_opened++;
    atomic_store_explicit(&lc_prof_open_g, lc_prof_opened, memory_order_relaxed);
    m->from = lc_prof_base + lc_prof_n;
    m->t0_ns = lc_now_ns();
    pthread_mutex_unlock(&lc_prof_lock);
}

/* Under the lock: drop the records once no profile is open. */
static void lc_prof_clear(void)
{
    for (size_t i = 0; i < lc_prof_n; i++)
        if (lc_prof_recs[i].ev)
            clReleaseEvent(lc_prof_recs[i].ev);
    lc_prof_base += lc_prof_n;
    lc_prof_n = 0;
    lc_prof_reaped = 0;
    lc_prof_live = 0;
    free(lc_prof_recs);
    lc_prof_recs = NULL;
    lc_prof_cap = 0;
}

/* Wait for the events of records [lo, hi) not yet resolved and read their times. */
static lc_status lc_prof_resolve(size_t lo, size_t hi, struct lc_error *e)
{
    pthread_mutex_lock(&lc_prof_lock);
    size_t n = 0;
    for (size_t i = lo; i < hi; i++)
        n += lc_prof_recs[i].ev != NULL;
    cl_event *evs = n ? malloc(n * sizeof *evs) : NULL;
    size_t *at = n ? malloc(n * sizeof *at) : NULL;
    if (n && (!evs || !at)) {
        pthread_mutex_unlock(&lc_prof_lock);
        free(evs);
        free(at);
        return lc_error_set(e, LC_ERR_NOMEM, "out of host memory reading a profile");
    }
    size_t k = 0;
    for (size_t i = lo; i < hi; i++)
        if (lc_prof_recs[i].ev) {
            clRetainEvent(lc_prof_recs[i].ev);   /* another profile closing may release it */
            evs[k] = lc_prof_recs[i].ev;
            at[k++] = i;
        }
    pthread_mutex_unlock(&lc_prof_lock);
    /* Without the lock: other threads go on launching and recording. Waiting for each event
     * (they may be of several contexts) flushes its queue. */
    for (size_t j = 0; j < n; j++) {
        cl_ulong t[3];
        cl_int rc = clWaitForEvents(1, &evs[j]);
        if (rc == CL_SUCCESS)
            rc = lc_prof_times(evs[j], t);
        pthread_mutex_lock(&lc_prof_lock);
        if (lc_prof_recs[at[j]].ev)
            lc_prof_set(&lc_prof_recs[at[j]], rc, t);
        pthread_mutex_unlock(&lc_prof_lock);
        clReleaseEvent(evs[j]);
    }
    free(evs);
    free(at);
    return LC_OK;
}

static int lc_prof_cmp(const void *a, const void *b)
{
    const struct lc_prof_record *x = a, *y = b;
    if (x->start_ms != y->start_ms)
        return (x->start_ms > y->start_ms) - (x->start_ms < y->start_ms);
    return (x->end_ms > y->end_ms) - (x->end_ms < y->end_ms);
}

lc_status lc_profile_end(const struct lc_profile_mark *m, struct lc_prof_record **out, size_t *n_out,
                         struct lc_error *e)
{
    *out = NULL;
    *n_out = 0;
    pthread_mutex_lock(&lc_prof_lock);
    size_t lo = m->from > lc_prof_base ? (size_t)(m->from - lc_prof_base) : 0;
    size_t hi = lc_prof_n;
    pthread_mutex_unlock(&lc_prof_lock);
    lc_status st = lo < hi ? lc_prof_resolve(lo, hi, e) : LC_OK;

    pthread_mutex_lock(&lc_prof_lock);
    size_t n = hi > lo ? hi - lo : 0;
    struct lc_prof_record *recs = NULL;
    if (st == LC_OK && n && !(recs = malloc(n * sizeof *recs)))
        st = lc_error_set(e, LC_ERR_NOMEM, "out of host memory reading a profile");
    if (st == LC_OK && n) {
        /* Each device's offset from its clock to the host's (see the top of the file). */
        struct { lc_device_t d; long long off; } offs[64];
        int n_offs = 0;
        for (size_t i = lo; i < hi; i++) {
            const struct lc_prof_rec *r = &lc_prof_recs[i];
            if (r->timed != 1)
                continue;
            long long off = (long long)r->host0 - (long long)r->queued;
            int j = 0;
            while (j < n_offs && offs[j].d != r->r.device)
                j++;
            if (j == n_offs && n_offs < 64) {
                offs[n_offs].d = r->r.device;
                offs[n_offs++].off = off;
            } else if (j < n_offs && off > offs[j].off) {
                offs[j].off = off;
            }
        }
        for (size_t i = lo; i < hi; i++) {
            const struct lc_prof_rec *r = &lc_prof_recs[i];
            struct lc_prof_record *o = &recs[i - lo];
            *o = r->r;
            long long s = (long long)r->host0, f = (long long)r->host1;
            if (r->timed == 1) {
                long long off = 0;
                for (int j = 0; j < n_offs; j++)
                    if (offs[j].d == r->r.device)
                        off = offs[j].off;
                s = (long long)r->start + off;
                f = (long long)r->end + off;
            }
            o->start_ms = (double)(s - (long long)m->t0_ns) * 1e-6;
            o->end_ms = (double)(f - (long long)m->t0_ns) * 1e-6;
        }
        qsort(recs, n, sizeof *recs, lc_prof_cmp);
    }
    if (--lc_prof_opened == 0)
        lc_prof_clear();
    atomic_store_explicit(&lc_prof_open_g, lc_prof_opened, memory_order_relaxed);
    pthread_mutex_unlock(&lc_prof_lock);
    if (st != LC_OK) {
        free(recs);
        return st;
    }
    *out = recs;
    *n_out = n;
    return LC_OK;
}
