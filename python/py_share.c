/* py_share.c: NumPy's memory and lazycl's, shared where the device computes in host memory.
 *
 * In: lc.asarray(a) of a NumPy array, on a device that computes in host memory
 * (runtime/hostmem.c's LC_HOST_WRAP: a CPU device), makes a buffer over a's memory
 * (CL_MEM_USE_HOST_PTR) with a's offset and strides instead of a copy, as np.asarray
 * shares: the buffer holds a reference to `a` until the driver lets go of it. The
 * driver says so on any thread, so the reference is dropped later, from the main
 * thread under the GIL (Py_AddPendingCall); DLPack imports (py_dlpack.c) hold a
 * producer's tensor the same way.
 *
 * Out: np.asarray(y) of a computed array on a device whose mapped buffers are their
 * storage (LC_HOST_MAP) is a NumPy view of the buffer, pinned (mapped, and held out of
 * the pool) as long as the view lives, with y's offset and strides, as a DLPack export
 * without a copy is.
 *
 * Elsewhere (a GPU), np.asarray(y) of a big y is a new NumPy array in pinned memory (an
 * lc_pinned_t region, runtime/staging.c), which the device writes at the link's speed.
 *
 * Either way the buffer is then shared with the host (lc_buffer_shared): a lazycl write
 * into it computes the pending readers first and writes in place, where NumPy sees it.
 */
#include "lcpy.h"

#include "engine/engine.h"
#include "graph/graph.h"
#include "python/dlpack.h"

#include <pthread.h>
#include <stdlib.h>

/* NumPy results of at least this many bytes from a GPU go in pinned memory. */
#define LC_PY_PINNED_MIN ((size_t)4 << 20)
#include <string.h>

/* ---- what a buffer over host memory holds ---------------------------------------------- */

struct lc_py_hold {
    PyObject *obj;        /* a NumPy array (a strong reference), or NULL */
    void *managed;        /* else a DLPack tensor, deleted by its deleter */
    int versioned;
    struct lc_py_hold *next;
};

static pthread_mutex_t lc_hold_lock = PTHREAD_MUTEX_INITIALIZER;
static struct lc_py_hold *lc_hold_released;   /* under lc_hold_lock */
static int lc_hold_scheduled;                 /* under lc_hold_lock: a pending call is queued */

struct lc_py_hold *lc_py_hold_new(PyObject *obj, void *managed, int versioned)
{
    struct lc_py_hold *h = malloc(sizeof *h);
    if (!h) {
        PyErr_NoMemory();
        return NULL;
    }
    h->obj = Py_XNewRef(obj);
    h->managed = managed;
    h->versioned = versioned;
    h->next = NULL;
    return h;
}

/* Under the GIL: let go of h's object or tensor. */
void lc_py_hold_discard(struct lc_py_hold *h)
{
    if (h->obj) {
        Py_DECREF(h->obj);
    } else if (h->versioned) {
        DLManagedTensorVersioned *v = h->managed;
        if (v->deleter)
            v->deleter(v);
    } else if (h->managed) {
        DLManagedTensor *l = h->managed;
        if (l->deleter)
            l->deleter(l);
    }
    free(h);
}

static int lc_hold_drain(void *Py_UNUSED(arg))
{
    pthread_mutex_lock(&lc_hold_lock);
    struct lc_py_hold *h = lc_hold_released;
    lc_hold_released = NULL;
    lc_hold_scheduled = 0;
    pthread_mutex_unlock(&lc_hold_lock);
    while (h) {
        struct lc_py_hold *next = h->next;
        lc_py_hold_discard(h);
        h = next;
    }
    return 0;
}

void lc_py_holds_drain(void)
{
    lc_hold_drain(NULL);
}

void lc_py_hold_release(void *ctx)
{
    struct lc_py_hold *h = ctx;
    pthread_mutex_lock(&lc_hold_lock);
    h->next = lc_hold_released;
    lc_hold_released = h;
    int schedule = !lc_hold_scheduled;
    lc_hold_scheduled = 1;
    pthread_mutex_unlock(&lc_hold_lock);
    /* If the call cannot be queued (its queue is full), the next share or import, or
     * _dlpack_drain(), lets go. At exit, it is left. */
    if (schedule && (!Py_IsInitialized() || Py_AddPendingCall(lc_hold_drain, NULL) < 0)) {
        pthread_mutex_lock(&lc_hold_lock);
        lc_hold_scheduled = 0;
        pthread_mutex_unlock(&lc_hold_lock);
    }
}

int lc_py_buffer_shared(lc_buffer_t b)
{
    if (!lc_buffer_shared(b))
        return 0;
    if (lc_buffer_pinned(b))
        return 1;
    /* Over a NumPy array that nothing but this buffer holds (lc.asarray(a.copy()), or the
     * caller let go of a): no one else can see the memory, now or later. */
    struct lc_py_hold *h = lc_buffer_host_owner(b);
    return !(h && h->obj && Py_REFCNT(h->obj) == 1);
}

size_t lc_py_host_align(lc_device_t dev, size_t isz)
{
    /* lazycl's kernels read elements at their natural alignment; the GPU schedules
     * (LAZYCL_SCHEDULE=gpu on a CPU device) read 16-byte vectors from buffers they
     * assume aligned as the device's own. */
    size_t align = isz, dev_align = lc_device_info(dev)->mem_base_addr_align / 8;
    if (dev_align > align && !strcmp(lc_engine_schedule_kind(dev), "gpu"))
        align = dev_align;
    return align;
}

/* ---- in: lc.asarray without a copy ------------------------------------------------------- */

struct lc_node *lc_py_share_ndarray(PyObject *queue, PyArrayObject *arr, int want_dt, int *readonly,
                                    const char **why)
{
    lc_py_holds_drain();
    lc_device_t dev = lc_queue_device(lc_py_q(queue));
    int dt = lc_py_dtype_of_descr(PyArray_DESCR(arr));
    int ndim = PyArray_NDIM(arr);
    size_t isz = dt >= 0 ? lc_dtype_size(dt) : 0;
    *why = NULL;
    if (!(lc_device_host_sharing(dev) & LC_HOST_WRAP))
        *why = "the device does not compute in host memory";
    else if (dt < 0 || (want_dt >= 0 && want_dt != dt))
        *why = "the dtype differs";
    else if (!PyArray_ISNOTSWAPPED(arr))
        *why = "the byte order is not the machine's";
    else if (ndim > LC_MAXDIM)
        *why = "it has too many dimensions";
    else if ((dt == LC_FLOAT64 || dt == LC_COMPLEX128) && !lc_device_info(dev)->fp64)
        *why = "the device has no fp64";
    else if (PyArray_SIZE(arr) == 0)
        *why = "it is empty";
    if (*why)
        return NULL;
    int64_t shape[LC_MAXDIM], strides[LC_MAXDIM], lo = 0, hi = 1;
    for (int d = 0; d < ndim; d++) {
        npy_intp st = PyArray_STRIDE(arr, d);
        shape[d] = PyArray_DIM(arr, d);
        if (st % (npy_intp)isz) {
            *why = "its strides are not whole elements";
            return NULL;
        }
        strides[d] = st / (npy_intp)isz;
        if (strides[d] < 0)
            lo += strides[d] * (shape[d] - 1);
        else
            hi += strides[d] * (shape[d] - 1);
    }
    char *base = (char *)PyArray_DATA(arr) + lo * (int64_t)isz;
    if ((uintptr_t)base % lc_py_host_align(dev, isz)) {
        *why = "the memory is not aligned as the device's kernels read it";
        return NULL;
    }
    struct lc_py_hold *h = lc_py_hold_new((PyObject *)arr, NULL, 0);
    if (!h)
        return NULL;
    struct lc_error e = {0};
    lc_buffer_t b;
    if (lc_buffer_wrap_host(dev, base, (size_t)(hi - lo) * isz, lc_py_hold_release, h, &b, &e) !=
        LC_OK) {
        lc_py_hold_discard(h);
        lc_py_raise(&e);
        return NULL;
    }
    struct lc_storage *s = lc_engine_storage(b);
    if (!s) {
        PyErr_NoMemory();
        return NULL;
    }
    struct lc_node *n = lc_node_buffer(lc_py_q(queue), dt, ndim, shape, s, -lo, strides, &e);
    lc_storage_release(s);
    if (!n)
        return lc_py_raise(&e), NULL;
    *readonly = !PyArray_ISWRITEABLE(arr);
    return n;
}

/* ---- out: NumPy views of lazycl buffers ------------------------------------------------ */

lc_buffer_t lc_py_pin(lc_py_Array *x, void **host)
{
    struct lc_node *n = x->node;
    lc_queue_t q = lc_py_q(x->queue);
    lc_buffer_t b = lc_engine_buffer(n->storage);
    struct lc_error e = {0};
    lc_status st;
    lc_buffer_retain(b);
    Py_BEGIN_ALLOW_THREADS
    st = lc_engine_ready(q, n->storage, &e);   /* a deferred IndexError, not its data */
    if (st == LC_OK)
        st = lc_pokes_flush(q, n->storage, &e);
    if (st == LC_OK)
        st = lc_buffer_pin(q, b, host, &e);
    Py_END_ALLOW_THREADS
    lc_buffer_release(b);
    if (st != LC_OK)
        return lc_py_raise(&e), NULL;
    return b;
}

/* A NumPy array of `data` (dims, strides in bytes or NULL, flags) whose base is `base` (the
 * reference is taken, also on failure). */
static PyObject *lc_np_over(PyObject *base, int dt, int ndim, npy_intp *dims, npy_intp *strides,
                            void *data, int flags)
{
    PyArray_Descr *descr = PyArray_DescrFromType(lc_py_npy_type(dt));
    PyObject *v = descr ? PyArray_NewFromDescr(&PyArray_Type, descr, ndim, dims, strides, data,
                                               flags, NULL)
                        : NULL;
    if (!v || PyArray_SetBaseObject((PyArrayObject *)v, base) < 0) {
        Py_XDECREF(v);
        Py_DECREF(base);
        return NULL;
    }
    return v;
}

/* The base of a view: a capsule whose destructor drops the pin (any thread, no GIL needed by
 * lc_buffer_unpin). */
static void lc_view_base_free(PyObject *cap)
{
    lc_buffer_t b = PyCapsule_GetPointer(cap, "lazycl.pinned_buffer");
    if (b) {
        Py_BEGIN_ALLOW_THREADS
        lc_buffer_unpin(b);
        Py_END_ALLOW_THREADS
    } else {
        PyErr_WriteUnraisable(cap);
    }
}

/* _host_view(x) -> a NumPy view of x's memory (x computed first), or None where the device's
 * buffers are not host memory. Read-only where x is. */
static PyObject *py_host_view(PyObject *Py_UNUSED(m), PyObject *xo)
{
    lc_py_Array *x = lc_py_as_array(xo);
    if (!x)
        return NULL;
    lc_queue_t q = lc_py_q(x->queue);
    if (!(lc_device_host_sharing(lc_queue_device(q)) & LC_HOST_MAP))
        Py_RETURN_NONE;
    int ro;
    if (lc_py_realize(x, &ro) < 0)
        return NULL;
    struct lc_node *n = x->node;
    int ndim = n->ndim, dt = n->dtype;
    size_t isz = lc_dtype_size(dt);
    npy_intp dims[LC_MAXDIM], strides[LC_MAXDIM];
    for (int d = 0; d < ndim; d++) {
        dims[d] = (npy_intp)n->shape[d];
        strides[d] = (npy_intp)(n->strides[d] * (int64_t)isz);
    }
    void *host;
    lc_buffer_t b = lc_py_pin(x, &host);
    if (!b)
        return NULL;
    PyObject *base = PyCapsule_New(b, "lazycl.pinned_buffer", lc_view_base_free);
    if (!base) {
        lc_buffer_unpin(b);
        return NULL;
    }
    return lc_np_over(base, dt, ndim, dims, strides, (char *)host + (size_t)n->offset * isz,
                      ro ? 0 : NPY_ARRAY_WRITEABLE);
}

/* The base of a NumPy array in pinned memory: frees the region (to the pinned cache). */
static void lc_pinned_base_free(PyObject *cap)
{
    lc_pinned_t p = PyCapsule_GetPointer(cap, "lazycl.pinned_host");
    if (p)
        lc_pinned_free(p);
    else
        PyErr_WriteUnraisable(cap);
}

PyObject *lc_py_new_host_array(lc_queue_t q, int ndim, const npy_intp *dims, int dt)
{
    lc_device_t dev = lc_queue_device(q);
    size_t nbytes = lc_dtype_size(dt);
    for (int d = 0; d < ndim; d++)
        nbytes *= (size_t)dims[d];
    /* Big results from a device with memory of its own land in pinned memory: the DMA
     * engine writes them at the link's speed, with no staging copy. */
    if (nbytes < LC_PY_PINNED_MIN || lc_device_host_sharing(dev) ||
        lc_device_info(dev)->type == LC_DEVICE_CPU)
        return PyArray_SimpleNew(ndim, (npy_intp *)dims, lc_py_npy_type(dt));
    struct lc_error e = {0};
    lc_pinned_t p;
    void *host;
    lc_status st;
    Py_BEGIN_ALLOW_THREADS
    st = lc_pinned_alloc(dev, nbytes, &p, &host, &e);
    Py_END_ALLOW_THREADS
    if (st != LC_OK) {
        lc_error_clear(&e);
        return PyArray_SimpleNew(ndim, (npy_intp *)dims, lc_py_npy_type(dt));
    }
    PyObject *base = PyCapsule_New(p, "lazycl.pinned_host", lc_pinned_base_free);
    if (!base) {
        lc_pinned_free(p);
        return NULL;
    }
    return lc_np_over(base, dt, ndim, (npy_intp *)dims, NULL, host, NPY_ARRAY_CARRAY);
}

/* _host_shares(device) -> (lc.asarray shares NumPy memory, np.asarray views lazycl memory). */
static PyObject *py_host_shares(PyObject *Py_UNUSED(m), PyObject *device)
{
    PyObject *q = lc_py_resolve_queue(device);
    if (!q)
        return NULL;
    int s = lc_device_host_sharing(lc_queue_device(lc_py_q(q)));
    Py_DECREF(q);
    return Py_BuildValue("(OO)", s & LC_HOST_WRAP ? Py_True : Py_False,
                         s & LC_HOST_MAP ? Py_True : Py_False);
}

/* _stage_roundtrip(device, data, offset) -> data written to a buffer at `offset` through the
 * device's pinned staging slots and read back the same way (a uint8 NumPy array; for tests:
 * the chunking of runtime/staging.c on any device). */
static PyObject *py_stage_roundtrip(PyObject *Py_UNUSED(m), PyObject *args)
{
    PyObject *device, *data_o;
    Py_ssize_t offset;
    if (!PyArg_ParseTuple(args, "OOn:_stage_roundtrip", &device, &data_o, &offset))
        return NULL;
    PyArrayObject *src = (PyArrayObject *)PyArray_FROMANY(data_o, NPY_UINT8, 1, 1,
                                                          NPY_ARRAY_C_CONTIGUOUS);
    if (!src)
        return NULL;
    size_t n = (size_t)PyArray_SIZE(src);
    npy_intp dims[1] = {(npy_intp)n};
    PyObject *out = PyArray_SimpleNew(1, dims, NPY_UINT8);
    PyObject *q = out ? lc_py_resolve_queue(device) : NULL;
    if (!q) {
        Py_DECREF(src);
        Py_XDECREF(out);
        return NULL;
    }
    lc_queue_t lq = lc_py_q(q);
    struct lc_error e = {0};
    lc_status st;
    int done_w = 0, done_r = 0;
    void *sp = PyArray_DATA(src), *dp = PyArray_DATA((PyArrayObject *)out);
    Py_BEGIN_ALLOW_THREADS
    lc_buffer_t b = NULL;
    st = lc_buffer_alloc(lc_queue_device(lq), n + (size_t)offset, &b, &e);
    if (st == LC_OK)
        st = lc_stage_transfer(lq, b, (size_t)offset, sp, n, 1, &done_w, &e);
    if (st == LC_OK)
        st = lc_stage_transfer(lq, b, (size_t)offset, dp, n, 0, &done_r, &e);
    if (st == LC_OK)
        st = lc_queue_finish(lq, &e);
    lc_buffer_release(b);
    Py_END_ALLOW_THREADS
    Py_DECREF(src);
    Py_DECREF(q);
    if (st != LC_OK) {
        Py_DECREF(out);
        return lc_py_raise(&e);
    }
    if (!done_w || !done_r) {
        Py_DECREF(out);
        PyErr_SetString(PyExc_RuntimeError, "the device's pinned staging slots could not be made");
        return NULL;
    }
    return out;
}

static PyObject *py_holds_drain(PyObject *Py_UNUSED(m), PyObject *Py_UNUSED(ignored))
{
    lc_py_holds_drain();
    Py_RETURN_NONE;
}

PyMethodDef lc_py_share_functions[] = {
    {"_host_view", py_host_view, METH_O,
     "_host_view(x) -> a NumPy view of x's buffer (computed first; pinned while the view "
     "lives), or None where the device's memory is not host memory."},
    {"_host_shares", py_host_shares, METH_O,
     "_host_shares(device) -> (asarray shares NumPy memory, NumPy views of lazycl memory)."},
    {"_stage_roundtrip", py_stage_roundtrip, METH_VARARGS,
     "_stage_roundtrip(device, data, offset) -> data through the pinned staging slots and back "
     "(for tests)."},
    {"_dlpack_drain", py_holds_drain, METH_NOARGS,
     "_dlpack_drain(): drop the host memory (NumPy arrays, DLPack tensors) of buffers the "
     "device has let go of now."},
    {NULL, NULL, 0, NULL},
};
