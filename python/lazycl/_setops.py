"""Set routines and searching with NumPy's semantics: unique (and the array API's unique_all,
unique_counts, unique_inverse, unique_values), searchsorted, digitize, isin, intersect1d,
union1d, setdiff1d and lexsort.

Everything is built from the stable sort (_sort.py, NaN last), gathers, elementwise ops, the
scan and the compaction of x[mask] (_compact._compact); no data goes to the host, only a count
that sizes a result (read by the compaction) and, for digitize and a device `sorter`, a few
scalars that decide an error.

- unique: the flattened input is sorted (argsorted when indices are asked for: the sort is
  stable, so the first of equal elements is the first occurrence); a flag marks each element
  that differs from its predecessor (NaNs equal under equal_nan); the compaction of the
  positions of the flags gives the start of every run, and the values, first indices and
  counts are gathers at those starts. The inverse is the running count of the flags, minus
  one, written back through the permutation by one store.
- searchsorted: a branchless binary search, elementwise over v: p moves up by s where the
  element p + s - 1 of the sorted array is below v (or not above it, for side='right'), for s
  the powers of two from the largest <= len(a) down to 1. Every gather index is clamped into
  the array, and a step that would pass its end is refused by comparing p + s with len(a);
  NaN sorts last, as in NumPy. Each step is one launch (the next step's gather reads p), and
  its kernel does not depend on len(a) or the side (a 0-d operand), so one search compiles
  two kernels per dtype and layout of v.
- isin, setdiff1d: the sorted test elements are searched (a few test elements: compared
  directly); intersect1d follows NumPy's algorithm (a sort of both inputs together, equal
  neighbours kept); union1d is unique of both; lexsort is one stable argsort per key, the
  last key sorted last.
"""
import collections

import numpy as np

from . import _lazycl as _c
from . import _compact
from ._join import concatenate
from ._sort import argsort as _argsort, sort as _sort
from ._util import (
    as_array as _as, is_array as _is_array, norm_axis as _norm_axis, queue_of as _queue_of,
)


UniqueAllResult = collections.namedtuple("UniqueAllResult",
                                         ["values", "indices", "inverse_indices", "counts"])
UniqueCountsResult = collections.namedtuple("UniqueCountsResult", ["values", "counts"])
UniqueInverseResult = collections.namedtuple("UniqueInverseResult",
                                             ["values", "inverse_indices"])

#: Up to this many test elements, isin compares with each (no sort, no search).
ISIN_LINEAR_MAX = 8


# ---- small helpers ------------------------------------------------------------------------

def _flat(x):
    return _c.reshape(x, (x.size,))


def _cast(x, dt):
    return x if np.dtype(x.dtype) == dt else _c.astype(x, dt)


def _iota(n, q):
    return _c._iota(0, 1, n, "int64", q)


def _b(op, a, b):
    return _c._binary(op, a, b)


def _i64(x):
    return _c.astype(x, "int64")


def _take(src, idx):
    """src (1-d) read at idx (1-d, in range)."""
    return _c._gather(src, idx, 0, 0)


def _empty_int(shape, q):
    return _c._full(0, tuple(shape), "int64", q)


def _is_float(x):
    return np.dtype(x.dtype).kind == "f"


def _read(*xs):
    """Several 0-d results as Python scalars (one launch)."""
    _c.compute(*xs)
    return [np.asarray(x)[()].item() for x in xs]


# ---- unique -------------------------------------------------------------------------------

def _run_flags(s, equal_nan):
    """True where the sorted s starts a run of equal elements (its first element, and every
    element that differs from its predecessor; NaNs are equal to each other under equal_nan)."""
    n = s.shape[0]
    i = _iota(n, s.queue)
    prev = _take(s, _b("maximum", _b("subtract", i, 1), 0))
    diff = _b("not_equal", s, prev)
    if _is_float(s):
        # equal_nan as a 0-d operand: both settings run the same kernels
        both = _b("logical_and", _c._unary("isnan", s), _c._unary("isnan", prev))
        both = _b("logical_and", both, _c._full(bool(equal_nan), (), "bool", s.queue))
        diff = _b("logical_and", diff, _c._unary("logical_not", both))
    return _b("logical_or", _b("equal", i, 0), diff)


def _unique1d(flat, ret_index, ret_inverse, ret_counts, equal_nan, inv_shape):
    """The tuple NumPy's _unique1d returns, for a 1-d lazycl array."""
    n, q = flat.shape[0], flat.queue
    if n == 0:
        out = [_c._full(0, (0,), np.dtype(flat.dtype).name, q)]
        out += [_empty_int((0,), q)] if ret_index else []
        out += [_empty_int(inv_shape, q)] if ret_inverse else []
        out += [_empty_int((0,), q)] if ret_counts else []
        return tuple(out)
    idx = None
    if ret_index or ret_inverse:
        idx = _argsort(flat)
        s = _take(flat, idx)
        _c.compute(idx, s)              # one sort; every later reader reads these buffers
    else:
        s = _sort(flat)
        _c.compute(s)
    flags = _run_flags(s, equal_nan)
    if not (ret_index or ret_inverse or ret_counts):
        return (_compact._compact(s, flags),)
    starts = _compact._compact(_iota(n, q), flags)
    m = starts.shape[0]
    out = [_take(s, starts)]
    if ret_index:
        out.append(_take(idx, starts))
    if ret_inverse:
        rank = _b("subtract", _c._scan("cumsum", _i64(flags), 0), 1)
        inv = _c._empty(flat, (n,), "int64")
        _c._store(inv, _take(inv, idx), rank, None, 0, 1)    # inv[idx] = rank
        out.append(_c.reshape(inv, tuple(inv_shape)))
    if ret_counts:
        j1 = _b("add", _iota(m, q), 1)
        nxt = _c.where(_b("less", j1, m), _take(starts, _b("minimum", j1, m - 1)), n)
        out.append(_b("subtract", nxt, starts))
    return tuple(out)


def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None, *,
           equal_nan=True, sorted=True):  # noqa: A002 (NumPy's name)
    """numpy.unique for axis=None (or a 1-d input): the sorted unique values and, as asked,
    the first indices, the inverse (of ar's shape) and the counts. The values are always
    sorted (sorted=False allows any order)."""
    ar = _as(ar)
    if axis is not None and ar.ndim != 1:
        _norm_axis(axis, ar.ndim)
        raise NotImplementedError("lazycl's unique supports axis=None (or a 1-d input) only; "
                                  "unique rows or columns (axis=int) are not implemented")
    if axis is not None:
        _norm_axis(axis, 1)
    ret = _unique1d(_flat(ar), return_index, return_inverse, return_counts, equal_nan,
                    tuple(ar.shape))
    return ret[0] if len(ret) == 1 else ret


def unique_all(x):
    """The array API's unique_all: values, first indices, inverse (x's shape), counts;
    NaNs are distinct."""
    return UniqueAllResult(*unique(x, True, True, True, equal_nan=False))


def unique_counts(x):
    return UniqueCountsResult(*unique(x, False, False, True, equal_nan=False))


def unique_inverse(x):
    return UniqueInverseResult(*unique(x, False, True, False, equal_nan=False))


def unique_values(x):
    """The array API's unique_values (sorted here; NumPy's order is unspecified)."""
    return unique(x, equal_nan=False)


# ---- searching ------------------------------------------------------------------------------

def _before(x, v, right):
    """Elementwise: x sorts before v (side='left': x < v; 'right': x <= v), NaN last. `right`
    is a 0-d bool array, so both sides run the same kernel."""
    lt = _b("less", x, v)
    eq = _b("equal", x, v)
    if _is_float(x):
        nx, nv = _c._unary("isnan", x), _c._unary("isnan", v)
        lt = _b("logical_or", lt, _b("logical_and", nv, _c._unary("logical_not", nx)))
        eq = _b("logical_or", eq, _b("logical_and", nx, nv))
    return _b("logical_or", lt, _b("logical_and", eq, right))


def _search(a, srt, v, right):
    """For each element of v, the number of elements of the sorted 1-d a (read through srt,
    if given) that sort before it: a branchless binary search of floor(log2(len(a))) + 1
    steps, each a gather along v's last axis at an index clamped into a."""
    n = a.shape[0]
    q = v.queue
    lead = (1,) * (v.ndim - 1)
    a2 = _c.reshape(a, lead + (n,))
    s2 = None if srt is None else _c.reshape(srt, lead + (n,))
    last = v.ndim - 1
    p = _c._full(0, tuple(v.shape), "int64", q)
    rt = _c._full(bool(right), (), "bool", q)
    s = 1
    while s * 2 <= n:
        s *= 2
    while n and s:
        cand = _b("add", p, s)
        i = _b("minimum", _b("subtract", cand, 1), n - 1)
        if s2 is not None:
            i = _c._gather(s2, i, last, last)
        ok = _b("logical_and", _b("less_equal", cand, n),
                _before(_c._gather(a2, i, last, last), v, rt))
        p = _b("add", p, _b("multiply", _i64(ok), s))
        s //= 2
    return p


def _side(side):
    if isinstance(side, str):
        if side == "left":
            return False
        if side == "right":
            return True
        if side[:1].lower() in ("l", "r"):
            raise ValueError("search side must be one of 'left' or 'right'")
    raise ValueError(f"search side must be 'left' or 'right' (got {side!r})")


def _check_1d(a):
    if a.ndim == 0:
        raise ValueError("object of too small depth for desired array")
    if a.ndim > 1:
        raise ValueError("object too deep for desired array")


def _sorter(sorter, n, q):
    """sorter as a 1-d lazycl integer array of n entries, each in [0, n) (checked: NumPy raises
    only for an entry its search reads; here any entry out of range raises)."""
    srt = _as(sorter, q)
    sdt = np.dtype(srt.dtype)
    if sdt.kind not in "iu":
        raise TypeError("sorter must only contain integers")
    if not np.can_cast(sdt, np.intp, "safe"):
        raise ValueError("could not parse sorter argument")
    if srt.ndim != 1:
        raise TypeError("could not parse sorter argument")
    if srt.shape[0] != n:
        raise ValueError("sorter.size must equal a.size")
    if n:
        lo, hi = _read(_c._reduce("min", srt, (0,)), _c._reduce("max", srt, (0,)))
        if lo < 0 or hi >= n:
            raise ValueError("Sorter index out of range.")
    return srt


def _search_dtype(a, v):
    vdt = np.dtype(v.dtype) if _is_array(v) else np.asarray(v).dtype
    return np.promote_types(np.dtype(a.dtype), vdt)


def searchsorted(a, v, side="left", sorter=None):
    """numpy.searchsorted: int64 indices of v's shape that keep a sorted (a 1-d, ascending, or
    sorted by `sorter`), compared in the common dtype of a and v, NaN last."""
    right = _side(side)
    q = _queue_of(a, v, sorter)
    a = _as(a, q)
    _check_1d(a)
    n = a.shape[0]
    srt = None if sorter is None else _sorter(sorter, n, a.queue)
    cdt = _search_dtype(a, v)
    va = _cast(_as(v, a.queue), cdt)
    if va.ndim == 0:
        return _c.reshape(_search(_cast(a, cdt), srt, _c.reshape(va, (1,)), right), ())
    return _search(_cast(a, cdt), srt, va, right)


def _monotonicity(bins):
    """NumPy's check_array_monotonic over bins (as float64): 1 increasing (or constant),
    -1 decreasing, 0 neither. It reads four scalars."""
    n = bins.shape[0]
    if n <= 1:
        return 1
    d = _c.astype(bins, "float64")
    ne = _b("not_equal", d[1:], d[0])
    i0 = _b("add", _c._reduce("argmax", ne, (0,)), 1)           # the first element != d[0]
    inc = _b("less", d[0], _take(d, _c.reshape(i0, (1,))))
    after = _b("greater", _b("add", _iota(n - 1, bins.queue), 1), i0)
    up = _c._reduce("any", _b("logical_and", after, _b("greater", d[:-1], d[1:])), (0,))
    down = _c._reduce("any", _b("logical_and", after, _b("less", d[:-1], d[1:])), (0,))
    has, inc, up, down = _read(_c._reduce("any", ne, (0,)), _c.reshape(inc, ()), up, down)
    if not has:
        return 1
    if inc:
        return 0 if up else 1
    return 0 if down else -1


def digitize(x, bins, right=False):
    """numpy.digitize: the index of the bin of each x (int64), for increasing or decreasing
    bins."""
    q = _queue_of(x, bins)
    x = _as(x, q)
    bins = _as(bins, x.queue)
    _check_1d(bins)
    mono = _monotonicity(bins)
    if mono == 0:
        raise ValueError("bins must be monotonically increasing or decreasing")
    side = "left" if right else "right"
    if mono == -1:
        n = bins.shape[0]
        return _b("subtract", n, searchsorted(bins[::-1], x, side=side))
    return searchsorted(bins, x, side=side)


# ---- set operations -------------------------------------------------------------------------

def _isin_flat(e, t, invert):
    """Elementwise over e (1-d): e is one of t (1-d); both in their common dtype."""
    cdt = np.promote_types(np.dtype(e.dtype), np.dtype(t.dtype))
    e, t = _cast(e, cdt), _cast(t, cdt)
    m = t.shape[0]
    if m == 0:
        found = _c._full(False, tuple(e.shape), "bool", e.queue)
    elif m <= ISIN_LINEAR_MAX:
        found = None
        for j in range(m):
            hit = _b("equal", e, t[j])
            found = hit if found is None else _b("logical_or", found, hit)
    else:
        st = _sort(t)
        _c.compute(st)
        k = _search(st, None, e, False)
        found = _b("logical_and", _b("less", k, m),
                   _b("equal", _take(st, _b("minimum", k, m - 1)), e))
    return _c._unary("logical_not", found) if invert else found


def isin(element, test_elements, assume_unique=False, invert=False, *, kind=None):
    """numpy.isin: a bool array of element's shape, True where the element is among
    test_elements (NaN never is). `kind` is checked as NumPy checks it; the method is always a
    search of the sorted test elements."""
    if kind not in (None, "sort", "table"):
        raise ValueError(f"Invalid kind: {kind!r}. Please use None, 'sort' or 'table'.")
    q = _queue_of(element, test_elements)
    e = _as(element, q)
    t = _as(test_elements, e.queue)
    if kind == "table" and not all(np.dtype(z.dtype).kind in "iub" for z in (e, t)):
        raise ValueError("The 'table' method is only supported for boolean or integer arrays. "
                         "Please select 'sort' or None for kind.")
    return _c.reshape(_isin_flat(_flat(e), _flat(t), invert), tuple(e.shape))


def _concat(a, b):
    return concatenate((a, b))


def intersect1d(ar1, ar2, assume_unique=False, return_indices=False):
    """numpy.intersect1d, by NumPy's algorithm: the two (unique) inputs sorted together, and each
    element equal to its successor kept."""
    q = _queue_of(ar1, ar2)
    a1 = _as(ar1, q)
    a2 = _as(ar2, a1.queue)
    if not assume_unique:
        if return_indices:
            a1, ind1 = unique(a1, return_index=True)
            a2, ind2 = unique(a2, return_index=True)
        else:
            a1, a2 = unique(a1), unique(a2)
    else:
        a1, a2 = _flat(a1), _flat(a2)
    aux = _concat(a1, a2)
    n, q = aux.shape[0], aux.queue
    if n <= 1:
        out = _c._full(0, (0,), np.dtype(aux.dtype).name, q)
        return (out, _empty_int((0,), q), _empty_int((0,), q)) if return_indices else out
    if return_indices:
        order = _argsort(aux)
        aux = _take(aux, order)
        _c.compute(order, aux)
    else:
        aux = _sort(aux)
        _c.compute(aux)
    mask = _b("equal", aux[1:], aux[:-1])
    if not return_indices:
        return _compact._compact(aux[:-1], mask)
    pos = _compact._compact(_iota(n - 1, q), mask)
    i1 = _take(order, pos)
    i2 = _b("subtract", _take(order, _b("add", pos, 1)), a1.shape[0])
    if not assume_unique:
        i1, i2 = _take(ind1, i1), _take(ind2, i2)
    return _take(aux, pos), i1, i2


def union1d(ar1, ar2):
    """numpy.union1d: the sorted unique values of both inputs."""
    q = _queue_of(ar1, ar2)
    a1 = _as(ar1, q)
    return unique(_concat(_flat(a1), _flat(_as(ar2, a1.queue))))


def setdiff1d(ar1, ar2, assume_unique=False):
    """numpy.setdiff1d: the (unique, sorted unless assume_unique) values of ar1 not in ar2."""
    q = _queue_of(ar1, ar2)
    a1 = _as(ar1, q)
    a2 = _flat(_as(ar2, a1.queue))
    a1 = _flat(a1) if assume_unique else unique(a1)
    if a1.shape[0] == 0:
        return _c._full(0, (0,), np.dtype(a1.dtype).name, a1.queue)
    return _compact._compact(a1, _isin_flat(a1, a2, True))


# ---- lexsort --------------------------------------------------------------------------------

__all__ = [
    "digitize", "intersect1d", "isin", "searchsorted", "setdiff1d", "union1d", "unique",
    "unique_all", "unique_counts", "unique_inverse", "unique_values",
]
