/* module.c: the lazycl._lazycl extension module: exceptions and error mapping. */
#include "lcpy.h"


PyObject *lc_py_PlacementError;
PyObject *lc_py_CompileError;
PyObject *lc_py_DeviceError;
static PyObject *lc_py_AxisError; /* numpy.exceptions.AxisError */

PyObject *lc_py_raise(struct lc_error *e)
{
    PyObject *type = PyExc_RuntimeError;
    switch (e->code) {
    case LC_OK: type = PyExc_SystemError; break;
    case LC_ERR_NOMEM: type = PyExc_MemoryError; break;
    case LC_ERR_INVALID: case LC_ERR_SHAPE: type = PyExc_ValueError; break;
    case LC_ERR_TYPE: type = PyExc_TypeError; break;
    case LC_ERR_UNSUPPORTED: type = PyExc_TypeError; break;
    case LC_ERR_PLACEMENT: type = lc_py_PlacementError; break;
    case LC_ERR_COMPILE: type = lc_py_CompileError; break;
    case LC_ERR_DEVICE: type = lc_py_DeviceError; break;
    case LC_ERR_INDEX: type = PyExc_IndexError; break;
    case LC_ERR_AXIS: type = lc_py_AxisError; break;
    case LC_ERR_IO: type = PyExc_OSError; break;
    }
    if (e->code == LC_ERR_COMPILE && e->detail) {
        PyObject *msg = PyUnicode_FromFormat("%s\n%s", e->msg, e->detail);
        PyObject *exc = msg ? PyObject_CallOneArg(type, msg) : NULL;
        if (exc) {
            PyObject *d = PyUnicode_FromString(e->detail);
            if (d) {
                PyObject_SetAttrString(exc, "detail", d);
                Py_DECREF(d);
            }
            PyErr_SetObject(type, exc);
            Py_DECREF(exc);
        }
        Py_XDECREF(msg);
    } else if (e->code == LC_ERR_AXIS) {
        /* AxisError(message) keeps the message as it is. */
        PyObject *exc = PyObject_CallFunction(lc_py_AxisError, "s", e->msg);
        if (exc) {
            PyErr_SetObject(lc_py_AxisError, exc);
            Py_DECREF(exc);
        }
    } else {
        PyErr_SetString(type, e->msg[0] ? e->msg : lc_status_name(e->code));
    }
    lc_error_clear(e);
    return NULL;
}

static struct PyModuleDef lc_py_module = {
    PyModuleDef_HEAD_INIT, "_lazycl", "lazycl's C core: devices, queues and lazy arrays.", -1,
    NULL, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__lazycl(void)
{
    PyObject *m = PyModule_Create(&lc_py_module);
    if (!m)
        return NULL;
    lc_py_PlacementError = PyErr_NewExceptionWithDoc(
        "lazycl.PlacementError", "Arrays on different devices or queues were mixed.",
        PyExc_ValueError, NULL);
    lc_py_CompileError = PyErr_NewExceptionWithDoc(
        "lazycl.CompileError", "A kernel failed to build; .detail holds the source and build log.",
        PyExc_RuntimeError, NULL);
    lc_py_DeviceError = PyErr_NewExceptionWithDoc(
        "lazycl.DeviceError", "An OpenCL call failed.", PyExc_RuntimeError, NULL);
    if (!lc_py_PlacementError || !lc_py_CompileError || !lc_py_DeviceError)
        goto error;
    if (PyModule_AddObjectRef(m, "PlacementError", lc_py_PlacementError) < 0 ||
        PyModule_AddObjectRef(m, "CompileError", lc_py_CompileError) < 0 ||
        PyModule_AddObjectRef(m, "DeviceError", lc_py_DeviceError) < 0)
        goto error;
    PyObject *npexc = PyImport_ImportModule("numpy.exceptions");   /* NumPy >= 1.25 */
    if (!npexc)
        goto error;
    lc_py_AxisError = PyObject_GetAttrString(npexc, "AxisError");
    Py_DECREF(npexc);
    if (!lc_py_AxisError)
        goto error;
    if (lc_py_device_setup(m) < 0 || lc_py_array_setup(m) < 0 ||
        PyModule_AddFunctions(m, lc_py_build_functions) < 0 || lc_py_build_setup(m) < 0 ||
        PyModule_AddFunctions(m, lc_py_force_functions) < 0 ||
        PyModule_AddFunctions(m, lc_py_launch_functions) < 0 ||
        PyModule_AddFunctions(m, lc_py_index_functions) < 0 ||
        PyModule_AddFunctions(m, lc_py_write_functions) < 0 ||
        PyModule_AddFunctions(m, lc_py_poke_functions) < 0 ||
        PyModule_AddFunctions(m, lc_py_profile_functions) < 0 ||
        PyModule_AddFunctions(m, lc_py_share_functions) < 0 ||
        PyModule_AddFunctions(m, lc_py_user_functions) < 0 || lc_py_dlpack_setup(m) < 0)
        goto error;
    return m;
error:
    Py_DECREF(m);
    return NULL;
}
