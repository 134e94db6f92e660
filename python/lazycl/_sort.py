"""Sorting: sort and argsort (codegen/sort.c), always stable, NaN last.

A sort is one node of the graph: its key may be any pending expression, which the sort's
first pass computes (``lc.sort(x * x)`` reads x once and never writes x * x). NumPy's `kind`
is accepted (every kind is stable here) and the array API's `descending` and `stable` too;
under `descending` NaNs still come last and equal elements keep their order.
"""
import operator

import numpy as np

from . import _lazycl as _c

try:
    from numpy.exceptions import AxisError
except ImportError:  # NumPy < 1.25
    from numpy import AxisError

_KINDS = (None, "quicksort", "mergesort", "heapsort", "stable")


def _prepare(a, axis, kind, order):
    from ._api import _as
    a = _as(a)
    if kind not in _KINDS:
        raise ValueError(f"sort kind must be one of 'quick', 'heap', or 'stable' (got {kind!r})")
    if order is not None:
        raise ValueError("Cannot specify order when the array has no fields.")
    if axis is None:
        return _c.reshape(a, (a.size,)), 0
    if a.ndim == 0:
        raise AxisError(operator.index(axis), 0)
    ax = operator.index(axis)
    if not -a.ndim <= ax < a.ndim:
        raise AxisError(ax, a.ndim)
    return a, ax % a.ndim


def _complex_order(a, axis, descending):
    """The indices that sort complex `a`: NumPy's order, by the real parts and then the
    imaginary ones, with R+Rj < R+nanj < nan+Rj < nan+nanj (a NaN class first); descending
    negates the parts, so NaNs stay last and ties keep their order."""
    from ._setops import lexsort
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
    from . import _write
    if a.ndim == 0:
        raise AxisError(operator.index(axis), 0)
    _prepare(a, axis, kind, order)
    _write.setitem(a, Ellipsis, sort(a, axis, kind))
