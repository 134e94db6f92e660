"""histogram, histogram2d, histogramdd with NumPy's semantics, on the scatter-add store.

Each is one bin-count store kernel (graph/store.c, codegen/store.c) over the data: the bin of
every element is an elementwise expression computed inside that kernel, out-of-range (and NaN)
elements are left out by the store's predicate, and the counts are folded in atomically (int32
atomic_add for counts, a compare-and-swap loop for weights). Before it, an autodetected range
reads the data's min and max (one launch for every dimension together); the edges are small
and made on the host, as NumPy makes them (np.linspace), then uploaded.

How the bin is found:
- histogram with an integer `bins` follows NumPy's fast path exactly: the index
  trunc((x - lo) / (hi - lo) * n), the last edge's value moved into the last bin, then one
  step down where x < edges[i] and one step up where x >= edges[i + 1], reading the edges.
- explicit edges (and every dimension of histogramdd, which NumPy searches with searchsorted
  even for uniform edges): k = the number of edges <= x, counted by a sum of comparisons with
  each edge for a few edges, or by a branchless binary search over the edges (padded to a
  power of two) for many. Bin k - 1; x equal to the last edge goes to the last bin; x outside
  [edges[0], edges[-1]] is not counted.
"""
import builtins
import operator
import warnings

import numpy as np

from . import _lazycl as _c
from ._util import is_array as _is_array

#: Up to this many edges, the search is a sum of comparisons (no gathers, fused in the count).
LINEAR_SEARCH_MAX = 32


def _scalar(a):
    """A forced 0-d lazycl array as a NumPy scalar of its dtype."""
    return np.asarray(a)[()]


def _const(v, dt, q):
    return _c._full(np.asarray(v).astype(dt)[()].item(), (), np.dtype(dt).name, q)


# ---- edges, as NumPy makes them ------------------------------------------------------------

def _outer_edges(rng, lo, hi, size):
    """NumPy's outer edges from `range` or the data's min and max (NumPy scalars)."""
    if rng is not None:
        first, last = rng
        if first > last:
            raise ValueError("max must be larger than min in range parameter.")
        if not (np.isfinite(first) and np.isfinite(last)):
            raise ValueError(f"supplied range of [{first}, {last}] is not finite")
    elif size == 0:
        first, last = 0, 1
    else:
        first, last = lo(), hi()
        if not (np.isfinite(first) and np.isfinite(last)):
            raise ValueError(f"autodetected range of [{first}, {last}] is not finite")
    if first == last:
        first = first - 0.5
        last = last + 0.5
    return first, last


_UNSIGNED = {np.dtype(t): np.dtype(f"u{np.dtype(t).itemsize}")
             for t in (np.int8, np.int16, np.int32, np.int64)}


def _unsigned_difference(b, a):
    """b - a (b >= a) as NumPy's histogram takes it: in their common dtype, unsigned where that
    is a signed integer (so int16 extremes do not overflow)."""
    dt = np.result_type(b, a)
    if dt in _UNSIGNED:
        return np.subtract(np.asarray(b, dtype=dt), np.asarray(a, dtype=dt), casting="unsafe",
                           dtype=_UNSIGNED[dt])[()]
    return np.subtract(b, a, dtype=dt)


def _minmax(cols, need):
    """For each column that needs it, (min, max) as NumPy scalars: all in one launch."""
    out = {}
    red = [(i, _c._reduce("min", cols[i], (0,)), _c._reduce("max", cols[i], (0,)))
           for i in need if cols[i].shape[0]]
    if red:
        _c.compute(*[r for _, lo, hi in red for r in (lo, hi)])
    for i, lo, hi in red:
        out[i] = (_scalar(lo), _scalar(hi))
    return out


def _host_edges(bins):
    """An edges argument as a NumPy array (a lazycl array is read: the edges are small)."""
    return np.asarray(bins)


# ---- the bin of each element ----------------------------------------------------------------

def _count_le(v, edges):
    """The number of edges <= v, int64, elementwise (edges: sorted, host-side, in v's dtype)."""
    q = v.queue
    m1 = edges.shape[0]
    if m1 <= LINEAR_SEARCH_MAX:
        k = None
        for j in builtins.range(m1):
            t = _c.astype(_c._binary("less_equal", edges[j], v), "int64")
            k = t if k is None else _c._binary("add", k, t)
        return k
    # A branchless binary search over the edges padded with the dtype's largest value to a
    # power of two past them (at least one padding edge, so every count below the padding is
    # reachable): p moves up by s where edge p + s - 1 is <= v. A padding edge is counted only
    # where v is that largest value, past the last real edge or equal to it, which the caller
    # places itself.
    dt = np.dtype(edges.dtype)
    big = np.inf if dt.kind == "f" else np.iinfo(dt).max
    size = 1
    while size <= m1:
        size *= 2
    e = _c.asarray(np.concatenate([edges, np.full(size - m1, big, dt)]), None, q)
    p = _c._full(0, tuple(v.shape), "int64", q)
    s = size // 2
    while s:
        hit = _c._binary("less_equal", _c._gather(e, _c._binary("add", p, s - 1), 0, 0), v)
        p = _c._binary("add", p, _c._binary("multiply", _c.astype(hit, "int64"), s))
        s //= 2
    return p


def _search_bins(x, edges):
    """(bin, keep) for explicit edges: x in [edges[0], edges[-1]] goes to the last bin whose
    left edge is <= x (the last edge's value to the last bin), compared in the dtype NumPy's
    searchsorted takes (the common dtype of the data and the edges)."""
    m = edges.shape[0] - 1
    cdt = np.result_type(np.dtype(x.dtype), edges.dtype)
    v = x if np.dtype(x.dtype) == cdt else _c.astype(x, cdt)
    ce = edges.astype(cdt)
    keep = _c._binary("logical_and", _c._binary("greater_equal", v, ce[0]),
                      _c._binary("less_equal", v, ce[m]))
    b = _c._binary("minimum", _c._binary("subtract", _count_le(v, ce), 1), m - 1)
    return _c._binary("maximum", b, 0), keep


def _uniform_bins(x, first, last, n, edges, e_dev):
    """(bin, keep) as NumPy's histogram computes them for n equal bins."""
    keep = _c._binary("logical_and", _c._binary("greater_equal", x, first),
                      _c._binary("less_equal", x, last))
    bt = edges.dtype
    t = x if np.dtype(x.dtype) == bt else _c.astype(x, bt)
    sdt = np.result_type(np.empty(0, bt), first)
    diff = _c._binary("subtract", _c.astype(t, sdt) if sdt != bt else t, _const(first, sdt,
                                                                             x.queue))
    f = _c._binary("multiply", _c._binary("true_divide", diff,
                                          _unsigned_difference(last, first)), n)
    # trunc to int64, n (the last edge's value) moved to n - 1. Values outside the range are
    # clamped too: the store leaves them out, but every element reads the edges.
    g = _c._binary("maximum", _c._binary("minimum", _c.astype(f, "int64"), n - 1), 0)
    # NumPy's two corrections, g - (t < edges[g]) and then + 1 where t >= edges[i + 1] (not in
    # the last bin), written with g alone: the edges increase strictly (checked), so where the
    # first moves down the second cannot move up. Only g (a few ops over x) is read several
    # times, so fusion recomputes it in the count's kernel instead of writing it to memory.
    down = _c._binary("less", t, _c._gather(e_dev, g, 0, 0))
    up = _c._binary("logical_and", _c._binary("not_equal", g, n - 1), _c._binary(
        "greater_equal", t, _c._gather(e_dev, _c._binary("add", g, 1), 0, 0)))
    return _c._binary("add", _c._binary("subtract", g, _c.astype(down, "int64")),
                      _c.astype(up, "int64")), keep


def _count(bins_idx, keep, nbins, weights, acc, q):
    """The scatter-add: out[bins_idx] += weight (or 1) where keep, one store kernel."""
    acc = np.dtype(acc).name
    if bins_idx.shape[0] == 0 or nbins == 0:
        return _c._full(0, (nbins,), acc, q)
    # Zeros from the host: a store needs a buffer, and a small upload costs no launch.
    out = _c.asarray(np.zeros(nbins, acc), None, q)
    _c._writable(out)
    if weights is None:
        vals = _c._full(1, tuple(bins_idx.shape), acc, q)
    else:
        vals = weights if np.dtype(weights.dtype) == acc else _c.astype(weights, acc)
    _c._store(out, _c._gather(out, bins_idx, 0, 0), vals, keep, _c._op_number("ADD"), 1)
    return out


def _count_dtype(n):
    return "int32" if n < 2 ** 31 else "int64"


def _weight_acc(wdt):
    """Accumulator for a weighted count: exact sums for integers, float64 for floats."""
    if wdt.kind == "u":
        return np.dtype(np.uint64)
    if wdt.kind in "ib":
        return np.dtype(np.int64)
    return np.dtype(np.float64)


# ---- histogram ----------------------------------------------------------------------------

def _as_input(a, q=None):
    return a if _is_array(a) else _c.asarray(np.asarray(a), None, q)


def histogram(a, bins=10, range=None, density=None, weights=None):  # noqa: A002
    """numpy.histogram: (hist, bin_edges) as lazycl arrays."""
    if np.dtype(a.dtype if hasattr(a, "dtype") else np.asarray(a).dtype).kind == "c":
        raise NotImplementedError("lazycl: histogram of a complex array")
    a = _as_input(a, weights.queue if _is_array(weights) else None)
    q = a.queue
    if np.dtype(a.dtype) == np.bool_:
        warnings.warn(f"Converting input from {np.dtype(a.dtype)} to {np.uint8} for "
                      "compatibility.", RuntimeWarning, stacklevel=3)
        a = _c.astype(a, "uint8")
    w = None
    if weights is not None:
        w = _as_input(weights, q)
        if tuple(w.shape) != tuple(a.shape):
            raise ValueError("weights should have the same shape as a.")
        w = _c.reshape(w, (-1,))
    x = _c.reshape(a, (-1,))
    size = x.shape[0]
    ntype = np.dtype(np.intp) if w is None else np.dtype(w.dtype)
    if isinstance(bins, str):
        raise NotImplementedError("lazycl's histogram takes an integer or edges for `bins` "
                                  "(bin estimators are not implemented)")
    uniform = np.ndim(bins) == 0
    if uniform:
        try:
            n = operator.index(bins)
        except TypeError as e:
            raise TypeError("`bins` must be an integer, a string, or an array") from e
        if n < 1:
            raise ValueError("`bins` must be positive, when an integer")
        mm = {}
        if range is None and size:
            mm = _minmax([x], [0])
        first, last = _outer_edges(range, lambda: mm[0][0], lambda: mm[0][1], size)
        bt = np.result_type(first, last, np.empty(0, np.dtype(x.dtype)))
        if bt.kind in "iub":
            bt = np.result_type(bt, float)
        edges = np.linspace(first, last, n + 1, endpoint=True, dtype=bt)
        if np.any(edges[:-1] >= edges[1:]):
            raise ValueError(f"Too many bins for data range. Cannot create {n} finite-sized "
                             "bins.")
        e_out = e_dev = _c.asarray(edges, None, q)
    else:
        if np.ndim(bins) != 1:
            raise ValueError("`bins` must be 1d, when an array")
        edges = _host_edges(bins)
        if np.any(edges[:-1] > edges[1:]):
            raise ValueError("`bins` must increase monotonically, when an array")
        n = builtins.max(edges.shape[0] - 1, 0)
        e_out = e_dev = bins if _is_array(bins) else _c.asarray(edges, None, q)
    if w is not None and not uniform and ntype == np.bool_:
        raise np._core._exceptions._UFuncOutputCastingError(np.add, "same_kind",
                                                            np.dtype(np.int64), ntype, 0)
    # Float weights are summed in float64 (NumPy's bincount does so on the uniform path; its
    # other path sums in the weights' dtype, less closely); integer weights exactly, in 64
    # bits, and wrapped into their dtype as NumPy's casts wrap.
    acc = _count_dtype(size) if w is None else _weight_acc(ntype)
    if n == 0 or size == 0:
        hist = _c._full(0, (n,), ntype, q)
    else:
        if uniform:
            b, keep = _uniform_bins(x, first, last, n, edges, e_dev)
        else:
            b, keep = _search_bins(x, edges)
        hist = _count(b, keep, n, w, acc, q)
        if np.dtype(hist.dtype) != ntype:
            hist = _c.astype(hist, ntype)
    if density:
        db = _c.asarray(np.array(np.diff(edges), float), None, q)
        hist = _c._binary("true_divide", _c._binary("true_divide", hist, db),
                          _c._reduce("sum", _sum_input(hist), (0,)))
    return hist, e_out


def _sum_input(h):
    """h as NumPy's h.sum() accumulates it (integers and bools in 64 bits)."""
    dt = np.dtype(h.dtype)
    if dt.kind == "b" or (dt.kind == "i" and dt.itemsize < 8):
        return _c.astype(h, "int64")
    if dt.kind == "u" and dt.itemsize < 8:
        return _c.astype(h, "uint64")
    return h


# ---- histogramdd, histogram2d ----------------------------------------------------------------

def _columns(sample):
    """The sample as a list of D columns (N each), as NumPy reads it: an (N, D) array, or a
    sequence of D 1-d arrays."""
    if _is_array(sample) or isinstance(sample, np.ndarray):
        s = sample if _is_array(sample) else _c.asarray(sample, None, None)
        if s.ndim == 2:
            return [s[:, i] for i in builtins.range(s.shape[1])], s.shape[0]
        if s.ndim > 2:
            raise ValueError("too many values to unpack (expected 2)")
        s = _c.reshape(s, (-1, 1)) if s.ndim == 1 else _c.reshape(s, (1, 1))
        return [s[:, 0]], s.shape[0]
    q = next((c.queue for c in sample if _is_array(c)), None)
    cols = [_as_input(c, q) for c in sample]
    if any(c.ndim > 1 for c in cols):
        raise ValueError("too many values to unpack (expected 2)")
    cols = [_c.reshape(c, (-1,)) for c in cols]
    if len({c.shape[0] for c in cols}) > 1:
        raise ValueError("setting an array element with a sequence. The requested array has "
                         "an inhomogeneous shape after 1 dimensions.")
    return cols, (cols[0].shape[0] if cols else 0)


def histogramdd(sample, bins=10, range=None, density=None, weights=None):  # noqa: A002
    """numpy.histogramdd: (H, [edges...]) as lazycl arrays (H float64, as NumPy's)."""
    cols, N = _columns(sample)
    D = len(cols)
    q = cols[0].queue if cols else None
    try:
        M = len(bins)
    except TypeError:
        bins = D * [bins]
    else:
        if M != D:
            raise ValueError("The dimension of bins must be equal to the dimension of the "
                             "sample x.")
    if range is None:
        range = (None,) * D
    elif len(range) != D:
        raise ValueError("range argument must have one entry per dimension")
    w = None
    if weights is not None:
        w = _as_input(weights, q)
        if w.ndim != 1 or w.shape[0] != N:
            raise ValueError("The weights and list don't have the same length.")
    need = [i for i in builtins.range(D) if np.ndim(bins[i]) == 0 and range[i] is None]
    mm = _minmax(cols, need) if need and N else {}
    edges, e_devs = [], []
    for i in builtins.range(D):
        if np.ndim(bins[i]) == 0:
            if bins[i] < 1:
                raise ValueError(f"`bins[{i}]` must be positive, when an integer")
            lo, hi = _outer_edges(range[i], lambda: mm[i][0], lambda: mm[i][1], N)
            try:
                n = operator.index(bins[i])
            except TypeError as e:
                raise TypeError(f"`bins[{i}]` must be an integer, when a scalar") from e
            e = np.linspace(lo, hi, n + 1)
            e_devs.append(_c.asarray(e, None, q))
        elif np.ndim(bins[i]) == 1:
            e = _host_edges(bins[i])
            if np.any(e[:-1] > e[1:]):
                raise ValueError(f"`bins[{i}]` must be monotonically increasing, when an "
                                 "array")
            e_devs.append(bins[i] if _is_array(bins[i]) else _c.asarray(e, None, q))
        else:
            raise ValueError(f"`bins[{i}]` must be a scalar or 1d array")
        edges.append(e)
    nb = [builtins.max(e.shape[0] - 1, 0) for e in edges]
    total = int(np.prod(nb, dtype=np.int64)) if D else 1
    if N == 0 or total == 0 or D == 0:
        hist = _c._full(0, tuple(nb), "float64", q)
    else:
        flat, keep = None, None
        for i in builtins.range(D):
            b, k = _search_bins(cols[i], edges[i])
            flat = b if flat is None else _c._binary("add", _c._binary("multiply", flat,
                                                                       nb[i]), b)
            keep = k if keep is None else _c._binary("logical_and", keep, k)
        acc = _count_dtype(N) if w is None else np.dtype(np.float64)
        hist = _c.astype(_c.reshape(_count(flat, keep, total, w, acc, q), tuple(nb)), "float64")
    if density:
        s = _c._reduce("sum", hist, tuple(builtins.range(D)))
        for i in builtins.range(D):
            shape = [1] * D
            shape[i] = nb[i]
            d = _c.reshape(_c.asarray(np.diff(edges[i]), None, q), tuple(shape))
            hist = _c._binary("true_divide", hist, d)
        hist = _c._binary("true_divide", hist, s)
    return hist, e_devs


def histogram2d(x, y, bins=10, range=None, density=None, weights=None):  # noqa: A002
    """numpy.histogram2d: (H, xedges, yedges) as lazycl arrays."""
    if len(x) != len(y):
        raise ValueError("x and y must have the same length.")
    try:
        N = len(bins)
    except TypeError:
        N = 1
    if N not in (1, 2):
        e = bins if _is_array(bins) else np.asarray(bins)
        bins = [e, e]
    hist, edges = histogramdd([x, y], bins, range, density, weights)
    return hist, edges[0], edges[1]


__all__ = [
    "histogram", "histogram2d", "histogramdd",
]
