"""Scans: cumsum, cumprod, cummax, cummin (graph scans, codegen/scan.c), and diff."""
import numpy as np

from . import _lazycl as _c
from . import _util as _u
from ._join import concatenate
from ._reductions import _loop_dtype, _put_out, _sum_dtype


def _scan(op, x, axis, dtype, acc):
    x = _u.as_array(x)
    if axis is None:
        x = _c.reshape(x, (-1,))
        axis = 0
    axis = _u.norm_axis(axis, x.ndim)
    dt = (acc(x.dtype) if acc else x.dtype) if dtype is None else np.dtype(dtype)
    return _c._scan(op, _c.astype(x, dt), axis)


def cumsum(x, axis=None, dtype=None, out=None):
    out = _u.out_of(out)
    x = _u.as_array(x)
    dt = _loop_dtype(x, dtype, out)
    return _put_out(_scan("cumsum", x, axis, dt, _sum_dtype), out, "add", scan=True)


def cumprod(x, axis=None, dtype=None, out=None):
    out = _u.out_of(out)
    x = _u.as_array(x)
    dt = _loop_dtype(x, dtype, out)
    return _put_out(_scan("cumprod", x, axis, dt, _sum_dtype), out, "multiply", scan=True)


def cummax(x, axis=None):
    return _scan("cummax", x, axis, None, None)


def cummin(x, axis=None):
    return _scan("cummin", x, axis, None, None)


def diff(x, n=1, axis=-1, prepend=None, append=None):
    """The n-th discrete difference along `axis`, as numpy.diff; prepend/append (arrays or
    scalars, a scalar broadcast to one slice along `axis`) are joined to x first. None means
    nothing to join (the array API's default; NumPy's is a sentinel)."""
    x = _u.as_array(x)
    if n < 0:
        raise ValueError(f"order must be non-negative but got {n}")
    if x.ndim == 0:
        raise ValueError("diff requires input that is at least one dimensional")
    axis = _u.norm_axis(axis, x.ndim)
    if n == 0:
        return x
    if prepend is not None or append is not None:
        parts = []
        for extra in (prepend, x, append):
            if extra is None:
                continue
            if extra is not x:
                extra = extra if _u.is_array(extra) else np.asarray(extra)
                if extra.ndim == 0:
                    one = tuple(1 if d == axis else s for d, s in enumerate(x.shape))
                    extra = (_c.broadcast_to(extra, one) if _u.is_array(extra)
                             else np.broadcast_to(extra, one))
            parts.append(extra)
        x = concatenate(parts, axis=axis)
    for _ in range(n):
        m = x.shape[axis]
        hi = [slice(None)] * x.ndim
        lo = [slice(None)] * x.ndim
        hi[axis] = slice(1, None)
        lo[axis] = slice(None, m - 1 if m else 0)
        if x.dtype.kind == "b":
            x = _c._binary("not_equal", x[tuple(hi)], x[tuple(lo)])
        else:
            x = x[tuple(hi)] - x[tuple(lo)]
    return x


__all__ = [
    "cummax", "cummin", "cumprod", "cumsum", "diff",
]
