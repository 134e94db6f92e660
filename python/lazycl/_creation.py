"""Creation: arrays from host data (asarray), from a value (full, zeros, ones, the *_like
forms), from a formula computed on the device (arange, linspace, eye); copies, casts and moves
between devices; forcing (asnumpy, compute, explain).

Layer: above _util; imports only the extension, _util and NumPy (package docstring)."""
import builtins as _b
import math
import numbers
import operator
import warnings

import numpy as np

from . import _lazycl as _c
from ._util import (
    check_order as _check_order, is_array as _is_array, shape_tuple as _shape_tuple,
)


def asarray(obj, dtype=None, device=None, *, copy=None):
    """obj as a lazycl array of `dtype` on `device`. A lazycl array already so is returned as
    it is. A NumPy array shares its memory where the device computes in host memory (a CPU
    device) and its dtype, byte order and alignment allow, as np.asarray shares: NumPy's
    writes to it before a result is computed show in that result, and lazycl's writes show
    in NumPy (docs/api.md). Anything else (other devices, nested sequences, scalars) is
    copied to the device. copy=True always gives a new array (later writes to obj do not
    show in it); copy=False never copies and raises NumPy's ValueError where it would have
    to."""
    if copy is None:
        return _c.asarray(obj, dtype, device, 0)
    if not isinstance(copy, (bool, np.bool_)):
        raise ValueError(f"copy must be True, False or None, not {copy!r}")
    if copy:
        r = _c.asarray(obj, dtype, device, -1)
        return _c._copy(r) if r is obj else r
    if isinstance(obj, np.ndarray):
        return _c.asarray(obj, dtype, device, 1)
    r = _c.asarray(obj, dtype, device, -1)
    if r is not obj:
        raise ValueError("Unable to avoid copy while creating an array as requested.")
    return r


# ---- creation -------------------------------------------------------------------------

def full(shape, fill_value, dtype=None, device=None):
    """An array of `shape` filled with `fill_value` (takes no device memory until needed)."""
    if _is_array(fill_value):
        fill_value = fill_value.item()
    return _c._full(fill_value, _shape_tuple(shape), dtype, device)


def zeros(shape, dtype=None, device=None):
    return _c._full(0, _shape_tuple(shape), np.float64 if dtype is None else dtype, device)


def ones(shape, dtype=None, device=None):
    return _c._full(1, _shape_tuple(shape), np.float64 if dtype is None else dtype, device)


def empty(shape, dtype=None, device=None):
    """Like zeros: lazycl never hands out uninitialized memory."""
    return zeros(shape, dtype, device)


def _like_device(x, device):
    if device is not None:
        return device
    return x.queue if _is_array(x) else None


def full_like(x, fill_value, dtype=None, order="K", subok=True, shape=None, *, device=None):
    """NumPy's full_like: x's shape (or `shape`), dtype (or `dtype`) and device (or `device`).
    `subok` has no meaning for lazycl (no subclasses) and is accepted for NumPy's calls."""
    _check_order(order)
    dtype = x.dtype if dtype is None else dtype
    if shape is None:
        shape = np.shape(x) if not _is_array(x) else x.shape
    return full(shape, fill_value, dtype, _like_device(x, device))


def zeros_like(x, dtype=None, order="K", subok=True, shape=None, *, device=None):
    return full_like(x, 0, dtype, order, subok, shape, device=device)


def ones_like(x, dtype=None, order="K", subok=True, shape=None, *, device=None):
    return full_like(x, 1, dtype, order, subok, shape, device=device)


def empty_like(x, dtype=None, order="K", subok=True, shape=None, *, device=None):
    return full_like(x, 0, dtype, order, subok, shape, device=device)


def arange(start, stop=None, step=1, dtype=None, device=None):
    """Evenly spaced values in [start, stop), computed on the device (no upload)."""
    if stop is None:
        start, stop = 0, start
    if step == 0:
        raise ZeroDivisionError("arange: step must not be zero")
    if dtype is None:
        dtype = np.result_type(start, stop, step)
        if dtype.kind == "b":
            dtype = np.dtype(np.int64)
    dtype = np.dtype(dtype)
    if dtype.kind == "c":
        # A complex arange: the real one, made complex (a complex start or step has no
        # count NumPy defines for lazycl to follow).
        if _b.any(isinstance(v, complex) and v.imag for v in (start, stop, step)):
            raise NotImplementedError("lazycl: arange with complex start, stop or step")
        start, stop, step = (v.real if isinstance(v, complex) else v for v in (start, stop, step))
        return _c.astype(arange(start, stop, step, np.float64 if dtype == np.complex128
                                else np.float32, device), dtype)
    if _b.all(isinstance(v, numbers.Integral) for v in (start, stop, step)):
        n = len(range(start, stop, step))
    else:
        n = _b.max(0, math.ceil((stop - start) / step))
    if dtype.kind == "f":
        return _c._iota(float(start), float(step), n, dtype, device)
    if dtype.kind == "b":
        raise TypeError("arange of booleans is not supported")
    return _c._iota(int(start), int(step), n, dtype, device)


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, device=None):
    if isinstance(start, complex) or isinstance(stop, complex) or (
            dtype is not None and np.dtype(dtype).kind == "c"):
        # The parts apart, joined: NumPy's formula on each.
        start, stop = complex(start), complex(stop)
        out = np.dtype(np.complex128 if dtype is None else dtype)
        re = linspace(start.real, stop.real, num, endpoint, False, None, device)
        im = linspace(start.imag, stop.imag, num, endpoint, False, None, device)
        r = _c.astype(_c._binary("complex", re, im), out)
        div = (num - 1) if endpoint else num
        return (r, (stop - start) / div if div > 0 else complex(math.nan, math.nan)) \
            if retstep else r
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    div = (num - 1) if endpoint else num
    step = (stop - start) / div if div > 0 else float("nan")
    out_dtype = np.dtype(np.float64 if dtype is None else dtype)
    idx = _c._iota(0, 1, num, np.int64, device)
    if div > 0:
        vals = idx.astype(np.float64) * step + start
    else:
        vals = idx.astype(np.float64) * 0.0 + start
    if endpoint and num > 1:
        vals = _c.where(idx == num - 1, float(stop), vals)
    if out_dtype.kind in "iu":
        vals = _c._unary("floor", vals)
    vals = vals.astype(out_dtype)
    return (vals, step) if retstep else vals


def eye(N, M=None, k=0, dtype=None, device=None):
    M = N if M is None else M
    # A diagonal beyond the matrix is as empty as the first one past it (k stays in int64).
    k = _b.min(_b.max(operator.index(k), -operator.index(N)), operator.index(M))
    rows = _c._iota(0, 1, N, np.int64, device).reshape(N, 1)
    cols = _c._iota(0, 1, M, np.int64, device).reshape(1, M)
    return ((rows + k) == cols).astype(np.float64 if dtype is None else dtype)


def identity(n, dtype=None, device=None):
    return eye(n, dtype=dtype, device=device)


def to_device(x, device):
    """`x` on another device or queue: a copy through the host (or `x` itself
    when it is already there)."""
    if isinstance(device, _c.Queue):
        return x if device is x.queue else asarray(x.numpy(), device=device)
    if device is None:
        dev = _c.default_device()
    elif isinstance(device, _c.Device):
        dev = device
    else:
        dev = _c.Device(device)
    return x if dev == x.device else asarray(x.numpy(), device=dev)




def asnumpy(x):
    """A NumPy array with the values of x (computes first)."""
    return x.numpy() if _is_array(x) else np.asarray(x)


def compute(*arrays, wait=True):
    """Compute several arrays at once; outputs over the same index space share kernels. With
    wait=False the work is enqueued and this returns at once (as JAX dispatches): a later read
    of a result, or synchronize(), waits, and raises an IndexError found meanwhile."""
    return _c.compute(*arrays, wait=wait)


def synchronize(device=None):
    """Wait for the work enqueued on every queue (device=None), on every queue of a device
    (a Device or a filter string) or on one Queue, and raise an IndexError that a
    compute(wait=False) enqueued there deferred (docs/api.md)."""
    _c.synchronize(device)


class Explanation(str):
    """The text of lazycl.explain: shows itself in a REPL."""

    def __repr__(self):
        return str(self)


def explain(*arrays):
    """The plan of computing `arrays` — kernels, the nodes each fuses, buffers and the OpenCL C —
    without running anything."""
    return Explanation(_c._explain(*arrays))


def _complex_warning(src, dtype, stacklevel=3):
    """NumPy's ComplexWarning when a complex value is cast to a real dtype (stacklevel counts
    from this function to the user's call)."""
    if np.dtype(src).kind == "c" and np.dtype(dtype).kind not in "cb":
        warnings.warn("Casting complex values to real discards the imaginary part",
                      np.exceptions.ComplexWarning, stacklevel=stacklevel)


def astype(x, dtype, /, *, copy=True, device=None):
    if device is not None:
        x = to_device(x, device)            # a copy already where the device differs
    if copy and np.dtype(dtype) == np.dtype(x.dtype):
        return _c._copy(x)
    _complex_warning(x.dtype, dtype)
    return _c.astype(x, dtype)


def copy(a, order="K", subok=False):
    """A copy of a (pending: computed when used): later writes to a do not change it."""
    return _c._copy(a if _is_array(a) else asarray(a))


__all__ = [
    "asarray", "full", "zeros", "ones", "empty", "full_like", "zeros_like", "ones_like",
    "empty_like", "arange", "linspace", "eye", "identity", "to_device", "asnumpy", "compute",
    "synchronize",
    "Explanation", "explain", "astype", "copy",
]
