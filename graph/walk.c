/* walk.c: the nodes under a set of outputs in topological order, each with its index. */
#include "graph/walk.h"

#include <stdlib.h>
#include <string.h>

/* ---- a map from non-zero 64-bit keys to longs (open addressing, linear probing) ---- */

static size_t lc_key_hash(uint64_t x, size_t cap)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return (size_t)x & (cap - 1);
}

/* Doubles the slots; `st` (may be NULL) counts the work. */
static int lc_map_grow(struct lc_ptrmap *m, struct lc_walk_stats *st)
{
    size_t ncap = m->cap ? m->cap * 2 : 64, probes = 0, moved = 0;
    struct lc_ptrmap_slot *ns = calloc(ncap, sizeof *ns);
    if (!ns)
        return -1;
    for (size_t i = 0; i < m->cap; i++) {
        if (!m->slots[i].key)
            continue;
        size_t h = lc_key_hash(m->slots[i].key, ncap);
        for (probes++; ns[h].key; probes++)
            h = (h + 1) & (ncap - 1);
        ns[h] = m->slots[i];
        moved++;
    }
    if (st) {
        st->probes += probes;
        st->moved += moved;
        st->allocs++;
    }
    free(m->slots);
    m->slots = ns;
    m->cap = ncap;
    return 0;
}

/* The slot holding key, or the empty slot where it belongs (m->cap > 0). */
static size_t lc_map_slot(const struct lc_ptrmap *m, uint64_t key, struct lc_walk_stats *st)
{
    size_t h = lc_key_hash(key, m->cap), probes = 1;
    for (; m->slots[h].key && m->slots[h].key != key; probes++)
        h = (h + 1) & (m->cap - 1);
    if (st)
        st->probes += probes;
    return h;
}

static long lc_map_get(const struct lc_ptrmap *m, uint64_t key)
{
    if (!m->cap)
        return -1;
    const struct lc_ptrmap_slot *s = &m->slots[lc_map_slot(m, key, NULL)];
    return s->key ? s->value : -1;
}

/* 1 if added, 0 if present (the value is left alone), -1 on no memory; `st` (may
 * be NULL) counts the work. */
static int lc_map_put(struct lc_ptrmap *m, uint64_t key, long value, struct lc_walk_stats *st)
{
    if ((m->n + 1) * 2 > m->cap && lc_map_grow(m, st) < 0)
        return -1;
    struct lc_ptrmap_slot *s = &m->slots[lc_map_slot(m, key, st)];
    if (s->key)
        return 0;
    s->key = key;
    s->value = value;
    m->n++;
    return 1;
}

long lc_ptrmap_get(const struct lc_ptrmap *m, const void *key)
{
    return lc_map_get(m, (uint64_t)(uintptr_t)key);
}

int lc_ptrmap_put(struct lc_ptrmap *m, const void *key, long value)
{
    return lc_map_put(m, (uint64_t)(uintptr_t)key, value, NULL);
}

void lc_ptrmap_free(struct lc_ptrmap *m)
{
    free(m->slots);
    memset(m, 0, sizeof *m);
}

/* ---- the walk ---------------------------------------------------------------------- */

/* A node's key in the walk's index: its serial, unique and, unlike its address,
 * the same in every run, so the walk's work counts are reproducible. */
static uint64_t lc_walk_key(const struct lc_node *n)
{
    return n->serial + 1;
}

long lc_walk_index(const struct lc_walk *w, const struct lc_node *n)
{
    return lc_map_get(&w->index, lc_walk_key(n));
}

static int lc_walk_push_order(struct lc_walk *w, struct lc_node *n)
{
    if (w->n == w->cap) {
        size_t ncap = w->cap ? w->cap * 2 : 32;
        void *no = realloc(w->order, ncap * sizeof *w->order);
        if (!no)
            return -1;
        w->order = no;
        w->cap = ncap;
        w->stats.allocs++;
    }
    w->order[w->n++] = n;
    return 0;
}

lc_status lc_graph_walk(struct lc_node *const *outs, size_t n_outs, struct lc_walk *w,
                        struct lc_error *e)
{
    memset(w, 0, sizeof *w);
    /* Stack of (node, next input to visit). A node enters the map (index -1)
     * when first pushed and gets its index once its inputs are placed. */
    struct frame { struct lc_node *n; int next; } *stack = NULL;
    size_t top = 0, cap = 0;
    for (size_t r = 0; r < n_outs; r++) {
        int added = lc_map_put(&w->index, lc_walk_key(outs[r]), -1, &w->stats);
        w->stats.edges++;
        if (added < 0)
            goto nomem;
        if (!added)
            continue;
        struct lc_node *push = outs[r];
        for (;;) {
            if (push) {
                if (top == cap) {
                    cap = cap ? cap * 2 : 32;
                    void *ns = realloc(stack, cap * sizeof *stack);
                    if (!ns)
                        goto nomem;
                    stack = ns;
                    w->stats.allocs++;
                }
                stack[top++] = (struct frame){push, 0};
                push = NULL;
            }
            if (!top)
                break;
            struct frame *f = &stack[top - 1];
            if (f->next < f->n->n_in) {
                struct lc_node *c = f->n->in[f->next++];
                int a = lc_map_put(&w->index, lc_walk_key(c), -1, &w->stats);
                w->stats.edges++;
                if (a < 0)
                    goto nomem;
                if (a)
                    push = c;
                continue;
            }
            if (lc_walk_push_order(w, f->n) < 0)
                goto nomem;
            /* Overwrite the -1 placed when it was pushed. */
            w->index.slots[lc_map_slot(&w->index, lc_walk_key(f->n), &w->stats)].value =
                (long)(w->n - 1);
            top--;
        }
    }
    free(stack);
    return LC_OK;
nomem:
    free(stack);
    lc_walk_free(w);
    return lc_error_set(e, LC_ERR_NOMEM, "out of host memory walking the graph");
}

void lc_walk_free(struct lc_walk *w)
{
    free(w->order);
    lc_ptrmap_free(&w->index);
    memset(w, 0, sizeof *w);
}

struct lc_node **lc_graph_topo(struct lc_node *const *outs, size_t n_outs, size_t *n_res,
                               struct lc_error *e)
{
    struct lc_walk w;
    if (lc_graph_walk(outs, n_outs, &w, e) != LC_OK)
        return NULL;
    struct lc_node **order = w.order ? w.order : malloc(sizeof *order);
    *n_res = w.n;
    lc_ptrmap_free(&w.index);
    if (!order)
        lc_error_set(e, LC_ERR_NOMEM, "out of host memory walking the graph");
    return order;
}

/* walk.h */
int lc_graph_exact(struct lc_node *n, struct lc_error *e)
{
    struct lc_walk w = {0};
    if (lc_graph_walk(&n, 1, &w, e) != LC_OK)
        return -1;
    int exact = 1;
    for (size_t i = 0; exact && i < w.n; i++) {
        const struct lc_node *x = w.order[i];
        if (lc_op_is_transcendental(x->op) || x->op == LC_OP_SUMEXP || x->op == LC_OP_USER ||
            x->op == LC_OP_USERRED)
            exact = 0;
        else if (x->op == LC_OP_RANDOM)
            exact = x->p.random.dist != LC_RANDOM_NORMAL;
    }
    lc_walk_free(&w);
    return exact;
}
