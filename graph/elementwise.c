/* elementwise.c: the elementwise builders (unary, binary, where, cast), their dtype rules,
 * and broadcasting. */
#include "graph/internal.h"

#include <math.h>
#include <string.h>

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

int lc_check_owner(struct lc_node *const *in, int n, struct lc_error *e)
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

int lc_broadcast_nodes(struct lc_node *const *in, int n_in, int64_t *shape, struct lc_error *e)
{
    int ndim = in[0]->ndim;
    memcpy(shape, in[0]->shape, sizeof in[0]->shape);
    for (int i = 1; i < n_in; i++)
        if (lc_broadcast_shapes(ndim, shape, in[i]->ndim, in[i]->shape, &ndim, shape, e))
            return -1;
    return ndim;
}

static struct lc_node *lc_elementwise(int op, int dtype, int cdtype, struct lc_node *const *in,
                                      int n_in, struct lc_error *e)
{
    int64_t shape[LC_MAXDIM];
    int ndim = lc_broadcast_nodes(in, n_in, shape, e);
    if (ndim < 0)
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
