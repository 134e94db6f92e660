/* internal.h: what the fusion pass's files share. In the order the pass runs: fuse.c (the
 * driver), mark.c (which nodes are written), place.c (one attempt at a plan), deps.c (what a
 * root reads), post.c (post-reductions), expr.c (a node's expression in a kernel),
 * viewstack.c (views applied to leaves), u64map.c (the maps they use). */
#ifndef LC_FUSION_INTERNAL_H
#define LC_FUSION_INTERNAL_H

#include "fusion/fusion.h"

#include <string.h>

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

/* A reduce or scan-like kernel's input shape and reduced axes (place.c), by which siblings
 * are grouped and dims ordered; zeroed for map and store kernels. */
struct lc_redspace {
    int ndim;
    int64_t shape[LC_MAXDIM];
    uint32_t axes;
};

struct lc_nodeinfo {
    int mat;          /* written by a kernel (or a leaf copied contiguous) */
    int forced;
    int consumers;
    int sparse;       /* of them, views and gathers reading at most 1/8 of it ... */
    int64_t sparse_elems;  /* ... in all this many elements */
    int broadcast;    /* read through a broadcast (maybe after a reshape) to 4 times its size
                         or more */
    int over_reduce;  /* elementwise over reductions of its shape and constants only (a
                         reduction's epilogue: x.sum(0) / n, sqrt(x.var(0))) */
    int depth;        /* fused elementwise depth below, within its kernel */
    int cost;         /* fused op count below (capped) */
    int expensive;    /* has a transcendental op in its fused subtree */
    int kernel;       /* kernel that computes it when mat, else -1 */
    int buffer;       /* plan buffer when written, else -1 */
    int slot;         /* reduce nodes: reduction slot in their kernel */
    int alias;        /* a reshape with no kernel of its own: the node whose buffer
                         it takes (lc_alias_reshapes), else -1 */
    int keep;         /* its buffer outlives the plan: a forced reshape takes it */
    int scan_store;   /* a scan computed in a store's kernel (LC_FUSE_SCAN_STORE): that
                         store's node index, else -1 */
    int store_total;  /* a reduction written by a store's kernel as its scan's row totals
                         (LC_FUSE_SCAN_TOTAL): that store's node index, else -1 */
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
    int offsets_fixed;         /* the graph stores more than one element: its signature then
                                  holds the offsets of leaves sharing a storage
                                  (graph/signature.c), so two such leaves read at one place
                                  share one load in every graph the plan serves */
    /* One attempt's (lc_plan_once's) own, freed at its end: */
    struct lc_redspace *rs;    /* per kernel */
    int cap_rs;
    int *root_expr;            /* per node: an elementwise root's expr in its kernel */
    struct lc_plan *plan;
    struct lc_error *e;
};

static inline int lc_idx(struct lc_fuse *f, const struct lc_node *n)
{
    int i = -1;
    lc_map_get(&f->index, (uint64_t)(uintptr_t)n, &i);
    return i;
}

static inline int lc_same_dims(int na, const int64_t *a, int nb, const int64_t *b)
{
    return na == nb && memcmp(a, b, (size_t)na * sizeof *a) == 0;
}

/* ---- marking (mark.c) -------------------------------------------------------------- */

/* Decide which nodes are written to memory (info->mat), counting consumers and costs. */
void lc_mark(struct lc_fuse *f, struct lc_node *const *outs, size_t n_outs);
/* Materialized reshapes of a node held in a plan buffer take that buffer instead (alias);
 * run before each attempt. */
void lc_alias_reshapes(struct lc_fuse *f);

/* ---- one attempt at a plan (place.c, deps.c, post.c) ------------------------------- */

/* Place every materialized node in a kernel, write the outputs, order the dims: 0, -2 on
 * error (e set), -3 to retry with f->fail_node materialized. */
int lc_plan_once(struct lc_fuse *f);
/* What the fused subtree of `root` reads: *max_dep the latest kernel among the
 * materialized nodes it reads (-1 if none), and *epi_kernel the kernel whose epilogue it
 * may join: that of the reduce nodes it reads with no view in between, or else the latest
 * of those it reads through reshapes only (-1 none, -2 none fits: reduces read directly
 * from several kernels, or a reduce of that kernel or a later one read through a view
 * other than reshapes, or through reshapes from a later kernel). 0, or -1 out of memory. */
int lc_deps(struct lc_fuse *f, int root, int *max_dep, int *epi_kernel);
/* The kept dims of a reduce kernel's input space rs, less those in `post`; their count. */
int lc_kept_dims(const struct lc_redspace *rs, uint32_t post, int64_t *kept);
/* With LC_FUSE_PRODUCT_POST: the kernel reduce node `idx` joins as a post-reduction, -1
 * none, -2 on error. */
int lc_post_kernel(struct lc_fuse *f, int idx);

/* ---- expressions (expr.c) ---------------------------------------------------------- */

/* Record n as computed in k (for explain): 0, -1 out of memory. */
int lc_add_fused(struct lc_kernel *k, const struct lc_node *n);
/* A new expr of k: its index, -1 out of memory (e set). */
int lc_new_expr(struct lc_fuse *f, struct lc_kernel *k, int op, int dtype, int cdtype,
                const struct lc_node *node);
/* The plan buffer node `idx` is written to (made on first use): its index, -1 out of memory. */
int lc_plan_buffer_for(struct lc_fuse *f, int idx);
/* Strides over the kept dims but those in `post` as strides over all nkept kept dims, 0
 * along the post-reduced ones. */
void lc_post_expand(int64_t *st, int nkept, uint32_t post);
/* The expression computing node `idx` seen through `stack` in kernel `kid` (phase 0
 * prologue or map, 1 epilogue, 2 after post-reductions): the expr index, -2 on error (e
 * set), -3 when a reshape needs its input materialized first (f->fail_node set). `top`:
 * the node is the kernel's own root, computed here even though it is materialized. */
int lc_build(struct lc_fuse *f, int kid, int idx, int stack, int phase, int top);


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
