/* py_dlpack.c: DLPack capsules out of lazycl arrays (__dlpack__) and into them (from_dlpack).
 *
 * Out: on a device whose mapped buffers are their storage (a CPU device,
 * runtime/hostmem.c), the array is computed and made a leaf of its buffer (as
 * a write would: its views stay views), the buffer is pinned (mapped, and
 * held out of the pool) and the capsule points into the mapping with the
 * array's offset and strides: zero-copy. The pin goes when the consumer calls
 * the deleter. Elsewhere (GPUs, copy=True, a read-only array in a legacy
 * capsule) the capsule holds a host copy in memory of its own.
 *
 * In: host memory (kDLCPU) on a device that computes in host memory becomes a
 * buffer over that memory (CL_MEM_USE_HOST_PTR): zero-copy, with the offset
 * and strides of the producer's tensor. The capsule is then consumed (renamed
 * "used_dltensor[_versioned]") and the producer's deleter runs once the
 * driver has let go of the buffer: the driver tells us on any thread, so the
 * deleter is queued and called later from the main thread under the GIL
 * (Py_AddPendingCall). Otherwise the memory is copied to the device and the
 * capsule is left to its own destructor.
 *
 * python/lazycl/_dlpack.py parses the keywords; these functions do the work.
 */
#include "lcpy.h"

#include "engine/engine.h"
#include "graph/graph.h"
#include "python/dlpack.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static PyObject *lc_py_DLPackCopyError;  /* BufferError and ValueError: from_dlpack(copy=False) */

/* ---- export ------------------------------------------------------------------------- */

struct lc_dl_export {
    union {
        DLManagedTensor legacy;
        DLManagedTensorVersioned v;
    } m;
    int64_t shape[LC_MAXDIM];
    int64_t strides[LC_MAXDIM];
    lc_buffer_t pinned;   /* zero-copy: the pinned buffer (one pin, one reference) */
    void *copy;           /* otherwise: the host copy */
};

/* The deleters: any thread, no GIL needed (nothing here touches Python). */
static void lc_dl_export_free(struct lc_dl_export *x)
{
    if (x->pinned)
        lc_buffer_unpin(x->pinned);
    free(x->copy);
    free(x);
}

static void lc_dl_delete_legacy(DLManagedTensor *m)
{
    lc_dl_export_free(m->manager_ctx);
}

static void lc_dl_delete_versioned(DLManagedTensorVersioned *m)
{
    lc_dl_export_free(m->manager_ctx);
}

/* A capsule nobody consumed (still under its first name) deletes its tensor;
 * one a consumer renamed "used_..." belongs to the consumer. */
static void lc_dl_capsule_free(PyObject *cap, const char *name, int versioned)
{
    if (!PyCapsule_IsValid(cap, name))
        return;
    PyObject *et, *ev, *tb;
    PyErr_Fetch(&et, &ev, &tb);
    void *p = PyCapsule_GetPointer(cap, name);
    if (p && versioned && ((DLManagedTensorVersioned *)p)->deleter)
        ((DLManagedTensorVersioned *)p)->deleter(p);
    else if (p && !versioned && ((DLManagedTensor *)p)->deleter)
        ((DLManagedTensor *)p)->deleter(p);
    else if (!p)
        PyErr_WriteUnraisable(cap);
    PyErr_Restore(et, ev, tb);
}

static void lc_dl_capsule_legacy(PyObject *cap)
{
    lc_dl_capsule_free(cap, "dltensor", 0);
}

static void lc_dl_capsule_versioned(PyObject *cap)
{
    lc_dl_capsule_free(cap, "dltensor_versioned", 1);
}

/* Compute x and read it into host memory of its own (row-major). */
static int lc_dl_host_copy(lc_py_Array *x, struct lc_dl_export *ex)
{
    struct lc_error e = {0};
    lc_queue_t q = lc_py_q(x->queue);
    struct lc_node *n = x->node;
    lc_status st;
    size_t isz = lc_dtype_size(n->dtype), nbytes = (size_t)n->size * isz;
    ex->copy = aligned_alloc(64, (nbytes + 63) / 64 * 64 + 64);
    if (!ex->copy) {
        PyErr_NoMemory();
        return -1;
    }
    /* The array itself is computed (as compute() does); a view or a constant
     * is copied into a contiguous buffer first. */
    Py_BEGIN_ALLOW_THREADS
    st = lc_engine_force(q, &n, 1, 0, &e);
    Py_END_ALLOW_THREADS
    if (st != LC_OK) {
        lc_py_raise(&e);
        return -1;
    }
    lc_shape_strides(n->ndim, n->shape, ex->strides);
    struct lc_node *c = NULL;
    if (!(n->op == LC_OP_BUFFER && lc_node_is_contiguous(n))) {
        if (!(c = lc_node_copy(n, &e))) {
            lc_py_raise(&e);
            return -1;
        }
        n = c;
        Py_BEGIN_ALLOW_THREADS
        st = lc_engine_force(q, &n, 1, 0, &e);
        Py_END_ALLOW_THREADS
    }
    if (st == LC_OK) {
        void *dst = ex->copy;
        Py_BEGIN_ALLOW_THREADS
        st = lc_engine_read(q, n, dst, &e);
        Py_END_ALLOW_THREADS
    }
    if (c)
        lc_node_release(c);
    if (st != LC_OK) {
        lc_py_raise(&e);
        return -1;
    }
    return 0;
}

/* _dlpack_export(x, versioned, copy): copy is -1 (None), 0 or 1. */
static PyObject *py_dlpack_export(PyObject *Py_UNUSED(m), PyObject *args)
{
    PyObject *xo;
    int versioned, copy;
    if (!PyArg_ParseTuple(args, "Oii:_dlpack_export", &xo, &versioned, &copy))
        return NULL;
    lc_py_Array *x = lc_py_as_array(xo);
    if (!x)
        return NULL;
    lc_queue_t q = lc_py_q(x->queue);
    lc_device_t dev = lc_queue_device(q);
    int shares = (lc_device_host_sharing(dev) & LC_HOST_MAP) != 0;
    int ro = x->readonly == 1, zero_copy = copy != 1 && shares;
    if (zero_copy) {
        if (lc_py_realize(x, &ro) < 0)
            return NULL;
        if (ro && !versioned)
            zero_copy = 0;
    }
    if (!zero_copy && copy == 0) {
        if (!shares)
            PyErr_Format(PyExc_BufferError,
                         "cannot export the array without a copy: the memory of device '%s' is not "
                         "host memory (its DLPack export is a host copy, which copy=False forbids)",
                         lc_device_info(dev)->name);
        else
            PyErr_SetString(PyExc_BufferError,
                            "cannot export a read-only array without a copy in a legacy DLPack "
                            "capsule, which cannot mark it read-only (ask with max_version=(1, 0))");
        return NULL;
    }
    struct lc_dl_export *ex = calloc(1, sizeof *ex);
    if (!ex)
        return PyErr_NoMemory();
    struct lc_node *n = x->node;
    int ndim = n->ndim, dtype = n->dtype;
    memcpy(ex->shape, n->shape, (size_t)ndim * sizeof *ex->shape);
    void *data;
    if (zero_copy) {
        /* x is now a leaf of its buffer: pin the buffer (it stays alive and
         * out of the pool while the consumer holds it). */
        size_t off = (size_t)n->offset * lc_dtype_size(dtype);
        memcpy(ex->strides, n->strides, (size_t)ndim * sizeof *ex->strides);
        void *host = NULL;
        lc_buffer_t b = lc_py_pin(x, &host);
        if (!b) {
            free(ex);
            return NULL;
        }
        ex->pinned = b;
        data = (char *)host + off;
    } else {
        if (lc_dl_host_copy(x, ex) < 0) {
            lc_dl_export_free(ex);
            return NULL;
        }
        data = ex->copy;
        ro = 0;   /* a copy of its own: the consumer may write it */
    }
    DLTensor *t = versioned ? &ex->m.v.dl_tensor : &ex->m.legacy.dl_tensor;
    t->data = data;
    t->device.device_type = kDLCPU;
    t->device.device_id = 0;
    t->ndim = ndim;
    t->dtype = lc_dl_dtype(dtype);
    t->shape = ex->shape;
    t->strides = ex->strides;
    t->byte_offset = 0;   /* data is element 0, as NumPy and PyTorch export */
    PyObject *cap;
    if (versioned) {
        ex->m.v.version.major = LC_DLPACK_MAJOR;
        ex->m.v.version.minor = LC_DLPACK_MINOR;
        ex->m.v.manager_ctx = ex;
        ex->m.v.deleter = lc_dl_delete_versioned;
        ex->m.v.flags = (ro ? DLPACK_FLAG_BITMASK_READ_ONLY : 0) |
                        (ex->copy ? DLPACK_FLAG_BITMASK_IS_COPIED : 0);
        cap = PyCapsule_New(&ex->m.v, "dltensor_versioned", lc_dl_capsule_versioned);
    } else {
        ex->m.legacy.manager_ctx = ex;
        ex->m.legacy.deleter = lc_dl_delete_legacy;
        cap = PyCapsule_New(&ex->m.legacy, "dltensor", lc_dl_capsule_legacy);
    }
    if (!cap)
        lc_dl_export_free(ex);
    return cap;
}

/* _dlpack_pointer(capsule) -> (data + byte_offset, flags): for tests. */
static PyObject *py_dlpack_pointer(PyObject *Py_UNUSED(m), PyObject *cap)
{
    if (PyCapsule_IsValid(cap, "dltensor_versioned")) {
        DLManagedTensorVersioned *v = PyCapsule_GetPointer(cap, "dltensor_versioned");
        return Py_BuildValue("(KK)", (unsigned long long)((uintptr_t)v->dl_tensor.data +
                                                          v->dl_tensor.byte_offset),
                             (unsigned long long)v->flags);
    }
    if (PyCapsule_IsValid(cap, "dltensor")) {
        DLManagedTensor *l = PyCapsule_GetPointer(cap, "dltensor");
        return Py_BuildValue("(Ki)", (unsigned long long)((uintptr_t)l->dl_tensor.data +
                                                          l->dl_tensor.byte_offset), 0);
    }
    PyErr_SetString(PyExc_TypeError, "expected an unconsumed DLPack capsule");
    return NULL;
}

/* ---- import ------------------------------------------------------------------------- */

/* "float16", "complex64", "int32 x4", "code 9 (8 bits)": a DLPack dtype in words. */
static void lc_dl_type_words(DLDataType t, char *buf, size_t n)
{
    static const char *const names[] = {"int", "uint", "float", "opaque", "bfloat", "complex", "bool"};
    int k = t.code < 7 ? snprintf(buf, n, "%s%d", names[t.code], (int)t.bits)
                       : snprintf(buf, n, "code %d (%d bits)", (int)t.code, (int)t.bits);
    if (t.lanes != 1 && k > 0 && (size_t)k < n)
        snprintf(buf + k, n - (size_t)k, " x%d", (int)t.lanes);
}

/* A copy of the tensor on queue's device: a NumPy view of the memory, uploaded. */
static PyObject *lc_dl_import_copy(DLTensor *t, int dt, char *el0, PyObject *queue)
{
    npy_intp dims[LC_MAXDIM], strides[LC_MAXDIM];
    size_t isz = lc_dtype_size(dt);
    int64_t size = 1;
    for (int d = 0; d < t->ndim; d++) {
        dims[d] = (npy_intp)t->shape[d];
        size *= t->shape[d];
        if (t->strides)
            strides[d] = (npy_intp)(t->strides[d] * (int64_t)isz);
    }
    PyArray_Descr *descr = PyArray_DescrFromType(lc_py_npy_type(dt));
    if (!descr)
        return NULL;
    /* Empty: NumPy allocates its own (nothing is read). */
    PyObject *view = PyArray_NewFromDescr(&PyArray_Type, descr, t->ndim, dims,
                                          t->strides && size ? strides : NULL, size ? el0 : NULL,
                                          0, NULL);
    if (!view)
        return NULL;
    struct lc_node *n = lc_py_upload(queue, (PyArrayObject *)view, -1);
    Py_DECREF(view);
    return n ? lc_py_wrap(n, queue) : NULL;
}

/* _dlpack_import(capsule, device, copy): copy is -1 (None), 0 or 1. */
static PyObject *py_dlpack_import(PyObject *Py_UNUSED(m), PyObject *args)
{
    PyObject *cap, *device;
    int copy;
    if (!PyArg_ParseTuple(args, "OOi:_dlpack_import", &cap, &device, &copy))
        return NULL;
    lc_py_holds_drain();
    int versioned = PyCapsule_IsValid(cap, "dltensor_versioned");
    if (!versioned && !PyCapsule_IsValid(cap, "dltensor")) {
        const char *name = PyCapsule_CheckExact(cap) ? PyCapsule_GetName(cap) : NULL;
        PyErr_Clear();
        if (name && !strncmp(name, "used_dltensor", 13))
            PyErr_SetString(PyExc_ValueError, "this DLPack capsule was already consumed");
        else
            PyErr_Format(PyExc_TypeError, "__dlpack__ returned %R, not a DLPack capsule "
                         "('dltensor' or 'dltensor_versioned')", cap);
        return NULL;
    }
    void *managed = PyCapsule_GetPointer(cap, versioned ? "dltensor_versioned" : "dltensor");
    if (!managed)
        return NULL;
    DLTensor *t;
    int ro;
    if (versioned) {
        DLManagedTensorVersioned *v = managed;
        if (v->version.major != 1) {
            PyErr_Format(PyExc_BufferError, "unsupported DLPack version %u.%u: lazycl reads 1.x",
                         v->version.major, v->version.minor);
            return NULL;
        }
        t = &v->dl_tensor;
        ro = (v->flags & DLPACK_FLAG_BITMASK_READ_ONLY) != 0;
    } else {
        t = &((DLManagedTensor *)managed)->dl_tensor;
        ro = 1;   /* a legacy capsule cannot say whether it may be written: read-only, as NumPy */
    }
    int devtype = t->device.device_type;
    if (devtype != kDLCPU && devtype != kDLCUDAHost && devtype != kDLCUDAManaged) {
        PyErr_Format(PyExc_BufferError, "lazycl takes host memory from DLPack (kDLCPU), not device "
                     "type %d", devtype);
        return NULL;
    }
    int dt = lc_dl_lc_dtype(t->dtype);
    if (dt < 0) {
        char words[64];
        lc_dl_type_words(t->dtype, words, sizeof words);
        PyErr_Format(PyExc_BufferError, "lazycl does not support the DLPack dtype %s (supported: "
                     "bool, int8-64, uint8-64, float32, float64)", words);
        return NULL;
    }
    if (t->ndim < 0 || t->ndim > LC_MAXDIM) {
        PyErr_Format(PyExc_ValueError, "lazycl arrays have at most %d dimensions, got %d", LC_MAXDIM,
                     t->ndim);
        return NULL;
    }
    for (int d = 0; d < t->ndim; d++)
        if (t->shape[d] < 0) {
            PyErr_SetString(PyExc_BufferError, "DLPack tensor with a negative dimension");
            return NULL;
        }
    int64_t lo, hi;
    int touches = lc_dl_extent(t->ndim, t->shape, t->strides, &lo, &hi);
    if (touches < 0) {
        PyErr_SetString(PyExc_BufferError, "DLPack tensor whose extent overflows");
        return NULL;
    }
    PyObject *queue = lc_py_resolve_queue(device);
    if (!queue)
        return NULL;
    lc_device_t dev = lc_queue_device(lc_py_q(queue));
    const struct lc_device_info *di = lc_device_info(dev);
    PyObject *ret = NULL;
    if (dt == LC_FLOAT64 && !di->fp64) {
        PyErr_Format(PyExc_TypeError, "float64 is not supported on device '%s' (it has no fp64); use "
                     "float32 or a device with double precision", di->name);
        goto done;
    }
    size_t isz = lc_dtype_size(dt);
    char *el0 = (char *)t->data + t->byte_offset;
    char *base = el0 + lo * (int64_t)isz;
    size_t align = lc_py_host_align(dev, isz);
    const char *why = NULL;
    if (!(lc_device_host_sharing(dev) & LC_HOST_WRAP))
        why = "it does not compute in host memory";
    else if (touches && (!t->data || (uintptr_t)base % align))
        why = "the memory is not aligned as its kernels read it";
    if (copy == 0 && why && touches) {
        PyErr_Format(lc_py_DLPackCopyError,
                     "cannot take the DLPack tensor onto device '%s' without a copy: %s "
                     "(copy=False forbids the copy)", di->name, why);
        goto done;
    }
    if (copy == 1 || why || !touches) {
        ret = lc_dl_import_copy(t, dt, el0, queue);
        goto done;
    }
    struct lc_py_hold *h = lc_py_hold_new(NULL, managed, versioned);
    if (!h)
        goto done;
    struct lc_error e = {0};
    lc_buffer_t b;
    if (lc_buffer_wrap_host(dev, base, (size_t)(hi - lo) * isz, lc_py_hold_release, h, &b, &e) != LC_OK) {
        lc_py_hold_discard(h);
        if (copy == 0) {
            lc_py_raise(&e);
            goto done;
        }
        lc_error_clear(&e);
        ret = lc_dl_import_copy(t, dt, el0, queue);
        goto done;
    }
    /* The tensor is ours now: its deleter runs when the driver lets go of b. */
    PyCapsule_SetName(cap, versioned ? "used_dltensor_versioned" : "used_dltensor");
    struct lc_storage *s = lc_engine_storage(b);
    if (!s) {
        PyErr_NoMemory();
        goto done;
    }
    int64_t shape[LC_MAXDIM], strides[LC_MAXDIM];
    memcpy(shape, t->shape, (size_t)t->ndim * sizeof *shape);
    if (t->strides)
        memcpy(strides, t->strides, (size_t)t->ndim * sizeof *strides);
    else
        lc_shape_strides(t->ndim, shape, strides);
    struct lc_node *n = lc_node_buffer(lc_py_q(queue), dt, t->ndim, shape, s, -lo, strides, &e);
    lc_storage_release(s);
    if (!n) {
        lc_py_raise(&e);
        goto done;
    }
    ret = lc_py_wrap(n, queue);
    if (ret && ro)
        ((lc_py_Array *)ret)->readonly = 1;
done:
    Py_DECREF(queue);
    return ret;
}

PyMethodDef lc_py_dlpack_functions[] = {
    {"_dlpack_export", py_dlpack_export, METH_VARARGS,
     "_dlpack_export(x, versioned, copy) -> a DLPack capsule of x (copy: -1 None, 0, 1)."},
    {"_dlpack_import", py_dlpack_import, METH_VARARGS,
     "_dlpack_import(capsule, device, copy) -> an Array over (or copied from) the capsule's tensor."},
    {"_dlpack_pointer", py_dlpack_pointer, METH_O,
     "_dlpack_pointer(capsule) -> (address of element 0, flags) (for tests)."},
    {NULL, NULL, 0, NULL},
};

int lc_py_dlpack_setup(PyObject *m)
{
    PyObject *bases = PyTuple_Pack(2, PyExc_BufferError, PyExc_ValueError);
    if (!bases)
        return -1;
    lc_py_DLPackCopyError = PyErr_NewExceptionWithDoc(
        "lazycl.DLPackCopyError",
        "from_dlpack(..., copy=False) needs a copy. The array API standard names both BufferError "
        "and ValueError for this; it is both.", bases, NULL);
    Py_DECREF(bases);
    if (!lc_py_DLPackCopyError ||
        PyModule_AddObjectRef(m, "DLPackCopyError", lc_py_DLPackCopyError) < 0)
        return -1;
    return PyModule_AddFunctions(m, lc_py_dlpack_functions);
}
