/* expr.c: a node's expression inside a kernel: loads of leaves and plan buffers through the
 * views above them, gathers' checked indices, elementwise ops (the memo shares equal ones). */
#include "fusion/internal.h"

#include <stdlib.h>
#include <string.h>

int lc_add_fused(struct lc_kernel *k, const struct lc_node *n)
{
    if (LC_GROW(k->fused, k->n_fused, k->cap_fused) < 0)
        return -1;
    k->fused[k->n_fused++] = n;
    return 0;
}

int lc_new_expr(struct lc_fuse *f, struct lc_kernel *k, int op, int dtype, int cdtype,
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

int lc_plan_buffer_for(struct lc_fuse *f, int idx)
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
void lc_post_expand(int64_t *st, int nkept, uint32_t post)
{
    int64_t in[LC_MAXDIM];
    memcpy(in, st, sizeof in);
    for (int d = 0, j = 0; d < nkept; d++)
        st[d] = (post & (1u << d)) ? 0 : in[j++];
}

/* An earlier load in k of the same place as access a (a buffer leaf, or a plan buffer, read
 * at the same layout: one array seen through two chains of views): its expr, else -1. Two
 * leaves sharing a storage count as one where the plan's graphs all hold their offsets
 * (offsets_fixed); elsewhere only the same leaf does. */
static int lc_same_load(const struct lc_fuse *f, const struct lc_kernel *k,
                        const struct lc_access *a, int ndim)
{
    if ((a->kind != LC_ACCESS_INPUT && a->kind != LC_ACCESS_TEMP) || a->n_dyn)
        return -1;
    for (int i = 0; i < k->n_exprs; i++) {
        const struct lc_expr *x = &k->exprs[i];
        if (x->access < 0)
            continue;
        const struct lc_access *b = &k->access[x->access];
        if (b->kind == a->kind && b->source == a->source &&
            (b->leaf == a->leaf || f->offsets_fixed) &&
            b->dtype == a->dtype && b->epilogue == a->epilogue && !b->n_dyn &&
            b->offset == a->offset &&
            !memcmp(b->strides, a->strides, (size_t)ndim * sizeof *a->strides))
            return i;
    }
    return -1;
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
    int same = lc_same_load(f, k, &a, k->ndim);
    if (same >= 0)
        return same;
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
int lc_build(struct lc_fuse *f, int kid, int idx, int stack, int phase, int top)
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
         * for unit dims (lc_deps, lc_place_root): the value at this index (a
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
    } else if (lc_op_kind(n->op) == LC_KIND_SCAN) {
        /* A scan computed in a store's kernel (mark.c): its running state at this index,
         * read by that kernel only, at the place it writes. Met anywhere else (a node
         * between was materialized since), it is written first instead. */
        int si = ni->scan_store;
        if (si < 0 || f->info[si].kernel != kid || k->kind != LC_KERNEL_STORE || stack != 0 ||
            phase != 0 || k->store_scan >= 0) {
            f->fail_node = idx;
            return -3;
        }
        int xi = lc_build(f, kid, lc_idx(f, n->in[0]), 0, 0, 0);
        if (xi < 0)
            return xi;
        x = lc_new_expr(f, &f->plan->kernels[kid], LC_EXPR_SCANNED, n->dtype, n->dtype, n);
        if (x < 0)
            return -2;
        k = &f->plan->kernels[kid];
        k->exprs[x].n_in = 1;
        k->exprs[x].in[0] = xi;
        k->store_scan = x;
        k->scan_op = n->op;
        if (lc_add_fused(k, n) < 0)
            return lc_error_set(f->e, LC_ERR_NOMEM, "out of host memory"), -2;
    } else if (lc_op_is_elementwise(n->op)) {
        int in[LC_MAXIN];
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
        memcpy(k->exprs[x].in, in, (size_t)n->n_in * sizeof in[0]);
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
