/* py_launch.c: hand-written kernels through lazycl's runtime: _alloc and _launch.
 *
 * For the benchmarks' hardware ceilings and for tests; lazy arrays never need them.
 */
#include "lcpy.h"

#include "engine/engine.h"
#include "graph/graph.h"

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
    int wd = lc_py_int_seq(gl_o, g64, "global size");
    if (wd < 1 || wd > 3) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "global size needs 1 to 3 dims");
        return NULL;
    }
    int has_local = lo_o != Py_None;
    if (has_local && lc_py_int_seq(lo_o, l64, "local size") != wd) {
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

PyMethodDef lc_py_launch_functions[] = {
    {"_alloc", py_alloc, METH_VARARGS, "_alloc(shape, dtype, device): uninitialized device memory."},
    {"_launch", py_launch, METH_VARARGS, "_launch(queue, source, name, global, local, args)"},
    {NULL, NULL, 0, NULL},
};
