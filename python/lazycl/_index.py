"""Advanced indexing: integer arrays and lists (NumPy's rules), take and take_along_axis.

Each is a chain of gathers (lazycl._lazycl._gather, graph/gather.c lc_node_gather): the source is
read at the index in the consumer's own kernel, with no temporary, and every index is checked on
the device: one out of range raises IndexError when the result is forced, and is never read.
Indices that live on the host (lists, NumPy arrays, ints) are checked at once, as NumPy does.
"""
import operator

import numpy as np

from . import _lazycl as _c
from ._util import is_array as _is_array, no_out as _no_out, norm_axis as _norm_axis


def _bool_error():
    return IndexError("lazycl does not support boolean (mask) indexing yet; use lazycl.where")


def _index_array(x, k, size, axis):
    """k (a lazycl array, NumPy array or sequence) as a lazycl integer array on x's queue."""
    if _is_array(k):
        dt = np.dtype(k.dtype)
        if dt.kind == "b":
            raise _bool_error()
        if dt.kind not in "iu":
            raise IndexError("arrays used as indices must be of integer (or boolean) type")
        return k
    a = np.asarray(k)
    if a.dtype.kind == "b":
        raise _bool_error()
    if a.size == 0 and a.dtype.kind not in "iu":
        a = a.astype(np.intp)        # [] indexes nothing, as in NumPy
    if a.dtype.kind not in "iu":
        raise IndexError("arrays used as indices must be of integer (or boolean) type")
    if a.dtype == np.uint64:
        a = a.astype(np.intp)        # NumPy's cast ('same_kind'): past 2**63 - 1 it wraps
    if a.size:
        bad = a[(a < -size) | (a >= size)] if a.dtype.kind == "i" else a[a >= size]
        if bad.size:
            raise IndexError(f"index {int(bad.flat[0])} is out of bounds for axis {axis} with "
                             f"size {size}")
    return _c.asarray(a, None, x.queue)


def _classify(x, key):
    """The key as (kind, value) items with the Ellipsis expanded; kinds: 's' slice, 'n' None,
    'i' int, 'a' integer array."""
    items = key if isinstance(key, tuple) else (key,)
    out, ellipsis, consumed = [], 0, 0
    for k in items:
        if k is Ellipsis:
            ellipsis += 1
            if ellipsis > 1:
                raise IndexError("an index can only have a single ellipsis ('...')")
            out.append(("e", k))
        elif k is None:
            out.append(("n", k))
        elif isinstance(k, slice):
            out.append(("s", k))
            consumed += 1
        elif isinstance(k, (bool, np.bool_)):
            raise _bool_error()
        elif _is_array(k) or isinstance(k, (list, tuple, np.ndarray)):
            out.append(("a", k))
            consumed += 1
        else:
            try:
                out.append(("i", operator.index(k)))
            except TypeError:
                raise IndexError("only integers, slices (`:`), ellipsis (`...`), numpy.newaxis "
                                 "(`None`) and integer or boolean arrays are valid indices") \
                    from None
            consumed += 1
    if consumed > x.ndim:
        raise IndexError(f"too many indices for array: array is {x.ndim}-dimensional, but "
                         f"{consumed} were indexed")
    full = []
    for kind, k in out:
        if kind == "e":
            full += [("s", slice(None))] * (x.ndim - consumed)
        else:
            full.append((kind, k))
    if not ellipsis:
        full += [("s", slice(None))] * (x.ndim - consumed)
    return full


def _gather_chain(y, adv, idx, report):
    """y with its dims `adv` (in order) read at the broadcast index arrays `idx`: the result has
    the broadcast shape B in place of the first advanced dim when the advanced dims are adjacent
    in the key (`report`: the user's axes, for errors), else first."""
    shapes = [tuple(i.shape) for i in idx]
    try:
        B = np.broadcast_shapes(*shapes)
    except ValueError:
        raise IndexError("shape mismatch: indexing arrays could not be broadcast together with "
                         "shapes " + " ".join(str(s).replace(",)", ")") for s in shapes)) from None
    rest = [d for d in range(y.ndim) if d not in adv]
    N = [y.shape[d] for d in adv]
    R = [y.shape[d] for d in rest]
    k, nb, r = len(adv), len(B), len(rest)
    src = _c.permute_dims(y, list(adv) + rest) if list(adv) + rest != list(range(y.ndim)) else y
    src = _c.reshape(src, tuple(N) + (1,) * nb + tuple(R))
    for j in range(k):
        out_shape = (1,) * (j + 1) + tuple(N[j + 1:]) + tuple(B) + tuple(R)
        i = _c.reshape(_c.broadcast_to(idx[j], B), (1,) * k + tuple(B) + (1,) * r)
        src = _c._gather(src, _c.broadcast_to(i, out_shape), j, report[j])
    return _c.reshape(src, tuple(B) + tuple(R)), nb


def getitem(x, key):
    """x[key] for keys with integer arrays or lists (NumPy's advanced indexing)."""
    items = _classify(x, key)
    if not any(kind == "a" for kind, _ in items):
        return x[tuple(k for _, k in items)]   # only ints and slices after all
    basic, adv, idx, report, pos_items = [], [], [], [], []
    ydim = xdim = 0
    for n, (kind, k) in enumerate(items):
        if kind == "n":
            basic.append(None)
            ydim += 1
            continue
        if kind == "s":
            basic.append(k)
        else:
            size = x.shape[xdim]
            if kind == "i":
                if not -size <= k < size:
                    raise IndexError(f"index {k} is out of bounds for axis {xdim} with size "
                                     f"{size}")
                idx.append(_c.asarray(np.intp(k), None, x.queue))
            else:
                idx.append(_index_array(x, k, size, xdim))
            basic.append(slice(None))
            adv.append(ydim)
            report.append(xdim)
            pos_items.append(n)
        ydim += 1
        xdim += 1
    y = x[tuple(basic)]
    res, nb = _gather_chain(y, adv, idx, report)
    adjacent = pos_items[-1] - pos_items[0] == len(pos_items) - 1
    before = adv[0] if adjacent else 0   # non-advanced dims of y before the first advanced one
    if before:
        order = list(range(nb, nb + before)) + list(range(nb)) + \
            list(range(nb + before, res.ndim))
        res = _c.permute_dims(res, order)
    return res


def take(a, indices, axis=None, out=None, mode="raise"):
    """Elements of `a` at `indices` along `axis` (flattened when None), as numpy.take."""
    _no_out(out)
    if not _is_array(a):
        a = _c.asarray(a, None, None)
    if axis is None:
        a = _c.reshape(a, (-1,))
        axis = 0
    axis = _norm_axis(axis, a.ndim)
    if mode not in ("raise", "wrap", "clip"):
        raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got '{mode}')")
    n = a.shape[axis]
    if mode != "raise":
        if n == 0:
            raise IndexError("cannot do a non-empty take from an empty axes.")
        i = indices if _is_array(indices) else _c.asarray(np.asarray(indices, np.intp), None,
                                                          a.queue)
        if np.dtype(i.dtype).kind not in "iu":
            raise TypeError("Cannot cast array data from dtype('float64') to dtype('int64') "
                            "according to the rule 'safe'")
        if mode == "wrap":
            indices = _c._binary("remainder", i, n)
        else:
            indices = _c.where(_c._binary("less", i, 0), 0,
                               _c.where(_c._binary("greater", i, n - 1), n - 1, i))
    if not _is_array(indices) and np.ndim(indices) == 0:
        return a[(slice(None),) * axis + (operator.index(indices),)]
    return getitem(a, (slice(None),) * axis + (indices,))


def take_along_axis(arr, indices, axis=-1):
    """arr read at `indices` along `axis`, elementwise over the other dims (numpy's)."""
    if not _is_array(arr):
        arr = _c.asarray(arr, None, None)
    if axis is None:
        arr = _c.reshape(arr, (-1,))
        axis = 0
        if np.ndim(indices) != 1:
            raise ValueError("when axis=None, `indices` must have a single dimension.")
    if np.ndim(indices) != arr.ndim:
        raise ValueError("`indices` and `arr` must have the same number of dimensions")
    axis = _norm_axis(axis, arr.ndim)
    kind = np.dtype(indices.dtype).kind if _is_array(indices) else np.asarray(indices).dtype.kind
    if kind not in "iu":
        raise IndexError("`indices` must be an integer array")
    i = _index_array(arr, indices, arr.shape[axis], axis)
    shape = []
    for d in range(arr.ndim):
        if d == axis:
            shape.append(i.shape[d])
            continue
        a, b = arr.shape[d], i.shape[d]
        if a != b and a != 1 and b != 1:
            raise ValueError(f"shape mismatch: objects cannot be broadcast to a single shape.  "
                             f"Mismatch is between arg 0 with shape {tuple(arr.shape)} and arg 1 "
                             f"with shape {tuple(i.shape)}.")
        shape.append(max(a, b) if a and b else 0)
    return _c._gather(arr, _c.broadcast_to(i, tuple(shape)), axis, axis)


__all__ = [
    "take", "take_along_axis",
]
