/* py_index.c: indexing of Arrays (the mapping protocol): integers, slices, ..., None here;
 * keys with arrays, lists or booleans go to the Python hook (lazycl/_index.py). */
#include "lcpy.h"

#include <string.h>

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

/* A plain buffer leaf: a view of it is one BUFFER node (lc_node_buffer) equal to the one
 * lc_node_slice and lc_node_reshape build, since it has no constant value, arange
 * step, flags or origin for their leaf views to carry over. */
static int lc_plain_buffer(const struct lc_node *n)
{
    return n->op == LC_OP_BUFFER && n->storage && !n->flags && !n->value.u && !n->step.u &&
           !n->origin && !n->origin_size;
}

/* n sliced by start/step/len (one per dim of n, in range) then seen with shape
 * oshape (integer-indexed dims dropped, None dims inserted): lc_node_slice then
 * lc_node_reshape, but a single node where n is a plain buffer leaf. */
static struct lc_node *lc_index_view(struct lc_node *n, const int64_t *start, const int64_t *step,
                                     const int64_t *len, int ond, const int64_t *oshape,
                                     struct lc_error *e)
{
    int nd = n->ndim;
    int same = ond == nd && (nd == 0 || memcmp(oshape, len, (size_t)nd * sizeof *len) == 0);
    if (lc_plain_buffer(n)) {
        int64_t shape[LC_MAXDIM], strides[LC_MAXDIM], offset = n->offset;
        int identity = 1;
        for (int i = 0; i < nd; i++) {
            if (len[i] > 0)
                offset += start[i] * n->strides[i];
            strides[i] = n->strides[i] * step[i];
            shape[i] = len[i];
            identity &= start[i] == 0 && step[i] == 1 && len[i] == n->shape[i];
        }
        if (identity && same) {
            lc_node_retain(n);
            return n;
        }
        if (same || lc_layout_reshape(&nd, shape, strides, ond, oshape) == 0)
            return lc_node_buffer(n->owner, n->dtype, ond, oshape, n->storage, offset, strides, e);
    }
    struct lc_node *s = lc_node_slice(n, start, step, len, e);
    if (!s || same)
        return s;
    struct lc_node *r = lc_node_reshape(s, ond, oshape, e);
    lc_node_release(s);
    return r;
}

/* x[i] for one lazycl integer array i of ndim k >= 1 (x of ndim >= 1): NumPy's
 * advanced indexing of axis 0, shape i.shape + x.shape[1:], as one gather of x
 * seen as (N, 1 x (k-1), rest...) at i seen as (i.shape, rest...). NULL with no
 * exception where the general path (lazycl/_index.py) must take it. */
static PyObject *lc_gather_axis0(lc_py_Array *a, lc_py_Array *ix)
{
    struct lc_node *x = a->node, *i = ix->node;
    int k = i->ndim, r = x->ndim - 1;
    if (k + r > LC_MAXDIM)
        return NULL;
    int64_t shape[LC_MAXDIM];
    struct lc_error e = {0};
    struct lc_node *src, *idx, *g = NULL;
    shape[0] = x->shape[0];
    for (int j = 1; j < k; j++)
        shape[j] = 1;
    for (int d = 1; d <= r; d++)
        shape[k - 1 + d] = x->shape[d];
    if (k == 1) {
        lc_node_retain(x);
        src = x;
    } else if (!(src = lc_node_reshape(x, k + r, shape, &e))) {
        return lc_py_raise(&e);
    }
    if (r == 0) {
        lc_node_retain(i);
        idx = i;
    } else {
        memcpy(shape, i->shape, (size_t)k * sizeof *shape);
        for (int d = 0; d < r; d++)
            shape[k + d] = 1;
        struct lc_node *t = lc_node_reshape(i, k + r, shape, &e);
        for (int d = 0; d < r; d++)
            shape[k + d] = x->shape[1 + d];
        idx = t ? lc_node_broadcast_to(t, k + r, shape, &e) : NULL;
        if (t)
            lc_node_release(t);
    }
    if (idx)
        g = lc_node_gather(src, idx, 0, 0, &e);
    lc_node_release(src);
    if (idx)
        lc_node_release(idx);
    return g ? lc_py_wrap(g, a->queue) : lc_py_raise(&e);
}

static PyObject *Array_getitem(PyObject *self, PyObject *key)
{
    lc_py_Array *a = (lc_py_Array *)self;
    struct lc_node *n = a->node;
    PyObject *const *items = &key;
    Py_ssize_t nk = 1;
    if (PyTuple_Check(key)) {
        items = PySequence_Fast_ITEMS(key);
        nk = PyTuple_GET_SIZE(key);
    } else if (LC_PY_IS_ARRAY(key) && lc_py_index_hook) {
        /* x[i] with a lazycl integer array: the common gather, without the hook */
        struct lc_node *i = ((lc_py_Array *)key)->node;
        char kind = lc_dtype_kind(i->dtype);
        if ((kind == 'i' || kind == 'u') && i->ndim >= 1 && n->ndim >= 1) {
            PyObject *r = lc_gather_axis0(a, (lc_py_Array *)key);
            if (r || PyErr_Occurred())
                return r;
        }
    }
    int consumed = 0, ellipsis = 0;
    for (Py_ssize_t i = 0; i < nk; i++) {
        PyObject *k = items[i];
        if (k == Py_Ellipsis) {
            if (ellipsis++) {
                PyErr_SetString(PyExc_IndexError, "an index can only have a single ellipsis ('...')");
                return NULL;
            }
        } else if (k == Py_None) {
        } else if (PyLong_CheckExact(k) || ((PySlice_Check(k) || PyIndex_Check(k)) &&
                   !PyBool_Check(k) && !PyArray_IsScalar(k, Bool) && !PyArray_Check(k) &&
                   !LC_PY_IS_ARRAY(k))) {
            consumed++;
        } else if (lc_py_index_hook) {
            /* Advanced indexing: integer arrays, lists, booleans. */
            return PyObject_CallFunctionObjArgs(lc_py_index_hook, self, key, NULL);
        } else {
            PyErr_Format(PyExc_IndexError,
                         "only integers, slices (`:`), ellipsis (`...`) and None (`numpy.newaxis`) "
                         "are valid lazycl indices (got %s); integer and boolean array indexing "
                         "is not supported yet", Py_TYPE(k)->tp_name);
            return NULL;
        }
    }
    if (consumed > n->ndim) {
        PyErr_Format(PyExc_IndexError,
                     "too many indices for array: array is %d-dimensional, but %d were indexed",
                     n->ndim, consumed);
        return NULL;
    }
    int64_t start[LC_MAXDIM], step[LC_MAXDIM], len[LC_MAXDIM], oshape[LC_MAXDIM];
    int dim = 0, ond = 0;
    for (Py_ssize_t i = 0; i < nk; i++) {
        PyObject *k = items[i];
        if (k == Py_Ellipsis) {
            int fill = n->ndim - consumed;
            for (int j = 0; j < fill; j++, dim++) {
                if (ond >= LC_MAXDIM)
                    goto too_many_dims;
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
            if (PySlice_Unpack(k, &s0, &s1, &st) < 0)
                return NULL;
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
            if (x == -1 && PyErr_Occurred())
                return NULL;
            int64_t size = n->shape[dim];
            if (x < -size || x >= size) {
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
    struct lc_error e = {0};
    struct lc_node *r = lc_index_view(n, start, step, len, ond, oshape, &e);
    if (!r)
        return lc_py_raise(&e);
    return lc_py_wrap_view(r, a, 0);
too_many_dims:
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
