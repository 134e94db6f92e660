/* lcpy.h: what the extension's C files share: exceptions, error mapping, device, queue and array objects. */
#ifndef LC_PY_H
#define LC_PY_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

/* NumPy's C API: one table, imported by lc_py_array_setup (py_array.c). */
#define PY_ARRAY_UNIQUE_SYMBOL lc_py_ARRAY_API
#ifndef LC_PY_IMPORT_NUMPY
#define NO_IMPORT_ARRAY
#endif
#include <numpy/arrayobject.h>
#include <numpy/arrayscalars.h>

#include "lazycl.h"
#include "runtime/runtime.h"

/* Exceptions (module.c). PlacementError subclasses ValueError; CompileError
 * and DeviceError subclass RuntimeError. */
extern PyObject *lc_py_PlacementError;
extern PyObject *lc_py_CompileError;
extern PyObject *lc_py_DeviceError;

/* Raise the Python exception that matches e->code and return NULL.
 * LC_ERR_INVALID/SHAPE -> ValueError, TYPE/UNSUPPORTED -> TypeError (UNSUPPORTED
 * -> NotImplementedError... see module.c), NOMEM -> MemoryError, PLACEMENT ->
 * PlacementError, COMPILE -> CompileError (with .source and .log), DEVICE ->
 * DeviceError, INDEX -> IndexError, IO -> OSError. Clears e. */
PyObject *lc_py_raise(struct lc_error *e);

/* ---- py_device.c ---- */
typedef struct {
    PyObject_HEAD
    lc_device_t dev;
} lc_py_Device;

struct lc_py_Array;

typedef struct {
    PyObject_HEAD
    lc_queue_t q;
    PyObject *device;   /* the lazycl.Device it runs on (owned) */
    struct lc_py_Array *arrays; /* every live Array of this queue (py_write.c), under the GIL */
} lc_py_Queue;

extern PyTypeObject lc_py_DeviceType;
extern PyTypeObject lc_py_QueueType;

/* Add Device, Queue, devices, default_device, stats, reset_stats to m. 0 or -1. */
int lc_py_device_setup(PyObject *m);
/* New reference to the Device object for d (one object per device, cached). */
PyObject *lc_py_device_object(lc_device_t d);
/* New reference to the canonical Queue object of d (one per device, cached). */
PyObject *lc_py_default_queue(lc_device_t d);
/* Resolve a `device=` argument: None (default device), a filter string, a
 * Device or a Queue, into a new reference to a Queue object; NULL with an
 * exception set on failure. */
PyObject *lc_py_resolve_queue(PyObject *device_arg);

/* The lc_queue_t of a lazycl.Queue object (borrowed). */
static inline lc_queue_t lc_py_q(PyObject *queue) { return ((lc_py_Queue *)queue)->q; }

/* ---- py_array.c: the Array base type ---- */

/* An Array holds one graph node and the Queue object its graph belongs to.
 * A write may give it another node (py_write.c): a view seeing the write,
 * or a copy of the data moved away from readers that need the old values. */
typedef struct lc_py_Array {
    PyObject_HEAD
    struct lc_node *node;
    PyObject *queue;      /* lazycl.Queue (owned) */
    struct lc_py_Array *prev, *next; /* the queue's list of live arrays */
    int readonly;         /* writes raise (views of broadcasts, read-only sources);
                           * LC_RO_IF_VIEW: only while it stays a view of its root */
} lc_py_Array;

extern PyTypeObject lc_py_ArrayBaseType;
#define LC_PY_IS_ARRAY(o) PyObject_TypeCheck((o), &lc_py_ArrayBaseType)

/* Import NumPy's C API, add ArrayBase and its helpers to m. 0 or -1. */
int lc_py_array_setup(PyObject *m);
/* Wrap a node in a new Array of the registered class: takes over the
 * reference to `node` (released on failure), borrows `queue`. NULL in, NULL out. */
PyObject *lc_py_wrap(struct lc_node *node, PyObject *queue);
/* lc_py_wrap for a view of `base`: same queue, and read-only when base is
 * (a view of a read-only array is read-only, as in NumPy). A reshape may be
 * a copy instead (`may_copy`), writable in NumPy: it is read-only only while
 * its layout folds onto its root's memory (LC_RO_IF_VIEW, py_write.c). */
#define LC_RO_IF_VIEW 2
PyObject *lc_py_wrap_view(struct lc_node *node, lc_py_Array *base, int may_copy);
/* `o` as an Array (borrowed), or NULL with TypeError. */
lc_py_Array *lc_py_as_array(PyObject *o);

/* ---- py_write.c: writes ---- */
/* Add a new Array to / remove a dying one from its queue's list of live arrays. */
void lc_py_link_array(lc_py_Array *a);
void lc_py_unlink_array(lc_py_Array *a);
extern PyMethodDef lc_py_write_functions[];
/* ---- py_poke.c: one-element constant writes, recorded (_poke) ---- */
extern PyMethodDef lc_py_poke_functions[];
/* Make x a leaf of a realized buffer, computing it (and the root its views
 * share) first, as before a write: 0, or -1 with an exception set. *ro is set
 * when x is read-only (as a view of read-only memory, or a broadcast). */
int lc_py_realize(lc_py_Array *x, int *ro);
/* Before a kernel lazycl did not plan (a RawKernel's) writes into x's buffer, anywhere:
 * x, a leaf of a realized buffer (lc_py_realize), is made, with the live arrays viewing that
 * buffer, its only user, as a store makes it (py_write.c's rule 2): pending readers of the old
 * values are computed first (big or shared buffers) or keep them (copy-on-write: the viewing
 * arrays move to a copy, which the kernel writes). 1 when another library shares the buffer
 * (the caller finishes the kernel before returning, as a store does), 0, or -1 with an
 * exception set. */
int lc_py_own_buffer(lc_py_Array *x);
/* ---- py_profile.c: _profile_begin, _profile_end (lazycl.profile) ---- */
extern PyMethodDef lc_py_profile_functions[];

/* ---- py_user.c: user elementwise functions (_user_fn, _user_map) ---- */
extern PyMethodDef lc_py_user_functions[];

/* ---- py_share.c: host memory shared with NumPy ---- */
extern PyMethodDef lc_py_share_functions[]; /* _host_view, _host_shares, _dlpack_drain */
/* What a buffer over host memory holds: a NumPy array (obj, a new reference is taken) or a
 * DLPack tensor (managed, deleted by its deleter). NULL with MemoryError set. */
struct lc_py_hold;
struct lc_py_hold *lc_py_hold_new(PyObject *obj, void *managed, int versioned);
/* The on_free of lc_buffer_wrap_host (any thread): h is let go of later, under the GIL. */
void lc_py_hold_release(void *h);
/* Under the GIL: let go of h now (a wrap that failed). */
void lc_py_hold_discard(struct lc_py_hold *h);
/* Under the GIL: let go of every hold the driver released so far. */
void lc_py_holds_drain(void);
/* Under the GIL: does anything outside lazycl see b's memory: a pin (a NumPy view, a DLPack
 * export), or the memory of a NumPy array or DLPack tensor that something else still holds?
 * (Writes into such memory run at once and in place: py_write.c, py_poke.c.) */
int lc_py_buffer_shared(lc_buffer_t b);
/* The alignment (bytes) the device's kernels need of host memory of elements of isz bytes. */
size_t lc_py_host_align(lc_device_t dev, size_t isz);
/* A leaf over arr's memory on queue's device (no copy), or NULL: with an exception set on
 * failure, else with *why saying why the memory cannot be shared (then copy it). *readonly
 * is set when arr is not writeable. */
struct lc_node *lc_py_share_ndarray(PyObject *queue, PyArrayObject *arr, int want_dt, int *readonly,
                                    const char **why);

/* Pin the buffer of x (a realized leaf: lc_py_realize) once its deferred index checks and
 * recorded writes are done (lc_buffer_pin: one pin, one reference): the buffer, the mapping
 * in *host; NULL with an exception set. */
lc_buffer_t lc_py_pin(lc_py_Array *x, void **host);
/* A new C-ordered NumPy array for a read from q's device: in pinned memory where that makes
 * the read faster (a big read from a GPU), else NumPy's own. NULL with an exception set. */
PyObject *lc_py_new_host_array(lc_queue_t q, int ndim, const npy_intp *dims, int dt);

/* ---- py_dlpack.c: DLPack ---- */
/* Add _dlpack_export, _dlpack_import, ... and DLPackCopyError to m. 0 or -1. */
int lc_py_dlpack_setup(PyObject *m);

/* ---- py_convert.c: Python and NumPy values into graph terms ---- */

/* The NumPy type number of a lazycl dtype. */
int lc_py_npy_type(int dt);
/* The lazycl dtype of a NumPy dtype, or -1 (no exception set). */
int lc_py_dtype_of_descr(PyArray_Descr *d);
/* Parse anything np.dtype() takes into a lazycl dtype; None gives `dflt`.
 * -2 with an exception set (TypeError for dtypes lazycl lacks). */
int lc_py_parse_dtype(PyObject *o, int dflt);
/* Read an int or a sequence of ints into out (at most LC_MAXDIM): the count,
 * or -1 with an exception set. `what` names them in messages. */
int lc_py_int_seq(PyObject *seq, int64_t *out, const char *what);
/* Upload a NumPy array (any layout, byte order, writability) to queue, cast
 * to want_dt unless it is -1. A new node, or NULL with an exception set. */
struct lc_node *lc_py_upload(PyObject *queue, PyArrayObject *arr, int want_dt);
/* An operand (Array, NumPy or Python scalar, array-like) as a new node
 * reference on `queue`; Python scalars become weak constants. */
struct lc_node *lc_py_operand(PyObject *o, PyObject *queue);
/* A weak Python int next to an integer array must fit the array's dtype:
 * 0, or -1 with OverflowError. */
int lc_py_check_weak_int(struct lc_node *w, struct lc_node *other);
/* A weak Python int outside `other`'s integer dtype becomes a strong
 * int64/uint64 constant: *w is released and replaced. */
void lc_py_strengthen_wide_int(struct lc_node **w, struct lc_node *other);
/* Raise PlacementError for operands on queues qa and qb; returns NULL. */
PyObject *lc_py_placement_error(PyObject *qa, PyObject *qb);
/* The queue (borrowed) of the Array operands among ops[0..n), or NULL with
 * PlacementError (mixed queues) or TypeError (no Array). */
PyObject *lc_py_common_queue(PyObject *const *ops, int n);

/* ---- py_number.c: the number protocol and comparisons ---- */

extern PyNumberMethods lc_py_array_as_number;
PyObject *lc_py_array_richcompare(PyObject *a, PyObject *b, int op);
/* a ** b as the operator does (NotImplemented for operands it cannot take). */
PyObject *lc_py_array_pow(PyObject *a, PyObject *b, PyObject *mod);
/* The binary op on two operands, at least one an Array. */
PyObject *lc_py_binary_obj(int op, PyObject *a, PyObject *b);
/* The unary op on an Array. */
PyObject *lc_py_unary_obj(int op, PyObject *a);

/* ---- py_index.c: basic indexing (the mapping protocol) ---- */

extern PyMappingMethods lc_py_array_as_mapping;
extern PyMethodDef lc_py_index_functions[]; /* _set_index_hook */

/* ---- py_force.c: running graphs and reading results ---- */

extern PyMethodDef lc_py_array_methods[];   /* compute, numpy */
extern PyMethodDef lc_py_force_functions[]; /* compute, _explain */

/* ---- py_build.c: the module-level graph builders ---- */

extern PyMethodDef lc_py_build_functions[];
int lc_py_build_setup(PyObject *m); /* the op table `ops` and the op lookup */

/* ---- py_launch.c: hand-written kernels ---- */

extern PyMethodDef lc_py_launch_functions[]; /* _alloc, _launch, _raw_launch */

#endif
