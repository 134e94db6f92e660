/* py_profile.c: the records of runtime/profile.c for lazycl.profile (_profile.py). */
#include "lcpy.h"

#include <stdlib.h>

/* _profile_begin() -> (from, t0_ns): open a profile. */
static PyObject *py_profile_begin(PyObject *Py_UNUSED(m), PyObject *Py_UNUSED(ignored))
{
    struct lc_profile_mark mk;
    lc_profile_begin(&mk);
    return Py_BuildValue("(KK)", (unsigned long long)mk.from, mk.t0_ns);
}

static int set_item(PyObject *d, const char *key, PyObject *v)
{
    if (!v)
        return -1;
    int rc = PyDict_SetItemString(d, key, v);
    Py_DECREF(v);
    return rc;
}

static PyObject *record_dict(const struct lc_prof_record *r)
{
    PyObject *d = PyDict_New();
    if (!d)
        return NULL;
    if (set_item(d, "name", PyUnicode_FromString(r->name)) < 0 ||
        set_item(d, "kind", PyUnicode_FromString(lc_prof_kind_name(r->kind))) < 0 ||
        set_item(d, "queue", PyLong_FromUnsignedLongLong(r->queue)) < 0 ||
        set_item(d, "device", PyUnicode_FromString(lc_device_info(r->device)->name)) < 0 ||
        set_item(d, "start_ms", PyFloat_FromDouble(r->start_ms)) < 0 ||
        set_item(d, "end_ms", PyFloat_FromDouble(r->end_ms)) < 0 ||
        set_item(d, "bytes", PyLong_FromUnsignedLongLong(r->bytes)) < 0 ||
        set_item(d, "ops", PyLong_FromLong(r->ops)) < 0 ||
        set_item(d, "inthread", PyBool_FromLong(r->inthread)) < 0) {
        Py_DECREF(d);
        return NULL;
    }
    return d;
}

/* _profile_end(from, t0_ns) -> [dict]: close the profile opened as (from, t0_ns), waiting for
 * its commands (without the GIL); its records in start order. */
static PyObject *py_profile_end(PyObject *Py_UNUSED(m), PyObject *args)
{
    struct lc_profile_mark mk;
    unsigned long long from;
    if (!PyArg_ParseTuple(args, "KK:_profile_end", &from, &mk.t0_ns))
        return NULL;
    mk.from = from;
    struct lc_error e = {0};
    struct lc_prof_record *recs = NULL;
    size_t n = 0;
    lc_status st;
    Py_BEGIN_ALLOW_THREADS
    st = lc_profile_end(&mk, &recs, &n, &e);
    Py_END_ALLOW_THREADS
    if (st != LC_OK)
        return lc_py_raise(&e);
    PyObject *list = PyList_New((Py_ssize_t)n);
    for (size_t i = 0; list && i < n; i++) {
        PyObject *d = record_dict(&recs[i]);
        if (!d) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, (Py_ssize_t)i, d);
    }
    free(recs);
    return list;
}

PyMethodDef lc_py_profile_functions[] = {
    {"_profile_begin", py_profile_begin, METH_NOARGS,
     "_profile_begin() -> (from, t0_ns): open a profile (lazycl.profile)."},
    {"_profile_end", py_profile_end, METH_VARARGS,
     "_profile_end(from, t0_ns) -> [dict]: close it; its launches and transfers in start order."},
    {NULL, NULL, 0, NULL},
};
