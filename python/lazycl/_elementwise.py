"""Elementwise functions beyond the one-op ufuncs of _ufuncs.py: NumPy's aliases (abs, divide,
pow, acos ...), the ufuncs composed of several ops (logaddexp, logaddexp2, heaviside,
conjugate), where, clip and round.

Layer: above _ufuncs (package docstring)."""
import math

import numpy as np

from . import _compact, _complex, _ufuncs
from . import _lazycl as _c
from ._ufuncs import (
    absolute, add, arccos, arccosh, arcsin, arcsinh, arctan, arctan2, arctanh, equal,
    exp, exp2, greater, invert, isnan, left_shift, less, less_equal, log1p, maximum, minimum,
    multiply, negative, power, remainder, right_shift, rint, subtract, true_divide,
)
from ._util import as_array as _as, is_array as _is_array


def where(condition, x=None, y=None, /):
    """x where condition holds, else y (broadcast; NumPy's promotion); with the condition
    alone, the indices of its non-zero elements (numpy.nonzero)."""
    if x is None and y is None:
        return _compact.nonzero(condition)
    if x is None or y is None:
        raise ValueError("either both or neither of x and y should be given")
    return _c.where(condition, x, y)


_wh = _c.where   # where() inside functions whose where= argument hides it

abs = absolute  # noqa: A001  (NumPy's alias)
divide = true_divide
mod = remainder
bitwise_not = invert
bitwise_invert = invert
bitwise_left_shift = left_shift
bitwise_right_shift = right_shift
pow = power  # noqa: A001
acos, asin, atan, atan2 = arccos, arcsin, arctan, arctan2
acosh, asinh, atanh = arccosh, arcsinh, arctanh


# Ufuncs composed of the ops above (lazy like them), with NumPy's special cases.

def _real_only(name, *xs):
    """NumPy has no complex loop for these: its TypeError."""
    for x in xs:
        if np.dtype(x.dtype if _is_array(x) else np.asarray(x).dtype).kind == "c":
            raise TypeError(f"ufunc '{name}' not supported for the input types, and the inputs "
                            "could not be safely coerced to any supported types according to "
                            "the casting rule ''safe''")


def _logadd_operands(name, x1, x2):
    """logaddexp's and logaddexp2's operands and their difference, in the result's float
    dtype: integers go to float64, and a Python scalar takes the result's dtype (NEP 50), so
    that x1 + log(2) stays float32."""
    _real_only(name, x1, x2)
    d = subtract(x1, x2)
    if d.dtype.kind != "f":
        d = _c.astype(d, np.float64)
        x1, x2 = _c.astype(_as(x1), np.float64), _c.astype(_as(x2), np.float64)
    x1, x2 = (v if _is_array(v) else _c._full(v, (), d.dtype, d.queue) for v in (x1, x2))
    return x1, x2, d


def logaddexp(x1, x2, /):
    """log(exp(x1) + exp(x2)) without overflow, as numpy.logaddexp (equal infinities give
    themselves, a NaN gives NaN)."""
    x1, x2, d = _logadd_operands("logaddexp", x1, x2)
    return _wh(equal(x1, x2), add(x1, math.log(2.0)),
               _wh(greater(d, 0), add(x1, log1p(exp(negative(d)))),
                   _wh(less_equal(d, 0), add(x2, log1p(exp(d))), d)))


def logaddexp2(x1, x2, /):
    """log2(2**x1 + 2**x2) without overflow, as numpy.logaddexp2."""
    x1, x2, d = _logadd_operands("logaddexp2", x1, x2)
    inv_ln2 = 1.0 / math.log(2.0)
    return _wh(equal(x1, x2), add(x1, 1.0),
               _wh(greater(d, 0), add(x1, multiply(log1p(exp2(negative(d))), inv_ln2)),
                   _wh(less_equal(d, 0), add(x2, multiply(log1p(exp2(d)), inv_ln2)), d)))


def heaviside(x1, x2, /):
    """0 where x1 < 0, x2 where x1 == 0, 1 where x1 > 0, NaN where x1 is NaN."""
    _real_only("heaviside", x1, x2)
    dt = np.dtype(multiply(x1, x2).dtype)        # NumPy's result dtype (a node never computed)
    dt = dt if dt.kind == "f" else np.dtype(np.float64)
    a = _c.astype(_as(x1), dt)
    b = x2 if not _is_array(x2) else _c.astype(x2, dt)
    zero, one = _c._full(0, (), dt, a.queue), _c._full(1, (), dt, a.queue)
    return _c.astype(_wh(isnan(a), a, _wh(less(a, 0), zero, _wh(greater(a, 0), one, b))), dt)


# The composed ufuncs, and the conjugate of _complex.py, as lazycl.ufunc objects.
logaddexp = _ufuncs.from_function(logaddexp)
logaddexp2 = _ufuncs.from_function(logaddexp2)
heaviside = _ufuncs.from_function(heaviside)
conj = conjugate = _ufuncs.from_function(_complex.conjugate)


def clip(x, min=None, max=None):
    """Limit the values of x to [min, max] (either or both may be None, as NumPy 2). Python
    integer bounds beyond an integer dtype's range clip nothing on that side (NumPy 2 does not
    cast them as a binary operation's operands: clip(uint8, -2, 2) is [0, 2])."""
    r = _as(x)
    if r.dtype.kind in "iu":
        info = np.iinfo(r.dtype)
        if isinstance(min, int) and not isinstance(min, bool) and min < info.min:
            min = None
        if isinstance(max, int) and not isinstance(max, bool) and max > info.max:
            max = None
        if isinstance(min, int) and not isinstance(min, bool) and min > info.max:
            min = int(info.max)
        if isinstance(max, int) and not isinstance(max, bool) and max < info.min:
            max = int(info.min)
    if min is not None:
        r = maximum(r, min)
    if max is not None:
        r = minimum(r, max)
    return r


def round(x, decimals=0):  # noqa: A001
    """Round half to even, as numpy.round."""
    x = _as(x)
    if x.dtype.kind in "biu":
        if decimals >= 0:
            return x
        f = 10 ** (-decimals)
        return (rint(x.astype(np.float64) / f) * f).astype(x.dtype)
    if decimals == 0:
        return rint(x)
    f = 10.0 ** decimals
    return rint(x * f) / f


around = round


__all__ = [
    "where", "abs", "divide", "mod", "bitwise_not", "bitwise_invert", "bitwise_left_shift",
    "bitwise_right_shift", "pow", "acos", "asin", "atan", "atan2", "acosh", "asinh", "atanh",
    "logaddexp", "logaddexp2", "heaviside", "conj", "conjugate", "clip", "round", "around",
]
