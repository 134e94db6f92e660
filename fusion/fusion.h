/* fusion.h: the pass that cuts a graph into kernels and plans their buffers.
 *
 * lc_fuse reads the sub-DAG under the forced outputs and returns a plan: an
 * ordered list of kernels, each a small SSA program over the kernel's index
 * space, and the buffers they write. After lc_fuse every pending node under
 * the outputs is either computed inside exactly one kernel's expression
 * (possibly recomputed in several, when cheap) or written by exactly one
 * kernel to a plan buffer.
 *
 * Rules (each proven by kernel counts in tests/c/test_fusion.c):
 * - elementwise ops and views fuse into their consumer; views become index
 *   arithmetic on the leaves (offset and strides), never copies, except a
 *   reshape that no strided layout can express, whose input is then written
 *   contiguously first (NumPy copies there too);
 * - a reshape keeps C order, so a reshape that would be written to memory
 *   (a forced output, say) of a node written contiguously to a plan buffer
 *   (a reduction, a scan, a forced node, the input of a reshape that strides
 *   cannot express), or a chain of reshapes down to one, is that buffer: no
 *   kernel of its own, and plan->out_buffer names the input's buffer, which
 *   a forced reshape keeps past the plan (x.sum(1, keepdims=True) and
 *   ((x + 1).T[1:, ::-2] * 2).reshape(-1) are one kernel each);
 * - elementwise producers fuse into reductions and scans (prologue);
 *   elementwise consumers over a reduction's output index space fuse into its
 *   final stage (epilogue), also when they see the reduction through reshapes
 *   and their shape is the kept dims with unit dims added or dropped (mean
 *   and std with keepdims): their reads are then restrided onto the kept
 *   dims;
 * - reductions over the same index space and axes share one kernel (siblings),
 *   as do elementwise outputs over the same index space;
 * - an elementwise node needed by several kernels is recomputed in each unless
 *   its fused cost is above LC_RECOMPUTE_MAX_OPS or it has a transcendental
 *   op with more than LC_RECOMPUTE_MAX_OPS / 4 ops; then it is materialized;
 * - a fused expression longer than LC_KERNEL_MAX_DEPTH ops is cut (its node
 *   at that depth is materialized), bounding kernel size and build time;
 * - a store (lc_node_store) is a kernel of its own over its target's shape,
 *   computing its value and predicate inside it; when that kernel would read
 *   the destination anywhere but at the place each item writes, the value
 *   (then the predicate) is computed into a buffer by an earlier kernel
 *   first, so no item reads what another has written (NumPy's copy of an
 *   overlapping right-hand side);
 * - with LC_FUSE_SCAN_STORE, a scan (cumsum, cumprod, cummin, cummax) along
 *   the last dim of a store's index space that only that store reads, at the
 *   places it writes (through elementwise ops into its value, its predicate
 *   or the index of the gather it writes through), is computed in the
 *   store's kernel, in the order of each row, and never written: a
 *   compaction's running count stores in the count's own pass;
 * - with LC_FUSE_SCAN_TOTAL too, a forced reduction that nothing reads, of
 *   that scan's own input over the same last dim, by the matching op (sum of
 *   a cumsum, ...) in the same integer dtype, is the scan's row totals: the
 *   store's kernel writes it (the store's outputs) and no kernel reads the
 *   input again: a compaction's count comes from its store's pass.
 */
#ifndef LC_FUSION_H
#define LC_FUSION_H

#include "lazycl.h"
#include "graph/graph.h"

#define LC_RECOMPUTE_MAX_OPS 16
#define LC_KERNEL_MAX_DEPTH 200

/* What a kernel computes, and so which schedules may take it (codegen/target.c): each
 * schedule serves one kind. SCAN, SORT and TOPK kernels run along the last axis of their
 * index space (lc_kernel_along_axis); fusion picks the kind from the op (lc_kernel_kind_of). */
enum lc_kernel_kind {
    LC_KERNEL_MAP,    /* elementwise over the output shape */
    LC_KERNEL_REDUCE, /* reductions over some axes, with prologue and epilogue */
    LC_KERNEL_SCAN,   /* a cumulative op along the axis: CUMSUM, CUMPROD, CUMMIN, CUMMAX */
    LC_KERNEL_STORE,  /* a store into a leaf's storage, in place */
    LC_KERNEL_SORT,   /* a stable sort along the axis: SORT, ARGSORT */
    LC_KERNEL_TOPK,   /* the positions of the k best along the axis: ARGTOPK */
};

/* The kernel kind of a node of op kind LC_KIND_SCAN (the ops along an axis). */
static inline enum lc_kernel_kind lc_kernel_kind_of(int op)
{
    return op == LC_OP_SORT || op == LC_OP_ARGSORT ? LC_KERNEL_SORT
         : op == LC_OP_ARGTOPK ? LC_KERNEL_TOPK : LC_KERNEL_SCAN;
}

/* Does a kernel of this kind run along its last axis (SCAN, SORT, TOPK)? Its index space is
 * then the input's shape with that axis last, and its outputs cover every dim. */
static inline int lc_kernel_along_axis(enum lc_kernel_kind kind)
{
    return kind == LC_KERNEL_SCAN || kind == LC_KERNEL_SORT || kind == LC_KERNEL_TOPK;
}

/* Where an access reads from. */
enum lc_access_kind {
    LC_ACCESS_INPUT,   /* a realized leaf's storage: plan->inputs[source] */
    LC_ACCESS_TEMP,    /* a buffer this plan writes: plan->buffers[source] */
    LC_ACCESS_CONST,   /* a constant: value */
    LC_ACCESS_IOTA,    /* value + step * (offset + sum strides * idx) */
    LC_ACCESS_RANDOM,  /* Philox(key = value, counter = step + offset + sum strides * idx),
                          leaf->p.random.dist (codegen/random.c) */
};

/* A read of one leaf at every point of the kernel's index space (or of its
 * output space, for epilogue reads of reduce kernels): element offset and
 * per-dim strides over that space, plus, under gathers, up to LC_MAXDYN
 * data-dependent terms: dyn_stride[j] times the value of expr dyn[j] - 1 (a
 * checked index, LC_EXPR_INDEX). */
#define LC_MAXDYN 4
struct lc_access {
    enum lc_access_kind kind;
    int source;
    int dtype;
    int epilogue;                  /* reduce kernels: 1 indexed by output (kept) dims; 2 (kernels
                                      with post-reductions) by the kept dims too, stride 0
                                      along the post-reduced ones */
    int64_t offset;
    int64_t strides[LC_MAXDIM];
    union lc_scalar value, step;
    int n_dyn;
    int dyn[LC_MAXDYN];            /* 1 + the expr of each data-dependent index */
    int64_t dyn_stride[LC_MAXDYN];
    const struct lc_node *leaf;    /* the leaf node read (NULL for TEMP): a plan
                                      reused for another graph rebinds `value`
                                      and `step` from that graph's leaf */
};

/* One SSA value of a kernel. Loads have op BUFFER/CONST/IOTA and `access`;
 * LC_EXPR_REDUCED reads reduction slot `slot`'s final value. */
#define LC_EXPR_REDUCED (-1)
/* LC_EXPR_INDEX: the index in[0] (any integer dtype) checked against
 * `size` along a gather's axis: negative ones count from the end; one out of
 * range is reported (IndexError naming `axis`) and read as 0. Its value is
 * an int64. With `axis` < 0 (a gather whose index is in range by
 * construction) it is only clamped into [0, size), or with LC_GATHER_BOUNDED
 * taken as it is (graph.h). */
#define LC_EXPR_INDEX (-2)
/* LC_EXPR_SCANNED: a store kernel's scan (lc_kernel's store_scan): the running state of
 * op scan_op after folding in[0] at this index, its row walked in order (LC_FUSE_SCAN_STORE). */
#define LC_EXPR_SCANNED (-3)
struct lc_expr {
    int op;                        /* enum lc_op, or LC_EXPR_REDUCED */
    int dtype, cdtype;
    int in[LC_MAXIN];
    int n_in;
    int access;                    /* loads */
    int slot;                      /* LC_EXPR_REDUCED: which reduction */
    int epilogue;                  /* reduce kernels: 1 when evaluated per output (kept index);
                                      2 after the post-reductions (per final output) */
    int64_t size;                  /* LC_EXPR_INDEX: the extent checked against */
    int axis;                      /* LC_EXPR_INDEX: the axis an error names */
    const struct lc_node *node;    /* the node it computes (for comments) */
};

/* A reduction of a reduce kernel: op over the prologue value `expr`. */
struct lc_reduction {
    int op;                        /* SUM, PROD, RMIN, ..., MEANVAR */
    int expr;                      /* prologue value reduced */
    int dtype;                     /* result dtype */
    int in_dtype;                  /* dtype of the reduced values */
    int ddof, kind;                /* MEANVAR */
    int flat_index;                /* ARGMIN/ARGMAX over every axis: flat index */
    int post;                      /* a post-reduction: folds the epilogue value `expr` over the
                                      kernel's post_axes (kernels whose first reduction is a
                                      product's sum; see lc_kernel) */
    const struct lc_node *node;
};

/* An output: the value of `expr` written contiguously to plan buffer
 * `buffer`. For reduce kernels, outputs are epilogue values (per output),
 * written over the kept dims (the node's shape may add or drop unit dims);
 * with post-reductions, over the kept dims but the post-reduced ones, its
 * strides 0 along those. */
struct lc_output {
    int expr;
    int buffer;
    int dtype;
    int64_t strides[LC_MAXDIM];    /* element strides over the kernel's output
                                      dims (REDUCE: kept; the others: all dims) */
    const struct lc_node *node;
};

struct lc_kernel {
    enum lc_kernel_kind kind;
    /* Index space. MAP: the output shape. REDUCE: the input shape reordered
     * as [kept dims..., reduced dims...] with `nkept` kept dims; outputs are
     * over the kept dims. SCAN, SORT, TOPK: the input shape with the axis last. */
    int ndim, nkept;
    int64_t shape[LC_MAXDIM];
    struct lc_expr *exprs;
    int n_exprs, cap_exprs;
    struct lc_access *access;
    int n_access, cap_access;
    struct lc_output *outputs;
    int n_outputs, cap_outputs;
    struct lc_reduction *reds;
    int n_reds, cap_reds;
    int scan_op;                   /* SCAN, SORT, TOPK: the op (CUMSUM ..., SORT, ARGSORT,
                                      ARGTOPK); STORE with store_scan: the scan's op */
    /* REDUCE with post-reductions (lc_fuse's LC_FUSE_PRODUCT_POST): reds[0] is a sum of
     * x * y over the reduced dims (a product), the epilogue (phase 1) computes its
     * elementwise consumers per kept index, the post-reductions (reds[1..], post set) fold
     * them over the kept dims in post_axes, and phase 2 computes the consumers of those,
     * per output of the remaining kept dims: (A @ B).sum(0), norm(A @ B, axis=0) are one
     * kernel that never writes the product. Every output is a phase-2 value. */
    uint32_t post_axes;            /* bit d: kept dim d is post-reduced (0: no post stage) */
    /* STORE: value expr `store_value` written (where expr `store_pred` is
     * true, when >= 0) at the place access `store_access` reads, assigned
     * (store_combine 0) or folded in atomically (ADD, MUL, MINIMUM, MAXIMUM).
     * The index space is the target's shape. Its outputs, when it has any (one at most,
     * with LC_FUSE_SCAN_TOTAL), are its scan's row totals: the running state at the end of
     * each row, over the target's dims but the last. */
    int store_access, store_value, store_pred, store_combine;
    /* STORE with a scan fused in (LC_FUSE_SCAN_STORE): the LC_EXPR_SCANNED expr, whose op is
     * scan_op, along the last dim; -1 none. Only schedules that walk rows in order take it. */
    int store_scan;
    /* STORE: assigned in row order (LC_STORE_IN_ORDER; store_combine is then 0): only
     * schedules with one item per row of the last dim take it. */
    int store_ordered;
    const struct lc_node **fused;  /* every node computed here, for explain */
    int n_fused, cap_fused;
};

struct lc_plan_buffer {
    size_t nbytes;
    int dtype;
    int64_t size;
    int producer;                  /* kernel that writes it */
    int last_use;                  /* last kernel that reads it (or producer) */
    int is_output;                 /* a forced output: lives past the plan */
    const struct lc_node *node;
};

struct lc_plan {
    struct lc_kernel *kernels;
    int n_kernels, cap_kernels;
    struct lc_plan_buffer *buffers;
    int n_buffers, cap_buffers;
    struct lc_storage **inputs;    /* borrowed from leaves under the outputs */
    int n_inputs, cap_inputs;
    int *out_buffer;               /* per forced output: its buffer, or -1 when a leaf;
                                      a reshape's may be its input's buffer (is_output),
                                      shared with that input when it is forced too */
    int n_out;
};

/* Flags of lc_fuse. */
enum lc_fuse_flag {
    /* Forced outputs that are leaves but not contiguous buffers (views,
     * constants, aranges) are copied into contiguous buffers too. */
    LC_FUSE_COPY_LEAVES = 1,
    /* A reduction (sum, prod, min, max, nanmin, nanmax, mean/var, any, all) whose input is
     * elementwise over the sums of a reduce kernel with one sum reduction over one axis of a
     * product x * y, keeping at least two dims and reducing at least one of the last two,
     * joins that kernel as a post-reduction, when nothing else reads the product or the
     * values between (lc_kernel's post_axes). Codegen takes such kernels only in the GEMM
     * schedules: the engine asks lc_codegen_fits and fuses again without this flag when a
     * kernel of the plan has no schedule. */
    LC_FUSE_PRODUCT_POST = 2,
    /* A scan that only a store reads, at the places the store writes, along the last dim of
     * the store's index space, joins the store's kernel (lc_kernel's store_scan) and is never
     * written. Codegen takes such kernels only in the schedules that walk each row in order:
     * the engine fuses again without this flag when a kernel of the plan has no schedule. */
    LC_FUSE_SCAN_STORE = 4,
    /* With LC_FUSE_SCAN_STORE: a forced reduction nothing reads, of a store's scan's input
     * over the scan's axis by the matching op (SUM of a CUMSUM, PROD, MIN, MAX) in the same
     * integer dtype, is written by the store's kernel (the running state at each
     * row's end: the same value in any association) instead of a kernel of its own. Codegen
     * takes such kernels only in the look-back schedule: the engine fuses again without this
     * flag elsewhere (lc_codegen_unfit). */
    LC_FUSE_SCAN_TOTAL = 8,
};

/* Cut the sub-DAG under `outs` into kernels. Reads the graph; fills `plan`.
 * Outputs that are leaves need no kernel (out_buffer -1), unless
 * LC_FUSE_COPY_LEAVES asks for contiguous copies of them. */
lc_status lc_fuse(struct lc_node *const *outs, size_t n_outs, unsigned flags,
                  struct lc_plan *plan, struct lc_error *e);
void lc_plan_free(struct lc_plan *plan);
/* A human-readable dump of the plan (kernels, nodes each fuses, buffers).
 * Returns a malloc'd string. */
char *lc_plan_describe(const struct lc_plan *plan);

#endif
