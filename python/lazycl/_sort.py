"""Sorting: sort and argsort (codegen/sort.c), always stable, NaN last.

A sort is one node of the graph: its key may be any pending expression, which the sort's
first pass computes (``lc.sort(x * x)`` reads x once and never writes x * x). NumPy's `kind`
is accepted (every kind is stable here) and the array API's `descending` and `stable` too;
under `descending` NaNs still come last and equal elements keep their order.
"""
import operator

import numpy as np

from . import _lazycl as _c

from . import _write
from ._util import (
    AxisError, as_array as _as, is_array as _is_array, norm_axis as _norm_axis,
    queue_of as _queue_of,
)

_KINDS = (None, "quicksort", "mergesort", "heapsort", "stable")


def _prepare(a, axis, kind, order):
    a = _as(a)
    if kind not in _KINDS:
        raise ValueError(f"sort kind must be one of 'quick', 'heap', or 'stable' (got {kind!r})")
    if order is not None:
        raise ValueError("Cannot specify order when the array has no fields.")
    if axis is None:
        return _c.reshape(a, (a.size,)), 0
    if a.ndim == 0:
        raise AxisError(operator.index(axis), 0)
    return a, _norm_axis(axis, a.ndim)


def _complex_order(a, axis, descending):
    """The indices that sort complex `a`: NumPy's order, by the real parts and then the
    imaginary ones, with R+Rj < R+nanj < nan+Rj < nan+nanj (a NaN class first); descending
    negates the parts, so NaNs stay last and ties keep their order."""
    re, im = _c._unary("real", a), _c._unary("imag", a)
    cls = _c._binary("add", _c._binary("multiply", _c._unary("isnan", re), 2),
                     _c._unary("isnan", im))
    if descending:
        re, im = _c._unary("negative", re), _c._unary("negative", im)
    return lexsort((im, re, cls), axis=axis)


def _sorted(a, axis, descending, arg):
    if a.size == 0 or a.shape[axis] <= 1 and not descending:
        if arg:
            return _c._full(0, tuple(a.shape), "int64", a.queue)
        return _c._copy(a)
    if a.dtype.kind == "c":
        idx = _complex_order(a, axis, descending)
        return idx if arg else _c._gather(a, idx, axis, axis)
    return _c._sort(a, axis, int(bool(descending)), int(arg))


def sort(a, axis=-1, kind=None, order=None, *, descending=False, stable=True):
    """A sorted copy of a along axis (None: flattened), as numpy.sort; stable."""
    a, ax = _prepare(a, axis, kind, order)
    return _sorted(a, ax, descending, False)


def argsort(a, axis=-1, kind=None, order=None, *, descending=False, stable=True):
    """The int64 indices that sort a along axis (None: flattened), as numpy.argsort; stable."""
    a, ax = _prepare(a, axis, kind, order)
    return _sorted(a, ax, descending, True)


def sort_inplace(a, axis=-1, kind=None, order=None):
    """ndarray.sort: a sorted in place, through the writes (its views see it)."""
    if a.ndim == 0:
        raise AxisError(operator.index(axis), 0)
    _prepare(a, axis, kind, order)
    _write.setitem(a, Ellipsis, sort(a, axis, kind))



def lexsort(keys, axis=-1):
    """numpy.lexsort: the int64 indices that sort by the last key, then the one before it, ...
    (one stable argsort per key, NaN last)."""
    if _is_array(keys) or isinstance(keys, np.ndarray):
        keys = [keys[i] for i in range(keys.shape[0])] if keys.ndim else [keys]
    else:
        keys = list(keys)
    if not keys:
        raise TypeError("need sequence of keys with len > 0 in lexsort")
    q = _queue_of(*keys)
    keys = [_as(k, q) for k in keys]
    shape = tuple(keys[0].shape)
    if any(tuple(k.shape) != shape for k in keys):
        raise ValueError("all keys need to be the same shape")
    ax = operator.index(axis)
    if not shape:
        return _c._full(0, (), "int64", keys[0].queue)
    ax = _norm_axis(ax, len(shape))
    idx = argsort(keys[0], axis=ax)
    for k in keys[1:]:
        _c.compute(idx)
        step = argsort(_c._gather(k, idx, ax, ax), axis=ax)
        idx = _c._gather(idx, step, ax, ax)
    return idx


__all__ = [
    "argsort", "lexsort", "sort",
]
