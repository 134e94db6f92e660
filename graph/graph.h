/* graph.h: the lazy DAG: nodes, the ops table, builders that validate eagerly.
 *
 * A node is pending (an op over input nodes) or a leaf (a realized buffer, a
 * constant, an arange, random numbers). Builders check shapes and dtypes the moment a node is
 * made and fail with NumPy's exception kind and message; nothing is ever
 * rejected later. Views of leaves fold into a new leaf (offset and strides,
 * like NumPy); views of pending nodes stay view nodes, which fusion turns
 * into index arithmetic.
 *
 * Ownership: builders return a new reference (refcount 1) or NULL with `e`
 * set; they never steal references to their inputs. Refcounts are atomic, so
 * nodes may be retained and released from any thread; building is done by
 * one thread at a time per graph (the Python layer holds the GIL).
 */
#ifndef LC_GRAPH_H
#define LC_GRAPH_H

#include "lazycl.h"
#include "graph/dtype.h"

#include <stdatomic.h>
#include <stdint.h>

#define LC_MAXDIM 16
/* The most inputs of a node: a user kernel's parameters (graph/userfn.h); the ops of ops.def
 * take at most 3. */
#define LC_MAXIN 8

enum lc_op {
#define X(name, npname, arity, kind, rule, tmpl) LC_OP_##name,
#include "graph/ops.def"
#undef X
    LC_OP_COUNT
};

enum lc_kind { LC_KIND_SOURCE, LC_KIND_VIEW, LC_KIND_CAST, LC_KIND_UNARY, LC_KIND_BINARY,
               LC_KIND_TERNARY, LC_KIND_REDUCE, LC_KIND_SCAN, LC_KIND_GATHER,
               LC_KIND_STORE, LC_KIND_USER };

const char *lc_op_name(int op);      /* NumPy name, e.g. "add" */
const char *lc_op_enum_name(int op); /* "ADD" */
int lc_op_arity(int op);
enum lc_kind lc_op_kind(int op);
const char *lc_op_template(int op);  /* NULL when codegen spells it out */
int lc_op_is_elementwise(int op);    /* CAST, UNARY, BINARY, TERNARY, USER */
/* exp, log, trigonometric and hyperbolic functions, cbrt, pow, arctan2, hypot: the ops a
 * math library computes (costly, and its vector and scalar forms may differ in the last
 * place). */
int lc_op_is_transcendental(int op);

/* A scalar value; which member is meaningful follows the dtype that goes with
 * it: bool and signed ints in i, unsigned ints in u, floats in f. */
union lc_scalar {
    int64_t i;
    uint64_t u;
    double f;
};
/* Convert a scalar between dtypes as a C cast would (wrapping for ints). */
union lc_scalar lc_scalar_cast(union lc_scalar v, int from, int to);

/* Device memory as the graph sees it: an opaque handle and how to drop it.
 * The runtime's buffer goes in `handle`; graph/ never looks inside. */
struct lc_storage {
    atomic_int refcount;
    void *handle;
    void (*release)(void *handle);
    size_t nbytes;
    /* The engine's writes recorded against this storage and not applied yet (engine/pokes.c;
     * NULL when none), freed with aux_free when the storage goes: then nothing can read it. */
    void *_Atomic aux;
    void (*aux_free)(void *aux);
};
struct lc_storage *lc_storage_new(void *handle, void (*release)(void *), size_t nbytes);
void lc_storage_retain(struct lc_storage *s);
void lc_storage_release(struct lc_storage *s);

enum lc_node_flag {
    LC_NODE_WEAK = 1,       /* a Python scalar: promotes weakly (NEP 50) */
    LC_NODE_WEAK_FLOAT = 2, /* with WEAK: it was a Python float */
    LC_NODE_WEAK_BOOL = 4,  /* with WEAK: it was a Python bool */
    LC_NODE_WEAK_COMPLEX = 8, /* with WEAK: it was a Python complex */
};

struct lc_node {
    atomic_int refcount;
    uint16_t op;           /* enum lc_op */
    uint8_t dtype;         /* result dtype */
    uint8_t cdtype;        /* the dtype the op computes in (inputs are cast to it) */
    uint8_t ndim;
    uint8_t n_in;
    uint16_t flags;
    int64_t size;          /* product of shape */
    int64_t shape[LC_MAXDIM];
    struct lc_node *in[LC_MAXIN];
    void *owner;           /* the queue that owns this graph; equal owners may mix */
    uint64_t hash;         /* structural: op, dtypes, shape, params, input hashes */
    uint64_t skey;         /* the plan's part of it: as `hash`, but without the values
                              of constants and aranges (kernel arguments, bound at each
                              launch) and with a realized node seen as the buffer it is */
    uint64_t serial;       /* creation order, for stable dumps */

    /* Leaves (BUFFER, CONST, IOTA): element offset and strides (in elements)
     * into `storage` (BUFFER), or into the elements of the source they view
     * (CONST, IOTA: element k of an arange is start + step * k). A constant
     * reads the same value everywhere, so its layout only says which places
     * of its source a view covers; it is not hashed. */
    struct lc_storage *storage;
    int64_t offset;
    int64_t strides[LC_MAXDIM];
    union lc_scalar value; /* CONST value; IOTA start; RANDOM the Philox key (u) */
    union lc_scalar step;  /* IOTA step; RANDOM the counter of element 0 (u) */
    /* CONST, IOTA: the serial of the source node this leaf views (its own for
     * a new one) and that source's element count: a write into a view of a
     * constant finds every array viewing the same one, and the one buffer they
     * all move to. */
    uint64_t origin;
    int64_t origin_size;

    /* Op parameters. */
    union {
        int8_t perm[LC_MAXDIM];           /* PERMUTE */
        struct {                          /* SLICE: input index = start + step * i */
            int64_t start[LC_MAXDIM];
            int64_t step[LC_MAXDIM];
        } slice;
        struct {                          /* REDUCE, SCAN (sorts and top-k included) */
            uint32_t axes;                /* bit k: input axis k is reduced (SCAN: one bit) */
            int32_t ddof;                 /* MEANVAR; ARGTOPK: k */
            int32_t kind;                 /* MEANVAR: 0 var, 1 mean; SUM: 1 a product's
                                             contraction (matmul, dot: its floats may
                                             accumulate in their own dtype, as BLAS does);
                                             SORT, ARGSORT: descending; ARGTOPK: largest */
            uint64_t fn, init;            /* USERRED: the combining and identity user
                                             functions (init 0: none) */
        } red;
        struct {                          /* GATHER */
            int32_t axis;                 /* the input axis the index replaces */
            int32_t report_axis;          /* the axis an out-of-range index names; < 0:
                                             in range by construction, clamped */
        } gather;
        struct {                          /* STORE */
            int32_t combine;              /* 0: assign; ADD, MUL, MINIMUM, MAXIMUM; or
                                             LC_STORE_IN_ORDER (lc_node_store) */
        } store;
        struct {                          /* RANDOM */
            int32_t dist;                 /* enum lc_random_dist */
        } random;
        struct {                          /* USER: output `out` of user function `fn` */
            uint64_t fn;                  /* its id (graph/userfn.h) */
            int32_t out;
        } user;
    } p;
};

/* Reference counting. Releasing the last reference frees the node and, in a
 * loop (not recursion), every input it held the last reference to. */
void lc_node_retain(struct lc_node *n);
void lc_node_release(struct lc_node *n);

int lc_node_is_leaf(const struct lc_node *n);
/* Contiguous row-major leaf of a buffer, offset 0 allowed? (offset any) */
int lc_node_is_contiguous(const struct lc_node *n);
/* Row-major strides of a shape, in elements. */
void lc_shape_strides(int ndim, const int64_t *shape, int64_t *strides);
int64_t lc_shape_size(int ndim, const int64_t *shape);

/* ---- sources -------------------------------------------------------------------- */

/* A realized array: `storage` (retained by the node) seen with the given
 * layout. strides == NULL means row-major contiguous. */
struct lc_node *lc_node_buffer(void *owner, int dtype, int ndim, const int64_t *shape,
                               struct lc_storage *storage, int64_t offset,
                               const int64_t *strides, struct lc_error *e);
/* A constant of `shape` (every element `v`). With `flags` LC_NODE_WEAK... it
 * is a Python scalar (ndim 0) that promotes weakly. */
struct lc_node *lc_node_const(void *owner, int dtype, union lc_scalar v, int ndim,
                              const int64_t *shape, unsigned flags, struct lc_error *e);
/* A complex constant: `v` (.f) its real part, `im` (.f) its imaginary part
 * (kept in the node's `step`); for other dtypes `im` is ignored. */
struct lc_node *lc_node_const_complex(void *owner, int dtype, union lc_scalar v,
                                      union lc_scalar im, int ndim, const int64_t *shape,
                                      unsigned flags, struct lc_error *e);
/* Constant `c`'s value cast to `dtype` (NumPy's casting; a complex value keeps
 * or drops its imaginary part, and is true when either part is), as a new
 * constant of `shape` on c's owner. */
struct lc_node *lc_node_const_cast(const struct lc_node *c, int dtype, int ndim,
                                   const int64_t *shape, unsigned flags, struct lc_error *e);
/* start + step * k for k in [0, n). */
struct lc_node *lc_node_iota(void *owner, int dtype, union lc_scalar start, union lc_scalar step,
                             int64_t n, struct lc_error *e);
/* Counter-based random numbers (Philox4x32-10, codegen/random.c): element k
 * is a function of the key and the counter c = offset + k only, so a random
 * array is a source like an arange, computed inside its consumers. */
enum lc_random_dist {
    LC_RANDOM_BITS,    /* uint32: word 0; uint64: words 0 and 1 (high) */
    LC_RANDOM_UNIFORM, /* float32/float64 in [0, 1): the top 24/53 bits, scaled exactly */
    LC_RANDOM_NORMAL,  /* float32/float64 standard normal: Box-Muller over the words */
};
struct lc_node *lc_node_random(void *owner, int dtype, int dist, uint64_t key, uint64_t offset,
                               int64_t n, struct lc_error *e);
/* Make a pending node a leaf: drop its inputs, take `storage` (retained) as
 * its contiguous buffer. Its op becomes BUFFER; its hash, dtype and shape
 * stay. */
void lc_node_realize(struct lc_node *n, struct lc_storage *storage);

/* ---- elementwise (graph/elementwise.c) ------------------------------------------ */

struct lc_node *lc_node_unary(int op, struct lc_node *a, struct lc_error *e);
struct lc_node *lc_node_binary(int op, struct lc_node *a, struct lc_node *b, struct lc_error *e);
struct lc_node *lc_node_where(struct lc_node *c, struct lc_node *a, struct lc_node *b,
                              struct lc_error *e);
struct lc_node *lc_node_cast(struct lc_node *a, int dtype, struct lc_error *e);
/* The result dtype of a binary op over these operands (weak scalars
 * included), or -1 with e set to NumPy's TypeError. */
int lc_binary_result_dtype(int op, const struct lc_node *a, const struct lc_node *b, int *cdtype,
                           struct lc_error *e);
/* The shape a and b broadcast to (NumPy rules), into `out` (which may be a or b) and *nout;
 * LC_ERR_SHAPE with NumPy's message when they do not broadcast. */
lc_status lc_broadcast_shapes(int na, const int64_t *a, int nb, const int64_t *b, int *nout,
                              int64_t *out, struct lc_error *e);

/* ---- views (graph/view.c) ------------------------------------------------------- */

/* `shape` may hold one -1. */
struct lc_node *lc_node_reshape(struct lc_node *a, int ndim, const int64_t *shape,
                                struct lc_error *e);
/* perm is a permutation of 0..ndim-1 (negative entries allowed, NumPy style). */
struct lc_node *lc_node_permute(struct lc_node *a, const int64_t *perm, struct lc_error *e);
struct lc_node *lc_node_broadcast_to(struct lc_node *a, int ndim, const int64_t *shape,
                                     struct lc_error *e);
/* Per dim: input index = start + step * i for i < len (already normalized). */
struct lc_node *lc_node_slice(struct lc_node *a, const int64_t *start, const int64_t *step,
                              const int64_t *len, struct lc_error *e);
/* Apply a reshape to a strided layout in place: 0, or -1 (nothing changed) when the layout
 * cannot take the new shape without a copy. */
int lc_layout_reshape(int *ndim, int64_t *shape, int64_t *strides, int nndim,
                      const int64_t *nshape);

/* ---- reductions and scans (graph/reduce.c) -------------------------------------- */

/* Reduce over the axes in `axes` (bit mask over a's dims; 0 with ndim 0 is a
 * no-op reduction). The result has the kept dims. dtype rules are the
 * caller's: SUM/PROD keep a's dtype (cast first for NumPy's accumulators),
 * ARGMIN/ARGMAX give int64 (they need exactly one axis, or all axes meaning
 * the flat index), ANY/ALL give bool, MEANVAR gives a's float dtype. */
struct lc_node *lc_node_reduce(int op, struct lc_node *a, uint32_t axes, int ddof, int kind,
                               struct lc_error *e);
/* A user reduction (USERRED) of a over `axes` (as lc_node_reduce): states of a's dtype R
 * start from user function `init`'s value (no inputs, one output of R; 0: no identity, the
 * first value starts the state, and an empty reduction is NumPy's ValueError naming `name`)
 * and take each element, then each other partial state, through user function `fn` (inputs
 * a, b and one output, all of R): it must be associative and commutative (the schedules fold
 * chunks and combine their partials). The result has dtype R. */
struct lc_node *lc_node_user_reduce(uint64_t fn, uint64_t init, struct lc_node *a, uint32_t axes,
                                    struct lc_error *e);
struct lc_node *lc_node_scan(int op, struct lc_node *a, int axis, struct lc_error *e);
/* A stable sort of a along `axis`: SORT gives the values (a's dtype), ARGSORT
 * the int64 positions along the axis; NaN last, descending or not. */
struct lc_node *lc_node_sort(int op, struct lc_node *a, int axis, int descending,
                             struct lc_error *e);
/* The int64 positions along `axis` of a's k largest (`largest`) or smallest elements, best
 * first, as the stable sort orders them: NaN above +inf, -0.0 equal to +0.0, equal values
 * the later first when largest (the sort's last k, reversed), the earlier first otherwise.
 * The result has a's shape with k along the axis; 1 <= k <= LC_TOPK_MAX and k <= the axis
 * length. Kept in p.red: axes (the axis bit), ddof (k), kind (largest). */
#define LC_TOPK_MAX 64
struct lc_node *lc_node_topk(struct lc_node *a, int axis, int k, int largest,
                             struct lc_error *e);

/* ---- gathers (graph/gather.c) --------------------------------------------------- */

/* out[i] = src[i with its `axis` index replaced by idx[i]]: the result has idx's
 * shape and src's dtype; src and idx have the same ndim, and every dim of src
 * but `axis` equals idx's or is 1 (read at 0). Negative indices count from the
 * end; an index out of range is an IndexError when the result is forced,
 * naming `report_axis` (the axis as the user wrote it) and the size. idx has
 * an integer dtype (not bool). Chains of gathers express NumPy's advanced
 * indexing, take and take_along_axis (python/lazycl/_index.py). A negative
 * report_axis says the index is in range by construction (its builder's
 * invariant, as a compaction's slots are), never checked nor reported:
 * LC_GATHER_CLAMPED clamps it into [0, size), so that a broken invariant gives
 * wrong values but no access outside the array; LC_GATHER_BOUNDED does not
 * even clamp it, and is only for the target of a store in row order
 * (LC_STORE_IN_ORDER) whose predicate itself bounds the index: a row's writes
 * end at its first false predicate (lc_node_store refuses it elsewhere). */
#define LC_GATHER_CLAMPED (-1)
#define LC_GATHER_BOUNDED (-2)
struct lc_node *lc_node_gather(struct lc_node *src, struct lc_node *idx, int axis, int report_axis,
                               struct lc_error *e);

/* ---- stores (graph/store.c) ------------------------------------------------------ */

/* Write `value` into the elements of an existing array that `target` reads:
 * target is a chain of views and gathers over one realized BUFFER leaf (the
 * destination, written in place), value has target's shape and dtype, and
 * `pred` (NULL, or bool of target's shape) limits the write to where it is
 * true. combine 0 assigns; ADD, MUL, MINIMUM or MAXIMUM fold the value into
 * the element atomically, so repeated places all count (np.add.at);
 * LC_STORE_IN_ORDER assigns each row of the last dim in order, so that of
 * several elements of a row writing one place the last one wins (a
 * compaction writes every element at the current slot, which the next kept
 * one overwrites: no branch on the mask, no spare place), and a row's writes
 * end at its first element whose predicate is false (a compaction's
 * predicate, slot < the chunk's count, stays false from there on). Where
 * the target gathers, an index out of range writes nothing and raises
 * IndexError at the forcing call. The node's value is not an array: it is
 * forced on its own, for its effect, and never used as an input. */
#define LC_STORE_IN_ORDER (-1)
struct lc_node *lc_node_store(struct lc_node *target, struct lc_node *value, struct lc_node *pred,
                              int combine, struct lc_error *e);
/* The leaf a store target writes into (walking views and gathers), or NULL. */
const struct lc_node *lc_store_dest(const struct lc_node *target);
/* A pending copy of a (a cast to its own dtype): reads a when forced. */
struct lc_node *lc_node_copy(struct lc_node *a, struct lc_error *e);
/* The chain of views and gathers from `top` down to its leaf, built again
 * over `leaf` instead (views of a realized leaf fold into strided leaves). */
struct lc_node *lc_node_replay(const struct lc_node *top, struct lc_node *leaf,
                               struct lc_error *e);

/* ---- walks and dumps ------------------------------------------------------------ */

/* The nodes under `outs` (each once) in topological order, inputs first,
 * found without recursion. Returns a malloc'd array of *n borrowed pointers,
 * or NULL with e set. */
struct lc_node **lc_graph_topo(struct lc_node *const *outs, size_t n_outs, size_t *n,
                               struct lc_error *e);
/* A one-line text of a node, e.g. "%12 = add f32[4096] (%10, %11)". */
void lc_node_describe(const struct lc_node *n, char *buf, size_t len);

#endif
