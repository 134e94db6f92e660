/* viewstack.c: view stacks: the views (and gathers) between a consumer and the leaves it reads,
 * applied to each leaf's layout as offsets, strides and data-dependent terms. */
#include "fusion/internal.h"

#include <string.h>

int lc_layout_reshape(int *ndim, int64_t *shape, int64_t *strides, int nndim,
                      const int64_t *nshape);

/* ---- view stacks -------------------------------------------------------------------- */

int lc_stack_push(struct lc_fuse *f, int stack, int view)
{
    uint64_t key = ((uint64_t)(uint32_t)view << 32) | (uint32_t)stack;
    int id;
    if (lc_map_get(&f->stacks, key, &id))
        return id;
    if (LC_GROW(f->stack, f->n_stacks, f->cap_stacks) < 0)
        return -1;
    id = f->n_stacks++;
    f->stack[id].view = view;
    f->stack[id].parent = stack;
    f->stack[id].expr = -1;
    if (lc_map_put(&f->stacks, key, id) < 0)
        return -1;
    return id;
}

/* A gather on the stack: its source is read at the index that expr `expr`
 * (of the kernel being built) checks. A new entry each time: the expr is the
 * kernel's own, and the gather's node is built once per (stack, phase). */
int lc_stack_push_gather(struct lc_fuse *f, int stack, int view, int expr)
{
    if (LC_GROW(f->stack, f->n_stacks, f->cap_stacks) < 0)
        return -1;
    int id = f->n_stacks++;
    f->stack[id].view = view;
    f->stack[id].parent = stack;
    f->stack[id].expr = expr;
    return id;
}

/* The stack holds reshapes only (or nothing). */
int lc_stack_reshapes_only(const struct lc_fuse *f, int stack)
{
    for (int s = stack; s > 0; s = f->stack[s].parent)
        if (f->topo[f->stack[s].view]->op != LC_OP_RESHAPE)
            return 0;
    return 1;
}

/* The two shapes are equal once their dims of 1 are dropped (as for
 * x.sum(1) and x.sum(1, keepdims=True)): the same elements in the same
 * C order, one index space seen with or without unit dims. */
int lc_same_but_units(int na, const int64_t *a, int nb, const int64_t *b)
{
    int i = 0, j = 0;
    for (;;) {
        while (i < na && a[i] == 1)
            i++;
        while (j < nb && b[j] == 1)
            j++;
        if (i == na || j == nb)
            return i == na && j == nb;
        if (a[i++] != b[j++])
            return 0;
    }
}

/* Strides over `from` (a shape equal to `to` but for unit dims) as strides
 * over `to`: dims of 1 take stride 0, the others in order. */
void lc_units_restride(int nfrom, const int64_t *from, const int64_t *st_from, int nto,
                              const int64_t *to, int64_t *st_to)
{
    int j = 0;
    for (int t = 0; t < nto; t++) {
        if (to[t] == 1) {
            st_to[t] = 0;
            continue;
        }
        while (j < nfrom && from[j] == 1)
            j++;
        st_to[t] = j < nfrom ? st_from[j++] : 0;
    }
    for (int t = nto; t < LC_MAXDIM; t++)
        st_to[t] = 0;
}

/* Apply the views of `stack` (innermost first) to a leaf layout. Returns 0,
 * or -1 after recording in f->fail_node the input of a reshape that no
 * strided layout can express. */
int lc_apply_stack(struct lc_fuse *f, int stack, struct lc_layout *L)
{
    int order[4 * LC_KERNEL_MAX_DEPTH + 64];
    int n = 0;
    for (int s = stack; s > 0; s = f->stack[s].parent) {
        if (n == (int)(sizeof order / sizeof order[0]))
            return lc_error_set(f->e, LC_ERR_INVALID, "too many nested views"), -2;
        order[n++] = s;
    }
    /* order[0] is the innermost view (the one nearest the leaf, pushed last
     * on the way down): apply from there outwards. */
    for (int k = 0; k < n; k++) {
        const struct lc_node *v = f->topo[f->stack[order[k]].view];
        switch (v->op) {
        case LC_OP_RESHAPE:
            if (lc_layout_reshape(&L->ndim, L->shape, L->strides, v->ndim, v->shape) < 0) {
                f->fail_node = lc_idx(f, v->in[0]);
                return -1;
            }
            break;
        case LC_OP_PERMUTE: {
            int64_t sh[LC_MAXDIM], st[LC_MAXDIM];
            for (int i = 0; i < v->ndim; i++) {
                sh[i] = L->shape[v->p.perm[i]];
                st[i] = L->strides[v->p.perm[i]];
            }
            memcpy(L->shape, sh, sizeof sh);
            memcpy(L->strides, st, sizeof st);
            break;
        }
        case LC_OP_BROADCAST: {
            int64_t st[LC_MAXDIM];
            int lead = v->ndim - L->ndim;
            for (int i = 0; i < v->ndim; i++) {
                int j = i - lead;
                st[i] = j < 0 || L->shape[j] != v->shape[i] ? 0 : L->strides[j];
            }
            L->ndim = v->ndim;
            memcpy(L->shape, v->shape, (size_t)v->ndim * sizeof v->shape[0]);
            memcpy(L->strides, st, sizeof st);
            break;
        }
        case LC_OP_SLICE:
            for (int i = 0; i < v->ndim; i++) {
                if (v->shape[i] > 0)
                    L->offset += v->p.slice.start[i] * L->strides[i];
                L->strides[i] *= v->p.slice.step[i];
                L->shape[i] = v->shape[i];
            }
            break;
        case LC_OP_GATHER: {
            /* From the source's index space to the gather's: the axis moves by
             * the checked index's value; source dims of 1 are read at 0. */
            int ax = v->p.gather.axis;
            if (L->n_dyn == LC_MAXDYN) {
                f->fail_node = lc_idx(f, v->in[0]);
                return -1;
            }
            L->dyn[L->n_dyn] = f->stack[order[k]].expr + 1;
            L->dyn_stride[L->n_dyn++] = L->strides[ax];
            for (int i = 0; i < v->ndim; i++) {
                if (i == ax || (L->shape[i] == 1 && v->shape[i] != 1))
                    L->strides[i] = 0;
                L->shape[i] = v->shape[i];
            }
            break;
        }
        default:
            break;
        }
    }
    return 0;
}

