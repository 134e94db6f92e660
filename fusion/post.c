/* post.c: reductions of a product's epilogue values that join its kernel (post-reductions,
 * LC_FUSE_PRODUCT_POST in fusion.h). */
#include "fusion/internal.h"

#include <stdlib.h>
#include <string.h>

/* The kept dims of reduce kernel c's input space rs, less those in `post`. */
int lc_kept_dims(const struct lc_redspace *rs, uint32_t post, int64_t *kept)
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
int lc_post_kernel(struct lc_fuse *f, int idx)
{
    const struct lc_redspace *rs = f->rs;
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
