/* py_force.c: running pending graphs and reading results: compute, numpy, explain. */
#include "lcpy.h"

#include "engine/engine.h"
#include "fusion/fusion.h"
#include "graph/graph.h"

#include <stdlib.h>

/* Force the nodes of `arrays` (a sequence of Arrays); groups by queue. With
 * `copy_leaves`, views and constants become contiguous buffers too. With
 * `wait`, waits (GIL released) until the device is done. */
static int lc_force(PyObject *const *arrays, Py_ssize_t n, int copy_leaves, int wait)
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
    if (!here) {
        PyMem_Free(nodes);
        PyMem_Free(taken);
    }
    return rc;
}

static PyObject *Array_compute(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    if (lc_force(&self, 1, 0, 1) < 0)
        return NULL;
    return Py_NewRef(self);
}

static PyObject *lc_py_read_node(lc_py_Array *a, struct lc_node *n);

/* A new NumPy array with the values (forces and waits). */
static PyObject *Array_numpy(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    lc_py_Array *a = (lc_py_Array *)self;
    if (lc_force(&self, 1, 0, 0) < 0)
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
    PyObject *out = PyArray_SimpleNew(n->ndim, dims, lc_py_npy_type(n->dtype));
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
    {"compute", Array_compute, METH_NOARGS,
     "Run the pending graph under this array and wait until it is ready on its device; returns self."},
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

PyMethodDef lc_py_force_functions[] = {
    {"compute", py_compute, METH_VARARGS,
     "compute(*arrays): run the pending graphs under the arrays in as few kernels as "
     "possible (outputs over the same index space share one) and wait."},
    {"_explain", py_explain, METH_VARARGS, "_explain(*arrays) -> str: the plan and OpenCL C."},
    {NULL, NULL, 0, NULL},
};
