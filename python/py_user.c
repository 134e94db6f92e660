/* py_user.c: user functions (graph/userfn.h) from Python: _user_fn, _user_map (elementwise),
 * _user_reduce (reductions), _user_check. */
#include "lcpy.h"

#include "codegen/codegen.h"
#include "graph/graph.h"
#include "graph/userfn.h"

#include <stdlib.h>

/* Parse a sequence of (name, dtype) pairs into names and lazycl dtypes; the count or -1. */
static int lc_params(PyObject *seq, const char **names, int *dts, const char *what)
{
    PyObject *f = PySequence_Fast(seq, "parameters must be a sequence of (name, dtype) pairs");
    if (!f)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(f);
    if (n > LC_MAXIN) {
        PyErr_Format(PyExc_ValueError, "a user kernel takes at most %d %s, got %zd", LC_MAXIN,
                     what, n);
        Py_DECREF(f);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *p = PySequence_Fast_GET_ITEM(f, i);
        PyObject *dt_o;
        if (!PyArg_ParseTuple(p, "sO", &names[i], &dt_o) ||
            (dts[i] = lc_py_parse_dtype(dt_o, -1)) < 0) {
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_TypeError, "%s %zd has no dtype", what, i);
            Py_DECREF(f);
            return -1;
        }
    }
    /* The names stay valid while the caller's tuple lives (it holds the strings). */
    Py_DECREF(f);
    return (int)n;
}

/* _user_fn(name, inputs, outputs, body, preamble) -> id: inputs and outputs are sequences of
 * (name, dtype) pairs. */
static PyObject *py_user_fn(PyObject *Py_UNUSED(m), PyObject *args)
{
    const char *name, *body, *preamble;
    PyObject *ins, *outs;
    if (!PyArg_ParseTuple(args, "sOOss:_user_fn", &name, &ins, &outs, &body, &preamble))
        return NULL;
    const char *in_names[LC_MAXIN], *out_names[LC_MAXIN];
    int in_dt[LC_MAXIN], out_dt[LC_MAXIN];
    int n_in = lc_params(ins, in_names, in_dt, "inputs");
    if (n_in < 0)
        return NULL;
    int n_out = lc_params(outs, out_names, out_dt, "outputs");
    if (n_out < 0)
        return NULL;
    struct lc_error e = {0};
    uint64_t id = lc_userfn_register(name, n_in, in_dt, in_names, n_out, out_dt, out_names, body,
                                     preamble, &e);
    if (!id)
        return lc_py_raise(&e);
    return PyLong_FromUnsignedLongLong(id);
}

/* _user_map(id, out, arrays) -> the Array of output `out` of function `id` over `arrays` (lazycl
 * arrays on one queue, broadcast together and cast to the declared dtypes). */
static PyObject *py_user_map(PyObject *Py_UNUSED(m), PyObject *args)
{
    unsigned long long id;
    int out;
    PyObject *arrs;
    if (!PyArg_ParseTuple(args, "KiO!:_user_map", &id, &out, &PyTuple_Type, &arrs))
        return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(arrs);
    if (n < 1 || n > LC_MAXIN) {
        PyErr_Format(PyExc_ValueError, "a user kernel node takes 1 to %d inputs, got %zd",
                     LC_MAXIN, n);
        return NULL;
    }
    struct lc_node *in[LC_MAXIN];
    for (Py_ssize_t i = 0; i < n; i++) {
        lc_py_Array *a = lc_py_as_array(PyTuple_GET_ITEM(arrs, i));
        if (!a)
            return NULL;
        in[i] = a->node;
    }
    PyObject *queue = lc_py_common_queue(&PyTuple_GET_ITEM(arrs, 0), (int)n);
    if (!queue)
        return NULL;
    struct lc_error e = {0};
    struct lc_node *r = lc_node_user((uint64_t)id, out, in, (int)n, &e);
    return r ? lc_py_wrap(r, queue) : lc_py_raise(&e);   /* queue is borrowed */
}

/* _user_check(id, device): build function `id` alone on the device (through the kernel
 * caches): a compile error is lazycl.CompileError here, at the call that made it. `id` may
 * be a tuple of ids (a ReductionKernel's parts), built together in one program. */
static PyObject *py_user_check(PyObject *Py_UNUSED(m), PyObject *args)
{
    PyObject *ids, *device;
    if (!PyArg_ParseTuple(args, "OO:_user_check", &ids, &device))
        return NULL;
    uint64_t fns[LC_USER_CHECK_MAX];
    int n = 0;
    if (PyTuple_Check(ids)) {
        if (PyTuple_GET_SIZE(ids) < 1 || PyTuple_GET_SIZE(ids) > LC_USER_CHECK_MAX)
            return PyErr_Format(PyExc_ValueError, "_user_check takes 1 to %d functions",
                                LC_USER_CHECK_MAX);
        for (; n < PyTuple_GET_SIZE(ids); n++)
            if ((fns[n] = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(ids, n))) == (uint64_t)-1 &&
                PyErr_Occurred())
                return NULL;
    } else {
        if ((fns[0] = PyLong_AsUnsignedLongLong(ids)) == (uint64_t)-1 && PyErr_Occurred())
            return NULL;
        n = 1;
    }
    PyObject *q = lc_py_resolve_queue(device);
    if (!q)
        return NULL;
    lc_device_t d = lc_queue_device(lc_py_q(q));
    Py_DECREF(q);
    char *src = lc_user_check_sources(fns, n);
    if (!src)
        return PyErr_Format(PyExc_ValueError, "no user function %llx",
                            (unsigned long long)fns[0]);
    struct lc_error e = {0};
    lc_kernel_t k;
    lc_status st;
    Py_BEGIN_ALLOW_THREADS
    st = lc_kernel_get(d, src, "lc_ucheck", "", &k, &e);
    Py_END_ALLOW_THREADS
    free(src);
    if (st != LC_OK)
        return lc_py_raise(&e);
    Py_RETURN_NONE;
}

/* _user_reduce(fn, init, x, axes) -> the user reduction (graph.h lc_node_user_reduce) of x
 * over `axes` (a tuple of normalized axes): combining function `fn`, identity function `init`
 * (0: none). */
static PyObject *py_user_reduce(PyObject *Py_UNUSED(m), PyObject *args)
{
    unsigned long long fn, init;
    PyObject *x, *axes_o;
    if (!PyArg_ParseTuple(args, "KKOO!:_user_reduce", &fn, &init, &x, &PyTuple_Type, &axes_o))
        return NULL;
    lc_py_Array *a = lc_py_as_array(x);
    if (!a)
        return NULL;
    uint32_t mask = 0;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(axes_o); i++) {
        long ax = PyLong_AsLong(PyTuple_GET_ITEM(axes_o, i));
        if (ax == -1 && PyErr_Occurred())
            return NULL;
        if (ax < 0 || ax >= a->node->ndim)
            return PyErr_Format(PyExc_ValueError, "axis %ld is out of bounds for array of "
                                "dimension %d", ax, (int)a->node->ndim);
        mask |= 1u << ax;
    }
    struct lc_error e = {0};
    struct lc_node *r = lc_node_user_reduce((uint64_t)fn, (uint64_t)init, a->node, mask, &e);
    return r ? lc_py_wrap(r, a->queue) : lc_py_raise(&e);
}

PyMethodDef lc_py_user_functions[] = {
    {"_user_check", py_user_check, METH_VARARGS,
     "_user_check(id, device): build user function `id` alone (CompileError on failure)."},
    {"_user_fn", py_user_fn, METH_VARARGS,
     "_user_fn(name, inputs, outputs, body, preamble) -> id of a user elementwise function."},
    {"_user_reduce", py_user_reduce, METH_VARARGS,
     "_user_reduce(fn, init, x, axes) -> the user reduction of x over axes."},
    {"_user_map", py_user_map, METH_VARARGS,
     "_user_map(id, out, arrays) -> output `out` of user function `id` over the arrays."},
    {NULL, NULL, 0, NULL},
};
