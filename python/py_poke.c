/* py_poke.c: x[i, j] = 1.5, recorded and applied later with the other such writes.
 *
 * `_poke(x, key, value)` takes the writes whose destination is one element named by
 * integers and whose value is a constant, into an array no one else reads: x is a realized
 * buffer leaf, every reference to its buffer's leaves is a live array's (a view sees the
 * write when it is next read; no pending graph needs the old values), and no other library
 * shares the memory. It records the element's place and the value's bytes, cast as NumPy
 * assigns (np.array(value, dtype): unsafe, a Python int out of range is an OverflowError),
 * against the buffer (engine/pokes.h), and returns True; so does a write of the element's
 * own 0-d view into it (the write-back of `A[i, j] -= v`). Every other write, and any key
 * it does not take, returns False for the general path (python/lazycl/_write.py), which
 * raises NumPy's errors; an index out of range raises IndexError here, as NumPy does.
 */
#include "lcpy.h"

#include "engine/engine.h"
#include "graph/graph.h"

/* Does every reference to the leaves of s come from the live arrays of q (no pending graph
 * reads s)? The caller holds no reference of its own. */
static int lc_poke_sole(lc_py_Queue *q, const struct lc_storage *s)
{
    /* The leaves of s the arrays hold, each with its holders; few in practice. */
    enum { CAP = 16 };
    const struct lc_node *leaf[CAP];
    int holds[CAP], n = 0;
    for (lc_py_Array *a = q->arrays; a; a = a->next) {
        const struct lc_node *l = a->node;
        if (l->op != LC_OP_BUFFER || l->storage != s)
            continue;
        int i = 0;
        while (i < n && leaf[i] != l)
            i++;
        if (i == n) {
            if (n == CAP)
                return 0;
            leaf[n] = l;
            holds[n++] = 0;
        }
        holds[i]++;
    }
    for (int i = 0; i < n; i++)
        if (atomic_load(&((struct lc_node *)leaf[i])->refcount) != holds[i])
            return 0;
    return atomic_load(&((struct lc_storage *)s)->refcount) == n;
}

/* Key item `k` as an index into an axis of `size` (negative from the end): 1, 0 when the
 * fast path does not take it (not an integer, a bool), -1 with IndexError set. */
static int lc_poke_index(PyObject *k, int axis, int64_t size, int64_t *out)
{
    if (PyBool_Check(k) || !(PyLong_CheckExact(k) || PyArray_IsScalar(k, Integer)))
        return 0;
    int overflow = 0;
    long long v = PyLong_CheckExact(k) ? PyLong_AsLongLongAndOverflow(k, &overflow) : -1;
    if (!PyLong_CheckExact(k)) {
        PyObject *i = PyNumber_Index(k);
        if (!i) {
            PyErr_Clear();
            return 0;
        }
        v = PyLong_AsLongLongAndOverflow(i, &overflow);
        Py_DECREF(i);
    }
    if (overflow || (v == -1 && PyErr_Occurred())) {
        PyErr_Clear();
        return 0;
    }
    if (v < -size || v >= size) {
        PyErr_Format(PyExc_IndexError, "index %lld is out of bounds for axis %d with size %lld", v,
                     axis, (long long)size);
        return -1;
    }
    *out = v < 0 ? v + size : v;
    return 1;
}

static PyObject *py_poke(PyObject *Py_UNUSED(m), PyObject *args)
{
    PyObject *xo, *key, *value;
    if (!PyArg_UnpackTuple(args, "_poke", 3, 3, &xo, &key, &value))
        return NULL;
    if (!LC_PY_IS_ARRAY(xo))
        Py_RETURN_FALSE;
    lc_py_Array *x = (lc_py_Array *)xo;
    struct lc_node *n = x->node;
    if (x->readonly || n->op != LC_OP_BUFFER || !n->storage)
        Py_RETURN_FALSE;
    Py_ssize_t nk = PyTuple_Check(key) ? PyTuple_GET_SIZE(key) : 1;
    if (nk != n->ndim)
        Py_RETURN_FALSE;
    int64_t at = n->offset;
    for (Py_ssize_t d = 0; d < nk; d++) {
        int64_t i;
        int r = lc_poke_index(PyTuple_Check(key) ? PyTuple_GET_ITEM(key, d) : key, (int)d,
                              n->shape[d], &i);
        if (r <= 0) {
            if (r < 0)
                return NULL;
            Py_RETURN_FALSE;
        }
        at += i * n->strides[d];
    }
    if (LC_PY_IS_ARRAY(value)) {
        /* The element itself, as `A[i, j] -= v` writes back its own 0-d view of A[i, j]
         * (which the in-place operator wrote already): nothing to do. */
        const struct lc_node *v = ((lc_py_Array *)value)->node;
        if (v->op == LC_OP_BUFFER && v->storage == n->storage && v->ndim == 0 &&
            v->offset == at && v->dtype == n->dtype)
            Py_RETURN_TRUE;
        Py_RETURN_FALSE;
    }
    if (!PyLong_Check(value) && !PyFloat_Check(value) && !PyComplex_Check(value) &&
        !PyArray_IsScalar(value, Generic) && !(PyArray_Check(value) && !PyArray_NDIM((PyArrayObject *)value)))
        Py_RETURN_FALSE;
    PyArray_Descr *descr = PyArray_DescrFromType(lc_py_npy_type(n->dtype));
    if (!descr)
        return NULL;
    PyArrayObject *a = (PyArrayObject *)PyArray_FromAny(value, descr, 0, 0, 0, NULL);
    if (!a)
        return NULL;
    lc_py_Queue *q = (lc_py_Queue *)x->queue;
    struct lc_storage *s = n->storage;
    PyObject *ret = Py_False;
    size_t size = (size_t)PyArray_ITEMSIZE(a);
    if (PyArray_NDIM(a) == 0 && size == lc_dtype_size(n->dtype) && lc_poke_sole(q, s) &&
        !lc_py_buffer_shared(lc_engine_buffer(s))) {
        struct lc_error e = {0};
        if (lc_pokes_add(q->q, s, (size_t)at * size, PyArray_DATA(a), size, &e) != LC_OK)
            ret = lc_py_raise(&e);
        else
            ret = Py_True;
    }
    Py_DECREF(a);
    return ret ? Py_NewRef(ret) : NULL;
}

PyMethodDef lc_py_poke_functions[] = {
    {"_poke", py_poke, METH_VARARGS,
     "_poke(x, key, value): record x[key] = value for later when it is one element of a "
     "constant into an array no pending graph reads; True if recorded, else False."},
    {NULL, NULL, 0, NULL},
};
