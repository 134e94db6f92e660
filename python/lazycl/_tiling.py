"""roll, tile, repeat and pad as index maps: each output index reads its source through a gather
whose index is computed from an arange (lazycl._index), so the source is read in the consumer's
kernel and nothing is copied. The indices are in range by construction."""
import operator

import numpy as np

from . import _lazycl as _c
from ._util import is_array as _is_array, norm_axis as _axis


def _arr(x):
    return x if _is_array(x) else _c.asarray(x, None, None)


def _iota(x, m):
    return _c._iota(0, 1, m, "int64", x.queue)


def _bin(op, a, b):
    return _c._binary(op, a, b)


def _along(x, axis, idx):
    """x read along `axis` at the 1-d int64 lazycl index `idx`."""
    m = idx.shape[0]
    shape = tuple(m if d == axis else s for d, s in enumerate(x.shape))
    i = _c.reshape(idx, tuple(m if d == axis else 1 for d in range(x.ndim)))
    return _c._gather(x, _c.broadcast_to(i, shape), axis, axis)


def roll(a, shift, axis=None):
    """Elements rolled by `shift` along `axis` (the flattened array when None), as numpy.roll."""
    a = _arr(a)
    if axis is None:
        return _c.reshape(roll(_c.reshape(a, (-1,)), shift, 0), a.shape)
    shifts = shift if isinstance(shift, (tuple, list)) else (shift,)
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    if len(shifts) != len(axes):
        if len(shifts) != 1 and len(axes) != 1:
            raise ValueError("'shift' and 'axis' should be scalars or 1D sequences")
        shifts, axes = (shifts * len(axes), axes) if len(shifts) == 1 else (shifts, axes * len(shifts))
    total = {}
    for s, ax in zip(shifts, axes):
        ax = _axis(ax, a.ndim)
        total[ax] = total.get(ax, 0) + operator.index(s)
    for ax, s in total.items():
        n = a.shape[ax]
        if n == 0 or s % n == 0:
            continue
        a = _along(a, ax, _bin("remainder", _bin("add", _iota(a, n), n - s % n), n))
    return a


def tile(A, reps):
    """A repeated `reps` times along each axis, as numpy.tile."""
    A = _arr(A)
    reps = tuple(operator.index(r) for r in (reps if isinstance(reps, (tuple, list)) else (reps,)))
    if any(r < 0 for r in reps):
        raise ValueError("negative dimensions are not allowed")
    d = max(len(reps), A.ndim)
    reps = (1,) * (d - len(reps)) + reps
    if A.ndim < d:
        A = _c.reshape(A, (1,) * (d - A.ndim) + tuple(A.shape))
    for ax, r in enumerate(reps):
        n = A.shape[ax]
        if r == 1:
            continue
        A = _along(A, ax, _bin("remainder", _iota(A, n * r), n) if n else _iota(A, 0))
    return A


def repeat(a, repeats, axis=None):
    """Each element repeated `repeats` times along `axis` (flattened when None), as numpy.repeat."""
    a = _arr(a)
    if axis is None:
        a = _c.reshape(a, (-1,))
        axis = 0
    axis = _axis(axis, a.ndim)
    n = a.shape[axis]
    if _is_array(repeats):
        repeats = np.asarray(repeats)
    if np.ndim(repeats) == 0:
        r = operator.index(repeats)
        if r < 0:
            raise ValueError("negative dimensions are not allowed")
        if r == 1:
            return a
        return _along(a, axis, _bin("floor_divide", _iota(a, n * r), r) if n * r else
                      _iota(a, 0))
    reps = np.asarray(repeats)
    if reps.dtype.kind not in "iu":
        raise TypeError("Cannot cast array data from dtype('%s') to dtype('int64') according to "
                        "the rule 'safe'" % reps.dtype)
    if reps.ndim != 1 or reps.shape[0] not in (1, n):
        raise ValueError(f"operands could not be broadcast together with shape ({n},) "
                         f"{tuple(reps.shape)}".replace(",)", ")"))
    if (reps < 0).any():
        raise ValueError("repeats may not contain negative values.")
    idx = np.repeat(np.arange(n, dtype=np.int64), np.broadcast_to(reps, (n,)))
    return _along(a, axis, _c.asarray(idx, None, a.queue))


_PAD_MODES = ("constant", "edge", "wrap", "reflect", "symmetric", "empty")


def _pad_widths(pad_width, ndim):
    w = np.asarray(pad_width)
    if w.dtype.kind not in "iu":
        raise TypeError("`pad_width` must be of integral type.")
    try:
        w = np.broadcast_to(w, (ndim, 2))
    except ValueError:
        raise ValueError(f"operands could not be broadcast together with remapped shapes "
                         f"[original->remapped]: {w.shape} and requested shape ({ndim},2)") \
            from None
    if (w < 0).any():
        raise ValueError("index can't contain negative values")
    return [(int(b), int(e)) for b, e in w]


def pad(array, pad_width, mode="constant", **kwargs):
    """array padded, as numpy.pad, for the modes constant (constant_values=), edge, wrap,
    reflect and symmetric (reflect_type='even'), and empty (zeros here)."""
    a = _arr(array)
    if not isinstance(mode, str) or mode not in _PAD_MODES:
        raise NotImplementedError(f"lazycl.pad does not implement mode {mode!r} (it does "
                                  f"{', '.join(_PAD_MODES)})")
    allowed = {"constant": {"constant_values"}, "reflect": {"reflect_type"},
               "symmetric": {"reflect_type"}}.get(mode, set())
    bad = set(kwargs) - allowed
    if bad:
        raise ValueError(f"unsupported keyword arguments for mode '{mode}': {bad}")
    if kwargs.get("reflect_type", "even") != "even":
        raise NotImplementedError("lazycl.pad supports reflect_type='even' only")
    widths = _pad_widths(pad_width, a.ndim)
    cv = kwargs.get("constant_values", 0)
    cvs = np.broadcast_to(np.asarray(cv), (a.ndim, 2)) if mode == "constant" else None
    for ax, (b, e) in enumerate(widths):
        if b == 0 and e == 0:
            continue
        n = a.shape[ax]
        m = n + b + e
        if n == 0 and mode not in ("constant", "empty"):
            raise ValueError(f"can't extend empty axis {ax} using modes other than 'constant' "
                             "or 'empty'")
        j = _bin("subtract", _iota(a, m), b)            # the source index, before the mode
        if mode in ("constant", "empty"):
            fill = (cvs[ax] if mode == "constant" else (0, 0))
            shape = tuple(m if d == ax else s for d, s in enumerate(a.shape))
            lo = np.asarray(fill[0]).astype(a.dtype).item()
            hi = np.asarray(fill[1]).astype(a.dtype).item()
            pos = _c.broadcast_to(_c.reshape(j, tuple(m if d == ax else 1 for d in range(a.ndim))),
                                  shape)
            if n == 0:   # nothing to read: the fill values only
                a = _c.astype(_c.where(_bin("less", pos, 0), lo, hi), a.dtype)
                continue
            src = _along(a, ax, _c.where(_bin("less", j, 0), 0,
                                          _c.where(_bin("greater", j, n - 1), n - 1, j)))
            a = _c.astype(_c.where(_bin("less", pos, 0), lo,
                                   _c.where(_bin("greater", pos, n - 1), hi, src)), a.dtype)
            continue
        if mode == "edge":
            idx = _c.where(_bin("less", j, 0), 0, _c.where(_bin("greater", j, n - 1), n - 1, j))
        elif mode == "wrap":
            idx = _bin("remainder", j, n)
        elif mode == "reflect":
            if n == 1:
                idx = _bin("multiply", j, 0)
            else:
                k = _bin("remainder", j, 2 * n - 2)
                idx = _c.where(_bin("less", k, n), k, _bin("subtract", 2 * n - 2, k))
        else:  # symmetric
            k = _bin("remainder", j, 2 * n)
            idx = _c.where(_bin("less", k, n), k, _bin("subtract", 2 * n - 1, k))
        a = _along(a, ax, idx)
    return a


__all__ = [
    "pad", "repeat", "roll", "tile",
]
