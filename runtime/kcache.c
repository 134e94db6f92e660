/* kcache.c: a device's memory cache: programs by cache key, each with the kernels made from it.
 *
 * A hash table under one lock (lookups take only it); loads and builds of the device take
 * its build lock as well (lc_kcache_build_lock), so a program is never built twice. Entries
 * live as long as the device, that is until exit.
 */
#include "runtime/cl_util.h"

#include <stdlib.h>
#include <string.h>

struct kc_entry {
    struct lc_cache_key key;
    cl_program prog;
    struct lc_kernel *kernels;
    struct kc_entry *next;
};

struct lc_kcache {
    pthread_mutex_t lock;         /* guards the table and each entry's kernel list */
    pthread_mutex_t build_lock;   /* held while loading or building a program */
    struct kc_entry **tab;
    size_t cap, n;   /* cap is a power of two */
};

lc_status lc_kcache_init(struct lc_device *d, struct lc_error *e)
{
    struct lc_kcache *c = calloc(1, sizeof *c);
    if (!c)
        return lc_error_set(e, LC_ERR_NOMEM, "out of memory");
    c->cap = 64;
    c->tab = calloc(c->cap, sizeof *c->tab);
    if (!c->tab) {
        free(c);
        return lc_error_set(e, LC_ERR_NOMEM, "out of memory");
    }
    pthread_mutex_init(&c->lock, NULL);
    pthread_mutex_init(&c->build_lock, NULL);
    d->kcache = c;
    return LC_OK;
}

/* Under c->lock. */
static struct kc_entry *kc_find(struct lc_kcache *c, struct lc_cache_key k)
{
    for (struct kc_entry *x = c->tab[k.lo & (c->cap - 1)]; x; x = x->next)
        if (x->key.lo == k.lo && x->key.hi == k.hi)
            return x;
    return NULL;
}

/* Under c->lock. Grows the table when it is full; a failed grow keeps the old one. */
static void kc_insert(struct lc_kcache *c, struct kc_entry *x)
{
    if (c->n >= c->cap) {
        size_t ncap = c->cap * 2;
        struct kc_entry **nt = calloc(ncap, sizeof *nt);
        if (nt) {
            for (size_t i = 0; i < c->cap; i++) {
                while (c->tab[i]) {
                    struct kc_entry *y = c->tab[i];
                    c->tab[i] = y->next;
                    y->next = nt[y->key.lo & (ncap - 1)];
                    nt[y->key.lo & (ncap - 1)] = y;
                }
            }
            free(c->tab);
            c->tab = nt;
            c->cap = ncap;
        }
    }
    size_t h = x->key.lo & (c->cap - 1);
    x->next = c->tab[h];
    c->tab[h] = x;
    c->n++;
}

/* The kernel `name` of the entry's program, made on first request. Under c->lock. */
static lc_status kc_kernel(struct lc_device *d, struct kc_entry *x, const char *name,
                           struct lc_kernel **out, struct lc_error *e)
{
    for (struct lc_kernel *k = x->kernels; k; k = k->next) {
        if (strcmp(k->name, name) == 0) {
            *out = k;
            return LC_OK;
        }
    }
    struct lc_kernel *k = calloc(1, sizeof *k);
    char *nm = strdup(name);
    if (!k || !nm) {
        free(k);
        free(nm);
        return lc_error_set(e, LC_ERR_NOMEM, "out of memory");
    }
    cl_int rc;
    k->k = clCreateKernel(x->prog, name, &rc);
    if (rc != CL_SUCCESS) {
        free(k);
        free(nm);
        if (rc == CL_INVALID_KERNEL_NAME)
            return lc_error_set(e, LC_ERR_INVALID, "the program has no kernel named '%s' (device '%s')",
                                name, d->info.name);
        return lc_cl_fail(e, rc, "clCreateKernel", d);
    }
    k->dev = d;
    k->name = nm;
    pthread_mutex_init(&k->lock, NULL);
    k->next = x->kernels;
    x->kernels = k;
    *out = k;
    return LC_OK;
}

int lc_kcache_lookup(struct lc_device *d, struct lc_cache_key key, const char *name,
                     lc_kernel_t *out, lc_status *st, struct lc_error *e)
{
    struct lc_kcache *c = d->kcache;
    pthread_mutex_lock(&c->lock);
    struct kc_entry *x = kc_find(c, key);
    if (x)
        *st = kc_kernel(d, x, name, out, e);
    pthread_mutex_unlock(&c->lock);
    if (x && *st == LC_OK) {
        LC_STAT_ADD(memory_cache_hits, 1);
        LC_LOG(2, "kernel %s: memory cache hit", name);
    }
    return x != NULL;
}

void lc_kcache_build_lock(struct lc_device *d)
{
    pthread_mutex_lock(&d->kcache->build_lock);
}

void lc_kcache_build_unlock(struct lc_device *d)
{
    pthread_mutex_unlock(&d->kcache->build_lock);
}

lc_status lc_kcache_add(struct lc_device *d, struct lc_cache_key key, cl_program prog,
                        const char *name, lc_kernel_t *out, struct lc_error *e)
{
    struct lc_kcache *c = d->kcache;
    struct kc_entry *nx = calloc(1, sizeof *nx);
    if (!nx) {
        clReleaseProgram(prog);
        return lc_error_set(e, LC_ERR_NOMEM, "out of memory");
    }
    nx->key = key;
    nx->prog = prog;
    pthread_mutex_lock(&c->lock);
    kc_insert(c, nx);
    lc_status st = kc_kernel(d, nx, name, out, e);
    pthread_mutex_unlock(&c->lock);
    return st;
}

cl_program lc_kcache_alias(struct lc_device *d, struct lc_cache_key key, struct lc_cache_key of)
{
    struct lc_kcache *c = d->kcache;
    pthread_mutex_lock(&c->lock);
    struct kc_entry *src = kc_find(c, of);
    struct kc_entry *alias = src && !kc_find(c, key) ? calloc(1, sizeof *alias) : NULL;
    if (alias) {
        clRetainProgram(src->prog);
        alias->key = key;
        alias->prog = src->prog;
        kc_insert(c, alias);
    }
    pthread_mutex_unlock(&c->lock);
    return alias ? alias->prog : NULL;
}
