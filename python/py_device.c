/* py_device.c: lazycl.Device, lazycl.Queue, devices(), default_device(), stats() and bench helpers.
 *
 * There is one Device object per C device and one default Queue object per
 * device, made on first request and kept for the life of the process (the C
 * devices live as long). Everything that may wait on a driver (discovery,
 * finish, builds, the benchmark) runs with the GIL released and touches no
 * PyObject meanwhile.
 */
#include "lcpy.h"

#include "engine/engine.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- helpers -------------------------------------------------------------------- */

/* Discover devices (once) with the GIL released; -1 with an exception on failure. */
static int ensure_init(void)
{
    static int done;
    if (done)
        return 0;
    struct lc_error e = {0};
    lc_status st;
    Py_BEGIN_ALLOW_THREADS
    st = lc_runtime_init(&e);
    Py_END_ALLOW_THREADS
    if (st != LC_OK) {
        lc_py_raise(&e);
        return -1;
    }
    done = 1;
    return 0;
}

static PyObject **device_objs;   /* one per device, NULL until made */
static PyObject **queue_objs;    /* the default Queue of each device */

static int alloc_caches(void)
{
    if (device_objs)
        return 0;
    size_t n = lc_device_count();
    device_objs = PyMem_Calloc(n ? n : 1, sizeof *device_objs);
    queue_objs = PyMem_Calloc(n ? n : 1, sizeof *queue_objs);
    if (!device_objs || !queue_objs) {
        PyMem_Free(device_objs);
        PyMem_Free(queue_objs);
        device_objs = queue_objs = NULL;
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static const char *type_name(int type)
{
    switch (type) {
    case LC_DEVICE_CPU: return "cpu";
    case LC_DEVICE_GPU: return "gpu";
    case LC_DEVICE_ACCELERATOR: return "accelerator";
    default: return "other";
    }
}

/* ---- Device --------------------------------------------------------------------- */

PyObject *lc_py_device_object(lc_device_t d)
{
    if (ensure_init() < 0 || alloc_caches() < 0)
        return NULL;
    int i = lc_device_info(d)->index;
    if (!device_objs[i]) {
        lc_py_Device *o = PyObject_New(lc_py_Device, &lc_py_DeviceType);
        if (!o)
            return NULL;
        o->dev = d;
        device_objs[i] = (PyObject *)o;
    }
    return Py_NewRef(device_objs[i]);
}

static PyObject *Device_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    (void)type;
    static char *kwlist[] = {"filter_string", NULL};
    const char *filter;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "s:Device", kwlist, &filter))
        return NULL;
    if (ensure_init() < 0)
        return NULL;
    struct lc_error e = {0};
    lc_device_t d;
    if (lc_device_select(filter, &d, &e) != LC_OK)
        return lc_py_raise(&e);
    return lc_py_device_object(d);
}

static void Device_dealloc(PyObject *self)
{
    /* Device objects are cached for ever; this runs only for one never cached. */
    Py_TYPE(self)->tp_free(self);
}

static PyObject *Device_repr(lc_py_Device *self)
{
    const struct lc_device_info *in = lc_device_info(self->dev);
    char f[160];
    lc_device_filter_string(self->dev, f, sizeof f);
    return PyUnicode_FromFormat("<lazycl.Device '%s' %s (%s), %u CU%s%s>", f, in->name, in->platform_name,
                                (unsigned)in->compute_units, in->fp64 ? ", fp64" : "",
                                in->takes_spirv ? ", SPIR-V" : "");
}

static PyObject *Device_richcompare(PyObject *a, PyObject *b, int op)
{
    if (!PyObject_TypeCheck(b, &lc_py_DeviceType) || (op != Py_EQ && op != Py_NE))
        Py_RETURN_NOTIMPLEMENTED;
    int eq = ((lc_py_Device *)a)->dev == ((lc_py_Device *)b)->dev;
    return PyBool_FromLong(op == Py_EQ ? eq : !eq);
}

static Py_hash_t Device_hash(lc_py_Device *self)
{
    Py_hash_t h = (Py_hash_t)((uintptr_t)self->dev >> 4);
    return h == -1 ? -2 : h;
}

enum dev_attr {
    DA_NAME, DA_VENDOR, DA_PLATFORM_NAME, DA_PLATFORM_VERSION, DA_DRIVER_VERSION, DA_OPENCL_C_VERSION,
    DA_IL_VERSION, DA_TYPE, DA_TAKES_SPIRV, DA_TAKES_SPIR, DA_FP64, DA_COMPUTE_UNITS, DA_GLOBAL_MEM, DA_LOCAL_MEM,
    DA_MAX_ALLOC, DA_MAX_WG, DA_VEC, DA_FILTER, DA_INDEX, DA_ALIGN, DA_SCHEDULE, DA_INTHREAD,
    DA_INTHREAD_LIMIT,
};

static PyObject *Device_get(lc_py_Device *self, void *closure)
{
    const struct lc_device_info *in = lc_device_info(self->dev);
    switch ((enum dev_attr)(intptr_t)closure) {
    case DA_NAME: return PyUnicode_FromString(in->name);
    case DA_VENDOR: return PyUnicode_FromString(in->vendor);
    case DA_PLATFORM_NAME: return PyUnicode_FromString(in->platform_name);
    case DA_PLATFORM_VERSION: return PyUnicode_FromString(in->platform_version);
    case DA_DRIVER_VERSION: return PyUnicode_FromString(in->driver_version);
    case DA_OPENCL_C_VERSION: return PyUnicode_FromString(in->opencl_c_version);
    case DA_IL_VERSION: return PyUnicode_FromString(in->il_version);
    case DA_TYPE: return PyUnicode_FromString(type_name(in->type));
    case DA_TAKES_SPIRV: return PyBool_FromLong(in->takes_spirv);
    case DA_TAKES_SPIR: return PyBool_FromLong(in->spir_llvm != 0);
    case DA_FP64: return PyBool_FromLong(in->fp64);
    case DA_COMPUTE_UNITS: return PyLong_FromUnsignedLong(in->compute_units);
    case DA_GLOBAL_MEM: return PyLong_FromUnsignedLongLong(in->global_mem);
    case DA_LOCAL_MEM: return PyLong_FromUnsignedLongLong(in->local_mem);
    case DA_MAX_ALLOC: return PyLong_FromUnsignedLongLong(in->max_alloc);
    case DA_MAX_WG: return PyLong_FromSize_t(in->max_work_group);
    case DA_VEC:
        return Py_BuildValue("{sIsIsIsIsIsI}", "char", (unsigned)in->pref_vec_char, "short",
                             (unsigned)in->pref_vec_short, "int", (unsigned)in->pref_vec_int, "long",
                             (unsigned)in->pref_vec_long, "float", (unsigned)in->pref_vec_float, "double",
                             (unsigned)in->pref_vec_double);
    case DA_FILTER: {
        char f[160];
        lc_device_filter_string(self->dev, f, sizeof f);
        return PyUnicode_FromString(f);
    }
    case DA_INDEX: return PyLong_FromLong(in->index);
    case DA_ALIGN: return PyLong_FromUnsignedLong(in->mem_base_addr_align);
    case DA_SCHEDULE: return PyUnicode_FromString(lc_engine_schedule_kind(self->dev));
    case DA_INTHREAD: {
        lc_device_t c = lc_device_inthread(self->dev);
        return c ? PyUnicode_FromString(lc_device_info(c)->name) : Py_NewRef(Py_None);
    }
    case DA_INTHREAD_LIMIT: {
        size_t n;
        Py_BEGIN_ALLOW_THREADS
        n = lc_device_inthread_limit(self->dev);   /* may time the device, once */
        Py_END_ALLOW_THREADS
        return PyLong_FromSize_t(n);
    }
    }
    Py_RETURN_NONE;
}

#define DEV_GET(name, id, doc) {name, (getter)Device_get, NULL, doc, (void *)(intptr_t)(id)}
static PyGetSetDef Device_getset[] = {
    DEV_GET("name", DA_NAME, "The device name (CL_DEVICE_NAME)."),
    DEV_GET("vendor", DA_VENDOR, "The device vendor."),
    DEV_GET("platform_name", DA_PLATFORM_NAME, "The name of the device's OpenCL platform."),
    DEV_GET("platform_version", DA_PLATFORM_VERSION, "The platform's version string."),
    DEV_GET("driver_version", DA_DRIVER_VERSION, "The driver version."),
    DEV_GET("opencl_c_version", DA_OPENCL_C_VERSION, "The OpenCL C version the device compiles."),
    DEV_GET("il_version", DA_IL_VERSION, "CL_DEVICE_IL_VERSION, '' when the device takes no IL."),
    DEV_GET("type", DA_TYPE, "'cpu', 'gpu', 'accelerator' or 'other'."),
    DEV_GET("takes_spirv", DA_TAKES_SPIRV, "Whether kernels are built through SPIR-V."),
    DEV_GET("takes_spir", DA_TAKES_SPIR, "Whether the device takes SPIR 1.2 bitcode (PoCL with "
            "cl_khr_spir): kernels are built through it when clang-15 matches PoCL's LLVM."),
    DEV_GET("fp64", DA_FP64, "Whether float64 is supported."),
    DEV_GET("compute_units", DA_COMPUTE_UNITS, "Number of compute units."),
    DEV_GET("global_mem", DA_GLOBAL_MEM, "Global memory in bytes."),
    DEV_GET("local_mem", DA_LOCAL_MEM, "Local memory per work-group in bytes."),
    DEV_GET("max_alloc", DA_MAX_ALLOC, "Largest single allocation in bytes."),
    DEV_GET("max_work_group_size", DA_MAX_WG, "Largest work-group size."),
    DEV_GET("preferred_vector_widths", DA_VEC, "Preferred vector widths per scalar type (dict)."),
    DEV_GET("filter_string", DA_FILTER, "A filter string that names exactly this device."),
    DEV_GET("index", DA_INDEX, "Index of the device in lazycl.devices()."),
    DEV_GET("mem_base_addr_align", DA_ALIGN, "Buffer base alignment in bits."),
    DEV_GET("schedule", DA_SCHEDULE, "The kind of device kernels are shaped for: 'gpu', 'simd' "
            "(CPUs) or 'cpu' (LAZYCL_SCHEDULE overrides the device's own)."),
    DEV_GET("inthread", DA_INTHREAD, "The name of the device that runs this one's small kernels in "
            "the calling thread (PoCL's basic device beside its pthread device), or None."),
    DEV_GET("inthread_limit", DA_INTHREAD_LIMIT, "Launches touching fewer bytes than this run in the "
            "calling thread; 0 without an in-thread device (timed once, or LAZYCL_INTHREAD)."),
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject lc_py_DeviceType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "lazycl.Device",
    .tp_basicsize = sizeof(lc_py_Device),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Device(filter_string): an OpenCL device, e.g. Device('cpu'), Device('pocl:cpu:0'), "
              "Device('nvidia:gpu:1').\n\nThe filter string is [platform:]type[:index]; platform is a "
              "case-insensitive substring of the platform's name or vendor. There is one Device object "
              "per device.",
    .tp_new = Device_new,
    .tp_dealloc = Device_dealloc,
    .tp_repr = (reprfunc)Device_repr,
    .tp_hash = (hashfunc)Device_hash,
    .tp_richcompare = Device_richcompare,
    .tp_getset = Device_getset,
};

/* ---- Queue ---------------------------------------------------------------------- */

static PyObject *queue_wrap(lc_queue_t q, PyObject *device)
{
    lc_py_Queue *o = PyObject_GC_New(lc_py_Queue, &lc_py_QueueType);
    if (!o) {
        lc_queue_release(q);
        return NULL;
    }
    o->q = q;
    o->device = Py_NewRef(device);
    o->arrays = NULL;
    PyObject_GC_Track(o);
    return (PyObject *)o;
}

PyObject *lc_py_default_queue(lc_device_t d)
{
    if (ensure_init() < 0 || alloc_caches() < 0)
        return NULL;
    int i = lc_device_info(d)->index;
    if (!queue_objs[i]) {
        struct lc_error e = {0};
        lc_queue_t q;
        if (lc_device_queue(d, &q, &e) != LC_OK)
            return lc_py_raise(&e);
        lc_queue_retain(q);
        PyObject *dev = lc_py_device_object(d);
        if (!dev) {
            lc_queue_release(q);
            return NULL;
        }
        queue_objs[i] = queue_wrap(q, dev);
        Py_DECREF(dev);
        if (!queue_objs[i])
            return NULL;
    }
    return Py_NewRef(queue_objs[i]);
}

/* Resolve None / a filter string / a Device / a Queue to a C device. */
static int resolve_device(PyObject *arg, lc_device_t *out)
{
    if (ensure_init() < 0)
        return -1;
    struct lc_error e = {0};
    if (arg == NULL || arg == Py_None) {
        if (lc_device_default(out, &e) != LC_OK) {
            lc_py_raise(&e);
            return -1;
        }
        return 0;
    }
    if (PyUnicode_Check(arg)) {
        const char *s = PyUnicode_AsUTF8(arg);
        if (!s)
            return -1;
        if (lc_device_select(s, out, &e) != LC_OK) {
            lc_py_raise(&e);
            return -1;
        }
        return 0;
    }
    if (PyObject_TypeCheck(arg, &lc_py_DeviceType)) {
        *out = ((lc_py_Device *)arg)->dev;
        return 0;
    }
    if (PyObject_TypeCheck(arg, &lc_py_QueueType)) {
        *out = lc_queue_device(((lc_py_Queue *)arg)->q);
        return 0;
    }
    PyErr_Format(PyExc_TypeError, "device must be None, a filter string, a lazycl.Device or a "
                 "lazycl.Queue, not %.100s", Py_TYPE(arg)->tp_name);
    return -1;
}

PyObject *lc_py_resolve_queue(PyObject *device_arg)
{
    if (device_arg && PyObject_TypeCheck(device_arg, &lc_py_QueueType))
        return Py_NewRef(device_arg);
    lc_device_t d;
    if (resolve_device(device_arg, &d) < 0)
        return NULL;
    return lc_py_default_queue(d);
}

static PyObject *Queue_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    (void)type;
    static char *kwlist[] = {"device", "profiling", NULL};
    PyObject *dev_arg = Py_None;
    int profiling = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|Op:Queue", kwlist, &dev_arg, &profiling))
        return NULL;
    lc_device_t d;
    if (resolve_device(dev_arg, &d) < 0)
        return NULL;
    PyObject *dev = lc_py_device_object(d);
    if (!dev)
        return NULL;
    struct lc_error e = {0};
    lc_queue_t q;
    if (lc_queue_create(d, profiling, &q, &e) != LC_OK) {
        Py_DECREF(dev);
        return lc_py_raise(&e);
    }
    PyObject *o = queue_wrap(q, dev);
    Py_DECREF(dev);
    return o;
}

static int Queue_traverse(lc_py_Queue *self, visitproc visit, void *arg)
{
    Py_VISIT(self->device);
    return 0;
}

static int Queue_clear(lc_py_Queue *self)
{
    Py_CLEAR(self->device);
    return 0;
}

static void Queue_dealloc(lc_py_Queue *self)
{
    PyObject_GC_UnTrack(self);
    Queue_clear(self);
    if (self->q) {
        lc_queue_t q = self->q;
        self->q = NULL;
        /* The last reference finishes the queue's work: wait without the GIL. */
        Py_BEGIN_ALLOW_THREADS
        lc_queue_release(q);
        Py_END_ALLOW_THREADS
    }
    PyObject_GC_Del(self);
}

static PyObject *Queue_repr(lc_py_Queue *self)
{
    char f[160];
    lc_device_filter_string(lc_queue_device(self->q), f, sizeof f);
    return PyUnicode_FromFormat("<lazycl.Queue on '%s'%s>", f, lc_queue_profiling(self->q) ? ", profiling" : "");
}

static PyObject *Queue_finish(lc_py_Queue *self, PyObject *Py_UNUSED(ignored))
{
    struct lc_error e = {0};
    lc_status st;
    /* A wait: the index checks pending on the queue are read too (engine/check.h). */
    Py_BEGIN_ALLOW_THREADS
    st = lc_engine_sync(self->q, NULL, &e);
    Py_END_ALLOW_THREADS
    if (st != LC_OK)
        return lc_py_raise(&e);
    Py_RETURN_NONE;
}

static PyObject *Queue_get_device(lc_py_Queue *self, void *Py_UNUSED(closure))
{
    return Py_NewRef(self->device);
}

static PyObject *Queue_get_profiling(lc_py_Queue *self, void *Py_UNUSED(closure))
{
    return PyBool_FromLong(lc_queue_profiling(self->q));
}

static PyObject *Queue_get_id(lc_py_Queue *self, void *Py_UNUSED(closure))
{
    return PyLong_FromUnsignedLongLong(lc_queue_id(self->q));
}

static PyMethodDef Queue_methods[] = {
    {"finish", (PyCFunction)Queue_finish, METH_NOARGS, "Wait until all work on the queue has finished."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Queue_getset[] = {
    {"device", (getter)Queue_get_device, NULL, "The lazycl.Device the queue runs on.", NULL},
    {"profiling", (getter)Queue_get_profiling, NULL, "Whether the queue records kernel times.", NULL},
    {"id", (getter)Queue_get_id, NULL, "The queue's number in this process (lc.profile's `queue`).",
     NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject lc_py_QueueType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "lazycl.Queue",
    .tp_basicsize = sizeof(lc_py_Queue),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "Queue(device=None, profiling=False): a new in-order command queue on a device (None: the "
              "default device; or a filter string, a Device or a Queue).",
    .tp_new = Queue_new,
    .tp_dealloc = (destructor)Queue_dealloc,
    .tp_traverse = (traverseproc)Queue_traverse,
    .tp_clear = (inquiry)Queue_clear,
    .tp_repr = (reprfunc)Queue_repr,
    .tp_methods = Queue_methods,
    .tp_getset = Queue_getset,
};

/* ---- module functions ----------------------------------------------------------- */

static PyObject *py_devices(PyObject *Py_UNUSED(m), PyObject *Py_UNUSED(ignored))
{
    if (ensure_init() < 0)
        return NULL;
    size_t n = lc_device_count();
    PyObject *list = PyList_New((Py_ssize_t)n);
    if (!list)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        PyObject *o = lc_py_device_object(lc_device_get(i));
        if (!o) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, (Py_ssize_t)i, o);
    }
    return list;
}

static PyObject *py_default_device(PyObject *Py_UNUSED(m), PyObject *Py_UNUSED(ignored))
{
    lc_device_t d;
    if (resolve_device(NULL, &d) < 0)
        return NULL;
    return lc_py_device_object(d);
}

static int dict_set_u64(PyObject *d, const char *k, unsigned long long v)
{
    PyObject *o = PyLong_FromUnsignedLongLong(v);
    if (!o)
        return -1;
    int rc = PyDict_SetItemString(d, k, o);
    Py_DECREF(o);
    return rc;
}

static PyObject *py_stats(PyObject *Py_UNUSED(m), PyObject *Py_UNUSED(ignored))
{
    struct lc_stats s;
    lc_stats_get(&s);
    PyObject *d = PyDict_New();
    if (!d)
        return NULL;
    if (dict_set_u64(d, "kernels_compiled", s.kernels_compiled) < 0 ||
        dict_set_u64(d, "memory_cache_hits", s.memory_cache_hits) < 0 ||
        dict_set_u64(d, "disk_cache_hits", s.disk_cache_hits) < 0 ||
        dict_set_u64(d, "spirv_builds", s.spirv_builds) < 0 ||
        dict_set_u64(d, "spir_builds", s.spir_builds) < 0 ||
        dict_set_u64(d, "launches", s.launches) < 0 ||
        dict_set_u64(d, "launches_inthread", s.launches_inthread) < 0 ||
        dict_set_u64(d, "buffers_allocated", s.buffers_allocated) < 0 ||
        dict_set_u64(d, "pool_hits", s.pool_hits) < 0 ||
        dict_set_u64(d, "bytes_in_use", s.bytes_in_use) < 0 ||
        dict_set_u64(d, "bytes_cached", s.bytes_cached) < 0 ||
        dict_set_u64(d, "peak_bytes", s.peak_bytes) < 0 ||
        dict_set_u64(d, "bytes_to_device", s.bytes_to_device) < 0 ||
        dict_set_u64(d, "bytes_from_device", s.bytes_from_device) < 0 ||
        dict_set_u64(d, "plan_hits", s.plan_hits) < 0 ||
        dict_set_u64(d, "plan_misses", s.plan_misses) < 0 ||
        dict_set_u64(d, "gemm_tunings", s.gemm_tunings) < 0) {
        Py_DECREF(d);
        return NULL;
    }
    return d;
}

static PyObject *py_reset_stats(PyObject *Py_UNUSED(m), PyObject *Py_UNUSED(ignored))
{
    lc_stats_reset();
    Py_RETURN_NONE;
}

static PyObject *py_kernel_build(PyObject *Py_UNUSED(m), PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"device", "source", "name", "options", NULL};
    PyObject *dev_arg;
    const char *source, *name, *options = "";
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "Oss|s:_kernel_build", kwlist, &dev_arg, &source, &name,
                                     &options))
        return NULL;
    lc_device_t d;
    if (resolve_device(dev_arg, &d) < 0)
        return NULL;
    struct lc_error e = {0};
    lc_kernel_t k;
    lc_status st;
    Py_BEGIN_ALLOW_THREADS
    st = lc_kernel_get(d, source, name, options, &k, &e);
    Py_END_ALLOW_THREADS
    if (st != LC_OK)
        return lc_py_raise(&e);
    Py_RETURN_NONE;
}

/* ---- _runtime_bench: copy, transfer and launch ceilings, measured in C ----------- */

static const char bench_src[] =
    "/* lazycl runtime benchmark kernels */\n"
    "__kernel void lc_bench_copy_u4(__global const uint4 *restrict a, __global uint4 *restrict b)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    b[i] = a[i];\n"
    "}\n"
    "__kernel void lc_bench_empty(__global uint *a)\n"
    "{\n"
    "    (void)a;\n"
    "}\n";

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *t, int n)
{
    qsort(t, (size_t)n, sizeof *t, cmp_double);
    return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

struct bench_result {
    double d2d_GBps, d2d_kernel_GBps, h2d_GBps, d2h_GBps, launch_us;
    double pinned_h2d_GBps, pinned_d2h_GBps;       /* from and to pinned host memory */
    double pageable_h2d_GBps, pageable_d2h_GBps;   /* pageable, staging off (as the driver does) */
};

/* Median GB/s of reps blocking transfers of nbytes between `host` and buffer a (t: scratch). */
static lc_status bench_transfer(lc_queue_t q, lc_buffer_t a, void *host, size_t nbytes, int reps,
                                int write, double *t, double *gbps, struct lc_error *e)
{
    for (int i = -1; i < reps; i++) {
        double t0 = now_s();
        lc_status st = write ? lc_buffer_write(q, a, 0, host, nbytes, 1, e)
                             : lc_buffer_read(q, a, 0, host, nbytes, e);
        if (st == LC_OK && write)
            st = lc_queue_finish(q, e);    /* a staged write may leave its last DMAs running */
        if (st != LC_OK)
            return st;
        if (i >= 0)
            t[i] = now_s() - t0;
    }
    *gbps = (double)nbytes / median(t, reps) / 1e9;
    return LC_OK;
}

/* Runs without the GIL. */
static lc_status run_bench(lc_device_t d, size_t nbytes, int reps, struct bench_result *r,
                           struct lc_error *e)
{
    lc_status st = LC_OK;
    lc_queue_t q;
    lc_buffer_t a = NULL, b = NULL;
    lc_kernel_t kcopy, kempty;
    void *host = NULL, *pin_host = NULL;
    lc_pinned_t pinned = NULL;
    int nlaunch = reps < 50 ? 50 : reps;
    double *t = malloc(sizeof(double) * (size_t)(nlaunch + 1));
    nbytes &= ~(size_t)15;   /* whole uint4 */
    if (nbytes == 0)
        nbytes = 16;
    if (!t || posix_memalign(&host, 4096, nbytes) != 0) {
        host = NULL;
        st = lc_error_set(e, LC_ERR_NOMEM, "out of host memory for the benchmark");
        goto done;
    }
    memset(host, 1, nbytes);
    if ((st = lc_device_queue(d, &q, e)) != LC_OK || (st = lc_buffer_alloc(d, nbytes, &a, e)) != LC_OK ||
        (st = lc_buffer_alloc(d, nbytes, &b, e)) != LC_OK ||
        (st = lc_kernel_get(d, bench_src, "lc_bench_copy_u4", "", &kcopy, e)) != LC_OK ||
        (st = lc_kernel_get(d, bench_src, "lc_bench_empty", "", &kempty, e)) != LC_OK)
        goto done;

    /* host -> device and back: pageable memory as lazycl moves it (staged through pinned
     * slots where the device has memory of its own), as the driver moves it, and pinned. */
    if ((st = bench_transfer(q, a, host, nbytes, reps, 1, t, &r->h2d_GBps, e)) != LC_OK ||
        (st = bench_transfer(q, a, host, nbytes, reps, 0, t, &r->d2h_GBps, e)) != LC_OK)
        goto done;
    lc_stage_enable(0);
    st = bench_transfer(q, a, host, nbytes, reps, 1, t, &r->pageable_h2d_GBps, e);
    if (st == LC_OK)
        st = bench_transfer(q, a, host, nbytes, reps, 0, t, &r->pageable_d2h_GBps, e);
    lc_stage_enable(1);
    if (st != LC_OK || (st = lc_pinned_alloc(d, nbytes, &pinned, &pin_host, e)) != LC_OK)
        goto done;
    memset(pin_host, 1, nbytes);
    if ((st = bench_transfer(q, a, pin_host, nbytes, reps, 1, t, &r->pinned_h2d_GBps, e)) != LC_OK ||
        (st = bench_transfer(q, a, pin_host, nbytes, reps, 0, t, &r->pinned_d2h_GBps, e)) != LC_OK)
        goto done;
    /* device -> device, clEnqueueCopyBuffer (bytes read + bytes written) */
    for (int i = -1; i < reps; i++) {
        double t0 = now_s();
        if ((st = lc_buffer_copy(q, a, 0, b, 0, nbytes, e)) != LC_OK || (st = lc_queue_finish(q, e)) != LC_OK)
            goto done;
        if (i >= 0)
            t[i] = now_s() - t0;
    }
    r->d2d_GBps = 2.0 * (double)nbytes / median(t, reps) / 1e9;
    /* device -> device, a copy kernel with one work-item per uint4 */
    struct lc_arg args[2] = {{.kind = LC_ARG_BUFFER, .v.buf = a}, {.kind = LC_ARG_BUFFER, .v.buf = b}};
    size_t g = nbytes / 16;
    for (int i = -1; i < reps; i++) {
        double t0 = now_s();
        if ((st = lc_kernel_launch(q, kcopy, 1, &g, NULL, args, 2, e)) != LC_OK ||
            (st = lc_queue_finish(q, e)) != LC_OK)
            goto done;
        if (i >= 0)
            t[i] = now_s() - t0;
    }
    r->d2d_kernel_GBps = 2.0 * (double)nbytes / median(t, reps) / 1e9;
    /* an empty kernel: launch + finish */
    size_t one = 1;
    for (int i = -3; i < nlaunch; i++) {
        double t0 = now_s();
        if ((st = lc_kernel_launch(q, kempty, 1, &one, NULL, args, 1, e)) != LC_OK ||
            (st = lc_queue_finish(q, e)) != LC_OK)
            goto done;
        if (i >= 0)
            t[i] = now_s() - t0;
    }
    r->launch_us = median(t, nlaunch) * 1e6;
done:
    lc_buffer_release(a);
    lc_buffer_release(b);
    lc_pinned_free(pinned);
    free(host);
    free(t);
    return st;
}

static PyObject *py_runtime_bench(PyObject *Py_UNUSED(m), PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"device", "nbytes", "reps", NULL};
    PyObject *dev_arg = Py_None;
    Py_ssize_t nbytes = (Py_ssize_t)1 << 26;
    int reps = 10;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|Oni:_runtime_bench", kwlist, &dev_arg, &nbytes, &reps))
        return NULL;
    if (nbytes <= 0 || reps <= 0) {
        PyErr_SetString(PyExc_ValueError, "nbytes and reps must be positive");
        return NULL;
    }
    lc_device_t d;
    if (resolve_device(dev_arg, &d) < 0)
        return NULL;
    struct bench_result r = {0};
    struct lc_error e = {0};
    lc_status st;
    Py_BEGIN_ALLOW_THREADS
    st = run_bench(d, (size_t)nbytes, reps, &r, &e);
    Py_END_ALLOW_THREADS
    if (st != LC_OK)
        return lc_py_raise(&e);
    return Py_BuildValue("{sdsdsdsdsdsdsdsdsdsnsi}", "d2d_GBps", r.d2d_GBps,
                         "d2d_kernel_GBps", r.d2d_kernel_GBps,
                         "h2d_GBps", r.h2d_GBps, "d2h_GBps", r.d2h_GBps, "launch_us", r.launch_us,
                         "pinned_h2d_GBps", r.pinned_h2d_GBps, "pinned_d2h_GBps", r.pinned_d2h_GBps,
                         "pageable_h2d_GBps", r.pageable_h2d_GBps,
                         "pageable_d2h_GBps", r.pageable_d2h_GBps,
                         "nbytes", (Py_ssize_t)(((size_t)nbytes & ~(size_t)15) ? ((size_t)nbytes & ~(size_t)15) : 16),
                         "reps", reps);
}

static PyMethodDef device_functions[] = {
    {"devices", py_devices, METH_NOARGS, "devices() -> list of every OpenCL device, in discovery order."},
    {"default_device", py_default_device, METH_NOARGS,
     "default_device() -> the default Device: LAZYCL_DEVICE when set, else the first GPU, else the first CPU."},
    {"stats", py_stats, METH_NOARGS,
     "stats() -> dict of runtime counters: kernels compiled, cache hits, launches, buffers, bytes moved."},
    {"reset_stats", py_reset_stats, METH_NOARGS,
     "reset_stats(): zero the counters (bytes_in_use and bytes_cached are levels and stay)."},
    {"_kernel_build", (PyCFunction)(void (*)(void))py_kernel_build, METH_VARARGS | METH_KEYWORDS,
     "_kernel_build(device, source, name, options='') -> None: get a kernel through the runtime's caches "
     "(for tests)."},
    {"_runtime_bench", (PyCFunction)(void (*)(void))py_runtime_bench, METH_VARARGS | METH_KEYWORDS,
     "_runtime_bench(device=None, nbytes=64 MiB, reps=10) -> dict of d2d_GBps (clEnqueueCopyBuffer), "
     "d2d_kernel_GBps (copy kernel), h2d_GBps and d2h_GBps (pageable memory as lazycl moves it), "
     "pageable_h2d_GBps and pageable_d2h_GBps (staging off), pinned_h2d_GBps and pinned_d2h_GBps, "
     "and launch_us (empty kernel launch + finish), medians over reps."},
    {NULL, NULL, 0, NULL},
};

int lc_py_device_setup(PyObject *m)
{
    if (PyType_Ready(&lc_py_DeviceType) < 0 || PyType_Ready(&lc_py_QueueType) < 0)
        return -1;
    if (PyModule_AddObjectRef(m, "Device", (PyObject *)&lc_py_DeviceType) < 0 ||
        PyModule_AddObjectRef(m, "Queue", (PyObject *)&lc_py_QueueType) < 0)
        return -1;
    return PyModule_AddFunctions(m, device_functions);
}
