/* place.c: one attempt at a plan: every materialized node placed in a kernel (its own, a
 * sibling's, or a reduction's epilogue), then the outputs written and the dims ordered. */
#include "fusion/internal.h"

#include <stdlib.h>
#include <string.h>

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
    k->store_access = k->store_value = k->store_pred = k->store_scan = -1;
    memcpy(k->shape, shape, (size_t)ndim * sizeof *shape);
    return p->n_kernels++;
}

/* A new map or store kernel over `shape` (no input space: its rs entry zeroed). */
static int lc_new_plain_kernel(struct lc_fuse *f, enum lc_kernel_kind kind, int ndim,
                               const int64_t *shape)
{
    int kid = lc_new_kernel(f, kind, ndim, shape);
    if (kid < 0 || LC_GROW(f->rs, kid, f->cap_rs) < 0)
        return -1;
    memset(&f->rs[kid], 0, sizeof f->rs[kid]);
    return kid;
}

/* A new reduce or scan-like kernel over the input space of node n, remembered
 * in f->rs (input shape and axes) for grouping siblings and ordering dims. */
static int lc_new_space_kernel(struct lc_fuse *f, enum lc_kernel_kind kind, const struct lc_node *n)
{
    const struct lc_node *in = n->in[0];
    int kid = lc_new_kernel(f, kind, in->ndim, in->shape);
    if (kid < 0 || LC_GROW(f->rs, kid, f->cap_rs) < 0)
        return -1;
    f->rs[kid].ndim = in->ndim;
    memcpy(f->rs[kid].shape, in->shape, sizeof f->rs[kid].shape);
    f->rs[kid].axes = n->p.red.axes;
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


/* Store node `idx` in its own kernel `kid`: its value, predicate and the
 * place it writes. A read of the destination anywhere but at that place
 * asks for the value (then the predicate) to be materialized first (-3),
 * unless the store writes one element: its one work item reads everything
 * before it writes (A[i, j] -= A[i, :j] @ A[:j, j] is one kernel). */
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
    /* In row order (a 0-d store writes one place: any order is). */
    k->store_ordered = n->p.store.combine == LC_STORE_IN_ORDER && n->ndim >= 1;
    k->store_combine = k->store_ordered ? 0 : n->p.store.combine;
    const struct lc_access *t = &k->access[k->store_access];
    if (lc_shape_size(k->ndim, k->shape) == 1)
        return 0;
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

/* ---- placing each materialized node -------------------------------------------------- */

/* The reductions store `si` writes as its scan's row totals (LC_FUSE_SCAN_TOTAL) into its
 * kernel `kid`: outputs of the scanned expr over the store's dims but the last. Such a
 * reduction comes before the store in topological order (it reads the scan's input) and
 * nothing reads it, so no kernel before this one needs it. */
static int lc_plan_store_totals(struct lc_fuse *f, int kid, int si)
{
    for (size_t i = 0; i < f->n; i++) {
        struct lc_nodeinfo *ri = &f->info[i];
        if (ri->store_total != si)
            continue;
        struct lc_kernel *k = &f->plan->kernels[kid];
        if (k->store_scan < 0)
            return lc_error_set(f->e, LC_ERR_INVALID, "internal: a scan's totals without "
                                "the scan in its store's kernel"), -2;
        const struct lc_node *r = f->topo[i];
        ri->kernel = kid;
        if (lc_add_fused(k, r) < 0 ||
            lc_add_output(f, kid, (int)i, k->store_scan, r->ndim, r->shape) < 0)
            return lc_error_set(f->e, LC_ERR_NOMEM, "out of host memory"), -2;
    }
    return 0;
}

/* A store: a kernel of its own over its target's shape. */
static int lc_place_store(struct lc_fuse *f, int i)
{
    const struct lc_node *n = f->topo[i];
    int kid = lc_new_plain_kernel(f, LC_KERNEL_STORE, n->ndim, n->shape);
    if (kid < 0)
        return -2;
    f->info[i].kernel = kid;
    int rc = lc_plan_store(f, kid, i);
    return rc ? rc : lc_plan_store_totals(f, kid, i);
}

/* A reduction: a post-reduction of a product's kernel, a sibling in a kernel after
 * `max_dep` over the same input space and axes, or a new reduce kernel. */
static int lc_place_reduce(struct lc_fuse *f, int i, int max_dep)
{
    struct lc_plan *p = f->plan;
    struct lc_nodeinfo *ni = &f->info[i];
    const struct lc_node *n = f->topo[i];
    const struct lc_node *in = n->in[0];
    int kid = -1;
    int post = lc_post_kernel(f, i);
    if (post == -2)
        return -2;
    if (post >= 0) {
        /* Folded over the product's epilogue values: phase 1 of its kernel. */
        kid = post;
        p->kernels[kid].post_axes = n->p.red.axes;
        f->epi_nk = f->epi_nkept = lc_kept_dims(&f->rs[kid], 0, f->epi_kept);
        f->epi_post = 0;
    }
    for (int c = max_dep + 1; c < p->n_kernels && kid < 0; c++)
        if (p->kernels[c].kind == LC_KERNEL_REDUCE && !p->kernels[c].post_axes &&
            f->rs[c].axes == n->p.red.axes &&
            lc_same_dims(f->rs[c].ndim, f->rs[c].shape, in->ndim, in->shape))
            kid = c;
    if (kid < 0 && (kid = lc_new_space_kernel(f, LC_KERNEL_REDUCE, n)) < 0)
        return -2;
    ni->kernel = kid;
    int x = lc_build(f, kid, lc_idx(f, in), 0, post >= 0, 0);
    if (x < 0)
        return x;
    struct lc_kernel *k = &p->kernels[kid];
    if (LC_GROW(k->reds, k->n_reds, k->cap_reds) < 0 || lc_add_fused(k, n) < 0) {
        lc_error_set(f->e, LC_ERR_NOMEM, "out of host memory");
        return -2;
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
    return 0;
}

/* A scan, sort or top-k selection: a kernel of its own (of the op's kind), which writes it. */
static int lc_place_along_axis(struct lc_fuse *f, int i)
{
    const struct lc_node *n = f->topo[i];
    const struct lc_node *in = n->in[0];
    int kid = lc_new_space_kernel(f, lc_kernel_kind_of(n->op), n);
    if (kid < 0)
        return -2;
    f->info[i].kernel = kid;
    int x = lc_build(f, kid, lc_idx(f, in), 0, 0, 0);
    if (x < 0)
        return x;
    struct lc_kernel *k = &f->plan->kernels[kid];
    k->scan_op = n->op;
    if (lc_add_fused(k, n) < 0 || lc_add_output(f, kid, i, x, n->ndim, n->shape) < 0)
        return -2;
    return 0;
}

/* An elementwise (or view, or copied leaf) root: the epilogue of reduce kernel `epi` when its
 * shape is that kernel's output shape, else a map kernel after `max_dep` of the same shape,
 * or a new one. */
static int lc_place_root(struct lc_fuse *f, int i, int max_dep, int epi)
{
    struct lc_plan *p = f->plan;
    const struct lc_node *n = f->topo[i];
    int kid = -1;
    if (epi >= 0 && max_dep <= epi && p->kernels[epi].kind == LC_KERNEL_REDUCE) {
        /* An epilogue needs the output shape to be the kept shape. */
        /* With post-reductions: the kept dims they leave, in phase 2. */
        uint32_t post = p->kernels[epi].post_axes;
        int64_t kept[LC_MAXDIM];
        int nk = lc_kept_dims(&f->rs[epi], post, kept);
        if (lc_same_but_units(nk, kept, n->ndim, n->shape)) {
            kid = epi;
            f->epi_nk = nk;
            memcpy(f->epi_kept, kept, sizeof kept);
            f->epi_post = post;
            f->epi_nkept = lc_kept_dims(&f->rs[epi], 0, kept);
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
        if (kid < 0 && (kid = lc_new_plain_kernel(f, LC_KERNEL_MAP, n->ndim, n->shape)) < 0)
            return -2;
    }
    f->info[i].kernel = kid;
    int x = lc_build(f, kid, i, 0, phase, 1);
    if (x < 0)
        return x;
    f->root_expr[i] = x;
    return 0;
}

/* Every materialized node, in topological order, into a kernel. */
static int lc_place_all(struct lc_fuse *f)
{
    for (size_t i = 0; i < f->n; i++) {
        if (!f->info[i].mat || f->info[i].store_total >= 0)   /* placed with its store */
            continue;
        int max_dep, epi, rc;
        if (lc_deps(f, (int)i, &max_dep, &epi) < 0)
            return -2;
        switch (lc_op_kind(f->topo[i]->op)) {
        case LC_KIND_STORE: rc = lc_place_store(f, (int)i); break;
        case LC_KIND_REDUCE: rc = lc_place_reduce(f, (int)i, max_dep); break;
        case LC_KIND_SCAN: rc = lc_place_along_axis(f, (int)i); break;
        default: rc = lc_place_root(f, (int)i, max_dep, epi); break;
        }
        if (rc != 0)
            return rc;
    }
    return 0;
}

/* ---- after placing ---------------------------------------------------------------------- */

/* Outputs: every materialized node read elsewhere or forced is written (scan-like kernels and
 * stores, with their scans' totals, wrote theirs when placed). */
static int lc_write_outputs(struct lc_fuse *f)
{
    struct lc_plan *p = f->plan;
    for (size_t i = 0; i < f->n; i++) {
        struct lc_nodeinfo *ni = &f->info[i];
        const struct lc_node *n = f->topo[i];
        if (!ni->mat || lc_op_kind(n->op) == LC_KIND_SCAN || n->op == LC_OP_STORE ||
            ni->store_total >= 0)
            continue;
        if (!ni->forced && !ni->keep && ni->buffer < 0)
            continue;
        int x = f->root_expr[i];
        struct lc_kernel *k = &p->kernels[ni->kernel];
        if (lc_op_kind(n->op) == LC_KIND_REDUCE) {
            x = lc_new_expr(f, k, LC_EXPR_REDUCED, n->dtype, n->dtype, n);
            if (x < 0)
                return -2;
            k = &p->kernels[ni->kernel];
            k->exprs[x].slot = ni->slot;
            k->exprs[x].epilogue = 1 + k->reds[ni->slot].post;
        }
        int64_t kept[LC_MAXDIM];
        int nk = 0;
        if (k->kind == LC_KERNEL_REDUCE) {
            nk = lc_kept_dims(&f->rs[ni->kernel], k->post_axes, kept);
        } else {
            nk = n->ndim;
            memcpy(kept, n->shape, sizeof kept);
        }
        if (lc_add_output(f, ni->kernel, (int)i, x, nk, kept) < 0)
            return -2;
        if (k->post_axes) {
            k = &p->kernels[ni->kernel];
            lc_post_expand(k->outputs[k->n_outputs - 1].strides,
                           lc_kept_dims(&f->rs[ni->kernel], 0, kept), k->post_axes);
        }
    }
    return 0;
}

/* Reduce and scan-like kernels: order dims as [kept..., reduced...] (scan-like: the axis
 * last) and permute prologue strides (and a scan-like kernel's output strides) to match. */
static void lc_order_dims(struct lc_fuse *f)
{
    struct lc_plan *p = f->plan;
    for (int c = 0; c < p->n_kernels; c++) {
        struct lc_kernel *k = &p->kernels[c];
        const struct lc_redspace *rs = &f->rs[c];
        if (k->kind == LC_KERNEL_MAP || k->kind == LC_KERNEL_STORE)
            continue;
        int perm[LC_MAXDIM], np = 0;
        for (int d = 0; d < rs->ndim; d++)
            if (!(rs->axes & (1u << d)))
                perm[np++] = d;
        k->nkept = np;
        for (int d = 0; d < rs->ndim; d++)
            if (rs->axes & (1u << d))
                perm[np++] = d;
        for (int d = 0; d < k->ndim; d++)
            k->shape[d] = rs->shape[perm[d]];
        for (int a = 0; a < k->n_access; a++) {
            struct lc_access *acc = &k->access[a];
            if (acc->epilogue)
                continue;
            int64_t st[LC_MAXDIM];
            for (int d = 0; d < k->ndim; d++)
                st[d] = acc->strides[perm[d]];
            memcpy(acc->strides, st, sizeof st);
        }
        if (lc_kernel_along_axis(k->kind)) {
            for (int o = 0; o < k->n_outputs; o++) {
                int64_t st[LC_MAXDIM];
                for (int d = 0; d < k->ndim; d++)
                    st[d] = k->outputs[o].strides[perm[d]];
                memcpy(k->outputs[o].strides, st, sizeof st);
            }
            k->nkept = k->ndim;
        }
    }
}

/* A store whose scan an earlier attempt wrote first (met elsewhere) writes no totals: its
 * reductions take kernels of their own. */
static void lc_drop_lost_totals(struct lc_fuse *f)
{
    for (size_t i = 0; i < f->n; i++) {
        int si = f->info[i].store_total, kept = 0;
        for (size_t j = 0; si >= 0 && j < f->n && !kept; j++)
            kept = f->info[j].scan_store == si && !f->info[j].mat;
        if (!kept)
            f->info[i].store_total = -1;
    }
}

int lc_plan_once(struct lc_fuse *f)
{
    lc_drop_lost_totals(f);
    f->rs = NULL;
    f->cap_rs = 0;
    f->root_expr = calloc(f->n ? f->n : 1, sizeof *f->root_expr);
    if (!f->root_expr)
        return lc_error_set(f->e, LC_ERR_NOMEM, "out of host memory"), -2;
    int rc = lc_place_all(f);
    if (rc == 0)
        rc = lc_write_outputs(f);
    if (rc == 0)
        lc_order_dims(f);
    free(f->rs);
    free(f->root_expr);
    f->rs = NULL;
    f->cap_rs = 0;
    f->root_expr = NULL;
    return rc;
}
