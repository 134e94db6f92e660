"""Complex numbers in the front end: the parts, the conjugate, the angle, and the reductions
NumPy orders lexicographically (max, min, argmax, argmin and their nan forms), composed of
reductions of the parts (the engine's complex ops are in codegen/complex.c)."""
import math

from . import _lazycl as _c
from . import _util as _u
from ._views import reduce_axes as _reduce_axes

# The ufunc of each reduction (for NumPy's messages).
UFUNC_OF = {"max": "maximum", "min": "minimum", "nanmax": "fmax", "nanmin": "fmin"}


def real(val):
    """The real part (x itself for a real array, as NumPy's view)."""
    x = _u.as_array(val)
    return _c._unary("real", x) if x.dtype.kind == "c" else x


def imag(val):
    """The imaginary part (zeros of x's dtype for a real array)."""
    return _c._unary("imag", _u.as_array(val))


def conjugate(x, /):
    """The complex conjugate (x for a real array), as numpy.conjugate (lazy)."""
    return _c._unary("conjugate", _u.as_array(x))



def angle(z, deg=False):
    """The argument of z, atan2(imag, real), in radians (degrees with deg=True)."""
    z = _u.as_array(z)
    if z.dtype.kind != "c":
        z = _c.astype(z, _u.float_of(z.dtype))
    a = _c._binary("arctan2", imag(z), real(z))
    return a * (180.0 / math.pi) if deg else a


def _parts(z, big):
    """For each row of z (the last axis): the lexicographic extreme of its non-NaN elements as
    its real and imaginary parts, and where z has a NaN part."""
    inf = math.inf if not big else -math.inf
    red = "max" if big else "min"
    re, im = real(z), imag(z)
    nan = _c._binary("logical_or", _c._unary("isnan", re), _c._unary("isnan", im))
    last = (z.ndim - 1,)
    r1 = _c._reduce(red, _c.where(nan, inf, re), last)
    r1k = _c.reshape(r1, list(r1.shape) + [1])
    ok = _c._binary("logical_and", _c._unary("logical_not", nan), _c._binary("equal", re, r1k))
    r2 = _c._reduce(red, _c.where(ok, im, inf), last)
    return r1, r2, nan


def extreme(op, x, axes):
    """max/min/nanmax/nanmin of complex x over `axes`: NumPy's lexicographic order; max and
    min give the first element with a NaN part where there is one, the nan forms skip them
    (NaN where a row has nothing else)."""
    if not axes:
        return _c._copy(x)
    z = _reduce_axes(x, axes)[0]
    n = z.shape[-1]
    if n == 0:
        raise ValueError(f"zero-size array to reduction operation "
                         f"{UFUNC_OF[op]} which has no identity")
    big = op in ("max", "nanmax")
    r1, r2, nan = _parts(z, big)
    last = (z.ndim - 1,)
    val = _c._binary("complex", r1, r2)
    val = _c.astype(val, x.dtype)
    if op.startswith("nan"):
        allnan = _c._reduce("all", nan, last)
        return _c.where(allnan, _c._full(complex(math.nan, math.nan), (), x.dtype, x.queue), val)
    anynan = _c._reduce("any", nan, last)
    first = _c._reduce("argmax", nan, last)
    at = _c.reshape(_c._gather(z, _c.reshape(first, list(first.shape) + [1]), z.ndim - 1,
                               z.ndim - 1), list(first.shape))
    return _c.where(anynan, at, val)


def arg_extreme(op, x, axis, keepdims):
    """argmax/argmin of complex x (one axis, or None: flattened): the first index of the
    lexicographic extreme, or of the first element with a NaN part."""
    if axis is None:
        axes = tuple(range(x.ndim))
    else:
        axes = (_u.norm_axis(axis, x.ndim),) if x.ndim else _u.norm_axes(axis, 0)
    z = _reduce_axes(x, axes)[0]
    if z.shape[-1] == 0:
        raise ValueError(f"attempt to get {op} of an empty sequence")
    r1, r2, nan = _parts(z, op == "argmax")
    last = (z.ndim - 1,)
    k = list(r1.shape) + [1]
    hit = _c._binary("logical_and", _c._unary("logical_not", nan),
                     _c._binary("equal", real(z), _c.reshape(r1, k)))
    hit = _c._binary("logical_and", hit, _c._binary("equal", imag(z), _c.reshape(r2, k)))
    anynan = _c.reshape(_c._reduce("any", nan, last), k)
    r = _c._reduce("argmax", _c.where(anynan, nan, hit), last)
    if keepdims:
        shape = [1 if d in axes else s for d, s in enumerate(x.shape)]
        r = _c.reshape(r, shape)
    return r


__all__ = [
    "angle", "imag", "real",
]
