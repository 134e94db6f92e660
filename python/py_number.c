/* py_number.c: the Array's number protocol and comparisons: operators build graph nodes. */
#include "lcpy.h"

#include "graph/graph.h"

static int lc_op_rule_is_compare(int op)
{
    return op == LC_OP_EQ || op == LC_OP_NE || op == LC_OP_LT || op == LC_OP_LE ||
           op == LC_OP_GT || op == LC_OP_GE;
}

PyObject *lc_py_binary_obj(int op, PyObject *a, PyObject *b)
{
    PyObject *ops[2] = {a, b};
    PyObject *q = lc_py_common_queue(ops, 2);
    if (!q)
        return NULL;
    struct lc_node *na = lc_py_operand(a, q);
    if (!na)
        return NULL;
    struct lc_node *nb = lc_py_operand(b, q);
    if (!nb) {
        lc_node_release(na);
        return NULL;
    }
    struct lc_node *r = NULL;
    if (lc_op_rule_is_compare(op)) {
        /* NumPy 2 compares a Python int with an integer array by value, even
         * out of the array's range (int8 == 1000 is False): such a scalar
         * becomes a strong int64 (or uint64) so the comparison widens. */
        lc_py_strengthen_wide_int(&na, nb);
        lc_py_strengthen_wide_int(&nb, na);
        struct lc_error e = {0};
        r = lc_node_binary(op, na, nb, &e);
        if (!r)
            lc_py_raise(&e);
    } else if (lc_py_check_weak_int(na, nb) == 0 && lc_py_check_weak_int(nb, na) == 0) {
        struct lc_error e = {0};
        r = lc_node_binary(op, na, nb, &e);
        if (!r)
            lc_py_raise(&e);
    }
    lc_node_release(na);
    lc_node_release(nb);
    return lc_py_wrap(r, q);
}

/* Operator slots: NotImplemented for operands we cannot take. */
static int lc_takes(PyObject *o)
{
    return LC_PY_IS_ARRAY(o) || PyBool_Check(o) || PyLong_Check(o) || PyFloat_Check(o) ||
           PyComplex_Check(o) ||
           PyArray_Check(o) || PyArray_IsScalar(o, Generic) || PyList_Check(o) || PyTuple_Check(o);
}

#define LC_BINOP(fn, OP)                                           \
    static PyObject *fn(PyObject *a, PyObject *b)                  \
    {                                                              \
        if (!lc_takes(a) || !lc_takes(b))                          \
            Py_RETURN_NOTIMPLEMENTED;                              \
        return lc_py_binary_obj(OP, a, b);                         \
    }
LC_BINOP(Array_add, LC_OP_ADD)
LC_BINOP(Array_sub, LC_OP_SUB)
LC_BINOP(Array_mul, LC_OP_MUL)
LC_BINOP(Array_truediv, LC_OP_DIV)
LC_BINOP(Array_floordiv, LC_OP_FLOORDIV)
LC_BINOP(Array_mod, LC_OP_MOD)
LC_BINOP(Array_and, LC_OP_AND)
LC_BINOP(Array_or, LC_OP_OR)
LC_BINOP(Array_xor, LC_OP_XOR)
LC_BINOP(Array_lshift, LC_OP_LSHIFT)
LC_BINOP(Array_rshift, LC_OP_RSHIFT)

PyObject *lc_py_array_pow(PyObject *a, PyObject *b, PyObject *mod)
{
    if (mod != Py_None) {
        PyErr_SetString(PyExc_TypeError, "lazycl does not support pow() with a modulus");
        return NULL;
    }
    if (!lc_takes(a) || !lc_takes(b))
        Py_RETURN_NOTIMPLEMENTED;
    /* NumPy refuses negative integer powers of integers. */
    if (LC_PY_IS_ARRAY(a) && PyLong_Check(b) && !PyBool_Check(b) &&
        lc_dtype_is_int(((lc_py_Array *)a)->node->dtype)) {
        int overflow = 0;
        long long x = PyLong_AsLongLongAndOverflow(b, &overflow);
        if ((x < 0 && !PyErr_Occurred()) || overflow < 0) {
            PyErr_SetString(PyExc_ValueError, "Integers to negative integer powers are not allowed.");
            return NULL;
        }
        PyErr_Clear();
    }
    return lc_py_binary_obj(LC_OP_POW, a, b);
}

PyObject *lc_py_unary_obj(int op, PyObject *a)
{
    lc_py_Array *x = (lc_py_Array *)a;
    struct lc_error e = {0};
    struct lc_node *r = lc_node_unary(op, x->node, &e);
    if (!r)
        return lc_py_raise(&e);
    return lc_py_wrap(r, x->queue);
}

static PyObject *Array_neg(PyObject *a) { return lc_py_unary_obj(LC_OP_NEG, a); }
static PyObject *Array_pos(PyObject *a) { return lc_py_unary_obj(LC_OP_POS, a); }
static PyObject *Array_abs(PyObject *a) { return lc_py_unary_obj(LC_OP_ABS, a); }
static PyObject *Array_invert(PyObject *a) { return lc_py_unary_obj(LC_OP_NOT, a); }

PyObject *lc_py_array_richcompare(PyObject *a, PyObject *b, int op)
{
    if (!lc_takes(a) || !lc_takes(b))
        Py_RETURN_NOTIMPLEMENTED;
    static const int ops[] = {[Py_LT] = LC_OP_LT, [Py_LE] = LC_OP_LE, [Py_EQ] = LC_OP_EQ,
                              [Py_NE] = LC_OP_NE, [Py_GT] = LC_OP_GT, [Py_GE] = LC_OP_GE};
    return lc_py_binary_obj(ops[op], a, b);
}

PyNumberMethods lc_py_array_as_number = {
    .nb_add = Array_add,
    .nb_subtract = Array_sub,
    .nb_multiply = Array_mul,
    .nb_remainder = Array_mod,
    .nb_power = lc_py_array_pow,
    .nb_negative = Array_neg,
    .nb_positive = Array_pos,
    .nb_absolute = Array_abs,
    .nb_invert = Array_invert,
    .nb_lshift = Array_lshift,
    .nb_rshift = Array_rshift,
    .nb_and = Array_and,
    .nb_xor = Array_xor,
    .nb_or = Array_or,
    .nb_floor_divide = Array_floordiv,
    .nb_true_divide = Array_truediv,
};
