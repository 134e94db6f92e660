"""Everyday math functions with NumPy's semantics, dtypes and errors: the ufuncs fabs, deg2rad,
rad2deg, degrees, radians, signbit, spacing, nextafter, ldexp, frexp, modf, divmod,
float_power, gcd, lcm, and the functions isclose, allclose, array_equal, array_equiv,
nan_to_num, sinc, interp, convolve, correlate, gradient, polyval.

The ufuncs are elementwise graph nodes (lazy; they fuse with their neighbours). Their result
dtype and their errors are NumPy's own: NumPy resolves the loop on empty arrays of the inputs'
dtypes (Python scalars stay weak, NEP 50), and the inputs are cast to that loop's dtype. Where
the loop is float16, lazycl (which has no float16) computes in float32, as for exp or sqrt.
nextafter, ldexp, frexp's exponent, gcd and lcm are graph ops of their own (graph/ops.def);
the others are compositions of existing ops.

allclose, array_equal and array_equiv force their one reduction and return a Python bool, as
NumPy does; the others return lazy arrays (a 0-d array where NumPy returns a scalar).
"""
import math
import operator
import warnings

import numpy as np

from . import (
    _creation, _elementwise as _ew, _index, _join, _lazycl as _c, _reductions as _red, _setops,
    _sort, _ufuncs as _uf, _views, _write,
)
from ._util import (
    is_array as _is_array, norm_axis_tuple as _normalize_axis_tuple, queue_of as _queue_of,
)

__all__ = ["fabs", "deg2rad", "rad2deg", "degrees", "radians", "signbit", "spacing",
           "nextafter", "ldexp", "frexp", "modf", "divmod", "float_power", "gcd", "lcm",
           "isclose", "allclose", "array_equal", "array_equiv", "nan_to_num", "sinc", "interp",
           "convolve", "correlate", "gradient", "polyval"]

#: The ufuncs here that np.<name>(lazycl array) dispatches to (__array_ufunc__).
UFUNCS = ("fabs", "deg2rad", "rad2deg", "degrees", "radians", "signbit", "spacing",
          "nextafter", "ldexp", "frexp", "modf", "divmod", "float_power", "gcd", "lcm")

_PYSCALAR = (bool, int, float)


def _lc_dtype(dt):
    """lazycl's dtype for a NumPy loop dtype (float16 computes in float32)."""
    dt = np.dtype(dt)
    return np.dtype(np.float32) if dt == np.float16 else dt


def _proxy(x):
    """What NumPy sees of x when resolving a loop: Python scalars as they are (weak), arrays as
    empty arrays of their dtype."""
    if type(x) in _PYSCALAR:
        return x
    if _is_array(x):
        return np.empty(0, x.dtype)
    return np.empty(0, np.asarray(x).dtype)


def _loop(ufunc, *args):
    """The dtypes NumPy's `ufunc` gives for these inputs (a tuple, one per output), raising
    NumPy's own TypeError / OverflowError where it refuses them."""
    with np.errstate(all="ignore"):
        r = ufunc(*[_proxy(a) for a in args])
    r = r if isinstance(r, tuple) else (r,)
    return tuple(_lc_dtype(o.dtype) for o in r)


def _operands(args, dt):
    """args cast to dtype dt on one queue: lazycl arrays cast (lazily), Python scalars left weak
    (the op settles them into dt), anything else uploaded as dt."""
    q = _queue_of(*args)
    out = []
    for a in args:
        if _is_array(a):
            out.append(a if np.dtype(a.dtype) == dt else _c.astype(a, dt))
        elif type(a) in _PYSCALAR and q is not None:
            # A Python int in a float loop is that float (lazycl holds weak ints as int64).
            out.append(float(a) if dt.kind == "f" and type(a) is int else a)
        else:
            v = np.asarray(a, dtype=dt) if type(a) not in _PYSCALAR else np.asarray(a).astype(dt)
            out.append(_c._full(v[()], (), dt, q) if v.ndim == 0 else
                       _creation.asarray(v, device=q))
            q = out[-1].queue
    return out


def _ufunc1(ufunc, x):
    dt = _loop(ufunc, x)[0]
    return _operands([x], dt)[0], dt


def _ufunc2(ufunc, x1, x2):
    dt = _loop(ufunc, x1, x2)[0]
    a, b = _operands([x1, x2], dt)
    return a, b, dt


# ---- ufuncs -------------------------------------------------------------------------------

def fabs(x, /):
    """|x| as a float, as numpy.fabs (integers and bools give floats)."""
    x, _ = _ufunc1(np.fabs, x)
    return _uf.absolute(x)


def _scaled(ufunc, x, c64, c32):
    x, dt = _ufunc1(ufunc, x)
    return _uf.multiply(x, c64 if dt == np.float64 else c32)


# NumPy's constants: x * (pi / 180) and x * (180 / pi), the quotient taken in the loop's dtype.
_D2R32 = float(np.float32(np.pi) / np.float32(180))
_R2D32 = float(np.float32(180) / np.float32(np.pi))


def deg2rad(x, /):
    """Degrees to radians, as numpy.deg2rad: x * (pi / 180)."""
    return _scaled(np.deg2rad, x, math.pi / 180.0, _D2R32)


def radians(x, /):
    """Degrees to radians, as numpy.radians."""
    return _scaled(np.radians, x, math.pi / 180.0, _D2R32)


def rad2deg(x, /):
    """Radians to degrees, as numpy.rad2deg: x * (180 / pi)."""
    return _scaled(np.rad2deg, x, 180.0 / math.pi, _R2D32)


def degrees(x, /):
    """Radians to degrees, as numpy.degrees."""
    return _scaled(np.degrees, x, 180.0 / math.pi, _R2D32)


def signbit(x, /):
    """True where the sign bit is set (-0.0 and NaNs with the bit included), as numpy.signbit."""
    _loop(np.signbit, x)
    x = x if _is_array(x) else _operands([x], np.asarray(x).dtype)[0]
    k = np.dtype(x.dtype).kind
    if k == "f":
        return _uf.less(_uf.copysign(1.0, x), 0)
    if k == "i":
        return _uf.less(x, 0)
    return _creation.full_like(x, False, dtype=np.bool_)


def nextafter(x1, x2, /):
    """The next float after x1 towards x2, as numpy.nextafter."""
    a, b, _ = _ufunc2(np.nextafter, x1, x2)
    return _c._binary("nextafter", a, b)


def spacing(x, /):
    """The distance from x to the next float away from zero, as numpy.spacing (NaN for
    infinities; the smallest subnormal for both zeros)."""
    x, dt = _ufunc1(np.spacing, x)
    nx = _c._binary("nextafter", x, _uf.copysign(math.inf, x))
    r = _uf.subtract(nx, x)
    r = _c.where(_uf.equal(x, 0), np.finfo(dt).smallest_subnormal, r)
    r = _c.where(_uf.isnan(x), x, r)            # NaN keeps its sign bit, as NumPy's
    return _c.where(_uf.isinf(x), math.nan, r)


def ldexp(x1, x2, /):
    """x1 * 2**x2 (exactly, subnormals included), as numpy.ldexp; x2 must be an integer."""
    a, b, _ = _ufunc2(np.ldexp, x1, x2)
    return _c._binary("ldexp", a, b)


def frexp(x, /, out=None):
    """(mantissa, exponent): x == mantissa * 2**exponent with 0.5 <= |mantissa| < 1, as
    numpy.frexp (exponent int32; 0 for zeros, infinities and NaN, which keep themselves)."""
    dm, de = _loop(np.frexp, x)
    x = _operands([x], dm)[0]
    e = _c._unary("frexp_exponent", x)
    return _two_out((_c._binary("ldexp", x, _uf.negative(e)), _c.astype(e, de)), out,
                    "frexp")


def modf(x, /, out=None):
    """(fractional part, integral part), both with x's sign, as numpy.modf (modf(inf) is
    (0.0, inf))."""
    x, _ = _ufunc1(np.modf, x)
    i = _uf.trunc(x)
    # its own trunc: f read from the output i would cost a second kernel
    f = _uf.copysign(_c.where(_uf.isinf(x), 0, _uf.subtract(x, _uf.trunc(x))), x)
    return _two_out((f, i), out, "modf")


def divmod(x1, x2, /, out=None):  # noqa: A001
    """(floor_divide(x1, x2), remainder(x1, x2)), as numpy.divmod."""
    x1, x2, _ = _ufunc2(np.divmod, x1, x2)
    return _two_out((_uf.floor_divide(x1, x2), _uf.remainder(x1, x2)), out, "divmod")


def _two_out(r, out, name):
    """The two results of a two-output ufunc, or NumPy's out=(o1, o2) written (None skips one)."""
    if out is None:
        return r
    if not isinstance(out, tuple) or len(out) != 2:
        raise ValueError("The 'out' tuple must have exactly one entry per ufunc output")
    return tuple(v if o is None else _write.assign_out(o, v, name) for o, v in zip(out, r))


def float_power(x1, x2, /):
    """x1 ** x2 computed in float64 (at least), as numpy.float_power: always the device's pow,
    never the square or square root a constant exponent takes in `power`."""
    a, b, dt = _ufunc2(np.float_power, x1, x2)
    if not _is_array(b):
        b = _c._full(b, (), dt, a.queue)
    if not _is_array(a):
        a = _c._full(a, (), dt, b.queue)
    shape = np.broadcast_shapes(tuple(a.shape), tuple(b.shape))
    if b.ndim == 0:
        # A 0-d exponent would be taken as a constant (x**0.5 as sqrt): give it a dim.
        b = _c.reshape(b, (1,))
        return _c.reshape(_c._binary("power", a, b), shape)
    return _c._binary("power", a, b)


def gcd(x1, x2, /):
    """The greatest common divisor of |x1| and |x2|, as numpy.gcd (integers only)."""
    a, b, _ = _ufunc2(np.gcd, x1, x2)
    return _c._binary("gcd", a, b)


def lcm(x1, x2, /):
    """The least common multiple of |x1| and |x2|, as numpy.lcm (integers only; wraps)."""
    a, b, _ = _ufunc2(np.lcm, x1, x2)
    return _c._binary("lcm", a, b)


# ---- comparisons ------------------------------------------------------------------------

def _lift(v, q):
    """v as NumPy's isclose holds it: Python scalars as they are (weak), NumPy scalars and 0-d
    arrays as NumPy scalars (strong), anything else an array on q."""
    if type(v) in (bool, int, float) or _is_array(v):
        return v
    a = np.asarray(v)
    return a[()] if a.ndim == 0 else _creation.asarray(a, device=q)


def _host_or(f_host, f_lazy, v):
    """f of v: on the host for a scalar (a Python bool), else lazily."""
    return f_lazy(v) if _is_array(v) else bool(f_host(v))


def _all_finite(v):
    if _is_array(v):
        return bool(_red.all(_uf.isfinite(v)))
    return bool(np.all(np.isfinite(v)))


def isclose(a, b, rtol=1.e-5, atol=1.e-8, equal_nan=False):
    """|a - b| <= atol + rtol * |b| (and b finite), or a == b; NaNs equal with equal_nan; as
    numpy.isclose (a bool array; 0-d for scalars)."""
    q = _queue_of(a, b, rtol, atol)
    x, y, atol, rtol = (_lift(v, q) for v in (a, b, atol, rtol))
    if _is_array(y):
        dt = np.result_type(y.dtype, 1.0)
        y = y if np.dtype(y.dtype) == dt else _c.astype(y, dt)
    elif isinstance(y, np.generic):
        y = np.result_type(y.dtype, 1.0).type(y)
    elif isinstance(y, int):
        y = float(y)
    if not (_all_finite(atol) and _all_finite(rtol)):
        err = np.geterr()["invalid"]
        msg = f"One of rtol or atol is not valid, atol: {atol}, rtol: {rtol}"
        if err == "warn":
            warnings.warn(msg, RuntimeWarning, stacklevel=2)
        elif err == "raise":
            raise FloatingPointError(msg)
        elif err == "print":
            print(msg)
    if not _is_array(x) and not _is_array(y):
        x = _creation.asarray(np.asarray(x), device=q)
    yfin = _host_or(np.isfinite, _uf.isfinite, y)
    close = _uf.less_equal(_uf.absolute(_uf.subtract(x, y)),
                            _uf.add(atol, _uf.multiply(rtol, _uf.absolute(y))))
    r = _uf.bitwise_or(_uf.bitwise_and(close, yfin), _uf.equal(x, y))
    if equal_nan:
        xn = _host_or(np.isnan, _uf.isnan, x)
        yn = _host_or(np.isnan, _uf.isnan, y)
        r = _uf.bitwise_or(r, _uf.bitwise_and(xn, yn))
    return r


def allclose(a, b, rtol=1.e-5, atol=1.e-8, equal_nan=False):
    """Whether every element is close (isclose), as a Python bool; forces one reduction."""
    return bool(_red.all(isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)))


def _pair(a1, a2):
    q = _queue_of(a1, a2)
    return [a if _is_array(a) else _creation.asarray(np.asarray(a), device=q) for a in (a1, a2)]


def array_equal(a1, a2, equal_nan=False):
    """Same shape and equal elements (NaNs equal with equal_nan), as a Python bool."""
    try:
        a1, a2 = _pair(a1, a2)
    except Exception:
        return False
    if tuple(a1.shape) != tuple(a2.shape):
        return False
    eq = _uf.equal(a1, a2)
    if equal_nan:
        if a1 is a2:
            return True
        if np.dtype(a1.dtype).kind in "fc" or np.dtype(a2.dtype).kind in "fc":
            eq = _uf.logical_or(eq, _uf.logical_and(_uf.isnan(a1), _uf.isnan(a2)))
    return bool(_red.all(eq))


def array_equiv(a1, a2):
    """Shapes that broadcast together and equal elements, as a Python bool."""
    try:
        a1, a2 = _pair(a1, a2)
        np.broadcast_shapes(tuple(a1.shape), tuple(a2.shape))
    except Exception:
        return False
    return bool(_red.all(_uf.equal(a1, a2)))


def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    """NaN -> nan, +inf -> posinf (default the dtype's max), -inf -> neginf (its min), as
    numpy.nan_to_num; integer and bool arrays are returned as they are (a copy with copy=True).
    copy=False writes into x (a lazycl array, or a NumPy array, which gets the values)."""
    if _is_array(x):
        a = x
    else:
        a = _creation.asarray(np.asarray(x))
    dt = np.dtype(a.dtype)
    if dt.kind == "c":
        # The parts apart, as NumPy (its limits are the parts' float type's).
        parts = [nan_to_num(_c._unary(p, a), True, nan, posinf, neginf) for p in ("real", "imag")]
        r = _c._binary("complex", *parts)
    elif dt.kind != "f":
        return _creation.copy(a) if copy and a is x else a
    else:
        fi = np.finfo(dt)
        maxf = fi.max if posinf is None else posinf
        minf = fi.min if neginf is None else neginf
        inf = _uf.isinf(a)
        r = _c.where(_uf.isnan(a), nan, a)
        r = _c.where(_uf.logical_and(inf, _uf.greater(a, 0)), maxf, r)
        r = _c.where(_uf.logical_and(inf, _uf.less(a, 0)), minf, r)
    r = r if np.dtype(r.dtype) == dt else _c.astype(r, dt)
    if copy:
        return r
    if _is_array(x):
        _write.setitem(x, Ellipsis, r)
        return x
    if isinstance(x, np.ndarray):
        np.copyto(x, r.numpy(), casting="unsafe")
        return x
    return r


# ---- functions --------------------------------------------------------------------------

def sinc(x):
    """sin(pi x) / (pi x), 1 at 0, as numpy.sinc (integers give float64)."""
    x = _uf.multiply(math.pi, x if _is_array(x) else _creation.asarray(np.asarray(x)))
    dt = np.dtype(x.dtype)
    eps = np.finfo(dt).eps if dt.kind == "f" else 1e-20
    y = _c.where(_uf.not_equal(x, 0), x, eps)
    return _uf.true_divide(_uf.sin(y), y)


def polyval(p, x):
    """p[0] * x**(n-1) + ... + p[n-1] by Horner's rule, as numpy.polyval: one fused
    expression (p held on the host, or its elements read as 0-d views of a lazycl array)."""
    if not _is_array(p):
        p = np.asarray(p)
    x = x if _is_array(x) else _creation.asarray(np.asarray(x), device=_queue_of(p))
    y = _creation.zeros_like(x)
    for pv in p:
        y = _uf.add(_uf.multiply(y, x), pv)
    return y


def _depth_error(v, a):
    """NumPy's ValueError for an input of the wrong depth where a 1-d array is wanted."""
    if a.ndim == 0:
        return ValueError("object of too small depth for desired array")
    if _is_array(v) or isinstance(v, np.ndarray):
        return ValueError("object too deep for desired array")
    return ValueError("setting an array element with a sequence. The requested array would "
                      "exceed the maximum number of dimension of 1.")


def _as_float64_1d(v, q):
    """v as a 1-d float64 lazycl array, with NumPy's errors for other depths."""
    a = v if _is_array(v) else _creation.asarray(np.asarray(v), device=q)
    if a.ndim != 1:
        raise _depth_error(v, a)
    return a if np.dtype(a.dtype) == np.float64 else _c.astype(a, np.float64)


def _is_complex(v):
    dt = np.dtype(v.dtype) if _is_array(v) else np.asarray(v).dtype
    return dt.kind == "c"


def interp(x, xp, fp, left=None, right=None, period=None):
    """Piecewise linear interpolation of (xp, fp) at x, as numpy.interp (float64, or
    complex128 for complex fp: the parts interpolated apart; left, right and period as
    NumPy's). xp is searched on the device (lazycl.searchsorted), and the interpolation is one
    fused elementwise kernel over x."""
    q = _queue_of(x, xp, fp)
    if _is_complex(fp) or any(isinstance(v, complex) for v in (left, right)):
        f = fp if _is_array(fp) else _creation.asarray(np.asarray(fp, dtype=np.complex128),
                                                       device=q)
        f = _c.astype(f, np.complex128)
        part = [None if v is None else (complex(v).real, complex(v).imag) for v in (left, right)]
        re = interp(x, xp, _c._unary("real", f), *(None if p is None else p[0] for p in part),
                    period=period)
        im = interp(x, xp, _c._unary("imag", f), *(None if p is None else p[1] for p in part),
                    period=period)
        return _c._binary("complex", re, im)
    if period is not None:
        if period == 0:
            raise ValueError("period must be a non-zero value")
        period = abs(period)
        left = right = None
        xa = [v if _is_array(v) else _creation.asarray(np.asarray(v, dtype=np.float64), device=q)
              for v in (x, xp, fp)]
        x, xp, fp = [v if np.dtype(v.dtype) == np.float64 else _c.astype(v, np.float64)
                     for v in xa]
        if xp.ndim != 1 or fp.ndim != 1:
            raise ValueError("Data points must be 1-D sequences")
        if xp.shape[0] != fp.shape[0]:
            raise ValueError("fp and xp are not of the same length")
        x = _uf.remainder(x, period)
        xp = _uf.remainder(xp, period)
        order = _sort.argsort(xp)
        xp, fp = _index.take(xp, order), _index.take(fp, order)
        xp = _join.concatenate((_uf.subtract(xp[-1:], period), xp, _uf.add(xp[0:1], period)))
        fp = _join.concatenate((fp[-1:], fp, fp[0:1]))
    fp = _as_float64_1d(fp, q)
    xp = _as_float64_1d(xp, fp.queue)
    x = x if _is_array(x) else _creation.asarray(np.asarray(x), device=fp.queue)
    x = x if np.dtype(x.dtype) == np.float64 else _c.astype(x, np.float64)
    n = xp.shape[0]
    if n == 0:
        raise ValueError("array of sample points is empty")
    if fp.shape[0] != n:
        raise ValueError("fp and xp are not of the same length.")
    lval = fp[0] if left is None else float(left)
    rval = fp[n - 1] if right is None else float(right)
    if n == 1:
        return _c.where(_uf.less(x, xp[0]), lval,
                        _c.where(_uf.greater(x, xp[0]), rval, fp[0]))
    j = _uf.subtract(_setops.searchsorted(xp, x, side="right"), 1)
    jc = _ew.clip(j, 0, n - 2)
    x0, x1 = _index.take(xp, jc), _index.take(xp, _uf.add(jc, 1))
    y0, y1 = _index.take(fp, jc), _index.take(fp, _uf.add(jc, 1))
    slope = _uf.true_divide(_uf.subtract(y1, y0), _uf.subtract(x1, x0))
    r = _uf.add(_uf.multiply(slope, _uf.subtract(x, x0)), y0)
    # A NaN in one direction (an infinite slope, say): NumPy tries the other.
    r2 = _uf.add(_uf.multiply(slope, _uf.subtract(x, x1)), y1)
    r2 = _c.where(_uf.logical_and(_uf.isnan(r2), _uf.equal(y0, y1)), y0, r2)
    r = _c.where(_uf.isnan(r), r2, r)
    r = _c.where(_uf.equal(x0, x), y0, r)
    r = _c.where(_uf.equal(j, n - 1), fp[n - 1], r)
    r = _c.where(_uf.less(x, xp[0]), lval, r)
    r = _c.where(_uf.greater(x, xp[n - 1]), rval, r)
    return _c.where(_uf.isnan(x), x, r)


# ---- convolve / correlate ------------------------------------------------------------------

def _mode(mode):
    """NumPy's convolve/correlate mode: 0 valid, 1 same, 2 full."""
    if isinstance(mode, str):
        first = mode[:1].lower()
        if first not in ("v", "s", "f"):
            raise ValueError(f"mode must be one of 'valid', 'same', or 'full' (got {mode!r})")
        if mode not in ("valid", "same", "full"):
            raise ValueError("Use one of 'valid', 'same', or 'full' for convolve/correlate mode")
        return {"v": 0, "s": 1, "f": 2}[first]
    try:
        if isinstance(mode, (bool, np.bool_)):
            raise TypeError
        m = operator.index(mode)
    except TypeError:
        raise TypeError("convolve/correlate mode not understood") from None
    if m not in (0, 1, 2):
        raise ValueError("integer convolve/correlate mode must be 0, 1, or 2")
    return m


def _vector(v, q, ndmin):
    a = v if _is_array(v) else _creation.asarray(np.asarray(v), device=q)
    if a.ndim == 0 and ndmin:
        a = _c.reshape(a, (1,))
    if a.ndim != 1:
        raise _depth_error(v, a)
    return a


def _correlate(a1, a2, mode):
    """NumPy's _pyarray_correlate: out[k] = sum_i a1[k - n_left + i] * a2[i] (a1 read as 0
    outside it), as one reduction whose gathers and products are its prologue. Returns the
    result and whether the inputs were swapped (a2 the longer)."""
    dt = np.result_type(a1.dtype, a2.dtype)
    a1 = a1 if np.dtype(a1.dtype) == dt else _c.astype(a1, dt)
    a2 = a2 if np.dtype(a2.dtype) == dt else _c.astype(a2, dt)
    n1, n2 = a1.shape[0], a2.shape[0]
    inverted = n1 < n2
    if inverted:
        a1, a2, n1, n2 = a2, a1, n2, n1
    if mode == 0:
        length, n_left = n1 - n2 + 1, 0
    elif mode == 1:
        length, n_left = n1, n2 // 2
    else:
        length, n_left = n1 + n2 - 1, n2 - 1
    q = a1.queue
    k = _c.reshape(_c._iota(-n_left, 1, length, np.int64, q), (length, 1))
    i = _c.reshape(_c._iota(0, 1, n2, np.int64, q), (1, n2))
    m = _uf.add(k, i)
    inside = _uf.logical_and(_uf.greater_equal(m, 0), _uf.less(m, n1))
    g = _index.take(a1, _ew.clip(m, 0, n1 - 1))
    if dt.kind == "b":
        r = _red.any(_uf.logical_and(_uf.logical_and(g, _c.reshape(a2, (1, n2))), inside),
                     axis=1)
    else:
        prod = _c.where(inside, _uf.multiply(g, _c.reshape(a2, (1, n2))),
                        _c._full(0, (), dt, q))
        r = _red.sum(prod, axis=1, dtype=dt)
    return r, inverted


def correlate(a, v, mode="valid"):
    """The cross-correlation of two 1-d sequences, as numpy.correlate (modes 'valid',
    'same', 'full'); its dtype is the inputs' common one (integers wrap, bools are any/and)."""
    m = _mode(mode)
    q = _queue_of(a, v)
    a, v = _vector(a, q, False), _vector(v, q, False)
    if a.shape[0] == 0:
        raise ValueError("first array argument cannot be empty")
    if v.shape[0] == 0:
        raise ValueError("second array argument cannot be empty")
    r, inverted = _correlate(a, v, m)
    return _views.flip(r) if inverted else r


def convolve(a, v, mode="full"):
    """The discrete linear convolution of two 1-d sequences, as numpy.convolve (modes 'full',
    'same', 'valid')."""
    q = _queue_of(a, v)
    a, v = _vector(a, q, True), _vector(v, q, True)
    if a.shape[0] == 0:
        raise ValueError("a cannot be empty")
    if v.shape[0] == 0:
        raise ValueError("v cannot be empty")
    if v.shape[0] > a.shape[0]:
        a, v = v, a
    return _correlate(a, _views.flip(v), _mode(mode))[0]


# ---- gradient ------------------------------------------------------------------------------

def _spacing_of(distances, length):
    """One spacing argument of gradient as NumPy keeps it: a scalar (as given), or the
    differences of 1-d coordinates (a NumPy array; their first element when all are equal).
    Coordinates held in a lazycl array are read to the host (NumPy decides on their values
    whether the spacing is uniform)."""
    d = np.asarray(distances.numpy() if _is_array(distances) else distances)
    if d.ndim == 0:
        return distances
    if d.ndim != 1:
        raise ValueError("distances must be either scalars or 1d")
    if len(d) != length:
        raise ValueError("when 1d, distances must match the length of the corresponding "
                         "dimension")
    if np.issubdtype(d.dtype, np.integer):
        d = d.astype(np.float64)
    diffx = np.diff(d)
    if (diffx == diffx[0]).all():
        diffx = diffx[0]
    return diffx


def gradient(f, *varargs, axis=None, edge_order=1):
    """The gradient by second-order central differences inside and first- or second-order
    one-sided differences at the edges, as numpy.gradient (spacing: scalars or 1-d
    coordinates per axis). Each axis's result is one join of three lazy pieces (the interior
    and the two edges) that fuses into its consumer."""
    f = f if _is_array(f) else _creation.asarray(np.asarray(f))
    N = f.ndim
    axes = tuple(range(N)) if axis is None else _normalize_axis_tuple(axis, N)
    len_axes = len(axes)
    n = len(varargs)
    if n == 0:
        dx = [1.0] * len_axes
    elif n == 1 and np.ndim(varargs[0]) == 0:
        dx = list(varargs) * len_axes
    elif n == len_axes:
        dx = [_spacing_of(d, f.shape[axes[i]]) for i, d in enumerate(varargs)]
    else:
        raise TypeError("invalid number of arguments")
    if edge_order > 2:
        raise ValueError("'edge_order' greater than 2 not supported")
    otype = np.dtype(f.dtype)
    if otype.kind not in "fc":
        if otype.kind in "iu":
            f = _c.astype(f, np.float64)
        otype = np.dtype(np.float64)

    def sl(ax, s):
        key = [slice(None)] * N
        key[ax] = s
        return f[tuple(key)]

    outvals = []
    for ax, ax_dx in zip(axes, dx):
        if f.shape[ax] < edge_order + 1:
            raise ValueError("Shape of array too small to calculate a numerical gradient, "
                             "at least (edge_order + 1) elements are required.")
        if edge_order != 1 and f.shape[ax] < 3:
            # NumPy takes any other edge_order (0, negative) as 2 and indexes f[1], f[2].
            raise IndexError(f"index {f.shape[ax]} is out of bounds for axis {ax} with size "
                             f"{f.shape[ax]}")
        uniform = np.ndim(ax_dx) == 0
        if uniform:
            mid = _uf.true_divide(_uf.subtract(sl(ax, slice(2, None)), sl(ax, slice(None, -2))),
                                2. * ax_dx)
        else:
            dx1, dx2 = ax_dx[0:-1], ax_dx[1:]
            shape = [1] * N
            shape[ax] = -1
            a = _creation.asarray((-(dx2) / (dx1 * (dx1 + dx2))).reshape(shape), device=f.queue)
            b = _creation.asarray(((dx2 - dx1) / (dx1 * dx2)).reshape(shape), device=f.queue)
            c = _creation.asarray((dx1 / (dx2 * (dx1 + dx2))).reshape(shape), device=f.queue)
            mid = _uf.add(_uf.add(_uf.multiply(a, sl(ax, slice(None, -2))),
                              _uf.multiply(b, sl(ax, slice(1, -1)))),
                        _uf.multiply(c, sl(ax, slice(2, None))))
        if edge_order == 1:
            dx_0 = ax_dx if uniform else ax_dx[0]
            dx_n = ax_dx if uniform else ax_dx[-1]
            first = _uf.true_divide(_uf.subtract(sl(ax, slice(1, 2)), sl(ax, slice(0, 1))), dx_0)
            last = _uf.true_divide(_uf.subtract(sl(ax, slice(-1, None)), sl(ax, slice(-2, -1))),
                                 dx_n)
        else:
            if uniform:
                a, b, c = -1.5 / ax_dx, 2. / ax_dx, -0.5 / ax_dx
            else:
                dx1, dx2 = ax_dx[0], ax_dx[1]
                a = -(2. * dx1 + dx2) / (dx1 * (dx1 + dx2))
                b = (dx1 + dx2) / (dx1 * dx2)
                c = - dx1 / (dx2 * (dx1 + dx2))
            first = _uf.add(_uf.add(_uf.multiply(a, sl(ax, slice(0, 1))),
                                _uf.multiply(b, sl(ax, slice(1, 2)))),
                          _uf.multiply(c, sl(ax, slice(2, 3))))
            if uniform:
                a, b, c = 0.5 / ax_dx, -2. / ax_dx, 1.5 / ax_dx
            else:
                dx1, dx2 = ax_dx[-2], ax_dx[-1]
                a = (dx2) / (dx1 * (dx1 + dx2))
                b = - (dx2 + dx1) / (dx1 * dx2)
                c = (2. * dx2 + dx1) / (dx2 * (dx1 + dx2))
            m = f.shape[ax]
            last = _uf.add(_uf.add(_uf.multiply(a, sl(ax, slice(m - 3, m - 2))),
                               _uf.multiply(b, sl(ax, slice(m - 2, m - 1)))),
                         _uf.multiply(c, sl(ax, slice(m - 1, m))))
        pieces = [p if np.dtype(p.dtype) == otype else _c.astype(p, otype)
                  for p in (first, mid, last)]
        outvals.append(_join.concatenate(pieces, axis=ax))
    if len_axes == 1:
        return outvals[0]
    return tuple(outvals)


# The ufuncs among these functions, as lazycl.ufunc objects (NumPy's attributes and methods).
for _n in UFUNCS:
    globals()[_n] = _uf.from_function(globals()[_n])
del _n
