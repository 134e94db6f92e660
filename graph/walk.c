/* walk.c: the nodes under a set of outputs in topological order, each with its index. */
#include "graph/walk.h"

#include <stdlib.h>
#include <string.h>

/* ---- a map from pointers to indices (open addressing, linear probing) ------------ */

static size_t lc_ptr_hash(const void *p, size_t cap)
{
    uint64_t x = (uint64_t)(uintptr_t)p;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return (size_t)x & (cap - 1);
}

static int lc_ptrmap_grow(struct lc_ptrmap *m)
{
    size_t ncap = m->cap ? m->cap * 2 : 64;
    struct lc_ptrmap_slot *ns = calloc(ncap, sizeof *ns);
    if (!ns)
        return -1;
    for (size_t i = 0; i < m->cap; i++) {
        if (!m->slots[i].key)
            continue;
        size_t h = lc_ptr_hash(m->slots[i].key, ncap);
        while (ns[h].key)
            h = (h + 1) & (ncap - 1);
        ns[h] = m->slots[i];
    }
    free(m->slots);
    m->slots = ns;
    m->cap = ncap;
    return 0;
}

long lc_ptrmap_get(const struct lc_ptrmap *m, const void *key)
{
    if (!m->cap)
        return -1;
    size_t h = lc_ptr_hash(key, m->cap);
    while (m->slots[h].key) {
        if (m->slots[h].key == key)
            return m->slots[h].value;
        h = (h + 1) & (m->cap - 1);
    }
    return -1;
}

int lc_ptrmap_put(struct lc_ptrmap *m, const void *key, long value)
{
    if ((m->n + 1) * 2 > m->cap && lc_ptrmap_grow(m) < 0)
        return -1;
    size_t h = lc_ptr_hash(key, m->cap);
    while (m->slots[h].key) {
        if (m->slots[h].key == key)
            return 0;
        h = (h + 1) & (m->cap - 1);
    }
    m->slots[h].key = key;
    m->slots[h].value = value;
    m->n++;
    return 1;
}

void lc_ptrmap_free(struct lc_ptrmap *m)
{
    free(m->slots);
    memset(m, 0, sizeof *m);
}

/* ---- the walk ---------------------------------------------------------------------- */

static int lc_walk_push_order(struct lc_walk *w, struct lc_node *n)
{
    if (w->n == w->cap) {
        size_t ncap = w->cap ? w->cap * 2 : 32;
        void *no = realloc(w->order, ncap * sizeof *w->order);
        if (!no)
            return -1;
        w->order = no;
        w->cap = ncap;
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
        int added = lc_ptrmap_put(&w->index, outs[r], -1);
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
                }
                stack[top++] = (struct frame){push, 0};
                push = NULL;
            }
            if (!top)
                break;
            struct frame *f = &stack[top - 1];
            if (f->next < f->n->n_in) {
                struct lc_node *c = f->n->in[f->next++];
                int a = lc_ptrmap_put(&w->index, c, -1);
                if (a < 0)
                    goto nomem;
                if (a)
                    push = c;
                continue;
            }
            if (lc_walk_push_order(w, f->n) < 0)
                goto nomem;
            /* Overwrite the -1 placed when it was pushed. */
            size_t h = lc_ptr_hash(f->n, w->index.cap);
            while (w->index.slots[h].key != f->n)
                h = (h + 1) & (w->index.cap - 1);
            w->index.slots[h].value = (long)(w->n - 1);
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
