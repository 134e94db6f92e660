/* store.c: the builder of stores, values written in place into a realized array. */
#include "graph/internal.h"

const struct lc_node *lc_store_dest(const struct lc_node *target)
{
    const struct lc_node *n = target;
    while (!lc_node_is_leaf(n)) {
        enum lc_kind k = lc_op_kind(n->op);
        if ((k != LC_KIND_VIEW || n->op == LC_OP_BROADCAST) && k != LC_KIND_GATHER)
            return NULL;
        n = n->in[0];
    }
    return n->op == LC_OP_BUFFER ? n : NULL;
}

struct lc_node *lc_node_store(struct lc_node *target, struct lc_node *value, struct lc_node *pred,
                              int combine, struct lc_error *e)
{
    struct lc_node *in[3] = {target, value, pred};
    int n_in = pred ? 3 : 2;
    for (int i = 1; i < n_in; i++)
        if (in[i]->owner != target->owner) {
            lc_error_set(e, LC_ERR_PLACEMENT,
                         "operands are on different devices or queues; use x.to_device(d) to "
                         "move one of them first");
            return NULL;
        }
    if (!lc_store_dest(target)) {
        lc_error_set(e, LC_ERR_INVALID, "internal: a store's target must be views and gathers "
                     "over a realized array");
        return NULL;
    }
    for (int i = 1; i < n_in; i++) {
        int ok = in[i]->ndim == target->ndim;
        for (int d = 0; ok && d < target->ndim; d++)
            ok = in[i]->shape[d] == target->shape[d];
        if (!ok || (i == 1 && value->dtype != target->dtype) ||
            (i == 2 && pred->dtype != LC_BOOL)) {
            lc_error_set(e, LC_ERR_INVALID, "internal: a store's %s must have the target's shape "
                         "and %s", i == 1 ? "value" : "predicate",
                         i == 1 ? "dtype" : "be bool");
            return NULL;
        }
    }
    for (const struct lc_node *c = target; !lc_node_is_leaf(c); c = c->in[0])
        if (c->op == LC_OP_GATHER && c->p.gather.report_axis == LC_GATHER_BOUNDED &&
            (combine != LC_STORE_IN_ORDER || !pred)) {
            lc_error_set(e, LC_ERR_INVALID, "internal: an unclamped gather is only the target "
                         "of a store in row order whose predicate bounds it");
            return NULL;
        }
    if (combine != 0 && combine != LC_OP_ADD && combine != LC_OP_MUL &&
        combine != LC_OP_MINIMUM && combine != LC_OP_MAXIMUM && combine != LC_STORE_IN_ORDER) {
        lc_error_set(e, LC_ERR_INVALID, "internal: a store assigns (in any order or in row "
                     "order) or combines by add, multiply, minimum or maximum");
        return NULL;
    }
    struct lc_node *n = lc_node_new(LC_OP_STORE, target->dtype, target->ndim, target->shape, in,
                                    n_in, e);
    if (!n)
        return NULL;
    n->p.store.combine = combine;
    lc_node_seal(n);
    return n;
}

struct lc_node *lc_node_copy(struct lc_node *a, struct lc_error *e)
{
    struct lc_node *n = lc_node_new(LC_OP_CAST, a->dtype, a->ndim, a->shape, &a, 1, e);
    if (!n)
        return NULL;
    lc_node_seal(n);
    return n;
}

struct lc_node *lc_node_replay(const struct lc_node *top, struct lc_node *leaf, struct lc_error *e)
{
    const struct lc_node *chain[256];
    int n = 0;
    for (const struct lc_node *c = top; !lc_node_is_leaf(c); c = c->in[0]) {
        enum lc_kind k = lc_op_kind(c->op);
        if ((k != LC_KIND_VIEW && k != LC_KIND_GATHER) || n == 256) {
            lc_error_set(e, LC_ERR_INVALID, "internal: replaying a chain that is not views");
            return NULL;
        }
        chain[n++] = c;
    }
    lc_node_retain(leaf);
    struct lc_node *cur = leaf;
    while (n-- > 0 && cur) {
        const struct lc_node *c = chain[n];
        struct lc_node *next = NULL;
        switch (c->op) {
        case LC_OP_RESHAPE:
            next = lc_node_reshape(cur, c->ndim, c->shape, e);
            break;
        case LC_OP_PERMUTE: {
            int64_t perm[LC_MAXDIM];
            for (int d = 0; d < c->ndim; d++)
                perm[d] = c->p.perm[d];
            next = lc_node_permute(cur, perm, e);
            break;
        }
        case LC_OP_BROADCAST:
            next = lc_node_broadcast_to(cur, c->ndim, c->shape, e);
            break;
        case LC_OP_SLICE:
            next = lc_node_slice(cur, c->p.slice.start, c->p.slice.step, c->shape, e);
            break;
        default: /* GATHER */
            next = lc_node_gather(cur, c->in[1], c->p.gather.axis, c->p.gather.report_axis, e);
            break;
        }
        lc_node_release(cur);
        cur = next;
    }
    return cur;
}
