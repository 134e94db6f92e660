"""NumPy's protocols on lazycl arrays: __array_ufunc__ (the ufuncs and their methods, lazy where
lazycl has the ops, else on the host with a HostFallbackWarning) and __array_function__ (the
NumPy functions lazycl implements lazily, the others on the host).

The tables are built, not kept: a NumPy function dispatches to lazycl's function of the same
name in the namespace (_namespace.__all__), or to the one registered for it with
_util.implements; a NumPy ufunc to lazycl's ufunc of its name.

Layer: above _namespace and linalg; _array imports it (package docstring)."""
import builtins as _b
import inspect
import warnings

import numpy as np

from . import _creation, _fallback, _lazycl as _c, _namespace, _ufuncs, _util as _u, _write
from . import linalg  # noqa: F401  (registers numpy.linalg's functions with _util.implements)
from ._creation import astype
from ._fallback import (
    HostFallbackWarning, host_ufunc as _host_ufunc, numpy_args as _numpy_args,
)
from ._util import is_array as _is_array

_METHODS = ("reduce", "accumulate", "reduceat", "outer", "at")

# The names of lazycl's ufuncs (NumPy's ufuncs of these names dispatch to them).
_UFUNC_NAMES = frozenset(n for n in _namespace.__all__
                         if isinstance(getattr(_namespace, n), _ufuncs.ufunc))


def array_ufunc(ufunc, method, inputs, kwargs):
    name = ufunc.__name__
    if method == "__call__" and name in ("matmul", "vecdot"):
        return getattr(_namespace, name)(*inputs, **kwargs)
    if method in _METHODS and name in _UFUNC_NAMES:
        # The lazycl ufunc's own method (_ufuncs.py): lazy where lazycl can, else NumPy's on
        # the host; keywords it does not take go to the host as they are.
        r = _call_taking(getattr(getattr(_namespace, name), method), inputs, kwargs)
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
        f = getattr(_namespace, name)
        return f(*inputs)
    if (method == "__call__" and name in _UFUNC_NAMES and set(kwargs) <= {"dtype"} and
            ufunc.nout == 1):
        return astype(getattr(_namespace, name)(*inputs), kwargs["dtype"])
    if method == "at":
        return NotImplemented
    return _host_ufunc(ufunc, method, inputs, kwargs)


def _call_taking(f, args, kwargs):
    """f(*args, **kwargs) when f takes every keyword given, else NotImplemented."""
    if kwargs:
        params = inspect.signature(f).parameters
        if not _b.any(p.kind == p.VAR_KEYWORD for p in params.values()) and \
                not _b.all(k in params for k in kwargs):
            return NotImplemented
    return f(*args, **kwargs)


def _written_argument(func, args, kwargs):
    """The lazycl array a host fallback would write into through out= (the write would land in
    a temporary copy and be lost), or None. The NumPy functions that write into an argument
    of their own (fill_diagonal, put, ...) are lazy in lazycl (_write.py)."""
    out = kwargs.get("out")
    if isinstance(out, tuple):
        return next((o for o in out if _is_array(o)), None)
    return out


def _dispatchable(f):
    """Whether f is a NumPy function that dispatches through __array_function__."""
    return hasattr(f, "_implementation")


# Namespace functions that take less than NumPy's function of the same name, so that NumPy's
# call with lazycl arrays goes to the host: lazycl's linspace and logspace take scalar bounds,
# NumPy's arrays of them (with axis=).
_HOST_ONLY = frozenset({"linspace", "logspace"})


def _lazy_functions():
    """{NumPy function: lazycl's}: every name of the namespace that NumPy has as a dispatching
    function, and the functions registered with _util.implements (numpy.linalg's). Where
    NumPy has one function under two names (np.permute_dims is np.transpose), lazycl's
    function of the NumPy function's own name is taken."""
    table = {}
    for name in _namespace.__all__:
        f = getattr(np, name, None)
        if not _dispatchable(f) or name in _HOST_ONLY or (f in table and name != f.__name__):
            continue
        table[f] = getattr(_namespace, name)
    for f, impl in _u.IMPLEMENTS.items():
        table.setdefault(f, impl)
    return table


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
        _u.check_order(order, "KACF" if order is None else "KAC")
        q = place(like, device)
        if _is_array(a):
            r = _creation.to_device(a, q)
            moved = r is not a
            if dtype is not None and np.dtype(dtype) != r.dtype:
                r, moved = astype(r, dtype), True
            if copy is False and moved:
                raise ValueError("Unable to avoid copy while creating an array as requested.")
            return _c._copy(r) if copy and not moved else r
        if copy is False:
            raise ValueError("Unable to avoid copy while creating an array as requested.")
        return _creation.asarray(np.asarray(_numpy_args(a), dtype=dtype), device=q)

    def ascontiguousarray(like, a, dtype=None):
        r = asarray_(like, a, dtype)
        return _c.reshape(r, (1,)) if r.ndim == 0 else r

    def filled(value, default_dtype):
        def f(like, shape, dtype=default_dtype, order="C", *, device=None):
            _u.check_order(order, "CA")
            dt = default_dtype if dtype is None else dtype
            return _creation.full(shape, value, dt, place(like, device))
        return f

    def full(like, shape, fill_value, dtype=None, order="C", *, device=None):
        _u.check_order(order, "CA")
        return _creation.full(shape, fill_value, dtype, place(like, device))

    def arange(like, *args, dtype=None, device=None, **kw):
        if "step" in kw or "stop" in kw or "start" in kw:
            args = (kw.pop("start", args[0] if args else 0),) + tuple(
                kw.pop(n) for n in ("stop", "step") if n in kw)
        if kw:
            raise TypeError(f"arange() got an unexpected keyword argument {next(iter(kw))!r}")
        return _creation.arange(*args, dtype=dtype, device=place(like, device))

    def eye(like, N, M=None, k=0, dtype=float, order="C", *, device=None):
        _u.check_order(order, "CA")
        return _creation.eye(N, M, k, float if dtype is None else dtype, place(like, device))

    def identity(like, n, dtype=None):
        return _creation.eye(n, None, 0, dtype, like.queue)

    return {np.array: array, np.asarray: asarray_, np.asanyarray: asarray_,
            np.ascontiguousarray: ascontiguousarray, np.empty: filled(0, float),
            np.zeros: filled(0, float), np.ones: filled(1, float), np.full: full,
            np.arange: arange, np.eye: eye, np.identity: identity}


_LAZY = _lazy_functions()
_LIKE = _like_functions()


def array_function(func, types, args, kwargs, like=None):
    """`like` is the array whose __array_function__ NumPy called: for a creation function,
    the like= argument (NEP 35)."""
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
        raise TypeError(f"{fname} is not lazy in lazycl, and its out= would receive the "
                        "result in a host copy: assign the result instead (out[...] = result)")
    if _fallback.WARN and func not in _fallback.WARNED:
        _fallback.WARNED.add(func)
        warnings.warn(f"{fname} is not implemented by lazycl: its lazycl arguments were "
                      "computed and copied to the host, and NumPy answered there "
                      "(shown once per function; LAZYCL_HOST_FALLBACK_WARNING=0 turns it off)",
                      HostFallbackWarning, stacklevel=3)
    return func(*_numpy_args(args), **_numpy_args(kwargs))


