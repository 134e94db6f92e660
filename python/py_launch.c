/* py_launch.c: hand-written kernels through lazycl's runtime: _alloc, _launch, and
 * _raw_launch under lazycl.RawKernel (python/lazycl/_kernels.py).
 *
 * _alloc and _launch serve the benchmarks' hardware ceilings and tests; _raw_launch runs a
 * user's kernel on lazycl arrays with the write rules of py_write.c.
 */
#include "lcpy.h"

#include "engine/engine.h"
#include "graph/graph.h"

#include <string.h>

/* _alloc(shape, dtype, device): a realized array of uninitialized device
 * memory, for hand-written kernels (benchmarks, tests). */
static PyObject *py_alloc(PyObject *Py_UNUSED(m), PyObject *args)
{
    PyObject *shape_o, *dtype_o, *device;
    if (!PyArg_ParseTuple(args, "OOO:_alloc", &shape_o, &dtype_o, &device))
        return NULL;
    int64_t shape[LC_MAXDIM];
    int nd = lc_py_int_seq(shape_o, shape, "shape");
    if (nd < 0)
        return NULL;
    int dt = lc_py_parse_dtype(dtype_o, LC_FLOAT32);
    if (dt < 0)
        return NULL;
    PyObject *q = lc_py_resolve_queue(device);
    if (!q)
        return NULL;
    struct lc_error e = {0};
    lc_buffer_t b;
    PyObject *r = NULL;
    int64_t size = lc_shape_size(nd, shape);
    if (lc_buffer_alloc(lc_queue_device(lc_py_q(q)), (size_t)size * lc_dtype_size(dt), &b, &e) != LC_OK) {
        lc_py_raise(&e);
    } else {
        struct lc_storage *s = lc_engine_storage(b);
        if (!s) {
            PyErr_NoMemory();
        } else {
            struct lc_node *n = lc_node_buffer(lc_py_q(q), dt, nd, shape, s, 0, NULL, &e);
            lc_storage_release(s);
            r = n ? lc_py_wrap(n, q) : lc_py_raise(&e);
        }
    }
    Py_DECREF(q);
    return r;
}

/* The lc_arg kind of a scalar of each dtype. */
static const enum lc_arg_kind lc_scalar_kind[LC_NDTYPES] = {
    [LC_BOOL] = LC_ARG_U8, [LC_INT8] = LC_ARG_I8, [LC_INT16] = LC_ARG_I16,
    [LC_INT32] = LC_ARG_I32, [LC_INT64] = LC_ARG_I64, [LC_UINT8] = LC_ARG_U8,
    [LC_UINT16] = LC_ARG_U16, [LC_UINT32] = LC_ARG_U32, [LC_UINT64] = LC_ARG_U64,
    [LC_FLOAT32] = LC_ARG_F32, [LC_FLOAT64] = LC_ARG_F64, [LC_COMPLEX64] = LC_ARG_C64,
    [LC_COMPLEX128] = LC_ARG_C128};

/* A launch's global size (an int or 1 to 3 ints) and local size (None, or as many ints):
 * the dims, or -1 with ValueError/TypeError. Unused dims are 1. */
static int lc_range_parse(PyObject *gl_o, PyObject *lo_o, size_t gs[3], size_t ls[3],
                          int *has_local)
{
    int64_t g64[LC_MAXDIM], l64[LC_MAXDIM];
    int wd = lc_py_int_seq(gl_o, g64, "global size");
    if (wd < 0)
        return -1;
    if (wd < 1 || wd > 3) {
        PyErr_Format(PyExc_ValueError, "the global size needs 1 to 3 dims, not %d", wd);
        return -1;
    }
    *has_local = lo_o != Py_None;
    int lw = *has_local ? lc_py_int_seq(lo_o, l64, "local size") : wd;
    if (lw < 0)
        return -1;
    if (lw != wd) {
        PyErr_Format(PyExc_ValueError, "the local size has %d dims, the global size %d", lw, wd);
        return -1;
    }
    for (int i = 0; i < 3; i++) {
        int64_t g = i < wd ? g64[i] : 1, l = i < wd && *has_local ? l64[i] : 1;
        if (g < 0 || l < 1) {
            PyErr_Format(PyExc_ValueError, "%s size %lld in dim %d: sizes are %s",
                         g < 0 ? "global" : "local", (long long)(g < 0 ? g : l), i,
                         g < 0 ? "at least 0" : "at least 1");
            return -1;
        }
        gs[i] = (size_t)g;
        ls[i] = (size_t)l;
    }
    return wd;
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
    size_t gs[3], ls[3];
    int has_local;
    int wd = lc_range_parse(gl_o, lo_o, gs, ls, &has_local);
    if (wd < 0)
        return NULL;
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
        if (LC_PY_IS_ARRAY(o)) {
            struct lc_node *n = ((lc_py_Array *)o)->node;
            if (n->op != LC_OP_BUFFER || !lc_node_is_contiguous(n) || n->offset != 0) {
                PyErr_SetString(PyExc_ValueError, "_launch takes computed contiguous arrays");
                goto fail;
            }
            struct lc_error pe = {0};
            if (lc_engine_ready(NULL, n->storage, &pe) != LC_OK ||
                lc_pokes_flush(lc_py_q(((lc_py_Array *)o)->queue), n->storage, &pe) != LC_OK) {
                lc_py_raise(&pe);
                goto fail;
            }
            av[i].kind = LC_ARG_BUFFER;
            av[i].v.buf = lc_engine_buffer(n->storage);
        } else if (PyTuple_Check(o) && PyTuple_GET_SIZE(o) == 2) {
            int dt = lc_py_parse_dtype(PyTuple_GET_ITEM(o, 0), -1);
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
            av[i].kind = lc_scalar_kind[dt];
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
    lc_queue_t q = lc_py_q(queue);
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
        return lc_py_raise(&e);
    Py_RETURN_NONE;
fail:
    PyMem_Free(av);
    Py_DECREF(f);
    return NULL;
}

/* ---- _raw_launch: lazycl.RawKernel's call ------------------------------------------ */

/* One argument of _raw_launch. */
struct lc_raw_arg {
    char kind;              /* 'r' an array read, 'w' an array written, 's' a scalar, 'l' local */
    lc_py_Array *a;         /* 'r', 'w': borrowed (the args sequence holds it) */
    const char *label;      /* 'r', 'w': "RawKernel 'k' argument 2 ('y')", for messages */
    struct lc_node *tmp;    /* 'r': a contiguous copy the kernel reads instead (owned) */
};

static int lc_contiguous_from_start(const struct lc_node *n)
{
    return n->op == LC_OP_BUFFER && n->storage && lc_node_is_contiguous(n) && n->offset == 0;
}

/* Parse _raw_launch's args into ra and the scalar and local ones into av; *queue is the
 * queue of the arrays (borrowed), or NULL when there is none. 0, or -1 with an exception. */
static int lc_raw_parse(PyObject *f, struct lc_raw_arg *ra, struct lc_arg *av, PyObject **queue)
{
    const char *qlabel = NULL;
    *queue = NULL;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(f); i++) {
        PyObject *o = PySequence_Fast_GET_ITEM(f, i);
        const char *k = PyTuple_Check(o) && PyTuple_GET_SIZE(o) >= 2 &&
                        PyUnicode_Check(PyTuple_GET_ITEM(o, 0))
                            ? PyUnicode_AsUTF8(PyTuple_GET_ITEM(o, 0)) : NULL;
        if (!k || !k[0] || k[1] || !strchr("rwsl", k[0]) ||
            PyTuple_GET_SIZE(o) != (k[0] == 'l' ? 2 : 3)) {
            PyErr_SetString(PyExc_TypeError, "internal: _raw_launch args are ('r'|'w', array, "
                            "label), ('s', dtype name, bytes) or ('l', nbytes)");
            return -1;
        }
        ra[i].kind = k[0];
        PyObject *v = PyTuple_GET_ITEM(o, 1);
        if (k[0] == 'r' || k[0] == 'w') {
            if (!(ra[i].a = lc_py_as_array(v)) ||
                !(ra[i].label = PyUnicode_AsUTF8(PyTuple_GET_ITEM(o, 2))))
                return -1;
            PyObject *qi = ra[i].a->queue;
            if (!*queue) {
                *queue = qi;
                qlabel = ra[i].label;
            } else if (lc_py_q(qi) != lc_py_q(*queue)) {
                PyObject *di = ((lc_py_Queue *)qi)->device, *d0 = ((lc_py_Queue *)*queue)->device;
                if (di == d0)
                    PyErr_Format(lc_py_PlacementError,
                                 "%s lives on another queue of %R than %s: a kernel runs on one "
                                 "queue (use x.to_device(queue) to move one first)", ra[i].label,
                                 di, qlabel);
                else
                    PyErr_Format(lc_py_PlacementError,
                                 "%s lives on %R, %s on %R: a kernel runs where all its arrays "
                                 "are (use x.to_device(d) to move one first)", ra[i].label, di,
                                 qlabel, d0);
                return -1;
            }
        } else if (k[0] == 's') {
            const char *dn = PyUnicode_Check(v) ? PyUnicode_AsUTF8(v) : NULL;
            int dt = dn ? lc_dtype_from_name(dn) : -1;
            PyObject *b = PyTuple_GET_ITEM(o, 2);
            if (dt < 0 || !PyBytes_Check(b) || (size_t)PyBytes_GET_SIZE(b) != lc_dtype_size(dt)) {
                PyErr_SetString(PyExc_TypeError, "internal: a scalar is (dtype name, its bytes)");
                return -1;
            }
            av[i].kind = lc_scalar_kind[dt];
            memcpy(&av[i].v, PyBytes_AS_STRING(b), lc_dtype_size(dt));
        } else {
            av[i].kind = LC_ARG_LOCAL;
            av[i].v.local_bytes = PyLong_AsSize_t(v);
            if (av[i].v.local_bytes == (size_t)-1 && PyErr_Occurred())
                return -1;
        }
    }
    return 0;
}

/* Force n[0..m) on q, without the GIL; releases the references n holds. 0, or -1 with an
 * exception. */
static int lc_raw_force(lc_queue_t q, struct lc_node **n, size_t m)
{
    if (!m)
        return 0;
    struct lc_error e = {0};
    lc_status st;
    Py_BEGIN_ALLOW_THREADS
    st = lc_engine_force(q, n, m, 0, &e);
    Py_END_ALLOW_THREADS
    for (size_t i = 0; i < m; i++)
        lc_node_release(n[i]);
    return st == LC_OK ? 0 : (lc_py_raise(&e), -1);
}

/* _raw_launch(device, source, name, options, global, local, args): lazycl.RawKernel's call
 * (python/lazycl/_kernels.py checks the types first). args: ('r', array, label) for an array
 * the kernel only reads, ('w', array, label) for one it may write, ('s', dtype name, bytes)
 * for a scalar, ('l', nbytes) for __local memory. The kernel runs on the queue of the arrays
 * (`device` may name it: None, a filter string, a Device or a Queue), in this order:
 *   1. the kernel is got from the kernel cache (a build error raises before anything runs);
 *   2. arrays written are made leaves of a realized buffer (as a write makes them; views
 *      then see the kernel's writes), which must be C-contiguous from its start: the runtime
 *      passes whole buffers, and a copy of a view would lose the writes (ValueError);
 *   3. arrays read that are pending are computed (one force); views and other leaves that
 *      are not contiguous from the start of a buffer are copied first;
 *   4. the buffers written are made the kernel's alone (lc_py_own_buffer: pending readers of
 *      the old values keep them);
 *   5. deferred index checks and recorded element writes of every buffer are resolved, and
 *      the kernel is enqueued (asynchronous, unless a buffer written is shared with another
 *      library: then it is finished before this returns, as a write is). */
static PyObject *py_raw_launch(PyObject *Py_UNUSED(m), PyObject *args)
{
    PyObject *dev_o, *gl_o, *lo_o, *kargs;
    const char *source, *name, *options;
    if (!PyArg_ParseTuple(args, "OsssOOO:_raw_launch", &dev_o, &source, &name, &options, &gl_o,
                          &lo_o, &kargs))
        return NULL;
    size_t gs[3], ls[3];
    int has_local;
    int wd = lc_range_parse(gl_o, lo_o, gs, ls, &has_local);
    if (wd < 0)
        return NULL;
    PyObject *f = PySequence_Fast(kargs, "args must be a sequence");
    if (!f)
        return NULL;
    Py_ssize_t na = PySequence_Fast_GET_SIZE(f);
    size_t nalloc = (size_t)(na ? na : 1);
    struct lc_arg *av = PyMem_Calloc(nalloc, sizeof *av);
    struct lc_raw_arg *ra = PyMem_Calloc(nalloc, sizeof *ra);
    /* Nodes held while the GIL is released (another thread may give an array another
     * node meanwhile): those to force, then those bound to the launch. */
    struct lc_node **held = PyMem_Calloc(nalloc, sizeof *held);
    size_t nheld = 0;
    PyObject *dq = NULL, *queue = NULL, *ret = NULL;
    struct lc_error e = {0};
    lc_status st;
    if (!av || !ra || !held) {
        PyErr_NoMemory();
        goto done;
    }
    if (lc_raw_parse(f, ra, av, &queue) < 0)
        goto done;
    if (dev_o != Py_None) {
        if (!(dq = lc_py_resolve_queue(dev_o)))
            goto done;
        if (queue && lc_py_q(dq) != lc_py_q(queue)) {
            PyErr_Format(lc_py_PlacementError,
                         "the kernel's arrays live on %R, not on %R (use x.to_device(d) to move "
                         "them first)", ((lc_py_Queue *)queue)->device, ((lc_py_Queue *)dq)->device);
            goto done;
        }
    }
    if (!queue && !(queue = dq = dq ? dq : lc_py_resolve_queue(Py_None)))
        goto done;
    lc_queue_t q = lc_py_q(queue);

    /* 1. The kernel. */
    lc_kernel_t k;
    Py_BEGIN_ALLOW_THREADS
    st = lc_kernel_get(lc_queue_device(q), source, name, options, &k, &e);
    Py_END_ALLOW_THREADS
    if (st != LC_OK) {
        lc_py_raise(&e);
        goto done;
    }
    /* 2. Arrays written: leaves of a realized buffer, contiguous from its start. */
    for (Py_ssize_t i = 0; i < na; i++) {
        if (ra[i].kind != 'w')
            continue;
        int ro;
        if (lc_py_realize(ra[i].a, &ro) < 0)
            goto done;
        if (ro) {
            PyErr_Format(PyExc_ValueError,
                         "%s: assignment destination is read-only (the kernel may write this "
                         "parameter; declare it const if it only reads it)", ra[i].label);
            goto done;
        }
        if (!lc_contiguous_from_start(ra[i].a->node)) {
            PyErr_Format(PyExc_ValueError,
                         "%s: the kernel may write this array, so it must be C-contiguous from "
                         "the start of its memory, not a view with an offset or strides (declare "
                         "the parameter const if the kernel only reads it, or pass a contiguous "
                         "copy and assign it back)", ra[i].label);
            goto done;
        }
    }
    /* 3. Arrays read: pending ones computed where they are (they stay computed), views and
     * other leaves copied (a view computed in place would stop seeing writes to its root). */
    for (Py_ssize_t i = 0; i < na; i++) {
        if (ra[i].kind != 'r')
            continue;
        struct lc_node *n = ra[i].a->node;
        if (lc_contiguous_from_start(n))
            continue;
        if (lc_node_is_leaf(n) || lc_op_kind(n->op) == LC_KIND_VIEW) {
            if (!(ra[i].tmp = lc_node_copy(n, &e))) {
                lc_py_raise(&e);
                goto done;
            }
            n = ra[i].tmp;
        }
        size_t j = 0;
        while (j < nheld && held[j] != n)
            j++;
        if (j == nheld) {
            lc_node_retain(n);
            held[nheld++] = n;
        }
    }
    int frc = lc_raw_force(q, held, nheld);
    nheld = 0;
    if (frc < 0)
        goto done;
    /* 4. Buffers written: the kernel's alone. */
    int shared = 0;
    for (Py_ssize_t i = 0; i < na; i++) {
        if (ra[i].kind != 'w')
            continue;
        int rc = lc_py_own_buffer(ra[i].a);
        if (rc < 0)
            goto done;
        shared |= rc;
    }
    /* 5. Bind and launch. */
    for (Py_ssize_t i = 0; i < na; i++) {
        if (ra[i].kind != 'r' && ra[i].kind != 'w')
            continue;
        struct lc_node *n = ra[i].tmp ? ra[i].tmp : ra[i].a->node;
        if (!lc_contiguous_from_start(n)) {
            PyErr_Format(PyExc_RuntimeError, "internal: %s is not a contiguous buffer", ra[i].label);
            goto done;
        }
        if (lc_engine_ready(NULL, n->storage, &e) != LC_OK ||
            lc_pokes_flush(q, n->storage, &e) != LC_OK) {
            lc_py_raise(&e);
            goto done;
        }
        av[i].kind = LC_ARG_BUFFER;
        av[i].v.buf = lc_engine_buffer(n->storage);
        lc_node_retain(n);
        held[nheld++] = n;
    }
    Py_BEGIN_ALLOW_THREADS
    st = lc_kernel_launch(q, k, (unsigned)wd, gs, has_local ? ls : NULL, av, (size_t)na, &e);
    if (st == LC_OK && shared)
        st = lc_queue_finish(q, &e);
    Py_END_ALLOW_THREADS
    if (st != LC_OK) {
        lc_py_raise(&e);
        goto done;
    }
    ret = Py_NewRef(Py_None);
done:
    if (ra)
        for (Py_ssize_t i = 0; i < na; i++)
            if (ra[i].tmp)
                lc_node_release(ra[i].tmp);
    for (size_t i = 0; i < nheld; i++)
        lc_node_release(held[i]);
    PyMem_Free(av);
    PyMem_Free(ra);
    PyMem_Free(held);
    Py_XDECREF(dq);
    Py_DECREF(f);
    return ret;
}

PyMethodDef lc_py_launch_functions[] = {
    {"_alloc", py_alloc, METH_VARARGS, "_alloc(shape, dtype, device): uninitialized device memory."},
    {"_launch", py_launch, METH_VARARGS, "_launch(queue, source, name, global, local, args)"},
    {"_raw_launch", py_raw_launch, METH_VARARGS,
     "_raw_launch(device, source, name, options, global, local, args): lazycl.RawKernel's call."},
    {NULL, NULL, 0, NULL},
};
