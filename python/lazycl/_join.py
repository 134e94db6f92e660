"""Joining and splitting as index maps: concatenate, stack and their variants, split, choose and
select, with NumPy's dtypes and errors.

A join reads each output element from the source that holds it, in the consumer's kernel, with no
copy: along the joined axis, source i is read through a gather at clip(j - offset_i, 0, n_i - 1)
(j an arange over the output axis; a source of length 1 broadcasts and needs no gather), and a
balanced tree of wheres on j chooses the source, so the expression is log2(k) wheres deep for k
sources (fusion cuts expressions at depth 200). The clipped indices are in range by
construction. choose is the same tree over the index values; select is NumPy's chain of wheres.
Splits are slices: views, free.
"""
import operator

import numpy as np

from . import _lazycl as _c
from ._util import (
    is_array as _is_array, no_out as _no_out, norm_axis as _axis, queue_of as _queue_of,
)

_CASTINGS = ("no", "equiv", "safe", "same_kind", "unsafe")


def _operand(x):
    """x as an array that has .shape, .ndim, .dtype and .reshape: a lazycl array as it is, anything
    else as a NumPy array on the host (uploaded once the result's dtype is known)."""
    return x if _is_array(x) else np.asarray(x)


def _lazy(x, dtype, queue):
    """The operand x as a lazycl array of `dtype` on `queue`: a lazycl array is cast in the
    consumer's kernel; a host array is cast on the host (NumPy's unsafe cast) and uploaded, a 0-d
    one as a constant (no memory)."""
    if _is_array(x):
        return x if x.dtype == dtype else _c.astype(x, dtype)
    x = np.asarray(x).astype(dtype, copy=False)
    if x.ndim == 0:
        return _c._full(x[()], (), dtype, queue)
    return _c.asarray(x, None, queue)


def _check_casting(casting):
    if casting not in _CASTINGS:
        raise ValueError("casting must be one of 'no', 'equiv', 'safe', 'same_kind', 'unsafe' "
                         f"(got '{casting}')")


def _result_dtype(xs, dtype, casting):
    """NumPy's result dtype of joining `xs` (or `dtype`), each input castable by `casting`."""
    out = np.result_type(*[x.dtype for x in xs]) if dtype is None else np.dtype(dtype)
    for x in xs:
        if not np.can_cast(x.dtype, out, casting):
            raise TypeError(f"Cannot cast array data from {x.dtype!r} to {out!r} according to "
                            f"the rule '{casting}'")
    return out


def _sequence(arrays, stack):
    """The inputs of a join as a list; a lazycl or NumPy array is a sequence of its rows."""
    if _is_array(arrays):
        if arrays.ndim == 0:
            raise TypeError("iteration over a 0-d array")
        return [arrays[i] for i in range(arrays.shape[0])]
    if stack and not hasattr(arrays, "__getitem__"):
        raise TypeError('arrays to stack must be passed as a "sequence" type such as list or '
                        'tuple.')
    if not hasattr(arrays, "__len__") or not hasattr(arrays, "__getitem__"):
        raise TypeError("The first input argument needs to be a sequence")
    return list(arrays)


def _iota(n, queue):
    return _c._iota(0, 1, n, "int64", queue)


def _bin(op, a, b):
    return _c._binary(op, a, b)


def _tree(k, leaf, pick):
    """A balanced tree of wheres over the leaves 0..k-1: where(pick(mid), left, right)."""
    def build(lo, hi):
        if hi - lo == 1:
            return leaf(lo)
        mid = (lo + hi) // 2
        return _c.where(pick(mid), build(lo, mid), build(mid, hi))
    return build(0, k)


def _join(xs, axis, shape):
    """The lazycl arrays xs (one dtype, shapes equal but along `axis`) joined along `axis` into
    an array of `shape`, as an index map."""
    xs = [x for x in xs if x.shape[axis]] or xs[:1]   # an empty input holds nothing to read
    if len(xs) == 1:
        return xs[0]
    queue = xs[0].queue
    ndim = len(shape)
    n_out = shape[axis]
    offsets = [0]
    for x in xs:
        offsets.append(offsets[-1] + x.shape[axis])
    j = _iota(n_out, queue)
    along = _c.reshape(j, tuple(n_out if d == axis else 1 for d in range(ndim)))

    def leaf(i):
        x, n = xs[i], xs[i].shape[axis]
        if n == 1:
            return x                  # broadcasts along the axis: no index to compute
        idx = _bin("minimum", _bin("maximum", _bin("subtract", j, offsets[i]), 0), n - 1)
        gshape = tuple(n_out if d == axis else s for d, s in enumerate(x.shape))
        i_nd = _c.reshape(idx, tuple(n_out if d == axis else 1 for d in range(ndim)))
        return _c._gather(x, _c.broadcast_to(i_nd, gshape), axis, axis)

    r = _tree(len(xs), leaf, lambda mid: _bin("less", along, offsets[mid]))
    return r if tuple(r.shape) == tuple(shape) else _c.broadcast_to(r, shape)


def _concatenate(xs, axis, dtype, casting):
    """concatenate over a list of operands (lazycl or NumPy arrays)."""
    _check_casting(casting)
    if not xs:
        raise ValueError("need at least one array to concatenate")
    if axis is None:
        xs = [x.reshape(-1) for x in xs]
        axis = 0
    ndim = xs[0].ndim
    if ndim == 0:
        raise ValueError("zero-dimensional arrays cannot be concatenated")
    axis = _axis(axis, ndim)
    shape = list(xs[0].shape)
    for i, x in enumerate(xs[1:], 1):
        if x.ndim != ndim:
            raise ValueError("all the input arrays must have same number of dimensions, but the "
                             f"array at index 0 has {ndim} dimension(s) and the array at index "
                             f"{i} has {x.ndim} dimension(s)")
        for d in range(ndim):
            if d != axis and x.shape[d] != shape[d]:
                raise ValueError("all the input array dimensions except for the concatenation "
                                 f"axis must match exactly, but along dimension {d}, the array at "
                                 f"index 0 has size {shape[d]} and the array at index {i} has "
                                 f"size {x.shape[d]}")
        shape[axis] += x.shape[axis]
    dt = _result_dtype(xs, dtype, casting)
    queue = _queue_of(*xs)
    return _join([_lazy(x, dt, queue) for x in xs], axis, tuple(shape))


def concatenate(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    """The arrays joined along an existing `axis` (flattened first when None), as
    numpy.concatenate: an index map, read in the consumer's kernel."""
    _no_out(out)
    return _concatenate([_operand(x) for x in _sequence(arrays, False)], axis, dtype, casting)


def stack(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    """The arrays (all of one shape) joined along a new `axis`, as numpy.stack."""
    _no_out(out)
    xs = [_operand(x) for x in _sequence(arrays, True)]
    if not xs:
        raise ValueError("need at least one array to stack")
    shape = tuple(xs[0].shape)
    if any(tuple(x.shape) != shape for x in xs):
        raise ValueError("all input arrays must have the same shape")
    axis = _axis(axis, len(shape) + 1)
    new = shape[:axis] + (1,) + shape[axis:]
    return _concatenate([x.reshape(new) for x in xs], axis, dtype, casting)


def _at_least(x, nd):
    """numpy.atleast_1d/2d/3d of one operand: 0-d -> (1,)*nd; 1-d (n,) -> (n,), (1, n),
    (1, n, 1); 2-d (m, n) -> (m, n, 1) for nd=3."""
    if x.ndim >= nd:
        return x
    if x.ndim == 0:
        return x.reshape((1,) * nd)
    if x.ndim == 1:
        return x.reshape(((1,) if nd >= 2 else ()) + tuple(x.shape) + ((1,) if nd == 3 else ()))
    return x.reshape(tuple(x.shape) + (1,))


def hstack(tup, *, dtype=None, casting="same_kind"):
    """The arrays joined column-wise (along axis 1; along axis 0 for 1-d), as numpy.hstack."""
    xs = [_at_least(_operand(x), 1) for x in _sequence(tup, True)]
    axis = 0 if xs and xs[0].ndim == 1 else 1
    return _concatenate(xs, axis, dtype, casting)


def vstack(tup, *, dtype=None, casting="same_kind"):
    """The arrays joined row-wise (1-d inputs as rows), as numpy.vstack."""
    xs = [_at_least(_operand(x), 2) for x in _sequence(tup, True)]
    return _concatenate(xs, 0, dtype, casting)


def dstack(tup):
    """The arrays joined along the third axis (after numpy.atleast_3d), as numpy.dstack."""
    xs = [_at_least(_operand(x), 3) for x in _sequence(tup, True)]
    return _concatenate(xs, 2, None, "same_kind")


def column_stack(tup):
    """1-d arrays as columns and 2-d arrays joined along axis 1, as numpy.column_stack."""
    xs = []
    for x in _sequence(tup, True):
        x = _operand(x)
        if x.ndim < 2:
            x = x.reshape((-1, 1))
        xs.append(x)
    return _concatenate(xs, 1, None, "same_kind")


# ---- splits: slices, views of the input ------------------------------------------------------

def _split_points(n, indices_or_sections):
    try:
        points = list(indices_or_sections)
    except TypeError:
        sections = int(indices_or_sections)
        if sections <= 0:
            raise ValueError("number sections must be larger than 0.") from None
        each, extra = divmod(n, sections)
        sizes = [each + 1] * extra + [each] * (sections - extra)
        points = [0]
        for s in sizes:
            points.append(points[-1] + s)
        return points
    return [0] + [operator.index(p) for p in points] + [n]


def array_split(ary, indices_or_sections, axis=0):
    """Views of `ary` cut along `axis` into sections (sizes differing by at most one) or at the
    given indices, as numpy.array_split."""
    x = ary if _is_array(ary) else _c.asarray(ary, None, None)
    axis = _axis(axis, x.ndim)
    if _is_array(indices_or_sections):
        indices_or_sections = indices_or_sections.numpy().tolist()
    points = _split_points(x.shape[axis], indices_or_sections)
    pre = (slice(None),) * axis
    return [x[pre + (slice(a, b),)] for a, b in zip(points[:-1], points[1:])]


def split(ary, indices_or_sections, axis=0):
    """Views of `ary` cut along `axis` into equal sections or at the given indices, as
    numpy.split."""
    x = ary if _is_array(ary) else _c.asarray(ary, None, None)
    if not hasattr(indices_or_sections, "__len__") or (
            _is_array(indices_or_sections) and indices_or_sections.ndim == 0):
        n = x.shape[_axis(axis, x.ndim)]
        if n % indices_or_sections:
            raise ValueError("array split does not result in an equal division") from None
    return array_split(x, indices_or_sections, axis)


def _split_nd(name, nd, axis_of):
    def f(ary, indices_or_sections):
        x = ary if _is_array(ary) else _c.asarray(ary, None, None)
        if x.ndim < nd:
            raise ValueError(f"{name} only works on arrays of {nd} or more dimensions")
        return split(x, indices_or_sections, axis_of(x.ndim))
    f.__name__ = name
    f.__qualname__ = name
    f.__doc__ = f"Views of the array split as numpy.{name}."
    return f


hsplit = _split_nd("hsplit", 1, lambda ndim: 1 if ndim > 1 else 0)
vsplit = _split_nd("vsplit", 2, lambda ndim: 0)
dsplit = _split_nd("dsplit", 3, lambda ndim: 2)


# ---- choose and select ---------------------------------------------------------------------

def _weak(x):
    """x for np.result_type with NumPy 2's rules: a Python scalar stays weak (its value), an
    array gives its dtype."""
    return x if type(x) in (int, float, complex) else x.dtype


def _choice_operand(x):
    return x if type(x) in (int, float, complex) else _operand(x)


def _shape(x):
    return () if type(x) in (int, float, complex) else tuple(x.shape)


def _lazy_choice(x, dtype, queue):
    if type(x) in (int, float, complex):
        x = np.asarray(x)
    return _lazy(x, dtype, queue)


def _index_range(a, n):
    """(min, max) of the index `a`, forcing one small reduction for a lazycl array."""
    if _is_array(a):
        lo, hi = _c.compute(a.min(), a.max())
        return int(lo.item()), int(hi.item())
    return int(a.min()), int(a.max())


def choose(a, choices, out=None, mode="raise"):
    """choices[a[i]][i] over the broadcast shape, as numpy.choose: a tree of wheres on the index.
    mode='raise' checks that every index is in range at call time: for a lazycl index that
    forces the minimum and maximum of the index (one small reduction launch)."""
    _no_out(out)
    if mode not in ("raise", "wrap", "clip"):
        raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got '{mode}')")
    a = _operand(a)
    if not np.can_cast(a.dtype, np.intp, "safe"):
        raise TypeError(f"Cannot cast array data from {a.dtype!r} to {np.dtype(np.intp)!r} "
                        "according to the rule 'safe'")
    if _is_array(choices) or isinstance(choices, np.ndarray):
        choices = list(choices)
    choices = [_choice_operand(c) for c in choices]
    n = len(choices)
    if n == 0:
        raise ValueError("0-length sequence.")
    dt = np.result_type(*[_weak(c) for c in choices])
    shape = tuple(np.broadcast_shapes(*[_shape(c) for c in choices], tuple(a.shape)))
    if mode == "raise" and a.size:
        lo, hi = _index_range(a, n)
        if lo < 0 or hi >= n:
            raise ValueError("invalid entry in choice array")
    queue = _queue_of(a, *choices)
    idx = _lazy(a, np.dtype(np.int64), queue)
    if mode == "wrap":
        idx = _bin("remainder", idx, n)
    elif mode == "clip":
        idx = _bin("minimum", _bin("maximum", idx, 0), n - 1)
    cs = [_lazy_choice(c, dt, queue) for c in choices]
    r = _tree(n, lambda i: cs[i], lambda mid: _bin("less", idx, mid))
    return r if tuple(r.shape) == shape else _c.broadcast_to(r, shape)


def select(condlist, choicelist, default=0):
    """The element of the first choice whose condition holds, else `default`, as numpy.select:
    a chain of wheres, fused into the consumer."""
    if len(condlist) != len(choicelist):
        raise ValueError("list of cases must be same length as list of conditions")
    if len(condlist) == 0:
        raise ValueError("select with an empty condition list is not possible")
    choices = [_choice_operand(c) for c in list(choicelist) + [default]]
    try:
        dt = np.result_type(*[_weak(c) for c in choices])
    except TypeError as e:
        raise TypeError(f"Choicelist and default value do not have a common dtype: {e}") \
            from None
    conds = [_operand(c) for c in condlist]
    cshape = np.broadcast_shapes(*[tuple(c.shape) for c in conds])
    vshape = np.broadcast_shapes(*[_shape(c) for c in choices])
    for i, c in enumerate(conds):
        if c.dtype != np.bool_:
            raise TypeError(f"invalid entry {i} in condlist: should be boolean ndarray")
    shape = tuple(np.broadcast_shapes(cshape, vshape))
    queue = _queue_of(*conds, *choices)
    cs = [_lazy_choice(c, dt, queue) for c in choices]
    qs = [_lazy(c, np.dtype(np.bool_), queue) for c in conds]

    # NumPy's definition, a chain of wheres (the first condition that holds wins): k deep for k
    # conditions, and no node shared (a shared subexpression costlier than a few ops would be
    # written to memory), so up to ~190 conditions are one kernel; past that fusion cuts.
    r = cs[-1]
    for q, v in zip(qs[::-1], cs[-2::-1]):
        r = _c.where(q, v, r)
    return r if tuple(r.shape) == shape else _c.broadcast_to(r, shape)


__all__ = [
    "array_split", "choose", "column_stack", "concatenate", "dsplit", "dstack", "hsplit", "hstack",
    "select", "split", "stack", "vsplit", "vstack",
]
