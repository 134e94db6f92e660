/* lcpy.h: what the extension's C files share: exceptions, error mapping, device/queue objects. */
#ifndef LC_PY_H
#define LC_PY_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

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

typedef struct {
    PyObject_HEAD
    lc_queue_t q;
    PyObject *device;   /* the lazycl.Device it runs on (owned) */
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

/* ---- py_array.c ---- */
int lc_py_array_setup(PyObject *m);

#endif
