"""Products: matmul (@), dot, vdot, inner, tensordot, vecdot, matrix_transpose.

Every product is one contraction: the operands are viewed (transposes and unit dims, never
copies) so that their broadcast product has the result's dims followed by the contracted ones,
and the contraction sums a * b over those. Two forms:

- at most _SMALL_K contracted elements: the sum is written out as K multiply-adds, an
  elementwise expression that fuses anywhere (into a reduction over the result, a sort key, a
  write) and never takes a kernel or a buffer of its own;
- otherwise a sum reduction of the broadcast product, whose kernel computes the operands'
  elementwise producers where it reads them and its elementwise consumers in its epilogue;
  codegen gives it the tiled GEMM schedule (codegen/gemm.c) where its reads split into one
  operand constant along the result's columns and one constant along its rows.

dtypes follow NumPy's matmul: the operands' result type, integers wrapping in it, bool as
logical or of ands.
"""
import math
import operator

import numpy as np

from . import _creation, _lazycl as _c, _ufuncs, _util as _u, _views, _write

# Contractions of at most this many elements are written out elementwise (map-like kernels);
# _lazycl._inner (py_build.c) builds the larger inner products of vectors.
_SMALL_K = 16

_SIG = "(n?,k),(k,m?)->(n?,m?)"

_OP = {name: op for name, _, _, op in _c.ops}
_SUM, _ANY, _MUL, _AND = _OP["sum"], _OP["any"], _OP["multiply"], _OP["logical_and"]
_Array = _c.ArrayBase


def _broadcast(s, t):
    """np.broadcast_shapes(s, t) of two shape tuples without its cost (it builds arrays: ~2.5 us
    a call); NumPy's own call raises its error where they do not broadcast."""
    if s == t:
        return s
    n = len(s) - len(t)
    long_, short = (s, t) if n >= 0 else (t, s)
    out = list(long_)
    for i, b in enumerate(short, abs(n)):
        a = out[i]
        if a == 1:
            out[i] = b
        elif b != 1 and b != a:
            return np.broadcast_shapes(s, t)
    return tuple(out)


def _contract(a, b, nc, dt):
    """sum over the last nc axes of a * b (broadcast together), in dtype dt; a and b are of
    dtype dt and agree on the contracted extents."""
    shape = _broadcast(a.shape, b.shape)
    nk = len(shape) - nc
    keep = shape[:nk]
    csize = math.prod(shape[nk:])
    if csize == 0:
        return _c._full(0, keep, dt, a.queue)
    if csize <= _SMALL_K:
        logical = dt.kind == "b"
        mul = _ufuncs.logical_and if logical else _ufuncs.multiply
        add = _ufuncs.logical_or if logical else _ufuncs.add
        r = None
        for idx in np.ndindex(*shape[nk:]):
            key = (Ellipsis,) + idx
            t = mul(a[key], b[key])
            r = t if r is None else add(r, t)
        return _c.broadcast_to(r, keep) if tuple(r.shape) != keep else r
    if dt.kind == "b":
        return _c._reduce(_ANY, _c._binary(_AND, a, b), tuple(range(nk, len(shape))))
    # kind 1: a product's sum, whose floats may accumulate in their own dtype (graph.h)
    return _c._reduce(_SUM, _c._binary(_MUL, a, b), tuple(range(nk, len(shape))), 0, 1)


def _on_device_of(x, other):
    """x as a lazycl array: itself, or made on `other`'s device (compute follows data)."""
    if _u.is_array(x):
        return x
    return _creation.asarray(x, device=other.device if _u.is_array(other) else None)


def _scalar(x):
    return not _u.is_array(x) and np.ndim(x) == 0


def _operands(x1, x2, dtype=None, casting="same_kind", name="matmul"):
    """The two operands as lazycl arrays of their common dtype (or of dtype=, where casting
    allows it)."""
    a, b = _on_device_of(x1, x2), _on_device_of(x2, x1)
    if dtype is None:
        dt = np.result_type(a.dtype, b.dtype)
    else:
        dt = np.dtype(dtype)
        for i, x in enumerate((a, b)):
            if not np.can_cast(x.dtype, dt, casting):
                raise np._core._exceptions._UFuncInputCastingError(
                    getattr(np, name), casting, np.dtype(x.dtype), dt, i)
    if dt.kind not in "biufc":
        raise TypeError(f"lazycl: {name} of dtype {dt} is not supported")
    return _c.astype(a, dt), _c.astype(b, dt), dt


def _ufunc_options(name, out, order, subok, extra):
    if order not in ("K", "C", "A", None):
        raise NotImplementedError(f"lazycl: {name} writes C-ordered results (order={order!r})")
    if not subok:
        raise NotImplementedError(f"lazycl: {name} with subok=False")
    for k, v in extra.items():
        if v is not None:
            raise NotImplementedError(f"lazycl: {name} does not take {k}= yet")
    return _u.out_of(out)


def _finish(r, out, name):
    if out is None:
        return r
    if tuple(out.shape) != tuple(r.shape):
        raise ValueError(f"{name}: Output operand 0 has a mismatch in its core dimension 0, with "
                         f"gufunc signature {_SIG} (expected shape {tuple(r.shape)}, got "
                         f"{tuple(out.shape)})")
    return _write.assign_out(out, r, name)


def _same_arrays(x1, x2):
    """Whether x1 and x2 are lazycl arrays of one numeric or bool dtype (the operands that need
    no conversion: _operands' work is done)."""
    return (isinstance(x1, _Array) and isinstance(x2, _Array) and x1.dtype == x2.dtype and
            x1.dtype.kind in "biufc")


def matmul(x1, x2, /, out=None, *, casting="same_kind", order="K", dtype=None, subok=True,
           axes=None, axis=None):
    """x1 @ x2 with NumPy's rules: a 1-d operand is promoted to a matrix (a row on the left, a
    column on the right) and that dim removed from the result; the batch dims broadcast."""
    if (out is None and dtype is None and axes is None and axis is None and subok is True and
            order == "K" and _same_arrays(x1, x2)):
        a, b, dt = x1, x2, x1.dtype     # the common call (x @ y): nothing to check or convert
    else:
        out = _ufunc_options("matmul", out, order, subok, {"axes": axes, "axis": axis})
        a, b, dt = _operands(x1, x2, dtype, casting)
    na, nb = a.ndim, b.ndim
    if na == 0 or nb == 0:
        raise ValueError(f"matmul: Input operand {0 if na == 0 else 1} does not have enough "
                         f"dimensions (has 0, gufunc core with signature {_SIG} requires 1)")
    sa, sb = a.shape, b.shape
    if sa[-1] != sb[-2 if nb > 1 else 0]:
        raise ValueError(f"matmul: Input operand 1 has a mismatch in its core dimension 0, with "
                         f"gufunc signature {_SIG} (size {sb[-2 if nb > 1 else 0]} is different "
                         f"from {sa[-1]})")
    if na == 1 and nb == 1:
        # the inner product: one sum of products over the vectors as they are
        r = _c._inner(a, b, _SMALL_K)
        return _finish(_contract(a, b, 1, dt) if r is None else r, out, "matmul")
    if na == 1:
        sa = (1,) + sa
        a = _c.reshape(a, sa)
    if nb == 1:
        sb = sb + (1,)
        b = _c.reshape(b, sb)
    try:
        batch = _broadcast(sa[:-2], sb[:-2])
    except ValueError:
        raise ValueError(f"operands could not be broadcast together with remapped shapes "
                         f"[original->remapped]: {tuple(x1.shape)} and {tuple(x2.shape)} "
                         f"(batch dims {sa[:-2]} and {sb[:-2]})") from None
    m, k = sa[-2:]
    n = sb[-1]
    nd = len(sb)
    a3 = _c.reshape(a, sa[:-2] + (m, 1, k))
    b3 = _c.reshape(_c.permute_dims(b, list(range(nd - 2)) + [nd - 1, nd - 2]),
                    sb[:-2] + (1, n, k))
    r = _contract(a3, b3, 1, dt)
    if r.shape[:-2] != batch:
        r = _c.broadcast_to(r, batch + (m, n))
    if na == 1 or nb == 1:
        shape = r.shape
        r = _c.reshape(r, shape[:-2] + shape[-1:] if na == 1 else shape[:-1])
    return _finish(r, out, "matmul")


def _tensordot(a, b, axes_a, axes_b, dt):
    """sum over a's axes_a paired with b's axes_b of a * b: a's free dims, then b's."""
    fa = [d for d in range(a.ndim) if d not in axes_a]
    fb = [d for d in range(b.ndim) if d not in axes_b]
    cshape = tuple(a.shape[d] for d in axes_a)
    sa = tuple(a.shape[d] for d in fa)
    sb = tuple(b.shape[d] for d in fb)
    a2 = _c.reshape(_c.permute_dims(a, fa + list(axes_a)), sa + (1,) * len(fb) + cshape)
    b2 = _c.reshape(_c.permute_dims(b, fb + list(axes_b)), (1,) * len(fa) + sb + cshape)
    return _contract(a2, b2, len(cshape), dt)


def _not_aligned(a, b, da, db):
    return ValueError(f"shapes {tuple(a.shape)} and {tuple(b.shape)} not aligned: "
                      f"{a.shape[da]} (dim {da}) != {b.shape[db]} (dim {db})")


def dot(a, b, out=None):
    """numpy.dot: a product of scalars, the inner product of vectors, matmul of matrices; for
    N-d operands the sum over a's last axis and b's second-to-last."""
    if out is None:
        r = _c._inner(a, b, _SMALL_K)   # vectors of one dtype: the common call, built in C
        if r is not None:
            return r
    if out is None and _same_arrays(a, b):
        x, y, dt = a, b, a.dtype        # nothing to check or convert
        if x.ndim == 1 and y.ndim == 1 and x.shape == y.shape:
            return _contract(x, y, 1, dt)   # the inner product of vectors as they are
    else:
        out = _u.out_of(out)
        if _scalar(a) or _scalar(b):
            r = _ufuncs.multiply(a, b)   # a Python scalar promotes weakly, as in NumPy's multiply
            return r if out is None else _write_out(out, r)
        x, y, dt = _operands(a, b, name="dot")
    if x.ndim == 0 or y.ndim == 0:
        r = _ufuncs.multiply(x, y)
    elif y.ndim == 1:
        if x.shape[-1] != y.shape[0]:
            raise _not_aligned(x, y, x.ndim - 1, 0)
        r = _tensordot(x, y, [x.ndim - 1], [0], dt)
    else:
        if x.shape[-1] != y.shape[-2]:
            raise _not_aligned(x, y, x.ndim - 1, y.ndim - 2)
        r = _tensordot(x, y, [x.ndim - 1], [y.ndim - 2], dt)
    return r if out is None else _write_out(out, r)


def _write_out(out, r):
    """dot's out=: exactly the result's shape and dtype (NumPy takes no cast there)."""
    if tuple(out.shape) != tuple(r.shape) or np.dtype(out.dtype) != np.dtype(r.dtype):
        raise ValueError("output array is not acceptable (must have the right datatype, number "
                         "of dimensions, and be a C-Array)")
    return _write.assign_out(out, r, "dot")


def vdot(a, b, /):
    """numpy.vdot: the dot product of the flattened operands, the first conjugated."""
    x, y, dt = _operands(a, b, name="vdot")
    if dt.kind == "c":
        x = _c._unary("conjugate", x)
    if x.size != y.size:
        raise ValueError("cannot reshape array of size %d into shape (%d,)" % (y.size, x.size))
    return _contract(_c.reshape(x, (-1,)), _c.reshape(y, (-1,)), 1, dt)


def inner(a, b, /):
    """numpy.inner: the sum over the last axes of both (a product when either is a scalar)."""
    if _scalar(a) or _scalar(b):
        return _ufuncs.multiply(a, b)
    x, y, dt = _operands(a, b, name="inner")
    if x.ndim == 0 or y.ndim == 0:
        return _ufuncs.multiply(x, y)
    if x.shape[-1] != y.shape[-1]:
        raise _not_aligned(x, y, x.ndim - 1, y.ndim - 1)
    return _tensordot(x, y, [x.ndim - 1], [y.ndim - 1], dt)


def tensordot(a, b, /, axes=2):
    """numpy.tensordot: the sum over a's `axes[0]` paired with b's `axes[1]` (an integer N: a's
    last N with b's first N)."""
    x, y, dt = _operands(a, b, name="tensordot")
    if isinstance(axes, (int, np.integer)) or hasattr(axes, "__index__"):
        n = operator.index(axes)
        if n < 0:
            raise ValueError("negative axes are not allowed in tensordot")
        if n > x.ndim or n > y.ndim:
            raise ValueError("shape-mismatch for sum")
        axes_a = list(range(x.ndim - n, x.ndim))
        axes_b = list(range(n))
    else:
        try:
            axes_a, axes_b = axes
        except (TypeError, ValueError):
            raise TypeError("tensordot: axes must be an integer or a pair of sequences") from None
        axes_a = [axes_a] if isinstance(axes_a, (int, np.integer)) else list(axes_a)
        axes_b = [axes_b] if isinstance(axes_b, (int, np.integer)) else list(axes_b)
        if len(axes_a) != len(axes_b):
            raise ValueError("shape-mismatch for sum")
        axes_a = [_u.norm_axis(d, x.ndim) for d in axes_a]
        axes_b = [_u.norm_axis(d, y.ndim) for d in axes_b]
        if len(set(axes_a)) != len(axes_a) or len(set(axes_b)) != len(axes_b):
            raise ValueError("repeated axis in tensordot")
    for da, db in zip(axes_a, axes_b):
        if x.shape[da] != y.shape[db]:
            raise ValueError("shape-mismatch for sum")
    return _tensordot(x, y, axes_a, axes_b, dt)


def vecdot(x1, x2, /, out=None, *, axis=-1, axes=None, casting="same_kind", order="K",
           dtype=None, subok=True, keepdims=False):
    """The dot product of vectors along `axis` (the operands broadcast over the other dims):
    the array API's vecdot and NumPy 2's ufunc."""
    out = _ufunc_options("vecdot", out, order, subok, {"axes": axes})
    if keepdims:
        raise NotImplementedError("lazycl: vecdot with keepdims=True")
    a, b, dt = _operands(x1, x2, dtype, casting, name="vecdot")
    if dt.kind == "c":
        a = _c._unary("conjugate", a)      # sum(conj(x1) * x2), as NumPy and the array API
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError(f"vecdot: Input operand {0 if a.ndim == 0 else 1} does not have enough "
                         "dimensions (has 0, gufunc core with signature (n),(n)->() requires 1)")
    ax = operator.index(axis)
    a = _views.moveaxis(a, _u.norm_axis(ax, a.ndim), -1)
    b = _views.moveaxis(b, _u.norm_axis(ax, b.ndim), -1)
    if a.shape[-1] != b.shape[-1]:
        raise ValueError(f"vecdot: Input operand 1 has a mismatch in its core dimension 0, with "
                         f"gufunc signature (n),(n)->() (size {b.shape[-1]} is different from "
                         f"{a.shape[-1]})")
    batch = _broadcast(a.shape[:-1], b.shape[:-1])
    r = _contract(a, b, 1, dt)
    if tuple(r.shape) != batch:
        r = _c.broadcast_to(r, batch)
    return _finish(r, out, "vecdot")


def matrix_transpose(x, /):
    """The last two axes swapped (a view)."""
    x = _u.as_array(x)
    if x.ndim < 2:
        raise ValueError("Input array must be at least 2-dimensional")
    return _views.swapaxes(x, -1, -2)


__all__ = [
    "dot", "inner", "matmul", "matrix_transpose", "tensordot", "vdot", "vecdot",
]
