/* py_force.c: running pending graphs and reading results: compute, numpy, explain. */
#include "lcpy.h"

#include "engine/engine.h"
#include "fusion/fusion.h"
#include "graph/graph.h"

#include <stdlib.h>

/* How lc_force waits. */
enum lc_py_wait {
    LC_PY_ENQUEUE,   /* enqueue; a plan that gathers reads its index check (a read follows) */
    LC_PY_WAIT,      /* then wait for the queue and report its deferred index errors */
    LC_PY_DEFER,     /* wait for nothing: index checks are deferred (engine/check.h) */
};

/* Force the nodes of `arrays` (a sequence of Arrays); groups by queue. With
 * `copy_leaves`, views and constants become contiguous buffers too. `how` is an
 * lc_py_wait; waits release the GIL (as the whole force does). */
static int lc_force(PyObject *const *arrays, Py_ssize_t n, int copy_leaves, int how)
{
    Py_ssize_t done = 0;
    /* A few arrays (the common case: one) need no allocation. */
    struct lc_node *nodes_here[8];
    char taken_here[8] = {0};
    int here = n <= 8;
    struct lc_node **nodes = here ? nodes_here : PyMem_Malloc((size_t)n * sizeof *nodes);
    char *taken = here ? taken_here : PyMem_Calloc((size_t)n, 1);
    if (!nodes || !taken) {
        if (!here) {
            PyMem_Free(nodes);
            PyMem_Free(taken);
        }
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
            if (lc_py_q(a->queue) != lc_py_q(queue))
                continue;
            taken[i] = 1;
            done++;
            nodes[m++] = a->node;
        }
        struct lc_error e = {0};
        lc_status st;
        lc_queue_t q = lc_py_q(queue);
        /* Fusion and codegen are quick and host-only; program builds and
         * enqueues may take time: the GIL is released for all of it. Nodes
         * are not touched by other threads meanwhile as long as the caller
         * holds references (the arrays do). */
        unsigned flags = (copy_leaves ? LC_FUSE_COPY_LEAVES : 0) |
                         (how == LC_PY_DEFER ? LC_FORCE_DEFER : 0);
        Py_BEGIN_ALLOW_THREADS
        st = lc_engine_force(q, nodes, m, flags, &e);
        if (st == LC_OK && how == LC_PY_WAIT)
            st = lc_engine_sync(q, NULL, &e);
        Py_END_ALLOW_THREADS
        if (st != LC_OK) {
            lc_py_raise(&e);
            rc = -1;
        }
    }
    if (!here) {
        PyMem_Free(nodes);
        PyMem_Free(taken);
    }
    return rc;
}

/* The `wait` keyword of compute: True (the default) or False; NULL-safe. */
static int lc_wait_arg(PyObject *kwargs, int *how)
{
    *how = LC_PY_WAIT;
    if (!kwargs)
        return 0;
    PyObject *w = NULL;
    Py_ssize_t nk = PyDict_GET_SIZE(kwargs);
    if (nk > 1 || (nk == 1 && !(w = PyDict_GetItemString(kwargs, "wait")))) {
        PyObject *key = NULL, *val;
        Py_ssize_t pos = 0;
        while (PyDict_Next(kwargs, &pos, &key, &val))
            if (PyUnicode_Check(key) && PyUnicode_CompareWithASCIIString(key, "wait") != 0)
                break;
        PyErr_Format(PyExc_TypeError, "compute() got an unexpected keyword argument '%S'", key);
        return -1;
    }
    if (w) {
        int t = PyObject_IsTrue(w);
        if (t < 0)
            return -1;
        *how = t ? LC_PY_WAIT : LC_PY_DEFER;
    }
    return 0;
}

static PyObject *Array_compute(PyObject *self, PyObject *args, PyObject *kwargs)
{
    int how;
    if (PyTuple_GET_SIZE(args)) {
        PyErr_SetString(PyExc_TypeError, "compute() takes no positional arguments");
        return NULL;
    }
    if (lc_wait_arg(kwargs, &how) < 0 || lc_force(&self, 1, 0, how) < 0)
        return NULL;
    return Py_NewRef(self);
}

static PyObject *lc_py_read_node(lc_py_Array *a, struct lc_node *n);

/* A new NumPy array with the values (forces and waits). */
static PyObject *Array_numpy(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    lc_py_Array *a = (lc_py_Array *)self;
    if (lc_force(&self, 1, 0, LC_PY_ENQUEUE) < 0)
        return NULL;
    /* A view or a constant is read through a contiguous copy; the array itself
     * stays what it is (a view keeps seeing its base's writes). */
    struct lc_node *n = a->node, *c = NULL;
    if (!(n->op == LC_OP_BUFFER && lc_node_is_contiguous(n))) {
        struct lc_error e = {0};
        lc_status st;
        lc_queue_t q = lc_py_q(a->queue);
        if (!(c = lc_node_copy(n, &e)))
            return lc_py_raise(&e);
        Py_BEGIN_ALLOW_THREADS
        st = lc_engine_force(q, &c, 1, 0, &e);
        Py_END_ALLOW_THREADS
        if (st != LC_OK) {
            lc_node_release(c);
            return lc_py_raise(&e);
        }
        n = c;
    }
    PyObject *r = lc_py_read_node(a, n);
    if (c)
        lc_node_release(c);
    return r;
}

/* A new NumPy array with the values of n, a contiguous buffer leaf of a's queue. */
static PyObject *lc_py_read_node(lc_py_Array *a, struct lc_node *n)
{
    npy_intp dims[LC_MAXDIM];
    for (int i = 0; i < n->ndim; i++)
        dims[i] = (npy_intp)n->shape[i];
    PyObject *out = lc_py_new_host_array(lc_py_q(a->queue), n->ndim, dims, n->dtype);
    if (!out)
        return NULL;
    struct lc_error e = {0};
    lc_status st;
    void *dst = PyArray_DATA((PyArrayObject *)out);
    lc_queue_t q = lc_py_q(a->queue);
    Py_BEGIN_ALLOW_THREADS
    st = lc_engine_read(q, n, dst, &e);
    Py_END_ALLOW_THREADS
    if (st != LC_OK) {
        Py_DECREF(out);
        return lc_py_raise(&e);
    }
    return out;
}

PyMethodDef lc_py_array_methods[] = {
    {"compute", (PyCFunction)(void (*)(void))Array_compute, METH_VARARGS | METH_KEYWORDS,
     "compute(*, wait=True): run the pending graph under this array and wait until it is ready "
     "on its device; returns self. With wait=False it is enqueued and returns at once: a later "
     "read or lazycl.synchronize() waits, and raises an IndexError deferred from it."},
    {"numpy", Array_numpy, METH_NOARGS, "Compute and copy to a new NumPy array."},
    {NULL, NULL, 0, NULL},
};

/* A flat tuple of Arrays from *args, each checked. */
static PyObject *lc_array_args(PyObject *args)
{
    Py_ssize_t n = PyTuple_GET_SIZE(args);
    for (Py_ssize_t i = 0; i < n; i++)
        if (!lc_py_as_array(PyTuple_GET_ITEM(args, i)))
            return NULL;
    return Py_NewRef(args);
}

static PyObject *py_compute(PyObject *Py_UNUSED(m), PyObject *args, PyObject *kwargs)
{
    int how;
    if (lc_wait_arg(kwargs, &how) < 0)
        return NULL;
    PyObject *t = lc_array_args(args);
    if (!t)
        return NULL;
    int rc = lc_force(&PyTuple_GET_ITEM(t, 0), PyTuple_GET_SIZE(t), 0, how);
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
        if (lc_py_q(a->queue) != lc_py_q(q0)) {
            PyMem_Free(nodes);
            Py_DECREF(t);
            return lc_py_placement_error(q0, a->queue);
        }
        nodes[i] = a->node;
    }
    struct lc_error e = {0};
    char *s;
    lc_queue_t q = lc_py_q(q0);
    /* It may wait for a force running in another thread: without the GIL. */
    Py_BEGIN_ALLOW_THREADS
    s = lc_engine_explain(q, nodes, (size_t)n, &e);
    Py_END_ALLOW_THREADS
    PyMem_Free(nodes);
    Py_DECREF(t);
    if (!s)
        return lc_py_raise(&e);
    PyObject *r = PyUnicode_FromString(s);
    free(s);
    return r;
}

/* synchronize(device=None): wait for every queue, a device's queues or one Queue. */
static PyObject *py_synchronize(PyObject *Py_UNUSED(m), PyObject *args, PyObject *kwargs)
{
    static char *kw[] = {"device", NULL};
    PyObject *arg = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O:synchronize", kw, &arg))
        return NULL;
    lc_queue_t q = NULL;
    lc_device_t d = NULL;
    if (PyObject_TypeCheck(arg, &lc_py_QueueType)) {
        q = lc_py_q(arg);
    } else if (arg != Py_None) {
        PyObject *qo = lc_py_resolve_queue(arg);
        if (!qo)
            return NULL;
        d = lc_queue_device(lc_py_q(qo));
        Py_DECREF(qo);
    }
    struct lc_error e = {0};
    lc_status st;
    Py_BEGIN_ALLOW_THREADS
    st = lc_engine_sync(q, d, &e);
    Py_END_ALLOW_THREADS
    if (st != LC_OK)
        return lc_py_raise(&e);
    Py_RETURN_NONE;
}

PyMethodDef lc_py_force_functions[] = {
    {"compute", (PyCFunction)(void (*)(void))py_compute, METH_VARARGS | METH_KEYWORDS,
     "compute(*arrays, wait=True): run the pending graphs under the arrays in as few kernels "
     "as possible (outputs over the same index space share one) and wait; wait=False "
     "enqueues and returns at once."},
    {"synchronize", (PyCFunction)(void (*)(void))py_synchronize, METH_VARARGS | METH_KEYWORDS,
     "synchronize(device=None): wait for the work enqueued on every queue (None), on a "
     "device's queues (a Device or filter string) or on one Queue, and raise an IndexError "
     "that a compute(wait=False) there deferred."},
    {"_explain", py_explain, METH_VARARGS, "_explain(*arrays) -> str: the plan and OpenCL C."},
    {NULL, NULL, 0, NULL},
};
