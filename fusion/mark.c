/* mark.c: which nodes a plan writes to memory (materialized), and which reshapes take their
 * input's buffer instead. */
#include "fusion/internal.h"

#include <stdlib.h>
#include <string.h>

static int lc_is_expensive_op(int op)
{
    return lc_op_is_transcendental(op) || op == LC_OP_GCD || op == LC_OP_LCM;
}

/* Is x a scan that a store kernel over `shape` may compute in order: a cumulative op (not a
 * sort or a selection) over that shape along its last dim? */
static int lc_scan_for_store(const struct lc_node *x, int ndim, const int64_t *shape)
{
    return (x->op == LC_OP_CUMSUM || x->op == LC_OP_CUMPROD || x->op == LC_OP_CUMMIN ||
            x->op == LC_OP_CUMMAX) && ndim >= 1 && x->p.red.axes == 1u << (ndim - 1) &&
           lc_same_dims(x->ndim, x->shape, ndim, shape);
}

/* The reduction whose value is scan x's row totals: its op, or -1 when x's op and dtype have
 * none the store's kernel gives exactly (integer sums, products, minima, maxima: the same
 * value in any association). */
static int lc_total_op(const struct lc_node *x)
{
    char kind = lc_dtype_kind(x->dtype);
    if (kind != 'i' && kind != 'u')
        return -1;
    switch (x->op) {
    case LC_OP_CUMSUM: return LC_OP_SUM;
    case LC_OP_CUMPROD: return LC_OP_PROD;
    case LC_OP_CUMMIN: return LC_OP_RMIN;
    case LC_OP_CUMMAX: return LC_OP_RMAX;
    default: return -1;
    }
}

/* LC_FUSE_SCAN_TOTAL: the forced reductions that nothing reads, of scan `sc`'s input over its
 * last dim by the matching op in its dtype, are written by store `si`'s kernel (its scan's
 * state at each row's end). Not for empty rows (a kernel of no tiles writes nothing). */
static void lc_mark_scan_total(struct lc_fuse *f, int si, int sc)
{
    const struct lc_node *x = f->topo[sc];
    int op = lc_total_op(x), nd = x->ndim;
    if (op < 0 || nd < 1 || x->shape[nd - 1] == 0)
        return;
    for (size_t i = 0; i < f->n; i++) {
        const struct lc_node *r = f->topo[i];
        struct lc_nodeinfo *ri = &f->info[i];
        if (r->op == op && r->in[0] == x->in[0] && r->dtype == x->dtype && ri->forced &&
            !ri->consumers && ri->store_total < 0 && r->p.red.axes == 1u << (nd - 1) &&
            lc_same_dims(r->ndim, r->shape, nd - 1, x->shape))
            ri->store_total = si;
    }
}

/* LC_FUSE_SCAN_STORE: the scan, if any, that store `si` computes in its own kernel. The
 * store reads at the place it writes its value, its predicate and, when it writes through
 * a gather (a compaction's slots), that gather's index; elementwise nodes of
 * the store's shape that are not written to memory pass that place on to their inputs.
 * A scan met there whose every consumer is met there too, and that nothing forces, is
 * computed in the store's kernel: one per store, the first found. */
static void lc_mark_scan_store(struct lc_fuse *f, int si, int *seen, int *edges, int *stack,
                               int *met)
{
    const struct lc_node *st = f->topo[si];
    int nd = st->ndim, top = 0, n_met = 0, scan = -1;
    const int64_t *shape = st->shape;
    const struct lc_node *t = st->in[0];
    const struct lc_node *roots[3] = {st->in[1], st->n_in > 2 ? st->in[2] : NULL, NULL};
    if (t->op == LC_OP_GATHER)           /* read at the gather's own index: the store's */
        roots[2] = t->in[1];
    /* Each edge into a node met at the place is counted once. */
    for (int r = 0; r < 3; r++)
        if (roots[r])
            stack[top++] = lc_idx(f, roots[r]);
    while (top) {
        int c = stack[--top];
        const struct lc_node *x = f->topo[c];
        edges[c]++;
        if (seen[c] == si + 1)
            continue;
        seen[c] = si + 1;
        met[n_met++] = c;
        if (lc_node_is_leaf(x) || f->info[c].forced)
            continue;
        if (lc_scan_for_store(x, nd, shape)) {
            if (scan < 0)
                scan = c;
            continue;
        }
        if (f->info[c].mat || !lc_op_is_elementwise(x->op) ||
            !lc_same_dims(x->ndim, x->shape, nd, shape))
            continue;
        for (int j = 0; j < x->n_in; j++)
            stack[top++] = lc_idx(f, x->in[j]);
    }
    if (scan >= 0 && edges[scan] == f->info[scan].consumers) {
        f->info[scan].mat = 0;
        f->info[scan].scan_store = si;
        if (f->flags & LC_FUSE_SCAN_TOTAL)
            lc_mark_scan_total(f, si, scan);
    }
    for (int j = 0; j < n_met; j++)
        edges[met[j]] = 0;
}

static void lc_mark_scan_stores(struct lc_fuse *f)
{
    size_t n = f->n ? f->n : 1, cap = 4;
    /* A node's inputs are pushed once per store, when it is first met. */
    for (size_t i = 0; i < f->n; i++)
        cap += f->topo[i]->n_in;
    int *seen = calloc(n, sizeof *seen), *edges = calloc(n, sizeof *edges);
    int *met = malloc(n * sizeof *met), *stack = malloc(cap * sizeof *stack);
    /* Out of memory: no scan joins a store (each is written, as without the flag). */
    for (size_t i = 0; i < f->n && seen && edges && met && stack; i++) {
        int combine = f->topo[i]->op == LC_OP_STORE ? f->topo[i]->p.store.combine : 1;
        if (!combine || combine == LC_STORE_IN_ORDER)
            lc_mark_scan_store(f, (int)i, seen, edges, stack, met);
    }
    free(seen);
    free(edges);
    free(met);
    free(stack);
}

/* Is elementwise node x (not written) over reductions of its shape and constants only, through
 * elementwise nodes that are too? */
static int lc_over_reduce(struct lc_fuse *f, const struct lc_node *x)
{
    int any = 0;
    for (int j = 0; j < x->n_in; j++) {
        const struct lc_node *c = x->in[j];
        const struct lc_nodeinfo *ci = &f->info[lc_idx(f, c)];
        if (lc_node_is_leaf(c)) {
            if (c->op != LC_OP_CONST)
                return 0;
        } else if (lc_op_kind(c->op) == LC_KIND_REDUCE &&
                   lc_same_dims(c->ndim, c->shape, x->ndim, x->shape)) {
            any = 1;
        } else if (!ci->mat && ci->over_reduce) {
            any = 1;
        } else {
            return 0;
        }
    }
    return any;
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
        /* A broadcast to 4 times the size or more, of a node or of a reshape of one. */
        const struct lc_node *v = x->op == LC_OP_BROADCAST ? x->in[0] : NULL;
        if (v && lc_shape_size(x->ndim, x->shape) >= 4 * lc_shape_size(v->ndim, v->shape)) {
            f->info[lc_idx(f, v)].broadcast = 1;
            if (v->op == LC_OP_RESHAPE && !lc_node_is_leaf(v))
                f->info[lc_idx(f, v->in[0])].broadcast = 1;
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
        ni->over_reduce = lc_op_is_elementwise(x->op) && lc_over_reduce(f, x);
        if (ni->depth >= LC_KERNEL_MAX_DEPTH)
            ni->mat = 1;
        /* A reduction's epilogue broadcast into a bigger consumer (x - x.mean(0),
         * (x - m) / x.std(0)) is computed once per output in the reduction's kernel, not
         * again at every element that reads it (a divide and a square root per element of
         * standardize). */
        if (ni->over_reduce && ni->broadcast)
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
    if (f->flags & LC_FUSE_SCAN_STORE)
        lc_mark_scan_stores(f);
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
