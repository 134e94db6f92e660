/* collapse.c: a kernel's index space made small: dims of extent 1 dropped, and adjacent dims
 * that every access and output walks as one merged (kept and reduced dims apart). */
#include "codegen/cg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Remove dim d from every stride vector that covers it. */
static void lc_drop_dim(struct lc_cg *g, int d)
{
    const struct lc_kernel *k = g->k;
    for (int a = 0; a < k->n_access; a++) {
        int cover = g->acc[a].epilogue ? g->nk : g->nd;
        if (d < cover)
            memmove(&g->acc[a].strides[d], &g->acc[a].strides[d + 1],
                    (size_t)(cover - d - 1) * sizeof(int64_t));
    }
    int ocover = k->kind == LC_KERNEL_REDUCE ? g->nk : g->nd;
    for (int o = 0; o < k->n_outputs; o++)
        if (d < ocover)
            memmove(&g->ostr[o][d], &g->ostr[o][d + 1], (size_t)(ocover - d - 1) * sizeof(int64_t));
    memmove(&g->shape[d], &g->shape[d + 1], (size_t)(g->nd - d - 1) * sizeof(int64_t));
    g->nd--;
    if (d < g->nk)
        g->nk--;
}

/* Can dims d and d+1 (same group) merge for every vector covering them? */
static int lc_mergeable(struct lc_cg *g, int d)
{
    const struct lc_kernel *k = g->k;
    for (int a = 0; a < k->n_access; a++) {
        int cover = g->acc[a].epilogue ? g->nk : g->nd;
        if (d + 1 < cover && g->acc[a].strides[d] != g->acc[a].strides[d + 1] * g->shape[d + 1])
            return 0;
    }
    int ocover = k->kind == LC_KERNEL_REDUCE ? g->nk : g->nd;
    for (int o = 0; o < k->n_outputs; o++)
        if (d + 1 < ocover && g->ostr[o][d] != g->ostr[o][d + 1] * g->shape[d + 1])
            return 0;
    return 1;
}

static void lc_collapse_group(struct lc_cg *g, int lo, int *hi)
{
    /* Drop dims of extent 1 (their index is always 0), keeping at least none. */
    for (int d = *hi - 1; d >= lo; d--)
        if (g->shape[d] == 1) {
            lc_drop_dim(g, d);
            (*hi)--;
        }
    for (int d = *hi - 2; d >= lo; d--) {
        if (!lc_mergeable(g, d))
            continue;
        int64_t inner = g->shape[d + 1];
        /* Merge d+1 into d: the merged stride is the inner one. */
        const struct lc_kernel *k = g->k;
        for (int a = 0; a < k->n_access; a++) {
            int cover = g->acc[a].epilogue ? g->nk : g->nd;
            if (d + 1 < cover)
                g->acc[a].strides[d] = g->acc[a].strides[d + 1];
        }
        int ocover = k->kind == LC_KERNEL_REDUCE ? g->nk : g->nd;
        for (int o = 0; o < k->n_outputs; o++)
            if (d + 1 < ocover)
                g->ostr[o][d] = g->ostr[o][d + 1];
        g->shape[d] *= inner;
        /* Now drop d+1 without touching the merged values. */
        lc_drop_dim(g, d + 1);
        (*hi)--;
    }
}

void lc_collapse(struct lc_cg *g)
{
    const struct lc_kernel *k = g->k;
    if (k->kind == LC_KERNEL_MAP ||
        (k->kind == LC_KERNEL_STORE && k->store_scan < 0 && !k->store_ordered)) {
        int hi = g->nd;
        lc_collapse_group(g, 0, &hi);
        g->nk = g->nd;
        return;
    }
    if (lc_kernel_along_axis(k->kind) || k->kind == LC_KERNEL_STORE) {
        /* The axis (last; a store's scan's or rows') stays on its own, even of extent 1. */
        int hi = g->nd - 1;
        int nd_before = g->nd;
        g->nk = g->nd; /* outputs and accesses cover every dim */
        lc_collapse_group(g, 0, &hi);
        (void)nd_before;
        g->nk = g->nd;
        return;
    }
    /* REDUCE: kept dims, then reduced dims. */
    int hi = g->nk;
    lc_collapse_group(g, 0, &hi);
    int hi2 = g->nd;
    lc_collapse_group(g, g->nk, &hi2);
}

int64_t lc_kept_count(const struct lc_cg *g)
{
    int64_t M = 1;
    for (int d = 0; d < g->nk; d++)
        M *= g->shape[d];
    return M;
}

int64_t lc_reduced_count(const struct lc_cg *g)
{
    int64_t N = 1;
    for (int d = g->nk; d < g->nd; d++)
        N *= g->shape[d];
    return N;
}
