/* pokes.c: writes of one element with a constant value, applied later, many in one launch
 * (engine/pokes.h). Each storage's record is a list of (element index, value) with a small
 * hash table over the places, so that a place written twice keeps its last value and the
 * launch may write every place at once, in any order. */
#include "engine/pokes.h"

#include "codegen/codegen.h"
#include "engine/engine.h"
#include "engine/storage.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct lc_pokes {
    size_t size;          /* bytes of each value */
    size_t n;
    uint64_t *rec;        /* 3 words per write: element index, value's low and high 8 bytes */
    uint32_t *slot;       /* 2 * LC_POKES_MAX: 1 + the write at a place, 0 empty */
};

static pthread_mutex_t lc_pokes_lock = PTHREAD_MUTEX_INITIALIZER;

static void lc_pokes_free(void *p)
{
    struct lc_pokes *k = p;
    if (!k)
        return;
    free(k->rec);
    free(k->slot);
    free(k);
}

static struct lc_pokes *lc_pokes_new(size_t size)
{
    struct lc_pokes *k = calloc(1, sizeof *k);
    if (!k)
        return NULL;
    k->size = size;
    k->rec = malloc(3 * LC_POKES_MAX * sizeof *k->rec);
    k->slot = calloc(2 * LC_POKES_MAX, sizeof *k->slot);
    if (!k->rec || !k->slot) {
        lc_pokes_free(k);
        return NULL;
    }
    return k;
}

/* Take s's record away (NULL: none). */
static struct lc_pokes *lc_pokes_take(struct lc_storage *s)
{
    if (!atomic_load(&s->aux))
        return NULL;
    pthread_mutex_lock(&lc_pokes_lock);
    struct lc_pokes *k = atomic_exchange(&s->aux, NULL);
    pthread_mutex_unlock(&lc_pokes_lock);
    return k;
}

/* One launch writing k's values into s's buffer, on q. */
static lc_status lc_pokes_apply(lc_queue_t q, struct lc_storage *s, struct lc_pokes *k,
                                struct lc_error *e)
{
    lc_device_t d = lc_queue_device(q);
    lc_device_t run = lc_device_inthread(d) ? lc_device_inthread(d) : d;
    char name[32];
    snprintf(name, sizeof name, "lc_poke_%zu", k->size);
    lc_kernel_t kern;
    LC_TRY(lc_kernel_get(run, lc_codegen_poke_source(), name, "", &kern, e));
    size_t bytes = k->n * 3 * sizeof *k->rec;
    lc_buffer_t rec;
    LC_TRY(lc_buffer_alloc(d, bytes, &rec, e));
    lc_status st = lc_buffer_write(q, rec, 0, k->rec, bytes, 1, e);
    if (st == LC_OK) {
        struct lc_arg args[3] = {{LC_ARG_BUFFER, {.buf = lc_engine_buffer(s)}},
                                 {LC_ARG_BUFFER, {.buf = rec}},
                                 {LC_ARG_I64, {.i64 = (int64_t)k->n}}};
        size_t global = k->n;
        st = lc_kernel_launch(q, kern, 1, &global, NULL, args, 3, e);
    }
    lc_buffer_release(rec);   /* back to the pool: later users are ordered after the launch */
    return st;
}

lc_status lc_pokes_flush(lc_queue_t q, struct lc_storage *s, struct lc_error *e)
{
    struct lc_pokes *k = lc_pokes_take(s);
    if (!k)
        return LC_OK;
    lc_status st = lc_pokes_apply(q, s, k, e);
    lc_pokes_free(k);
    return st;
}

/* Record into k (under the lock); 0, or -1 when k is full or of another size. */
static int lc_pokes_put(struct lc_pokes *k, uint64_t at, const void *bits, size_t size)
{
    if (k->size != size)
        return -1;
    uint64_t lo = 0, hi = 0;
    memcpy(&lo, bits, size < 8 ? size : 8);
    if (size > 8)
        memcpy(&hi, (const char *)bits + 8, size - 8);
    uint32_t mask = 2 * LC_POKES_MAX - 1;
    uint32_t h = (uint32_t)((at * 0x9E3779B97F4A7C15ull) >> 40) & mask;
    for (;; h = (h + 1) & mask) {
        uint32_t j = k->slot[h];
        if (!j)
            break;
        if (k->rec[3 * (j - 1)] == at) {
            k->rec[3 * (j - 1) + 1] = lo;
            k->rec[3 * (j - 1) + 2] = hi;
            return 0;
        }
    }
    if (k->n == LC_POKES_MAX)
        return -1;
    k->rec[3 * k->n] = at;
    k->rec[3 * k->n + 1] = lo;
    k->rec[3 * k->n + 2] = hi;
    k->slot[h] = (uint32_t)++k->n;
    return 0;
}

lc_status lc_pokes_add(lc_queue_t q, struct lc_storage *s, size_t offset, const void *bits,
                       size_t size, struct lc_error *e)
{
    if (!(size == 1 || size == 2 || size == 4 || size == 8 || size == 16) || offset % size ||
        offset + size > s->nbytes)
        return lc_error_set(e, LC_ERR_INVALID, "internal: a write of %zu bytes at byte %zu of %zu",
                            size, offset, s->nbytes);
    /* A write into data an index out of range left wrong raises that IndexError, as any
     * other use of it (engine/check.h). */
    LC_TRY(lc_engine_ready(NULL, s, e));
    for (int round = 0; round < 2; round++) {
        pthread_mutex_lock(&lc_pokes_lock);
        struct lc_pokes *k = atomic_load(&s->aux);
        if (!k && (k = lc_pokes_new(size))) {
            s->aux_free = lc_pokes_free;
            atomic_store(&s->aux, k);
        }
        int ok = k && lc_pokes_put(k, offset / size, bits, size) == 0;
        pthread_mutex_unlock(&lc_pokes_lock);
        if (!k)
            return lc_error_set(e, LC_ERR_NOMEM, "out of host memory");
        if (ok)
            return LC_OK;
        /* Full, or values of another size: apply what is there, then record afresh. */
        LC_TRY(lc_pokes_flush(q, s, e));
    }
    return lc_error_set(e, LC_ERR_INVALID, "internal: a write could not be recorded");
}
