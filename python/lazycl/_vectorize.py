"""Scalar functions written in Python, as lazy ufuncs that fuse: ``lazycl.vectorize`` and
``lazycl.func`` (NumbaPro's and Numba's ``@vectorize``, on OpenCL).

``@lc.vectorize`` translates the function (``_pytocl``) into an OpenCL C function for the
dtypes of each call's arguments (or for the first of its Numba-style signatures they cast to
safely), and applies it as a user elementwise kernel (``_userkernels.ElementwiseKernel``): one
graph node, which fuses with its neighbours: ``(v(R, I, 60) > 10).sum()`` is one launch.
``@lc.func`` marks a helper that vectorized functions (and ``@lc.kernel`` kernels) may call.
"""
import hashlib
import re

import numpy as np

from . import _lazycl as _c
from . import _pytocl as _t
from . import _util as _u
from ._userkernels import ElementwiseKernel, _call_key, _scalar_or_array

#: Numba's short type names, as NumPy dtypes.
_SHORT = {"f4": "float32", "f8": "float64", "i1": "int8", "i2": "int16", "i4": "int32",
          "i8": "int64", "u1": "uint8", "u2": "uint16", "u4": "uint32", "u8": "uint64",
          "b1": "bool", "boolean": "bool", "bool_": "bool", "float": "float64",
          "double": "float64", "int_": "int64", "intp": "int64", "uintp": "uint64"}


def _dtype(name, where):
    n = _SHORT.get(name.strip(), name.strip())
    try:
        dt = np.dtype(n)
    except TypeError:
        raise TypeError(f"{where}: unknown type {name.strip()!r}") from None
    if dt.kind not in "biuf" or dt == np.float16 or n != dt.name and n not in ("bool",):
        raise TypeError(f"{where}: lazycl functions take bool, int8-64, uint8-64, float32 "
                        f"and float64, not {name.strip()!r}")
    return dt


def _parse_signature(sig, name):
    """'float32(float32, int64)' -> (return dtype, [argument dtypes])."""
    if not isinstance(sig, str):
        raise TypeError(f"vectorize {name!r}: signatures are strings such as "
                        f"'float32(float32, float32)', not {type(sig).__name__}")
    m = re.fullmatch(r"\s*(\w+)\s*\((.*)\)\s*", sig)
    if not m:
        raise ValueError(f"vectorize {name!r}: cannot parse the signature {sig!r} (expected "
                         f"'ret(arg, ...)', e.g. 'float32(float32, float32)')")
    where = f"vectorize {name!r}, signature {sig!r}"
    args = [a for a in (s.strip() for s in m.group(2).split(",")) if a]
    return _dtype(m.group(1), where), [_dtype(a, where) for a in args]


def c_ident(name):
    """A name as a C identifier (its other characters as _)."""
    return re.sub(r"\W", "_", name)


class PythonFunction:
    """A Python function lazycl translates (@lc.vectorize, @lc.func, @lc.kernel): the function,
    its names, and its parsed source, read at the first translation."""

    kind = "func"

    def __init__(self, fn):
        if not callable(fn) or not hasattr(fn, "__code__"):
            raise TypeError(f"lazycl.{self.kind} takes a Python function, not "
                            f"{type(fn).__name__}")
        self.py = fn
        self.__name__ = fn.__name__
        self.__qualname__ = getattr(fn, "__qualname__", fn.__name__)
        self.__doc__ = fn.__doc__
        self.__wrapped__ = fn
        self._src = None

    def _source(self):
        if self._src is None:
            try:
                self._src = _t.FunctionSource(self.py, self.kind)
            except _t.TranslateError as e:
                raise _c.CompileError(str(e)) from None
        return self._src


class _Scalar(PythonFunction):
    """What @lc.vectorize and @lc.func share: a scalar function, and the OpenCL C of it per
    argument dtypes."""

    def __init__(self, fn):
        super().__init__(fn)
        self._c = {}                   # argument dtypes -> (C name, return dtype, source)

    def _translate(self, types, out):
        """This function's C name and return dtype for argument dtypes `types`; its source
        and its callees' are added to `out` (a dict, C name -> source, in order)."""
        return _translate(self, tuple(np.dtype(t) for t in types), out, [])


def _translate(obj, types, out, stack):
    key = types
    hit = obj._c.get(key)
    if hit is not None:
        cname, ret, src, callees = hit
        for k, v in callees.items():
            out.setdefault(k, v)
        out.setdefault(cname, src)
        return cname, ret
    if any(o is obj for o in stack):
        raise _c.CompileError(f"{obj.kind} {obj.__name__!r}: recursion is not supported (it "
                              f"calls itself through {' -> '.join(o.__name__ for o in stack)})")
    fs = obj._source()
    digest = hashlib.sha1((fs.file + fs.name + str(fs.first) + ",".join(t.name for t in types))
                          .encode()).hexdigest()[:12]
    cname = f"lc_py_{c_ident(obj.__name__)}_{digest}"
    callees = {}

    def resolve(callee, arg_types, node):
        if not isinstance(callee, _Scalar):
            fs.fail(node, f"calling {getattr(callee, '__name__', type(callee).__name__)!r} "
                          f"(a lazycl function calls math.*, abs, min, max, int, float, bool "
                          f"and other @lazycl.vectorize or @lazycl.func functions)")
        if len(arg_types) != len(callee._source().params):
            fs.fail(node, f"calling {callee.__name__!r} with {len(arg_types)} arguments (it "
                          f"takes {len(callee._source().params)})")
        return _translate(callee, tuple(arg_types), callees, stack + [obj])

    try:
        tr = _t.Translator(fs, types, cname, resolve)
    except _t.TranslateError as e:
        raise _c.CompileError(str(e)) from None
    obj._c[key] = (cname, tr.ret, tr.source, dict(callees))
    for k, v in callees.items():
        out.setdefault(k, v)
    out.setdefault(cname, tr.source)
    return cname, tr.ret


class func(_Scalar):
    """``@lazycl.func``: a scalar function in Python that ``@lazycl.vectorize`` functions and
    ``@lazycl.kernel`` kernels may call (translated for the dtypes of each call). Called from
    Python, it is the Python function."""

    kind = "func"

    def __call__(self, *args):
        return self.py(*args)

    def __repr__(self):
        return f"<lazycl.func {self.__name__!r}>"


class vectorize(_Scalar):
    """``@lazycl.vectorize`` (or ``@lazycl.vectorize(['float32(float32, float32)', ...])``): a
    scalar Python function as a lazy ufunc over lazycl arrays, translated to OpenCL C.

    Without signatures the argument dtypes are the call's (NumPy arrays and Python scalars as
    np.asarray gives them); with signatures, the first whose argument dtypes every argument
    casts to safely (a Python int to any int or float, a float to any float), and the result
    is cast to its return dtype. The translated body follows NumPy's promotion rules
    (docs/api.md, "Functions in Python"). The call broadcasts its arguments, takes ``out=``,
    and returns a lazy array that fuses with its neighbours."""

    kind = "vectorize"

    def __new__(cls, fn=None, signatures=None, *, target=None, nopython=True, cache=None,
                identity=None, fastmath=False, otypes=None, doc=None, excluded=None,
                signature=None):
        if fn is not None and not callable(fn):         # @vectorize(['f4(f4)'])
            signatures, fn = fn, None
        if excluded or signature is not None or cache is True:
            raise NotImplementedError("vectorize: NumPy's excluded=, signature= and cache= are "
                                      "not supported (lazycl translates scalar numeric "
                                      "functions)")
        if target not in (None, "cpu", "parallel", "cuda", "opencl", "gpu"):
            raise ValueError(f"vectorize: target must be one of 'cpu', 'parallel', 'cuda', "
                             f"'opencl', not {target!r} (lazycl runs a function where its "
                             f"arrays are)")
        if identity is not None or fastmath:
            raise NotImplementedError("vectorize: identity= and fastmath= are not supported")
        if fn is None:
            def wrap(f):
                return cls(f, signatures, target=target, otypes=otypes, doc=doc)
            return wrap
        self = super().__new__(cls)
        return self

    def __init__(self, fn=None, signatures=None, *, target=None, nopython=True, cache=None,
                 identity=None, fastmath=False, otypes=None, doc=None, excluded=None,
                 signature=None):
        if fn is not None and not callable(fn):
            signatures, fn = fn, None
        super().__init__(fn)
        if doc is not None:
            self.__doc__ = doc
        if otypes is not None:
            ot = [np.dtype(t) for t in (otypes if not isinstance(otypes, str) else list(otypes))]
            if len(ot) != 1:
                raise ValueError(f"vectorize {fn.__name__!r}: otypes= gives one dtype (one "
                                 f"output), not {len(ot)}")
            self.otype = ot[0]
        else:
            self.otype = None
        self.nin = len(self._arity())
        self.nout = 1
        self.nargs = self.nin + 1
        if isinstance(signatures, str):
            signatures = [signatures]
        self.signatures = [_parse_signature(s, self.__name__) for s in (signatures or [])]
        for ret, args in self.signatures:
            if len(args) != self.nin:
                raise TypeError(f"vectorize {self.__name__!r}: a signature of {len(args)} "
                                f"arguments for a function of {self.nin}")
        self._kernels = {}
        self._chosen = {}       # the types and dtypes of a call's arguments -> (dtypes, kernel)

    def _arity(self):
        code = self.py.__code__
        if code.co_flags & 0x0C:
            raise TypeError(f"vectorize {self.__name__!r}: *args and **kwargs are not supported")
        return code.co_varnames[:code.co_argcount]

    @property
    def types(self):
        return ["".join(np.dtype(a).char for a in args) + "->" + np.dtype(ret).char
                for ret, args in self.signatures]

    @property
    def ntypes(self):
        return len(self.signatures)

    def __repr__(self):
        return f"<lazycl.vectorize {self.__name__!r}>"

    def _choose(self, args):
        """(argument dtypes, return dtype or None) for these call arguments."""
        dts = []
        for a in args:
            if _u.is_array(a) or isinstance(a, (np.ndarray, np.generic)):
                dts.append((np.dtype(a.dtype), False))
            elif isinstance(a, (bool, int, float)):
                dts.append((np.result_type(a), True))
            else:
                raise TypeError(f"vectorize {self.__name__!r}: arguments are arrays or real "
                                f"scalars, not {type(a).__name__}")
        if not self.signatures:
            return [d for d, _ in dts], None
        for ret, want in self.signatures:
            ok = True
            for (d, weak), w in zip(dts, want):
                if weak:
                    ok &= (d.kind == "b" and w.kind == "b") or (d.kind == "i" and w.kind in "iuf") \
                        or (d.kind == "f" and w.kind == "f")
                else:
                    ok &= np.can_cast(d, w, "safe")
            if ok:
                return want, ret
        raise TypeError(f"vectorize {self.__name__!r}: no signature matches the argument "
                        f"dtypes ({', '.join(d.name for d, _ in dts)}); it has "
                        f"{', '.join(self.types)}")

    def _kernel(self, types, ret_sig, device):
        key = (tuple(types), ret_sig)
        k = self._kernels.get(key)
        if k is not None:
            return k
        sources = {}
        cname, ret = self._translate(types, sources)
        out_dt = np.dtype(ret_sig) if ret_sig is not None else ret
        names = [f"vf_a{i}" for i in range(len(types))]
        body = "".join(sources.values())
        preamble = _t.helpers_for(body) + body
        ek = ElementwiseKernel(", ".join(f"{np.dtype(t).name} {n}" for t, n in zip(types, names)),
                               f"{out_dt.name} vf_r",
                               f"vf_r = ({_t.cl(out_dt)}){cname}({', '.join(names)});",
                               c_ident(self.__name__), preamble=preamble)
        self._kernels[key] = ek
        return ek

    def __call__(self, *args, out=None, **kwargs):
        if kwargs:
            raise TypeError(f"vectorize {self.__name__!r}: unexpected keyword arguments "
                            f"{sorted(kwargs)}")
        if len(args) != self.nin:
            raise TypeError(f"vectorize {self.__name__!r} takes {self.nin} arguments, got "
                            f"{len(args)}")
        key = _call_key(args)
        hit = self._chosen.get(key) if key is not None else None
        queue = _u.queue_of(*args, out)
        if hit is None:
            types, ret = self._choose(args)
            if ret is None and self.otype is not None:
                ret = self.otype
            k = self._kernel(types, ret, queue)
            if key is not None:
                self._chosen[key] = types, k
        else:
            types, k = hit
        # Every argument as a lazycl array of its chosen dtype (scalars 0-d), on one queue.
        arrays = []
        for a, t in zip(args, types):
            if _u.is_array(a):
                arrays.append(a if a.dtype == t else a.astype(t))
            else:
                arrays.append(_scalar_or_array(a, t, queue))
        try:
            return k(*arrays, out=out) if out is not None else k(*arrays)
        except _c.CompileError as err:
            raise self._compile_error(err) from None

    def _compile_error(self, err):
        """The device compiler's first error, at the Python line it names."""
        return _t.python_line_error(err, "vectorize", self.__name__, [self._source().file])


__all__ = ["vectorize", "func"]
