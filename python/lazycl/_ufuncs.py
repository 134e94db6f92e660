"""lazycl's ufunc type: NumPy's ufunc object (the call, its attributes, and the reduce,
accumulate, outer, at and reduceat methods) over lazycl's lazy elementwise ops.

Each public ufunc of lazycl (lazycl.add, lazycl.exp, lazycl.logaddexp ...) is an instance.
Calling one builds the same graph node the plain function did, at the same cost: the unary and
binary ops of graph/ops.def have subclasses whose __call__ goes straight to the extension; the
ufuncs composed of several ops call their Python function. nin, nout and identity are NumPy's
for the ufunc of the same name.

The methods are lazy where lazycl has the graph op (reductions, scans, gathers, atomic
scatters) and NumPy's answer on the host otherwise, with a HostFallbackWarning (the result
still a lazycl array, `at` still in place). They raise what NumPy raises for a ufunc of the
wrong arity. NumPy's own np.add.reduce(lazycl array) and the others reach the same methods
through __array_ufunc__ (_dispatch.py).

The instances for the unary and binary ops are made here, one per op of graph/ops.def that
NumPy has a ufunc of the same name for; the composed ufuncs are made where they are defined
(_elementwise.py, _mathfns.py) with from_function.

Layer: above _reductions, _scans, _index and _write, whose functions the methods call
(package docstring)."""
import functools
import inspect

import numpy as np

from . import _lazycl as _c, _util as _u, _write
from ._creation import asarray
from ._fallback import host_ufunc as _host_ufunc, numpy_args as _numpy_args
from ._index import take
from ._reductions import _keep, _masked, _minmax, _put_out, prod, sum as _sum
from ._scans import cumprod, cumsum
from ._util import is_array as _is_array

_ArrayBase = _c.ArrayBase
_unop = _c._unary
_binop = _c._binary
_NoValue = np._NoValue       # NumPy's "no initial given" (initial=None means "no identity")

# ufunc.reduce / accumulate on lazycl's reductions and scans, by NumPy's ufunc name.
_REDUCTIONS = {"add": "sum", "multiply": "prod", "maximum": "max", "minimum": "min",
               "fmax": "nanmax", "fmin": "nanmin", "logical_and": "all", "logical_or": "any",
               "logical_xor": "parity"}
# On bool input the bitwise ops are the logical ones.
_BOOL_REDUCTIONS = {"bitwise_and": "all", "bitwise_or": "any", "bitwise_xor": "parity"}
_SCANS = {"add": "cumsum", "multiply": "cumprod", "maximum": "cummax", "minimum": "cummin"}
# Ops whose reduce gives the same result when an element takes part twice (reduceat pads a
# short segment with its first element for those without an identity).
_IDEMPOTENT = {"maximum", "minimum", "fmax", "fmin", "logical_and", "logical_or",
               "bitwise_and", "bitwise_or"}


# Every lazycl ufunc made, by name (pickle's way back to an instance).
_BY_NAME = {}


def _by_name(name):
    """The lazycl ufunc `name` (pickle's way back to an instance)."""
    return _BY_NAME[name]


class ufunc:
    """A lazycl ufunc: called, it builds a lazy elementwise node, as the NumPy ufunc of the
    same name computes; its methods reduce, accumulate, outer, at and reduceat follow NumPy's.
    """

    signature = None     # a core signature: lazycl's ufuncs have none (no gufuncs)

    def __init__(self, name, f, nin, nout=1, identity=None, doc=None):
        self.__name__ = name
        self._f = f
        self.nin = nin
        self.nout = nout
        self.nargs = nin + nout
        self.identity = identity
        self.__doc__ = doc or getattr(f, "__doc__", None) or \
            f"Elementwise {name}, as numpy.{name} (lazy)."
        _BY_NAME[name] = self

    def __call__(self, *args, **kwargs):
        return self._f(*args, **kwargs)

    @property
    def __signature__(self):
        """The signature of the call: the composed ufunc's function's, or an op's ufunc's
        Python __call__'s."""
        if self._f is None:
            return inspect.signature(functools.partial(_python_call(type(self)), self))
        return inspect.signature(self._f)

    def __repr__(self):
        return f"<lazycl.ufunc '{self.__name__}'>"

    def __reduce__(self):
        return (_by_name, (self.__name__,))

    # ---- arity checks: NumPy's errors ------------------------------------------------

    def _binary_only(self, method, what=None):
        if self.nin != 2:
            raise ValueError(f"{what or method} only supported for binary functions")
        if self.nout != 1 and method != "outer":
            raise ValueError(f"{method} only supported for functions returning a single value")

    def _host(self, method, *args, **kwargs):
        """NumPy's ufunc.method on the computed arguments, with the HostFallbackWarning; an
        array result comes back as a lazycl array on the first lazycl argument's device."""
        out = _u.out_of(kwargs.pop("out", None))
        q = _u.queue_of(*args)
        r = _host_ufunc(getattr(np, self.__name__), method, args, kwargs)
        if q is not None and isinstance(r, (np.ndarray, np.generic)):
            r = asarray(r, device=q)
        if out is None:
            return r
        r = r if _is_array(r) else np.asarray(r)
        if tuple(r.shape) != tuple(out.shape):
            raise ValueError(f"output parameter for {method} has the wrong shape: Found "
                             f"{tuple(out.shape)} but expected {tuple(r.shape)}")
        return _write.assign_out(out, r, self.__name__, casting="unsafe")

    # ---- reduce ----------------------------------------------------------------------

    def reduce(self, array, axis=0, dtype=None, out=None, keepdims=False, initial=_NoValue,
               where=True):
        """NumPy's ufunc.reduce. Lazy for add, multiply, maximum, minimum, fmax, fmin and the
        logical ops (and the bitwise ones on bool): one reduction node, which fuses with its
        input. The other binary ufuncs reduce on the host (HostFallbackWarning)."""
        self._binary_only("reduce")
        name = self.__name__
        x = array if _is_array(array) else asarray(array)
        kind = _REDUCTIONS.get(name)
        if kind is None and np.dtype(x.dtype) == np.bool_:
            kind = _BOOL_REDUCTIONS.get(name)
        if kind is None or (kind in ("all", "any", "parity") and dtype is not None and
                            np.dtype(dtype) != np.bool_):
            kw = {"axis": axis, "dtype": dtype, "out": out, "keepdims": keepdims}
            if initial is not _NoValue:
                kw["initial"] = initial
            if where is not True:
                kw["where"] = where
            return self._host("reduce", x, **kw)
        axes = _u.norm_axes(axis, x.ndim)
        if initial is None:
            # NumPy: "no identity" (the first element starts), so an empty reduction fails.
            _check_not_empty(x, axes, name)
            initial = _NoValue
        mask = None if where is True else where
        if kind in ("sum", "prod"):
            f = _sum if kind == "sum" else prod
            return f(x, axis=axes, dtype=dtype, out=out, keepdims=keepdims,
                     initial=None if initial is _NoValue else initial, where=mask)
        if kind in ("max", "min", "nanmax", "nanmin"):
            if dtype is not None:
                x = _c.astype(x, dtype)
            if initial is _NoValue:
                _check_not_empty(x, axes, name)
            return _minmax(kind, x, axes, keepdims, out,
                              None if initial is _NoValue else initial, mask)
        # all / any / parity: bool results; masked elements count as the identity.
        b = x if np.dtype(x.dtype) == np.bool_ else _c.astype(x, np.bool_)
        b = _masked(b, mask, kind == "all")
        if kind == "parity":
            r = _binop("not_equal", _binop("bitwise_and", _c._reduce("sum", _c.astype(
                b, np.int64), axes), 1), 0)
        else:
            r = _c._reduce(kind, b, axes)
        if initial is not _NoValue:
            two = {"all": "logical_and", "any": "logical_or", "parity": "logical_xor"}[kind]
            r = _binop(two, r, bool(initial))
        return _put_out(_keep(r, x, axes, keepdims), _u.out_of(out), name)

    # ---- accumulate ------------------------------------------------------------------

    def accumulate(self, array, axis=0, dtype=None, out=None):
        """NumPy's ufunc.accumulate. Lazy for add, multiply, maximum and minimum (lazycl's
        scans, codegen/scan.c); the other binary ufuncs run on the host (HostFallbackWarning).
        """
        self._binary_only("accumulate")
        x = array if _is_array(array) else asarray(array)
        if x.ndim == 0:
            raise TypeError("cannot accumulate on a scalar")
        if isinstance(axis, (tuple, list)):
            if len(axis) != 1:
                raise ValueError("accumulate does not allow multiple axes")
            axis = axis[0]
        if axis is None:
            if x.ndim != 1:
                raise ValueError("accumulate does not allow multiple axes")
            axis = 0
        axis = _u.norm_axis(axis, x.ndim)
        scan = _SCANS.get(self.__name__)
        if scan is None:
            return self._host("accumulate", x, axis=axis, dtype=dtype, out=out)
        if scan in ("cumsum", "cumprod"):
            return (cumsum if scan == "cumsum" else cumprod)(x, axis=axis, dtype=dtype, out=out)
        out = _u.out_of(out)
        if dtype is not None:
            x = _c.astype(x, dtype)
        return _put_out(_c._scan(scan, x, axis), out, self.__name__, scan=True)

    # ---- outer -----------------------------------------------------------------------

    def outer(self, A, B, /, out=None):
        """NumPy's ufunc.outer: r[i..., j...] = ufunc(A[i...], B[j...]), lazy (one broadcast
        node, no copy of either input)."""
        self._binary_only("outer", "outer product")
        a = A if _is_array(A) else asarray(A, device=B.queue if _is_array(B) else None)
        b = B if _is_array(B) else asarray(B, device=a.queue)
        r = self(_c.reshape(a, tuple(a.shape) + (1,) * b.ndim), b)
        return r if out is None else _with_out(r, out, self.__name__)

    # ---- at --------------------------------------------------------------------------

    def at(self, a, indices, b=None, /):
        """NumPy's ufunc.at: a[indices] = ufunc(a[indices], b) in place and unbuffered (a
        repeated index applies once per time it appears). On a lazycl array add, subtract,
        multiply, minimum and maximum are atomic scatters (lazy, _write.ufunc_at); the others
        compute a on the host and write it back (HostFallbackWarning). A NumPy `a` is NumPy's
        own at."""
        if self.nin == 1 and b is not None:
            raise ValueError("second operand provided when ufunc is unary")
        if self.nin == 2 and b is None:
            raise ValueError("second operand needed for ufunc")
        name = self.__name__
        if not _is_array(a):
            getattr(np, name).at(a, *_numpy_args((indices,) if b is None else (indices, b)))
            return None
        if name in _write._AT_OPS:
            _write.ufunc_at(name, a, indices, b)
            return None
        _c._writable(a, "output array is read-only")
        h = a.numpy().copy()
        args = (indices,) if b is None else (indices, b)
        _host_ufunc(getattr(np, name), "at", (h,) + args, {})
        a[...] = asarray(h, device=a.queue)
        return None

    # ---- reduceat --------------------------------------------------------------------

    def reduceat(self, array, indices, axis=0, dtype=None, out=None):
        """NumPy's ufunc.reduceat: along `axis`, r[i] = reduce(a[indices[i]:indices[i+1]])
        where indices[i] < indices[i+1], else a[indices[i]]; the last slice runs to the end.

        Lazy for the ufuncs with a lazy reduce: the indices come to the host (they are
        checked there, as NumPy does), each segment is gathered into a row padded to the
        longest segment (with the identity, or the segment's first element for maximum,
        minimum and the other idempotent ops), and the rows are reduced: one gather and one
        reduction, fused. Where padding would more than double the data (one segment much
        longer than the mean) and for the other binary ufuncs, NumPy answers on the host
        (HostFallbackWarning)."""
        self._binary_only("reduceat")
        name = self.__name__
        x = array if _is_array(array) else asarray(array)
        if x.ndim == 0:
            raise TypeError("cannot reduceat on a scalar")
        if isinstance(axis, (tuple, list)) or axis is None:
            if (x.ndim if axis is None else len(axis)) != 1:
                raise ValueError("reduceat does not allow multiple axes")
            axis = 0 if axis is None else axis[0]
        axis = _u.norm_axis(axis, x.ndim)
        idx = np.asarray(indices.numpy() if _is_array(indices) else indices)
        if idx.ndim != 1:
            raise ValueError("reduceat: indices must be a 1-d sequence of integers")
        idx = idx.astype(np.intp)
        n = x.shape[axis]
        bad = idx[(idx < 0) | (idx >= n)]
        if bad.size:
            raise IndexError(f"index {bad[0]} out-of-bounds in {name}.reduceat [0, {n})")
        m = idx.size
        if m == 0:
            # NumPy's dtype for this reduceat, found on a one-element array of x's dtype.
            dt = getattr(np, name).reduceat(np.zeros(1, x.dtype), [0], dtype=dtype).dtype
            shape = tuple(x.shape[:axis]) + (0,) + tuple(x.shape[axis + 1:])
            return _put_out(_c._full(0, shape, dt, x.queue), _u.out_of(out), name)
        lazy = _REDUCTIONS.get(name) or (np.dtype(x.dtype) == np.bool_ and
                                         _BOOL_REDUCTIONS.get(name))
        ends = np.append(idx[1:], n)
        lens = np.where(ends > idx, ends - idx, 1)
        k = int(lens.max()) if m else 0
        if not lazy or m * k > 2 * n + 1024:
            return self._host("reduceat", x, idx, axis=axis, dtype=dtype, out=out)
        q = x.queue
        starts = asarray(idx.astype(np.int64).reshape(m, 1), device=q)
        step = _c._iota(0, 1, k, np.int64, q)
        pos = _binop("minimum", _binop("add", starts, step), n - 1)     # (m, k), in range
        g = take(x, pos, axis=axis)                                   # a's dims, axis -> m, k
        valid = _binop("less", step, asarray(lens.astype(np.int64).reshape(m, 1), device=q))
        valid = _c.reshape(valid, (1,) * axis + (m, k) + (1,) * (x.ndim - axis - 1))
        if name in _IDEMPOTENT or self.identity is None:
            fill = take(g, 0, axis=axis + 1)                           # the first element
            fill = _c.reshape(fill, tuple(fill.shape[:axis + 1]) + (1,) + tuple(
                fill.shape[axis + 1:]))
        else:
            fill = _c._full(self.identity, (), x.dtype, q)
        g = _c.where(valid, g, fill)
        return self.reduce(g, axis=axis + 1, dtype=dtype, out=out)


def _check_not_empty(x, axes, name):
    count = 1
    for d in axes:
        count *= x.shape[d]
    if count == 0:
        raise ValueError(f"zero-size array to reduction operation {name} which has no identity")


class _unary_ufunc(ufunc):
    """A ufunc that is one unary graph op (its __call__ is the whole of the old function)."""

    def __init__(self, name, op, identity=None, doc=None):
        super().__init__(name, None, 1, 1, identity, doc)
        self._op = op

    def __call__(self, x, /, out=None):
        if not isinstance(x, _ArrayBase):
            x = asarray(x)
        if out is None:
            return _unop(self._op, x)
        return _with_out(_unop(self._op, x), out, self.__name__)


class _binary_ufunc(ufunc):
    """A ufunc that is one binary graph op (its __call__ is the whole of the old function)."""

    def __init__(self, name, op, identity=None, doc=None):
        super().__init__(name, None, 2, 1, identity, doc)
        self._op = op

    def __call__(self, a, b, /, out=None):
        if not isinstance(a, _ArrayBase) and not isinstance(b, _ArrayBase):
            a = asarray(a)
        if out is None:
            return _binop(self._op, a, b)
        return _with_out(_binop(self._op, a, b), out, self.__name__)


def _with_out(r, out, name):
    """ufunc(..., out=out): NumPy's same_kind cast into out (an array or a 1-tuple)."""
    if isinstance(out, tuple):
        if len(out) != 1:
            raise ValueError("The 'out' tuple must have exactly one entry per ufunc output")
        out = out[0]
    return _write.assign_out(out, r, name)


def _numpy_facts(name):
    """(NumPy's name, nin, nout, identity) of the NumPy ufunc `name`."""
    u = getattr(np, name)
    return u.__name__, u.nin, u.nout, u.identity


# {op name: op id} of the extension's table; a ufunc calls its op by id (no lookup by name).
_OP_ID = {name: op for name, _, _, op in _c.ops}


def _python_call(cls):
    """The Python __call__ of an op's ufunc class (_unary_ufunc's or _binary_ufunc's)."""
    return (_unary_ufunc if issubclass(cls, _unary_ufunc) else _binary_ufunc).__call__


def from_op(name, op=None):
    """The ufunc for graph op `op` (default: `name`), with NumPy's facts for `name`.

    Its class is a subclass of its own whose __call__ is the extension's _ufunc_call bound to
    the op and to the instance's Python __call__ (functools.partial, called from C): a call
    on lazycl arrays builds the node with no Python frame; out= and host-only operands take
    the Python __call__."""
    np_name, nin, nout, identity = _numpy_facts(name)
    op = _OP_ID[name if op is None else op]
    doc = f"Elementwise {np_name}, as numpy.{np_name} (lazy)."
    base = _unary_ufunc if nin == 1 else _binary_ufunc
    cls = type(base.__name__, (base,), {"__slots__": (), "__module__": __name__,
                                        "__doc__": base.__doc__})
    u = cls(np_name, op, identity, doc)
    cls.__call__ = staticmethod(functools.partial(_c._ufunc_call, op,
                                                  functools.partial(base.__call__, u)))
    return u


def from_function(f, name=None):
    """The ufunc that calls the Python function `f` (a composition of ops), with NumPy's facts
    for `name` (default: f's name)."""
    np_name, nin, nout, identity = _numpy_facts(name or f.__name__)
    return ufunc(np_name, f, nin, nout, identity, f.__doc__)


# ---- the ufuncs of the graph's elementwise ops ----------------------------------------------

# Ops whose ufunc is a Python function of the op (from_function), made where it is defined:
# nextafter, ldexp, gcd and lcm resolve NumPy's loop dtypes first (_mathfns.py); conjugate
# converts its argument (_complex.py, made a ufunc in _elementwise.py).
COMPOSED = frozenset({"conjugate", "nextafter", "ldexp", "gcd", "lcm"})

# The names of the unary and binary ops of graph/ops.def (the extension's table `ops`) that
# NumPy has a ufunc of, in the table's order.
UNARY = [name for name, nin, kind, _ in _c.ops
         if kind == "unary" and name not in COMPOSED and isinstance(getattr(np, name, None),
                                                                    np.ufunc)]
BINARY = [name for name, nin, kind, _ in _c.ops
          if kind == "binary" and name not in COMPOSED and isinstance(getattr(np, name, None),
                                                                      np.ufunc)]

for _n in UNARY + BINARY:
    globals()[_n] = from_op(_n)
del _n

__all__ = UNARY + BINARY
