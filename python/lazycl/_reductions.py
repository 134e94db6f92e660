"""Reductions: sum, prod, max, min, argmax, argmin, any, all, mean, var, std and their nan
forms, with NumPy's out=, where=, initial= and keepdims=. Each is one reduction node of the
graph (codegen/reduce.c), which fuses with its input.

Layer: above _views and _complex; elementwise steps are the extension's ops (_c._unary,
_c._binary), as the ufunc objects (_ufuncs.py) sit above this module (package docstring)."""
import operator

import numpy as np

from . import _lazycl as _c
from . import _write
from ._complex import UFUNC_OF, arg_extreme, extreme, imag, real
from ._util import (
    AxisError, as_array as _as, float_of as _float_of, is_array as _is_array,
    norm_axes as _norm_axes, norm_axis as _norm_axis, out_of as _out_of,
)
from ._views import broadcast_to

_wh = _c.where   # where() inside functions whose where= argument hides it


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


# ---- out= of reductions and scans ------------------------------------------------------------
# NumPy's rules: out is an array (lazycl or NumPy; a 1-tuple is unpacked) of exactly the
# result's shape; the result is cast into it unsafely; the function returns out. The loop runs
# in the common dtype of out and the input where that is a float (np.sum(float32, out=float64)
# sums in float64); integer loops give the default accumulator's results modulo out's width,
# which is what the cast gives.

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
    m = where if _is_array(where) else _c.asarray(np.asarray(where, dtype=bool), None, x.queue)
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


def _sum_like(kind, x, axis, dtype, out, keepdims, initial, where, identity, combine, ufunc):
    """sum/prod: in the accumulating dtype, masked by where= with the identity, `initial`
    folded in with `combine` after the reduction."""
    out = _out_of(out)
    x = _as(x)
    dtype = _loop_dtype(x, dtype, out)
    dt = _sum_dtype(x.dtype) if dtype is None else np.dtype(dtype)
    axes = _norm_axes(axis, x.ndim)
    r = _c._reduce(kind, _masked(_c.astype(x, dt), where, identity), axes)
    if initial is not None:
        r = combine(r, initial)
    return _put_out(_keep(r, x, axes, keepdims), out, ufunc)


_SUM = {name: op for name, _, _, op in _c.ops}["sum"]
_ALL_AXES = tuple(tuple(range(n)) for n in range(17))   # axis=None at each ndim (at most 16)


def sum(x, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=None):  # noqa: A001
    if (axis is None and dtype is None and out is None and keepdims is False and initial is None
            and where is None and isinstance(x, _c.ArrayBase)):
        # x.sum(): one node (and a cast to the accumulator's dtype where it differs)
        dt = x.dtype
        if dt.kind in "biu" and dt.itemsize < 8:
            x = _c.astype(x, _sum_dtype(dt))
        return _c._reduce(_SUM, x, _ALL_AXES[x.ndim])
    return _sum_like("sum", x, axis, dtype, out, keepdims, initial, where, 0, operator.add, "add")


def prod(x, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=None):
    return _sum_like("prod", x, axis, dtype, out, keepdims, initial, where, 1, operator.mul,
                     "multiply")


def _minmax(op, x, axis, keepdims, out, initial=None, where=None):
    """max / min / nanmax / nanmin; `initial` takes part in every reduction (and is the result
    of an empty one); where= needs it, as in NumPy (these have no identity)."""
    out = _out_of(out)
    x = _as(x)
    axes = _norm_axes(axis, x.ndim)
    if x.dtype.kind == "c":
        if initial is not None or _where_mask(x, where) is not None:
            raise NotImplementedError(f"lazycl: {op} of a complex array with initial= or where=")
        r = extreme(op, x, axes)
        return _put_out(_keep(r, x, axes, keepdims), out, UFUNC_OF[op])
    if _where_mask(x, where) is not None and initial is None:
        raise ValueError(f"reduction operation '{UFUNC_OF[op]}' does not have an identity, so "
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
            r = _c._binary(UFUNC_OF[op], _c._reduce(op, x, axes),
                           _c._full(initial, (), x.dtype, x.queue))
        return _put_out(_keep(r, x, axes, keepdims), out, UFUNC_OF[op])
    return _put_out(_keep(_c._reduce(op, x, axes), x, axes, keepdims), out, UFUNC_OF[op])


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
        r = arg_extreme(op, x, axis, keepdims)
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


def _logical(kind, x, axis, out, keepdims, where, masked_as, ufunc):
    """any/all: over bool (a complex is true where either part is), where= as `masked_as`."""
    out = _out_of(out)
    x = _as(x)
    axes = _norm_axes(axis, x.ndim)
    if x.dtype.kind == "c":
        x = _c.astype(x, np.bool_)          # either part non-zero
    if _where_mask(x, where) is not None:
        x = _masked(_c.astype(x, np.bool_), where, masked_as)
    return _put_out(_keep(_c._reduce(kind, x, axes), x, axes, keepdims), out, ufunc)


def any(x, axis=None, out=None, keepdims=False, *, where=None):  # noqa: A001
    return _logical("any", x, axis, out, keepdims, where, False, "logical_or")


def all(x, axis=None, out=None, keepdims=False, *, where=None):  # noqa: A001
    return _logical("all", x, axis, out, keepdims, where, True, "logical_and")



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
        r = sum(d * d, axis=axis, keepdims=True) / _c._binary("maximum", n - ddof, 0)
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
    r = _c._unary("sqrt", var(x, axis, dtype, None, ddof, keepdims, correction, where=where,
                              mean=mean))
    return _put_out(r, out, "add")


def count_nonzero(x, axis=None, keepdims=False):
    x = _as(x)
    return sum(_c._binary("not_equal", x, 0), axis=axis, keepdims=keepdims)


def nansum(x, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=None):
    x = _as(x)
    if x.dtype.kind == "f":
        x = _wh(_c._unary("isnan", x), 0, x)
    return sum(x, axis=axis, dtype=dtype, out=out, keepdims=keepdims, initial=initial,
               where=where)


def nanmean(x, axis=None, dtype=None, out=None, keepdims=False, *, where=None):
    out = _out_of(out)
    x = _as(x)
    if x.dtype.kind != "f":
        return mean(x, axis=axis, dtype=dtype, out=out, keepdims=keepdims, where=where)
    if out is not None and np.dtype(out.dtype).kind != "f":
        raise TypeError("If a is inexact, then out must be inexact")
    ok = _c._unary("logical_not", _c._unary("isnan", x))
    m = _where_mask(x, where)
    if m is not None:
        ok = _c._binary("logical_and", ok, m)
    total = sum(_wh(ok, x, 0), axis=axis, dtype=dtype, keepdims=keepdims)
    count = sum(ok, axis=axis, keepdims=keepdims)
    return _put_out((total / count).astype(total.dtype), out, "add")


def logsumexp(x, axis=None, keepdims=False):
    """log(sum(exp(x))) computed stably (as scipy.special.logsumexp)."""
    x = _as(x)
    if x.dtype.kind != "f":
        x = _c.astype(x, np.float64)
    m = max(x, axis=axis, keepdims=True)
    m = _c.where(_c._unary("isfinite", m), m, 0)
    s = sum(_c._unary("exp", x - m), axis=axis, keepdims=True)
    r = _c._unary("log", s) + m
    if not keepdims:
        axes = _norm_axes(axis, x.ndim)
        r = _c.reshape(r, [n for d, n in enumerate(x.shape) if d not in axes])
    return r


__all__ = [
    "sum", "prod", "max", "min", "nanmax", "nanmin", "argmax", "argmin", "any", "all", "mean",
    "var", "std", "count_nonzero", "nansum", "nanmean", "logsumexp", "amax", "amin",
]
