/* keep.c: which computed intermediates a force keeps.
 *
 * A lazy graph recomputes a pending node each time something that reads it is forced. For a
 * sort, a scan or a top-k selection (nodes always written whole to a buffer of their own)
 * that is a whole second launch sequence, and NumPy code reads such results more than once:
 * `I = argsort(a); v = a[I[-k:]]; ... x[I[-k:]] = ...`, and a small reduction the same way
 * (`if val > best: best = val`), and a one-element value a loop carries. So a force also
 * computes, as extra
 * outputs, every such node under its outputs that something outside this graph still holds
 * (a Python array, or another pending graph): its references outnumber its consumers here.
 * The node becomes a leaf holding its buffer, as a forced output does, and later forces read
 * it. The buffer would have been written anyway; it only lives as long as its holders.
 */
#include "engine/engine.h"

#include "graph/walk.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* Kept when held: sorts, scans and selections; reductions to a small result (at most
 * LC_KEEP_REDUCED elements, and 16 inputs or more each). A large one, a matrix product
 * foremost, stays pending: writing it whole would undo the fusion that reads it inside its
 * consumers' kernels (a product's column norms), just because a Python name holds it. */
#define LC_KEEP_REDUCED 65536
static int lc_keep_kind(const struct lc_node *x)
{
    if (lc_node_is_leaf(x))
        return 0;
    enum lc_kind k = lc_op_kind(x->op);
    if (k == LC_KIND_SCAN)
        return 1;
    if (k != LC_KIND_REDUCE)
        return 0;
    int64_t out = lc_shape_size(x->ndim, x->shape), in = lc_shape_size(x->in[0]->ndim,
                                                                       x->in[0]->shape);
    return out <= LC_KEEP_REDUCED && out * 16 <= in;
}

/* A one-element value over a reduction or a chain of more than LC_KEEP_CHAIN ops (a scalar
 * a loop carries: `alpha = f(alpha, dot(...))`) is kept too when held, or each force would
 * compute again the whole chain of its past values, a longer graph at each step (a new
 * plan and kernel each time). A short cheap one (an edge of np.gradient, read in a
 * broadcast) is not: writing it would take a launch of its own, and computing it again
 * costs next to nothing. `under`: ops under it, or -1 when a reduction is among them. */
#define LC_KEEP_CHAIN 8
static int lc_keep_scalar(const struct lc_node *x, int under)
{
    if (lc_node_is_leaf(x) || lc_shape_size(x->ndim, x->shape) != 1)
        return 0;
    enum lc_kind k = lc_op_kind(x->op);
    return k != LC_KIND_VIEW && k != LC_KIND_SOURCE && k != LC_KIND_STORE &&
           (under < 0 || under > LC_KEEP_CHAIN);
}

/* The ops under x, -1 when a reduction is among them, from its inputs' counts in `under`
 * (each input's own count: what is under it, and itself, -1 for a reduction). */
static int lc_under(const struct lc_walk *w, const int *under, const struct lc_node *x)
{
    int u = 0;
    for (int j = 0; j < x->n_in && u >= 0; j++) {
        int c = under[lc_walk_index(w, x->in[j])];
        u = c < 0 ? -1 : u + c + !lc_node_is_leaf(x->in[j]);
    }
    return u > 1000 ? 1000 : u;
}

lc_status lc_engine_with_kept(struct lc_node *const *outs, size_t n, struct lc_node ***all,
                              size_t *n_all, struct lc_error *e)
{
    struct lc_walk w;
    memset(&w, 0, sizeof w);
    *all = NULL;
    *n_all = n;
    if (lc_graph_walk(outs, n, &w, e) != LC_OK)
        return e->code;
    lc_status st = lc_engine_kept_in(&w, outs, n, all, n_all, e);
    lc_walk_free(&w);
    return st;
}

lc_status lc_engine_kept_in(const struct lc_walk *w, struct lc_node *const *outs, size_t n,
                            struct lc_node ***all, size_t *n_all, struct lc_error *e)
{
    *all = NULL;
    *n_all = n;
    /* Per node: the ops under it and itself (-1 over a reduction), then whether it is a
     * candidate; most graphs a loop forces need no allocation. */
    int small[128];
    int *under = 2 * w->n <= 128 ? small : malloc(2 * w->n * sizeof *under);
    if (!under)
        return lc_error_set(e, LC_ERR_NOMEM, "out of host memory");
    int *is_cand = under + w->n;
    size_t cand = 0;
    for (size_t i = 0; i < w->n; i++) {   /* inputs first: each op's count is ready */
        const struct lc_node *x = w->order[i];
        int u = lc_under(w, under, x);
        under[i] = lc_op_kind(x->op) == LC_KIND_REDUCE ? -1 : u;
        is_cand[i] = lc_keep_kind(x) || lc_keep_scalar(x, u);
        cand += (size_t)is_cand[i];
    }
    if (!cand) {
        if (under != small)
            free(under);
        return LC_OK;
    }
    int *held = calloc(w->n, sizeof *held);   /* references from this graph */
    struct lc_node **list = malloc((n + cand) * sizeof *list);
    if (!held || !list) {
        free(held);
        free(list);
        if (under != small)
            free(under);
        return lc_error_set(e, LC_ERR_NOMEM, "out of host memory");
    }
    for (size_t i = 0; i < w->n; i++)
        for (int j = 0; j < w->order[i]->n_in; j++)
            held[lc_walk_index(w, w->order[i]->in[j])]++;
    for (size_t r = 0; r < n; r++) {
        long i = lc_walk_index(w, outs[r]);
        held[i] = -1;   /* forced already */
        list[r] = outs[r];
    }
    /* A store's value and predicate are computed in its kernel, which has no outputs; the
     * caller holding them (x -= d holds x - d while it stores it) is no reason to write them. */
    for (size_t r = 0; r < n; r++)
        if (outs[r]->op == LC_OP_STORE)
            for (int j = 1; j < outs[r]->n_in; j++)
                held[lc_walk_index(w, outs[r]->in[j])] = -1;
    size_t m = n;
    for (size_t i = 0; i < w->n; i++) {
        struct lc_node *x = w->order[i];
        if (held[i] >= 0 && is_cand[i] && atomic_load(&x->refcount) > held[i])
            list[m++] = x;
    }
    if (under != small)
        free(under);
    free(held);
    if (m == n) {
        free(list);
        return LC_OK;
    }
    *all = list;
    *n_all = m;
    return LC_OK;
}
