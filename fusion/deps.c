/* deps.c: what a kernel root reads: the kernels it must follow, and the reduce kernel whose
 * epilogue it may join. */
#include "fusion/internal.h"

#include <stdlib.h>
#include <string.h>

/* The view level of a path after node n: 0 no view on the path, 1 reshapes only, 2 another
 * view (or a gather). */
static int lc_view_level(int level, const struct lc_node *n)
{
    /* A gather reads its source elsewhere than at the consumer's index: like a view
     * other than a reshape, it keeps a reduce it reads out of the epilogue. */
    int l = n->op == LC_OP_GATHER ? 2
          : lc_op_kind(n->op) != LC_KIND_VIEW ? 0 : n->op == LC_OP_RESHAPE ? 1 : 2;
    return l > level ? l : level;
}

/* internal.h says what it finds; the walk goes down to materialized nodes and leaves. */
int lc_deps(struct lc_fuse *f, int root, int *max_dep, int *epi_kernel)
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
