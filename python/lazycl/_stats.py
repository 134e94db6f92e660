"""Covariance and correlation (cov, corrcoef), as NumPy's: the centered observations times
their (weighted) conjugate transpose, built from a mean, a subtraction and one matrix product,
fused like any other expression."""
import operator
import warnings

import numpy as np

from . import (
    _creation, _elementwise as _ew, _join, _lazycl as _c, _linalg, _reductions as _red, _scans,
    _ufuncs as _uf, _util as _u, _views,
)
from ._complex import conjugate, imag, real
from ._indexmaps import diagonal


def _on(x, queue):
    """x as a lazycl array on `queue` (a lazycl array already there is x itself)."""
    if _u.is_array(x):
        return x if queue is None or x.queue is queue else _creation.to_device(x, queue)
    return _creation.asarray(x, device=queue)


def _two_d(x, dtype):
    """x as a 2-d array of `dtype` (NumPy's array(x, ndmin=2, dtype=dtype))."""
    x = _c.astype(x, dtype) if x.dtype != dtype else x
    if x.ndim < 2:
        x = _c.reshape(x, (1,) * (2 - x.ndim) + tuple(x.shape))
    return x


def _host_weights(w, name, n):
    """The weights `w` as float64 values on the host, with NumPy's checks (NumPy needs their
    values for those, and so the normalization, so a lazycl `w` is computed here)."""
    w = np.asarray(_creation.asnumpy(w), dtype=float)
    if name == "fweights" and not np.all(w == np.around(w)):
        raise TypeError("fweights must be integer")
    if w.ndim > 1:
        raise RuntimeError(f"cannot handle multidimensional {name}")
    if w.shape[0] != n:
        raise RuntimeError(f"incompatible numbers of samples and {name}")
    if np.any(w < 0):
        raise ValueError(f"{name} cannot be negative")
    return w


def cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None, *,
        dtype=None):
    """The covariance matrix of the variables in the rows of m (columns with rowvar=False),
    y's variables appended, as numpy.cov: NumPy's dtype (float64 or complex unless `dtype`),
    normalization (N - ddof, ddof 1 unless bias) and weights; a single variable gives a 0-d
    array. The weights are read on the host (NumPy's checks need their values); where the
    degrees of freedom are <= 0 NumPy's RuntimeWarning, and the result is inf or NaN."""
    if ddof is not None and ddof != int(ddof):
        raise ValueError("ddof must be integer")
    queue = m.queue if _u.is_array(m) else (y.queue if _u.is_array(y) else None)
    m = _on(m, queue)
    if m.ndim > 2:
        raise ValueError("m has more than 2 dimensions")
    if y is not None:
        y = _on(y, m.queue)
        if y.ndim > 2:
            raise ValueError("y has more than 2 dimensions")
    if dtype is None:
        dtype = np.result_type(m.dtype, np.float64) if y is None else \
            np.result_type(m.dtype, y.dtype, np.float64)
    dtype = np.dtype(dtype)
    X = _two_d(m, dtype)
    if not rowvar and m.ndim != 1:
        X = _c.permute_dims(X, (1, 0))
    if X.shape[0] == 0:
        return _c._full(0, (0, 0), np.float64, m.queue)
    if y is not None:
        Y = _two_d(y, dtype)
        if not rowvar and Y.shape[0] != 1:
            Y = _c.permute_dims(Y, (1, 0))
        X = _join.concatenate((X, Y), axis=0)
    if ddof is None:
        ddof = 1 if bias == 0 else 0
    ddof = operator.index(int(ddof))
    n = X.shape[1]

    w = None
    if fweights is not None:
        w = _host_weights(fweights, "fweights", n)
    if aweights is not None:
        aw = _host_weights(aweights, "aweights", n)
        w = aw if w is None else w * aw
    if w is None:
        avg = _red.mean(X, axis=1)
        fact = n - ddof
    else:
        w_sum = w.sum()
        if w_sum == 0:
            raise ZeroDivisionError("Weights sum to zero, can't be normalized")
        wd = _creation.asarray(w, device=X.queue)
        avg = _red.sum(_uf.multiply(X, wd), axis=1) / w_sum
        if ddof == 0:
            fact = w_sum
        elif aweights is None:
            fact = w_sum - ddof
        else:
            fact = w_sum - ddof * np.sum(w * aw) / w_sum
    if fact <= 0:
        warnings.warn("Degrees of freedom <= 0 for slice", RuntimeWarning, stacklevel=2)
        fact = 0.0
    scale = float(np.true_divide(1, fact))      # NumPy's own division, its warning included

    Xc = _uf.subtract(X, _c.reshape(avg, (X.shape[0], 1)))
    if Xc.dtype != X.dtype:                          # NumPy subtracts in place: X's dtype
        Xc = _c.astype(Xc, X.dtype)
    XT = _c.permute_dims(Xc if w is None else _uf.multiply(Xc, wd), (1, 0))
    if XT.dtype.kind == "c":
        XT = conjugate(XT)
    c = _linalg.matmul(Xc, XT)
    c = _uf.multiply(c, scale)                   # a Python float: c keeps its dtype
    return _views.squeeze(c)


def corrcoef(x, y=None, rowvar=True, *, dtype=None):
    """The Pearson correlation coefficients of the variables in the rows of x (columns with
    rowvar=False), y's appended, as numpy.corrcoef: cov divided by the outer product of the
    standard deviations, the real part (and the imaginary part of a complex result) clipped to
    [-1, 1]; a single variable gives c / c (1, or NaN where its variance is 0, inf or NaN)."""
    c = cov(x, y, rowvar, dtype=dtype)
    if c.ndim != 2:
        return _uf.true_divide(c, c)
    sd = _uf.sqrt(real(diagonal(c)))
    n = sd.shape[0]
    c = _uf.true_divide(c, _c.reshape(sd, (n, 1)))
    c = _uf.true_divide(c, _c.reshape(sd, (1, n)))
    if c.dtype.kind != "c":
        return _ew.clip(c, -1, 1)
    re = _ew.clip(real(c), -1, 1)
    im = _ew.clip(imag(c), -1, 1)
    return _c.astype(_c._binary("complex", re, im), c.dtype)


def average(a, axis=None, weights=None, returned=False, *, keepdims=False):
    """The (weighted) mean over `axis`, as numpy.average: sum(a * w) / sum(w), with NumPy's
    dtype (float64 for integer a), shape checks and ZeroDivisionError where the weights sum to
    0 (which reads their sums, one small force); returned=True adds the sum of the weights."""
    a = _u.as_array(a)
    if weights is None:
        avg = _red.mean(a, axis=axis, keepdims=keepdims)
        if not returned:
            return avg
        return avg, _c._full(a.size / max(avg.size, 1), tuple(avg.shape), avg.dtype, a.queue)
    w = _on(weights, a.queue)
    dt = np.result_type(a.dtype, w.dtype, "f8") if a.dtype.kind in "biu" else \
        np.result_type(a.dtype, w.dtype)
    if tuple(a.shape) != tuple(w.shape):
        if axis is None:
            raise TypeError("Axis must be specified when shapes of a and weights differ.")
        axes = _u.norm_axes(axis, a.ndim)
        if tuple(w.shape) != tuple(a.shape[d] for d in axes):
            raise ValueError("Shape of weights must be consistent with shape of a along "
                             "specified axis.")
        # w's dims along `axes` (in order), ones elsewhere, so that it broadcasts against a.
        w = _c.reshape(w, [a.shape[d] if d in axes else 1 for d in range(a.ndim)])
        w = _c.broadcast_to(w, tuple(a.shape))
    scl = _red.sum(_c.astype(w, dt), axis=axis, keepdims=keepdims)
    if bool(_red.any(_uf.equal(scl, 0))):
        raise ZeroDivisionError("Weights sum to zero, can't be normalized")
    avg = _uf.true_divide(_red.sum(_uf.multiply(_c.astype(a, dt), _c.astype(w, dt)), axis=axis,
                                keepdims=keepdims), scl)
    if not returned:
        return avg
    if tuple(scl.shape) != tuple(avg.shape):
        scl = _c.broadcast_to(scl, tuple(avg.shape))
    return avg, scl


def ptp(a, axis=None, out=None, keepdims=False):
    """max - min over `axis`, as numpy.ptp (integers wrap as NumPy's subtraction does)."""
    a = _u.as_array(a)
    r = _uf.subtract(_red.max(a, axis=axis, keepdims=keepdims),
                    _red.min(a, axis=axis, keepdims=keepdims))
    return _red._put_out(r, _u.out_of(out), "subtract")


def _not_nan(x):
    return _uf.logical_not(_uf.isnan(x))


def nanvar(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=None,
           mean=None, correction=None):
    """The variance of the non-NaN elements (NaN where none is left, or ddof >= their
    count), as numpy.nanvar: var with the NaNs masked out."""
    a = _u.as_array(a)
    if a.dtype.kind == "c":
        raise NotImplementedError("lazycl: nanvar/nanstd of complex arrays")
    if a.dtype.kind != "f":
        return _red.var(a, axis, dtype, out, ddof, keepdims, correction, where=where, mean=mean)
    if mean is not None:
        raise NotImplementedError("lazycl: nanvar/nanstd with mean= (a precomputed mean)")
    if correction is not None:
        ddof = correction
    m = _not_nan(a)
    wm = _red._where_mask(a, where)
    if wm is not None:
        m = _uf.logical_and(m, wm)
    return _red.var(a, axis, dtype, out, ddof, keepdims, where=m)


def nanstd(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=None,
           mean=None, correction=None):
    """The standard deviation of the non-NaN elements, as numpy.nanstd."""
    r = _uf.sqrt(nanvar(a, axis, dtype, None, ddof, keepdims, where=where, mean=mean,
                       correction=correction))
    return _red._put_out(r, _u.out_of(out), "add")


def _nan_to(a, v):
    a = _u.as_array(a)
    return _ew.where(_uf.isnan(a), v, a) if a.dtype.kind in "fc" else a


def nanprod(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=None):
    """The product with NaNs counted as 1, as numpy.nanprod."""
    return _red.prod(_nan_to(a, 1), axis=axis, dtype=dtype, out=out, keepdims=keepdims,
                   initial=initial, where=where)


def nancumsum(a, axis=None, dtype=None, out=None):
    """The running sum with NaNs counted as 0, as numpy.nancumsum."""
    return _scans.cumsum(_nan_to(a, 0), axis=axis, dtype=dtype, out=out)


def nancumprod(a, axis=None, dtype=None, out=None):
    """The running product with NaNs counted as 1, as numpy.nancumprod."""
    return _scans.cumprod(_nan_to(a, 1), axis=axis, dtype=dtype, out=out)


__all__ = [
    "average", "corrcoef", "cov", "nancumprod", "nancumsum", "nanprod", "nanstd", "nanvar", "ptp",
]
