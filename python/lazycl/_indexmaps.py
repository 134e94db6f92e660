"""Index maps: triangles, diagonals, grids (tril, triu, tri, diagonal, trace, diag, diagflat,
indices, meshgrid, mgrid, ogrid, outer; the triangle and diagonal indices). Each is a node whose
consumer reads the right source for each index, fused into that consumer: iotas of row and
column indices, comparisons, `where`, and views. None copies."""
import builtins as _b
import math
import operator

import numpy as np

from . import (
    _compact, _creation, _elementwise as _ew, _lazycl as _c, _reductions as _red, _ufuncs as _uf,
    _util as _u, _views,
)
from ._util import norm_axis as _norm_axis_named


def _iota_along(n, axis, ndim, device):
    """arange(n) (int64) as a view of shape 1 everywhere but `axis` (n there)."""
    shape = [1] * ndim
    shape[axis] = n
    return _c.reshape(_c._iota(0, 1, n, np.int64, device), shape)


def _zero_of(x):
    """A 0-d zero of x's dtype on x's queue (so `where` keeps x's dtype, bool included)."""
    return _c._full(0, (), x.dtype, x.queue)


def _tri_mask(x, keep):
    """Over x's last two dims (a 1-d x is one row broadcast to a square, as NumPy's tril):
    keep(col - row) as a bool (n, m) node, and x's shape after that broadcast."""
    if x.ndim == 0:
        raise TypeError("tril/triu need an array of at least one dimension (NumPy: tri() "
                        "missing 1 required positional argument: 'N')")
    n, m = (x.shape[0], x.shape[0]) if x.ndim == 1 else x.shape[-2:]
    rows = _iota_along(n, 0, 2, x.queue)
    cols = _iota_along(m, 1, 2, x.queue)
    return keep(cols - rows)


def tril(x, k=0):
    """The lower triangle of x's last two dims (elements above the k-th diagonal are 0):
    where(col - row <= k, x, 0) over two aranges, one fused kernel."""
    x = _u.as_array(x)
    t = math.floor(k)
    return _ew.where(_tri_mask(x, lambda d: d <= t), x, _zero_of(x))


def triu(x, k=0):
    """The upper triangle of x's last two dims (elements below the k-th diagonal are 0)."""
    x = _u.as_array(x)
    t = math.floor(k - 1) + 1
    return _ew.where(_tri_mask(x, lambda d: d >= t), x, _zero_of(x))


def diagonal(x, offset=0, axis1=0, axis2=1):
    """The diagonal of (axis1, axis2) as the last dim, as numpy.diagonal: a view. The two
    axes go last in input order, merge into one (a reshape) and the diagonal is every
    (m+1)-th element of that from the offset's start (a slice). For a realized array this is
    a new strided leaf; for a pending one, index arithmetic fused into the consumer (an input
    whose leaves cannot be seen with the two axes merged is first written contiguously, one
    launch, as fusion does for any such reshape)."""
    x = _u.as_array(x)
    nd = x.ndim
    offset = operator.index(offset)
    if nd < 2:
        raise ValueError("diag requires an array of at least two dimensions")
    a1 = _norm_axis_named(axis1, nd, "axis1")
    a2 = _norm_axis_named(axis2, nd, "axis2")
    if a1 == a2:
        raise ValueError("axis1 and axis2 cannot be the same")
    if a1 > a2:  # the diagonal of (a2, a1) at -offset: keeps C order for the reshape
        a1, a2, offset = a2, a1, -offset
    y = _c.permute_dims(x, [d for d in range(nd) if d not in (a1, a2)] + [a1, a2])
    batch = tuple(y.shape[:-2])
    n, m = y.shape[-2:]
    if offset >= 0:
        length, start = _b.max(0, _b.min(n, m - offset)), offset
    else:
        length, start = _b.max(0, _b.min(n + offset, m)), -offset * m
    if length == 0:
        r = _c._full(0, batch + (0,), x.dtype, x.queue)
    else:
        flat = _c.reshape(y, batch + (n * m,))
        nb = len(batch)
        r = _c._slice(flat, [0] * nb + [start], [1] * nb + [m + 1], list(batch) + [length])
    _c._set_readonly(r, 1)     # as NumPy's diagonal view
    return r


def trace(x, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    """The sum of a diagonal (sum's accumulator dtypes): one reduction over the diagonal
    view, one launch."""
    return _red.sum(diagonal(x, offset, axis1, axis2), axis=-1, dtype=dtype, out=out)


def diag(v, k=0):
    """A 1-d v: the square matrix with v on its k-th diagonal, where(col - row == k, v, 0)
    reading v broadcast along the rows (k >= 0) or columns (k < 0). A 2-d v: its k-th
    diagonal (a view)."""
    v = _u.as_array(v)
    k = operator.index(k)
    if v.ndim == 2:
        return diagonal(v, k)
    if v.ndim != 1:
        raise ValueError("Input must be 1- or 2-d.")
    nv = v.shape[0]
    n = nv + _b.abs(k)
    if nv == 0:
        return _c._full(0, (n, n), v.dtype, v.queue)
    src = v
    if k != 0:
        # v tiled to length >= n: only its first nv elements are ever selected (the k-th
        # diagonal has nv elements), the rest only fills the broadcast. A reshape that
        # strides cannot express: fusion writes the tiling (c * nv elements) first.
        c = -(-n // nv)
        src = _c.reshape(_views.broadcast_to(_c.reshape(v, (1, nv)), (c, nv)), (c * nv,))
        src = _c._slice(src, [0], [1], [n])
    src = _c.reshape(src, (n, 1) if k > 0 else (1, n))
    rows = _iota_along(n, 0, 2, v.queue)
    cols = _iota_along(n, 1, 2, v.queue)
    return _ew.where((cols - rows) == k, _views.broadcast_to(src, (n, n)), _zero_of(v))


def indices(dimensions, dtype=int, sparse=False, device=None):
    """The grid of indices of an array of shape `dimensions`, as numpy.indices: result[a] is
    arange(dimensions[a]) along dim a, chosen by a chain of `where` over an arange of a
    (one fused kernel, no copies); sparse=True gives the aranges as views."""
    dims = tuple(operator.index(d) for d in dimensions)
    for d in dims:
        if d < 0:
            raise ValueError("negative dimensions are not allowed")
    dt = np.dtype(dtype)
    nd = len(dims)

    if sparse:
        return tuple(_iota_along(dims[a], a, nd, device).astype(dt) for a in range(nd))
    if nd == 0:
        return _c._full(0, (0,), dt, device)
    sel = _iota_along(nd, 0, nd + 1, device)
    grids = [_iota_along(dims[a], a + 1, nd + 1, device).astype(dt) for a in range(nd)]
    r = _views.broadcast_to(grids[nd - 1], (nd,) + dims)
    for a in range(nd - 2, -1, -1):
        r = _ew.where(sel == a, grids[a], r)
    return r


def meshgrid(*xs, copy=True, sparse=False, indexing="xy"):
    """Coordinate matrices from 1-d coordinate vectors, as numpy.meshgrid (a tuple): each is
    a reshape of its (raveled) input broadcast to the grid, a view; with copy=True (NumPy's
    default) a pending copy of it, computed where it is used and writable as NumPy's."""
    if indexing not in ("xy", "ij"):
        raise ValueError("Valid values for `indexing` are 'xy' and 'ij'.")
    nd = len(xs)
    out = []
    for i, x in enumerate(xs):
        shape = [1] * nd
        shape[i] = -1
        if indexing == "xy" and nd > 1 and i < 2:
            shape[i], shape[1 - i] = 1, -1
        out.append(_c.reshape(_u.as_array(x), shape))
    if not sparse and out:
        out = _views.broadcast_arrays(*out)
    if copy:
        out = [_creation.copy(o) for o in out]
    return tuple(out)


def tri(N, M=None, k=0, dtype=float, *, like=None, device=None):
    """Ones at and below the k-th diagonal of an N x M matrix, zeros above, as numpy.tri:
    (col - row <= k) over two aranges, no memory until used."""
    M = N if M is None else M
    rows = _iota_along(operator.index(N), 0, 2, device)
    cols = _iota_along(operator.index(M), 1, 2, device)
    return _c.astype((cols - rows) <= k, dtype)


def tril_indices(n, k=0, m=None):
    """The (rows, cols) of the lower triangle of an n x m matrix, in C order, as
    numpy.tril_indices (int64; the nonzero of tri's mask)."""
    return tuple(_compact.nonzero(tri(n, m, k, dtype=bool)))


def triu_indices(n, k=0, m=None):
    """The (rows, cols) of the upper triangle (from the k-th diagonal on), in C order."""
    return tuple(_compact.nonzero(_uf.logical_not(tri(n, m, k - 1, dtype=bool))))


def _two_d_shape(arr):
    shape = np.shape(arr) if not _u.is_array(arr) else tuple(arr.shape)
    if len(shape) != 2:
        raise ValueError("input array must be 2-d")
    return shape


def tril_indices_from(arr, k=0):
    """tril_indices for arr's (2-d) shape."""
    n, m = _two_d_shape(arr)
    return tril_indices(n, k, m)


def triu_indices_from(arr, k=0):
    """triu_indices for arr's (2-d) shape."""
    n, m = _two_d_shape(arr)
    return triu_indices(n, k, m)


def diag_indices(n, ndim=2):
    """The indices of the main diagonal of an n x ... x n array: ndim times arange(n)."""
    idx = _c._iota(0, 1, operator.index(n), np.int64, None)
    return (idx,) * ndim


def diag_indices_from(arr):
    """diag_indices for arr's shape (at least 2-d, every dim of one length)."""
    shape = np.shape(arr) if not _u.is_array(arr) else tuple(arr.shape)
    if len(shape) < 2:
        raise ValueError("input array must be at least 2-d")
    if len(set(shape)) != 1:
        raise ValueError("All dimensions of input must be of equal length")
    return diag_indices(shape[0], len(shape))


def diagflat(v, k=0):
    """The flattened input on the k-th diagonal of a square matrix, as numpy.diagflat."""
    return diag(_views.ravel(_u.as_array(v)), k)


class _Grid:
    """numpy.mgrid (dense) and numpy.ogrid (sparse), lazily on the default device: `grid[a:b:s,
    ...]` indexes with slices. A real step s gives arange's points from a (default 0) below b;
    a complex step n*1j gives n points from a to b, both included, as linspace. The dtype is
    the result_type of every start, stop and step (abs(step) for a complex one): int64 for
    Python integers, float64 once any is a float or a step is complex. Each axis is an arange
    times its step plus its start; the dense grid selects them with a chain of `where` (one
    fused kernel, as indices), the sparse one returns them as views."""

    def __init__(self, sparse):
        self.sparse = sparse

    def __getitem__(self, key):
        if not isinstance(key, tuple):
            return self._one(key)        # NumPy's AttributeError for what is not a slice
        for k in key:
            if not isinstance(k, slice):
                raise AttributeError(f"{type(k).__name__!r} object has no attribute 'step'")
        nd = len(key)
        sizes, starts, steps, typ_of = [], [], [], []
        for k in key:
            start = 0 if k.start is None else k.start
            step = 1 if k.step is None else k.step
            if isinstance(step, (complex, np.complexfloating)):
                n = int(_b.abs(step))
                typ_of += [start, k.stop, _b.abs(step)]
                step = 1 if n == 1 else (k.stop - start) / float(n - 1)
            else:
                n = int(math.ceil((k.stop - start) / step))
                typ_of += [start, k.stop, step]
            if n < 0:
                raise ValueError("negative dimensions are not allowed")
            sizes.append(n)
            starts.append(start)
            steps.append(step)
        typ = np.result_type(*typ_of) if typ_of else np.dtype(np.int64)
        axes = [_uf.add(_uf.multiply(_c.astype(_c._iota(0, 1, n, np.int64, None), typ), st), s0)
                for n, st, s0 in zip(sizes, steps, starts)]
        if self.sparse:
            return tuple(_c.reshape(v, [n if d == k else 1 for d in range(nd)])
                         for k, (v, n) in enumerate(zip(axes, sizes)))
        if nd == 0:
            return _c._full(0, (0,), typ, None)
        shape = (nd,) + tuple(sizes)
        grids = [_c.reshape(v, [n if d == k + 1 else 1 for d in range(nd + 1)])
                 for k, (v, n) in enumerate(zip(axes, sizes))]
        r = _c.broadcast_to(grids[nd - 1], shape)
        sel = _iota_along(nd, 0, nd + 1, None)
        for k in range(nd - 2, -1, -1):
            r = _ew.where(sel == k, grids[k], r)
        return r

    def _one(self, key):
        """One slice: a 1-d array (arange's for a real step, with arange's dtype)."""
        start = 0 if key.start is None else key.start
        step = key.step
        if isinstance(step, (complex, np.complexfloating)):
            n = int(_b.abs(step))
            typ = np.result_type(start, key.stop, _b.abs(step))
            d = 1 if n == 1 else (key.stop - start) / float(n - 1)
            return _uf.add(_uf.multiply(_c.astype(_c._iota(0, 1, n, np.int64, None), typ), d),
                          start)
        return _creation.arange(start, key.stop, 1 if step is None else step)


mgrid = _Grid(sparse=False)
ogrid = _Grid(sparse=True)


def outer(a, b, out=None):
    """a.ravel()[:, None] * b.ravel()[None, :], as numpy.outer: views and one multiply,
    fused into its consumer."""
    _u.no_out(out)
    a, b = _u.as_array(a), _u.as_array(b)
    return _uf.multiply(_c.reshape(a, (-1, 1)), _c.reshape(b, (1, -1)))


def _flat_strides(dims, order):
    """The element strides of a C (or Fortran) ordered array of shape `dims`."""
    if order not in ("C", "F"):
        raise ValueError("only 'C' or 'F' order is permitted")
    strides, s = [0] * len(dims), 1
    for k in (reversed(range(len(dims))) if order == "C" else range(len(dims))):
        strides[k] = s
        s *= dims[k]
    return strides, s


def _int_indices(x):
    """x as a lazycl int64 array; floats raise NumPy's TypeError (bools count as ints)."""
    x = x if _u.is_array(x) else _creation.asarray(np.asarray(x))
    if x.dtype.kind not in "iub":
        raise TypeError("only int indices permitted")
    return x.astype(np.int64)


def _dims_of(shape):
    dims = tuple(operator.index(d) for d in ((shape,) if np.ndim(shape) == 0 else shape))
    if _b.any(d < 0 for d in dims):
        raise ValueError(f"dimensions must be non-negative, got {dims}")
    return dims


def unravel_index(indices, shape, order="C"):
    """numpy.unravel_index, lazily: (indices // stride) % dim per dim, int64. The bounds check
    computes the indices (with the check, in one force) and raises NumPy's ValueError."""
    dims = _dims_of(shape)
    idx = _int_indices(indices)
    strides, size = _flat_strides(dims, order)
    bad = _red.any((idx < 0) | (idx >= size))
    _c.compute(idx, bad)
    if bool(bad):
        h = idx.numpy()
        first = int(h[(h < 0) | (h >= size)].ravel()[0])
        raise ValueError(f"index {first} is out of bounds for array with size {size}")
    return tuple((idx // st) % d for st, d in zip(strides, dims))


def ravel_multi_index(multi_index, dims, mode="raise", order="C"):
    """numpy.ravel_multi_index, lazily: the sum of coordinate * stride (int64), each coordinate
    kept in range by its mode ('raise', 'wrap', 'clip'; one, or one per dim). 'raise' checks the
    coordinates in one force and raises NumPy's ValueError."""
    dims = _dims_of(dims)
    if len(multi_index) != len(dims):
        raise ValueError(f"parameter multi_index must be a sequence of length {len(dims)}")
    modes = (mode,) * len(dims) if isinstance(mode, str) else tuple(mode)
    if len(modes) != len(dims):
        raise ValueError(f"mode must be a string or a sequence of {len(dims)} strings")
    for m in modes:
        if m not in ("raise", "wrap", "clip"):
            raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got {m!r})")
    strides, _ = _flat_strides(dims, order)
    coords = [_int_indices(c) for c in multi_index]
    queue = next((c.queue for c in multi_index if _u.is_array(c)), coords[0].queue)
    coords = [c if c.queue is queue else _creation.to_device(c, queue) for c in coords]
    checks = []
    for k, (c, d, m) in enumerate(zip(coords, dims, modes)):
        if m == "wrap":
            coords[k] = c % d if d else c
        elif m == "clip":
            coords[k] = _ew.clip(c, 0, _b.max(d - 1, 0))
        else:
            checks.append(_red.any((c < 0) | (c >= d)))
    flat = coords[0] * strides[0]
    for c, st in zip(coords[1:], strides[1:]):
        flat = flat + c * st
    if checks:
        bad = checks[0]
        for b in checks[1:]:
            bad = bad | b
        _c.compute(flat, bad)
        if bool(bad):
            raise ValueError("invalid entry in coordinates array")
    return flat


__all__ = [
    "diag", "diag_indices", "diag_indices_from", "diagflat", "diagonal", "indices", "meshgrid",
    "mgrid", "ogrid", "outer", "ravel_multi_index", "trace", "tri", "tril", "tril_indices",
    "tril_indices_from", "triu", "triu_indices", "triu_indices_from", "unravel_index",
]
