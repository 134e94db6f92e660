/* py_build.c: the module-level graph builders: creation, elementwise, views, reductions, scans.
 *
 * The NumPy-style modules (lazycl/_creation.py, _views.py, _reductions.py, ...)
 * normalize arguments and call these; each adds one node to the graph of its
 * operands' queue. An op is named by its NumPy name, its enum name or its id
 * (an int, as in the table `ops` that the module exports).
 */
#include "lcpy.h"

#include "graph/graph.h"
#include "graph/walk.h"

/* {NumPy name and enum name: op id}, built once by lc_py_build_setup. */
static PyObject *lc_op_ids;

/* The op id of `op` (an int id, or a name, looked up in lc_op_ids), or -1 with
 * ValueError for an op that does not exist. */
static int lc_opcode(PyObject *op)
{
    if (PyLong_CheckExact(op)) {
        long id = PyLong_AsLong(op);
        if (id >= 0 && id < LC_OP_COUNT)
            return (int)id;
        if (!PyErr_Occurred())
            PyErr_Format(PyExc_ValueError, "unknown lazycl op %ld", id);
        return -1;
    }
    PyObject *id = PyDict_GetItemWithError(lc_op_ids, op);   /* borrowed */
    if (id)
        return (int)PyLong_AsLong(id);
    if (!PyErr_Occurred())
        PyErr_Format(PyExc_ValueError, "unknown lazycl op %R", op);
    return -1;
}

static const char *lc_kind_name(enum lc_kind k)
{
    switch (k) {
    case LC_KIND_SOURCE: return "source";
    case LC_KIND_VIEW: return "view";
    case LC_KIND_CAST: return "cast";
    case LC_KIND_UNARY: return "unary";
    case LC_KIND_BINARY: return "binary";
    case LC_KIND_TERNARY: return "ternary";
    case LC_KIND_REDUCE: return "reduce";
    case LC_KIND_SCAN: return "scan";
    case LC_KIND_GATHER: return "gather";
    case LC_KIND_STORE: return "store";
    case LC_KIND_USER: return "user";
    }
    return "?";
}

/* The module's op table, from graph/ops.def through graph.h: `ops`, a tuple of
 * (NumPy name, number of inputs, kind, op id) in op id order, where kind is the
 * family in lower case ("unary", "binary", "reduce", ...); and the lookup
 * dictionary of lc_opcode. 0, or -1 with an exception set. */
int lc_py_build_setup(PyObject *m)
{
    PyObject *ops = PyTuple_New(LC_OP_COUNT);
    lc_op_ids = PyDict_New();
    if (!ops || !lc_op_ids)
        goto fail;
    for (int op = 0; op < LC_OP_COUNT; op++) {
        PyObject *row = Py_BuildValue("(sisi)", lc_op_name(op), lc_op_arity(op),
                                      lc_kind_name(lc_op_kind(op)), op);
        if (!row)
            goto fail;
        PyTuple_SET_ITEM(ops, op, row);
        PyObject *id = PyTuple_GET_ITEM(row, 3);
        /* The first op of a NumPy name keeps it (no two ops share one today). */
        if (PyDict_SetDefault(lc_op_ids, PyTuple_GET_ITEM(row, 0), id) == NULL)
            goto fail;
        PyObject *en = PyUnicode_FromString(lc_op_enum_name(op));
        if (!en || PyDict_SetItem(lc_op_ids, en, id) < 0) {
            Py_XDECREF(en);
            goto fail;
        }
        Py_DECREF(en);
    }
    int rc = PyModule_AddObjectRef(m, "ops", ops);
    Py_DECREF(ops);
    return rc;
fail:
    Py_XDECREF(ops);
    return -1;
}

/* asarray(obj, dtype=None, device=None, share=-1): share -1 never shares a NumPy array's
 * memory (copies), 0 shares it where it can (py_share.c), 1 must (else ValueError). */
static PyObject *py_asarray(PyObject *Py_UNUSED(m), PyObject *args, PyObject *kwds)
{
    static char *kw[] = {"obj", "dtype", "device", "share", NULL};
    PyObject *obj, *dtype = Py_None, *device = Py_None;
    int share = -1;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|OOi:asarray", kw, &obj, &dtype, &device, &share))
        return NULL;
    int dt = lc_py_parse_dtype(dtype, -1);
    if (dt == -2)
        return NULL;
    if (LC_PY_IS_ARRAY(obj)) {
        lc_py_Array *a = (lc_py_Array *)obj;
        if (device != Py_None) {
            PyObject *q = lc_py_resolve_queue(device);
            if (!q)
                return NULL;
            int same = lc_py_q(q) == lc_py_q(a->queue);
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
        return r ? lc_py_wrap(r, a->queue) : lc_py_raise(&e);
    }
    PyObject *q = lc_py_resolve_queue(device);
    if (!q)
        return NULL;
    struct lc_node *n = NULL;
    if (PyBool_Check(obj) || PyLong_Check(obj) || PyFloat_Check(obj) || PyComplex_Check(obj) ||
        PyArray_IsScalar(obj, Generic)) {
        /* A scalar becomes a 0-d constant of its NumPy dtype. */
        PyArrayObject *arr = (PyArrayObject *)PyArray_FROM_O(obj);
        if (arr) {
            n = lc_py_upload(q, arr, dt);
            Py_DECREF(arr);
        }
    } else if (share >= 0 && PyArray_Check(obj)) {
        const char *why;
        int ro = 0;
        n = lc_py_share_ndarray(q, (PyArrayObject *)obj, dt, &ro, &why);
        if (n) {
            PyObject *r = lc_py_wrap(n, q);
            Py_DECREF(q);
            if (r && ro)
                ((lc_py_Array *)r)->readonly = 1;
            return r;
        }
        if (!why) {
            Py_DECREF(q);
            return NULL;
        }
        /* An unsupported dtype is the upload's TypeError; an empty array has nothing to share. */
        if (share == 1 && PyArray_SIZE((PyArrayObject *)obj) &&
            (dt >= 0 || lc_py_dtype_of_descr(PyArray_DESCR((PyArrayObject *)obj)) >= 0)) {
            Py_DECREF(q);
            PyErr_Format(PyExc_ValueError, "Unable to avoid copy while creating an array as "
                         "requested: %s", why);
            return NULL;
        }
        n = lc_py_upload(q, (PyArrayObject *)obj, dt);
    } else {
        PyArray_Descr *want = dt >= 0 ? PyArray_DescrFromType(lc_py_npy_type(dt)) : NULL;
        PyArrayObject *arr = (PyArrayObject *)PyArray_FromAny(obj, want, 0, 0,
                                                              want ? NPY_ARRAY_FORCECAST : 0, NULL);
        if (arr) {
            n = lc_py_upload(q, arr, dt);
            Py_DECREF(arr);
        }
    }
    PyObject *r = n ? lc_py_wrap(n, q) : NULL;
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
    int nd = lc_py_int_seq(shape_o, shape, "shape");
    if (nd < 0)
        return NULL;
    PyObject *q = lc_py_resolve_queue(device);
    if (!q)
        return NULL;
    struct lc_node *c = lc_py_operand(value, q);
    PyObject *r = NULL;
    if (c) {
        if (!lc_node_is_leaf(c) || c->ndim != 0) {
            PyErr_SetString(PyExc_ValueError, "fill value must be a scalar");
        } else {
            int dt = lc_py_parse_dtype(dtype_o, -1);
            if (dt == -1) {
                /* NumPy's default for a Python scalar: bool, int64, float64. */
                dt = c->dtype;
            }
            if (dt >= 0) {
                struct lc_error e = {0};
                struct lc_node *n = lc_node_const_cast(c, dt, nd, shape, 0, &e);
                r = n ? lc_py_wrap(n, q) : lc_py_raise(&e);
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
    int dt = lc_py_parse_dtype(dtype_o, LC_FLOAT64);
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
    struct lc_node *node = lc_node_iota(lc_py_q(q), dt, v0, v1, n, &e);
    PyObject *r = node ? lc_py_wrap(node, q) : lc_py_raise(&e);
    Py_DECREF(q);
    return r;
}

static PyObject *py_random(PyObject *Py_UNUSED(m), PyObject *args)
{
    PyObject *dtype_o, *device;
    int dist;
    unsigned long long key, offset;
    long long n;
    if (!PyArg_ParseTuple(args, "OiKKLO:_random", &dtype_o, &dist, &key, &offset, &n, &device))
        return NULL;
    int dt = lc_py_parse_dtype(dtype_o, LC_FLOAT64);
    if (dt < 0)
        return NULL;
    PyObject *q = lc_py_resolve_queue(device);
    if (!q)
        return NULL;
    struct lc_error e = {0};
    struct lc_node *node = lc_node_random(lc_py_q(q), dt, dist, key, offset, n, &e);
    PyObject *r = node ? lc_py_wrap(node, q) : lc_py_raise(&e);
    Py_DECREF(q);
    return r;
}

/* _unary(op, x) and _binary(op, a, b): fast calls (the ufuncs' hot path). */
static PyObject *py_unary(PyObject *Py_UNUSED(m), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2)
        return PyErr_Format(PyExc_TypeError, "_unary takes 2 arguments (%zd given)", nargs);
    PyObject *x = args[1];
    int op = lc_opcode(args[0]);
    lc_py_Array *a = op < 0 ? NULL : lc_py_as_array(x);
    if (!a)
        return NULL;
    return lc_py_unary_obj(op, x);
}

static PyObject *py_binary(PyObject *Py_UNUSED(m), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3)
        return PyErr_Format(PyExc_TypeError, "_binary takes 3 arguments (%zd given)", nargs);
    PyObject *a = args[1], *b = args[2];
    int op = lc_opcode(args[0]);
    if (op < 0)
        return NULL;
    if (op == LC_OP_POW)
        return lc_py_array_pow(a, b, Py_None);
    return lc_py_binary_obj(op, a, b);
}

/* _ufunc_call(op, fallback, x[, y], **kw): the call of the ufunc of a unary or
 * binary op (lazycl/_ufuncs.py binds op and fallback per ufunc): op's node when
 * one operand at least is a lazycl array and no keyword is given, as _unary and
 * _binary; anything else (out=, only host operands, a wrong count) is
 * fallback(x[, y], **kw), the ufunc's Python call. */
static PyObject *py_ufunc_call(PyObject *Py_UNUSED(m), PyObject *const *args, Py_ssize_t nargs,
                               PyObject *kwnames)
{
    if (nargs < 2)
        return PyErr_Format(PyExc_TypeError, "_ufunc_call takes op and fallback");
    int op = lc_opcode(args[0]);
    if (op < 0)
        return NULL;
    Py_ssize_t n = nargs - 2;
    int any = 0;
    for (Py_ssize_t i = 0; i < n; i++)
        any |= LC_PY_IS_ARRAY(args[2 + i]);
    if ((kwnames && PyTuple_GET_SIZE(kwnames)) || n != lc_op_arity(op) || !any ||
        (lc_op_kind(op) != LC_KIND_UNARY && lc_op_kind(op) != LC_KIND_BINARY))
        return PyObject_Vectorcall(args[1], args + 2, n, kwnames);
    if (n == 1)
        return lc_py_unary_obj(op, args[2]);
    if (op == LC_OP_POW)
        return lc_py_array_pow(args[2], args[3], Py_None);
    return lc_py_binary_obj(op, args[2], args[3]);
}

static PyObject *py_where(PyObject *Py_UNUSED(m), PyObject *args)
{
    PyObject *ops[3];
    if (!PyArg_ParseTuple(args, "OOO:where", &ops[0], &ops[1], &ops[2]))
        return NULL;
    PyObject *q = lc_py_common_queue(ops, 3);
    if (!q)
        return NULL;
    struct lc_node *n[3] = {NULL, NULL, NULL};
    PyObject *r = NULL;
    for (int i = 0; i < 3; i++)
        if (!(n[i] = lc_py_operand(ops[i], q)))
            goto done;
    if (lc_py_check_weak_int(n[1], n[2]) < 0 || lc_py_check_weak_int(n[2], n[1]) < 0)
        goto done;
    struct lc_error e = {0};
    struct lc_node *w = lc_node_where(n[0], n[1], n[2], &e);
    r = w ? lc_py_wrap(w, q) : lc_py_raise(&e);
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
    lc_py_Array *a = lc_py_as_array(x);
    if (!a)
        return NULL;
    int dt = lc_py_parse_dtype(dtype_o, -1);
    if (dt == -2)
        return NULL;
    if (dt < 0) {
        PyErr_SetString(PyExc_TypeError, "astype needs a dtype");
        return NULL;
    }
    struct lc_error e = {0};
    struct lc_node *r = lc_node_cast(a->node, dt, &e);
    return r ? lc_py_wrap(r, a->queue) : lc_py_raise(&e);
}

/* x viewed with another shape by `build` (reshape, broadcast_to). */
static PyObject *lc_shape_view(PyObject *args, const char *fmt, int may_copy,
                               struct lc_node *(*build)(struct lc_node *, int, const int64_t *,
                                                        struct lc_error *))
{
    PyObject *x, *shape_o;
    if (!PyArg_ParseTuple(args, fmt, &x, &shape_o))
        return NULL;
    lc_py_Array *a = lc_py_as_array(x);
    if (!a)
        return NULL;
    int64_t shape[LC_MAXDIM];
    int nd = lc_py_int_seq(shape_o, shape, "shape");
    if (nd < 0)
        return NULL;
    struct lc_error e = {0};
    struct lc_node *r = build(a->node, nd, shape, &e);
    return r ? lc_py_wrap_view(r, a, may_copy) : lc_py_raise(&e);
}

static PyObject *py_reshape(PyObject *Py_UNUSED(m), PyObject *args)
{
    return lc_shape_view(args, "OO:reshape", 1, lc_node_reshape);
}

static PyObject *py_permute(PyObject *Py_UNUSED(m), PyObject *args)
{
    PyObject *x, *perm_o;
    if (!PyArg_ParseTuple(args, "OO:permute_dims", &x, &perm_o))
        return NULL;
    lc_py_Array *a = lc_py_as_array(x);
    if (!a)
        return NULL;
    int64_t perm[LC_MAXDIM];
    int np_ = lc_py_int_seq(perm_o, perm, "axes");
    if (np_ < 0)
        return NULL;
    if (np_ != a->node->ndim) {
        PyErr_SetString(PyExc_ValueError, "axes don't match array");
        return NULL;
    }
    struct lc_error e = {0};
    struct lc_node *r = lc_node_permute(a->node, perm, &e);
    return r ? lc_py_wrap_view(r, a, 0) : lc_py_raise(&e);
}

static PyObject *py_broadcast_to(PyObject *Py_UNUSED(m), PyObject *args)
{
    return lc_shape_view(args, "OO:broadcast_to", 0, lc_node_broadcast_to);
}

/* _slice(x, starts, steps, lens): normalized per-dim slices. */
static PyObject *py_slice(PyObject *Py_UNUSED(m), PyObject *args)
{
    PyObject *x, *s0, *s1, *s2;
    if (!PyArg_ParseTuple(args, "OOOO:_slice", &x, &s0, &s1, &s2))
        return NULL;
    lc_py_Array *a = lc_py_as_array(x);
    if (!a)
        return NULL;
    int64_t start[LC_MAXDIM], step[LC_MAXDIM], len[LC_MAXDIM];
    int n0 = lc_py_int_seq(s0, start, "starts"), n1 = lc_py_int_seq(s1, step, "steps"),
        n2 = lc_py_int_seq(s2, len, "lens");
    if (n0 < 0 || n1 < 0 || n2 < 0)
        return NULL;
    if (n0 != a->node->ndim || n1 != n0 || n2 != n0) {
        PyErr_SetString(PyExc_ValueError, "_slice needs one start, step and length per dim");
        return NULL;
    }
    struct lc_error e = {0};
    struct lc_node *r = lc_node_slice(a->node, start, step, len, &e);
    return r ? lc_py_wrap_view(r, a, 0) : lc_py_raise(&e);
}

/* _reduce(op, x, axes_tuple, ddof, kind) with axes already normalized. */
static PyObject *py_reduce(PyObject *Py_UNUSED(m), PyObject *args)
{
    PyObject *name, *x, *axes_o;
    int ddof = 0, kind = 0;
    if (!PyArg_ParseTuple(args, "OOO|ii:_reduce", &name, &x, &axes_o, &ddof, &kind))
        return NULL;
    int op = lc_opcode(name);
    lc_py_Array *a = op < 0 ? NULL : lc_py_as_array(x);
    if (!a)
        return NULL;
    int64_t axes[LC_MAXDIM];
    int na = lc_py_int_seq(axes_o, axes, "axes");
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
    return r ? lc_py_wrap(r, a->queue) : lc_py_raise(&e);
}

static PyObject *py_scan(PyObject *Py_UNUSED(m), PyObject *args)
{
    PyObject *name, *x;
    int axis;
    if (!PyArg_ParseTuple(args, "OOi:_scan", &name, &x, &axis))
        return NULL;
    int op = lc_opcode(name);
    lc_py_Array *a = op < 0 ? NULL : lc_py_as_array(x);
    if (!a)
        return NULL;
    struct lc_error e = {0};
    struct lc_node *r = lc_node_scan(op, a->node, axis, &e);
    return r ? lc_py_wrap(r, a->queue) : lc_py_raise(&e);
}

/* _exact(x) -> whether every value under x has the same bits on every code path (walk.h). */
static PyObject *py_exact(PyObject *Py_UNUSED(m), PyObject *x)
{
    lc_py_Array *a = lc_py_as_array(x);
    if (!a)
        return NULL;
    struct lc_error e = {0};
    int r = lc_graph_exact(a->node, &e);
    return r < 0 ? lc_py_raise(&e) : PyBool_FromLong(r);
}

static PyObject *py_sort(PyObject *Py_UNUSED(m), PyObject *args)
{
    PyObject *x;
    int axis, descending, arg;
    if (!PyArg_ParseTuple(args, "Oiii:_sort", &x, &axis, &descending, &arg))
        return NULL;
    lc_py_Array *a = lc_py_as_array(x);
    if (!a)
        return NULL;
    struct lc_error e = {0};
    struct lc_node *r = lc_node_sort(arg ? LC_OP_ARGSORT : LC_OP_SORT, a->node, axis, descending, &e);
    return r ? lc_py_wrap(r, a->queue) : lc_py_raise(&e);
}

static PyObject *py_argtopk(PyObject *Py_UNUSED(m), PyObject *args)
{
    PyObject *x;
    int axis, k, largest;
    if (!PyArg_ParseTuple(args, "Oiii:_argtopk", &x, &axis, &k, &largest))
        return NULL;
    lc_py_Array *a = lc_py_as_array(x);
    if (!a)
        return NULL;
    struct lc_error e = {0};
    struct lc_node *r = lc_node_topk(a->node, axis, k, largest, &e);
    return r ? lc_py_wrap(r, a->queue) : lc_py_raise(&e);
}

static PyObject *py_gather(PyObject *Py_UNUSED(m), PyObject *args)
{
    PyObject *x, *i;
    int axis, report_axis;
    if (!PyArg_ParseTuple(args, "OOii:_gather", &x, &i, &axis, &report_axis))
        return NULL;
    lc_py_Array *a = lc_py_as_array(x);
    lc_py_Array *b = a ? lc_py_as_array(i) : NULL;
    if (!b)
        return NULL;
    struct lc_error e = {0};
    struct lc_node *r = lc_node_gather(a->node, b->node, axis, report_axis, &e);
    return r ? lc_py_wrap(r, a->queue) : lc_py_raise(&e);
}

/* _inner(a, b, small_k): the inner product of two 1-d lazycl arrays of one
 * numeric dtype and one length over small_k, as lazycl/_linalg.py builds it (a
 * sum reduction of their product: two nodes, no Python in between); None for
 * anything else (other ndims, dtypes, lengths, queues, non-arrays), which the
 * caller's general path takes, with NumPy's errors. */
static PyObject *py_inner(PyObject *Py_UNUSED(m), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3)
        return PyErr_Format(PyExc_TypeError, "_inner takes 3 arguments (%zd given)", nargs);
    long small_k = PyLong_AsLong(args[2]);
    if (small_k == -1 && PyErr_Occurred())
        return NULL;
    if (!LC_PY_IS_ARRAY(args[0]) || !LC_PY_IS_ARRAY(args[1]))
        Py_RETURN_NONE;
    lc_py_Array *a = (lc_py_Array *)args[0], *b = (lc_py_Array *)args[1];
    struct lc_node *x = a->node, *y = b->node;
    char k = lc_dtype_kind(x->dtype);
    if (x->ndim != 1 || y->ndim != 1 || x->shape[0] != y->shape[0] || x->shape[0] <= small_k ||
        x->dtype != y->dtype || k == 'b' || a->queue != b->queue)
        Py_RETURN_NONE;
    struct lc_error e = {0};
    struct lc_node *p = lc_node_binary(LC_OP_MUL, x, y, &e);
    if (!p)
        return lc_py_raise(&e);
    struct lc_node *r = lc_node_reduce(LC_OP_SUM, p, 1u, 0, 1, &e);   /* a product's sum */
    lc_node_release(p);
    return r ? lc_py_wrap(r, a->queue) : lc_py_raise(&e);
}

PyMethodDef lc_py_build_functions[] = {
    {"asarray", (PyCFunction)(void (*)(void))py_asarray, METH_VARARGS | METH_KEYWORDS,
     "asarray(obj, dtype=None, device=None, share=-1): a lazycl array from a NumPy array, list "
     "or scalar; share 0 shares a NumPy array's memory where the device computes in host memory, "
     "1 must, -1 copies."},
    {"_full", py_full, METH_VARARGS, "_full(value, shape, dtype, device)"},
    {"_iota", py_iota, METH_VARARGS, "_iota(start, step, n, dtype, device)"},
    {"_random", py_random, METH_VARARGS,
     "_random(dtype, dist, key, offset, n, device): n Philox values, element k of counter "
     "offset + k (dist 0 bits, 1 uniform, 2 normal; graph.h)"},
    {"_unary", (PyCFunction)(void (*)(void))py_unary, METH_FASTCALL, "_unary(op, x)"},
    {"_binary", (PyCFunction)(void (*)(void))py_binary, METH_FASTCALL, "_binary(op, a, b)"},
    {"_ufunc_call", (PyCFunction)(void (*)(void))py_ufunc_call, METH_FASTCALL | METH_KEYWORDS,
     "_ufunc_call(op, fallback, x[, y], **kw)"},
    {"where", py_where, METH_VARARGS, "where(cond, a, b): elements of a where cond, else of b."},
    {"astype", py_cast, METH_VARARGS, "astype(x, dtype): a cast copy of x (lazy)."},
    {"reshape", py_reshape, METH_VARARGS, "reshape(x, shape): a view with another shape."},
    {"permute_dims", py_permute, METH_VARARGS, "permute_dims(x, axes): a transposed view."},
    {"broadcast_to", py_broadcast_to, METH_VARARGS, "broadcast_to(x, shape): a broadcast view."},
    {"_slice", py_slice, METH_VARARGS, "_slice(x, starts, steps, lens)"},
    {"_reduce", py_reduce, METH_VARARGS, "_reduce(op, x, axes, ddof=0, kind=0)"},
    {"_scan", py_scan, METH_VARARGS, "_scan(op, x, axis)"},
    {"_exact", py_exact, METH_O,
     "_exact(x): whether every value under x has the same bits on every code path (no "
     "transcendental math, normal random source or user function)"},
    {"_argtopk", py_argtopk, METH_VARARGS,
     "_argtopk(x, axis, k, largest): the int64 positions of the k best along axis, best first"},
    {"_sort", py_sort, METH_VARARGS,
     "_sort(x, axis, descending, arg): a stable sort along axis (arg: the int64 positions)"},
    {"_gather", py_gather, METH_VARARGS,
     "_gather(src, idx, axis, report_axis): src read at idx along axis (lc_node_gather)"},
    {"_inner", (PyCFunction)(void (*)(void))py_inner, METH_FASTCALL,
     "_inner(a, b, small_k): the sum of products of two 1-d arrays of one dtype and one length "
     "over small_k (lazycl/_linalg.py), or None"},
    {NULL, NULL, 0, NULL},
};
