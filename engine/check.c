/* check.c: deferred index checks (check.h): the pending list, guarded storages, resolving. */
#include "engine/check.h"

#include "engine/engine.h"
#include "engine/storage.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct lc_check {
    atomic_long refs;
    lc_queue_t q;                 /* retained */
    lc_buffer_t err;              /* the run's error buffer; NULL without one or once resolved */
    struct lc_check **parents;    /* retained; dropped once resolved */
    size_t n_parents;
    pthread_mutex_t lock;         /* one resolver at a time */
    atomic_int state;             /* 0 pending, 1 no error, -1 an index out of range */
    char msg[200];                /* with -1: the IndexError's message */
    atomic_int told;              /* its IndexError was returned to someone: a wait skips it */
    struct lc_check *next;        /* on the pending list */
};

/* Guards the pending list and the guarded storages' table. */
static pthread_mutex_t lc_checks_lock = PTHREAD_MUTEX_INITIALIZER;
static struct lc_check *lc_pending, *lc_pending_tail;   /* oldest first; each holds a reference */
static atomic_long lc_n_pending;                        /* read without the lock: 0, none */

/* Guarded storages, by their buffer: a buffer is in at most one run's outputs, and in as many
 * storages as outputs of that run share it (a reshape of a written node), one entry each. */
#define LC_GUARD_BUCKETS 256
struct lc_guard {
    lc_buffer_t b;
    struct lc_check *c;           /* retained */
    struct lc_guard *next;
};
static struct lc_guard *lc_guards[LC_GUARD_BUCKETS];

static unsigned lc_guard_bucket(const void *b)
{
    uintptr_t p = (uintptr_t)b;
    return (unsigned)((p >> 4) ^ (p >> 12)) % LC_GUARD_BUCKETS;
}

lc_status lc_check_index_error(const int32_t errv[8], struct lc_error *e)
{
    if (!errv[0])
        return LC_OK;
    int64_t bad, size;
    memcpy(&bad, &errv[2], sizeof bad);
    memcpy(&size, &errv[4], sizeof size);
    return lc_error_set(e, LC_ERR_INDEX, "index %lld is out of bounds for axis %d with size %lld",
                        (long long)bad, (int)errv[1], (long long)size);
}

struct lc_check *lc_check_new(lc_queue_t q, lc_buffer_t err, struct lc_check *const *parents,
                              size_t n_parents)
{
    struct lc_check *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    if (n_parents && !(c->parents = malloc(n_parents * sizeof *c->parents))) {
        free(c);
        return NULL;
    }
    atomic_init(&c->refs, err ? 2 : 1);   /* the caller's, and the pending list's */
    atomic_init(&c->state, 0);
    atomic_init(&c->told, 0);
    pthread_mutex_init(&c->lock, NULL);
    lc_queue_retain(q);
    c->q = q;
    for (size_t i = 0; i < n_parents; i++) {
        lc_check_retain(parents[i]);
        c->parents[i] = parents[i];
    }
    c->n_parents = n_parents;
    if (err) {
        lc_buffer_retain(err);
        c->err = err;
        pthread_mutex_lock(&lc_checks_lock);
        if (lc_pending_tail)
            lc_pending_tail->next = c;
        else
            lc_pending = c;
        lc_pending_tail = c;
        atomic_fetch_add(&lc_n_pending, 1);
        pthread_mutex_unlock(&lc_checks_lock);
    }
    return c;
}

void lc_check_retain(struct lc_check *c)
{
    atomic_fetch_add_explicit(&c->refs, 1, memory_order_relaxed);
}

/* What a resolved check no longer needs. Called with c->lock held. */
static void lc_check_drop_inputs(struct lc_check *c)
{
    lc_buffer_release(c->err);
    c->err = NULL;
    for (size_t i = 0; i < c->n_parents; i++)
        lc_check_release(c->parents[i]);
    free(c->parents);
    c->parents = NULL;
    c->n_parents = 0;
}

void lc_check_release(struct lc_check *c)
{
    if (!c || atomic_fetch_sub_explicit(&c->refs, 1, memory_order_acq_rel) != 1)
        return;
    lc_check_drop_inputs(c);
    lc_queue_release(c->q);
    pthread_mutex_destroy(&c->lock);
    free(c);
}

/* ---- guarded storages ---------------------------------------------------------------- */

/* The release function of a guarded storage: its entry goes, then its buffer. */
static void lc_check_release_guarded(void *h)
{
    unsigned k = lc_guard_bucket(h);
    struct lc_guard *g = NULL;
    pthread_mutex_lock(&lc_checks_lock);
    for (struct lc_guard **p = &lc_guards[k]; *p; p = &(*p)->next)
        if ((*p)->b == (lc_buffer_t)h) {
            g = *p;
            *p = g->next;
            break;
        }
    pthread_mutex_unlock(&lc_checks_lock);
    if (g) {
        lc_check_release(g->c);
        free(g);
    }
    lc_buffer_release((lc_buffer_t)h);
}

struct lc_storage *lc_check_storage(lc_buffer_t b, struct lc_check *c)
{
    struct lc_guard *g = malloc(sizeof *g);
    struct lc_storage *s = g ? lc_storage_new(b, lc_check_release_guarded, lc_buffer_size(b)) : NULL;
    if (!s) {
        free(g);
        lc_buffer_release(b);
        return NULL;
    }
    lc_check_retain(c);
    g->b = b;
    g->c = c;
    unsigned k = lc_guard_bucket(b);
    pthread_mutex_lock(&lc_checks_lock);
    g->next = lc_guards[k];
    lc_guards[k] = g;
    pthread_mutex_unlock(&lc_checks_lock);
    return s;
}

struct lc_check *lc_check_of(const struct lc_storage *s)
{
    if (!s || s->release != lc_check_release_guarded)
        return NULL;
    struct lc_check *c = NULL;
    pthread_mutex_lock(&lc_checks_lock);
    for (struct lc_guard *g = lc_guards[lc_guard_bucket(s->handle)]; g; g = g->next)
        if (g->b == (lc_buffer_t)s->handle) {
            if (atomic_load(&g->c->state) != 1) {
                c = g->c;
                lc_check_retain(c);
            }
            break;
        }
    pthread_mutex_unlock(&lc_checks_lock);
    return c;
}

/* ---- answers --------------------------------------------------------------------------- */

int lc_check_known(struct lc_check *c, struct lc_error *e)
{
    int s = atomic_load_explicit(&c->state, memory_order_acquire);
    if (s < 0) {
        lc_error_set(e, LC_ERR_INDEX, "%s", c->msg);
        atomic_store(&c->told, 1);
    }
    return s;
}

lc_status lc_check_resolve(struct lc_check *c, struct lc_error *e)
{
    pthread_mutex_lock(&c->lock);
    lc_status st = LC_OK;
    if (atomic_load(&c->state) == 0) {
        int32_t errv[8] = {0};
        if (c->err)
            st = lc_buffer_read(c->q, c->err, 0, errv, sizeof errv, e);
        if (st == LC_OK)
            st = lc_check_index_error(errv, e);
        for (size_t i = 0; st == LC_OK && i < c->n_parents; i++)
            st = lc_check_resolve(c->parents[i], e);
        if (st == LC_ERR_INDEX) {
            size_t m = strnlen(e->msg, sizeof c->msg - 1);
            memcpy(c->msg, e->msg, m);
            c->msg[m] = 0;
            atomic_store_explicit(&c->state, -1, memory_order_release);
        } else if (st == LC_OK) {
            atomic_store_explicit(&c->state, 1, memory_order_release);
        }
        if (st == LC_OK || st == LC_ERR_INDEX)
            lc_check_drop_inputs(c);
    } else if (atomic_load(&c->state) < 0) {
        st = lc_error_set(e, LC_ERR_INDEX, "%s", c->msg);
    }
    if (st == LC_ERR_INDEX)
        atomic_store(&c->told, 1);
    pthread_mutex_unlock(&c->lock);
    return st;
}

lc_status lc_check_wait(lc_queue_t q, lc_device_t d, struct lc_error *e)
{
    if (atomic_load(&lc_n_pending) == 0)
        return LC_OK;
    /* Take the matching checks off the list (the list's references become ours). */
    struct lc_check *mine = NULL, **tail = &mine;
    pthread_mutex_lock(&lc_checks_lock);
    struct lc_check *prev = NULL;
    for (struct lc_check *c = lc_pending, *next; c; c = next) {
        next = c->next;
        if ((q && c->q != q) || (!q && d && lc_queue_device(c->q) != d)) {
            prev = c;
            continue;
        }
        if (prev)
            prev->next = next;
        else
            lc_pending = next;
        if (lc_pending_tail == c)
            lc_pending_tail = prev;
        c->next = NULL;
        *tail = c;
        tail = &c->next;
        atomic_fetch_sub(&lc_n_pending, 1);
    }
    pthread_mutex_unlock(&lc_checks_lock);
    lc_status st = LC_OK;
    for (struct lc_check *c = mine, *next; c; c = next) {
        next = c->next;
        struct lc_error e2 = {0};
        int told = atomic_load(&c->told);
        lc_status s2 = lc_check_resolve(c, st == LC_OK ? e : &e2);
        if (s2 == LC_ERR_INDEX && told) {   /* a read or use of its outputs raised it already */
            s2 = LC_OK;
            if (st == LC_OK)
                lc_error_clear(e);
        }
        if (st == LC_OK)
            st = s2;
        lc_error_clear(&e2);
        lc_check_release(c);
    }
    return st;
}

/* ---- the waits (engine.h) --------------------------------------------------------------- */

lc_status lc_engine_sync(lc_queue_t q, lc_device_t d, struct lc_error *e)
{
    LC_TRY(q ? lc_queue_finish(q, e) : lc_queues_finish(d, e));
    return lc_check_wait(q, d, e);
}

lc_status lc_engine_ready(lc_queue_t q, const struct lc_storage *s, struct lc_error *e)
{
    if (q)
        LC_TRY(lc_check_wait(q, NULL, e));
    struct lc_check *c = lc_check_of(s);
    if (!c)
        return LC_OK;
    lc_status st = lc_check_resolve(c, e);
    lc_check_release(c);
    return st;
}
