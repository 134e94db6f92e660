"""The NumPy-style namespace: creation, elementwise functions, views, reductions, scans, and
the NumPy protocols (index maps, joins, tiling, writes and histograms live in files of their
own and are gathered here)."""
import builtins as _b
import math
import numbers
import operator
import os
import warnings

import numpy as np

from . import _lazycl as _c
from . import _complex, _ufuncs, _write
from ._index import take, take_along_axis  # noqa: F401
from ._tiling import pad, repeat, roll, tile  # noqa: F401
from ._histogram import histogram, histogram2d, histogramdd  # noqa: F401
from ._sort import argsort, sort  # noqa: F401
from ._select import (  # noqa: F401
    argpartition, median, nanmedian, partition, percentile, quantile, top_k,
)
from ._setops import (  # noqa: F401
    digitize, intersect1d, isin, lexsort, searchsorted, setdiff1d, union1d, unique, unique_all,
    unique_counts, unique_inverse, unique_values,
)
from ._indexmaps import (  # noqa: F401
    diag, diag_indices, diag_indices_from, diagflat, diagonal, indices, meshgrid, mgrid, ogrid,
    outer, ravel_multi_index, trace, tri, tril, tril_indices, tril_indices_from, triu,
    triu_indices, triu_indices_from, unravel_index,
)
from ._linalg import (  # noqa: F401
    dot, inner, matmul, matrix_transpose, tensordot, vdot, vecdot,
)
from ._einsum import einsum  # noqa: F401
from ._stats import (  # noqa: F401
    average, corrcoef, cov, nancumprod, nancumsum, nanprod, nanstd, nanvar, ptp,
)
from ._shapes import (  # noqa: F401
    append, array, asanyarray, asarray_chkfinite, ascontiguousarray, atleast_1d, atleast_2d,
    atleast_3d, cross, fix, fliplr, flipud, fromfunction, iscomplex, iscomplexobj, isneginf,
    isposinf, isreal, isrealobj, logspace, rollaxis, rot90,
)
from ._complex import angle, conj, conjugate, imag, real  # noqa: F401
from ._scans import cummax, cummin, cumprod, cumsum, diff  # noqa: F401
from ._arrayapi import (  # noqa: F401
    can_cast, concat, cumulative_prod, cumulative_sum, finfo, iinfo, isdtype, result_type, unstack,
)
from ._mathfns import (  # noqa: F401
    UFUNCS as _MATH_UFUNCS, allclose, array_equal, array_equiv, convolve, correlate, deg2rad,
    degrees, divmod, fabs, float_power, frexp, gcd, gradient, interp, isclose, lcm, ldexp, modf,
    nan_to_num, nextafter, polyval, rad2deg, radians, signbit, sinc, spacing,
)
from ._join import (  # noqa: F401
    array_split, choose, column_stack, concatenate, dsplit, dstack, hsplit, hstack, select, split,
    stack, vsplit, vstack,
)

try:
    from numpy.exceptions import AxisError
except ImportError:  # NumPy < 1.25
    from numpy import AxisError

def asarray(obj, dtype=None, device=None, *, copy=None):
    """obj as a lazycl array of `dtype` on `device`: a lazycl array already so is returned
    as it is; anything else (NumPy arrays, nested sequences, scalars) is copied to the device.
    copy=True always gives a new array (later writes to obj do not show in it); copy=False
    never copies and raises NumPy's ValueError where it would have to."""
    if copy is None:
        return _c.asarray(obj, dtype, device)
    if not isinstance(copy, (bool, np.bool_)):
        raise ValueError(f"copy must be True, False or None, not {copy!r}")
    r = _c.asarray(obj, dtype, device)
    if copy:
        return _c._copy(r) if r is obj else r
    if r is not obj:
        raise ValueError("Unable to avoid copy while creating an array as requested.")
    return r


def where(condition, x=None, y=None, /):
    """x where condition holds, else y (broadcast; NumPy's promotion); with the condition
    alone, the indices of its non-zero elements (numpy.nonzero)."""
    if x is None and y is None:
        return _write.nonzero(condition)
    if x is None or y is None:
        raise ValueError("either both or neither of x and y should be given")
    return _c.where(condition, x, y)


_wh = _c.where   # where() inside functions whose where= argument hides it


def _is_array(x):
    # Every array is of the registered subclass lazycl.Array (_array.py), which
    # imports this module: testing the C base keeps the import one way.
    return isinstance(x, _c.ArrayBase)


def _queue_of(*xs):
    for x in xs:
        if _is_array(x):
            return x.queue
    return None


def _dtype_or_none(dtype):
    return None if dtype is None else np.dtype(dtype)


# ---- creation -------------------------------------------------------------------------

def _shape_tuple(shape):
    if isinstance(shape, numbers.Integral) or hasattr(shape, "__index__"):
        return (operator.index(shape),)
    return tuple(operator.index(s) for s in shape)


def full(shape, fill_value, dtype=None, device=None):
    """An array of `shape` filled with `fill_value` (takes no device memory until needed)."""
    if _is_array(fill_value):
        fill_value = fill_value.item()
    return _c._full(fill_value, _shape_tuple(shape), dtype, device)


def zeros(shape, dtype=None, device=None):
    return _c._full(0, _shape_tuple(shape), np.float64 if dtype is None else dtype, device)


def ones(shape, dtype=None, device=None):
    return _c._full(1, _shape_tuple(shape), np.float64 if dtype is None else dtype, device)


def empty(shape, dtype=None, device=None):
    """Like zeros: lazycl never hands out uninitialized memory."""
    return zeros(shape, dtype, device)


def _like_device(x, device):
    if device is not None:
        return device
    return x.queue if _is_array(x) else None


def _check_order(order, allowed="KAC"):
    """lazycl arrays have no memory order a user can choose: NumPy's C-like orders pass, and
    Fortran order raises rather than being ignored."""
    if order is not None and (not isinstance(order, str) or order.upper() not in allowed):
        if isinstance(order, str) and order.upper() == "F":
            raise NotImplementedError("lazycl arrays are laid out in C order only (order='F')")
        raise ValueError(f"order must be one of {', '.join(repr(o) for o in allowed)}, "
                         f"not {order!r}")


def full_like(x, fill_value, dtype=None, order="K", subok=True, shape=None, *, device=None):
    """NumPy's full_like: x's shape (or `shape`), dtype (or `dtype`) and device (or `device`).
    `subok` has no meaning for lazycl (no subclasses) and is accepted for NumPy's calls."""
    _check_order(order)
    dtype = x.dtype if dtype is None else dtype
    if shape is None:
        shape = np.shape(x) if not _is_array(x) else x.shape
    return full(shape, fill_value, dtype, _like_device(x, device))


def zeros_like(x, dtype=None, order="K", subok=True, shape=None, *, device=None):
    return full_like(x, 0, dtype, order, subok, shape, device=device)


def ones_like(x, dtype=None, order="K", subok=True, shape=None, *, device=None):
    return full_like(x, 1, dtype, order, subok, shape, device=device)


def empty_like(x, dtype=None, order="K", subok=True, shape=None, *, device=None):
    return full_like(x, 0, dtype, order, subok, shape, device=device)


def arange(start, stop=None, step=1, dtype=None, device=None):
    """Evenly spaced values in [start, stop), computed on the device (no upload)."""
    if stop is None:
        start, stop = 0, start
    if step == 0:
        raise ZeroDivisionError("arange: step must not be zero")
    if dtype is None:
        dtype = np.result_type(start, stop, step)
        if dtype.kind == "b":
            dtype = np.dtype(np.int64)
    dtype = np.dtype(dtype)
    if dtype.kind == "c":
        # A complex arange: the real one, made complex (a complex start or step has no
        # count NumPy defines for lazycl to follow).
        if _b.any(isinstance(v, complex) and v.imag for v in (start, stop, step)):
            raise NotImplementedError("lazycl: arange with complex start, stop or step")
        start, stop, step = (v.real if isinstance(v, complex) else v for v in (start, stop, step))
        return _c.astype(arange(start, stop, step, np.float64 if dtype == np.complex128
                                else np.float32, device), dtype)
    if _b.all(isinstance(v, numbers.Integral) for v in (start, stop, step)):
        n = len(range(start, stop, step))
    else:
        n = _b.max(0, math.ceil((stop - start) / step))
    if dtype.kind == "f":
        return _c._iota(float(start), float(step), n, dtype, device)
    if dtype.kind == "b":
        raise TypeError("arange of booleans is not supported")
    return _c._iota(int(start), int(step), n, dtype, device)


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, device=None):
    if isinstance(start, complex) or isinstance(stop, complex) or (
            dtype is not None and np.dtype(dtype).kind == "c"):
        # The parts apart, joined: NumPy's formula on each.
        start, stop = complex(start), complex(stop)
        out = np.dtype(np.complex128 if dtype is None else dtype)
        re = linspace(start.real, stop.real, num, endpoint, False, None, device)
        im = linspace(start.imag, stop.imag, num, endpoint, False, None, device)
        r = _c.astype(_c._binary("complex", re, im), out)
        div = (num - 1) if endpoint else num
        return (r, (stop - start) / div if div > 0 else complex(math.nan, math.nan)) \
            if retstep else r
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    div = (num - 1) if endpoint else num
    step = (stop - start) / div if div > 0 else float("nan")
    out_dtype = np.dtype(np.float64 if dtype is None else dtype)
    idx = _c._iota(0, 1, num, np.int64, device)
    if div > 0:
        vals = idx.astype(np.float64) * step + start
    else:
        vals = idx.astype(np.float64) * 0.0 + start
    if endpoint and num > 1:
        vals = where(idx == num - 1, float(stop), vals)
    if out_dtype.kind in "iu":
        vals = floor(vals)
    vals = vals.astype(out_dtype)
    return (vals, step) if retstep else vals


def eye(N, M=None, k=0, dtype=None, device=None):
    M = N if M is None else M
    # A diagonal beyond the matrix is as empty as the first one past it (k stays in int64).
    k = _b.min(_b.max(operator.index(k), -operator.index(N)), operator.index(M))
    rows = _c._iota(0, 1, N, np.int64, device).reshape(N, 1)
    cols = _c._iota(0, 1, M, np.int64, device).reshape(1, M)
    return ((rows + k) == cols).astype(np.float64 if dtype is None else dtype)


def identity(n, dtype=None, device=None):
    return eye(n, dtype=dtype, device=device)


def to_device(x, device):
    """`x` on another device or queue: a copy through the host (or `x` itself
    when it is already there)."""
    if isinstance(device, _c.Queue):
        return x if device is x.queue else asarray(x.numpy(), device=device)
    if device is None:
        dev = _c.default_device()
    elif isinstance(device, _c.Device):
        dev = device
    else:
        dev = _c.Device(device)
    return x if dev == x.device else asarray(x.numpy(), device=dev)


from ._dlpack import from_dlpack, DLPackCopyError  # noqa: E402,F401


def asnumpy(x):
    """A NumPy array with the values of x (computes first)."""
    return x.numpy() if _is_array(x) else np.asarray(x)


def compute(*arrays):
    """Compute several arrays at once; outputs over the same index space share kernels."""
    return _c.compute(*arrays)


class Explanation(str):
    """The text of lazycl.explain: shows itself in a REPL."""

    def __repr__(self):
        return str(self)


def explain(*arrays):
    """The plan of computing `arrays` — kernels, the nodes each fuses, buffers and the OpenCL C —
    without running anything."""
    return Explanation(_c._explain(*arrays))


# ---- elementwise ----------------------------------------------------------------------

_UNARY = ["negative", "positive", "absolute", "invert", "logical_not", "sign", "square",
          "reciprocal", "exp", "expm1", "exp2", "log", "log1p", "log2", "log10", "sqrt", "cbrt",
          "sin", "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh",
          "arccosh", "arctanh", "floor", "ceil", "trunc", "rint", "isnan", "isinf", "isfinite"]
_BINARY = ["add", "subtract", "multiply", "true_divide", "floor_divide", "remainder", "power",
           "equal", "not_equal", "less", "less_equal", "greater", "greater_equal", "bitwise_and",
           "bitwise_or", "bitwise_xor", "left_shift", "right_shift", "logical_and", "logical_or",
           "logical_xor", "maximum", "minimum", "fmax", "fmin", "arctan2", "hypot", "copysign"]

# Each is a lazycl.ufunc (_ufuncs.py): called, one graph node; with NumPy's methods.
for _n in _UNARY + _BINARY:
    globals()[_n] = _ufuncs.from_op(_n)

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


def logaddexp(x1, x2, /):
    """log(exp(x1) + exp(x2)) without overflow, as numpy.logaddexp (equal infinities give
    themselves, a NaN gives NaN)."""
    _real_only("logaddexp", x1, x2)
    d = subtract(x1, x2)
    if d.dtype.kind != "f":
        d = _c.astype(d, np.float64)
        x1, x2 = _c.astype(_as(x1), np.float64), _c.astype(_as(x2), np.float64)
    # A Python scalar takes the result's dtype (NEP 50), so that x1 + log(2) stays float32.
    x1, x2 = (v if _is_array(v) else _c._full(v, (), d.dtype, d.queue) for v in (x1, x2))
    return _wh(equal(x1, x2), add(x1, math.log(2.0)),
               _wh(greater(d, 0), add(x1, log1p(exp(negative(d)))),
                   _wh(less_equal(d, 0), add(x2, log1p(exp(d))), d)))


def logaddexp2(x1, x2, /):
    """log2(2**x1 + 2**x2) without overflow, as numpy.logaddexp2."""
    _real_only("logaddexp2", x1, x2)
    d = subtract(x1, x2)
    if d.dtype.kind != "f":
        d = _c.astype(d, np.float64)
        x1, x2 = _c.astype(_as(x1), np.float64), _c.astype(_as(x2), np.float64)
    x1, x2 = (v if _is_array(v) else _c._full(v, (), d.dtype, d.queue) for v in (x1, x2))
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


# The composed ufuncs, and those of _mathfns.py and _complex.py, as lazycl.ufunc objects.
logaddexp = _ufuncs.from_function(logaddexp)
logaddexp2 = _ufuncs.from_function(logaddexp2)
heaviside = _ufuncs.from_function(heaviside)
conj = conjugate = _ufuncs.from_function(conjugate)
for _n in _MATH_UFUNCS:
    globals()[_n] = _ufuncs.from_function(globals()[_n])


def _complex_warning(src, dtype, stacklevel=3):
    """NumPy's ComplexWarning when a complex value is cast to a real dtype (stacklevel counts
    from this function to the user's call)."""
    if np.dtype(src).kind == "c" and np.dtype(dtype).kind not in "cb":
        warnings.warn("Casting complex values to real discards the imaginary part",
                      np.exceptions.ComplexWarning, stacklevel=stacklevel)


def astype(x, dtype, /, *, copy=True, device=None):
    if device is not None:
        x = to_device(x, device)            # a copy already where the device differs
    if copy and np.dtype(dtype) == np.dtype(x.dtype):
        return _c._copy(x)
    _complex_warning(x.dtype, dtype)
    return _c.astype(x, dtype)


def copy(a, order="K", subok=False):
    """A copy of a (pending: computed when used): later writes to a do not change it."""
    return _c._copy(a if _is_array(a) else asarray(a))


def broadcast_to(x, shape):
    """A read-only broadcast view of x, as NumPy's."""
    r = _c.broadcast_to(x if _is_array(x) else asarray(x), shape)
    _c._set_readonly(r, 1)
    return r


copyto = _write.copyto
put = _write.put
putmask = _write.putmask
place = _write.place
put_along_axis = _write.put_along_axis
fill_diagonal = _write.fill_diagonal
nonzero = _write.nonzero
argwhere = _write.argwhere
flatnonzero = _write.flatnonzero
extract = _write.extract
compress = _write.compress
bincount = _write.bincount


def clip(x, min=None, max=None):
    """Limit the values of x to [min, max] (either or both may be None, as NumPy 2). Python
    integer bounds beyond an integer dtype's range clip nothing on that side (NumPy 2 does not
    cast them as a binary operation's operands: clip(uint8, -2, 2) is [0, 2])."""
    r = x if _is_array(x) else asarray(x)
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
    if not _is_array(x):
        x = asarray(x)
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


# ---- views ----------------------------------------------------------------------------

def reshape(x, /, shape, *, copy=None):
    """x with a new shape (a view where NumPy would make one); copy=True makes a copy.
    copy=False is refused: lazycl cannot yet promise that a reshape makes no copy."""
    if copy is False:
        raise NotImplementedError("reshape(copy=False) is not supported: lazycl cannot tell "
                                  "whether the reshape copies")
    r = _c.reshape(x, shape)
    return _c._copy(r) if copy else r


def permute_dims(x, axes):
    """A transposed view; an axis out of range is NumPy's AxisError."""
    axes = tuple(axes)
    if _is_array(x) and len(axes) == x.ndim:
        axes = tuple(_norm_axis(a, x.ndim) for a in axes)
    return _c.permute_dims(x, axes)


def transpose(x, axes=None):
    return x.T if axes is None else permute_dims(x, axes)


def _norm_axis(axis, ndim):
    a = operator.index(axis)
    if a < -ndim or a >= ndim:
        raise AxisError(a, ndim)
    return a + ndim if a < 0 else a


def _norm_axes(axis, ndim):
    """A sorted tuple of distinct non-negative axes; None means all. Like
    NumPy, a 0-d array takes axis 0 (or -1) as "all of it"."""
    if axis is None:
        return tuple(range(ndim))
    if ndim == 0 and not isinstance(axis, (tuple, list)) and operator.index(axis) in (0, -1):
        return ()
    if isinstance(axis, (tuple, list)):
        axes = tuple(_norm_axis(a, ndim) for a in axis)
        if len(set(axes)) != len(axes):
            raise ValueError("duplicate value in 'axis'")
        return tuple(sorted(axes))
    return (_norm_axis(axis, ndim),)


def expand_dims(x, axis):
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    nd = x.ndim + len(axes)
    axes = sorted(_norm_axis(a, nd) for a in axes)
    if len(set(axes)) != len(axes):
        raise ValueError("repeated axis")
    shape = list(x.shape)
    for a in axes:
        shape.insert(a, 1)
    return _c.reshape(x, shape)


def squeeze(x, axis=None):
    if axis is None:
        return _c.reshape(x, [s for s in x.shape if s != 1])
    axes = _norm_axes(axis, x.ndim)
    for a in axes:
        if x.shape[a] != 1:
            raise ValueError("cannot select an axis to squeeze out which has size not equal to one")
    return _c.reshape(x, [s for i, s in enumerate(x.shape) if i not in axes])


def flip(x, axis=None):
    axes = _norm_axes(axis, x.ndim)
    starts, steps, lens = [], [], []
    for d, n in enumerate(x.shape):
        if d in axes:
            starts.append(n - 1 if n else 0)
            steps.append(-1)
        else:
            starts.append(0)
            steps.append(1)
        lens.append(n)
    return _c._slice(x, starts, steps, lens)


def ravel(x, order="C"):
    """The elements in C order ('C', 'A', 'K': lazycl arrays have no memory order of their
    own) or Fortran order ('F')."""
    x = _as(x)
    if order == "F":
        return _c.reshape(permute_dims(x, tuple(reversed(range(x.ndim)))), (-1,))
    if order not in ("C", "A", "K", None):
        raise ValueError("order must be one of 'C', 'F', 'A', or 'K' (got %r)" % (order,))
    return _c.reshape(x, (-1,))


def swapaxes(x, a, b):
    a, b = _norm_axis(a, x.ndim), _norm_axis(b, x.ndim)
    axes = list(range(x.ndim))
    axes[a], axes[b] = axes[b], axes[a]
    return _c.permute_dims(x, axes)


def moveaxis(x, source, destination):
    """x with the axes `source` (an int or a sequence) moved to `destination`, as
    numpy.moveaxis: a transposed view."""
    def axes(a, name):
        a = tuple(a) if isinstance(a, (tuple, list)) else (a,)
        a = tuple(_norm_axis(i, x.ndim) for i in a)
        if len(set(a)) != len(a):
            raise ValueError(f"repeated axis in `{name}` argument")
        return a
    src, dst = axes(source, "source"), axes(destination, "destination")
    if len(src) != len(dst):
        raise ValueError("`source` and `destination` arguments must have the same number of "
                         "elements")
    order = [a for a in range(x.ndim) if a not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return _c.permute_dims(x, order)


def broadcast_arrays(*xs):
    shape = np.broadcast_shapes(*[x.shape for x in xs])
    return [broadcast_to(x, shape) for x in xs]


def shape(x):
    return x.shape


def ndim(x):
    return x.ndim


def size(x):
    return x.size


# ---- reductions ------------------------------------------------------------------------

def _keep(r, x, axes, keepdims):
    if not keepdims:
        return r
    shape = [1 if d in axes else n for d, n in enumerate(x.shape)]
    return _c.reshape(r, shape)


def _sum_dtype(dt):
    """NumPy's accumulator dtype for sum/prod/cumsum/cumprod."""
    if dt.kind == "b" or (dt.kind == "i" and dt.itemsize < 8):
        return np.dtype(np.int64)
    if dt.kind == "u" and dt.itemsize < 8:
        return np.dtype(np.uint64)
    return dt


def _as(x):
    return x if _is_array(x) else asarray(x)


def _no_out(out):
    if out is not None:
        raise TypeError("lazycl does not take out= here: assign the result (out[...] = ...)")


# ---- out= of reductions and scans ------------------------------------------------------------
# NumPy's rules: out is an array (lazycl or NumPy; a 1-tuple is unpacked) of exactly the
# result's shape; the result is cast into it unsafely; the function returns out. The loop runs
# in the common dtype of out and the input where that is a float (np.sum(float32, out=float64)
# sums in float64); integer loops give the default accumulator's results modulo out's width,
# which is what the cast gives.

def _out_of(out):
    if out is None:
        return None
    if isinstance(out, tuple):
        if len(out) != 1:
            raise TypeError("lazycl: out= takes one array")
        out = out[0]
    if not (_is_array(out) or isinstance(out, np.ndarray)):
        raise TypeError("return arrays must be of ArrayType")
    return out


def _loop_dtype(x, dtype, out):
    """The dtype= a reduction runs with when out= is given (NumPy resolves its loop with out's
    dtype in the signature)."""
    if dtype is None and out is not None:
        lt = np.result_type(np.dtype(out.dtype), x.dtype)
        if lt.kind == "f":
            return lt
    return dtype


def _put_out(r, out, op, scan=False):
    """The result r written into out (NumPy's shape check, unsafe casting); out, or r if no
    out was given."""
    if out is None:
        return r
    rs, os_ = tuple(r.shape), tuple(out.shape)
    if rs != os_:
        if scan:
            raise ValueError("provided out is the wrong size for the accumulation.")
        if len(rs) != len(os_):
            raise ValueError(f"output parameter for reduction operation {op} has the wrong "
                             f"number of dimensions: Found {len(os_)} but expected {len(rs)}")
        raise ValueError(f"output parameter for reduction operation {op} has the wrong shape: "
                         f"Found {os_} but expected {rs}")
    return _write.assign_out(out, r, op, casting="unsafe")


# where= of reductions: the elements where the mask is False count as the reduction's identity
# (0 for sums, 1 for products, False / True for any / all, `initial` for max and min, which
# have none of their own); the mask broadcasts to the input's shape, never the other way.

def _where_mask(x, where):
    """The mask of where= as a bool array of x's shape, or None when it keeps everything."""
    if where is None or where is True:
        return None
    m = where if _is_array(where) else asarray(np.asarray(where, dtype=bool), device=x.device)
    if m.dtype != np.bool_:
        raise TypeError(f"Cannot cast array data from {np.dtype(m.dtype)!r} to dtype('bool') "
                        "according to the rule 'safe'")
    if not _write.broadcasts_to(m.shape, x.shape):
        raise ValueError(f"non-broadcastable where mask with shape {tuple(m.shape)} doesn't "
                         f"match the broadcast shape {tuple(x.shape)}")
    return broadcast_to(m, tuple(x.shape))


def _masked(x, where, fill):
    """x with fill where the where= mask is False (x itself without a mask)."""
    m = _where_mask(x, where)
    if m is None:
        return x
    return _c.where(m, x, _c._full(fill, (), x.dtype, x.queue))


def sum(x, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=None):  # noqa: A001
    out = _out_of(out)
    x = _as(x)
    dtype = _loop_dtype(x, dtype, out)
    dt = _sum_dtype(x.dtype) if dtype is None else np.dtype(dtype)
    axes = _norm_axes(axis, x.ndim)
    r = _c._reduce("sum", _masked(_c.astype(x, dt), where, 0), axes)
    if initial is not None:
        r = r + initial
    return _put_out(_keep(r, x, axes, keepdims), out, "add")


def prod(x, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=None):
    out = _out_of(out)
    x = _as(x)
    dtype = _loop_dtype(x, dtype, out)
    dt = _sum_dtype(x.dtype) if dtype is None else np.dtype(dtype)
    axes = _norm_axes(axis, x.ndim)
    r = _c._reduce("prod", _masked(_c.astype(x, dt), where, 1), axes)
    if initial is not None:
        r = r * initial
    return _put_out(_keep(r, x, axes, keepdims), out, "multiply")


_UFUNC_OF = {"max": "maximum", "min": "minimum", "nanmax": "fmax", "nanmin": "fmin"}


def _minmax(op, x, axis, keepdims, out, initial=None, where=None):
    """max / min / nanmax / nanmin; `initial` takes part in every reduction (and is the result
    of an empty one); where= needs it, as in NumPy (these have no identity)."""
    out = _out_of(out)
    x = _as(x)
    axes = _norm_axes(axis, x.ndim)
    if x.dtype.kind == "c":
        if initial is not None or _where_mask(x, where) is not None:
            raise NotImplementedError(f"lazycl: {op} of a complex array with initial= or where=")
        r = _complex.extreme(op, x, axes)
        return _put_out(_keep(r, x, axes, keepdims), out, _UFUNC_OF[op])
    if _where_mask(x, where) is not None and initial is None:
        raise ValueError(f"reduction operation '{_UFUNC_OF[op]}' does not have an identity, so "
                         "to use a where mask one has to specify 'initial'")
    if initial is not None:
        x = _masked(x, where, initial)
        n = 1
        for a in axes:
            n *= x.shape[a]
        if n == 0:
            shape = [d for i, d in enumerate(x.shape) if i not in axes]
            r = _c._full(initial, tuple(shape), x.dtype, x.queue)
        else:
            two = maximum if op in ("max", "nanmax") else minimum
            if op in ("nanmax", "nanmin"):
                two = fmax if op == "nanmax" else fmin
            r = two(_c._reduce(op, x, axes), _c._full(initial, (), x.dtype, x.queue))
        return _put_out(_keep(r, x, axes, keepdims), out, _UFUNC_OF[op])
    return _put_out(_keep(_c._reduce(op, x, axes), x, axes, keepdims), out, _UFUNC_OF[op])


def max(x, axis=None, out=None, keepdims=False, initial=None, where=None):  # noqa: A001
    return _minmax("max", x, axis, keepdims, out, initial, where)


def min(x, axis=None, out=None, keepdims=False, initial=None, where=None):  # noqa: A001
    return _minmax("min", x, axis, keepdims, out, initial, where)


amax, amin = max, min


def nanmax(x, axis=None, out=None, keepdims=False, initial=None, where=None):
    return _minmax("nanmax", x, axis, keepdims, out, initial, where)


def nanmin(x, axis=None, out=None, keepdims=False, initial=None, where=None):
    return _minmax("nanmin", x, axis, keepdims, out, initial, where)


def _arg(op, x, axis, keepdims, out):
    out = _out_of(out)
    x = _as(x)
    if x.dtype.kind == "c":
        r = _complex.arg_extreme(op, x, axis, keepdims)
    elif axis is None:
        r = _c._reduce(op, x, tuple(range(x.ndim)))
        r = _c.reshape(r, (1,) * x.ndim) if keepdims else r
    else:
        axes = _norm_axes(axis, x.ndim) if x.ndim == 0 else (_norm_axis(axis, x.ndim),)
        r = _keep(_c._reduce(op, x, axes), x, axes, keepdims)
    if out is not None:
        # NumPy's argmax takes an out its intp result casts into safely, of the exact shape.
        if not np.can_cast(np.dtype(out.dtype), np.intp, "safe"):
            raise TypeError(f"Cannot cast array data from {np.dtype(out.dtype)!r} to "
                            f"{np.dtype(np.intp)!r} according to the rule 'safe'")
        if tuple(out.shape) != tuple(r.shape):
            raise ValueError(f"output array does not match result of np.{op}.")
    return _put_out(r, out, op)


def argmax(x, axis=None, out=None, keepdims=False):
    return _arg("argmax", x, axis, keepdims, out)


def argmin(x, axis=None, out=None, keepdims=False):
    return _arg("argmin", x, axis, keepdims, out)


def any(x, axis=None, out=None, keepdims=False, *, where=None):  # noqa: A001
    out = _out_of(out)
    x = _as(x)
    axes = _norm_axes(axis, x.ndim)
    if x.dtype.kind == "c":
        x = _c.astype(x, np.bool_)          # either part non-zero
    if _where_mask(x, where) is not None:
        x = _masked(_c.astype(x, np.bool_), where, False)
    return _put_out(_keep(_c._reduce("any", x, axes), x, axes, keepdims), out, "logical_or")


def all(x, axis=None, out=None, keepdims=False, *, where=None):  # noqa: A001
    out = _out_of(out)
    x = _as(x)
    axes = _norm_axes(axis, x.ndim)
    if x.dtype.kind == "c":
        x = _c.astype(x, np.bool_)          # either part non-zero
    if _where_mask(x, where) is not None:
        x = _masked(_c.astype(x, np.bool_), where, True)
    return _put_out(_keep(_c._reduce("all", x, axes), x, axes, keepdims), out, "logical_and")


def _float_of(dt):
    return dt if dt.kind in "fc" else np.dtype(np.float64)





def _stat_axes(axis, ndim):
    """Axes for mean/var/std: NumPy refuses an explicit axis on 0-d input here."""
    if ndim == 0 and axis is not None and not isinstance(axis, (tuple, list)):
        raise AxisError(operator.index(axis), 0)
    return _norm_axes(axis, ndim)


def _masked_mean(x, axis, dtype, keepdims, where, ddof=None):
    """mean (ddof None) or var with where=: sums over the kept elements divided by their count
    (a count of 0 gives NaN, as NumPy's 0/0)."""
    m = _where_mask(x, where)
    dt = _float_of(x.dtype) if dtype is None else np.dtype(dtype)
    xf = _c.astype(x, dt)
    n = sum(m, axis=axis, keepdims=True)
    mu = sum(_wh(m, xf, 0), axis=axis, keepdims=True) / n
    if ddof is None:
        r = mu
    else:
        d = _wh(m, xf - mu, 0)
        r = sum(d * d, axis=axis, keepdims=True) / maximum(n - ddof, 0)
    r = _c.astype(r, dt)
    if not keepdims:
        axes = _stat_axes(axis, x.ndim)
        r = _c.reshape(r, [k for i, k in enumerate(x.shape) if i not in axes])
    return r


def mean(x, axis=None, dtype=None, out=None, keepdims=False, *, where=None):
    """sum / count, as NumPy computes it (so a mean with inf is inf, not nan);
    float32 sums accumulate in float64 where the device has fp64. With out=, as NumPy: the
    sum is cast into out's dtype, then divided and cast again."""
    out = _out_of(out)
    x = _as(x)
    if _where_mask(x, where) is not None:
        return _put_out(_masked_mean(x, axis, dtype, keepdims, where), out, "add")
    axes = _stat_axes(axis, x.ndim)
    count = 1
    for a in axes:
        count *= x.shape[a]
    if out is not None:
        od = np.dtype(out.dtype)
        sdt = np.dtype(dtype) if dtype is not None else (
            np.dtype(np.float64) if x.dtype.kind in "biu" else _loop_dtype(x, None, out) or
            x.dtype)
        s = _c.astype(_c._reduce("sum", _c.astype(x, sdt), axes), od)
        r = s / np.intp(count) if count else s * float("nan")
        return _put_out(_keep(_c.astype(r, od), x, axes, keepdims), out, "add")
    dt = _float_of(x.dtype) if dtype is None else np.dtype(dtype)
    s = _c._reduce("sum", _c.astype(x, dt), axes)
    r = s / count if count else s * float("nan")
    if r.dtype != dt:
        r = _c.astype(r, dt)
    return _keep(r, x, axes, keepdims)


def var(x, axis=None, dtype=None, out=None, ddof=0, keepdims=False, correction=None, *,
        where=None, mean=None):
    out = _out_of(out)
    if mean is not None:
        raise NotImplementedError("lazycl: var/std with mean= (a precomputed mean)")
    if correction is not None:
        ddof = correction
    x = _as(x)
    if _where_mask(x, where) is not None:
        return _put_out(_masked_mean(x, axis, dtype, keepdims, where, ddof), out, "add")
    axes = _stat_axes(axis, x.ndim)
    xin = x if dtype is None else _c.astype(x, dtype)
    if xin.dtype.kind == "c":
        # |z - mean|^2 averaged: the parts' variances add (a real result, as NumPy's).
        r = (_c._reduce("var", real(xin), axes, int(ddof), 0) +
             _c._reduce("var", imag(xin), axes, int(ddof), 0))
        return _put_out(_keep(r, x, axes, keepdims), out, "add")
    r = _c._reduce("var", xin, axes, int(ddof), 0)
    return _put_out(_keep(r, x, axes, keepdims), out, "add")


def std(x, axis=None, dtype=None, out=None, ddof=0, keepdims=False, correction=None, *,
        where=None, mean=None):
    out = _out_of(out)
    r = sqrt(var(x, axis, dtype, None, ddof, keepdims, correction, where=where, mean=mean))
    return _put_out(r, out, "add")


def count_nonzero(x, axis=None, keepdims=False):
    x = _as(x)
    return sum(not_equal(x, 0), axis=axis, keepdims=keepdims)


def nansum(x, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=None):
    x = _as(x)
    if x.dtype.kind == "f":
        x = _wh(isnan(x), 0, x)
    return sum(x, axis=axis, dtype=dtype, out=out, keepdims=keepdims, initial=initial,
               where=where)


def nanmean(x, axis=None, dtype=None, out=None, keepdims=False, *, where=None):
    out = _out_of(out)
    x = _as(x)
    if x.dtype.kind != "f":
        return mean(x, axis=axis, dtype=dtype, out=out, keepdims=keepdims, where=where)
    if out is not None and np.dtype(out.dtype).kind != "f":
        raise TypeError("If a is inexact, then out must be inexact")
    ok = logical_not(isnan(x))
    m = _where_mask(x, where)
    if m is not None:
        ok = logical_and(ok, m)
    total = sum(_wh(ok, x, 0), axis=axis, dtype=dtype, keepdims=keepdims)
    count = sum(ok, axis=axis, keepdims=keepdims)
    return _put_out((total / count).astype(total.dtype), out, "add")


def logsumexp(x, axis=None, keepdims=False):
    """log(sum(exp(x))) computed stably (as scipy.special.logsumexp)."""
    x = _as(x)
    if x.dtype.kind != "f":
        x = _c.astype(x, np.float64)
    m = max(x, axis=axis, keepdims=True)
    m = where(isfinite(m), m, 0)
    s = sum(exp(x - m), axis=axis, keepdims=True)
    r = log(s) + m
    if not keepdims:
        axes = _norm_axes(axis, x.ndim)
        r = _c.reshape(r, [n for d, n in enumerate(x.shape) if d not in axes])
    return r


# ---- NumPy protocols ---------------------------------------------------------------------

_UFUNC_NAMES = set(_UNARY) | set(_BINARY) | {"divide", "logaddexp", "logaddexp2", "heaviside",
                                               "conjugate"}
_UFUNC_NAMES |= set(_MATH_UFUNCS)
__all__ = [_n for _n, _v in list(globals().items())
           if not _n.startswith("_") and not isinstance(_v, type(math))
           and _n not in ("AxisError", "numbers", "operator", "warnings", "os")]
