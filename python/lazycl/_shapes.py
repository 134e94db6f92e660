"""NumPy's smaller construction and view names, each a line or two over lazycl's own functions
(array, asanyarray, ascontiguousarray, asarray_chkfinite, atleast_1d/2d/3d, fliplr, flipud,
rot90, rollaxis, append, logspace, fromfunction, cross), fix, and the value tests isposinf,
isneginf, iscomplex, isreal, iscomplexobj, isrealobj: lazy as the functions they are made of."""
import operator

import numpy as np

from . import (
    _complex, _creation, _indexmaps, _join, _lazycl as _c, _mathfns, _reductions, _ufuncs, _util as
    _u, _views, linalg,
)


def array(object, dtype=None, *, copy=True, order="K", subok=False, ndmin=0, like=None,
          device=None):
    """numpy.array as a lazycl array (on `device`, or the default one): a copy unless
    copy=False or None allows `object` itself; at least `ndmin` dims (ones in front).
    `like` is accepted for NumPy's signature (the result is a lazycl array either way)."""
    _u.check_order(order)
    r = _creation.asarray(object, dtype, device, copy=copy)
    if ndmin > r.ndim:
        r = _c.reshape(r, (1,) * (ndmin - r.ndim) + tuple(r.shape))
    return r


def asanyarray(a, dtype=None, order=None, *, like=None, device=None):
    """numpy.asanyarray: lazycl has no subclasses, so this is asarray."""
    _u.check_order(order)
    return _creation.asarray(a, dtype, device)


def ascontiguousarray(a, dtype=None, *, like=None):
    """numpy.ascontiguousarray: asarray with at least one dim (lazycl arrays are C-ordered)."""
    r = _creation.asarray(a, dtype)
    return _c.reshape(r, (1,)) if r.ndim == 0 else r


def asarray_chkfinite(a, dtype=None, order=None):
    """asarray, then NumPy's ValueError if a float or complex result holds an inf or a NaN
    (the check reads one bool: a force)."""
    _u.check_order(order, "KACF" if order is None else "KAC")
    r = _creation.asarray(a, dtype)
    if r.dtype.kind in "fc" and not bool(_reductions.all(_ufuncs.isfinite(r))):
        raise ValueError("array must not contain infs or NaNs")
    return r


def fix(x, out=None):
    """Round towards zero, as numpy.fix: trunc for floats (keeping -0.0), integers as they
    are."""
    _u.no_out(out)
    x = _u.as_array(x)
    return x if x.dtype.kind in "biu" else _ufuncs.trunc(x)


def _atleast(arys, nd, place):
    out = []
    for x in arys:
        x = _u.as_array(x)
        if x.ndim < nd:
            x = _c.reshape(x, place(tuple(x.shape)))
        out.append(x)
    return out[0] if len(out) == 1 else tuple(out)


def atleast_1d(*arys):
    """Each input with at least one dim (a 0-d one as shape (1,)): views."""
    return _atleast(arys, 1, lambda s: (1,))


def atleast_2d(*arys):
    """Each input with at least two dims: (1, n) for a 1-d one, as NumPy's."""
    return _atleast(arys, 2, lambda s: (1,) * (2 - len(s)) + s)


def atleast_3d(*arys):
    """Each input with at least three dims: (1, n, 1) for a 1-d one, (m, n, 1) for a 2-d one,
    as NumPy's."""
    return _atleast(arys, 3, lambda s: (1, 1, 1) if not s else (1,) + s + (1,) if len(s) == 1
                    else s + (1,))


def fliplr(m):
    """m with its columns (axis 1) reversed: a view."""
    m = _u.as_array(m)
    if m.ndim < 2:
        raise ValueError("Input must be >= 2-d.")
    return _views.flip(m, 1)


def flipud(m):
    """m with its rows (axis 0) reversed: a view."""
    m = _u.as_array(m)
    if m.ndim < 1:
        raise ValueError("Input must be >= 1-d.")
    return _views.flip(m, 0)


def rot90(m, k=1, axes=(0, 1)):
    """m rotated by k quarter turns from axes[0] towards axes[1], as numpy.rot90: flips and a
    transpose, a view."""
    m = _u.as_array(m)
    axes = tuple(axes)
    if len(axes) != 2:
        raise ValueError("len(axes) must be 2.")
    if axes[0] == axes[1] or abs(axes[0] - axes[1]) == m.ndim:
        raise ValueError("Axes must be different.")
    if (axes[0] >= m.ndim or axes[0] < -m.ndim or axes[1] >= m.ndim or axes[1] < -m.ndim):
        raise ValueError(f"Axes={axes} out of range for array of ndim={m.ndim}.")
    k = operator.index(k) % 4
    if k == 0:
        return m
    if k == 2:
        return _views.flip(_views.flip(m, axes[0]), axes[1])
    perm = list(range(m.ndim))
    a0, a1 = _u.norm_axis(axes[0], m.ndim), _u.norm_axis(axes[1], m.ndim)
    perm[a0], perm[a1] = perm[a1], perm[a0]
    if k == 1:
        return _c.permute_dims(_views.flip(m, axes[1]), perm)
    return _views.flip(_c.permute_dims(m, perm), axes[1])


def rollaxis(a, axis, start=0):
    """numpy.rollaxis: `axis` moved to before `start` (a view; moveaxis is the newer name)."""
    a = _u.as_array(a)
    n = a.ndim
    axis = _u.norm_axis(axis, n)
    start = operator.index(start)
    if start < 0:
        start += n
    if not 0 <= start < n + 1:
        raise _u.AxisError(f"'start' arg requires {-n} <= start < {n + 1}, but {start} was "
                           "passed in")
    if axis < start:
        start -= 1
    if axis == start:
        return a
    return _views.moveaxis(a, axis, start)


def append(arr, values, axis=None):
    """arr with values appended along `axis` (both flattened when axis is None): a
    concatenation."""
    arr = _u.as_array(arr)
    values = values if _u.is_array(values) else _creation.asarray(values, device=arr.queue)
    if axis is None:
        arr, values, axis = _views.ravel(arr), _views.ravel(values), 0
    return _join.concatenate((arr, values), axis=axis)


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    """base ** linspace(start, stop, num), as numpy.logspace (scalar start, stop and base)."""
    if axis != 0 or _any_array(start, stop, base):
        raise NotImplementedError("lazycl: logspace with array start, stop or base, or axis")
    y = _creation.linspace(start, stop, num, endpoint)
    r = _ufuncs.power(base, y)
    return r if dtype is None else _c.astype(r, dtype)


def _any_array(*xs):
    return any(np.ndim(x) != 0 or _u.is_array(x) for x in xs)


def fromfunction(function, shape, *, dtype=float, like=None, **kwargs):
    """function(*indices(shape, dtype), **kwargs), as numpy.fromfunction: the function sees
    lazycl index grids (each a lazy arange along its dim)."""
    return function(*_indexmaps.indices(shape, dtype=dtype), **kwargs)


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """numpy.cross of 3-element vectors (lazycl.linalg.cross along the chosen axes; 2-element
    ones raise NotImplementedError)."""
    if axis is not None:
        axisa = axisb = axisc = axis
    a = _views.moveaxis(_u.as_array(a), axisa, -1)
    b = _views.moveaxis(_u.as_array(b), axisb, -1)
    if a.shape[-1] != 3 or b.shape[-1] != 3:
        if a.shape[-1] in (2, 3) and b.shape[-1] in (2, 3):
            raise NotImplementedError("lazycl: cross of 2-element vectors")
        raise ValueError("incompatible dimensions for cross product\n(dimension must be 2 or 3)")
    return _views.moveaxis(linalg.cross(a, b, axis=-1), -1, axisc)


def isposinf(x, out=None):
    """x == +inf, elementwise (NumPy's TypeError for complex x)."""
    _u.no_out(out)
    x = _u.as_array(x)
    _no_complex(x)
    return _ufuncs.logical_and(_ufuncs.isinf(x), _ufuncs.logical_not(_mathfns.signbit(x)))


def isneginf(x, out=None):
    """x == -inf, elementwise (NumPy's TypeError for complex x)."""
    _u.no_out(out)
    x = _u.as_array(x)
    _no_complex(x)
    return _ufuncs.logical_and(_ufuncs.isinf(x), _mathfns.signbit(x))


def _no_complex(x):
    if x.dtype.kind == "c":
        raise TypeError("This operation is not supported for complex values because it would "
                        "be ambiguous.")


def iscomplex(x):
    """imag(x) != 0, elementwise (all False for a real x)."""
    return _ufuncs.not_equal(_complex.imag(_u.as_array(x)), 0)


def isreal(x):
    """imag(x) == 0, elementwise (all True for a real x)."""
    return _ufuncs.equal(_complex.imag(_u.as_array(x)), 0)


def iscomplexobj(x):
    """Whether x's dtype is complex (its values are not looked at)."""
    dt = getattr(x, "dtype", None)
    return np.dtype(dt if dt is not None else np.asarray(x).dtype).kind == "c"


def isrealobj(x):
    """Whether x's dtype is not complex."""
    return not iscomplexobj(x)


__all__ = [
    "append", "array", "asanyarray", "asarray_chkfinite", "ascontiguousarray", "atleast_1d",
    "atleast_2d", "atleast_3d", "cross", "fix", "fliplr", "flipud", "fromfunction", "iscomplex",
    "iscomplexobj", "isneginf", "isposinf", "isreal", "isrealobj", "logspace", "rollaxis", "rot90",
]
