/* py_array.c: the lazy Array base type, operators, basic indexing and graph builders for Python.
 *
 * An Array holds one graph node and the Queue object its graph belongs to.
 * Operators build nodes in C (no Python-level work per node); the richer
 * NumPy namespace lives in the Python package and calls the builders here.
 * The Python subclass lazycl.Array is registered once at import
 * (_set_array_class) and every array made here is of that class.
 */
#include "lcpy.h"

#define PY_ARRAY_UNIQUE_SYMBOL lc_py_ARRAY_API
#include <numpy/arrayobject.h>
#include <numpy/arrayscalars.h>

#include "engine/engine.h"
#include "fusion/fusion.h"
#include "graph/graph.h"

#include <string.h>

typedef struct {
    PyObject_HEAD
    struct lc_node *node;
    PyObject *queue;      /* lazycl.Queue (owned) */
} lc_py_Array;

static PyTypeObject lc_py_ArrayBaseType;
/* The Python subclass instances are made of; set once at import, under the GIL. */
static PyTypeObject *lc_py_array_cls = &lc_py_ArrayBaseType;

#define LC_IS_ARRAY(o) PyObject_TypeCheck((o), &lc_py_ArrayBaseType)

static lc_queue_t lc_q(PyObject *queue) { return ((lc_py_Queue *)queue)->q; }

/* Wrap a node: takes over the reference to `node`, borrows `queue`. */
static PyObject *lc_wrap(struct lc_node *node, PyObject *queue)
{
    if (!node)
        return NULL;
    lc_py_Array *a = (lc_py_Array *)lc_py_array_cls->tp_alloc(lc_py_array_cls, 0);
    if (!a) {
        lc_node_release(node);
        return NULL;
    }
    a->node = node;
    a->queue = Py_NewRef(queue);
    return (PyObject *)a;
}

static PyObject *lc_fail(struct lc_error *e)
{
    return lc_py_raise(e);
}

/* ---- dtypes --------------------------------------------------------------------------- */

static int lc_dtype_from_descr(PyArray_Descr *d)
{
    int sz = (int)PyDataType_ELSIZE(d);
    switch (d->kind) {
    case 'b': return LC_BOOL;
    case 'i': return sz == 1 ? LC_INT8 : sz == 2 ? LC_INT16 : sz == 4 ? LC_INT32 : sz == 8 ? LC_INT64 : -1;
    case 'u': return sz == 1 ? LC_UINT8 : sz == 2 ? LC_UINT16 : sz == 4 ? LC_UINT32 : sz == 8 ? LC_UINT64 : -1;
    case 'f': return sz == 4 ? LC_FLOAT32 : sz == 8 ? LC_FLOAT64 : -1;
    default: return -1;
    }
}

static int lc_npy_type(int dt)
{
    static const int map[LC_NDTYPES] = {
        [LC_BOOL] = NPY_BOOL, [LC_INT8] = NPY_INT8, [LC_INT16] = NPY_INT16,
        [LC_INT32] = NPY_INT32, [LC_INT64] = NPY_INT64, [LC_UINT8] = NPY_UINT8,
        [LC_UINT16] = NPY_UINT16, [LC_UINT32] = NPY_UINT32, [LC_UINT64] = NPY_UINT64,
        [LC_FLOAT32] = NPY_FLOAT32, [LC_FLOAT64] = NPY_FLOAT64,
    };
    return map[dt];
}

/* Parse anything np.dtype() takes; -1 with TypeError for what lazycl lacks.
 * None gives `dflt`. */
static int lc_parse_dtype(PyObject *o, int dflt)
{
    if (o == NULL || o == Py_None)
        return dflt;
    PyArray_Descr *d = NULL;
    if (!PyArray_DescrConverter2(o, &d))
        return -2;
    if (!d)
        return dflt;
    int dt = lc_dtype_from_descr(d);
    if (dt < 0) {
        PyErr_Format(PyExc_TypeError,
                     "lazycl does not support dtype %R (supported: bool, int8-64, uint8-64, "
                     "float32, float64)", (PyObject *)d);
        Py_DECREF(d);
        return -2;
    }
    Py_DECREF(d);
    return dt;
}

/* ---- scalars and operands --------------------------------------------------------------- */

/* A Python int as an lc_scalar: -1 with OverflowError past uint64. *is_u is
 * set when it needs uint64 (above int64's range). */
static int lc_pyint_value(PyObject *o, union lc_scalar *v, int *is_u)
{
    int overflow = 0;
    long long x = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (x == -1 && PyErr_Occurred())
        return -1;
    *is_u = 0;
    if (!overflow) {
        v->i = x;
        return 0;
    }
    if (overflow > 0) {
        unsigned long long u = PyLong_AsUnsignedLongLong(o);
        if (u == (unsigned long long)-1 && PyErr_Occurred()) {
            PyErr_Clear();
            goto too_big;
        }
        v->u = u;
        *is_u = 1;
        return 0;
    }
too_big:
    PyErr_Format(PyExc_OverflowError, "Python integer %R out of bounds for int64", o);
    return -1;
}

static int lc_int_fits(int dt, union lc_scalar v, int is_u)
{
    if (is_u)
        return dt == LC_UINT64;
    int64_t x = v.i;
    switch (dt) {
    case LC_INT8: return x >= -128 && x <= 127;
    case LC_INT16: return x >= -32768 && x <= 32767;
    case LC_INT32: return x >= INT32_MIN && x <= INT32_MAX;
    case LC_INT64: return 1;
    case LC_UINT8: return x >= 0 && x <= 255;
    case LC_UINT16: return x >= 0 && x <= 65535;
    case LC_UINT32: return x >= 0 && x <= (int64_t)UINT32_MAX;
    case LC_UINT64: return x >= 0;
    default: return 1;
    }
}

static int lc_scalar_from_numpy(PyObject *o, int *dt, union lc_scalar *v)
{
    PyArray_Descr *d = PyArray_DescrFromScalar(o);
    if (!d)
        return -1;
    *dt = lc_dtype_from_descr(d);
    Py_DECREF(d);
    if (*dt < 0) {
        PyErr_Format(PyExc_TypeError, "lazycl does not support scalars of type %s",
                     Py_TYPE(o)->tp_name);
        return -1;
    }
    union {
        npy_bool b; npy_int8 i8; npy_int16 i16; npy_int32 i32; npy_int64 i64;
        npy_uint8 u8; npy_uint16 u16; npy_uint32 u32; npy_uint64 u64;
        npy_float32 f32; npy_float64 f64;
    } raw;
    PyArray_ScalarAsCtype(o, &raw);
    switch (*dt) {
    case LC_BOOL: v->i = raw.b != 0; break;
    case LC_INT8: v->i = raw.i8; break;
    case LC_INT16: v->i = raw.i16; break;
    case LC_INT32: v->i = raw.i32; break;
    case LC_INT64: v->i = raw.i64; break;
    case LC_UINT8: v->u = raw.u8; break;
    case LC_UINT16: v->u = raw.u16; break;
    case LC_UINT32: v->u = raw.u32; break;
    case LC_UINT64: v->u = raw.u64; break;
    case LC_FLOAT32: v->f = raw.f32; break;
    default: v->f = raw.f64; break;
    }
    return 0;
}

/* Upload a NumPy array (any layout, byte order, writability) to q. */
static struct lc_node *lc_upload(PyObject *queue, PyArrayObject *arr, int want_dt)
{
    int dt = lc_dtype_from_descr(PyArray_DESCR(arr));
    if (dt < 0) {
        PyErr_Format(PyExc_TypeError,
                     "lazycl does not support dtype %R (supported: bool, int8-64, uint8-64, "
                     "float32, float64)", (PyObject *)PyArray_DESCR(arr));
        return NULL;
    }
    if (want_dt >= 0)
        dt = want_dt;
    PyArray_Descr *nd = PyArray_DescrFromType(lc_npy_type(dt));
    /* A C-contiguous, aligned, native-order copy (or the array itself). */
    PyArrayObject *c = (PyArrayObject *)PyArray_FromAny((PyObject *)arr, nd, 0, 0,
                                                        NPY_ARRAY_C_CONTIGUOUS | NPY_ARRAY_ALIGNED |
                                                            NPY_ARRAY_FORCECAST,
                                                        NULL);
    if (!c)
        return NULL;
    int ndim = PyArray_NDIM(c);
    if (ndim > LC_MAXDIM) {
        Py_DECREF(c);
        PyErr_Format(PyExc_ValueError, "lazycl arrays have at most %d dimensions, got %d",
                     LC_MAXDIM, ndim);
        return NULL;
    }
    int64_t shape[LC_MAXDIM];
    for (int i = 0; i < ndim; i++)
        shape[i] = PyArray_DIM(c, i);
    struct lc_error e = {0};
    struct lc_node *n;
    lc_queue_t q = lc_q(queue);
    const void *data = PyArray_DATA(c);
    Py_BEGIN_ALLOW_THREADS
    n = lc_engine_from_host(q, dt, ndim, shape, data, &e);
    Py_END_ALLOW_THREADS
    Py_DECREF(c);
    if (!n)
        lc_py_raise(&e);
    return n;
}

/* Turn an operand into a node owned by `queue`. Python scalars are weak. */
static struct lc_node *lc_operand(PyObject *o, PyObject *queue)
{
    struct lc_error e = {0};
    union lc_scalar v;
    if (LC_IS_ARRAY(o)) {
        lc_node_retain(((lc_py_Array *)o)->node);
        return ((lc_py_Array *)o)->node;
    }
    /* NumPy scalars are strong (they have a dtype); test them first, since
     * np.float64 is a subclass of Python's float. */
    if (PyArray_IsScalar(o, Generic)) {
        int dt;
        if (lc_scalar_from_numpy(o, &dt, &v) < 0)
            return NULL;
        struct lc_node *n = lc_node_const(lc_q(queue), dt, v, 0, NULL, 0, &e);
        return n ? n : (lc_py_raise(&e), NULL);
    }
    if (PyBool_Check(o)) {
        v.i = o == Py_True;
        struct lc_node *n = lc_node_const(lc_q(queue), LC_BOOL, v, 0, NULL,
                                          LC_NODE_WEAK | LC_NODE_WEAK_BOOL, &e);
        return n ? n : (lc_py_raise(&e), NULL);
    }
    if (PyLong_Check(o)) {
        int is_u;
        if (lc_pyint_value(o, &v, &is_u) < 0)
            return NULL;
        struct lc_node *n = lc_node_const(lc_q(queue), is_u ? LC_UINT64 : LC_INT64, v, 0, NULL,
                                          LC_NODE_WEAK, &e);
        return n ? n : (lc_py_raise(&e), NULL);
    }
    if (PyFloat_Check(o)) {
        v.f = PyFloat_AS_DOUBLE(o);
        struct lc_node *n = lc_node_const(lc_q(queue), LC_FLOAT64, v, 0, NULL,
                                          LC_NODE_WEAK | LC_NODE_WEAK_FLOAT, &e);
        return n ? n : (lc_py_raise(&e), NULL);
    }
    if (PyComplex_Check(o)) {
        PyErr_SetString(PyExc_TypeError, "lazycl does not support complex numbers");
        return NULL;
    }
    PyArrayObject *arr = (PyArrayObject *)PyArray_FROM_O(o);
    if (!arr)
        return NULL;
    struct lc_node *n = lc_upload(queue, arr, -1);
    Py_DECREF(arr);
    return n;
}

/* A weak Python int next to an integer array must fit the array's dtype. */
static int lc_check_weak_int(struct lc_node *w, struct lc_node *other)
{
    if (!(w->flags & LC_NODE_WEAK) || (w->flags & (LC_NODE_WEAK_FLOAT | LC_NODE_WEAK_BOOL)))
        return 0;
    if (other->flags & LC_NODE_WEAK)
        return 0;
    int dt = other->dtype;
    int is_u = w->dtype == LC_UINT64;
    if (!lc_dtype_is_int(dt)) {
        if (dt == LC_BOOL && is_u) {
            PyErr_Format(PyExc_OverflowError, "Python integer %llu out of bounds for int64",
                         (unsigned long long)w->value.u);
            return -1;
        }
        return 0;
    }
    if (!lc_int_fits(dt, w->value, is_u)) {
        if (is_u)
            PyErr_Format(PyExc_OverflowError, "Python integer %llu out of bounds for %s",
                         (unsigned long long)w->value.u, lc_dtype_name(dt));
        else
            PyErr_Format(PyExc_OverflowError, "Python integer %lld out of bounds for %s",
                         (long long)w->value.i, lc_dtype_name(dt));
        return -1;
    }
    return 0;
}

static PyObject *lc_placement_error(PyObject *qa, PyObject *qb)
{
    PyObject *da = ((lc_py_Queue *)qa)->device, *db = ((lc_py_Queue *)qb)->device;
    if (da == db)
        PyErr_Format(lc_py_PlacementError,
                     "operands live on different queues of device %R; compute one and use "
                     "x.to_device(queue) to move it", da);
    else
        PyErr_Format(lc_py_PlacementError,
                     "operands live on different devices: %R and %R (compute follows data; use "
                     "x.to_device(d) to move one first)", da, db);
    return NULL;
}

/* The queue of a binary/ternary expression: that of its Array operands. */
static PyObject *lc_common_queue(PyObject *const *ops, int n)
{
    PyObject *q = NULL;
    for (int i = 0; i < n; i++) {
        if (!LC_IS_ARRAY(ops[i]))
            continue;
        PyObject *qi = ((lc_py_Array *)ops[i])->queue;
        if (!q)
            q = qi;
        else if (qi != q && lc_q(qi) != lc_q(q))
            return lc_placement_error(q, qi);
    }
    if (!q) {
        PyErr_SetString(PyExc_TypeError, "expected at least one lazycl array operand");
        return NULL;
    }
    return q;
}

static int lc_op_rule_is_compare(int op)
{
    return op == LC_OP_EQ || op == LC_OP_NE || op == LC_OP_LT || op == LC_OP_LE ||
           op == LC_OP_GT || op == LC_OP_GE;
}

/* A weak Python int outside `other`'s integer dtype becomes a strong
 * int64/uint64 constant (replacing *w). */
static void lc_strengthen_wide_int(struct lc_node **w, struct lc_node *other)
{
    struct lc_node *x = *w;
    if (!(x->flags & LC_NODE_WEAK) || (x->flags & (LC_NODE_WEAK_FLOAT | LC_NODE_WEAK_BOOL)) ||
        (other->flags & LC_NODE_WEAK) || !lc_dtype_is_int(other->dtype))
        return;
    if (lc_int_fits(other->dtype, x->value, x->dtype == LC_UINT64))
        return;
    struct lc_error e = {0};
    struct lc_node *s = lc_node_const(x->owner, x->dtype, x->value, 0, NULL, 0, &e);
    if (!s)
        return;
    lc_node_release(x);
    *w = s;
}

static PyObject *lc_binary_obj(int op, PyObject *a, PyObject *b)
{
    PyObject *ops[2] = {a, b};
    PyObject *q = lc_common_queue(ops, 2);
    if (!q)
        return NULL;
    struct lc_node *na = lc_operand(a, q);
    if (!na)
        return NULL;
    struct lc_node *nb = lc_operand(b, q);
    if (!nb) {
        lc_node_release(na);
        return NULL;
    }
    struct lc_node *r = NULL;
    if (lc_op_rule_is_compare(op)) {
        /* NumPy 2 compares a Python int with an integer array by value, even
         * out of the array's range (int8 == 1000 is False): such a scalar
         * becomes a strong int64 (or uint64) so the comparison widens. */
        lc_strengthen_wide_int(&na, nb);
        lc_strengthen_wide_int(&nb, na);
        struct lc_error e = {0};
        r = lc_node_binary(op, na, nb, &e);
        if (!r)
            lc_py_raise(&e);
    } else if (lc_check_weak_int(na, nb) == 0 && lc_check_weak_int(nb, na) == 0) {
        struct lc_error e = {0};
        r = lc_node_binary(op, na, nb, &e);
        if (!r)
            lc_py_raise(&e);
    }
    lc_node_release(na);
    lc_node_release(nb);
    return lc_wrap(r, q);
}

/* Operator slots: NotImplemented for operands we cannot take. */
static int lc_takes(PyObject *o)
{
    return LC_IS_ARRAY(o) || PyBool_Check(o) || PyLong_Check(o) || PyFloat_Check(o) ||
           PyArray_Check(o) || PyArray_IsScalar(o, Generic) || PyList_Check(o) || PyTuple_Check(o);
}

#define LC_BINOP(fn, OP)                                           \
    static PyObject *fn(PyObject *a, PyObject *b)                  \
    {                                                              \
        if (!lc_takes(a) || !lc_takes(b))                          \
            Py_RETURN_NOTIMPLEMENTED;                              \
        return lc_binary_obj(OP, a, b);                            \
    }
LC_BINOP(Array_add, LC_OP_ADD)
LC_BINOP(Array_sub, LC_OP_SUB)
LC_BINOP(Array_mul, LC_OP_MUL)
LC_BINOP(Array_truediv, LC_OP_DIV)
LC_BINOP(Array_floordiv, LC_OP_FLOORDIV)
LC_BINOP(Array_mod, LC_OP_MOD)
LC_BINOP(Array_and, LC_OP_AND)
LC_BINOP(Array_or, LC_OP_OR)
LC_BINOP(Array_xor, LC_OP_XOR)
LC_BINOP(Array_lshift, LC_OP_LSHIFT)
LC_BINOP(Array_rshift, LC_OP_RSHIFT)

static PyObject *Array_pow(PyObject *a, PyObject *b, PyObject *mod)
{
    if (mod != Py_None) {
        PyErr_SetString(PyExc_TypeError, "lazycl does not support pow() with a modulus");
        return NULL;
    }
    if (!lc_takes(a) || !lc_takes(b))
        Py_RETURN_NOTIMPLEMENTED;
    /* NumPy refuses negative integer powers of integers. */
    if (LC_IS_ARRAY(a) && PyLong_Check(b) && !PyBool_Check(b) &&
        lc_dtype_is_int(((lc_py_Array *)a)->node->dtype)) {
        int overflow = 0;
        long long x = PyLong_AsLongLongAndOverflow(b, &overflow);
        if ((x < 0 && !PyErr_Occurred()) || overflow < 0) {
            PyErr_SetString(PyExc_ValueError, "Integers to negative integer powers are not allowed.");
            return NULL;
        }
        PyErr_Clear();
    }
    return lc_binary_obj(LC_OP_POW, a, b);
}

static PyObject *lc_unary_obj(int op, PyObject *a)
{
    lc_py_Array *x = (lc_py_Array *)a;
    struct lc_error e = {0};
    struct lc_node *r = lc_node_unary(op, x->node, &e);
    if (!r)
        return lc_fail(&e);
    return lc_wrap(r, x->queue);
}

static PyObject *Array_neg(PyObject *a) { return lc_unary_obj(LC_OP_NEG, a); }
static PyObject *Array_pos(PyObject *a) { return lc_unary_obj(LC_OP_POS, a); }
static PyObject *Array_abs(PyObject *a) { return lc_unary_obj(LC_OP_ABS, a); }
static PyObject *Array_invert(PyObject *a) { return lc_unary_obj(LC_OP_NOT, a); }

static PyObject *Array_richcompare(PyObject *a, PyObject *b, int op)
{
    if (!lc_takes(a) || !lc_takes(b))
        Py_RETURN_NOTIMPLEMENTED;
    static const int ops[] = {[Py_LT] = LC_OP_LT, [Py_LE] = LC_OP_LE, [Py_EQ] = LC_OP_EQ,
                              [Py_NE] = LC_OP_NE, [Py_GT] = LC_OP_GT, [Py_GE] = LC_OP_GE};
    return lc_binary_obj(ops[op], a, b);
}

/* ---- forcing and reading ----------------------------------------------------------------- */

/* Force the nodes of `arrays` (a sequence of Arrays); groups by queue. With
 * `copy_leaves`, views and constants become contiguous buffers too. With
 * `wait`, waits (GIL released) until the device is done. */
static int lc_force(PyObject *const *arrays, Py_ssize_t n, int copy_leaves, int wait)
{
    Py_ssize_t done = 0;
    struct lc_node **nodes = PyMem_Malloc((size_t)(n ? n : 1) * sizeof *nodes);
    char *taken = PyMem_Calloc((size_t)(n ? n : 1), 1);
    if (!nodes || !taken) {
        PyMem_Free(nodes);
        PyMem_Free(taken);
        PyErr_NoMemory();
        return -1;
    }
    int rc = 0;
    while (done < n && rc == 0) {
        PyObject *queue = NULL;
        size_t m = 0;
        for (Py_ssize_t i = 0; i < n; i++) {
            if (taken[i])
                continue;
            lc_py_Array *a = (lc_py_Array *)arrays[i];
            if (!queue)
                queue = a->queue;
            if (lc_q(a->queue) != lc_q(queue))
                continue;
            taken[i] = 1;
            done++;
            nodes[m++] = a->node;
        }
        struct lc_error e = {0};
        lc_status st;
        lc_queue_t q = lc_q(queue);
        /* Fusion and codegen are quick and host-only; program builds and
         * enqueues may take time: the GIL is released for all of it. Nodes
         * are not touched by other threads meanwhile as long as the caller
         * holds references (the arrays do). */
        Py_BEGIN_ALLOW_THREADS
        st = lc_engine_force(q, nodes, m, copy_leaves ? LC_FUSE_COPY_LEAVES : 0, &e);
        if (st == LC_OK && wait)
            st = lc_queue_finish(q, &e);
        Py_END_ALLOW_THREADS
        if (st != LC_OK) {
            lc_py_raise(&e);
            rc = -1;
        }
    }
    PyMem_Free(nodes);
    PyMem_Free(taken);
    return rc;
}

static PyObject *Array_compute(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    if (lc_force(&self, 1, 0, 1) < 0)
        return NULL;
    return Py_NewRef(self);
}

/* A new NumPy array with the values (forces and waits). */
static PyObject *Array_numpy(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    lc_py_Array *a = (lc_py_Array *)self;
    if (lc_force(&self, 1, 1, 0) < 0)
        return NULL;
    npy_intp dims[LC_MAXDIM];
    for (int i = 0; i < a->node->ndim; i++)
        dims[i] = (npy_intp)a->node->shape[i];
    PyObject *out = PyArray_SimpleNew(a->node->ndim, dims, lc_npy_type(a->node->dtype));
    if (!out)
        return NULL;
    struct lc_error e = {0};
    lc_status st;
    void *dst = PyArray_DATA((PyArrayObject *)out);
    lc_queue_t q = lc_q(a->queue);
    struct lc_node *n = a->node;
    Py_BEGIN_ALLOW_THREADS
    st = lc_engine_read(q, n, dst, &e);
    Py_END_ALLOW_THREADS
    if (st != LC_OK) {
        Py_DECREF(out);
        return lc_fail(&e);
    }
    return out;
}

/* ---- indexing ---------------------------------------------------------------------------- */

static PyObject *Array_getitem(PyObject *self, PyObject *key)
{
    lc_py_Array *a = (lc_py_Array *)self;
    struct lc_node *n = a->node;
    PyObject *items;
    if (PyTuple_Check(key))
        items = Py_NewRef(key);
    else
        items = PyTuple_Pack(1, key);
    if (!items)
        return NULL;
    Py_ssize_t nk = PyTuple_GET_SIZE(items);
    int consumed = 0, ellipsis = 0;
    for (Py_ssize_t i = 0; i < nk; i++) {
        PyObject *k = PyTuple_GET_ITEM(items, i);
        if (k == Py_Ellipsis) {
            if (ellipsis++) {
                Py_DECREF(items);
                PyErr_SetString(PyExc_IndexError, "an index can only have a single ellipsis ('...')");
                return NULL;
            }
        } else if (k == Py_None) {
        } else if (PySlice_Check(k) || PyIndex_Check(k)) {
            if (PyBool_Check(k) || (PyArray_IsScalar(k, Bool))) {
                Py_DECREF(items);
                PyErr_SetString(PyExc_IndexError,
                                "lazycl does not support boolean indexing yet; use lazycl.where");
                return NULL;
            }
            consumed++;
        } else {
            Py_DECREF(items);
            PyErr_Format(PyExc_IndexError,
                         "only integers, slices (`:`), ellipsis (`...`) and None (`numpy.newaxis`) "
                         "are valid lazycl indices (got %s); integer and boolean array indexing "
                         "is not supported yet", Py_TYPE(k)->tp_name);
            return NULL;
        }
    }
    if (consumed > n->ndim) {
        Py_DECREF(items);
        PyErr_Format(PyExc_IndexError,
                     "too many indices for array: array is %d-dimensional, but %d were indexed",
                     n->ndim, consumed);
        return NULL;
    }
    int64_t start[LC_MAXDIM], step[LC_MAXDIM], len[LC_MAXDIM], oshape[LC_MAXDIM];
    int dim = 0, ond = 0;
    for (Py_ssize_t i = 0; i < nk; i++) {
        PyObject *k = PyTuple_GET_ITEM(items, i);
        if (k == Py_Ellipsis) {
            int fill = n->ndim - consumed;
            for (int j = 0; j < fill; j++, dim++) {
                start[dim] = 0;
                step[dim] = 1;
                len[dim] = n->shape[dim];
                oshape[ond++] = n->shape[dim];
            }
        } else if (k == Py_None) {
            if (ond >= LC_MAXDIM)
                goto too_many_dims;
            oshape[ond++] = 1;
        } else if (PySlice_Check(k)) {
            Py_ssize_t s0, s1, st;
            if (PySlice_Unpack(k, &s0, &s1, &st) < 0) {
                Py_DECREF(items);
                return NULL;
            }
            Py_ssize_t l = PySlice_AdjustIndices((Py_ssize_t)n->shape[dim], &s0, &s1, st);
            start[dim] = l > 0 ? s0 : 0;
            step[dim] = st;
            len[dim] = l;
            if (ond >= LC_MAXDIM)
                goto too_many_dims;
            oshape[ond++] = l;
            dim++;
        } else {
            Py_ssize_t x = PyNumber_AsSsize_t(k, PyExc_IndexError);
            if (x == -1 && PyErr_Occurred()) {
                Py_DECREF(items);
                return NULL;
            }
            int64_t size = n->shape[dim];
            if (x < -size || x >= size) {
                Py_DECREF(items);
                PyErr_Format(PyExc_IndexError,
                             "index %zd is out of bounds for axis %d with size %lld", x, dim,
                             (long long)size);
                return NULL;
            }
            start[dim] = x < 0 ? x + size : x;
            step[dim] = 1;
            len[dim] = 1;
            dim++;
        }
    }
    for (; dim < n->ndim; dim++) {
        start[dim] = 0;
        step[dim] = 1;
        len[dim] = n->shape[dim];
        if (ond >= LC_MAXDIM)
            goto too_many_dims;
        oshape[ond++] = n->shape[dim];
    }
    Py_DECREF(items);
    struct lc_error e = {0};
    struct lc_node *s = lc_node_slice(n, start, step, len, &e);
    if (!s)
        return lc_fail(&e);
    struct lc_node *r = lc_node_reshape(s, ond, oshape, &e);
    lc_node_release(s);
    if (!r)
        return lc_fail(&e);
    return lc_wrap(r, a->queue);
too_many_dims:
    Py_DECREF(items);
    PyErr_Format(PyExc_IndexError, "lazycl arrays have at most %d dimensions", LC_MAXDIM);
    return NULL;
}

static int Array_setitem(PyObject *self, PyObject *key, PyObject *value)
{
    (void)self;
    (void)key;
    (void)value;
    PyErr_SetString(PyExc_TypeError,
                    "lazycl arrays are immutable: build a new array instead (e.g. with "
                    "lazycl.where)");
    return -1;
}

static Py_ssize_t Array_length(PyObject *self)
{
    struct lc_node *n = ((lc_py_Array *)self)->node;
    if (n->ndim == 0) {
        PyErr_SetString(PyExc_TypeError, "len() of unsized object");
        return -1;
    }
    return (Py_ssize_t)n->shape[0];
}

/* ---- attributes ------------------------------------------------------------------------- */

static PyObject *Array_get_shape(lc_py_Array *self, void *Py_UNUSED(c))
{
    PyObject *t = PyTuple_New(self->node->ndim);
    if (!t)
        return NULL;
    for (int i = 0; i < self->node->ndim; i++) {
        PyObject *v = PyLong_FromLongLong(self->node->shape[i]);
        if (!v) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, v);
    }
    return t;
}

static PyObject *Array_get_dtype(lc_py_Array *self, void *Py_UNUSED(c))
{
    return (PyObject *)PyArray_DescrFromType(lc_npy_type(self->node->dtype));
}

static PyObject *Array_get_ndim(lc_py_Array *self, void *Py_UNUSED(c))
{
    return PyLong_FromLong(self->node->ndim);
}

static PyObject *Array_get_size(lc_py_Array *self, void *Py_UNUSED(c))
{
    return PyLong_FromLongLong(self->node->size);
}

static PyObject *Array_get_device(lc_py_Array *self, void *Py_UNUSED(c))
{
    return Py_NewRef(((lc_py_Queue *)self->queue)->device);
}

static PyObject *Array_get_queue(lc_py_Array *self, void *Py_UNUSED(c))
{
    return Py_NewRef(self->queue);
}

static PyObject *Array_get_pending(lc_py_Array *self, void *Py_UNUSED(c))
{
    return PyBool_FromLong(!lc_node_is_leaf(self->node));
}

static PyObject *Array_get_op(lc_py_Array *self, void *Py_UNUSED(c))
{
    return PyUnicode_FromString(lc_op_name(self->node->op));
}

static PyObject *Array_get_T(lc_py_Array *self, void *Py_UNUSED(c))
{
    int64_t perm[LC_MAXDIM];
    int nd = self->node->ndim;
    for (int i = 0; i < nd; i++)
        perm[i] = nd - 1 - i;
    struct lc_error e = {0};
    struct lc_node *r = lc_node_permute(self->node, perm, &e);
    return r ? lc_wrap(r, self->queue) : lc_fail(&e);
}

static PyGetSetDef Array_getset[] = {
    {"shape", (getter)Array_get_shape, NULL, "The shape, a tuple of ints.", NULL},
    {"dtype", (getter)Array_get_dtype, NULL, "The NumPy dtype of the elements.", NULL},
    {"ndim", (getter)Array_get_ndim, NULL, "The number of dimensions.", NULL},
    {"size", (getter)Array_get_size, NULL, "The number of elements.", NULL},
    {"device", (getter)Array_get_device, NULL, "The lazycl.Device that holds the data.", NULL},
    {"queue", (getter)Array_get_queue, NULL, "The lazycl.Queue whose graph the array is in.", NULL},
    {"pending", (getter)Array_get_pending, NULL, "True until the array has been computed.", NULL},
    {"_op", (getter)Array_get_op, NULL, "The op of the array's graph node (for tests).", NULL},
    {"T", (getter)Array_get_T, NULL, "The transpose (a view).", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMethodDef Array_methods[] = {
    {"compute", Array_compute, METH_NOARGS,
     "Run the pending graph under this array and wait until it is ready on its device; returns self."},
    {"numpy", Array_numpy, METH_NOARGS, "Compute and copy to a new NumPy array."},
    {NULL, NULL, 0, NULL},
};

static void Array_dealloc(lc_py_Array *self)
{
    PyObject_GC_UnTrack(self);
    lc_node_release(self->node);
    Py_CLEAR(self->queue);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int Array_traverse(lc_py_Array *self, visitproc visit, void *arg)
{
    Py_VISIT(self->queue);
    Py_VISIT(Py_TYPE(self));
    return 0;
}

static int Array_clear(lc_py_Array *self)
{
    Py_CLEAR(self->queue);
    return 0;
}

static PyObject *Array_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    (void)type;
    (void)args;
    (void)kwds;
    PyErr_SetString(PyExc_TypeError,
                    "lazycl arrays are made with lazycl.asarray, lazycl.zeros, ... not Array()");
    return NULL;
}

static PyNumberMethods Array_as_number = {
    .nb_add = Array_add,
    .nb_subtract = Array_sub,
    .nb_multiply = Array_mul,
    .nb_remainder = Array_mod,
    .nb_power = Array_pow,
    .nb_negative = Array_neg,
    .nb_positive = Array_pos,
    .nb_absolute = Array_abs,
    .nb_invert = Array_invert,
    .nb_lshift = Array_lshift,
    .nb_rshift = Array_rshift,
    .nb_and = Array_and,
    .nb_xor = Array_xor,
    .nb_or = Array_or,
    .nb_floor_divide = Array_floordiv,
    .nb_true_divide = Array_truediv,
};

static PyMappingMethods Array_as_mapping = {
    .mp_length = Array_length,
    .mp_subscript = Array_getitem,
    .mp_ass_subscript = Array_setitem,
};

static PyTypeObject lc_py_ArrayBaseType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "lazycl._lazycl.ArrayBase",
    .tp_basicsize = sizeof(lc_py_Array),
    .tp_dealloc = (destructor)Array_dealloc,
    .tp_as_number = &Array_as_number,
    .tp_as_mapping = &Array_as_mapping,
    .tp_richcompare = Array_richcompare,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = (traverseproc)Array_traverse,
    .tp_clear = (inquiry)Array_clear,
    .tp_doc = "A lazy n-dimensional array on an OpenCL device (the C base of lazycl.Array).",
    .tp_methods = Array_methods,
    .tp_getset = Array_getset,
    .tp_new = Array_new,
};

/* ---- module-level builders ---------------------------------------------------------------- */

static int lc_opcode(PyObject *name)
{
    const char *s = PyUnicode_AsUTF8(name);
    if (!s)
        return -1;
    for (int op = 0; op < LC_OP_COUNT; op++)
        if (!strcmp(lc_op_name(op), s) || !strcmp(lc_op_enum_name(op), s))
            return op;
    PyErr_Format(PyExc_ValueError, "unknown lazycl op '%s'", s);
    return -1;
}

static lc_py_Array *lc_as_array(PyObject *o)
{
    if (!LC_IS_ARRAY(o)) {
        PyErr_Format(PyExc_TypeError, "expected a lazycl array, got %s", Py_TYPE(o)->tp_name);
        return NULL;
    }
    return (lc_py_Array *)o;
}

/* Read a sequence of ints into out (at most LC_MAXDIM). */
static int lc_int_seq(PyObject *seq, int64_t *out, const char *what)
{
    if (PyLong_Check(seq) || PyIndex_Check(seq)) {
        Py_ssize_t v = PyNumber_AsSsize_t(seq, PyExc_OverflowError);
        if (v == -1 && PyErr_Occurred())
            return -1;
        out[0] = v;
        return 1;
    }
    PyObject *f = PySequence_Fast(seq, what);
    if (!f)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(f);
    if (n > LC_MAXDIM) {
        Py_DECREF(f);
        PyErr_Format(PyExc_ValueError, "lazycl arrays have at most %d dimensions, got %zd",
                     LC_MAXDIM, n);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *it = PySequence_Fast_GET_ITEM(f, i);
        Py_ssize_t v = PyNumber_AsSsize_t(it, PyExc_OverflowError);
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(f);
            if (PyErr_ExceptionMatches(PyExc_TypeError)) {
                PyErr_Clear();
                PyErr_Format(PyExc_TypeError, "%s must be integers", what);
            }
            return -1;
        }
        out[i] = v;
    }
    Py_DECREF(f);
    return (int)n;
}

static PyObject *py_set_array_class(PyObject *Py_UNUSED(m), PyObject *cls)
{
    if (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject *)cls, &lc_py_ArrayBaseType)) {
        PyErr_SetString(PyExc_TypeError, "expected a subclass of ArrayBase");
        return NULL;
    }
    Py_INCREF(cls);
    lc_py_array_cls = (PyTypeObject *)cls;
    Py_RETURN_NONE;
}

/* asarray(obj, dtype=None, device=None) */
static PyObject *py_asarray(PyObject *Py_UNUSED(m), PyObject *args, PyObject *kwds)
{
    static char *kw[] = {"obj", "dtype", "device", NULL};
    PyObject *obj, *dtype = Py_None, *device = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|OO:asarray", kw, &obj, &dtype, &device))
        return NULL;
    int dt = lc_parse_dtype(dtype, -1);
    if (dt == -2)
        return NULL;
    if (LC_IS_ARRAY(obj)) {
        lc_py_Array *a = (lc_py_Array *)obj;
        if (device != Py_None) {
            PyObject *q = lc_py_resolve_queue(device);
            if (!q)
                return NULL;
            int same = lc_q(q) == lc_q(a->queue);
            Py_DECREF(q);
            if (!same) {
                PyErr_SetString(lc_py_PlacementError,
                                "asarray of a lazycl array on another device: use x.to_device(d)");
                return NULL;
            }
        }
        if (dt < 0 || dt == a->node->dtype)
            return Py_NewRef(obj);
        struct lc_error e = {0};
        struct lc_node *r = lc_node_cast(a->node, dt, &e);
        return r ? lc_wrap(r, a->queue) : lc_fail(&e);
    }
    PyObject *q = lc_py_resolve_queue(device);
    if (!q)
        return NULL;
    struct lc_node *n = NULL;
    if (PyBool_Check(obj) || PyLong_Check(obj) || PyFloat_Check(obj) ||
        PyArray_IsScalar(obj, Generic)) {
        /* A scalar becomes a 0-d constant of its NumPy dtype. */
        PyArrayObject *arr = (PyArrayObject *)PyArray_FROM_O(obj);
        if (arr) {
            n = lc_upload(q, arr, dt);
            Py_DECREF(arr);
        }
    } else {
        PyArray_Descr *want = dt >= 0 ? PyArray_DescrFromType(lc_npy_type(dt)) : NULL;
        PyArrayObject *arr = (PyArrayObject *)PyArray_FromAny(obj, want, 0, 0,
                                                              want ? NPY_ARRAY_FORCECAST : 0, NULL);
        if (arr) {
            n = lc_upload(q, arr, dt);
            Py_DECREF(arr);
        }
    }
    PyObject *r = n ? lc_wrap(n, q) : NULL;
    Py_DECREF(q);
    return r;
}

/* _full(value, shape, dtype, device) -> a constant array (no memory). */
static PyObject *py_full(PyObject *Py_UNUSED(m), PyObject *args)
{
    PyObject *value, *shape_o, *dtype_o, *device;
    if (!PyArg_ParseTuple(args, "OOOO:_full", &value, &shape_o, &dtype_o, &device))
        return NULL;
    int64_t shape[LC_MAXDIM];
    int nd = lc_int_seq(shape_o, shape, "shape");
    if (nd < 0)
        return NULL;
    PyObject *q = lc_py_resolve_queue(device);
    if (!q)
        return NULL;
    struct lc_node *c = lc_operand(value, q);
    PyObject *r = NULL;
    if (c) {
        if (!lc_node_is_leaf(c) || c->ndim != 0) {
            PyErr_SetString(PyExc_ValueError, "fill value must be a scalar");
        } else {
            int dt = lc_parse_dtype(dtype_o, -1);
            if (dt == -1) {
                /* NumPy's default for a Python scalar: bool, int64, float64. */
                dt = c->dtype;
            }
            if (dt >= 0) {
                struct lc_error e = {0};
                union lc_scalar v = lc_scalar_cast(c->value, c->dtype, dt);
                struct lc_node *n = lc_node_const(lc_q(q), dt, v, nd, shape, 0, &e);
                r = n ? lc_wrap(n, q) : lc_fail(&e);
            }
        }
        lc_node_release(c);
    }
    Py_DECREF(q);
    return r;
}

/* _iota(start, step, n, dtype, device) */
static PyObject *py_iota(PyObject *Py_UNUSED(m), PyObject *args)
{
    PyObject *start, *step, *dtype_o, *device;
    long long n;
    if (!PyArg_ParseTuple(args, "OOLOO:_iota", &start, &step, &n, &dtype_o, &device))
        return NULL;
    int dt = lc_parse_dtype(dtype_o, LC_FLOAT64);
    if (dt < 0)
        return NULL;
    union lc_scalar v0, v1;
    if (lc_dtype_is_float(dt)) {
        v0.f = PyFloat_AsDouble(start);
        v1.f = PyFloat_AsDouble(step);
    } else if (lc_dtype_kind(dt) == 'u') {
        v0.u = PyLong_AsUnsignedLongLongMask(start);
        v1.u = PyLong_AsUnsignedLongLongMask(step);
    } else {
        v0.i = PyLong_AsLongLong(start);
        v1.i = PyLong_AsLongLong(step);
    }
    if (PyErr_Occurred())
        return NULL;
    PyObject *q = lc_py_resolve_queue(device);
    if (!q)
        return NULL;
    struct lc_error e = {0};
    struct lc_node *node = lc_node_iota(lc_q(q), dt, v0, v1, n, &e);
    PyObject *r = node ? lc_wrap(node, q) : lc_fail(&e);
    Py_DECREF(q);
    return r;
}

static PyObject *py_unary(PyObject *Py_UNUSED(m), PyObject *args)
{
    PyObject *name, *x;
    if (!PyArg_ParseTuple(args, "UO:_unary", &name, &x))
        return NULL;
    int op = lc_opcode(name);
    lc_py_Array *a = op < 0 ? NULL : lc_as_array(x);
    if (!a)
        return NULL;
    return lc_unary_obj(op, x);
}

static PyObject *py_binary(PyObject *Py_UNUSED(m), PyObject *args)
{
    PyObject *name, *a, *b;
    if (!PyArg_ParseTuple(args, "UOO:_binary", &name, &a, &b))
        return NULL;
    int op = lc_opcode(name);
    if (op < 0)
        return NULL;
    if (op == LC_OP_POW)
        return Array_pow(a, b, Py_None);
    return lc_binary_obj(op, a, b);
}

static PyObject *py_where(PyObject *Py_UNUSED(m), PyObject *args)
{
    PyObject *ops[3];
    if (!PyArg_ParseTuple(args, "OOO:where", &ops[0], &ops[1], &ops[2]))
        return NULL;
    PyObject *q = lc_common_queue(ops, 3);
    if (!q)
        return NULL;
    struct lc_node *n[3] = {NULL, NULL, NULL};
    PyObject *r = NULL;
    for (int i = 0; i < 3; i++)
        if (!(n[i] = lc_operand(ops[i], q)))
            goto done;
    if (lc_check_weak_int(n[1], n[2]) < 0 || lc_check_weak_int(n[2], n[1]) < 0)
        goto done;
    struct lc_error e = {0};
    struct lc_node *w = lc_node_where(n[0], n[1], n[2], &e);
    r = w ? lc_wrap(w, q) : lc_fail(&e);
done:
    for (int i = 0; i < 3; i++)
        if (n[i])
            lc_node_release(n[i]);
    return r;
}

static PyObject *py_cast(PyObject *Py_UNUSED(m), PyObject *args)
{
    PyObject *x, *dtype_o;
    if (!PyArg_ParseTuple(args, "OO:astype", &x, &dtype_o))
        return NULL;
    lc_py_Array *a = lc_as_array(x);
    if (!a)
        return NULL;
    int dt = lc_parse_dtype(dtype_o, -1);
    if (dt == -2)
        return NULL;
    if (dt < 0) {
        PyErr_SetString(PyExc_TypeError, "astype needs a dtype");
        return NULL;
    }
    struct lc_error e = {0};
    struct lc_node *r = lc_node_cast(a->node, dt, &e);
    return r ? lc_wrap(r, a->queue) : lc_fail(&e);
}

/* x viewed with another shape by `build` (reshape, broadcast_to). */
static PyObject *lc_shape_view(PyObject *args, const char *fmt,
                               struct lc_node *(*build)(struct lc_node *, int, const int64_t *,
                                                        struct lc_error *))
{
    PyObject *x, *shape_o;
    if (!PyArg_ParseTuple(args, fmt, &x, &shape_o))
        return NULL;
    lc_py_Array *a = lc_as_array(x);
    if (!a)
        return NULL;
    int64_t shape[LC_MAXDIM];
    int nd = lc_int_seq(shape_o, shape, "shape");
    if (nd < 0)
        return NULL;
    struct lc_error e = {0};
    struct lc_node *r = build(a->node, nd, shape, &e);
    return r ? lc_wrap(r, a->queue) : lc_fail(&e);
}

static PyObject *py_reshape(PyObject *Py_UNUSED(m), PyObject *args)
{
    return lc_shape_view(args, "OO:reshape", lc_node_reshape);
}

static PyObject *py_permute(PyObject *Py_UNUSED(m), PyObject *args)
{
    PyObject *x, *perm_o;
    if (!PyArg_ParseTuple(args, "OO:permute_dims", &x, &perm_o))
        return NULL;
    lc_py_Array *a = lc_as_array(x);
    if (!a)
        return NULL;
    int64_t perm[LC_MAXDIM];
    int np_ = lc_int_seq(perm_o, perm, "axes");
    if (np_ < 0)
        return NULL;
    if (np_ != a->node->ndim) {
        PyErr_SetString(PyExc_ValueError, "axes don't match array");
        return NULL;
    }
    struct lc_error e = {0};
    struct lc_node *r = lc_node_permute(a->node, perm, &e);
    return r ? lc_wrap(r, a->queue) : lc_fail(&e);
}

static PyObject *py_broadcast_to(PyObject *Py_UNUSED(m), PyObject *args)
{
    return lc_shape_view(args, "OO:broadcast_to", lc_node_broadcast_to);
}

/* _slice(x, starts, steps, lens): normalized per-dim slices. */
static PyObject *py_slice(PyObject *Py_UNUSED(m), PyObject *args)
{
    PyObject *x, *s0, *s1, *s2;
    if (!PyArg_ParseTuple(args, "OOOO:_slice", &x, &s0, &s1, &s2))
        return NULL;
    lc_py_Array *a = lc_as_array(x);
    if (!a)
        return NULL;
    int64_t start[LC_MAXDIM], step[LC_MAXDIM], len[LC_MAXDIM];
    int n0 = lc_int_seq(s0, start, "starts"), n1 = lc_int_seq(s1, step, "steps"),
        n2 = lc_int_seq(s2, len, "lens");
    if (n0 < 0 || n1 < 0 || n2 < 0)
        return NULL;
    if (n0 != a->node->ndim || n1 != n0 || n2 != n0) {
        PyErr_SetString(PyExc_ValueError, "_slice needs one start, step and length per dim");
        return NULL;
    }
    struct lc_error e = {0};
    struct lc_node *r = lc_node_slice(a->node, start, step, len, &e);
    return r ? lc_wrap(r, a->queue) : lc_fail(&e);
}

/* _reduce(op, x, axes_tuple, ddof, kind) with axes already normalized. */
static PyObject *py_reduce(PyObject *Py_UNUSED(m), PyObject *args)
{
    PyObject *name, *x, *axes_o;
    int ddof = 0, kind = 0;
    if (!PyArg_ParseTuple(args, "UOO|ii:_reduce", &name, &x, &axes_o, &ddof, &kind))
        return NULL;
    int op = lc_opcode(name);
    lc_py_Array *a = op < 0 ? NULL : lc_as_array(x);
    if (!a)
        return NULL;
    int64_t axes[LC_MAXDIM];
    int na = lc_int_seq(axes_o, axes, "axes");
    if (na < 0)
        return NULL;
    uint32_t mask = 0;
    for (int i = 0; i < na; i++) {
        if (axes[i] < 0 || axes[i] >= a->node->ndim) {
            PyErr_Format(PyExc_IndexError, "axis %lld is out of bounds for array of dimension %d",
                         (long long)axes[i], a->node->ndim);
            return NULL;
        }
        mask |= 1u << axes[i];
    }
    struct lc_error e = {0};
    struct lc_node *r = lc_node_reduce(op, a->node, mask, ddof, kind, &e);
    return r ? lc_wrap(r, a->queue) : lc_fail(&e);
}

static PyObject *py_scan(PyObject *Py_UNUSED(m), PyObject *args)
{
    PyObject *name, *x;
    int axis;
    if (!PyArg_ParseTuple(args, "UOi:_scan", &name, &x, &axis))
        return NULL;
    int op = lc_opcode(name);
    lc_py_Array *a = op < 0 ? NULL : lc_as_array(x);
    if (!a)
        return NULL;
    struct lc_error e = {0};
    struct lc_node *r = lc_node_scan(op, a->node, axis, &e);
    return r ? lc_wrap(r, a->queue) : lc_fail(&e);
}

/* A flat tuple of Arrays from *args, each checked. */
static PyObject *lc_array_args(PyObject *args)
{
    Py_ssize_t n = PyTuple_GET_SIZE(args);
    for (Py_ssize_t i = 0; i < n; i++)
        if (!lc_as_array(PyTuple_GET_ITEM(args, i)))
            return NULL;
    return Py_NewRef(args);
}

static PyObject *py_compute(PyObject *Py_UNUSED(m), PyObject *args)
{
    PyObject *t = lc_array_args(args);
    if (!t)
        return NULL;
    int rc = lc_force(&PyTuple_GET_ITEM(t, 0), PyTuple_GET_SIZE(t), 0, 1);
    Py_DECREF(t);
    if (rc < 0)
        return NULL;
    if (PyTuple_GET_SIZE(args) == 1)
        return Py_NewRef(PyTuple_GET_ITEM(args, 0));
    return Py_NewRef(args);
}

static PyObject *py_explain(PyObject *Py_UNUSED(m), PyObject *args)
{
    PyObject *t = lc_array_args(args);
    if (!t)
        return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(t);
    if (n == 0) {
        Py_DECREF(t);
        return PyUnicode_FromString("");
    }
    PyObject *q0 = ((lc_py_Array *)PyTuple_GET_ITEM(t, 0))->queue;
    struct lc_node **nodes = PyMem_Malloc((size_t)n * sizeof *nodes);
    if (!nodes) {
        Py_DECREF(t);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        lc_py_Array *a = (lc_py_Array *)PyTuple_GET_ITEM(t, i);
        if (lc_q(a->queue) != lc_q(q0)) {
            PyMem_Free(nodes);
            Py_DECREF(t);
            return lc_placement_error(q0, a->queue);
        }
        nodes[i] = a->node;
    }
    struct lc_error e = {0};
    char *s;
    lc_queue_t q = lc_q(q0);
    /* It may wait for a force running in another thread: without the GIL. */
    Py_BEGIN_ALLOW_THREADS
    s = lc_engine_explain(q, nodes, (size_t)n, &e);
    Py_END_ALLOW_THREADS
    PyMem_Free(nodes);
    Py_DECREF(t);
    if (!s)
        return lc_fail(&e);
    PyObject *r = PyUnicode_FromString(s);
    free(s);
    return r;
}

/* _same_queue(a, b): do two arrays share a graph? */
static PyObject *py_node_id(PyObject *Py_UNUSED(m), PyObject *x)
{
    lc_py_Array *a = lc_as_array(x);
    if (!a)
        return NULL;
    return PyLong_FromVoidPtr(a->node);
}

/* _alloc(shape, dtype, device): a realized array of uninitialized device
 * memory, for hand-written kernels (benchmarks, tests). */
static PyObject *py_alloc(PyObject *Py_UNUSED(m), PyObject *args)
{
    PyObject *shape_o, *dtype_o, *device;
    if (!PyArg_ParseTuple(args, "OOO:_alloc", &shape_o, &dtype_o, &device))
        return NULL;
    int64_t shape[LC_MAXDIM];
    int nd = lc_int_seq(shape_o, shape, "shape");
    if (nd < 0)
        return NULL;
    int dt = lc_parse_dtype(dtype_o, LC_FLOAT32);
    if (dt < 0)
        return NULL;
    PyObject *q = lc_py_resolve_queue(device);
    if (!q)
        return NULL;
    struct lc_error e = {0};
    lc_buffer_t b;
    PyObject *r = NULL;
    int64_t size = lc_shape_size(nd, shape);
    if (lc_buffer_alloc(lc_queue_device(lc_q(q)), (size_t)size * lc_dtype_size(dt), &b, &e) != LC_OK) {
        lc_py_raise(&e);
    } else {
        struct lc_storage *s = lc_engine_storage(b);
        if (!s) {
            PyErr_NoMemory();
        } else {
            struct lc_node *n = lc_node_buffer(lc_q(q), dt, nd, shape, s, 0, NULL, &e);
            lc_storage_release(s);
            r = n ? lc_wrap(n, q) : lc_fail(&e);
        }
    }
    Py_DECREF(q);
    return r;
}

/* _launch(queue, source, name, global, local, args): run a hand-written
 * kernel through the same runtime (benchmarks' ceilings, tests). args are
 * realized contiguous Arrays or (dtype, value) pairs. Asynchronous. */
static PyObject *py_launch(PyObject *Py_UNUSED(m), PyObject *args)
{
    PyObject *queue, *gl_o, *lo_o, *kargs;
    const char *source, *name;
    if (!PyArg_ParseTuple(args, "OssOOO:_launch", &queue, &source, &name, &gl_o, &lo_o, &kargs))
        return NULL;
    if (!PyObject_TypeCheck(queue, &lc_py_QueueType)) {
        PyErr_SetString(PyExc_TypeError, "_launch needs a lazycl.Queue");
        return NULL;
    }
    int64_t g64[3] = {1, 1, 1}, l64[3] = {1, 1, 1};
    int wd = lc_int_seq(gl_o, g64, "global size");
    if (wd < 1 || wd > 3) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "global size needs 1 to 3 dims");
        return NULL;
    }
    int has_local = lo_o != Py_None;
    if (has_local && lc_int_seq(lo_o, l64, "local size") != wd) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "local size needs as many dims as global");
        return NULL;
    }
    PyObject *f = PySequence_Fast(kargs, "args must be a sequence");
    if (!f)
        return NULL;
    Py_ssize_t na = PySequence_Fast_GET_SIZE(f);
    struct lc_arg *av = PyMem_Calloc((size_t)(na ? na : 1), sizeof *av);
    if (!av) {
        Py_DECREF(f);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; i < na; i++) {
        PyObject *o = PySequence_Fast_GET_ITEM(f, i);
        if (LC_IS_ARRAY(o)) {
            struct lc_node *n = ((lc_py_Array *)o)->node;
            if (n->op != LC_OP_BUFFER || !lc_node_is_contiguous(n) || n->offset != 0) {
                PyErr_SetString(PyExc_ValueError, "_launch takes computed contiguous arrays");
                goto fail;
            }
            av[i].kind = LC_ARG_BUFFER;
            av[i].v.buf = lc_engine_buffer(n->storage);
        } else if (PyTuple_Check(o) && PyTuple_GET_SIZE(o) == 2) {
            int dt = lc_parse_dtype(PyTuple_GET_ITEM(o, 0), -1);
            PyObject *val = PyTuple_GET_ITEM(o, 1);
            union lc_scalar v;
            if (dt < 0) {
                if (!PyErr_Occurred())
                    PyErr_SetString(PyExc_TypeError, "scalar args are (dtype, value)");
                goto fail;
            }
            if (lc_dtype_is_float(dt))
                v.f = PyFloat_AsDouble(val);
            else
                v.i = PyLong_AsLongLong(val);
            if (PyErr_Occurred())
                goto fail;
            static const enum lc_arg_kind kinds[LC_NDTYPES] = {
                [LC_BOOL] = LC_ARG_U8, [LC_INT8] = LC_ARG_I8, [LC_INT16] = LC_ARG_I16,
                [LC_INT32] = LC_ARG_I32, [LC_INT64] = LC_ARG_I64, [LC_UINT8] = LC_ARG_U8,
                [LC_UINT16] = LC_ARG_U16, [LC_UINT32] = LC_ARG_U32, [LC_UINT64] = LC_ARG_U64,
                [LC_FLOAT32] = LC_ARG_F32, [LC_FLOAT64] = LC_ARG_F64};
            av[i].kind = kinds[dt];
            switch (dt) {
            case LC_FLOAT32: av[i].v.f32 = (float)v.f; break;
            case LC_FLOAT64: av[i].v.f64 = v.f; break;
            case LC_INT32: av[i].v.i32 = (int32_t)v.i; break;
            case LC_UINT32: av[i].v.u32 = (uint32_t)v.i; break;
            case LC_INT16: av[i].v.i16 = (int16_t)v.i; break;
            case LC_UINT16: av[i].v.u16 = (uint16_t)v.i; break;
            case LC_INT8: av[i].v.i8 = (int8_t)v.i; break;
            case LC_BOOL: case LC_UINT8: av[i].v.u8 = (uint8_t)v.i; break;
            default: av[i].v.i64 = v.i; break;
            }
        } else if (PyLong_Check(o)) {
            /* A bare int: bytes of __local memory. */
            av[i].kind = LC_ARG_LOCAL;
            av[i].v.local_bytes = PyLong_AsSize_t(o);
            if (PyErr_Occurred())
                goto fail;
        } else {
            PyErr_SetString(PyExc_TypeError, "kernel args are arrays, (dtype, value) or ints (local bytes)");
            goto fail;
        }
    }
    size_t gs[3], ls[3];
    for (int i = 0; i < 3; i++) {
        gs[i] = (size_t)g64[i];
        ls[i] = (size_t)l64[i];
    }
    lc_queue_t q = lc_q(queue);
    struct lc_error e = {0};
    lc_status st;
    lc_kernel_t k;
    Py_BEGIN_ALLOW_THREADS
    st = lc_kernel_get(lc_queue_device(q), source, name, "", &k, &e);
    if (st == LC_OK)
        st = lc_kernel_launch(q, k, (unsigned)wd, gs, has_local ? ls : NULL, av, (size_t)na, &e);
    Py_END_ALLOW_THREADS
    PyMem_Free(av);
    Py_DECREF(f);
    if (st != LC_OK)
        return lc_fail(&e);
    Py_RETURN_NONE;
fail:
    PyMem_Free(av);
    Py_DECREF(f);
    return NULL;
}

static PyMethodDef lc_py_array_functions[] = {
    {"_alloc", py_alloc, METH_VARARGS, "_alloc(shape, dtype, device): uninitialized device memory."},
    {"_launch", py_launch, METH_VARARGS, "_launch(queue, source, name, global, local, args)"},
    {"_set_array_class", py_set_array_class, METH_O, "Register the Python Array class."},
    {"asarray", (PyCFunction)(void (*)(void))py_asarray, METH_VARARGS | METH_KEYWORDS,
     "asarray(obj, dtype=None, device=None): a lazycl array from a NumPy array, list or scalar."},
    {"_full", py_full, METH_VARARGS, "_full(value, shape, dtype, device)"},
    {"_iota", py_iota, METH_VARARGS, "_iota(start, step, n, dtype, device)"},
    {"_unary", py_unary, METH_VARARGS, "_unary(op, x)"},
    {"_binary", py_binary, METH_VARARGS, "_binary(op, a, b)"},
    {"where", py_where, METH_VARARGS, "where(cond, a, b): elements of a where cond, else of b."},
    {"astype", py_cast, METH_VARARGS, "astype(x, dtype): a cast copy of x (lazy)."},
    {"reshape", py_reshape, METH_VARARGS, "reshape(x, shape): a view with another shape."},
    {"permute_dims", py_permute, METH_VARARGS, "permute_dims(x, axes): a transposed view."},
    {"broadcast_to", py_broadcast_to, METH_VARARGS, "broadcast_to(x, shape): a broadcast view."},
    {"_slice", py_slice, METH_VARARGS, "_slice(x, starts, steps, lens)"},
    {"_reduce", py_reduce, METH_VARARGS, "_reduce(op, x, axes, ddof=0, kind=0)"},
    {"_scan", py_scan, METH_VARARGS, "_scan(op, x, axis)"},
    {"compute", py_compute, METH_VARARGS,
     "compute(*arrays): run the pending graphs under the arrays in as few kernels as "
     "possible (outputs over the same index space share one) and wait."},
    {"_explain", py_explain, METH_VARARGS, "_explain(*arrays) -> str: the plan and OpenCL C."},
    {"_node_id", py_node_id, METH_O, "The address of the array's graph node (for tests)."},
    {NULL, NULL, 0, NULL},
};

int lc_py_array_setup(PyObject *m)
{
    import_array1(-1);
    if (PyType_Ready(&lc_py_ArrayBaseType) < 0)
        return -1;
    if (PyModule_AddObjectRef(m, "ArrayBase", (PyObject *)&lc_py_ArrayBaseType) < 0)
        return -1;
    if (PyModule_AddFunctions(m, lc_py_array_functions) < 0)
        return -1;
    return 0;
}
