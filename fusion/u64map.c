/* u64map.c: the small u64 -> int map and the array growth the fusion pass uses. */
#include "fusion/internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- a small u64 -> int map (open addressing) ------------------------------------- */

static uint64_t lc_mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

static int lc_map_grow(struct lc_map *m)
{
    size_t ncap = m->cap ? m->cap * 2 : 256;
    uint64_t *nk = calloc(ncap, sizeof *nk);
    int *nv = malloc(ncap * sizeof *nv);
    if (!nk || !nv) {
        free(nk);
        free(nv);
        return -1;
    }
    for (size_t i = 0; i < m->cap; i++) {
        if (!m->keys[i])
            continue;
        size_t h = lc_mix(m->keys[i]) & (ncap - 1);
        while (nk[h])
            h = (h + 1) & (ncap - 1);
        nk[h] = m->keys[i];
        nv[h] = m->vals[i];
    }
    free(m->keys);
    free(m->vals);
    m->keys = nk;
    m->vals = nv;
    m->cap = ncap;
    return 0;
}

int lc_map_get(const struct lc_map *m, uint64_t key, int *val)
{
    if (!m->cap)
        return 0;
    key += 1;
    size_t h = lc_mix(key) & (m->cap - 1);
    while (m->keys[h]) {
        if (m->keys[h] == key) {
            *val = m->vals[h];
            return 1;
        }
        h = (h + 1) & (m->cap - 1);
    }
    return 0;
}

int lc_map_put(struct lc_map *m, uint64_t key, int val)
{
    if ((m->n + 1) * 2 > m->cap && lc_map_grow(m) < 0)
        return -1;
    key += 1;
    size_t h = lc_mix(key) & (m->cap - 1);
    while (m->keys[h] && m->keys[h] != key)
        h = (h + 1) & (m->cap - 1);
    if (!m->keys[h])
        m->n++;
    m->keys[h] = key;
    m->vals[h] = val;
    return 0;
}

void lc_map_free(struct lc_map *m)
{
    free(m->keys);
    free(m->vals);
    memset(m, 0, sizeof *m);
}

int lc_grow(void **arr, int *cap, size_t elem)
{
    int ncap = *cap ? *cap * 2 : 8;
    void *na = realloc(*arr, (size_t)ncap * elem);
    if (!na)
        return -1;
    *arr = na;
    *cap = ncap;
    return 0;
}

