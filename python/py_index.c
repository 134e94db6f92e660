/* py_index.c: indexing of Arrays (the mapping protocol): integers, slices, ..., None here;
 * keys with arrays, lists or booleans go to the Python hook (lazycl/_index.py). */
#include "lcpy.h"

#include "graph/graph.h"

/* lazycl._index.getitem, registered at import; guarded by the GIL. */
static PyObject *lc_py_index_hook;

static PyObject *py_set_index_hook(PyObject *Py_UNUSED(m), PyObject *fn)
{
    if (!PyCallable_Check(fn)) {
        PyErr_SetString(PyExc_TypeError, "expected a callable");
        return NULL;
    }
    Py_XSETREF(lc_py_index_hook, Py_NewRef(fn));
    Py_RETURN_NONE;
}

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
        } else if ((PySlice_Check(k) || PyIndex_Check(k)) && !PyBool_Check(k) &&
                   !PyArray_IsScalar(k, Bool) && !PyArray_Check(k) && !LC_PY_IS_ARRAY(k)) {
            consumed++;
        } else if (lc_py_index_hook) {
            /* Advanced indexing: integer arrays, lists, booleans. */
            Py_DECREF(items);
            return PyObject_CallFunctionObjArgs(lc_py_index_hook, self, key, NULL);
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
        return lc_py_raise(&e);
    struct lc_node *r = lc_node_reshape(s, ond, oshape, &e);
    lc_node_release(s);
    if (!r)
        return lc_py_raise(&e);
    return lc_py_wrap_view(r, a, 0);
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

PyMappingMethods lc_py_array_as_mapping = {
    .mp_length = Array_length,
    .mp_subscript = Array_getitem,
    .mp_ass_subscript = Array_setitem,
};

PyMethodDef lc_py_index_functions[] = {
    {"_set_index_hook", py_set_index_hook, METH_O,
     "Register the function that indexes with arrays, lists and booleans."},
    {NULL, NULL, 0, NULL},
};
