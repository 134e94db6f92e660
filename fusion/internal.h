/* internal.h: what the fusion pass's files share (fuse.c, viewstack.c, u64map.c). */
#ifndef LC_FUSION_INTERNAL_H
#define LC_FUSION_INTERNAL_H

#include "fusion/fusion.h"

/* ---- a small u64 -> int map (open addressing, u64map.c) ---------------------------- */

struct lc_map {
    uint64_t *keys;   /* key + 1; 0 = empty */
    int *vals;
    size_t cap, n;
};

/* 1 and *val when key is present, else 0. */
int lc_map_get(const struct lc_map *m, uint64_t key, int *val);
/* 0, or -1 when out of memory. */
int lc_map_put(struct lc_map *m, uint64_t key, int val);
void lc_map_free(struct lc_map *m);

/* Double *cap (8 at first) and reallocate *arr (elements of elem bytes): 0, or -1 when
 * out of memory. LC_GROW grows only when n has reached cap. */
int lc_grow(void **arr, int *cap, size_t elem);
#define LC_GROW(arr, n, cap)                                                  \
    (((n) < (cap)) ? 0 : lc_grow((void **)&(arr), &(cap), sizeof *(arr)))

/* ---- the pass's state -------------------------------------------------------------- */

struct lc_nodeinfo {
    int mat;          /* written by a kernel (or a leaf copied contiguous) */
    int forced;
    int consumers;
    int sparse;       /* of them, views and gathers reading at most 1/8 of it ... */
    int64_t sparse_elems;  /* ... in all this many elements */
    int depth;        /* fused elementwise depth below, within its kernel */
    int cost;         /* fused op count below (capped) */
    int expensive;    /* has a transcendental op in its fused subtree */
    int kernel;       /* kernel that computes it when mat, else -1 */
    int buffer;       /* plan buffer when written, else -1 */
    int slot;         /* reduce nodes: reduction slot in their kernel */
    int alias;        /* a reshape with no kernel of its own: the node whose buffer
                         it takes (lc_alias_reshapes), else -1 */
    int keep;         /* its buffer outlives the plan: a forced reshape takes it */
};

struct lc_fuse {
    struct lc_node **topo;
    size_t n;
    struct lc_map index;       /* node pointer -> topo index */
    struct lc_nodeinfo *info;
    struct lc_map stacks;      /* (view node index, parent stack) -> stack id */
    struct { int view, parent, expr; } *stack;  /* expr: a gather's checked index (its
                                                   kernel's expr; gather entries are never
                                                   shared) */
    int n_stacks, cap_stacks;
    struct lc_map *memo;       /* per kernel: (node, stack, phase) -> expr */
    int cap_memo;
    struct lc_map inputs;      /* storage pointer -> plan input */
    int fail_node;             /* a node to materialize before trying again, or -1 */
    int epi_nk;                /* building an epilogue: the reduce kernel's kept dims */
    int64_t epi_kept[LC_MAXDIM];
    uint32_t epi_post;         /* ... phase 2: the kernel's post_axes, over epi_nkept kept dims
                                  (accesses get stride 0 along those) */
    int epi_nkept;
    unsigned flags;            /* lc_fuse's flags */
    struct lc_plan *plan;
    struct lc_error *e;
};

static inline int lc_idx(struct lc_fuse *f, const struct lc_node *n)
{
    int i = -1;
    lc_map_get(&f->index, (uint64_t)(uintptr_t)n, &i);
    return i;
}


/* ---- view stacks (viewstack.c) ----------------------------------------------------- */

struct lc_layout {
    int ndim;
    int64_t shape[LC_MAXDIM];
    int64_t strides[LC_MAXDIM];
    int64_t offset;
    int n_dyn;                     /* data-dependent terms (struct lc_access) */
    int dyn[LC_MAXDYN];
    int64_t dyn_stride[LC_MAXDYN];
};

/* The stack of `view` (a view node's topo index) over `stack`: shared, -1 out of memory. */
int lc_stack_push(struct lc_fuse *f, int stack, int view);
/* A gather over `stack` whose source is read at the index expr `expr` checks: a new entry. */
int lc_stack_push_gather(struct lc_fuse *f, int stack, int view, int expr);
/* The stack holds reshapes only (or nothing). */
int lc_stack_reshapes_only(const struct lc_fuse *f, int stack);
/* The two shapes are equal once their dims of 1 are dropped. */
int lc_same_but_units(int na, const int64_t *a, int nb, const int64_t *b);
/* Strides over `from` as strides over `to` (equal but for unit dims). */
void lc_units_restride(int nfrom, const int64_t *from, const int64_t *st_from, int nto,
                       const int64_t *to, int64_t *st_to);
/* Apply the views of `stack` to a leaf layout: 0, -1 after recording in f->fail_node a node
 * to materialize first, -2 on error. */
int lc_apply_stack(struct lc_fuse *f, int stack, struct lc_layout *L);

#endif
