"""The lazycl.Array class: the C ArrayBase plus the NumPy-facing protocol in Python.

Layer: above _dispatch (package docstring). Its methods forward to the modules of the
functions of the same name; the modules below know arrays only through the C base,
_lazycl.ArrayBase.
"""
import builtins
import numbers
import os
import sys

import numpy as np

from . import (
    _compact, _complex, _creation, _dispatch, _dlpack, _elementwise, _lazycl as _c, _linalg,
    _mathfns, _reductions, _scans, _sort, _util as _u, _views, _write,
)

__all__ = ["Array"]


class Array(_c.ArrayBase):
    """A lazy n-dimensional array on an OpenCL device.

    Operations append nodes to a graph and return at once; the graph runs as
    fused OpenCL kernels when a result is needed: ``.compute()``,
    ``np.asarray(x)``, ``float(x)``, printing.
    """

    __slots__ = ()
    __array_priority__ = 1000

    def __new__(cls, shape, dtype=float, buffer=None, offset=0, strides=None, order=None):
        """NumPy's ndarray constructor (lazycl.ndarray is this class): an array of `shape` and
        `dtype` on the default device, zeros (lazycl never hands out uninitialized memory); with
        `buffer`, NumPy's array over that host buffer, copied to the device. Arrays are C-ordered
        (order 'F' raises NotImplementedError). The engine makes its arrays without this."""
        _u.check_order(order, "CA")
        if buffer is None and offset == 0 and strides is None:
            return _creation.zeros(shape, dtype)
        return _creation.asarray(np.ndarray(shape, dtype, buffer, offset, strides, order))

    # ---- forcing and conversion -------------------------------------------------------

    def __array__(self, dtype=None, copy=None):
        """np.asarray(x): computes x. On a device whose memory is host memory (a CPU device)
        the result is a view of x's buffer, with x's strides, kept alive (and pinned) as long
        as the view lives: writes through it show in x, as through a NumPy view, and it is
        read-only where x is. Elsewhere, or with copy=True or another dtype, a copy."""
        if copy is not True and (dtype is None or np.dtype(dtype) == self.dtype):
            v = _c._host_view(self)
            if v is not None:
                return v
        if copy is False:
            raise ValueError("Unable to avoid copy while creating an array as requested: the "
                             f"memory of device {self.device.name!r} is not host memory"
                             if dtype is None or np.dtype(dtype) == self.dtype else
                             "Unable to avoid copy while creating an array as requested: the "
                             "dtype differs")
        a = self.numpy()
        if dtype is not None and a.dtype != np.dtype(dtype):
            a = a.astype(dtype)
        return a

    def get(self):
        """The values as a NumPy array (computes first)."""
        return self.numpy()

    def item(self, *args):
        return self.numpy().item(*args)

    def tolist(self):
        return self.numpy().tolist()

    def _scalar(self, kind):
        if self.size != 1:
            raise TypeError(f"only length-1 arrays can be converted to Python scalars"
                            if self.ndim else "invalid array")
        v = self.numpy().reshape(()).item()
        if isinstance(v, complex) and kind is not complex:
            _creation._complex_warning(self.dtype, kind, stacklevel=4)
            v = v.real
        return kind(v)

    def __float__(self):
        return self._scalar(float)

    def __int__(self):
        return self._scalar(int)

    def __complex__(self):
        return self._scalar(complex)

    def __index__(self):
        if self.dtype.kind not in "iub" or self.dtype.kind == "b":
            raise TypeError("only integer scalar arrays can be converted to a scalar index")
        if self.ndim != 0:
            raise TypeError("only integer scalar arrays can be converted to a scalar index")
        return int(self.numpy().item())

    def __bool__(self):
        if self.size == 0:
            raise ValueError("The truth value of an empty array is ambiguous. Use `array.size > 0` "
                             "to check that an array is not empty.")
        if self.size != 1:
            raise ValueError("The truth value of an array with more than one element is ambiguous. "
                             "Use a.any() or a.all()")
        return bool(self.numpy().reshape(()).item())

    def __divmod__(self, other):
        return _mathfns.divmod(self, other)

    def __rdivmod__(self, other):
        return _mathfns.divmod(other, self)

    def __iter__(self):
        if self.ndim == 0:
            raise TypeError("iteration over a 0-d array")
        if self.ndim == 1:
            # NumPy's elements: scalars, read from the device once for the whole loop (a loop
            # `for i in lc.arange(n)` indexing with i would force each element otherwise)
            yield from self.numpy()
            return
        for i in range(self.shape[0]):
            yield self[i]

    def __repr__(self):
        body = np.array2string(self.numpy(), separator=", ", prefix="lazycl.Array(")
        return f"lazycl.Array({body}, dtype={self.dtype}, device='{self.device.filter_string}')"

    def __str__(self):
        return str(self.numpy())

    def __format__(self, spec):
        if self.ndim == 0:
            return format(self.numpy().item(), spec)
        return format(str(self), spec)

    def __hash__(self):
        raise TypeError("unhashable type: 'lazycl.Array'")

    def __len__(self):
        if self.ndim == 0:
            raise TypeError("len() of unsized object")
        return self.shape[0]

    def __copy__(self):
        return self

    def __reduce__(self):
        """Pickling: the values as host bytes (a NumPy array: dtype, shape and data; a pending
        array is computed first) and the filter string of the device they came from. An array
        unpickles onto the default device of the process that loads it (LAZYCL_DEVICE), so
        that under Dask a chunk lands on the device of the worker that receives it;
        LAZYCL_UNPICKLE_DEVICE=origin puts it back on the device it came from where that
        device exists (docs/dask.md)."""
        return (_unpickle, (self.numpy(), self.device.filter_string))

    def __deepcopy__(self, memo):
        return self

    # ---- properties -----------------------------------------------------------------

    @property
    def itemsize(self):
        return self.dtype.itemsize

    @property
    def nbytes(self):
        return self.size * self.dtype.itemsize

    @property
    def mT(self):
        if self.ndim < 2:
            raise ValueError("matrix transpose needs an array of at least 2 dimensions")
        axes = list(range(self.ndim))
        axes[-1], axes[-2] = axes[-2], axes[-1]
        return _c.permute_dims(self, axes)

    @property
    def real(self):
        """The real part (pending, read-only: lazycl has no strided complex views to write)."""
        return _complex.real(self)

    @property
    def imag(self):
        return _complex.imag(self)

    def conj(self):
        return _elementwise.conjugate(self)

    conjugate = conj

    # ---- methods (NumPy names) --------------------------------------------------------

    def astype(self, dtype, copy=True):
        return _creation.astype(self, dtype, copy=copy)

    def copy(self, order="C"):
        return _c._copy(self)

    # ---- writes (lazycl._write) -----------------------------------------------------------

    def __setitem__(self, key, value):
        _write.setitem(self, key, value)

    def fill(self, value):
        _write.fill(self, value)

    def put(self, indices, values, mode="raise"):
        _write.put(self, indices, values, mode)

    def nonzero(self):
        return _compact.nonzero(self)

    def sort(self, axis=-1, kind=None, order=None):
        _sort.sort_inplace(self, axis, kind, order)

    def argsort(self, axis=-1, kind=None, order=None):
        return _sort.argsort(self, axis, kind, order)

    def __iadd__(self, o):
        return _write.inplace(self, "add", o)

    def __isub__(self, o):
        return _write.inplace(self, "subtract", o)

    def __imul__(self, o):
        return _write.inplace(self, "multiply", o)

    def __itruediv__(self, o):
        return _write.inplace(self, "true_divide", o)

    def __ifloordiv__(self, o):
        return _write.inplace(self, "floor_divide", o)

    def __imod__(self, o):
        return _write.inplace(self, "remainder", o)

    def __ipow__(self, o):
        return _write.inplace(self, "power", o)

    def __iand__(self, o):
        return _write.inplace(self, "bitwise_and", o)

    def __ior__(self, o):
        return _write.inplace(self, "bitwise_or", o)

    def __ixor__(self, o):
        return _write.inplace(self, "bitwise_xor", o)

    def __ilshift__(self, o):
        return _write.inplace(self, "left_shift", o)

    def __irshift__(self, o):
        return _write.inplace(self, "right_shift", o)

    def reshape(self, *shape, order="C"):
        if order != "C":
            raise NotImplementedError("lazycl reshapes in C order only")
        if len(shape) == 1 and not isinstance(shape[0], numbers.Integral):
            shape = shape[0]
        return _c.reshape(self, shape)

    def transpose(self, *axes):
        if not axes:
            return self.T
        if len(axes) == 1 and not isinstance(axes[0], numbers.Integral):
            axes = axes[0]
        return _c.permute_dims(self, axes)

    def ravel(self, order="C"):
        return _views.ravel(self, order)

    def flatten(self, order="C"):
        return _c._copy(_views.ravel(self, order))

    def squeeze(self, axis=None):
        return _views.squeeze(self, axis)

    def swapaxes(self, a, b):
        return _views.swapaxes(self, a, b)

    def to_device(self, device, /, *, stream=None):
        """A copy of the array on another device (or queue). lazycl has no streams: `stream`
        must be None."""
        if stream is not None:
            raise ValueError("lazycl has no streams: to_device takes stream=None only")
        return _creation.to_device(self, device)

    def clip(self, min=None, max=None):
        return _elementwise.clip(self, min, max)

    def round(self, decimals=0):
        return _elementwise.round(self, decimals)

    def __round__(self, ndigits=None):
        return _elementwise.round(self, ndigits or 0)

    def __matmul__(self, other):
        # x @ y of vectors of one dtype is built in C; the rest by lazycl.matmul
        r = _c._inner(self, other, _linalg._SMALL_K)
        return _linalg.matmul(self, other) if r is None else r

    def __rmatmul__(self, other):
        return _linalg.matmul(other, self)

    def __imatmul__(self, other):
        return _linalg.matmul(self, other, out=self)

    def dot(self, b, out=None):
        return _linalg.dot(self, b, out=out)

    def __array_namespace__(self, api_version=None):
        # The package itself, which imports this module (an import here would be upward).
        return sys.modules[__package__]

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        return _dlpack.dlpack(self, stream, max_version, dl_device, copy)

    def __dlpack_device__(self):
        return _dlpack.dlpack_device(self)

    # ---- NumPy protocols ----------------------------------------------------------------

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        return _dispatch.array_ufunc(ufunc, method, inputs, kwargs)

    def __array_function__(self, func, types, args, kwargs):
        return _dispatch.array_function(func, types, args, kwargs, self)


def _join_dask():
    """Register lazycl with Dask (lazycl.dask) when dask.array is loaded in this process: at
    lazycl's import, and when an array is unpickled (on a Dask worker, before its first task
    on lazycl chunks)."""
    if "dask.array" in sys.modules and "lazycl.dask" not in sys.modules:
        from . import dask  # noqa: F401


def _unpickle(host, origin):
    """The other half of Array.__reduce__: `host` (a NumPy array) on the device chosen by
    LAZYCL_UNPICKLE_DEVICE (read at each call): `default` (or unset), the default device;
    `origin`, the device named by `origin` when one matches here, else the default."""
    where = os.environ.get("LAZYCL_UNPICKLE_DEVICE", "default").strip().lower() or "default"
    if where not in ("default", "origin"):
        raise ValueError(f"LAZYCL_UNPICKLE_DEVICE must be 'default' or 'origin', not {where!r}")
    _join_dask()
    device = None
    if where == "origin":
        try:
            device = _c.Device(origin)
        except ValueError:
            device = None
    return _creation.asarray(host, device=device)


def _add_reductions():
    """Methods that forward to the namespace functions of the same name."""
    names = ["sum", "prod", "min", "max", "argmin", "argmax", "mean", "var", "std", "any",
             "all", "cumsum", "cumprod"]

    def make(name):
        f = getattr(_scans if name in ("cumsum", "cumprod") else _reductions, name)

        def method(self, *args, **kwargs):
            return f(self, *args, **kwargs)
        method.__name__ = name
        method.__qualname__ = f"Array.{name}"
        method.__doc__ = f"Same as lazycl.{name}(self, ...)."
        return method

    for n in names:
        setattr(Array, n, make(n))


_add_reductions()
_c._set_array_class(Array)
_c._set_index_hook(_write.getitem)
del builtins
