"""The array API standard's functions that NumPy spells differently or lacks: the data type
functions (finfo, iinfo, can_cast, result_type, isdtype), concat, unstack and the cumulative
functions with include_initial. Each has the standard's signature and NumPy 2's semantics
(NumPy 2 implements the standard in its main namespace), so a lazycl result equals NumPy's."""
import numpy as np

from . import _lazycl as _c, _scans, _util as _u
from ._join import concatenate as _concatenate


def _dtype_of(x):
    """The dtype of an array or of a dtype-like (a lazycl or NumPy array gives its dtype)."""
    if isinstance(x, (_c.ArrayBase, np.ndarray)):
        return x.dtype
    return np.dtype(x)


class finfo_object:
    """Machine limits of a floating dtype, as the array API's finfo: Python floats and ints,
    and `dtype` the real dtype (complex64 gives float32's limits)."""

    __module__ = "lazycl"

    def __init__(self, info):
        self.bits = int(info.bits)
        self.eps = float(info.eps)
        self.max = float(info.max)
        self.min = float(info.min)
        self.smallest_normal = float(info.smallest_normal)
        self.resolution = float(info.resolution)
        self.tiny = self.smallest_normal
        self.dtype = np.dtype(info.dtype)

    def __repr__(self):
        return (f"finfo(bits={self.bits}, eps={self.eps}, max={self.max}, min={self.min}, "
                f"smallest_normal={self.smallest_normal}, dtype={self.dtype})")


class iinfo_object:
    """Machine limits of an integer dtype, as the array API's iinfo (Python ints)."""

    __module__ = "lazycl"

    def __init__(self, info):
        self.bits = int(info.bits)
        self.max = int(info.max)
        self.min = int(info.min)
        self.dtype = np.dtype(info.dtype)

    def __repr__(self):
        return f"iinfo(bits={self.bits}, max={self.max}, min={self.min}, dtype={self.dtype})"


def finfo(type, /):  # noqa: A002 (the standard's name)
    """Limits of a floating dtype (or of an array's dtype): numpy.finfo, with Python numbers."""
    return finfo_object(np.finfo(_dtype_of(type)))


def iinfo(type, /):  # noqa: A002
    """Limits of an integer dtype (or of an array's dtype): numpy.iinfo, with Python ints."""
    return iinfo_object(np.iinfo(_dtype_of(type)))


def can_cast(from_, to, /, casting="safe"):
    """Whether `from_` (a dtype or an array) casts to `to` under `casting`, as numpy.can_cast
    (NumPy 2 refuses Python scalars here, and so does lazycl)."""
    if isinstance(from_, (bool, int, float, complex)):
        raise TypeError("can_cast() does not support Python ints, floats, and complex because "
                        "the result used to depend on the value.\nThis change was part of "
                        "adopting NEP 50, we may explicitly allow them again in the future.")
    return bool(np.can_cast(_dtype_of(from_), np.dtype(to), casting=casting))


def result_type(*arrays_and_dtypes):
    """The dtype of an operation on these arrays, dtypes and Python scalars: NumPy 2's
    promotion (NEP 50: Python scalars are weak)."""
    args = [x.dtype if _u.is_array(x) else x for x in arrays_and_dtypes]
    return np.result_type(*args)


def isdtype(dtype, kind):
    """Whether `dtype` is of `kind` (a dtype, a kind name such as "integral", or a tuple of
    them), as numpy.isdtype."""
    return bool(np.isdtype(np.dtype(dtype), kind))


def concat(arrays, /, *, axis=0):
    """The arrays joined along `axis` (flattened first when None): the standard's concatenate."""
    return _concatenate(arrays, axis=axis)


def unstack(x, /, *, axis=0):
    """The slices of x along `axis`, as a tuple of views (the inverse of stack)."""
    x = x if _u.is_array(x) else _c.asarray(x)
    if x.ndim == 0:
        raise ValueError("Input array must be at least 1-d.")
    axis = _u.norm_axis(axis, x.ndim)
    lead = (slice(None),) * axis
    return tuple(x[lead + (i,)] for i in range(x.shape[axis]))


def _cumulative(scan, x, axis, dtype, include_initial, initial):
    x = x if _u.is_array(x) else _c.asarray(x)
    if axis is None:
        if x.ndim > 1:
            raise ValueError("axis must be specified in cumulative_sum/cumulative_prod for more "
                             "than one dimension")
        axis = 0
    if x.ndim == 0:
        raise ValueError("cumulative functions need an array of at least one dimension")
    axis = _u.norm_axis(axis, x.ndim)
    r = scan(x, axis=axis, dtype=dtype)
    if not include_initial:
        return r
    shape = tuple(1 if d == axis else s for d, s in enumerate(r.shape))
    first = _c._full(initial, shape, r.dtype, r.queue)
    return _concatenate([first, r], axis=axis)


def cumulative_sum(x, /, *, axis=None, dtype=None, include_initial=False):
    """Running sums along `axis` (optional for 1-d input), as numpy.cumulative_sum;
    include_initial puts a 0 first."""
    return _cumulative(_scans.cumsum, x, axis, dtype, include_initial, 0)


def cumulative_prod(x, /, *, axis=None, dtype=None, include_initial=False):
    """Running products along `axis`, as numpy.cumulative_prod; include_initial puts a 1
    first."""
    return _cumulative(_scans.cumprod, x, axis, dtype, include_initial, 1)


__all__ = [
    "can_cast", "concat", "cumulative_prod", "cumulative_sum", "finfo", "iinfo", "isdtype",
    "result_type", "unstack",
]
