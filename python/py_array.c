/* py_array.c: the lazy Array base type: its object, attributes, the registered subclass.
 *
 * An Array holds one graph node and the Queue object its graph belongs to.
 * Operators build nodes in C (no Python-level work per node): the number
 * protocol is in py_number.c, indexing in py_index.c, forcing in py_force.c.
 * The richer NumPy namespace lives in the Python package and calls the
 * builders of py_build.c. The Python subclass lazycl.Array is registered once
 * at import (_set_array_class) and every array made here is of that class.
 */
#define LC_PY_IMPORT_NUMPY /* this file imports NumPy's C API for the others */
#include "lcpy.h"

#include "graph/graph.h"

/* The Python subclass instances are made of; set once at import, under the GIL. */
static PyTypeObject *lc_py_array_cls = &lc_py_ArrayBaseType;

PyObject *lc_py_wrap(struct lc_node *node, PyObject *queue)
{
    if (!node)
        return NULL;
    lc_py_Array *a = (lc_py_Array *)lc_py_array_cls->tp_alloc(lc_py_array_cls, 0);
    if (!a) {
        lc_node_release(node);
        return NULL;
    }
    a->node = node;
    a->queue = Py_NewRef(queue);
    lc_py_link_array(a);
    return (PyObject *)a;
}

PyObject *lc_py_wrap_view(struct lc_node *node, lc_py_Array *base, int may_copy)
{
    PyObject *r = lc_py_wrap(node, base->queue);
    if (r)
        ((lc_py_Array *)r)->readonly = base->readonly && may_copy ? LC_RO_IF_VIEW : base->readonly;
    return r;
}

static PyObject *Array_get_shape(lc_py_Array *self, void *Py_UNUSED(c))
{
    PyObject *t = PyTuple_New(self->node->ndim);
    if (!t)
        return NULL;
    for (int i = 0; i < self->node->ndim; i++) {
        PyObject *v = PyLong_FromLongLong(self->node->shape[i]);
        if (!v) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, v);
    }
    return t;
}

static PyObject *Array_get_dtype(lc_py_Array *self, void *Py_UNUSED(c))
{
    return (PyObject *)PyArray_DescrFromType(lc_py_npy_type(self->node->dtype));
}

static PyObject *Array_get_ndim(lc_py_Array *self, void *Py_UNUSED(c))
{
    return PyLong_FromLong(self->node->ndim);
}

static PyObject *Array_get_size(lc_py_Array *self, void *Py_UNUSED(c))
{
    return PyLong_FromLongLong(self->node->size);
}

static PyObject *Array_get_device(lc_py_Array *self, void *Py_UNUSED(c))
{
    return Py_NewRef(((lc_py_Queue *)self->queue)->device);
}

static PyObject *Array_get_queue(lc_py_Array *self, void *Py_UNUSED(c))
{
    return Py_NewRef(self->queue);
}

static PyObject *Array_get_pending(lc_py_Array *self, void *Py_UNUSED(c))
{
    return PyBool_FromLong(!lc_node_is_leaf(self->node));
}

static PyObject *Array_get_op(lc_py_Array *self, void *Py_UNUSED(c))
{
    return PyUnicode_FromString(lc_op_name(self->node->op));
}

static PyObject *Array_get_T(lc_py_Array *self, void *Py_UNUSED(c))
{
    int64_t perm[LC_MAXDIM];
    int nd = self->node->ndim;
    for (int i = 0; i < nd; i++)
        perm[i] = nd - 1 - i;
    struct lc_error e = {0};
    struct lc_node *r = lc_node_permute(self->node, perm, &e);
    return r ? lc_py_wrap_view(r, self, 0) : lc_py_raise(&e);
}

static PyGetSetDef Array_getset[] = {
    {"shape", (getter)Array_get_shape, NULL, "The shape, a tuple of ints.", NULL},
    {"dtype", (getter)Array_get_dtype, NULL, "The NumPy dtype of the elements.", NULL},
    {"ndim", (getter)Array_get_ndim, NULL, "The number of dimensions.", NULL},
    {"size", (getter)Array_get_size, NULL, "The number of elements.", NULL},
    {"device", (getter)Array_get_device, NULL, "The lazycl.Device that holds the data.", NULL},
    {"queue", (getter)Array_get_queue, NULL, "The lazycl.Queue whose graph the array is in.", NULL},
    {"pending", (getter)Array_get_pending, NULL, "True until the array has been computed.", NULL},
    {"_op", (getter)Array_get_op, NULL, "The op of the array's graph node (for tests).", NULL},
    {"T", (getter)Array_get_T, NULL, "The transpose (a view).", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static void Array_dealloc(lc_py_Array *self)
{
    PyObject_GC_UnTrack(self);
    lc_py_unlink_array(self);
    lc_node_release(self->node);
    Py_CLEAR(self->queue);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int Array_traverse(lc_py_Array *self, visitproc visit, void *arg)
{
    Py_VISIT(self->queue);
    Py_VISIT(Py_TYPE(self));
    return 0;
}

static int Array_clear(lc_py_Array *self)
{
    lc_py_unlink_array(self);
    Py_CLEAR(self->queue);
    return 0;
}

static PyObject *Array_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    (void)type;
    (void)args;
    (void)kwds;
    PyErr_SetString(PyExc_TypeError,
                    "lazycl arrays are made with lazycl.asarray, lazycl.zeros, ... not Array()");
    return NULL;
}

PyTypeObject lc_py_ArrayBaseType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "lazycl._lazycl.ArrayBase",
    .tp_basicsize = sizeof(lc_py_Array),
    .tp_dealloc = (destructor)Array_dealloc,
    .tp_as_number = &lc_py_array_as_number,
    .tp_as_mapping = &lc_py_array_as_mapping,
    .tp_richcompare = lc_py_array_richcompare,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = (traverseproc)Array_traverse,
    .tp_clear = (inquiry)Array_clear,
    .tp_doc = "A lazy n-dimensional array on an OpenCL device (the C base of lazycl.Array).",
    .tp_methods = lc_py_array_methods,
    .tp_getset = Array_getset,
    .tp_new = Array_new,
};

lc_py_Array *lc_py_as_array(PyObject *o)
{
    if (!LC_PY_IS_ARRAY(o)) {
        PyErr_Format(PyExc_TypeError, "expected a lazycl array, got %s", Py_TYPE(o)->tp_name);
        return NULL;
    }
    return (lc_py_Array *)o;
}

static PyObject *py_set_array_class(PyObject *Py_UNUSED(m), PyObject *cls)
{
    if (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject *)cls, &lc_py_ArrayBaseType)) {
        PyErr_SetString(PyExc_TypeError, "expected a subclass of ArrayBase");
        return NULL;
    }
    Py_INCREF(cls);
    lc_py_array_cls = (PyTypeObject *)cls;
    Py_RETURN_NONE;
}

/* _node_id(x): the address of x's graph node, to tell whether two arrays share one. */
static PyObject *py_node_id(PyObject *Py_UNUSED(m), PyObject *x)
{
    lc_py_Array *a = lc_py_as_array(x);
    if (!a)
        return NULL;
    return PyLong_FromVoidPtr(a->node);
}

static PyMethodDef lc_py_array_functions[] = {
    {"_set_array_class", py_set_array_class, METH_O, "Register the Python Array class."},
    {"_node_id", py_node_id, METH_O, "The address of the array's graph node (for tests)."},
    {NULL, NULL, 0, NULL},
};

int lc_py_array_setup(PyObject *m)
{
    import_array1(-1);
    if (PyType_Ready(&lc_py_ArrayBaseType) < 0)
        return -1;
    if (PyModule_AddObjectRef(m, "ArrayBase", (PyObject *)&lc_py_ArrayBaseType) < 0)
        return -1;
    if (PyModule_AddFunctions(m, lc_py_array_functions) < 0)
        return -1;
    return 0;
}
