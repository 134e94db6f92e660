"""Writes into lazycl arrays with NumPy's semantics: x[key] = v, the in-place operators, fill,
copyto, put, putmask, place, put_along_axis, fill_diagonal, np.add.at and its siblings, bincount,
out= (assign_out); reads of masks and 0-d masks (x[mask] itself is _compact.py's).

Every write is one store kernel (graph/store.c, codegen/store.c) that computes its value inside
it and writes the places named by the key into the array's buffer, in place. python/py_write.c
keeps NumPy's aliasing: views of the array see the write, arrays built before it keep the old
values (docs/layout.md, "Writes").
"""
import operator

import numpy as np

from . import _index, _lazycl as _c
from ._compact import _positions, _slots, masked, nonzero
from ._util import is_array as _is_array

def _as_index_dtype(a):
    return np.dtype(a.dtype).kind in "iu"


def _host(func, *args, **kwargs):
    """A NumPy writer whose destination is a NumPy array: NumPy writes it, from host copies."""
    conv = [np.asarray(a) if _is_array(a) else a for a in args]
    kw = {k: (np.asarray(v) if _is_array(v) else v) for k, v in kwargs.items()}
    return func(*conv, **kw)


def _settle(x, a):
    """A user's pending array that reads x is computed before x changes (its holder keeps the
    old values); a small cost, proportional to the array."""
    if _is_array(a) and a.pending:
        _c._settle(x, a)


def _value(x, v, shape):
    """v as x's dtype (NumPy's assignment casting: unsafe, but a Python int out of range is an
    OverflowError), broadcast to `shape` as NumPy assigns."""
    dt = np.dtype(x.dtype)
    if _is_array(v):
        val = v if np.dtype(v.dtype) == dt else _c.astype(v, dt)
    else:
        a = v.astype(dt) if isinstance(v, np.ndarray) else np.array(v, dtype=dt)
        if not a.ndim:
            # A scalar is a constant of the store's kernel (an argument: no upload, and the
            # plan serves every value).
            return _c._full(a[()], tuple(shape), dt, x.queue)
        val = _c.asarray(a, None, x.queue)
    vshape = tuple(val.shape)
    while len(vshape) > len(shape) and vshape[0] == 1:
        vshape = vshape[1:]
    if vshape != tuple(val.shape):
        val = _c.reshape(val, vshape)
    if vshape != tuple(shape):
        try:
            if np.broadcast_shapes(vshape, shape) != tuple(shape):
                raise ValueError
        except ValueError:
            raise ValueError(f"could not broadcast input array from shape {vshape} into shape "
                             f"{tuple(shape)}") from None
        val = _c.broadcast_to(val, tuple(shape))
    return val


def _check_gathered(t):
    """Read every index of target t once (one small reduction): an index out of range raises
    IndexError here, before anything is written, as NumPy checks its indices first."""
    if t.size:
        _c.compute(_c._reduce("any", _c.astype(t, "bool"), tuple(range(t.ndim))))


def _bool_key(k):
    if _is_array(k):
        return np.dtype(k.dtype) == np.bool_
    if isinstance(k, np.ndarray):
        return k.dtype == np.bool_
    if isinstance(k, list):
        a = np.asarray(k)
        return a.dtype == np.bool_ and a.size > 0
    return False


def _mask(x, m, q):
    m = m if _is_array(m) else _c.asarray(np.asarray(m, dtype=bool), None, q)
    if m.ndim > x.ndim:
        raise IndexError(f"too many indices for array: array is {x.ndim}-dimensional, but "
                         f"{m.ndim} were indexed")
    for d in range(m.ndim):
        if m.shape[d] != x.shape[d]:
            raise IndexError(f"boolean index did not match indexed array along axis {d}; size "
                             f"of axis is {x.shape[d]} but size of corresponding boolean axis "
                             f"is {m.shape[d]}")
    return m


def _key_items(key):
    return key if isinstance(key, tuple) else (key,)


def _bool_scalar(k):
    """A 0-d mask: a Python or NumPy bool, or a 0-d bool array."""
    return isinstance(k, (bool, np.bool_)) or (_bool_key(k) and np.ndim(k) == 0)


def _scalar_bools(x, items):
    """NumPy's rule for 0-d masks among other keys (x[0, True]): each adds an axis of length
    1 (True) or 0 (False), indexed as an advanced index. (view, key): x with a new axis at each
    0-d mask, and the key with each such mask an integer array over its axis ([0] or []), so
    that view[key] is x[items] and view[key] = v writes x."""
    vkey, key = [], []
    for k in items:
        if _bool_scalar(k):
            vkey.append(None)
            key.append(np.array([0] if bool(k) else [], dtype=np.intp))
        elif k is None:
            vkey.append(None)
            key.append(slice(None))
        elif k is Ellipsis:
            vkey.append(Ellipsis)
            key.append(Ellipsis)
        else:
            vkey.extend([slice(None)] * (np.ndim(k) if _bool_key(k) else 1))
            key.append(k)
    return x[tuple(vkey)], tuple(key)


def setitem(x, key, value):
    """x[key] = value."""
    if _c._poke(x, key, value):
        return   # one element, a constant: recorded, written with the next read (engine/pokes.h)
    if _c._readonly(x):
        raise ValueError("assignment destination is read-only")
    items = _key_items(key)
    if len(items) > 1 and any(_bool_scalar(k) for k in items):
        view, key = _scalar_bools(x, items)
        return setitem(view, key, value)
    if len(items) == 1 and isinstance(items[0], (bool, np.bool_)):
        items = key = (_c.asarray(np.bool_(items[0]), None, x.queue),)   # a 0-d mask
    bools = [k for k in items if _bool_key(k)]
    _c._writable(x)
    _settle(x, value)
    if bools and len(items) == 1:
        m = _mask(x, items[0], x.queue)
        _settle(x, m)
        return _masked_store(x, m, value)
    if bools:
        key = items = _expand_masks(items, x.queue)
    adv = [k for k in items if _is_array(k) or isinstance(k, (list, np.ndarray))]
    for k in adv:
        _settle(x, k)
    t = _index.getitem(x, key) if adv else x[key]
    if any(_is_array(k) for k in adv):
        _check_gathered(t)
    _c._store(x, t, _value(x, value, t.shape), None, 0, 0)


def _expand_masks(items, q):
    """A key with each mask replaced by its Trues as integer arrays (NumPy's rule for a mask
    among other keys)."""
    out = []
    for k in items:
        if _bool_key(k):
            out.extend(nonzero(k if _is_array(k) else
                               _c.asarray(np.asarray(k, dtype=bool), None, q)))
        else:
            out.append(k)
    return tuple(out)


def _masked_store(x, m, value):
    """x[m] = value for a mask over x's leading dims: a store over all of x where the mask holds;
    a value with one entry per True is read at the running count of Trues."""
    shape = tuple(x.shape)
    pred = _c.reshape(m, tuple(m.shape) + (1,) * (x.ndim - m.ndim))
    if pred.shape != shape:
        pred = _c.broadcast_to(pred, shape)
    vsize = value.size if _is_array(value) else np.size(value)
    if vsize == 1:
        val = _value(x, _c.reshape(value, ()) if _is_array(value) else
                     np.asarray(value).reshape(()), ())
        val = _c.broadcast_to(val, shape) if shape else val
    else:
        cs, n = _positions(m)
        rest = shape[m.ndim:]
        v = _value(x, value, (n,) + rest)
        if n == 0:
            return
        val = _index.getitem(v, (_slots(cs, tuple(m.shape)),))
    _c._store(x, x, val, pred, 0, 1)


def inplace(x, op, other):
    """x <op>= other, NumPy's in-place ufunc: the result cast to x's dtype under 'same_kind'."""
    if _c._readonly(x):
        raise ValueError("output array is read-only")
    _c._writable(x, "output array is read-only")
    r = _c._binary(op, x, other)
    rd, xd = np.dtype(r.dtype), np.dtype(x.dtype)
    if rd != xd:
        if not np.can_cast(rd, xd, "same_kind"):
            raise np._core._exceptions._UFuncOutputCastingError(
                getattr(np, op), "same_kind", rd, xd, 0)
        r = _c.astype(r, xd)
    if tuple(r.shape) != tuple(x.shape):
        raise ValueError(f"non-broadcastable output operand with shape {tuple(x.shape)} doesn't "
                         f"match the broadcast shape {tuple(r.shape)}")
    _c._store(x, x, r, None, 0, 1)
    return x


def broadcasts_to(shape, target):
    """Does `shape` broadcast to exactly `target` (without growing it)?"""
    try:
        return np.broadcast_shapes(tuple(shape), tuple(target)) == tuple(target)
    except ValueError:
        return False


def assign_out(out, r, name, casting="same_kind"):
    """ufunc(..., out=out): the result written into out under `casting` ('same_kind' for
    ufuncs, 'unsafe' for reductions). A NumPy out gets the values, as NumPy's would."""
    if isinstance(out, np.ndarray):
        np.copyto(out, np.asarray(r), casting=casting)
        return out
    rd, od = np.dtype(r.dtype), np.dtype(out.dtype)
    if rd != od and not np.can_cast(rd, od, casting):
        raise np._core._exceptions._UFuncOutputCastingError(getattr(np, name), casting, rd, od,
                                                             0)
    if tuple(r.shape) != tuple(out.shape) and not broadcasts_to(r.shape, out.shape):
        raise ValueError(f"non-broadcastable output operand with shape {tuple(out.shape)} "
                         f"doesn't match the broadcast shape {tuple(r.shape)}")
    setitem(out, Ellipsis, r)
    return out


def _scalar_mask(x, k):
    """x[k] for a 0-d mask k (a Python or NumPy bool, or a 0-d bool array), as NumPy: x with a new
    leading axis of length 1 where k holds, else 0 (a copy, as advanced indexing makes)."""
    y = _c.reshape(x, (1,) + tuple(x.shape))
    if _is_array(k):
        return masked(y, _c.reshape(k, (1,)))
    return _c._copy(y if bool(k) else y[:0])


def getitem(x, key):
    """x[key] with arrays in the key: masks (a compaction), integer arrays (gathers)."""
    items = _key_items(key)
    if len(items) == 1 and (isinstance(items[0], (bool, np.bool_)) or
                            (_bool_key(items[0]) and np.ndim(items[0]) == 0)):
        k = items[0]
        return _scalar_mask(x, k if _is_array(k) or isinstance(k, bool) else bool(k))
    if any(_bool_scalar(k) for k in items):
        view, key = _scalar_bools(x, items)
        return getitem(view, key)
    if any(_bool_key(k) for k in items):
        if len(items) == 1:
            m = _mask(x, items[0], x.queue)
            return masked(x, m)
        key = _expand_masks(items, x.queue)
    return _index.getitem(x, key)


def fill(x, value):
    setitem(x, Ellipsis, value)


def copyto(dst, src, casting="same_kind", where=True):
    """numpy.copyto: src broadcast into dst where `where` holds."""
    if not _is_array(dst):
        return _host(np.copyto, dst, src, casting=casting, where=where)
    sd = np.dtype(src.dtype) if _is_array(src) or isinstance(src, np.ndarray) else None
    if sd is not None and not np.can_cast(sd, np.dtype(dst.dtype), casting):
        raise TypeError(f"Cannot cast array data from {sd!r} to {np.dtype(dst.dtype)!r} "
                        f"according to the rule '{casting}'")
    if _c._readonly(dst):
        raise ValueError("assignment destination is read-only")
    _c._writable(dst)
    _settle(dst, src)
    if where is True:
        return setitem(dst, Ellipsis, src)
    w = where if _is_array(where) else _c.asarray(np.asarray(where, dtype=bool), None, dst.queue)
    if np.dtype(w.dtype) != np.bool_:
        raise TypeError(f"Cannot cast array data from {np.dtype(w.dtype)!r} to dtype('bool') "
                        "according to the rule 'safe'")
    _settle(dst, w)
    shape = tuple(dst.shape)
    try:
        if np.broadcast_shapes(tuple(w.shape), shape) != shape:
            raise ValueError
    except ValueError:
        raise ValueError(f"could not broadcast where mask from shape {tuple(w.shape)} into "
                         f"shape {shape}") from None
    pred = _c.broadcast_to(w, shape) if tuple(w.shape) != shape else w
    _c._store(dst, dst, _value(dst, src, shape), pred, 0, 1)


def _flat_target(a, ind, mode):
    """The places a.flat[ind] names, as advanced indexing of a (a need not be contiguous)."""
    n = a.size
    i = ind if _is_array(ind) else _c.asarray(np.asarray(ind, dtype=np.intp), None, a.queue)
    if not _as_index_dtype(i):
        raise TypeError(f"Cannot cast array data from {np.dtype(i.dtype)!r} to dtype('int64') "
                        "according to the rule 'safe'")
    if mode == "wrap":
        i = _c._binary("remainder", i, n)
    elif mode == "clip":
        i = _c.where(_c._binary("less", i, 0), 0, _c.where(_c._binary("greater", i, n - 1),
                                                               n - 1, i))
    elif mode != "raise":
        raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got '{mode}')")
    i = _c.reshape(i, (-1,))
    if a.ndim <= 1:
        return _index.getitem(a, (i,) if a.ndim else ()), i
    i = _c.where(_c._binary("less", i, 0), _c._binary("add", i, n), i)   # unravel from the end
    parts, rem = [], i
    for d in range(a.ndim - 1, -1, -1):
        parts.append(_c._binary("remainder", rem, a.shape[d]) if d else rem)
        rem = _c._binary("floor_divide", rem, a.shape[d])
    return _index.getitem(a, tuple(reversed(parts))), i


def put(a, ind, v, mode="raise"):
    """numpy.put: a.flat[ind] = v, v repeated as needed."""
    if not _is_array(a):
        return _host(np.put, a, ind, v, mode=mode)
    if _c._readonly(a):
        raise ValueError("assignment destination is read-only")
    _c._writable(a)
    _settle(a, v)
    _settle(a, ind)
    if a.size == 0:
        if np.size(ind) if not _is_array(ind) else ind.size:
            raise IndexError("cannot replace elements of an empty array")
        return
    i = ind if _is_array(ind) else np.asarray(ind, dtype=np.intp)
    if mode == "raise" and not _is_array(i) and i.size:
        bad = i[(i < -a.size) | (i >= a.size)]
        if bad.size:
            raise IndexError(f"index {int(bad.flat[0])} is out of bounds for axis 0 with size "
                             f"{a.size}")
    t, flat = _flat_target(a, i, mode)
    if _is_array(ind) and mode == "raise":
        # An index out of range for the flat array names it, as NumPy does.
        _check_gathered(_index.getitem(_c.reshape(_c._iota(0, 1, a.size, "int64", a.queue),
                                                  (-1,)), (flat,)))
    k = t.size
    if k == 0:
        return
    vals = v if _is_array(v) else _c.asarray(np.asarray(v).astype(np.dtype(a.dtype)), None,
                                             a.queue)
    vals = _c.reshape(vals, (-1,))
    if vals.shape[0] == 0:
        return
    if vals.shape[0] != k:
        rep = _c._binary("remainder", _c._iota(0, 1, k, "int64", a.queue), vals.shape[0])
        vals = _index.getitem(vals, (rep,))
    _c._store(a, t, _value(a, _c.reshape(vals, tuple(t.shape)), tuple(t.shape)), None, 0, 0)


def fill_diagonal(a, val, wrap=False):
    """numpy.fill_diagonal: a.flat[:end:step] = val in place (val cycled, cast as NumPy's flat
    assignment casts), written by put through host-side flat positions."""
    if not _is_array(a):
        return _host(np.fill_diagonal, a, val, wrap=wrap)
    if a.ndim < 2:
        raise ValueError("array must be at least 2-d")
    shape = tuple(a.shape)
    end = a.size
    if a.ndim == 2:
        step = shape[1] + 1
        if not wrap:
            end = min(end, shape[1] * shape[1])
    else:
        if len(set(shape)) != 1:
            raise ValueError("All dimensions of input must be of equal length")
        step = 1 + int(np.sum(np.cumprod(shape[:-1])))
    if not _is_array(val):
        dt = np.dtype(a.dtype)
        # A Python scalar out of the dtype's range is NumPy's OverflowError; arrays cast unsafely.
        val = (np.array(val, dtype=dt) if isinstance(val, (bool, int, float)) else
               np.asarray(val).astype(dt))
    put(a, np.arange(0, end, step, dtype=np.intp), val)


def _cyclic(a, vals, pos):
    """vals (flattened, as a's dtype) read at pos modulo its length."""
    v = vals if _is_array(vals) else _c.asarray(np.asarray(vals).astype(np.dtype(a.dtype)), None,
                                                a.queue)
    v = _c.reshape(v if np.dtype(v.dtype) == np.dtype(a.dtype) else _c.astype(v, a.dtype), (-1,))
    return _index.getitem(v, (_c._binary("remainder", pos, v.shape[0]),)), v.shape[0]


def putmask(a, mask, values):
    """numpy.putmask: a.flat[n] = values[n % len(values)] where mask.flat[n]."""
    if not _is_array(a):
        return _host(np.putmask, a, mask, values)
    if _c._readonly(a):
        raise ValueError("assignment destination is read-only")
    m = mask if _is_array(mask) else _c.asarray(np.asarray(mask, dtype=bool), None, a.queue)
    if tuple(m.shape) != tuple(a.shape):
        raise ValueError("putmask: mask and data must be the same size")
    _c._writable(a)
    _settle(a, m)
    _settle(a, values)
    if a.size == 0:
        return
    pos = _c.reshape(_c._iota(0, 1, a.size, "int64", a.queue), tuple(a.shape))
    val, n = _cyclic(a, values, pos)
    if n == 0:
        return
    _c._store(a, a, val, _c.astype(m, "bool"), 0, 1)


def place(arr, mask, vals):
    """numpy.place: the Trues of mask, in order, take vals[0], vals[1], ... cyclically."""
    if not _is_array(arr):
        return _host(np.place, arr, mask, vals)
    if _c._readonly(arr):
        raise ValueError("assignment destination is read-only")
    m = mask if _is_array(mask) else _c.asarray(np.asarray(mask, dtype=bool), None, arr.queue)
    if m.size != arr.size:
        raise ValueError("place: mask and data must be the same size")
    _c._writable(arr)
    _settle(arr, m)
    _settle(arr, vals)
    m = _c.reshape(_c.astype(m, "bool"), tuple(arr.shape))
    nv = vals.size if _is_array(vals) else np.size(vals)
    cs, n = _positions(m)
    if nv == 0:
        if n:
            raise ValueError("Cannot insert from an empty array!")
        return
    val, _ = _cyclic(arr, vals, _slots(cs, tuple(arr.shape)))
    _c._store(arr, arr, val, m, 0, 1)


def put_along_axis(arr, indices, values, axis):
    """numpy.put_along_axis."""
    if not _is_array(arr):
        return _host(np.put_along_axis, arr, indices, values, axis)
    if _c._readonly(arr):
        raise ValueError("assignment destination is read-only")
    _c._writable(arr)
    _settle(arr, indices)
    _settle(arr, values)
    t = _index.take_along_axis(arr, indices, axis)
    if _is_array(indices):
        _check_gathered(t)
    _c._store(arr, t, _value(arr, values, tuple(t.shape)), None, 0, 0)


# ---- scatter-reduce ------------------------------------------------------------------

_AT_OPS = {"add": "ADD", "subtract": "ADD", "multiply": "MUL", "minimum": "MINIMUM",
           "maximum": "MAXIMUM"}


def _complex_at(name, a, indices, v):
    """add.at/subtract.at into a complex array: the parts folded apart (no complex atomics),
    then written back whole."""
    dt = np.dtype(a.dtype)
    if dt.kind != "c":
        raise TypeError(f"Cannot cast ufunc '{name}' output from dtype('complex128') to "
                        f"dtype('{dt}') with casting rule 'same_kind'")
    if name not in ("add", "subtract"):
        raise NotImplementedError(f"lazycl: {name}.at into a complex array")
    rdt = "float32" if dt == np.complex64 else "float64"
    vc = _c.astype(v, dt)
    re, im = _c.astype(_c._unary("real", a), rdt), _c.astype(_c._unary("imag", a), rdt)
    _c.compute(re, im)
    ufunc_at(name, re, indices, _c._unary("real", vc))
    ufunc_at(name, im, indices, _c._unary("imag", vc))
    return setitem(a, Ellipsis, _c._binary("complex", re, im))


def ufunc_at(name, a, indices, b=None):
    """np.<name>.at(a, indices, b): unbuffered, so repeated indices all count."""
    if name not in _AT_OPS:
        raise NotImplementedError(f"lazycl implements ufunc.at for {', '.join(_AT_OPS)}")
    if b is None:
        raise TypeError(f"second operand needed for ufunc {name}")
    if _c._readonly(a):
        raise ValueError("output array is read-only")
    dt = np.dtype(a.dtype)
    _c._writable(a, "output array is read-only")
    _settle(a, b)
    _settle(a, indices)
    t = _index.getitem(a, indices) if not isinstance(indices, slice) else a[indices]
    if any(_is_array(k) for k in _key_items(indices)):
        _check_gathered(t)
    v = b if _is_array(b) else _c.asarray(np.asarray(b), None, a.queue)
    if dt.kind == "c" or np.dtype(v.dtype).kind == "c":
        return _complex_at(name, a, indices, v)
    if name == "subtract":
        v = _c._unary("negative", v) if np.dtype(v.dtype) != np.bool_ else v
    if dt.itemsize < 4:
        # No atomics below 32 bits: fold into a wide copy, then write it back (whole array).
        wide = {"b": "int32", "i": "int32", "u": "uint32"}[dt.kind]
        w = _c.astype(a, wide)
        _c.compute(w)
        ufunc_at(name if name != "subtract" else "add", w, indices, _c.astype(v, wide))
        return setitem(a, Ellipsis, _c.astype(w, dt))
    val = _value(a, v, tuple(t.shape))
    _c._store(a, t, val, None, _c._op_number(_AT_OPS[name]), 1)


def bincount(x, weights=None, minlength=0):
    """numpy.bincount by atomic adds into the bins (int32 counts, float64 weights).

    The length is max(x) + 1 or minlength, whichever is larger. With a minlength, the count runs
    first into minlength bins, each index checked in the store kernel (a negative one made out of
    range); only if some index falls outside does a min/max pass size the result and the count run
    again. Without one, the min/max pass (one launch) comes first."""
    x = x if _is_array(x) else _c.asarray(np.asarray(x), None, None)
    if x.ndim != 1:
        raise ValueError("object too deep for desired array" if x.ndim > 1 else
                         "object of too small depth for desired array")
    if np.dtype(x.dtype).kind not in "iu" and not (x.size == 0):
        raise TypeError("Cannot cast array data from dtype('float64') to dtype('int64') "
                        "according to the rule 'safe'")
    minlength = operator.index(minlength)
    if minlength < 0:
        raise ValueError("'minlength' must not be negative")
    if np.dtype(x.dtype) == np.uint64:
        x = _c.astype(x, "int64")                # NumPy's cast to intp: past 2**63 - 1, negative
    q = x.queue
    if weights is None:
        acc, vals = "int32", _c._full(1, (x.size,), "int32", q)
    else:
        w = weights if _is_array(weights) else _c.asarray(np.asarray(weights), None, q)
        if tuple(w.shape) != tuple(x.shape):
            raise ValueError("The weights and list don't have the same length.")
        if np.dtype(w.dtype).kind == "c":
            raise TypeError(f"Cannot cast array data from dtype('{np.dtype(w.dtype)}') to "
                            "dtype('float64') according to the rule 'safe'")
        acc, vals = "float64", _c.astype(w, "float64")
    if x.size and minlength:
        try:
            return _count(x, vals, minlength, acc, weights is None, True)
        except IndexError:
            pass                                 # a bin past minlength, or a negative
    n = minlength
    if x.size:
        lo, hi = _c._reduce("min", x, (0,)), _c._reduce("max", x, (0,))
        _c.compute(lo, hi)                       # sibling reductions: one launch
        if int(np.asarray(lo)) < 0:
            raise ValueError("'list' argument must have no negative elements")
        n = max(int(np.asarray(hi)) + 1, minlength)
    return _count(x, vals, n, acc, weights is None, False)


def _count(x, vals, n, acc, counts, guard):
    """vals added into n bins at x (guard: a negative x is out of range, not wrapped)."""
    out = _c._full(0, (n,), acc, x.queue)
    _c._writable(out)
    if x.size:
        idx = _c.where(_c._binary("less", x, 0), n, x) if guard else x
        _c._store(out, _c._gather(out, idx, 0, 0), vals, None, _c._op_number("ADD"), 1)
    return _c.astype(out, "int64") if counts else out


__all__ = [
    "copyto", "put", "putmask", "place", "put_along_axis", "fill_diagonal", "bincount",
]
