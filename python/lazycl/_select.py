"""Selection on top of the sort: top_k, partition, argpartition, median, nanmedian, quantile,
percentile.

Each sorts along the axis (_sort.sort / _sort.argsort: a stable radix sort, NaN last) and reads the
positions it needs with gathers, so a pending key is computed inside the sort's first pass and
the values are read back by index (``top_k(abs(a), k)`` writes no ``abs(a)``). A full sort
satisfies NumPy's partition contract (the kth element in its sorted place, none larger before
it, none smaller after it); NumPy leaves the order inside the two sides unspecified.
"""
import collections
import operator
import warnings

import numpy as np

from . import (
    _compact, _creation, _elementwise as _ew, _lazycl as _c, _reductions as _red, _ufuncs as _uf,
    _write,
)
from ._index import take_along_axis
from ._join import stack
from ._sort import argsort, sort

from ._util import AxisError, as_array as _as, norm_axis as _axis
from ._views import reduce_axes as _reduce_axes

TopK = collections.namedtuple("TopK", ["values", "indices"])


def _take(a, idx, axis):
    """a[..., idx, ...] along axis with idx of a's ndim (take_along_axis)."""
    return take_along_axis(a, idx, axis)


def _slice_axis(x, axis, start, stop, step=1):
    key = (slice(None),) * axis + (slice(start, stop, step),)
    return x[key]


def _ends(order, axis, k, largest):
    """Of an ascending order along axis: the last k, largest first, or the first k."""
    n = order.shape[axis]
    if largest:
        return _slice_axis(order, axis, n - 1, n - 1 - k if n - 1 - k >= 0 else None, -1)
    return _slice_axis(order, axis, 0, k)


def top_k(x, k, /, axis=-1, *, largest=True, sorted=True):
    """(values, indices) of the k largest (or smallest) elements along axis, as torch.topk and
    jax.lax.top_k; NaN ranks above +inf, as in NumPy's sort order. sorted=False is accepted
    (the result is sorted anyway)."""
    x = _as(x)
    if x.ndim == 0:
        raise ValueError("top_k needs an array of at least 1 dimension")
    if np.dtype(x.dtype).kind == "c":
        raise NotImplementedError("lazycl: top_k of a complex array (sort it: lazycl.sort "
                                  "orders complex numbers as NumPy does)")
    ax = _axis(axis, x.ndim)
    n = x.shape[ax]
    k = operator.index(k)
    if not 0 <= k <= n:
        raise ValueError(f"k (={k}) must be between 0 and the axis length ({n})")
    if 0 < k <= _TOPK_MAX and np.dtype(x.dtype).kind in "biuf" and x.size:
        # A selection kernel (codegen/topk.c): the k best of each row chunk, merged; the key
        # computed inside it, the values read back by index.
        top = _c._argtopk(x, ax, k, int(bool(largest)))
        return TopK(_take(x, top, ax), top)
    if x.ndim == 1 and 0 < k <= n // 256 and n >= _SELECT_MIN_N and x.dtype.kind in "iuf":
        r = _select_top(x, k, largest)
        if r is not None:
            return r
    idx = argsort(x, axis=ax)
    top = _ends(idx, ax, k, largest)
    if k == 0:
        top = _c._full(0, tuple(x.shape[:ax]) + (0,) + tuple(x.shape[ax + 1:]), "int64", x.queue)
    return TopK(_take(x, top, ax), top)


_TOPK_MAX = 64            # k up to this: the selection kernel (LC_TOPK_MAX)
_SELECT_MIN_N = 1 << 16   # shorter: one sort
_SELECT_BINS = 2048


def _select_top(x, k, largest):
    """top_k of a long 1-d x by selection, not a full sort: a threshold t found by histograms
    (the finite range cut into 2048 bins by one fused count, the bin holding the k-th value cut
    again until few values pass it), the elements past t compacted in index order and only
    those sorted. Every other element lies on one side of all of them, so their stable order
    is a run of the whole array's: the result is the full sort's, ties and NaNs included. None
    when the values do not narrow (many equal ones) or NaNs would be needed: sort it all."""
    n, B = x.shape[0], _SELECT_BINS
    cap = max(8 * k, min(1 << 18, n >> 4))   # candidates sorted (a sort of 2^18 costs less
                                            # than another pass over a large n)
    isf = x.dtype.kind == "f"
    if isf:
        fin = _uf.isfinite(x)
        stats = [_red.sum(_uf.isnan(x)), _red.sum(x == np.inf), _red.sum(x == -np.inf),
                 _red.min(_ew.where(fin, x, np.inf)), _red.max(_ew.where(fin, x, -np.inf))]
        _creation.compute(*stats)
        nan, pinf, ninf, a, b = (int(stats[0]), int(stats[1]), int(stats[2]), float(stats[3]),
                                 float(stats[4]))
        if a > b:                                     # no finite value
            return None
    else:
        stats = [_red.min(x), _red.max(x)]
        _creation.compute(*stats)
        nan, pinf, ninf, a, b = 0, 0, 0, float(stats[0]), float(stats[1])
    if largest:
        if nan >= k:
            return None if nan > cap else _select_past(x, k, largest, None, isf)
        outside, want = nan + pinf, k - nan - pinf       # values above the range, still wanted
    else:
        if n - nan < k:
            return None
        outside, want = ninf, k - ninf
    if want <= 0:
        t = np.inf if largest else -np.inf
        return None if outside > cap else _select_past(x, k, largest, t, isf)
    for _ in range(8):
        if not b > a:
            break
        scale = B / (b - a)
        inside = (x >= a) & (x <= b)
        bins = _ew.where(inside, _ew.clip(_uf.floor((x - a) * scale), 0, B - 1), B)
        h = np.asarray(_write.bincount(bins.astype(np.int32), minlength=B + 1))[:B]
        c = np.cumsum(h[::-1] if largest else h)
        j = int(np.searchsorted(c, want))            # the bin (from the wanted end) of value k
        if j >= B:                                   # counts at the edges moved: sort it all
            return None
        passing = outside + int(c[j])
        at = B - 1 - j if largest else j                 # the bin's index from the low end
        lo_edge, hi_edge = a + at / scale, a + (at + 1) / scale
        if passing <= cap:
            return _select_past(x, k, largest, lo_edge if largest else hi_edge, isf)
        outside += int(c[j - 1]) if j > 0 else 0
        want = k - outside
        a, b = lo_edge, hi_edge
    return None


def _select_past(x, k, largest, t, isf):
    """The top k among the elements at or past t (largest: >= t or NaN; else <= t), which
    number at least k (else None)."""
    if t is None:
        m = _uf.isnan(x)
    else:
        # t as x's dtype, rounded outwards (a few more candidates, never fewer)
        if isf:
            tt = x.dtype.type(t)
            if (tt > t) if largest else (tt < t):
                tt = np.nextafter(tt, x.dtype.type(-np.inf if largest else np.inf))
        else:
            info = np.iinfo(x.dtype)
            tt = int(np.clip(np.floor(t) if largest else np.ceil(t), info.min, info.max))
        m = (x >= tt) if largest else (x <= tt)
        if largest and isf:
            m = m | _uf.isnan(x)
    nz = _compact.nonzero(m)[0]
    c = nz.shape[0]
    if c < k:
        return None
    vals = x[nz]
    order = argsort(vals)
    pos = _ends(order, 0, k, largest)
    return TopK(vals[pos], nz[pos])


def _kth(kth, n):
    k = np.asarray(kth)
    if k.dtype.kind not in "iu" and k.size:
        raise TypeError("Partition index must be integer")
    ks = [int(v) for v in k.reshape(-1)]
    for v in ks:
        w = v + n if v < 0 else v
        if not 0 <= w < n:
            raise ValueError(f"kth(={w if v < 0 else v}) out of bounds ({n})")
    return ks


def _prep_partition(a, kth, axis, kind, order):
    a = _as(a)
    if kind != "introselect":
        raise ValueError(f"select kind must be 'introselect' (got {kind!r})")
    if order is not None:
        raise ValueError("Cannot specify order when the array has no fields.")
    if axis is None:
        a, ax = _c.reshape(a, (a.size,)), 0
    else:
        if a.ndim == 0:
            raise AxisError(operator.index(axis), 0)
        ax = _axis(axis, a.ndim)
    _kth(kth, a.shape[ax])
    return a, ax


def partition(a, kth, axis=-1, kind="introselect", order=None):
    """numpy.partition (by a full stable sort, which satisfies its contract)."""
    a, ax = _prep_partition(a, kth, axis, kind, order)
    return sort(a, axis=ax)


def argpartition(a, kth, axis=-1, kind="introselect", order=None):
    """numpy.argpartition (by a full stable argsort)."""
    a, ax = _prep_partition(a, kth, axis, kind, order)
    return argsort(a, axis=ax)


# ---- order statistics --------------------------------------------------------------------

def _keepdims(r, a, axes, keepdims, qshape=()):
    if not keepdims:
        return r
    shape = list(qshape) + [1 if d in axes else a.shape[d] for d in range(a.ndim)]
    return _c.reshape(r, tuple(shape))


def _float_dtype(dt):
    return dt if dt.kind == "f" else np.dtype(np.float64)


def _at(s, pos):
    """s[..., pos] for an int64 array pos of s's shape but the last axis (per row)."""
    p = _c.reshape(pos, tuple(pos.shape) + (1,))
    r = _take(s, p, s.ndim - 1)
    return _c.reshape(r, tuple(pos.shape))


def _lerp(a, b, t):
    """NumPy's _lerp: a + (b - a) t, or b - (b - a)(1 - t) where t >= 0.5."""
    d = _c._binary("subtract", b, a)
    lo = _c._binary("add", a, _c._binary("multiply", d, t))
    if not isinstance(t, float):
        hi = _c._binary("subtract", b, _c._binary("multiply", d, _c._binary("subtract", 1.0, t)))
        return _c.where(_c._binary("greater_equal", t, 0.5), hi, lo)
    return _c._binary("subtract", b, _c._binary("multiply", d, 1.0 - t)) if t >= 0.5 else lo


def _quantile_rows(s, q, n, count, dt):
    """The linear-method quantiles q (host array, in [0, 1]) of each row of the sorted s with
    `count` valid elements per row (an int64 array of the kept shape, or None for all n)."""
    out = []
    for qv in np.asarray(q, dtype=np.float64).reshape(-1):
        if count is None:
            v = qv * (n - 1)
            lo, hi = int(np.floor(v)), int(np.ceil(v))
            t = v - lo
            a = _slice_axis(s, s.ndim - 1, lo, lo + 1)
            b = _slice_axis(s, s.ndim - 1, hi, hi + 1)
            a = _c.reshape(a, tuple(s.shape[:-1]))
            b = _c.reshape(b, tuple(s.shape[:-1]))
            tt = np.asarray(t, dtype=dt)
            r = a if t == 0 else _lerp(a, b, float(tt))
        else:
            v = _c._binary("multiply", _c.astype(_c._binary("subtract", count, 1), "float64"), qv)
            lo = _c.astype(_c._unary("floor", v), "int64")
            hi = _c.astype(_c._unary("ceil", v), "int64")
            zero = _c._binary("maximum", lo, 0)
            a = _at(s, zero)
            b = _at(s, _c._binary("maximum", hi, 0))
            t = _c.astype(_c._binary("subtract", v, _c.astype(lo, "float64")), dt.name)
            r = _lerp(a, b, t)
        out.append(_c.astype(r, dt.name) if np.dtype(r.dtype) != dt else r)
    return out


def _complex_median(a, axis, keepdims):
    """numpy.median of complex a: the middle of NumPy's sorted order (the mean of the two
    middles); the first value with a NaN part where a slice holds one."""
    r2, kept, axes = _reduce_axes(a, axis)
    n = r2.shape[-1]
    if n == 0:
        warnings.warn("Mean of empty slice", RuntimeWarning, stacklevel=3)
        return _c._full(complex(np.nan, np.nan), kept, np.dtype(a.dtype).name, a.queue)
    s = sort(r2, axis=-1)
    mid = s[..., n // 2] if n % 2 else (s[..., n // 2 - 1] + s[..., n // 2]) * 0.5
    last = s[..., n - 1]
    r = _c.where(_c._unary("isnan", last), last, mid)
    return _keepdims(r, a, axes, keepdims)


def _order_stat(a, q, axis, keepdims, nan_aware, scalar_q):
    a = _as(a)
    if np.dtype(a.dtype).kind == "c":        # only median and nanmedian get here
        if nan_aware:
            raise NotImplementedError("lazycl: nanmedian of a complex array")
        return _complex_median(a, axis, keepdims)
    dt = _float_dtype(np.dtype(a.dtype))
    if a.size == 0:
        warnings.warn("Mean of empty slice", RuntimeWarning, stacklevel=3)
    r2, kept, axes = _reduce_axes(a, axis)
    n = r2.shape[-1]
    if n == 0:
        qs = np.asarray(q).shape
        return _c._full(np.nan, qs + kept, dt.name, a.queue)
    s = sort(_c.astype(r2, dt.name) if np.dtype(r2.dtype) != dt else r2, axis=-1)
    if np.dtype(a.dtype).kind == "f":
        isn = _c._unary("isnan", s)
        nans = _c._reduce("sum", _c.astype(isn, "int64"), (s.ndim - 1,))
    else:
        nans = None
    if nan_aware and nans is not None:
        count = _c._binary("subtract", n, nans)
        rows = _quantile_rows(s, q, n, count, dt)
        allnan = _c._binary("equal", count, 0)
        rows = [_c.where(allnan, np.nan, r) for r in rows]
    else:
        rows = _quantile_rows(s, q, n, None, dt)
        if nans is not None:                      # any NaN in a slice makes its result NaN
            has = _c._binary("greater", nans, 0)
            rows = [_c.where(has, np.nan, r) for r in rows]
    rows = [_c.astype(r, dt.name) if np.dtype(r.dtype) != dt else r for r in rows]
    if scalar_q:
        r = rows[0]
        return _keepdims(r, a, axes, keepdims)
    qshape = np.asarray(q).shape
    r = _c.reshape(stack(rows, axis=0), qshape + kept) if rows else \
        _c._full(0, qshape + kept, dt.name, a.queue)
    return _keepdims(r, a, axes, keepdims, qshape)


def _check_out(out):
    if out is not None:
        raise TypeError("lazycl does not take out= here: assign the result (out[...] = ...)")


def median(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    """numpy.median: the middle of the sorted slice (the mean of the two middles); NaN where a
    slice holds a NaN."""
    _check_out(out)
    return _order_stat(a, 0.5, axis, keepdims, False, True)


def nanmedian(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    """numpy.nanmedian: the median of each slice's non-NaN values (NaN for an all-NaN one)."""
    _check_out(out)
    return _order_stat(a, 0.5, axis, keepdims, True, True)


def _quantiles(a, q, hi, axis, out, method, keepdims, weights, name):
    """quantile (hi = 1) and percentile (hi = 100): q checked and scaled to [0, 1]."""
    _check_out(out)
    if np.dtype(_as(a).dtype).kind == "c":
        raise TypeError("a must be an array of real numbers")
    if method != "linear":
        names = ['inverted_cdf', 'averaged_inverted_cdf', 'closest_observation',
                 'interpolated_inverted_cdf', 'hazen', 'weibull', 'linear', 'median_unbiased',
                 'normal_unbiased', 'lower', 'higher', 'midpoint', 'nearest']
        if method in names:
            raise NotImplementedError(f"lazycl computes the 'linear' method only (got {method!r})")
        raise ValueError(f"{method!r} is not a valid method. Use one of: "
                         f"dict_keys({names!r})")
    if weights is not None:
        raise NotImplementedError(f"lazycl: {name} with weights= is not supported")
    qa = np.asarray(q, dtype=np.float64)
    if np.any((qa < 0) | (qa > hi)) or np.any(np.isnan(qa)):
        raise ValueError(f"{name.capitalize()}s must be in the range [0, {hi}]")
    return _order_stat(a, qa / hi if hi != 1 else qa, axis, keepdims, False, np.ndim(q) == 0)


def quantile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
             keepdims=False, *, weights=None):
    """numpy.quantile with the default linear method (NumPy's own interpolation formula)."""
    return _quantiles(a, q, 1, axis, out, method, keepdims, weights, "quantile")


def percentile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
               keepdims=False, *, weights=None):
    """numpy.percentile with the default linear method."""
    return _quantiles(a, q, 100, axis, out, method, keepdims, weights, "percentile")


__all__ = [
    "argpartition", "median", "nanmedian", "partition", "percentile", "quantile", "top_k",
]
