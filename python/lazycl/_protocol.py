"""NumPy's protocols on lazycl arrays: __array_ufunc__ (the ufuncs and their methods, lazy where
lazycl has the ops, else on the host with a HostFallbackWarning) and __array_function__ (the
NumPy functions lazycl implements lazily, the others on the host)."""
import os
import sys
import warnings

import numpy as np

import builtins as _b

from . import _api
from . import _lazycl as _c
from . import _write
from ._api import _as, _is_array, _UFUNC_NAMES, astype, einsum, moveaxis

_METHODS = ("reduce", "accumulate", "reduceat", "outer", "at")


def array_ufunc(ufunc, method, inputs, kwargs):
    name = ufunc.__name__
    if method == "__call__" and name in ("matmul", "vecdot"):
        return getattr(_api, name)(*inputs, **kwargs)
    if method in _METHODS and name in _UFUNC_NAMES:
        # The lazycl ufunc's own method (_ufuncs.py): lazy where lazycl can, else NumPy's on
        # the host; keywords it does not take go to the host as they are.
        r = _call_taking(getattr(getattr(_api, name), method), inputs, kwargs)
        if r is not NotImplemented:
            return r
        if method == "at":
            return NotImplemented
        return _host_ufunc(ufunc, method, inputs, kwargs)
    out = kwargs.get("out")
    if out is not None:
        kwargs = {k: v for k, v in kwargs.items() if k != "out"}
        out = out if isinstance(out, tuple) else (out,)
        nout = ufunc.nout if method == "__call__" else 1
        if len(out) != nout:
            raise TypeError(f"lazycl: out= takes {nout} array{'s' if nout > 1 else ''}")
        r = array_ufunc(ufunc, method, inputs, kwargs)
        if r is NotImplemented or nout == 1:
            return r if r is NotImplemented else _write.assign_out(out[0], r, name)
        # Two outputs (frexp, modf, divmod): each given out (None skips one) gets its result.
        return tuple(v if o is None else _write.assign_out(o, v, name) for o, v in zip(out, r))
    kwargs = {k: v for k, v in kwargs.items() if k != "out"}
    if method == "__call__" and name in _UFUNC_NAMES and not kwargs:
        f = getattr(_api, name)
        return f(*inputs)
    if (method == "__call__" and name in _UFUNC_NAMES and set(kwargs) <= {"dtype"} and
            ufunc.nout == 1):
        return astype(getattr(_api, name)(*inputs), kwargs["dtype"])
    if method == "at":
        return NotImplemented
    return _host_ufunc(ufunc, method, inputs, kwargs)


def _call_taking(f, args, kwargs):
    """f(*args, **kwargs) when f takes every keyword given, else NotImplemented."""
    if kwargs:
        import inspect
        params = inspect.signature(f).parameters
        if not _b.any(p.kind == p.VAR_KEYWORD for p in params.values()) and \
                not _b.all(k in params for k in kwargs):
            return NotImplemented
    return f(*args, **kwargs)


def _host_ufunc(ufunc, method, inputs, kwargs):
    """A ufunc (or method) lazycl does not implement lazily: NumPy's answer from the computed
    inputs, with the HostFallbackWarning."""
    fname = f"numpy.{ufunc.__name__}" + ("" if method == "__call__" else f".{method}")
    if _WARN_FALLBACK and (ufunc, method) not in _WARNED:
        _WARNED.add((ufunc, method))
        warnings.warn(f"{fname} is not implemented by lazycl: its lazycl arguments were "
                      "computed and copied to the host, and NumPy answered there "
                      "(shown once per function; LAZYCL_HOST_FALLBACK_WARNING=0 turns it off)",
                      HostFallbackWarning, stacklevel=_user_stacklevel())
    return getattr(ufunc, method)(*_numpy_args(inputs), **_numpy_args(kwargs))


def _user_stacklevel():
    """The stacklevel of warnings.warn, called by our caller, that names the first frame outside
    the lazycl package (the user's line, however deep lazycl's own frames go)."""
    pkg = os.path.dirname(os.path.abspath(__file__)) + os.sep
    f, level = sys._getframe(1), 1
    while f is not None and f.f_code.co_filename.startswith(pkg):
        f, level = f.f_back, level + 1
    return level


class HostFallbackWarning(UserWarning):
    """A NumPy function that lazycl does not implement ran on the host: its lazycl arguments
    were computed and copied there. Shown once per function; LAZYCL_HOST_FALLBACK_WARNING=0
    turns it off."""


_WARN_FALLBACK = os.environ.get("LAZYCL_HOST_FALLBACK_WARNING", "1").strip().lower() not in (
    "0", "off", "no", "false")
_WARNED = set()

# NumPy functions that write into an argument, by the argument's name. On a lazycl array the
# host fallback would write into a temporary copy and lose the write: they raise instead. (None
# left: fill_diagonal writes through _write.fill_diagonal; out= is checked below.)
_WRITERS = {}


def _written_argument(func, args, kwargs):
    """The argument `func` writes into (a lazycl array would lose the write), or None."""
    name = _WRITERS.get(getattr(func, "__name__", ""))
    if name is not None and getattr(np, func.__name__, None) is func:
        if name in kwargs:
            return kwargs[name]
        return args[0] if args else None
    out = kwargs.get("out")
    if isinstance(out, tuple):
        return next((o for o in out if _is_array(o)), None)
    return out


def _numpy_args(obj):
    if _is_array(obj):
        return obj.numpy()
    if isinstance(obj, (list, tuple)):
        return type(obj)(_numpy_args(o) for o in obj)
    if isinstance(obj, dict):
        return {k: _numpy_args(v) for k, v in obj.items()}
    return obj


def _lazy_functions():
    g = vars(_api)
    table = {}
    for name in ["sum", "prod", "max", "min", "amax", "amin", "argmax", "argmin", "any", "all",
                 "mean", "var", "std", "count_nonzero", "nansum", "nanmean", "nanmax", "nanmin",
                 "cumsum", "cumprod", "diff", "where", "clip", "round", "around", "reshape",
                 "transpose", "expand_dims", "squeeze", "flip", "ravel", "swapaxes", "moveaxis",
                 "broadcast_to", "broadcast_arrays", "shape", "ndim", "size", "zeros_like",
                 "ones_like", "full_like", "empty_like", "permute_dims", "astype", "take",
                 "take_along_axis", "roll", "tile", "repeat", "pad", "copyto", "put",
                 "putmask", "place", "put_along_axis", "fill_diagonal", "nonzero", "argwhere",
                 "flatnonzero", "extract", "compress", "bincount", "copy",
                 "tril", "triu", "diagonal", "diag", "trace", "indices", "meshgrid",
                 "outer", "concatenate", "stack", "hstack", "vstack", "dstack", "column_stack",
                 "split", "array_split", "hsplit", "vsplit", "dsplit", "choose", "select",
                 "histogram", "histogram2d", "histogramdd", "sort", "argsort",
                 "partition", "argpartition", "median", "nanmedian", "percentile", "quantile",
                 "unique", "unique_all", "unique_counts", "unique_inverse", "unique_values",
                 "searchsorted", "digitize", "isin", "intersect1d", "union1d", "setdiff1d",
                 "lexsort", "dot", "vdot", "inner", "tensordot", "matrix_transpose", "real",
                 "imag", "angle", "unravel_index", "ravel_multi_index",
                 "isclose", "allclose", "array_equal", "array_equiv", "nan_to_num", "sinc",
                 "interp", "convolve", "correlate", "gradient", "polyval", "cov", "corrcoef",
                 "average", "ptp", "nanvar", "nanstd", "nanprod", "nancumsum", "nancumprod",
                 "append", "atleast_1d", "atleast_2d", "atleast_3d", "fliplr", "flipud", "rot90",
                 "rollaxis", "iscomplex", "isreal", "iscomplexobj", "isrealobj", "isposinf",
                 "isneginf", "tril_indices_from", "triu_indices_from", "diag_indices_from",
                 "diagflat", "fix"]:
        f = getattr(np, name, None)
        # NumPy 2 has aliases (np.permute_dims is np.transpose): the first name wins.
        if f is not None and f not in table:
            table[f] = g[name]
    from . import linalg
    for name in ["norm", "vector_norm", "matrix_norm", "cross", "trace", "diagonal", "outer",
                 "matmul", "vecdot", "tensordot", "matrix_transpose"]:
        f = getattr(np.linalg, name, None)
        if f is not None and f not in table:
            table[f] = getattr(linalg, name)
    table[np.einsum] = einsum
    table[np.cross] = _np_cross
    return table


def _np_cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """numpy.cross of 3-element vectors (2-element ones raise NotImplementedError)."""
    from . import linalg
    if axis is not None:
        axisa = axisb = axisc = axis
    a, b = moveaxis(_as(a), axisa, -1), moveaxis(_as(b), axisb, -1)
    if a.shape[-1] != 3 or b.shape[-1] != 3:
        if a.shape[-1] in (2, 3) and b.shape[-1] in (2, 3):
            raise NotImplementedError("lazycl: cross of 2-element vectors")
        raise ValueError("incompatible dimensions for cross product\n(dimension must be 2 or 3)")
    return moveaxis(linalg.cross(a, b, axis=-1), -1, axisc)


def _like_functions():
    """NumPy's creation functions called with like=<a lazycl array> (NEP 35; Dask makes its
    chunks' metadata and small arrays this way): the lazycl function, on the like array's queue
    unless device= names another. They dispatch only through like=, so each entry here is
    called with the like array as `like`."""
    def place(like, device):
        return like.queue if device is None else device

    def array(like, obj, dtype=None, *, copy=True, order="K", subok=False, ndmin=0,
              device=None):
        r = asarray_(like, obj, dtype, order, device=device, copy=copy)
        if ndmin > r.ndim:
            r = _c.reshape(r, (1,) * (ndmin - r.ndim) + tuple(r.shape))
        return r

    def asarray_(like, a, dtype=None, order=None, *, device=None, copy=None):
        _api._check_order(order, "KACF" if order is None else "KAC")
        q = place(like, device)
        if _is_array(a):
            r = _api.to_device(a, q)
            moved = r is not a
            if dtype is not None and np.dtype(dtype) != r.dtype:
                r, moved = astype(r, dtype), True
            if copy is False and moved:
                raise ValueError("Unable to avoid copy while creating an array as requested.")
            return _c._copy(r) if copy and not moved else r
        if copy is False:
            raise ValueError("Unable to avoid copy while creating an array as requested.")
        return asarray(np.asarray(_numpy_args(a), dtype=dtype), device=q)

    def ascontiguousarray(like, a, dtype=None):
        r = asarray_(like, a, dtype)
        return _c.reshape(r, (1,)) if r.ndim == 0 else r

    def filled(value, default_dtype):
        def f(like, shape, dtype=default_dtype, order="C", *, device=None):
            _api._check_order(order, "CA")
            dt = default_dtype if dtype is None else dtype
            return _api.full(shape, value, dt, place(like, device))
        return f

    def full(like, shape, fill_value, dtype=None, order="C", *, device=None):
        _api._check_order(order, "CA")
        return _api.full(shape, fill_value, dtype, place(like, device))

    def arange(like, *args, dtype=None, device=None, **kw):
        if "step" in kw or "stop" in kw or "start" in kw:
            args = (kw.pop("start", args[0] if args else 0),) + tuple(
                kw.pop(n) for n in ("stop", "step") if n in kw)
        if kw:
            raise TypeError(f"arange() got an unexpected keyword argument {next(iter(kw))!r}")
        return _api.arange(*args, dtype=dtype, device=place(like, device))

    def eye(like, N, M=None, k=0, dtype=float, order="C", *, device=None):
        _api._check_order(order, "CA")
        return _api.eye(N, M, k, float if dtype is None else dtype, place(like, device))

    def identity(like, n, dtype=None):
        return _api.eye(n, None, 0, dtype, like.queue)

    return {np.array: array, np.asarray: asarray_, np.asanyarray: asarray_,
            np.ascontiguousarray: ascontiguousarray, np.empty: filled(0, float),
            np.zeros: filled(0, float), np.ones: filled(1, float), np.full: full,
            np.arange: arange, np.eye: eye, np.identity: identity}


_LAZY = None
_LIKE = None


def array_function(func, types, args, kwargs, like=None):
    """`like` is the array whose __array_function__ NumPy called: for a creation function,
    the like= argument (NEP 35)."""
    global _LAZY, _LIKE
    if _LAZY is None:
        _LAZY = _lazy_functions()
        _LIKE = _like_functions()
    f = _LAZY.get(func)
    if f is not None:
        return f(*args, **kwargs)
    f = _LIKE.get(func)
    if f is not None and like is not None:
        return f(like, *args, **kwargs)
    # Not lazy in lazycl: compute the inputs and let NumPy answer (eagerly), but never let a
    # write into a lazycl array land in a temporary copy.
    fname = f"numpy.{getattr(func, '__name__', repr(func))}"
    if _is_array(_written_argument(func, args, kwargs)):
        raise TypeError(f"lazycl arrays are immutable: {fname} would write into one; build a "
                        "new array instead (e.g. with lazycl.where)")
    if _WARN_FALLBACK and func not in _WARNED:
        _WARNED.add(func)
        warnings.warn(f"{fname} is not implemented by lazycl: its lazycl arguments were "
                      "computed and copied to the host, and NumPy answered there "
                      "(shown once per function; LAZYCL_HOST_FALLBACK_WARNING=0 turns it off)",
                      HostFallbackWarning, stacklevel=3)
    return func(*_numpy_args(args), **_numpy_args(kwargs))


