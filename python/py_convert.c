/* py_convert.c: Python and NumPy values as graph terms: dtypes, int lists, scalars, operands.
 *
 * Python scalars become weak constants (NumPy 2's rules: the array's dtype
 * wins, but a Python int must fit it); NumPy scalars are strong. Operands of
 * one expression share the queue of their Array operands.
 */
#include "lcpy.h"

#include "engine/engine.h"
#include "graph/graph.h"

/* ---- dtypes --------------------------------------------------------------------------- */

int lc_py_dtype_of_descr(PyArray_Descr *d)
{
    int sz = (int)PyDataType_ELSIZE(d);
    switch (d->kind) {
    case 'b': return LC_BOOL;
    case 'i': return sz == 1 ? LC_INT8 : sz == 2 ? LC_INT16 : sz == 4 ? LC_INT32 : sz == 8 ? LC_INT64 : -1;
    case 'u': return sz == 1 ? LC_UINT8 : sz == 2 ? LC_UINT16 : sz == 4 ? LC_UINT32 : sz == 8 ? LC_UINT64 : -1;
    case 'f': return sz == 4 ? LC_FLOAT32 : sz == 8 ? LC_FLOAT64 : -1;
    case 'c': return sz == 8 ? LC_COMPLEX64 : sz == 16 ? LC_COMPLEX128 : -1;
    default: return -1;
    }
}

int lc_py_npy_type(int dt)
{
    static const int map[LC_NDTYPES] = {
        [LC_BOOL] = NPY_BOOL, [LC_INT8] = NPY_INT8, [LC_INT16] = NPY_INT16,
        [LC_INT32] = NPY_INT32, [LC_INT64] = NPY_INT64, [LC_UINT8] = NPY_UINT8,
        [LC_UINT16] = NPY_UINT16, [LC_UINT32] = NPY_UINT32, [LC_UINT64] = NPY_UINT64,
        [LC_FLOAT32] = NPY_FLOAT32, [LC_FLOAT64] = NPY_FLOAT64,
        [LC_COMPLEX64] = NPY_COMPLEX64, [LC_COMPLEX128] = NPY_COMPLEX128,
    };
    return map[dt];
}

/* Parse anything np.dtype() takes; -1 with TypeError for what lazycl lacks.
 * None gives `dflt`. */
int lc_py_parse_dtype(PyObject *o, int dflt)
{
    if (o == NULL || o == Py_None)
        return dflt;
    PyArray_Descr *d = NULL;
    if (!PyArray_DescrConverter2(o, &d))
        return -2;
    if (!d)
        return dflt;
    int dt = lc_py_dtype_of_descr(d);
    if (dt < 0) {
        PyErr_Format(PyExc_TypeError,
                     "lazycl does not support dtype %R (supported: bool, int8-64, uint8-64, "
                     "float32, float64, complex64, complex128)", (PyObject *)d);
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

static int lc_scalar_from_numpy(PyObject *o, int *dt, union lc_scalar *v, union lc_scalar *im)
{
    PyArray_Descr *d = PyArray_DescrFromScalar(o);
    if (!d)
        return -1;
    *dt = lc_py_dtype_of_descr(d);
    Py_DECREF(d);
    if (*dt < 0) {
        PyErr_Format(PyExc_TypeError, "lazycl does not support scalars of type %s",
                     Py_TYPE(o)->tp_name);
        return -1;
    }
    union {
        npy_bool b; npy_int8 i8; npy_int16 i16; npy_int32 i32; npy_int64 i64;
        npy_uint8 u8; npy_uint16 u16; npy_uint32 u32; npy_uint64 u64;
        npy_float32 f32; npy_float64 f64; npy_cfloat c64; npy_cdouble c128;
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
    case LC_COMPLEX64: {
        float p[2];            /* npy_cfloat is laid out as (real, imaginary) */
        memcpy(p, &raw.c64, sizeof p);
        v->f = p[0];
        im->f = p[1];
        break;
    }
    case LC_COMPLEX128: {
        double p[2];
        memcpy(p, &raw.c128, sizeof p);
        v->f = p[0];
        im->f = p[1];
        break;
    }
    default: v->f = raw.f64; break;
    }
    return 0;
}

/* Upload a NumPy array (any layout, byte order, writability) to q. */
struct lc_node *lc_py_upload(PyObject *queue, PyArrayObject *arr, int want_dt)
{
    int dt = lc_py_dtype_of_descr(PyArray_DESCR(arr));
    if (dt < 0) {
        PyErr_Format(PyExc_TypeError,
                     "lazycl does not support dtype %R (supported: bool, int8-64, uint8-64, "
                     "float32, float64)", (PyObject *)PyArray_DESCR(arr));
        return NULL;
    }
    if (want_dt >= 0)
        dt = want_dt;
    PyArray_Descr *nd = PyArray_DescrFromType(lc_py_npy_type(dt));
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
    lc_queue_t q = lc_py_q(queue);
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
struct lc_node *lc_py_operand(PyObject *o, PyObject *queue)
{
    struct lc_error e = {0};
    union lc_scalar v;
    if (LC_PY_IS_ARRAY(o)) {
        lc_node_retain(((lc_py_Array *)o)->node);
        return ((lc_py_Array *)o)->node;
    }
    /* NumPy scalars are strong (they have a dtype); test them first, since
     * np.float64 is a subclass of Python's float. */
    if (PyArray_IsScalar(o, Generic)) {
        int dt;
        union lc_scalar im = {0};
        if (lc_scalar_from_numpy(o, &dt, &v, &im) < 0)
            return NULL;
        struct lc_node *n = lc_node_const_complex(lc_py_q(queue), dt, v, im, 0, NULL, 0, &e);
        return n ? n : (lc_py_raise(&e), NULL);
    }
    if (PyBool_Check(o)) {
        v.i = o == Py_True;
        struct lc_node *n = lc_node_const(lc_py_q(queue), LC_BOOL, v, 0, NULL,
                                          LC_NODE_WEAK | LC_NODE_WEAK_BOOL, &e);
        return n ? n : (lc_py_raise(&e), NULL);
    }
    if (PyLong_Check(o)) {
        int is_u;
        if (lc_pyint_value(o, &v, &is_u) < 0)
            return NULL;
        struct lc_node *n = lc_node_const(lc_py_q(queue), is_u ? LC_UINT64 : LC_INT64, v, 0, NULL,
                                          LC_NODE_WEAK, &e);
        return n ? n : (lc_py_raise(&e), NULL);
    }
    if (PyFloat_Check(o)) {
        v.f = PyFloat_AS_DOUBLE(o);
        struct lc_node *n = lc_node_const(lc_py_q(queue), LC_FLOAT64, v, 0, NULL,
                                          LC_NODE_WEAK | LC_NODE_WEAK_FLOAT, &e);
        return n ? n : (lc_py_raise(&e), NULL);
    }
    if (PyComplex_Check(o)) {
        union lc_scalar im;
        v.f = PyComplex_RealAsDouble(o);
        im.f = PyComplex_ImagAsDouble(o);
        struct lc_node *n = lc_node_const_complex(lc_py_q(queue), LC_COMPLEX128, v, im, 0, NULL,
                                                  LC_NODE_WEAK | LC_NODE_WEAK_COMPLEX, &e);
        return n ? n : (lc_py_raise(&e), NULL);
    }
    PyArrayObject *arr = (PyArrayObject *)PyArray_FROM_O(o);
    if (!arr)
        return NULL;
    struct lc_node *n = lc_py_upload(queue, arr, -1);
    Py_DECREF(arr);
    return n;
}

/* A weak Python int next to an integer array must fit the array's dtype. */
int lc_py_check_weak_int(struct lc_node *w, struct lc_node *other)
{
    if (!(w->flags & LC_NODE_WEAK) ||
        (w->flags & (LC_NODE_WEAK_FLOAT | LC_NODE_WEAK_BOOL | LC_NODE_WEAK_COMPLEX)))
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

/* A weak Python int outside `other`'s integer dtype becomes a strong
 * int64/uint64 constant (replacing *w). */
void lc_py_strengthen_wide_int(struct lc_node **w, struct lc_node *other)
{
    struct lc_node *x = *w;
    if (!(x->flags & LC_NODE_WEAK) || (x->flags & (LC_NODE_WEAK_FLOAT | LC_NODE_WEAK_BOOL | LC_NODE_WEAK_COMPLEX)) ||
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

PyObject *lc_py_placement_error(PyObject *qa, PyObject *qb)
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
PyObject *lc_py_common_queue(PyObject *const *ops, int n)
{
    PyObject *q = NULL;
    for (int i = 0; i < n; i++) {
        if (!LC_PY_IS_ARRAY(ops[i]))
            continue;
        PyObject *qi = ((lc_py_Array *)ops[i])->queue;
        if (!q)
            q = qi;
        else if (qi != q && lc_py_q(qi) != lc_py_q(q))
            return lc_py_placement_error(q, qi);
    }
    if (!q) {
        PyErr_SetString(PyExc_TypeError, "expected at least one lazycl array operand");
        return NULL;
    }
    return q;
}

/* ---- shapes and axes ------------------------------------------------------------------ */

/* Read a sequence of ints into out (at most LC_MAXDIM). */
int lc_py_int_seq(PyObject *seq, int64_t *out, const char *what)
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
