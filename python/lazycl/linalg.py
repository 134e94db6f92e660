"""lazycl.linalg: norms, traces, cross products and the products, after numpy.linalg and the array
API's linalg extension. Each is views, elementwise work and reductions (or the products'
contraction), fused like any other expression: norm(Vd @ C, axis=0) never writes Vd @ C when its
contraction is short. The decompositions and solvers (svd, qr, eigh, inv, solve, det, ...) have
no device ops: NumPy computes them on the host (_host.py, with the HostFallbackWarning), and so
the matrix norms that need singular values (ord 2, -2 and 'nuc') take those from the host."""
import math
import operator

import numpy as np

from . import (
    _elementwise, _host, _indexmaps, _lazycl as _c, _reductions, _ufuncs, _util as _u, _views,
)
from ._join import stack
from ._linalg import matmul, matrix_transpose, tensordot, vecdot  # noqa: F401

from ._util import AxisError

__all__ = ["matmul", "matrix_transpose", "tensordot", "vecdot", "outer", "norm", "vector_norm",
           "matrix_norm", "cross", "trace", "diagonal"]


def _float(x):
    """x as NumPy's norms see it: its own float or complex dtype, or float64."""
    x = _u.as_array(x)
    return x if x.dtype.kind in "fc" else _c.astype(x, np.float64)


def _axes(axis, ndim):
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, (tuple, list)):
        return _u.norm_axes(tuple(axis), ndim)
    return (_u.norm_axis(axis, ndim),)


def _keep(r, shape, axes, keepdims):
    if not keepdims:
        return r
    return _c.reshape(r, [1 if d in axes else n for d, n in enumerate(shape)])


@_u.implements(getattr(np.linalg, "vector_norm", None))
def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):
    """The vector norm over `axis` (None: every element): ord 2, 1, inf, -inf, 0 (the count
    of non-zeros) or any other p (sum |x|^p)^(1/p)."""
    x = _float(x)
    axes = _axes(axis, x.ndim)
    a = _elementwise.abs(x)
    if ord == 2:
        r = _ufuncs.sqrt(_c._reduce("sum", a * a, axes))
    elif ord == 1:
        r = _c._reduce("sum", a, axes)
    elif ord == math.inf:
        r = _c._reduce("max", a, axes)
    elif ord == -math.inf:
        r = _c._reduce("min", a, axes)
    elif ord == 0:
        r = _c._reduce("sum", _c.astype(_ufuncs.not_equal(x, 0), a.dtype), axes)
    else:
        p = float(ord)
        r = _ufuncs.power(_c._reduce("sum", _ufuncs.power(a, p), axes), 1.0 / p)
    return _keep(r, x.shape, axes, keepdims)


@_u.implements(getattr(np.linalg, "matrix_norm", None))
def matrix_norm(x, /, *, keepdims=False, ord="fro"):
    """The matrix norm over the last two axes: 'fro', 1, -1, inf, -inf, and 2, -2, 'nuc' (from
    the singular values, computed on the host)."""
    x = _float(x)
    if x.ndim < 2:
        raise ValueError("Input array must be at least 2-dimensional")
    return _matrix_norm(x, (x.ndim - 2, x.ndim - 1), ord, keepdims)


def _matrix_norm(x, axes, ord, keepdims):
    r0, c0 = axes
    if r0 == c0:
        raise ValueError("Duplicate axes given.")
    a = _elementwise.abs(x)
    if ord in ("fro", "f", None):
        r = _ufuncs.sqrt(_c._reduce("sum", a * a, tuple(sorted(axes))))
    elif ord in (1, -1):
        s = _c._reduce("sum", a, (r0,))            # column sums
        c = c0 - (1 if r0 < c0 else 0)
        r = _c._reduce("max" if ord == 1 else "min", s, (c,))
    elif ord in (math.inf, -math.inf):
        s = _c._reduce("sum", a, (c0,))            # row sums
        rr = r0 - (1 if c0 < r0 else 0)
        r = _c._reduce("max" if ord == math.inf else "min", s, (rr,))
    elif ord in (2, -2, "nuc"):
        # The singular values (on the host, svdvals), reduced on the device: the largest, the
        # smallest or their sum.
        s = svdvals(_views.moveaxis(x, (r0, c0), (-2, -1)))
        r = _c._reduce({2: "max", -2: "min"}.get(ord, "sum"), s, (s.ndim - 1,))
    else:
        raise ValueError("Invalid norm order for matrices.")
    return _keep(r, x.shape, axes, keepdims)


@_u.implements(getattr(np.linalg, "norm", None))
def norm(x, ord=None, axis=None, keepdims=False):
    """numpy.linalg.norm: a vector norm over one axis (or every element), a matrix norm over
    two."""
    x = _float(x)
    if axis is None:
        if ord is None:
            r = vector_norm(x, ord=2)
            return _c.reshape(r, [1] * x.ndim) if keepdims else r
        if x.ndim == 1:
            if isinstance(ord, str):
                raise ValueError(f"Invalid norm order '{ord}' for vectors")
            return vector_norm(x, ord=ord, keepdims=keepdims)
        if x.ndim == 2:
            return _matrix_norm(x, (0, 1), ord, keepdims)
        raise ValueError("Improper number of dimensions to norm.")
    if isinstance(axis, (tuple, list)):
        axes = tuple(_u.norm_axis(a, x.ndim) for a in axis)
    else:
        axes = (_u.norm_axis(operator.index(axis), x.ndim),)
    if len(axes) == 1:
        if isinstance(ord, str):
            raise ValueError(f"Invalid norm order '{ord}' for vectors")
        return vector_norm(x, axis=axes[0], keepdims=keepdims, ord=2 if ord is None else ord)
    if len(axes) == 2:
        return _matrix_norm(x, axes, ord, keepdims)
    raise ValueError("Improper number of dimensions to norm.")


@_u.implements(getattr(np.linalg, "outer", None))
def outer(x1, x2, /):
    """The outer product of two vectors (the array API's linalg.outer: 1-d operands only)."""
    a, b = _u.as_array(x1), _u.as_array(x2)
    if a.ndim != 1 or b.ndim != 1:
        raise ValueError("linalg.outer takes 1-dimensional arrays")
    return _indexmaps.outer(a, b)


@_u.implements(getattr(np.linalg, "cross", None))
def cross(x1, x2, /, *, axis=-1):
    """The cross product of 3-element vectors along `axis` (the operands broadcast)."""
    a, b = _u.as_array(x1), _u.as_array(x2)
    shape = np.broadcast_shapes(tuple(a.shape), tuple(b.shape))
    a, b = _c.broadcast_to(a, shape), _c.broadcast_to(b, shape)
    if not shape:
        raise AxisError(axis, 0)
    ax = _u.norm_axis(axis, len(shape))
    if shape[ax] != 3:
        raise ValueError(f"cross: the vectors along axis {axis} must have 3 elements "
                         f"(got {shape[ax]})")

    def comp(x, i):
        key = [slice(None)] * len(shape)
        key[ax] = i
        return x[tuple(key)]
    a0, a1, a2 = (comp(a, i) for i in range(3))
    b0, b1, b2 = (comp(b, i) for i in range(3))
    return stack([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0], axis=ax)


@_u.implements(getattr(np.linalg, "diagonal", None))
def diagonal(x, /, *, offset=0):
    """The diagonals of the last two axes (a view)."""
    x = _u.as_array(x)
    if x.ndim < 2:
        raise ValueError("Input array must be at least 2-dimensional")
    return _indexmaps.diagonal(x, offset, -2, -1)


@_u.implements(getattr(np.linalg, "trace", None))
def trace(x, /, *, offset=0, dtype=None):
    """The sums of the diagonals of the last two axes (NumPy's sum dtype rules)."""
    d = diagonal(x, offset=offset)
    return _reductions.sum(d, axis=-1, dtype=dtype)


# ---- decompositions and solvers: NumPy on the host (python/lazycl/_host.py) ------------------

def cholesky(x, /, *, upper=False):
    """The Cholesky factor (lower, or upper with upper=True) of each Hermitian positive-definite
    matrix; on the host (HostFallbackWarning)."""
    return _host.call("lazycl.linalg.cholesky", np.linalg.cholesky, x, upper=upper)


def det(x, /):
    """The determinant of each matrix; on the host."""
    return _host.call("lazycl.linalg.det", np.linalg.det, x)


def eigh(x, /):
    """EighResult(eigenvalues, eigenvectors) of each Hermitian matrix; on the host."""
    return _host.call("lazycl.linalg.eigh", np.linalg.eigh, x)


def eigvalsh(x, /):
    """The eigenvalues (ascending) of each Hermitian matrix; on the host."""
    return _host.call("lazycl.linalg.eigvalsh", np.linalg.eigvalsh, x)


def inv(x, /):
    """The inverse of each square matrix; on the host (LinAlgError where singular)."""
    return _host.call("lazycl.linalg.inv", np.linalg.inv, x)


def matrix_power(x, n, /):
    """Each square matrix raised to the integer power n (the inverse's for n < 0); on the host."""
    return _host.call("lazycl.linalg.matrix_power", np.linalg.matrix_power, x, n)


def matrix_rank(x, /, *, rtol=None):
    """The rank of each matrix (singular values above rtol * the largest); on the host."""
    return _host.call("lazycl.linalg.matrix_rank", np.linalg.matrix_rank, x, rtol=rtol)


def pinv(x, /, *, rtol=None):
    """The Moore-Penrose pseudo-inverse of each matrix; on the host."""
    return _host.call("lazycl.linalg.pinv", np.linalg.pinv, x, rtol=rtol)


def qr(x, /, *, mode="reduced"):
    """QRResult(Q, R) of each matrix ('reduced' or 'complete'); on the host."""
    if mode not in ("reduced", "complete"):
        raise ValueError(f"Unrecognized mode '{mode}'")
    return _host.call("lazycl.linalg.qr", np.linalg.qr, x, mode=mode)


def slogdet(x, /):
    """SlogdetResult(sign, logabsdet) of each square matrix; on the host."""
    return _host.call("lazycl.linalg.slogdet", np.linalg.slogdet, x)


def solve(x1, x2, /):
    """The solution of x1 @ x = x2 for each square x1 (x2 a vector only when 1-d, as NumPy 2
    and the standard); on the host."""
    return _host.call("lazycl.linalg.solve", np.linalg.solve, x1, x2)


def svd(x, /, *, full_matrices=True):
    """SVDResult(U, S, Vh) of each matrix; on the host."""
    return _host.call("lazycl.linalg.svd", np.linalg.svd, x, full_matrices=full_matrices)


def svdvals(x, /):
    """The singular values (descending) of each matrix; on the host."""
    return _host.call("lazycl.linalg.svdvals", np.linalg.svdvals, x)


__all__ += ["cholesky", "det", "eigh", "eigvalsh", "inv", "matrix_power", "matrix_rank", "pinv",
            "qr", "slogdet", "solve", "svd", "svdvals"]


# ---- the rest of numpy.linalg: NumPy on the host too, and multi_dot as products -----------------

LinAlgError = np.linalg.LinAlgError


def multi_dot(arrays, *, out=None):
    """The product of the matrices in `arrays` (the first may be 1-d, a row; the last 1-d, a
    column), as numpy.linalg.multi_dot: matmul from the left, one contraction each (NumPy
    picks the cheapest order; the values differ only by rounding)."""
    _u.no_out(out)
    arrays = [_u.as_array(x) for x in arrays]
    if len(arrays) < 2:
        raise ValueError("Expecting at least two arrays.")
    for x in arrays[1:-1]:
        if x.ndim != 2:
            raise ValueError(f"{x.ndim}-dimensional array given. Array must be two-dimensional")
    for x in (arrays[0], arrays[-1]):
        if x.ndim not in (1, 2):
            raise ValueError(f"{x.ndim}-dimensional array given. Array must be two-dimensional")
    r = arrays[0]
    for x in arrays[1:]:
        r = matmul(r, x)
    return r


def cond(x, p=None):
    """The condition number of each matrix; on the host."""
    return _host.call("lazycl.linalg.cond", np.linalg.cond, x, p)


def eig(a):
    """EigResult(eigenvalues, eigenvectors) of each square matrix; on the host."""
    return _host.call("lazycl.linalg.eig", np.linalg.eig, a)


def eigvals(a):
    """The eigenvalues of each square matrix; on the host."""
    return _host.call("lazycl.linalg.eigvals", np.linalg.eigvals, a)


def lstsq(a, b, rcond=None):
    """(x, residuals, rank, s) of the least-squares solution of a @ x = b, NumPy's plain tuple
    (rank a Python int); on the host."""
    x, res, rank, s = _host.call("lazycl.linalg.lstsq",
                                 lambda *args: _Lstsq(*np.linalg.lstsq(*args)), a, b, rcond)
    return x, res, int(rank), s


class _Lstsq(tuple):
    """lstsq's four results as one tuple type _host.call can rebuild (NumPy's is plain)."""

    def __new__(cls, *parts):
        return tuple.__new__(cls, parts)


def tensorinv(a, ind=2):
    """The inverse of a under tensordot over `ind` axes; on the host."""
    return _host.call("lazycl.linalg.tensorinv", np.linalg.tensorinv, a, ind)


def tensorsolve(a, b, axes=None):
    """x with tensordot(a, x, x.ndim) == b; on the host."""
    return _host.call("lazycl.linalg.tensorsolve", np.linalg.tensorsolve, a, b, axes)


__all__ += ["LinAlgError", "multi_dot", "cond", "eig", "eigvals", "lstsq", "tensorinv",
            "tensorsolve"]

# numpy.linalg's names for the products of the namespace (_linalg.py).
for _f in (matmul, matrix_transpose, tensordot, vecdot):
    _u.implements(getattr(np.linalg, _f.__name__, None))(_f)
del _f
