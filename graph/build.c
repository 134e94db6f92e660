/* build.c: the node builders: dtype rules, broadcasting, views, reductions, scans. */
#include "graph/internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* "(2,3)", "(4,)", "()" as NumPy prints shapes. */
static const char *lc_fmt_shape(int ndim, const int64_t *shape, char *buf, size_t n)
{
    size_t o = 0;
    o += (size_t)snprintf(buf + o, n - o, "(");
    for (int i = 0; i < ndim && o < n; i++)
        o += (size_t)snprintf(buf + o, n - o, "%s%lld", i ? "," : "", (long long)shape[i]);
    if (o < n)
        snprintf(buf + o, n - o, ndim == 1 ? ",)" : ")");
    return buf;
}

lc_status lc_broadcast_shapes(int na, const int64_t *a_in, int nb, const int64_t *b_in, int *nout,
                              int64_t *out, struct lc_error *e)
{
    /* `out` may be `a_in` or `b_in`: work from copies. */
    int64_t a[LC_MAXDIM], b[LC_MAXDIM];
    if (na > LC_MAXDIM || nb > LC_MAXDIM)
        return lc_error_set(e, LC_ERR_INVALID, "lazycl arrays have at most %d dimensions",
                            LC_MAXDIM);
    memcpy(a, a_in, (size_t)na * sizeof *a);
    memcpy(b, b_in, (size_t)nb * sizeof *b);
    int n = na > nb ? na : nb;
    for (int i = 0; i < n; i++) {
        int64_t da = i < n - na ? 1 : a[i - (n - na)];
        int64_t db = i < n - nb ? 1 : b[i - (n - nb)];
        if (da != db && da != 1 && db != 1) {
            char sa[256], sb[256];
            return lc_error_set(e, LC_ERR_SHAPE,
                                "operands could not be broadcast together with shapes %s %s",
                                lc_fmt_shape(na, a, sa, sizeof sa),
                                lc_fmt_shape(nb, b, sb, sizeof sb));
        }
        out[i] = da == 1 ? db : da;
    }
    *nout = n;
    return LC_OK;
}

static int lc_same_shape(const struct lc_node *a, int ndim, const int64_t *shape)
{
    return a->ndim == ndim && memcmp(a->shape, shape, (size_t)ndim * sizeof *shape) == 0;
}

/* A new leaf that shares `a`'s storage (or constant) with another layout. */
static struct lc_node *lc_leaf_view(const struct lc_node *a, int ndim, const int64_t *shape,
                                    int64_t offset, const int64_t *strides, struct lc_error *e)
{
    struct lc_node *n = lc_node_new(a->op, a->dtype, ndim, shape, NULL, 0, e);
    if (!n)
        return NULL;
    n->owner = a->owner;
    n->storage = a->storage;
    if (n->storage)
        lc_storage_retain(n->storage);
    n->value = a->value;
    n->step = a->step;
    n->flags = a->flags;
    n->p = a->p;                  /* RANDOM: the distribution */
    n->origin = a->origin;
    n->origin_size = a->origin_size;
    n->offset = offset;
    memcpy(n->strides, strides, (size_t)ndim * sizeof *strides);
    lc_node_seal(n);
    return n;
}

static struct lc_node *lc_view_node(int op, struct lc_node *a, int ndim, const int64_t *shape,
                                    struct lc_error *e)
{
    struct lc_node *n = lc_node_new(op, a->dtype, ndim, shape, &a, 1, e);
    return n;
}

/* ---- dtype rules ---------------------------------------------------------------- */

static int lc_type_error_ufunc(int op, struct lc_error *e)
{
    lc_error_set(e, LC_ERR_TYPE,
                 "ufunc '%s' not supported for the input types, and the inputs could not be "
                 "safely coerced to any supported types according to the casting rule ''safe''",
                 lc_op_name(op));
    return -1;
}

static int lc_bool_error(int op, struct lc_error *e)
{
    if (op == LC_OP_SUB) {
        lc_error_set(e, LC_ERR_TYPE,
                     "numpy boolean subtract, the `-` operator, is not supported, use the "
                     "bitwise_xor, the `^` operator, or the logical_xor function instead.");
        return -1;
    }
    if (op == LC_OP_NEG) {
        lc_error_set(e, LC_ERR_TYPE,
                     "The numpy boolean negative, the `-` operator, is not supported, use the "
                     "`~` operator or the logical_not function instead.");
        return -1;
    }
    return lc_type_error_ufunc(op, e);
}

/* Ops NumPy has no complex loop for (the unary and binary ones; reductions
 * check their own). */
static int lc_complex_unsupported(int op)
{
    switch (op) {
    case LC_OP_FLOOR: case LC_OP_CEIL: case LC_OP_TRUNC: case LC_OP_CBRT:
    case LC_OP_FLOORDIV: case LC_OP_MOD: case LC_OP_ARCTAN2: case LC_OP_HYPOT:
    case LC_OP_COPYSIGN: case LC_OP_NOT: case LC_OP_AND: case LC_OP_OR: case LC_OP_XOR:
    case LC_OP_LSHIFT: case LC_OP_RSHIFT: case LC_OP_COMPLEX: case LC_OP_NEXTAFTER:
    case LC_OP_LDEXP: case LC_OP_FREXPEXP: case LC_OP_GCD: case LC_OP_LCM:
        return 1;
    default:
        return 0;
    }
}

static enum lc_pyscalar lc_weak_kind(const struct lc_node *n)
{
    if (n->flags & LC_NODE_WEAK_COMPLEX)
        return LC_PYSCALAR_COMPLEX;
    if (n->flags & LC_NODE_WEAK_FLOAT)
        return LC_PYSCALAR_FLOAT;
    if (n->flags & LC_NODE_WEAK_BOOL)
        return LC_PYSCALAR_BOOL;
    return LC_PYSCALAR_INT;
}

/* The promoted operand dtype of two nodes, weak scalars included. */
static int lc_promote_nodes(const struct lc_node *a, const struct lc_node *b)
{
    int wa = a->flags & LC_NODE_WEAK, wb = b->flags & LC_NODE_WEAK;
    if (wa && !wb)
        return lc_dtype_promote_weak(b->dtype, lc_weak_kind(a));
    if (wb && !wa)
        return lc_dtype_promote_weak(a->dtype, lc_weak_kind(b));
    return lc_dtype_promote(a->dtype, b->dtype);
}

static int lc_unary_result_dtype(int op, int dt, int *cdtype, struct lc_error *e)
{
    *cdtype = dt;
    if (lc_dtype_is_complex(dt) && lc_complex_unsupported(op))
        return lc_type_error_ufunc(op, e);
    if (op == LC_OP_ABS || op == LC_OP_REAL || op == LC_OP_IMAG)
        return lc_dtype_real_of(dt);   /* |z|, its parts: real; others keep theirs */
    switch (lc_op_rule(op)) {
    case LC_RULE_SAME:
        return dt;
    case LC_RULE_NOBOOL:
        if (dt == LC_BOOL)
            return lc_bool_error(op, e);
        return dt;
    case LC_RULE_INTBOOL:
        if (lc_dtype_is_float(dt))
            return lc_type_error_ufunc(op, e);
        return dt;
    case LC_RULE_TOBOOL:
        return LC_BOOL;
    case LC_RULE_BOOL8:
        if (dt == LC_BOOL)
            *cdtype = dt = LC_INT8;
        return dt;
    case LC_RULE_FLOAT:
        *cdtype = lc_dtype_float_of(dt);
        return *cdtype;
    case LC_RULE_ROUND:
        return dt;
    default:
        lc_error_set(e, LC_ERR_INVALID, "'%s' is not a unary operation", lc_op_name(op));
        return -1;
    }
}

int lc_binary_result_dtype(int op, const struct lc_node *a, const struct lc_node *b, int *cdtype,
                           struct lc_error *e)
{
    int pt = lc_promote_nodes(a, b);
    *cdtype = pt;
    if (lc_dtype_is_complex(pt) && lc_complex_unsupported(op))
        return lc_type_error_ufunc(op, e);
    switch (lc_op_rule(op)) {
    case LC_RULE_ARITH:
        return pt;
    case LC_RULE_NOBOOL:
        if (pt == LC_BOOL)
            return lc_bool_error(op, e);
        return pt;
    case LC_RULE_DIVIDE:
        *cdtype = lc_dtype_is_inexact(pt) ? pt : LC_FLOAT64;
        return *cdtype;
    case LC_RULE_COMPLEX:
        /* complex(re, im) of two real arrays: the complex of their float type */
        *cdtype = lc_dtype_float_of(pt);
        return lc_dtype_complex_of(*cdtype);
    case LC_RULE_BOOL8:
        if (pt == LC_BOOL)
            *cdtype = pt = LC_INT8;
        return pt;
    case LC_RULE_CMP:
    case LC_RULE_LOGICAL:
        return LC_BOOL;
    case LC_RULE_INTBOOL:
        if (lc_dtype_is_float(pt))
            return lc_type_error_ufunc(op, e);
        return pt;
    case LC_RULE_SHIFT:
        if (lc_dtype_is_float(pt))
            return lc_type_error_ufunc(op, e);
        if (pt == LC_BOOL)
            *cdtype = pt = LC_INT8;
        return pt;
    case LC_RULE_FLOAT:
        /* NumPy takes the first float loop both inputs cast to safely:
         * float32 for (uint16, int8), where float_of(int32) would be float64.
         * A weak scalar first takes the other operand's dtype. */
        if ((a->flags & LC_NODE_WEAK) || (b->flags & LC_NODE_WEAK))
            *cdtype = lc_dtype_float_of(pt);
        else
            *cdtype = lc_dtype_promote(lc_dtype_float_of(a->dtype), lc_dtype_float_of(b->dtype));
        return *cdtype;
    default:
        lc_error_set(e, LC_ERR_INVALID, "'%s' is not a binary operation", lc_op_name(op));
        return -1;
    }
}

/* A weak scalar operand becomes a constant of the computation dtype, so that
 * kernels never see a Python float as a double on a device without fp64. */
static struct lc_node *lc_settle_operand(struct lc_node *x, int cdtype, struct lc_error *e)
{
    if (!(x->flags & LC_NODE_WEAK) || x->op != LC_OP_CONST) {
        lc_node_retain(x);
        return x;
    }
    return lc_node_const_cast(x, cdtype, x->ndim, x->shape, 0, e);
}

static int lc_check_owner(struct lc_node *const *in, int n, struct lc_error *e)
{
    for (int i = 1; i < n; i++)
        if (in[i]->owner != in[0]->owner) {
            lc_error_set(e, LC_ERR_PLACEMENT,
                         "operands are on different devices or queues; use x.to_device(d) to "
                         "move one of them first");
            return -1;
        }
    return 0;
}

/* Broadcast every input to `shape` and settle weak scalars; fills `out` with
 * new references, or returns -1 with nothing held. */
static int lc_prepare_inputs(struct lc_node *const *in, int n, int cdtype, int ndim,
                             const int64_t *shape, struct lc_node **out, struct lc_error *e)
{
    for (int i = 0; i < n; i++) {
        struct lc_node *s = lc_settle_operand(in[i], cdtype, e);
        /* A 0-d constant is the same at every index: it needs no broadcast
         * view (fusion reads it as a value, whatever the index space). */
        if (s && s->op == LC_OP_CONST && s->ndim == 0) {
            out[i] = s;
            continue;
        }
        struct lc_node *b = s ? lc_node_broadcast_to(s, ndim, shape, e) : NULL;
        lc_node_release(s);
        if (!b) {
            for (int j = 0; j < i; j++)
                lc_node_release(out[j]);
            return -1;
        }
        out[i] = b;
    }
    return 0;
}

static struct lc_node *lc_elementwise(int op, int dtype, int cdtype, struct lc_node *const *in,
                                      int n_in, struct lc_error *e)
{
    int ndim = in[0]->ndim;
    int64_t shape[LC_MAXDIM];
    memcpy(shape, in[0]->shape, sizeof shape);
    for (int i = 1; i < n_in; i++)
        if (lc_broadcast_shapes(ndim, shape, in[i]->ndim, in[i]->shape, &ndim, shape, e))
            return NULL;
    struct lc_node *args[3];
    /* where's condition keeps its own dtype; only values are settled. */
    if (op == LC_OP_WHERE) {
        lc_node_retain(in[0]);
        struct lc_node *c = lc_node_broadcast_to(in[0], ndim, shape, e);
        lc_node_release(in[0]);
        if (!c)
            return NULL;
        if (lc_prepare_inputs(in + 1, 2, cdtype, ndim, shape, args + 1, e) < 0) {
            lc_node_release(c);
            return NULL;
        }
        args[0] = c;
    } else if (lc_prepare_inputs(in, n_in, cdtype, ndim, shape, args, e) < 0) {
        return NULL;
    }
    struct lc_node *n = lc_node_new(op, dtype, ndim, shape, args, n_in, e);
    for (int i = 0; i < n_in; i++)
        lc_node_release(args[i]);
    if (!n)
        return NULL;
    n->cdtype = (uint8_t)cdtype;
    lc_node_seal(n);
    return n;
}

struct lc_node *lc_node_unary(int op, struct lc_node *a, struct lc_error *e)
{
    if (lc_op_kind(op) != LC_KIND_UNARY) {
        lc_error_set(e, LC_ERR_INVALID, "'%s' is not a unary operation", lc_op_name(op));
        return NULL;
    }
    int cdtype, dt = lc_unary_result_dtype(op, a->dtype, &cdtype, e);
    if (dt < 0)
        return NULL;
    if (op == LC_OP_POS) {
        lc_node_retain(a);
        return a;
    }
    return lc_elementwise(op, dt, cdtype, &a, 1, e);
}

/* x ** c for a scalar constant c: NumPy computes x**2 as a square (and
 * x**0.5 as sqrt, x**-1 as a reciprocal); so does lazycl, which also spares
 * the device's pow() (very slow on some CPU runtimes). Other exponents keep
 * POW. */
static struct lc_node *lc_pow_const(struct lc_node *a, struct lc_node *b, int dt, int cdtype,
                                    struct lc_error *e)
{
    double c;
    if (lc_dtype_is_complex(b->dtype) && b->step.f != 0.0)
        c = NAN;                      /* a complex exponent: no shortcut */
    else if (lc_dtype_is_inexact(b->dtype))
        c = b->value.f;
    else if (lc_dtype_kind(b->dtype) == 'u')
        c = (double)b->value.u;
    else
        c = (double)b->value.i;
    int isf = lc_dtype_is_float(cdtype);
    if (c == 2.0 || c == 3.0) {
        struct lc_node *in[2] = {a, a};
        struct lc_node *sq = lc_elementwise(LC_OP_MUL, dt, cdtype, in, 2, e);
        if (!sq || c == 2.0)
            return sq;
        in[0] = sq;
        struct lc_node *cube = lc_elementwise(LC_OP_MUL, dt, cdtype, in, 2, e);
        lc_node_release(sq);
        return cube;
    }
    if (c == 1.0)
        return lc_node_cast(a, dt, e);
    if (isf && c == 0.5)
        return lc_elementwise(LC_OP_SQRT, dt, cdtype, &a, 1, e);
    if (isf && c == -1.0)
        return lc_elementwise(LC_OP_RECIP, dt, cdtype, &a, 1, e);
    struct lc_node *in[2] = {a, b};
    return lc_elementwise(LC_OP_POW, dt, cdtype, in, 2, e);
}

struct lc_node *lc_node_binary(int op, struct lc_node *a, struct lc_node *b, struct lc_error *e)
{
    if (lc_op_kind(op) != LC_KIND_BINARY) {
        lc_error_set(e, LC_ERR_INVALID, "'%s' is not a binary operation", lc_op_name(op));
        return NULL;
    }
    struct lc_node *in[2] = {a, b};
    if (lc_check_owner(in, 2, e) < 0)
        return NULL;
    int cdtype, dt = lc_binary_result_dtype(op, a, b, &cdtype, e);
    if (dt < 0)
        return NULL;
    if (op == LC_OP_POW && b->op == LC_OP_CONST && b->ndim == 0)
        return lc_pow_const(a, b, dt, cdtype, e);
    return lc_elementwise(op, dt, cdtype, in, 2, e);
}

struct lc_node *lc_node_where(struct lc_node *c, struct lc_node *a, struct lc_node *b,
                              struct lc_error *e)
{
    struct lc_node *in[3] = {c, a, b};
    if (lc_check_owner(in, 3, e) < 0)
        return NULL;
    int dt = lc_promote_nodes(a, b);
    return lc_elementwise(LC_OP_WHERE, dt, dt, in, 3, e);
}

struct lc_node *lc_node_cast(struct lc_node *a, int dtype, struct lc_error *e)
{
    if (dtype < 0 || dtype >= LC_NDTYPES) {
        lc_error_set(e, LC_ERR_TYPE, "unsupported dtype");
        return NULL;
    }
    if (a->dtype == dtype) {
        lc_node_retain(a);
        return a;
    }
    if (a->op == LC_OP_CONST)
        return lc_node_const_cast(a, dtype, a->ndim, a->shape, 0, e);
    struct lc_node *n = lc_node_new(LC_OP_CAST, dtype, a->ndim, a->shape, &a, 1, e);
    if (!n)
        return NULL;
    n->cdtype = (uint8_t)dtype;
    lc_node_seal(n);
    return n;
}

/* ---- views ---------------------------------------------------------------------- */

/* NumPy's no-copy reshape of a strided layout: new strides for `nshape`, or
 * -1 when the layout cannot be seen with that shape without a copy. */
static int lc_reshape_strides(int ondim, const int64_t *oshape, const int64_t *ostrides,
                              int nndim, const int64_t *nshape, int64_t *nstrides)
{
    int64_t od[LC_MAXDIM], os[LC_MAXDIM];
    int on = 0;
    /* Sizes that differ are no reshape at all; the walk below would run off
     * both shapes. */
    if (lc_shape_size(ondim, oshape) != lc_shape_size(nndim, nshape))
        return -1;
    for (int i = 0; i < ondim; i++)
        if (oshape[i] != 1) {
            od[on] = oshape[i];
            os[on++] = ostrides[i];
        }
    if (lc_shape_size(nndim, nshape) == 0) {
        lc_shape_strides(nndim, nshape, nstrides);
        return 0;
    }
    int oi = 0, oj = 1, ni = 0, nj = 1;
    while (ni < nndim && oi < on) {
        int64_t np = nshape[ni], op = od[oi];
        while (np != op) {
            if (np < op)
                np *= nshape[nj++];
            else
                op *= od[oj++];
        }
        for (int ok = oi; ok < oj - 1; ok++)
            if (os[ok] != od[ok + 1] * os[ok + 1])
                return -1;
        nstrides[nj - 1] = os[oj - 1];
        for (int nk = nj - 1; nk > ni; nk--)
            nstrides[nk - 1] = nstrides[nk] * nshape[nk];
        ni = nj++;
        oi = oj++;
    }
    /* Trailing ones in the new shape. */
    int64_t last = ni > 0 ? nstrides[ni - 1] : 1;
    for (int nk = ni; nk < nndim; nk++)
        nstrides[nk] = last;
    return 0;
}

struct lc_node *lc_node_reshape(struct lc_node *a, int ndim, const int64_t *shape_in,
                                struct lc_error *e)
{
    int64_t shape[LC_MAXDIM];
    int unknown = -1;
    int64_t known = 1;
    if (ndim > LC_MAXDIM || ndim < 0) {
        lc_error_set(e, LC_ERR_INVALID, "lazycl arrays have at most %d dimensions, got %d",
                     LC_MAXDIM, ndim);
        return NULL;
    }
    for (int i = 0; i < ndim; i++) {
        shape[i] = shape_in[i];
        if (shape[i] == -1) {
            if (unknown >= 0) {
                lc_error_set(e, LC_ERR_INVALID, "can only specify one unknown dimension");
                return NULL;
            }
            unknown = i;
        } else if (shape[i] < 0) {
            lc_error_set(e, LC_ERR_INVALID, "negative dimensions not allowed");
            return NULL;
        } else {
            known *= shape[i];
        }
    }
    if (unknown >= 0) {
        if (known == 0 || a->size % known != 0) {
            char s[256];
            lc_error_set(e, LC_ERR_INVALID, "cannot reshape array of size %lld into shape %s",
                         (long long)a->size, lc_fmt_shape(ndim, shape_in, s, sizeof s));
            return NULL;
        }
        shape[unknown] = a->size / known;
        known *= shape[unknown];
    }
    if (known != a->size) {
        char s[256];
        lc_error_set(e, LC_ERR_INVALID, "cannot reshape array of size %lld into shape %s",
                     (long long)a->size, lc_fmt_shape(ndim, shape_in, s, sizeof s));
        return NULL;
    }
    if (lc_same_shape(a, ndim, shape)) {
        lc_node_retain(a);
        return a;
    }
    if (lc_node_is_leaf(a)) {
        int64_t strides[LC_MAXDIM];
        if (lc_reshape_strides(a->ndim, a->shape, a->strides, ndim, shape, strides) == 0)
            return lc_leaf_view(a, ndim, shape, a->offset, strides, e);
    }
    struct lc_node *n = lc_view_node(LC_OP_RESHAPE, a, ndim, shape, e);
    if (n)
        lc_node_seal(n);
    return n;
}

/* Apply a reshape to a strided layout in place; -1 when it needs a copy. */
int lc_layout_reshape(int *ndim, int64_t *shape, int64_t *strides, int nndim,
                      const int64_t *nshape);
int lc_layout_reshape(int *ndim, int64_t *shape, int64_t *strides, int nndim,
                      const int64_t *nshape)
{
    int64_t ns[LC_MAXDIM];
    if (lc_reshape_strides(*ndim, shape, strides, nndim, nshape, ns) < 0)
        return -1;
    *ndim = nndim;
    memcpy(shape, nshape, (size_t)nndim * sizeof *nshape);
    memcpy(strides, ns, (size_t)nndim * sizeof *ns);
    return 0;
}

struct lc_node *lc_node_permute(struct lc_node *a, const int64_t *perm_in, struct lc_error *e)
{
    int nd = a->ndim;
    int8_t perm[LC_MAXDIM];
    int seen = 0, identity = 1;
    for (int i = 0; i < nd; i++) {
        int64_t p = perm_in[i];
        if (p < -nd || p >= nd) {
            lc_error_set(e, LC_ERR_AXIS, "axis %lld is out of bounds for array of dimension %d",
                         (long long)p, nd);
            return NULL;
        }
        if (p < 0)
            p += nd;
        if (seen & (1 << p)) {
            lc_error_set(e, LC_ERR_INVALID, "repeated axis in transpose");
            return NULL;
        }
        seen |= 1 << p;
        perm[i] = (int8_t)p;
        identity &= p == i;
    }
    if (identity) {
        lc_node_retain(a);
        return a;
    }
    int64_t shape[LC_MAXDIM], strides[LC_MAXDIM];
    for (int i = 0; i < nd; i++) {
        shape[i] = a->shape[perm[i]];
        strides[i] = a->strides[perm[i]];
    }
    if (lc_node_is_leaf(a))
        return lc_leaf_view(a, nd, shape, a->offset, strides, e);
    struct lc_node *n = lc_view_node(LC_OP_PERMUTE, a, nd, shape, e);
    if (!n)
        return NULL;
    memcpy(n->p.perm, perm, sizeof perm);
    lc_node_seal(n);
    return n;
}

struct lc_node *lc_node_broadcast_to(struct lc_node *a, int ndim, const int64_t *shape,
                                     struct lc_error *e)
{
    if (lc_same_shape(a, ndim, shape)) {
        lc_node_retain(a);
        return a;
    }
    int lead = ndim - a->ndim;
    int ok = lead >= 0 && ndim <= LC_MAXDIM;
    for (int i = 0; ok && i < a->ndim; i++)
        ok = a->shape[i] == shape[lead + i] || a->shape[i] == 1;
    for (int i = 0; ok && i < ndim; i++)
        ok = shape[i] >= 0;
    if (!ok) {
        char s1[256], s2[256];
        lc_error_set(e, LC_ERR_SHAPE,
                     "operands could not be broadcast together with remapped shapes "
                     "[original->remapped]: %s and requested shape %s",
                     lc_fmt_shape(a->ndim, a->shape, s1, sizeof s1),
                     lc_fmt_shape(ndim, shape, s2, sizeof s2));
        return NULL;
    }
    if (lc_node_is_leaf(a)) {
        int64_t strides[LC_MAXDIM];
        for (int i = 0; i < ndim; i++) {
            int j = i - lead;
            strides[i] = j < 0 || a->shape[j] != shape[i] ? 0 : a->strides[j];
        }
        return lc_leaf_view(a, ndim, shape, a->offset, strides, e);
    }
    struct lc_node *n = lc_view_node(LC_OP_BROADCAST, a, ndim, shape, e);
    if (n)
        lc_node_seal(n);
    return n;
}

/* A slice of a reshape of a leaf that is strided after all: NumPy's
 * a.reshape(-1)[k::m + 1] on a layout that cannot merge its dims (a transposed
 * or stepped leaf: the diagonal, say). The reshape alone needs a copy, but the
 * slice reads an arithmetic progression of flat indices, and when every one
 * unravels into the leaf's dims without a carry, the leaf's index is affine in
 * the slice's index: a new leaf. The check: the digits of the first element
 * plus each dim's step in digits, extrapolated to the corners of the slice,
 * stay inside the leaf's shape; in range, a digit vector is the one
 * representation of its flat index, so every element in between is right too.
 * Returns 1 with the leaf's offset and strides for the slice, or 0. */
static void lc_unravel(int64_t flat, int ndim, const int64_t *shape, int64_t *digits)
{
    for (int j = ndim - 1; j >= 0; j--) {
        digits[j] = shape[j] ? flat % shape[j] : 0;
        flat = shape[j] ? flat / shape[j] : 0;
    }
}

static int lc_slice_reshaped_leaf(const struct lc_node *a, const int64_t *start,
                                  const int64_t *step, const int64_t *len, int64_t *offset,
                                  int64_t *strides)
{
    const struct lc_node *l = a->in[0];
    int nd = a->ndim, ld = l->ndim;
    int64_t rs[LC_MAXDIM], flat0 = 0;
    int64_t d0[LC_MAXDIM], lo[LC_MAXDIM], hi[LC_MAXDIM], delta[LC_MAXDIM][LC_MAXDIM];
    lc_shape_strides(nd, a->shape, rs);
    for (int d = 0; d < nd; d++) {
        if (len[d] == 0)
            return 0;
        flat0 += start[d] * rs[d];
    }
    lc_unravel(flat0, ld, l->shape, d0);
    memcpy(lo, d0, (size_t)ld * sizeof *d0);
    memcpy(hi, d0, (size_t)ld * sizeof *d0);
    for (int d = 0; d < nd; d++) {
        int64_t next[LC_MAXDIM];
        if (len[d] < 2) {
            memset(delta[d], 0, sizeof delta[d]);
            continue;
        }
        lc_unravel(flat0 + step[d] * rs[d], ld, l->shape, next);
        for (int j = 0; j < ld; j++) {
            delta[d][j] = next[j] - d0[j];
            int64_t reach = delta[d][j] * (len[d] - 1);
            lo[j] += reach < 0 ? reach : 0;
            hi[j] += reach > 0 ? reach : 0;
        }
    }
    for (int j = 0; j < ld; j++)
        if (lo[j] < 0 || hi[j] >= l->shape[j])
            return 0;
    *offset = l->offset;
    for (int j = 0; j < ld; j++)
        *offset += d0[j] * l->strides[j];
    for (int d = 0; d < nd; d++) {
        strides[d] = 0;
        for (int j = 0; j < ld; j++)
            strides[d] += delta[d][j] * l->strides[j];
    }
    return 1;
}

struct lc_node *lc_node_slice(struct lc_node *a, const int64_t *start, const int64_t *step,
                              const int64_t *len, struct lc_error *e)
{
    int nd = a->ndim, identity = 1;
    for (int i = 0; i < nd; i++) {
        if (step[i] == 0) {
            lc_error_set(e, LC_ERR_INVALID, "slice step cannot be zero");
            return NULL;
        }
        if (len[i] < 0 || (len[i] > 0 && (start[i] < 0 || start[i] >= a->shape[i] ||
                                          start[i] + step[i] * (len[i] - 1) < 0 ||
                                          start[i] + step[i] * (len[i] - 1) >= a->shape[i]))) {
            lc_error_set(e, LC_ERR_INDEX, "slice out of range on axis %d", i);
            return NULL;
        }
        identity &= start[i] == 0 && step[i] == 1 && len[i] == a->shape[i];
    }
    if (identity) {
        lc_node_retain(a);
        return a;
    }
    if (lc_node_is_leaf(a)) {
        int64_t strides[LC_MAXDIM], offset = a->offset;
        for (int i = 0; i < nd; i++) {
            if (len[i] > 0)
                offset += start[i] * a->strides[i];
            strides[i] = a->strides[i] * step[i];
        }
        return lc_leaf_view(a, nd, len, offset, strides, e);
    }
    if (a->op == LC_OP_RESHAPE && lc_node_is_leaf(a->in[0])) {
        int64_t strides[LC_MAXDIM], offset;
        if (lc_slice_reshaped_leaf(a, start, step, len, &offset, strides))
            return lc_leaf_view(a->in[0], nd, len, offset, strides, e);
    }
    struct lc_node *n = lc_view_node(LC_OP_SLICE, a, nd, len, e);
    if (!n)
        return NULL;
    for (int i = 0; i < nd; i++) {
        n->p.slice.start[i] = len[i] > 0 ? start[i] : 0;
        n->p.slice.step[i] = step[i];
    }
    lc_node_seal(n);
    return n;
}

/* ---- reductions and scans ------------------------------------------------------- */

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

struct lc_node *lc_node_reduce(int op, struct lc_node *a, uint32_t axes, int ddof, int kind,
                               struct lc_error *e)
{
    if (op == LC_OP_SUM) {
        /* softmax's denominator: one pass with the max instead of a pass after it */
        struct lc_node *f = lc_match_sumexp(a, axes);
        if (f)
            return lc_node_reduce(LC_OP_SUMEXP, f, axes, 0, 0, e);
    }
    if (lc_op_kind(op) != LC_KIND_REDUCE) {
        lc_error_set(e, LC_ERR_INVALID, "'%s' is not a reduction", lc_op_name(op));
        return NULL;
    }
    if (a->ndim < 32 && (axes >> a->ndim) != 0) {
        lc_error_set(e, LC_ERR_AXIS, "axis out of bounds for array of dimension %d", a->ndim);
        return NULL;
    }
    int64_t shape[LC_MAXDIM], nred = 1;
    int nd = 0;
    for (int i = 0; i < a->ndim; i++) {
        if (axes & (1u << i))
            nred *= a->shape[i];
        else
            shape[nd++] = a->shape[i];
    }
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

/* ---- gathers -------------------------------------------------------------------- */

struct lc_node *lc_node_gather(struct lc_node *src, struct lc_node *idx, int axis, int report_axis,
                               struct lc_error *e)
{
    if (lc_check_owner((struct lc_node *const[]){src, idx}, 2, e) < 0)
        return NULL;
    char k = lc_dtype_kind(idx->dtype);
    if (k != 'i' && k != 'u') {
        lc_error_set(e, LC_ERR_INDEX, "arrays used as indices must be of integer (or boolean) type");
        return NULL;
    }
    if (src->ndim != idx->ndim || axis < 0 || axis >= src->ndim) {
        lc_error_set(e, LC_ERR_INVALID, "internal: a gather needs an index of the source's ndim "
                     "and an axis of it");
        return NULL;
    }
    for (int d = 0; d < src->ndim; d++)
        if (d != axis && src->shape[d] != idx->shape[d] && src->shape[d] != 1) {
            lc_error_set(e, LC_ERR_SHAPE, "shape mismatch: the index of shape dim %d (%lld) does "
                         "not match the array's (%lld)", d, (long long)idx->shape[d],
                         (long long)src->shape[d]);
            return NULL;
        }
    if (src->shape[axis] == 0 && idx->size > 0) {
        lc_error_set(e, LC_ERR_INDEX, "index 0 is out of bounds for axis %d with size 0",
                     report_axis);
        return NULL;
    }
    struct lc_node *in[2] = {src, idx};
    struct lc_node *n = lc_node_new(LC_OP_GATHER, src->dtype, idx->ndim, idx->shape, in, 2, e);
    if (!n)
        return NULL;
    n->p.gather.axis = axis;
    n->p.gather.report_axis = report_axis;
    lc_node_seal(n);
    return n;
}
