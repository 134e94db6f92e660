/* fuse.c: lc_fuse, grouping a DAG into kernels, with views pushed down to the leaves. */
#include "fusion/internal.h"

#include <stdio.h>
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
static void lc_mark(struct lc_fuse *f, struct lc_node *const *outs, size_t n_outs)
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
static void lc_alias_reshapes(struct lc_fuse *f)
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

/* ---- building kernels ------------------------------------------------------------- */

static int lc_add_fused(struct lc_kernel *k, const struct lc_node *n)
{
    if (LC_GROW(k->fused, k->n_fused, k->cap_fused) < 0)
        return -1;
    k->fused[k->n_fused++] = n;
    return 0;
}

static int lc_new_expr(struct lc_fuse *f, struct lc_kernel *k, int op, int dtype, int cdtype,
                       const struct lc_node *node)
{
    if (LC_GROW(k->exprs, k->n_exprs, k->cap_exprs) < 0) {
        lc_error_set(f->e, LC_ERR_NOMEM, "out of host memory planning kernels");
        return -1;
    }
    struct lc_expr *x = &k->exprs[k->n_exprs];
    memset(x, 0, sizeof *x);
    x->op = op;
    x->dtype = dtype;
    x->cdtype = cdtype;
    x->access = -1;
    x->slot = -1;
    x->node = node;
    return k->n_exprs++;
}

static int lc_plan_buffer_for(struct lc_fuse *f, int idx)
{
    struct lc_nodeinfo *ni = &f->info[idx];
    if (ni->buffer >= 0)
        return ni->buffer;
    struct lc_plan *p = f->plan;
    if (LC_GROW(p->buffers, p->n_buffers, p->cap_buffers) < 0)
        return -1;
    const struct lc_node *n = f->topo[idx];
    struct lc_plan_buffer *b = &p->buffers[p->n_buffers];
    memset(b, 0, sizeof *b);
    b->dtype = n->dtype;
    b->size = n->size;
    b->nbytes = (size_t)n->size * lc_dtype_size(n->dtype);
    b->producer = ni->kernel;
    b->last_use = ni->kernel;
    b->is_output = ni->forced || ni->keep;
    b->node = n;
    ni->buffer = p->n_buffers++;
    return ni->buffer;
}

static int lc_plan_input_for(struct lc_fuse *f, struct lc_storage *s)
{
    int id;
    if (lc_map_get(&f->inputs, (uint64_t)(uintptr_t)s, &id))
        return id;
    struct lc_plan *p = f->plan;
    if (LC_GROW(p->inputs, p->n_inputs, p->cap_inputs) < 0)
        return -1;
    id = p->n_inputs;
    p->inputs[p->n_inputs++] = s;
    if (lc_map_put(&f->inputs, (uint64_t)(uintptr_t)s, id) < 0)
        return -1;
    return id;
}

/* Strides over the kept dims but those in `post` as strides over all nkept kept dims, 0
 * along the post-reduced ones. */
static void lc_post_expand(int64_t *st, int nkept, uint32_t post)
{
    int64_t in[LC_MAXDIM];
    memcpy(in, st, sizeof in);
    for (int d = 0, j = 0; d < nkept; d++)
        st[d] = (post & (1u << d)) ? 0 : in[j++];
}

/* A load of leaf or materialized node `idx` seen through `stack`: from the
 * buffer a kernel wrote it to (`temp`), or from the leaf itself. */
static int lc_build_load(struct lc_fuse *f, int kid, int idx, int stack, int phase, int temp)
{
    struct lc_kernel *k = &f->plan->kernels[kid];
    const struct lc_node *n = f->topo[idx];
    struct lc_nodeinfo *ni = &f->info[idx];
    struct lc_layout L;
    memset(&L, 0, sizeof L);
    L.ndim = n->ndim;
    memcpy(L.shape, n->shape, sizeof L.shape);
    struct lc_access a;
    memset(&a, 0, sizeof a);
    a.dtype = n->dtype;
    a.epilogue = phase;
    if (temp) {
        if (ni->kernel < 0 || ni->kernel >= kid) {
            lc_error_set(f->e, LC_ERR_INVALID, "internal: kernel order violated in fusion");
            return -2;
        }
        a.kind = LC_ACCESS_TEMP;
        a.source = lc_plan_buffer_for(f, idx);
        if (a.source < 0)
            goto nomem;
        if (f->plan->buffers[a.source].last_use < kid)
            f->plan->buffers[a.source].last_use = kid;
        L.offset = 0;
        lc_shape_strides(n->ndim, n->shape, L.strides);
    } else {
        L.offset = n->offset;
        memcpy(L.strides, n->strides, sizeof L.strides);
        a.value = n->value;
        a.step = n->step;
        a.leaf = n;
        switch (n->op) {
        case LC_OP_BUFFER:
            a.kind = LC_ACCESS_INPUT;
            a.source = lc_plan_input_for(f, n->storage);
            if (a.source < 0)
                goto nomem;
            break;
        case LC_OP_CONST: a.kind = LC_ACCESS_CONST; break;
        case LC_OP_RANDOM: a.kind = LC_ACCESS_RANDOM; break;
        default: a.kind = LC_ACCESS_IOTA; break;
        }
    }
    /* A constant reads the same value at every index: views do not apply. */
    int rc = n->op == LC_OP_CONST ? 0 : lc_apply_stack(f, stack, &L);
    if (rc < 0)
        return rc == -1 ? -3 : -2;
    if (n->op == LC_OP_CONST)
        memset(L.strides, 0, sizeof L.strides);
    a.offset = L.offset;
    a.n_dyn = L.n_dyn;
    memcpy(a.dyn, L.dyn, sizeof a.dyn);
    memcpy(a.dyn_stride, L.dyn_stride, sizeof a.dyn_stride);
    if (phase) /* the epilogue's root may add or drop unit dims: index the kept dims */
        lc_units_restride(L.ndim, L.shape, L.strides, f->epi_nk, f->epi_kept, a.strides);
    if (phase == 2)
        lc_post_expand(a.strides, f->epi_nkept, f->epi_post);
    else if (!phase)
        memcpy(a.strides, L.strides, sizeof a.strides);
    if (LC_GROW(k->access, k->n_access, k->cap_access) < 0)
        goto nomem;
    k->access[k->n_access] = a;
    int x = lc_new_expr(f, k, lc_op_kind(n->op) == LC_KIND_SOURCE ? n->op : LC_OP_BUFFER,
                        n->dtype, n->dtype, n);
    if (x < 0)
        return -2;
    k->exprs[x].access = k->n_access++;
    k->exprs[x].epilogue = phase;
    return x;
nomem:
    lc_error_set(f->e, LC_ERR_NOMEM, "out of host memory planning kernels");
    return -2;
}

static int lc_build(struct lc_fuse *f, int kid, int idx, int stack, int phase, int top);

/* The expression of view or gather n's source (in[0]) read through stack s (a
 * new stack id, or -1 when out of memory); n is fused into the kernel. */
static int lc_build_under(struct lc_fuse *f, int kid, const struct lc_node *n, int s, int phase)
{
    if (s < 0)
        return lc_error_set(f->e, LC_ERR_NOMEM, "out of host memory"), -2;
    int x = lc_build(f, kid, lc_idx(f, n->in[0]), s, phase, 0);
    if (x < 0)
        return x;
    if (lc_add_fused(&f->plan->kernels[kid], n) < 0)
        return lc_error_set(f->e, LC_ERR_NOMEM, "out of host memory"), -2;
    return x;
}

/* The expression computing node `idx` seen through `stack` in kernel `kid`.
 * Returns the expr index, -2 on error (e set), -3 when a reshape needs its
 * input materialized first (f->fail_node set). `top` says the node is the
 * kernel's own root, computed here even though it is materialized. */
static int lc_build(struct lc_fuse *f, int kid, int idx, int stack, int phase, int top)
{
    struct lc_kernel *k = &f->plan->kernels[kid];
    const struct lc_node *n = f->topo[idx];
    struct lc_nodeinfo *ni = &f->info[idx];
    uint64_t key = ((uint64_t)(uint32_t)idx << 32) | ((uint64_t)(uint32_t)stack << 2) |
                   (uint64_t)phase;
    int x;
    if (lc_map_get(&f->memo[kid], key, &x))
        return x;
    if (lc_op_kind(n->op) == LC_KIND_REDUCE && ni->kernel == kid && ni->slot >= 0 &&
        phase == 1 + k->reds[ni->slot].post && lc_stack_reshapes_only(f, stack)) {
        /* Reshapes keep C order, and the epilogue's root is the kept space but
         * for unit dims (lc_deps, lc_plan_once): the value at this index (a
         * post-reduction's in phase 2, over the dims it keeps). */
        x = lc_new_expr(f, k, LC_EXPR_REDUCED, n->dtype, n->dtype, n);
        if (x < 0)
            return -2;
        k->exprs[x].slot = ni->slot;
        k->exprs[x].epilogue = phase;
    } else if (lc_node_is_leaf(n) || (ni->mat && !top)) {
        /* A leaf copied by this kernel (top) reads itself; a materialized
         * node reads the buffer its kernel wrote. */
        x = lc_build_load(f, kid, idx, stack, phase, ni->mat && !top);
        if (x < 0)
            return x;
    } else if (lc_op_kind(n->op) == LC_KIND_VIEW) {
        x = lc_build_under(f, kid, n, lc_stack_push(f, stack, idx), phase);
        if (x < 0)
            return x;
    } else if (lc_op_kind(n->op) == LC_KIND_GATHER) {
        /* The index at this point, checked; then the source read through it. */
        int xi = lc_build(f, kid, lc_idx(f, n->in[1]), stack, phase, 0);
        if (xi < 0)
            return xi;
        int xc = lc_new_expr(f, &f->plan->kernels[kid], LC_EXPR_INDEX, LC_INT64, LC_INT64, n);
        if (xc < 0)
            return -2;
        k = &f->plan->kernels[kid];
        k->exprs[xc].n_in = 1;
        k->exprs[xc].in[0] = xi;
        k->exprs[xc].epilogue = phase;
        k->exprs[xc].size = n->in[0]->shape[n->p.gather.axis];
        k->exprs[xc].axis = n->p.gather.report_axis;
        x = lc_build_under(f, kid, n, lc_stack_push_gather(f, stack, idx, xc), phase);
        if (x < 0)
            return x;
    } else if (lc_op_is_elementwise(n->op)) {
        int in[3];
        for (int j = 0; j < n->n_in; j++) {
            in[j] = lc_build(f, kid, lc_idx(f, n->in[j]), stack, phase, 0);
            if (in[j] < 0)
                return in[j];
        }
        x = lc_new_expr(f, &f->plan->kernels[kid], n->op, n->dtype, n->cdtype, n);
        if (x < 0)
            return -2;
        k = &f->plan->kernels[kid];
        k->exprs[x].n_in = n->n_in;
        memcpy(k->exprs[x].in, in, sizeof in);
        k->exprs[x].epilogue = phase;
        if (lc_add_fused(k, n) < 0)
            return lc_error_set(f->e, LC_ERR_NOMEM, "out of host memory"), -2;
    } else {
        lc_error_set(f->e, LC_ERR_INVALID, "internal: node %s reached unmaterialized in fusion",
                     lc_op_name(n->op));
        return -2;
    }
    if (lc_map_put(&f->memo[kid], key, x) < 0)
        return lc_error_set(f->e, LC_ERR_NOMEM, "out of host memory"), -2;
    return x;
}

/* What the fused subtree of `idx` reads: the latest kernel among the
 * materialized nodes it reads (-1 if none), and the kernel whose epilogue it
 * may join: that of the reduce nodes it reads with no view in between, or
 * else the latest of those it reads through reshapes only (-1 none, -2 none
 * fits: reduces read directly from several kernels, or a reduce of that
 * kernel or a later one read through a view other than reshapes, or through
 * reshapes from a later kernel). via_view: 0 no view on the path, 1
 * reshapes only, 2 another view. */
static int lc_view_level(int level, const struct lc_node *n)
{
    /* A gather reads its source elsewhere than at the consumer's index: like a view
     * other than a reshape, it keeps a reduce it reads out of the epilogue. */
    int l = n->op == LC_OP_GATHER ? 2
          : lc_op_kind(n->op) != LC_KIND_VIEW ? 0 : n->op == LC_OP_RESHAPE ? 1 : 2;
    return l > level ? l : level;
}

static int lc_deps(struct lc_fuse *f, int root, int *max_dep, int *epi_kernel)
{
    struct item { int idx, via_view; } *st = NULL;
    int top = 0, cap = 0;
    struct lc_map seen = {0};
    *max_dep = -1;
    *epi_kernel = -1;
    int via_view_kernel = -1, reshaped_kernel = -1;
    const struct lc_node *r = f->topo[root];
    for (int j = 0; j < r->n_in; j++) {
        if (LC_GROW(st, top, cap) < 0)
            goto nomem;
        st[top++] = (struct item){lc_idx(f, r->in[j]), lc_view_level(0, r)};
    }
    while (top) {
        struct item it = st[--top];
        uint64_t key = ((uint64_t)(uint32_t)it.idx << 2) | (uint64_t)it.via_view;
        int dummy;
        if (lc_map_get(&seen, key, &dummy))
            continue;
        if (lc_map_put(&seen, key, 1) < 0)
            goto nomem;
        const struct lc_node *n = f->topo[it.idx];
        struct lc_nodeinfo *ni = &f->info[it.idx];
        if (ni->mat) {
            if (lc_op_kind(n->op) == LC_KIND_REDUCE) {
                if (it.via_view == 2) {
                    if (ni->kernel > via_view_kernel)
                        via_view_kernel = ni->kernel;
                } else if (it.via_view == 1) {
                    if (ni->kernel > reshaped_kernel)
                        reshaped_kernel = ni->kernel;
                } else if (*epi_kernel == -1) {
                    *epi_kernel = ni->kernel;
                } else if (*epi_kernel != ni->kernel) {
                    *epi_kernel = -2;
                }
            }
            if (ni->kernel > *max_dep)
                *max_dep = ni->kernel;
            continue;
        }
        if (lc_node_is_leaf(n))
            continue;
        int vv = lc_view_level(it.via_view, n);
        for (int j = 0; j < n->n_in; j++) {
            if (LC_GROW(st, top, cap) < 0)
                goto nomem;
            st[top++] = (struct item){lc_idx(f, n->in[j]), vv};
        }
    }
    /* Reduces read through reshapes: the latest may be the epilogue's kernel
     * (when no reduce is read directly, or those are in it too); earlier
     * ones are read from their buffers, like those behind other views. */
    if (reshaped_kernel >= 0 && *epi_kernel != -2) {
        if (*epi_kernel == -1)
            *epi_kernel = reshaped_kernel;
        else if (reshaped_kernel > *epi_kernel)
            *epi_kernel = -2;
    }
    if (*epi_kernel >= 0 && via_view_kernel >= *epi_kernel)
        *epi_kernel = -2;
    free(st);
    lc_map_free(&seen);
    return 0;
nomem:
    free(st);
    lc_map_free(&seen);
    lc_error_set(f->e, LC_ERR_NOMEM, "out of host memory planning kernels");
    return -1;
}

static int lc_new_kernel(struct lc_fuse *f, enum lc_kernel_kind kind, int ndim,
                         const int64_t *shape)
{
    struct lc_plan *p = f->plan;
    if (LC_GROW(p->kernels, p->n_kernels, p->cap_kernels) < 0) {
        lc_error_set(f->e, LC_ERR_NOMEM, "out of host memory planning kernels");
        return -1;
    }
    if (p->n_kernels >= f->cap_memo) {
        int ncap = f->cap_memo ? f->cap_memo * 2 : 8;
        struct lc_map *nm = realloc(f->memo, (size_t)ncap * sizeof *nm);
        if (!nm) {
            lc_error_set(f->e, LC_ERR_NOMEM, "out of host memory planning kernels");
            return -1;
        }
        memset(nm + f->cap_memo, 0, (size_t)(ncap - f->cap_memo) * sizeof *nm);
        f->memo = nm;
        f->cap_memo = ncap;
    }
    struct lc_kernel *k = &p->kernels[p->n_kernels];
    memset(k, 0, sizeof *k);
    k->kind = kind;
    k->ndim = ndim;
    k->nkept = ndim;
    k->store_access = k->store_value = k->store_pred = -1;
    memcpy(k->shape, shape, (size_t)ndim * sizeof *shape);
    return p->n_kernels++;
}

static int lc_same_dims(int na, const int64_t *a, int nb, const int64_t *b)
{
    return na == nb && memcmp(a, b, (size_t)na * sizeof *a) == 0;
}

/* The reduce kernel's original input shape and axes, remembered per kernel. */
struct lc_redspace {
    int ndim;
    int64_t shape[LC_MAXDIM];
    uint32_t axes;
};

/* A new reduce or scan kernel over the input space of node n, remembered
 * in rs (input shape and axes) for grouping siblings and ordering dims. */
static int lc_new_space_kernel(struct lc_fuse *f, enum lc_kernel_kind kind, const struct lc_node *n,
                               struct lc_redspace **rs, int *cap_rs)
{
    const struct lc_node *in = n->in[0];
    int kid = lc_new_kernel(f, kind, in->ndim, in->shape);
    if (kid < 0 || LC_GROW(*rs, kid, *cap_rs) < 0)
        return -1;
    (*rs)[kid].ndim = in->ndim;
    memcpy((*rs)[kid].shape, in->shape, sizeof (*rs)[kid].shape);
    (*rs)[kid].axes = n->p.red.axes;
    return kid;
}

/* Output `idx` of kernel `kid`, written contiguously over the kernel's
 * output dims `ndim`/`shape` (the node's own, or a reduce kernel's kept dims,
 * which an epilogue root equals but for unit dims). */
static int lc_add_output(struct lc_fuse *f, int kid, int idx, int expr, int ndim,
                         const int64_t *shape)
{
    struct lc_kernel *k = &f->plan->kernels[kid];
    int b = lc_plan_buffer_for(f, idx);
    if (b < 0 || LC_GROW(k->outputs, k->n_outputs, k->cap_outputs) < 0) {
        lc_error_set(f->e, LC_ERR_NOMEM, "out of host memory planning kernels");
        return -1;
    }
    const struct lc_node *n = f->topo[idx];
    struct lc_output *o = &k->outputs[k->n_outputs++];
    memset(o, 0, sizeof *o);
    o->expr = expr;
    o->buffer = b;
    o->dtype = n->dtype;
    o->node = n;
    lc_shape_strides(ndim, shape, o->strides);
    return 0;
}

/* The kept dims of reduce kernel c's input space rs, less those in `post`. */
static int lc_kept_dims(const struct lc_redspace *rs, uint32_t post, int64_t *kept)
{
    int nk = 0, j = 0;
    for (int d = 0; d < rs->ndim; d++)
        if (!(rs->axes & (1u << d)) && !(post & (1u << j++)))
            kept[nk++] = rs->shape[d];
    return nk;
}

static int lc_post_op(int op)
{
    switch (op) {
    case LC_OP_SUM: case LC_OP_PROD: case LC_OP_RMIN: case LC_OP_RMAX: case LC_OP_NANMIN:
    case LC_OP_NANMAX: case LC_OP_MEANVAR: case LC_OP_ANY: case LC_OP_ALL:
        return 1;
    default:
        return 0;   /* argmin/argmax need the index, sumexp reads a max of its own */
    }
}

/* Does nothing but reduce node `idx` read the values its fused input computes from the
 * product of kernel `kid`? Every node of that input, down to materialized nodes and
 * leaves, and the product's reduce node, must have all their consumers inside it and be
 * neither forced nor kept. 1 yes, 0 no, -1 out of memory. */
static int lc_post_closed(struct lc_fuse *f, int idx, int kid)
{
    struct lc_map cnt = {0};
    int *st = NULL, top = 0, cap = 0, ok = 1;
    if (LC_GROW(st, top, cap) < 0)
        goto nomem;
    st[top++] = lc_idx(f, f->topo[idx]->in[0]);
    while (top) {
        int c = st[--top], seen = 0;
        lc_map_get(&cnt, (uint64_t)c, &seen);
        if (lc_map_put(&cnt, (uint64_t)c, seen + 1) < 0)
            goto nomem;
        const struct lc_node *n = f->topo[c];
        if (seen || f->info[c].mat || lc_node_is_leaf(n))
            continue;
        for (int j = 0; j < n->n_in; j++) {
            if (LC_GROW(st, top, cap) < 0)
                goto nomem;
            st[top++] = lc_idx(f, n->in[j]);
        }
    }
    for (size_t i = 0; i < cnt.cap && ok; i++) {
        if (!cnt.keys[i])
            continue;
        int c = (int)(cnt.keys[i] - 1);
        const struct lc_nodeinfo *ci = &f->info[c];
        if (lc_node_is_leaf(f->topo[c]) || (ci->mat && ci->kernel != kid))
            continue;
        if (cnt.vals[i] != ci->consumers || ci->forced || ci->keep || ci->alias >= 0)
            ok = 0;
    }
    free(st);
    lc_map_free(&cnt);
    return ok;
nomem:
    free(st);
    lc_map_free(&cnt);
    lc_error_set(f->e, LC_ERR_NOMEM, "out of host memory planning kernels");
    return -1;
}

/* With LC_FUSE_PRODUCT_POST: the kernel reduce node `idx` joins as a post-reduction (see
 * fusion.h), -1 none, -2 on error. */
static int lc_post_kernel(struct lc_fuse *f, int idx, const struct lc_redspace *rs)
{
    const struct lc_node *n = f->topo[idx];
    if (!(f->flags & LC_FUSE_PRODUCT_POST) || !lc_post_op(n->op) || !n->p.red.axes ||
        lc_dtype_is_complex(n->in[0]->dtype))
        return -1;
    int max_dep, epi;
    if (lc_deps(f, idx, &max_dep, &epi) < 0)
        return -2;
    if (epi < 0 || max_dep > epi)
        return -1;
    const struct lc_kernel *k = &f->plan->kernels[epi];
    if (k->kind != LC_KERNEL_REDUCE || k->post_axes || k->n_reds != 1 ||
        k->reds[0].op != LC_OP_SUM || k->exprs[k->reds[0].expr].op != LC_OP_MUL)
        return -1;
    uint32_t axes = rs[epi].axes;
    if (!axes || (axes & (axes - 1)))
        return -1;                       /* one contracted dim */
    int64_t kept[LC_MAXDIM];
    int nk = lc_kept_dims(&rs[epi], 0, kept);
    if (nk < 2 || !lc_same_dims(nk, kept, n->in[0]->ndim, n->in[0]->shape) ||
        !(n->p.red.axes & (3u << (nk - 2))))
        return -1;                       /* over the product's dims, M or N among the reduced */
    int closed = lc_post_closed(f, idx, epi);
    return closed < 0 ? -2 : closed ? epi : -1;
}

/* Store node `idx` in its own kernel `kid`: its value, predicate and the
 * place it writes. A read of the destination anywhere but at that place
 * asks for the value (then the predicate) to be materialized first (-3). */
static int lc_plan_store(struct lc_fuse *f, int kid, int idx)
{
    const struct lc_node *n = f->topo[idx];
    int xv = lc_build(f, kid, lc_idx(f, n->in[1]), 0, 0, 0);
    if (xv < 0)
        return xv;
    int xp = -1;
    if (n->n_in > 2 && (xp = lc_build(f, kid, lc_idx(f, n->in[2]), 0, 0, 0)) < 0)
        return xp;
    int xt = lc_build(f, kid, lc_idx(f, n->in[0]), 0, 0, 0);
    if (xt < 0)
        return xt;
    struct lc_kernel *k = &f->plan->kernels[kid];
    if (lc_add_fused(k, n) < 0)
        return lc_error_set(f->e, LC_ERR_NOMEM, "out of host memory"), -2;
    k->store_access = k->exprs[xt].access;
    k->store_value = xv;
    k->store_pred = xp;
    k->store_combine = n->p.store.combine;
    const struct lc_access *t = &k->access[k->store_access];
    for (int a = 0; a < k->n_access; a++) {
        const struct lc_access *x = &k->access[a];
        if (a == k->store_access || x->kind != LC_ACCESS_INPUT || x->source != t->source)
            continue;
        if (!t->n_dyn && !x->n_dyn && x->offset == t->offset &&
            !memcmp(x->strides, t->strides, (size_t)k->ndim * sizeof *x->strides))
            continue;
        for (int j = 1; j < n->n_in; j++) {
            int c = lc_idx(f, n->in[j]);
            if (!f->info[c].mat && f->info[c].alias < 0) {
                f->fail_node = c;
                return -3;
            }
        }
        lc_error_set(f->e, LC_ERR_INVALID, "internal: a store's index reads the array it writes");
        return -2;
    }
    return 0;
}

/* One attempt at a plan; -3 asks the caller to retry with f->fail_node
 * materialized. */
static int lc_plan_once(struct lc_fuse *f)
{
    struct lc_plan *p = f->plan;
    struct lc_redspace *rs = NULL;
    int cap_rs = 0;
    int *root_expr = calloc(f->n ? f->n : 1, sizeof *root_expr);
    if (!root_expr)
        return lc_error_set(f->e, LC_ERR_NOMEM, "out of host memory"), -2;
    int rc = 0;

    for (size_t i = 0; i < f->n && rc == 0; i++) {
        struct lc_nodeinfo *ni = &f->info[i];
        const struct lc_node *n = f->topo[i];
        if (!ni->mat)
            continue;
        int max_dep, epi;
        if (lc_deps(f, (int)i, &max_dep, &epi) < 0) {
            rc = -2;
            break;
        }
        enum lc_kind kind = lc_op_kind(n->op);
        int kid = -1;
        if (kind == LC_KIND_STORE) {
            if ((kid = lc_new_kernel(f, LC_KERNEL_STORE, n->ndim, n->shape)) < 0 ||
                LC_GROW(rs, kid, cap_rs) < 0) {
                rc = -2;
                break;
            }
            memset(&rs[kid], 0, sizeof rs[kid]);
            ni->kernel = kid;
            rc = lc_plan_store(f, kid, (int)i);
            continue;
        }
        if (kind == LC_KIND_REDUCE) {
            const struct lc_node *in = n->in[0];
            int post = lc_post_kernel(f, (int)i, rs);
            if (post == -2) {
                rc = -2;
                break;
            }
            if (post >= 0) {
                /* Folded over the product's epilogue values: phase 1 of its kernel. */
                kid = post;
                p->kernels[kid].post_axes = n->p.red.axes;
                f->epi_nk = f->epi_nkept = lc_kept_dims(&rs[kid], 0, f->epi_kept);
                f->epi_post = 0;
            }
            for (int c = max_dep + 1; c < p->n_kernels && kid < 0; c++)
                if (p->kernels[c].kind == LC_KERNEL_REDUCE && !p->kernels[c].post_axes &&
                    rs[c].axes == n->p.red.axes &&
                    lc_same_dims(rs[c].ndim, rs[c].shape, in->ndim, in->shape))
                    kid = c;
            if (kid < 0 && (kid = lc_new_space_kernel(f, LC_KERNEL_REDUCE, n, &rs, &cap_rs)) < 0) {
                rc = -2;
                break;
            }
            ni->kernel = kid;
            int x = lc_build(f, kid, lc_idx(f, in), 0, post >= 0, 0);
            if (x < 0) {
                rc = x;
                break;
            }
            struct lc_kernel *k = &p->kernels[kid];
            if (LC_GROW(k->reds, k->n_reds, k->cap_reds) < 0 || lc_add_fused(k, n) < 0) {
                lc_error_set(f->e, LC_ERR_NOMEM, "out of host memory");
                rc = -2;
                break;
            }
            struct lc_reduction *red = &k->reds[k->n_reds];
            memset(red, 0, sizeof *red);
            red->op = n->op;
            red->expr = x;
            red->dtype = n->dtype;
            red->in_dtype = in->dtype;
            red->ddof = n->p.red.ddof;
            red->kind = n->p.red.kind;
            red->flat_index = in->ndim > 1 && n->ndim == 0;
            red->post = post >= 0;
            red->node = n;
            ni->slot = k->n_reds++;
            continue;
        }
        if (kind == LC_KIND_SCAN) {
            const struct lc_node *in = n->in[0];
            if ((kid = lc_new_space_kernel(f, LC_KERNEL_SCAN, n, &rs, &cap_rs)) < 0) {
                rc = -2;
                break;
            }
            ni->kernel = kid;
            int x = lc_build(f, kid, lc_idx(f, in), 0, 0, 0);
            if (x < 0) {
                rc = x;
                break;
            }
            struct lc_kernel *k = &p->kernels[kid];
            k->scan_op = n->op;
            if (lc_add_fused(k, n) < 0 || lc_add_output(f, kid, (int)i, x, n->ndim, n->shape) < 0) {
                rc = -2;
                break;
            }
            continue;
        }
        /* An elementwise (or view, or copied leaf) root. */
        if (epi >= 0 && max_dep <= epi && p->kernels[epi].kind == LC_KERNEL_REDUCE) {
            /* An epilogue needs the output shape to be the kept shape. */
            /* With post-reductions: the kept dims they leave, in phase 2. */
            uint32_t post = p->kernels[epi].post_axes;
            int64_t kept[LC_MAXDIM];
            int nk = lc_kept_dims(&rs[epi], post, kept);
            if (lc_same_but_units(nk, kept, n->ndim, n->shape)) {
                kid = epi;
                f->epi_nk = nk;
                memcpy(f->epi_kept, kept, sizeof kept);
                f->epi_post = post;
                f->epi_nkept = lc_kept_dims(&rs[epi], 0, kept);
            }
        }
        int phase = 0;
        if (kid >= 0) {
            phase = p->kernels[kid].post_axes ? 2 : 1;
        } else {
            for (int c = max_dep + 1; c < p->n_kernels && kid < 0; c++)
                if (p->kernels[c].kind == LC_KERNEL_MAP &&
                    lc_same_dims(p->kernels[c].ndim, p->kernels[c].shape, n->ndim, n->shape))
                    kid = c;
            if (kid < 0) {
                kid = lc_new_kernel(f, LC_KERNEL_MAP, n->ndim, n->shape);
                if (kid < 0 || LC_GROW(rs, kid, cap_rs) < 0) {
                    rc = -2;
                    break;
                }
                memset(&rs[kid], 0, sizeof rs[kid]);
            }
        }
        ni->kernel = kid;
        int x = lc_build(f, kid, (int)i, 0, phase, 1);
        if (x < 0) {
            rc = x;
            break;
        }
        root_expr[i] = x;
    }

    /* Outputs: every materialized node read elsewhere or forced is written. */
    for (size_t i = 0; i < f->n && rc == 0; i++) {
        struct lc_nodeinfo *ni = &f->info[i];
        const struct lc_node *n = f->topo[i];
        if (!ni->mat || lc_op_kind(n->op) == LC_KIND_SCAN || n->op == LC_OP_STORE)
            continue;
        if (!ni->forced && !ni->keep && ni->buffer < 0)
            continue;
        int x = root_expr[i];
        struct lc_kernel *k = &p->kernels[ni->kernel];
        if (lc_op_kind(n->op) == LC_KIND_REDUCE) {
            x = lc_new_expr(f, k, LC_EXPR_REDUCED, n->dtype, n->dtype, n);
            if (x < 0) {
                rc = -2;
                break;
            }
            k = &p->kernels[ni->kernel];
            k->exprs[x].slot = ni->slot;
            k->exprs[x].epilogue = 1 + k->reds[ni->slot].post;
        }
        int64_t kept[LC_MAXDIM];
        int nk = 0;
        if (k->kind == LC_KERNEL_REDUCE) {
            nk = lc_kept_dims(&rs[ni->kernel], k->post_axes, kept);
        } else {
            nk = n->ndim;
            memcpy(kept, n->shape, sizeof kept);
        }
        if (lc_add_output(f, ni->kernel, (int)i, x, nk, kept) < 0) {
            rc = -2;
            break;
        }
        if (k->post_axes) {
            k = &p->kernels[ni->kernel];
            lc_post_expand(k->outputs[k->n_outputs - 1].strides,
                           lc_kept_dims(&rs[ni->kernel], 0, kept), k->post_axes);
        }
    }

    /* Reduce and scan kernels: order dims as [kept..., reduced...] (scans:
     * the scanned axis last) and permute prologue strides to match. */
    for (int c = 0; c < p->n_kernels && rc == 0; c++) {
        struct lc_kernel *k = &p->kernels[c];
        if (k->kind == LC_KERNEL_MAP || k->kind == LC_KERNEL_STORE)
            continue;
        int perm[LC_MAXDIM], np = 0;
        for (int d = 0; d < rs[c].ndim; d++)
            if (!(rs[c].axes & (1u << d)))
                perm[np++] = d;
        k->nkept = np;
        for (int d = 0; d < rs[c].ndim; d++)
            if (rs[c].axes & (1u << d))
                perm[np++] = d;
        for (int d = 0; d < k->ndim; d++)
            k->shape[d] = rs[c].shape[perm[d]];
        for (int a = 0; a < k->n_access; a++) {
            struct lc_access *acc = &k->access[a];
            if (acc->epilogue)
                continue;
            int64_t st[LC_MAXDIM];
            for (int d = 0; d < k->ndim; d++)
                st[d] = acc->strides[perm[d]];
            memcpy(acc->strides, st, sizeof st);
        }
        if (k->kind == LC_KERNEL_SCAN) {
            for (int o = 0; o < k->n_outputs; o++) {
                int64_t st[LC_MAXDIM];
                for (int d = 0; d < k->ndim; d++)
                    st[d] = k->outputs[o].strides[perm[d]];
                memcpy(k->outputs[o].strides, st, sizeof st);
            }
            k->nkept = k->ndim;
        }
    }
    free(rs);
    free(root_expr);
    return rc;
}

lc_status lc_fuse(struct lc_node *const *outs, size_t n_outs, unsigned flags,
                  struct lc_plan *plan, struct lc_error *e)
{
    struct lc_fuse f;
    memset(&f, 0, sizeof f);
    f.e = e;
    f.plan = plan;
    f.flags = flags;
    memset(plan, 0, sizeof *plan);
    f.topo = lc_graph_topo(outs, n_outs, &f.n, e);
    if (!f.topo)
        return e->code;
    lc_status st = LC_OK;
    f.info = calloc(f.n ? f.n : 1, sizeof *f.info);
    if (!f.info) {
        st = lc_error_set(e, LC_ERR_NOMEM, "out of host memory planning kernels");
        goto done;
    }
    for (size_t i = 0; i < f.n; i++)
        f.info[i].alias = -1;
    for (size_t i = 0; i < f.n; i++)
        if (lc_map_put(&f.index, (uint64_t)(uintptr_t)f.topo[i], (int)i) < 0) {
            st = lc_error_set(e, LC_ERR_NOMEM, "out of host memory planning kernels");
            goto done;
        }
    lc_mark(&f, outs, n_outs);
    if (flags & LC_FUSE_COPY_LEAVES)
        for (size_t r = 0; r < n_outs; r++)
            if (lc_node_is_leaf(outs[r]) && !lc_node_is_contiguous(outs[r]))
                f.info[lc_idx(&f, outs[r])].mat = 1;
    /* Stack 0 is the empty stack. */
    if (lc_stack_push(&f, 0, -1) != 0) {
        st = lc_error_set(e, LC_ERR_NOMEM, "out of host memory planning kernels");
        goto done;
    }
    for (int attempt = 0;; attempt++) {
        lc_alias_reshapes(&f);
        for (size_t i = 0; i < f.n; i++) {
            f.info[i].kernel = -1;
            f.info[i].buffer = -1;
            f.info[i].slot = -1;
        }
        f.fail_node = -1;
        for (int m = 0; m < f.cap_memo; m++)
            lc_map_free(&f.memo[m]);
        lc_map_free(&f.inputs);
        int rc = lc_plan_once(&f);
        if (rc == 0)
            break;
        lc_plan_free(plan);
        f.plan = plan;
        if (rc != -3 || f.fail_node < 0 || f.info[f.fail_node].mat ||
            f.info[f.fail_node].alias >= 0 || attempt > (int)f.n) {
            if (rc != -2)
                lc_error_set(e, LC_ERR_INVALID, "internal: fusion could not place a reshape");
            st = e->code ? e->code : LC_ERR_INVALID;
            goto done;
        }
        f.info[f.fail_node].mat = 1;
    }
    plan->out_buffer = malloc((n_outs ? n_outs : 1) * sizeof *plan->out_buffer);
    if (!plan->out_buffer) {
        st = lc_error_set(e, LC_ERR_NOMEM, "out of host memory planning kernels");
        goto done;
    }
    plan->n_out = (int)n_outs;
    for (size_t r = 0; r < n_outs; r++) {
        const struct lc_nodeinfo *ni = &f.info[lc_idx(&f, outs[r])];
        plan->out_buffer[r] = ni->alias >= 0 ? f.info[ni->alias].buffer : ni->buffer;
    }
done:
    if (st != LC_OK)
        lc_plan_free(plan);
    free(f.topo);
    free(f.info);
    free(f.stack);
    for (int m = 0; m < f.cap_memo; m++)
        lc_map_free(&f.memo[m]);
    free(f.memo);
    lc_map_free(&f.index);
    lc_map_free(&f.stacks);
    lc_map_free(&f.inputs);
    return st;
}
