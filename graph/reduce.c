/* reduce.c: the builders of reductions, scans, sorts and top-k selections. */
#include "graph/internal.h"
#include "graph/userfn.h"

#include <string.h>

static const char *lc_reduce_ufunc(int op)
{
    switch (op) {
    case LC_OP_RMIN: case LC_OP_NANMIN: return "minimum";
    case LC_OP_RMAX: case LC_OP_NANMAX: return "maximum";
    default: return lc_op_name(op);
    }
}

/* Is v the value of max(f) over `axes` broadcast back to f's shape (as
 * x - max(x), x - max(x, axis) or x - max(x, axis, keepdims=True) write it)? */
static int lc_is_max_broadcast(const struct lc_node *v, const struct lc_node *f, uint32_t axes)
{
    if (v->op != LC_OP_BROADCAST || v->ndim != f->ndim ||
        memcmp(v->shape, f->shape, (size_t)f->ndim * sizeof *f->shape) != 0)
        return 0;
    const struct lc_node *r = v->in[0];
    int keepdims = 0;
    if (r->op == LC_OP_RESHAPE) {
        /* keepdims: f's shape with the reduced axes as 1 */
        if (r->ndim != f->ndim)
            return 0;
        for (int d = 0; d < f->ndim; d++)
            if (r->shape[d] != ((axes >> d) & 1u ? 1 : f->shape[d]))
                return 0;
        keepdims = 1;
        r = r->in[0];
    }
    if (r->op != LC_OP_RMAX || r->in[0] != f || r->p.red.axes != axes)
        return 0;
    if (!keepdims) {
        /* Broadcasting prepends dims: only leading reduced axes line up. */
        int lead = f->ndim - r->ndim;
        for (int d = 0; d < f->ndim; d++)
            if (((axes >> d) & 1u) != (d < lead ? 1u : 0u))
                return 0;
    }
    return 1;
}

/* sum(exp(f - max(f))) over the same axes: f, else NULL. */
static struct lc_node *lc_match_sumexp(const struct lc_node *a, uint32_t axes)
{
    if (a->op != LC_OP_EXP || !lc_dtype_is_float(a->dtype))
        return NULL;
    const struct lc_node *d = a->in[0];
    if (d->op != LC_OP_SUB || d->dtype != a->dtype)
        return NULL;
    struct lc_node *f = d->in[0];
    if (f->dtype != a->dtype || !lc_is_max_broadcast(d->in[1], f, axes))
        return NULL;
    return f;
}

/* The shape left after reducing `axes` (a bit per axis) of a, its element count in *nred:
 * the number of dims left, or -1 with e set (an axis past a's). */
static int lc_reduced_shape(const struct lc_node *a, uint32_t axes, int64_t *shape, int64_t *nred,
                            struct lc_error *e)
{
    if (a->ndim < 32 && (axes >> a->ndim) != 0) {
        lc_error_set(e, LC_ERR_AXIS, "axis out of bounds for array of dimension %d", a->ndim);
        return -1;
    }
    int nd = 0;
    *nred = 1;
    for (int i = 0; i < a->ndim; i++) {
        if (axes & (1u << i))
            *nred *= a->shape[i];
        else
            shape[nd++] = a->shape[i];
    }
    return nd;
}

struct lc_node *lc_node_reduce(int op, struct lc_node *a, uint32_t axes, int ddof, int kind,
                               struct lc_error *e)
{
    if (op == LC_OP_SUM) {
        /* softmax's denominator: one pass with the max instead of a pass after it */
        struct lc_node *f = lc_match_sumexp(a, axes);
        if (f)
            return lc_node_reduce(LC_OP_SUMEXP, f, axes, 0, 0, e);
    }
    if (lc_op_kind(op) != LC_KIND_REDUCE || op == LC_OP_USERRED) {
        lc_error_set(e, LC_ERR_INVALID, "'%s' is not a reduction%s", lc_op_name(op),
                     op == LC_OP_USERRED ? " of lc_node_reduce (lc_node_user_reduce)" : "");
        return NULL;
    }
    int64_t shape[LC_MAXDIM], nred;
    int nd = lc_reduced_shape(a, axes, shape, &nred, e);
    if (nd < 0)
        return NULL;
    if (nred == 0) {
        switch (op) {
        case LC_OP_RMIN: case LC_OP_RMAX: case LC_OP_NANMIN: case LC_OP_NANMAX:
            lc_error_set(e, LC_ERR_INVALID,
                         "zero-size array to reduction operation %s which has no identity",
                         lc_reduce_ufunc(op));
            return NULL;
        case LC_OP_ARGMIN: case LC_OP_ARGMAX:
            lc_error_set(e, LC_ERR_INVALID, "attempt to get %s of an empty sequence",
                         lc_op_name(op));
            return NULL;
        default:
            break;
        }
    }
    if (lc_dtype_is_complex(a->dtype) && op != LC_OP_SUM && op != LC_OP_PROD) {
        /* The front end composes the others (mean, var, any, max, ...) of these. */
        lc_error_set(e, LC_ERR_TYPE, "reduction '%s' of a complex array is not a graph op",
                     lc_op_name(op));
        return NULL;
    }
    int dt = a->dtype;
    switch (op) {
    case LC_OP_ANY: case LC_OP_ALL: dt = LC_BOOL; break;
    case LC_OP_ARGMIN: case LC_OP_ARGMAX: dt = LC_INT64; break;
    case LC_OP_MEANVAR: dt = lc_dtype_is_float(a->dtype) ? a->dtype : LC_FLOAT64; break;
    default: break;
    }
    struct lc_node *n = lc_node_new(op, dt, nd, shape, &a, 1, e);
    if (!n)
        return NULL;
    n->cdtype = a->dtype;
    n->p.red.axes = axes;
    n->p.red.ddof = ddof;
    n->p.red.kind = kind;
    lc_node_seal(n);
    return n;
}

/* Is user function `id` one of `n_in` inputs and one output, all of dtype dt? */
static const struct lc_userfn *lc_userfn_shaped(uint64_t id, int n_in, int dt)
{
    const struct lc_userfn *f = lc_userfn_get(id);
    if (!f || f->n_in != n_in || f->n_out != 1 || f->out_dtype[0] != dt)
        return NULL;
    for (int i = 0; i < n_in; i++)
        if (f->in_dtype[i] != dt)
            return NULL;
    return f;
}

struct lc_node *lc_node_user_reduce(uint64_t fn, uint64_t init, struct lc_node *a, uint32_t axes,
                                    struct lc_error *e)
{
    const struct lc_userfn *f = lc_userfn_get(fn);
    int dt = f && f->n_out == 1 ? f->out_dtype[0] : -1;
    if (!f || !lc_userfn_shaped(fn, 2, dt) || (init && !lc_userfn_shaped(init, 0, dt))) {
        lc_error_set(e, LC_ERR_INVALID, "internal: user reduction %016llx (identity %016llx) "
                     "is not a function of two values of one dtype and an identity of it",
                     (unsigned long long)fn, (unsigned long long)init);
        return NULL;
    }
    int64_t shape[LC_MAXDIM], nred;
    int nd = lc_reduced_shape(a, axes, shape, &nred, e);
    if (nd < 0)
        return NULL;
    if (nred == 0 && !init) {
        lc_error_set(e, LC_ERR_INVALID,
                     "zero-size array to reduction operation %s which has no identity", f->name);
        return NULL;
    }
    struct lc_node *x = lc_node_cast(a, dt, e);
    if (!x)
        return NULL;
    struct lc_node *n = lc_node_new(LC_OP_USERRED, dt, nd, shape, &x, 1, e);
    lc_node_release(x);
    if (!n)
        return NULL;
    n->cdtype = (uint8_t)dt;
    n->p.red.axes = axes;
    n->p.red.fn = fn;
    n->p.red.init = init;
    lc_node_seal(n);
    return n;
}

struct lc_node *lc_node_scan(int op, struct lc_node *a, int axis, struct lc_error *e)
{
    /* Sorts are scan-shaped kernels but nodes of their own (lc_node_sort: dtype, order). */
    if (lc_op_kind(op) != LC_KIND_SCAN || op == LC_OP_SORT || op == LC_OP_ARGSORT ||
        op == LC_OP_ARGTOPK) {
        lc_error_set(e, LC_ERR_INVALID, "'%s' is not a scan", lc_op_name(op));
        return NULL;
    }
    if (axis < 0 || axis >= a->ndim) {
        lc_error_set(e, LC_ERR_AXIS, "axis %d is out of bounds for array of dimension %d", axis,
                     a->ndim);
        return NULL;
    }
    if (lc_dtype_is_complex(a->dtype) && op != LC_OP_CUMSUM && op != LC_OP_CUMPROD) {
        lc_error_set(e, LC_ERR_TYPE, "scan '%s' of a complex array is not supported",
                     lc_op_name(op));
        return NULL;
    }
    struct lc_node *n = lc_node_new(op, a->dtype, a->ndim, a->shape, &a, 1, e);
    if (!n)
        return NULL;
    n->p.red.axes = 1u << axis;
    lc_node_seal(n);
    return n;
}

struct lc_node *lc_node_sort(int op, struct lc_node *a, int axis, int descending,
                             struct lc_error *e)
{
    if (op != LC_OP_SORT && op != LC_OP_ARGSORT) {
        lc_error_set(e, LC_ERR_INVALID, "'%s' is not a sort", lc_op_name(op));
        return NULL;
    }
    if (axis < 0 || axis >= a->ndim) {
        lc_error_set(e, LC_ERR_AXIS, "axis %d is out of bounds for array of dimension %d", axis,
                     a->ndim);
        return NULL;
    }
    if (lc_dtype_is_complex(a->dtype)) {
        /* The front end sorts complex numbers by keys of their parts. */
        lc_error_set(e, LC_ERR_TYPE, "'%s' of a complex array is not a graph op",
                     lc_op_name(op));
        return NULL;
    }
    struct lc_node *n = lc_node_new(op, op == LC_OP_ARGSORT ? LC_INT64 : a->dtype, a->ndim,
                                    a->shape, &a, 1, e);
    if (!n)
        return NULL;
    n->p.red.axes = 1u << axis;
    n->p.red.kind = descending != 0;
    lc_node_seal(n);
    return n;
}

struct lc_node *lc_node_topk(struct lc_node *a, int axis, int k, int largest,
                             struct lc_error *e)
{
    if (axis < 0 || axis >= a->ndim) {
        lc_error_set(e, LC_ERR_AXIS, "axis %d is out of bounds for array of dimension %d", axis,
                     a->ndim);
        return NULL;
    }
    if (lc_dtype_is_complex(a->dtype)) {
        lc_error_set(e, LC_ERR_TYPE, "'argtopk' of a complex array is not a graph op");
        return NULL;
    }
    if (k < 1 || k > LC_TOPK_MAX || k > a->shape[axis]) {
        lc_error_set(e, LC_ERR_INVALID, "k (=%d) must be between 1 and min(%d, the axis length %lld)",
                     k, LC_TOPK_MAX, (long long)a->shape[axis]);
        return NULL;
    }
    int64_t shape[LC_MAXDIM];
    memcpy(shape, a->shape, sizeof shape);
    shape[axis] = k;
    struct lc_node *n = lc_node_new(LC_OP_ARGTOPK, LC_INT64, a->ndim, shape, &a, 1, e);
    if (!n)
        return NULL;
    n->p.red.axes = 1u << axis;
    n->p.red.ddof = k;
    n->p.red.kind = largest != 0;
    lc_node_seal(n);
    return n;
}
