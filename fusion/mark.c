/* mark.c: which nodes a plan writes to memory (materialized), and which reshapes take their
 * input's buffer instead. */
#include "fusion/internal.h"

#include <stdlib.h>
#include <string.h>

static int lc_is_expensive_op(int op)
{
    switch (op) {
    case LC_OP_EXP: case LC_OP_EXPM1: case LC_OP_EXP2: case LC_OP_LOG: case LC_OP_LOG1P:
    case LC_OP_LOG2: case LC_OP_LOG10: case LC_OP_CBRT: case LC_OP_SIN: case LC_OP_COS:
    case LC_OP_TAN: case LC_OP_ARCSIN: case LC_OP_ARCCOS: case LC_OP_ARCTAN: case LC_OP_SINH:
    case LC_OP_COSH: case LC_OP_TANH: case LC_OP_ARCSINH: case LC_OP_ARCCOSH:
    case LC_OP_ARCTANH: case LC_OP_POW: case LC_OP_ARCTAN2: case LC_OP_HYPOT:
    case LC_OP_GCD: case LC_OP_LCM:
        return 1;
    default:
        return 0;
    }
}

/* Decide which nodes are written to memory. */
void lc_mark(struct lc_fuse *f, struct lc_node *const *outs, size_t n_outs)
{
    for (size_t i = 0; i < f->n; i++) {
        struct lc_node *x = f->topo[i];
        for (int k = 0; k < x->n_in; k++) {
            struct lc_nodeinfo *c = &f->info[lc_idx(f, x->in[k])];
            c->consumers++;
            /* A slice or a gather reading a small part of its input (the top k's values
             * read back by index, one column of a product) costs little to recompute. */
            int64_t nx = lc_shape_size(x->ndim, x->shape),
                    nin = lc_shape_size(x->in[k]->ndim, x->in[k]->shape);
            if ((x->op == LC_OP_SLICE ||
                 (x->op == LC_OP_GATHER && k == 0)) && nx <= nin / 8) {
                c->sparse++;
                c->sparse_elems += nx;
            }
        }
    }
    for (size_t r = 0; r < n_outs; r++) {
        struct lc_nodeinfo *ni = &f->info[lc_idx(f, outs[r])];
        ni->forced = 1;
        if (!lc_node_is_leaf(outs[r]))
            ni->mat = 1;
    }
    for (size_t i = 0; i < f->n; i++) {
        struct lc_node *x = f->topo[i];
        struct lc_nodeinfo *ni = &f->info[i];
        enum lc_kind k = lc_op_kind(x->op);
        if (k == LC_KIND_SOURCE)
            continue;
        if (k == LC_KIND_REDUCE || k == LC_KIND_SCAN) {
            ni->mat = 1;
            continue;
        }
        int depth = 0, cost = 1, expensive = lc_is_expensive_op(x->op);
        for (int j = 0; j < x->n_in; j++) {
            struct lc_nodeinfo *c = &f->info[lc_idx(f, x->in[j])];
            if (c->mat || lc_node_is_leaf(x->in[j]))
                continue;
            if (c->depth > depth)
                depth = c->depth;
            cost += c->cost;
            expensive |= c->expensive;
        }
        ni->depth = depth + 1;
        ni->cost = cost > 1 << 20 ? 1 << 20 : cost;
        ni->expensive = expensive;
        if (ni->depth >= LC_KERNEL_MAX_DEPTH)
            ni->mat = 1;
        /* Consumers that read a small part of it in all are not counted: they recompute
         * it where they read it (a product read by its top k and by the values at them). */
        int dense = ni->consumers;
        if (ni->sparse && ni->sparse_elems <= lc_shape_size(x->ndim, x->shape) / 4)
            dense -= ni->sparse;
        if (dense >= 2 && (ni->cost > LC_RECOMPUTE_MAX_OPS ||
             (ni->expensive && ni->cost > LC_RECOMPUTE_MAX_OPS / 4)))
            ni->mat = 1;
        if (ni->mat) {
            ni->depth = 0;
            ni->cost = 0;
            ni->expensive = 0;
        }
    }
    /* A store's target is a place to write, never a value: nothing on it is
     * written to memory. */
    for (size_t i = 0; i < f->n; i++) {
        if (f->topo[i]->op != LC_OP_STORE)
            continue;
        for (const struct lc_node *t = f->topo[i]->in[0]; !lc_node_is_leaf(t); t = t->in[0])
            f->info[lc_idx(f, t)].mat = 0;
    }
}

/* A reshape of a node written contiguously to a plan buffer is a free view
 * of that buffer: a reshape in C order keeps the flat C order of its input,
 * so the buffer holds the reshape's elements in its own contiguous layout
 * too. Every materialized reshape whose input holds such a buffer (is
 * materialized, or is a reshape of one, materialized or not) stops being
 * materialized and takes that buffer (info->alias); a forced one keeps the
 * buffer past the plan. Nodes are visited inputs first, so a chain of
 * reshapes all take the buffer at its bottom. Run again before each retry:
 * a reshape's input that no strided layout could express is materialized
 * then, and the reshape takes it. */
void lc_alias_reshapes(struct lc_fuse *f)
{
    for (size_t i = 0; i < f->n; i++) {
        const struct lc_node *x = f->topo[i];
        struct lc_nodeinfo *ni = &f->info[i];
        if (x->op != LC_OP_RESHAPE || lc_node_is_leaf(x) || !ni->mat || ni->alias >= 0)
            continue;
        /* Through reshapes that are neither materialized nor aliased (views
         * read in their consumers' kernels) to the node holding the bytes. */
        int c = lc_idx(f, x->in[0]);
        while (f->topo[c]->op == LC_OP_RESHAPE && !lc_node_is_leaf(f->topo[c]) &&
               !f->info[c].mat && f->info[c].alias < 0)
            c = lc_idx(f, f->topo[c]->in[0]);
        const struct lc_nodeinfo *ci = &f->info[c];
        int target = ci->alias >= 0 ? ci->alias : ci->mat ? c : -1;
        if (target < 0)
            continue;
        ni->alias = target;
        ni->mat = 0;
        if (ni->forced)
            f->info[target].keep = 1;
    }
}
