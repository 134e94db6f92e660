"""User elementwise kernels in OpenCL C that fuse: ``lazycl.ElementwiseKernel`` (CuPy's
signature and type placeholders).

A kernel is a body of OpenCL C statements over named scalars: ``ElementwiseKernel('T x, T
y', 'T z', 'z = (x - y) * (x - y)', 'sqdiff')``. Calling it on arrays resolves the
placeholders from the arguments' dtypes, registers the function for those dtypes once
(graph/userfn.h) and adds one graph node per output, which fuses with its elementwise
neighbours and into reductions as any ufunc does: ``(sqdiff(2 * x, y) + 1).sum()`` is one
launch. The body may use ``i`` (the flat index of the element, an int64) and
``_ind.size()`` (the number of elements), as in CuPy.
"""
import math
import re

import numpy as np

from . import _lazycl as _c
from . import _util as _u
from ._creation import arange
from ._views import broadcast_to
from ._pytocl import user_lines as _user_lines

#: OpenCL C's scalar type names, as lazycl's dtypes (C's `float` is float32, NumPy's is 64).
_CL_TYPES = {"bool": "bool", "char": "int8", "uchar": "uint8", "short": "int16",
             "ushort": "uint16", "int": "int32", "uint": "uint32", "long": "int64",
             "ulong": "uint64", "float": "float32", "double": "float64"}
#: lazycl's dtypes as OpenCL C spells them (bool is a byte).
_CL_NAME = {"bool": "uchar", "int8": "char", "uint8": "uchar", "int16": "short",
            "uint16": "ushort", "int32": "int", "uint32": "uint", "int64": "long",
            "uint64": "ulong", "float32": "float", "float64": "double"}
_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_USES_I = re.compile(r"(?<![\w.])i(?!\w)")
_IND_SIZE = re.compile(r"\b_ind\s*\.\s*size\s*\(\s*\)")


#: NumPy's names of the dtypes user kernels take (any other identifier is a placeholder, as in
#: CuPy: 'T', 'U', 'f' are placeholders, never NumPy's one-letter codes).
_NP_TYPES = {n: n for n in ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16",
                            "uint32", "uint64", "float32", "float64")}
_NP_TYPES.update({"bool_": "bool", "intp": "int64", "uintp": "uint64"})
_UNSUPPORTED = ("float16", "half", "complex64", "complex128", "complex")


def _dtype_of_name(t):
    """The NumPy dtype a type name in a signature names, or None for a placeholder."""
    if t in _CL_TYPES:
        return np.dtype(_CL_TYPES[t])
    if t in _NP_TYPES:
        return np.dtype(_NP_TYPES[t])
    if t in _UNSUPPORTED:
        raise TypeError(f"user kernels take bool, int8-64, uint8-64, float32 and float64 "
                        f"parameters, not {t}")
    return None


def _parse_params(text, what, name, cls="ElementwiseKernel"):
    """'T x, float32 y' -> [(type name, dtype or None, param name)]."""
    if not isinstance(text, str):
        raise TypeError(f"{cls} {name!r}: {what} must be a string, not "
                        f"{type(text).__name__}")
    out = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        words = part.split()
        if words and words[0] == "raw":
            raise NotImplementedError(
                f"{cls} {name!r}: raw parameters ({part!r}) are not supported: "
                f"lazycl kernels are elementwise and fuse; use lazycl.RawKernel for whole "
                f"kernels")
        if len(words) != 2 or not _IDENT.match(words[0]) or not _IDENT.match(words[1]):
            raise ValueError(f"{cls} {name!r}: cannot parse {what} parameter "
                             f"{part!r} (expected 'type name', e.g. 'T x' or 'float32 y')")
        out.append((words[0], _dtype_of_name(words[0]), words[1]))
    return out


def _compile_error(cls, name, err, parts):
    """A CompileError naming the user's part and line and the compiler's message about it.
    parts: the #line file name of each part of the user's text -> (its label, its text)."""
    detail = _user_lines(getattr(err, "detail", "") or str(err))
    files = "|".join(re.escape(f) for f in sorted(parts, key=len, reverse=True))
    # clang's "file:L:C: error: msg", and PoCL's "error: file:L:C: msg".
    found = (re.search(r"(?m)(?<!\w)(" + files + r"):(\d+):(?:\d+:)?\s*(?:fatal )?error:\s*(.*)$",
                       detail)
             or re.search(r"(?m)error:\s*(" + files + r"):(\d+):(?:\d+:)?\s*(.*)$", detail))
    if not found:
        msg = (f"{cls} {name!r} does not compile:\n"
               + "\n".join(l for l in detail.splitlines() if "error" in l)[:2000])
    else:
        label, text = parts[found.group(1)]
        lines = text.splitlines()
        line = int(found.group(2))
        src = lines[line - 1] if 0 < line <= len(lines) else ""
        msg = f"{cls} {name!r}, {label} line {line}: {src.strip()}\n    {found.group(3).strip()}"
    e = _c.CompileError(msg)
    e.detail = detail
    return e


def _check_names(cls, name, params, reserved):
    """ValueError for a parameter name declared twice, or one `reserved` refuses."""
    names = [p[2] for p in params]
    for n in set(names):
        if names.count(n) > 1:
            raise ValueError(f"{cls} {name!r}: parameter {n!r} is declared twice")
    for n in names:
        if reserved(n):
            raise ValueError(f"{cls} {name!r}: {n!r} is a reserved name")


def _call_key(args):
    """What the dtypes chosen for a call's arguments depend on: each argument's type and dtype,
    a Python int's only while it fits int64 (NumPy types larger ones by value); None where it
    cannot tell."""
    key = []
    for a in args:
        d = getattr(a, "dtype", None)
        if d is None and not (type(a) in (bool, float) or
                              (type(a) is int and -2**63 <= a < 2**63)):
            return None
        key.append((type(a), d))
    return tuple(key)


def _scalar_or_array(a, dt, queue):
    """A NumPy array or a scalar argument as a lazycl array of dtype dt: a scalar becomes a
    constant of the kernel (no buffer, no transfer), after NumPy's conversion checks (an
    integer out of dt's range raises OverflowError)."""
    v = np.asarray(a, dtype=dt)
    if v.ndim == 0:
        return _c._full(v[()], (), dt, queue)
    return _c.asarray(v, None, queue)


def _bind_placeholders(cls, name, in_params, args, out_params, outs):
    """The dtype of each placeholder: from the first array argument (an input's, then an
    output's) that uses it, then from a scalar input, as CuPy binds them. A placeholder two
    arrays give different dtypes is a TypeError naming the parameter."""
    bound = {}

    def bind(t, dt, pname):
        have = bound.get(t)
        if have is None:
            bound[t] = dt
        elif have != dt:
            raise TypeError(f"{cls} {name!r}: parameter {pname!r} is {dt}, but {t} is {have} "
                            f"(from an earlier argument)")

    for (t, dt, pname), a in zip(in_params, args):
        if dt is None and (_u.is_array(a) or isinstance(a, np.ndarray)):
            bind(t, np.dtype(a.dtype), pname)
    for (t, dt, pname), a in zip(out_params, outs):
        if dt is None and a is not None:
            bind(t, np.dtype(a.dtype), pname)
    for (t, dt, pname), a in zip(in_params, args):     # scalars last
        if dt is None and t not in bound:
            bound[t] = np.asarray(a).dtype if isinstance(a, np.generic) else np.result_type(a)
    return bound


class ElementwiseKernel:
    """CuPy's ElementwiseKernel over lazycl arrays: a lazy elementwise op written in OpenCL C.

    ``in_params`` and ``out_params`` are comma-separated ``type name`` pairs; a type is a dtype
    name (NumPy's, or OpenCL C's scalar names) or a placeholder (any other identifier), bound
    to the dtype of the first array argument that uses it. ``operation`` assigns every output
    from the inputs; ``preamble`` holds helper definitions. Calls take the inputs, then
    optionally the outputs (or ``out=``), which are then written and returned; inputs
    broadcast together as NumPy's ufuncs do. The result is lazy and fuses with its neighbours.
    """

    def __init__(self, in_params, out_params, operation, name="kernel", reduce_dims=True,
                 preamble="", no_return=False, return_tuple=False, loop_prep="",
                 after_loop="", options=()):
        if not isinstance(name, str) or not _IDENT.match(name):
            raise ValueError(f"ElementwiseKernel name must be an identifier, not {name!r}")
        if not isinstance(operation, str):
            raise TypeError(f"ElementwiseKernel {name!r}: operation must be a string")
        if loop_prep or after_loop:
            raise NotImplementedError(f"ElementwiseKernel {name!r}: loop_prep and after_loop "
                                      f"have no meaning in a fused kernel")
        if options:
            raise NotImplementedError(f"ElementwiseKernel {name!r}: build options are not "
                                      f"taken (the kernel fuses into lazycl's)")
        self.name = name
        self.in_params = _parse_params(in_params, "input", name)
        self.out_params = _parse_params(out_params, "output", name)
        if not self.out_params:
            raise ValueError(f"ElementwiseKernel {name!r} has no output")
        _check_names("ElementwiseKernel", name, self.in_params + self.out_params,
                     lambda n: n in ("i", "_ind_size") or n.startswith("lc_"))
        self.operation = operation
        self.preamble = preamble or ""
        self.no_return = no_return
        self.return_tuple = return_tuple
        self.reduce_dims = reduce_dims
        self.nin = len(self.in_params)
        self.nout = len(self.out_params)
        body = _IND_SIZE.sub("_ind_size", operation)
        self._uses_size = body != operation
        self._uses_i = bool(_USES_I.search(body))
        self._body = body if body.rstrip().endswith(("}", ";")) else body + ";"
        self._fns = {}          # the dtypes of the inputs and outputs -> function id
        self._calls = {}        # _call_key of a call's arguments (and outputs) -> their dtypes

    def __repr__(self):
        return f"<lazycl.ElementwiseKernel {self.name!r}>"

    # ---- types -------------------------------------------------------------------------

    def _bind(self, args, outs):
        """The dtypes of the inputs and outputs for these arguments."""
        bound = _bind_placeholders("ElementwiseKernel", self.name, self.in_params, args,
                                   self.out_params, outs)
        ins = []
        for t, dt, pname in self.in_params:
            ins.append(dt if dt is not None else bound[t])
        res = []
        for (t, dt, pname), o in zip(self.out_params, outs):
            if dt is None:
                if t not in bound:
                    raise TypeError(f"ElementwiseKernel {self.name!r}: cannot tell the dtype "
                                    f"of output {pname!r} ({t} is bound by no input): pass "
                                    f"the output array")
                dt = bound[t]
            res.append(dt)
        for dt in ins + res:
            if dt.kind not in "biuf" or dt == np.float16:
                raise TypeError(f"ElementwiseKernel {self.name!r}: user kernels take bool, "
                                f"integer, float32 and float64 data, not {dt}")
        return ins, res

    def _fn(self, ins, outs, device):
        key = (tuple(ins), tuple(outs))
        fid = self._fns.get(key)
        if fid is not None:
            return fid
        params = [(p[2], dt) for p, dt in zip(self.in_params, ins)]
        if self._uses_i:
            params.append(("i", np.dtype(np.int64)))
        if self._uses_size:
            params.append(("_ind_size", np.dtype(np.int64)))
        if not params:
            params.append(("lc_unused", np.dtype(np.uint8)))   # a node needs an input
        if len(params) + len(outs) > 8:
            raise ValueError(f"ElementwiseKernel {self.name!r}: at most 8 parameters in all "
                             f"(counting i and _ind.size()), got {len(params) + len(outs)}")
        # The placeholders are types in the body too ('(T)n'), as in CuPy: typedefs on the
        # body's first line, so that its line numbers stay the user's.
        types = {}
        for p, dt in list(zip(self.in_params, ins)) + list(zip(self.out_params, outs)):
            if p[1] is None:
                types[p[0]] = dt
        prefix = "".join(f"typedef {_CL_NAME[dt.name]} {t}; " for t, dt in types.items())
        fid = _c._user_fn(self.name, params, [(p[2], dt) for p, dt in zip(self.out_params, outs)],
                          prefix + self._body, self.preamble)
        # Built once per device and dtypes, now: a compile error is raised by the call that
        # caused it, naming the user's line (the kernel cache keeps the check kernel).
        try:
            _c._user_check(fid, device)
        except _c.CompileError as err:
            raise self._compile_error(err) from None
        self._fns[key] = fid
        return fid

    def _compile_error(self, err):
        """A CompileError naming the user's line and the compiler's message about it."""
        return _compile_error("ElementwiseKernel", self.name, err,
                              {self.name: ("operation", self._body),
                               self.name + " preamble": ("preamble", self.preamble)})

    # ---- calls -------------------------------------------------------------------------

    def _check_types(self, ins, outs):
        """The dtypes of the inputs and outputs of a call, after its type checks. They depend
        on the arguments' types and dtypes only (_call_key): remembered, so that a loop of
        calls pays for them once."""
        key = _call_key(ins)
        if key is not None:
            key = (key, tuple(None if o is None else (type(o), getattr(o, "dtype", None))
                              for o in outs))
            hit = self._calls.get(key)
            if hit is not None:
                return hit
        for (t, dt, pname), o in zip(self.out_params, outs):
            if o is not None and not _u.is_array(o):
                raise TypeError(f"ElementwiseKernel {self.name!r}: output {pname!r} must be a "
                                f"lazycl array, not {type(o).__name__}")
        for (t, dt, pname), a in zip(self.in_params, ins):
            if not (_u.is_array(a) or isinstance(a, (np.ndarray, np.generic, bool, int, float))):
                raise TypeError(f"ElementwiseKernel {self.name!r}: input {pname!r} must be an "
                                f"array or a real scalar, not {type(a).__name__}")
        in_dts, out_dts = self._bind(ins, outs)
        for (t, dt, pname), a, want in zip(self.in_params, ins, in_dts):
            have = np.dtype(a.dtype) if hasattr(a, "dtype") else None
            if have is not None and not isinstance(a, np.generic) and \
                    not np.can_cast(have, want, "same_kind"):
                raise TypeError(f"ElementwiseKernel {self.name!r}: input {pname!r} is {have}, "
                                f"which does not cast to {want} (same_kind)")
        dts = (tuple(in_dts), tuple(out_dts))
        if key is not None:
            self._calls[key] = dts
        return dts

    def _fast_call(self, args):
        """The call's results when every argument is a lazycl input, with the types and dtypes
        of an earlier call whose function was built, shapes equal or 0-d, and the body uses
        neither i nor _ind.size(); else None (the full path checks and raises). A loop of small
        calls pays for little more than the node."""
        if len(args) != self.nin or self._uses_i or self._uses_size:
            return None
        key = []
        shape = None
        for a in args:
            if not isinstance(a, _c.ArrayBase):
                return None
            s = a.shape
            if s:
                if shape is None:
                    shape = s
                elif s != shape:
                    return None
            key.append((type(a), a.dtype))
        dts = self._calls.get((tuple(key), (None,) * self.nout))
        fid = self._fns.get(dts) if dts is not None else None
        if fid is None:
            return None
        return [_c._user_map(fid, k, args) for k in range(self.nout)]

    def _returned(self, results):
        if self.no_return:
            return None
        if self.nout == 1 and not self.return_tuple:
            return results[0]
        return tuple(results)

    def __call__(self, *args, size=None, out=None, block_size=None, stream=None):
        if out is None and size is None and block_size is None and stream is None:
            results = self._fast_call(args)
            if results is not None:
                return self._returned(results)
        if block_size is not None or stream is not None:
            raise NotImplementedError(f"ElementwiseKernel {self.name!r}: block_size and "
                                      f"stream have no meaning in a fused kernel")
        n = len(args)
        if n == self.nin + self.nout:
            if out is not None:
                raise TypeError(f"ElementwiseKernel {self.name!r}: outputs given twice "
                                f"(as arguments and as out=)")
            ins, outs = list(args[:self.nin]), list(args[self.nin:])
        elif n == self.nin:
            ins = list(args)
            if out is None:
                outs = [None] * self.nout
            else:
                outs = list(out) if isinstance(out, tuple) else [out]
                if len(outs) != self.nout:
                    raise ValueError(f"ElementwiseKernel {self.name!r} has {self.nout} "
                                     f"outputs, out= gives {len(outs)}")
        else:
            raise TypeError(f"ElementwiseKernel {self.name!r} takes {self.nin} inputs"
                            + (f" (and optionally its {self.nout} outputs)"
                               f", got {n} arguments"))
        in_dts, out_dts = self._check_types(ins, outs)
        queue = _u.queue_of(*ins, *outs)
        arrays = [a if _u.is_array(a) else _scalar_or_array(a, dt, queue)
                  for a, dt in zip(ins, in_dts)]
        # The loop's shape: the arrays' (scalars broadcast; none at all needs size=, as CuPy).
        shapes = ([tuple(a.shape) for a, o in zip(arrays, ins)
                   if _u.is_array(o) or isinstance(o, np.ndarray)]
                  + [tuple(o.shape) for o in outs if o is not None])
        full = [s for s in shapes if s]     # 0-d operands broadcast to any shape
        if full and all(s == full[0] for s in full):
            shape = full[0]
        elif shapes and not full:
            shape = ()
        else:
            try:
                shape = np.broadcast_shapes(*shapes) if shapes else None
            except ValueError:
                raise ValueError(f"ElementwiseKernel {self.name!r}: operands could not be "
                                 f"broadcast together with shapes "
                                 f"{' '.join(str(tuple(s)) for s in shapes)}") from None
        if shape is None:
            if size is None:
                raise ValueError(f"ElementwiseKernel {self.name!r}: no array argument: give "
                                 f"size=")
            shape = (int(size),)
        elif size is not None and int(size) != math.prod(shape):
            raise ValueError(f"ElementwiseKernel {self.name!r}: size={size} differs from the "
                             f"arguments' {math.prod(shape)} elements")
        for o in outs:
            if o is not None and tuple(o.shape) != tuple(shape):
                raise ValueError(f"ElementwiseKernel {self.name!r}: an output of shape "
                                 f"{tuple(o.shape)} cannot hold the result of shape {shape}")
        # queue None (no lazycl array among the arguments): the default device's, everywhere.
        fid = self._fn(in_dts, out_dts, queue)
        count = math.prod(shape)
        if self._uses_i:
            arrays.append(arange(count, dtype=np.int64, device=queue).reshape(shape))
        if self._uses_size:
            arrays.append(_c.asarray(np.int64(count), None, queue))
        if not arrays:
            arrays.append(_c.asarray(np.uint8(0), None, queue))
        # The node broadcasts its inputs together (graph/userfn.c): views only where none of
        # them has the loop's shape (outputs larger than every input).
        shape = tuple(shape)
        if all(tuple(a.shape) != shape for a in arrays):
            arrays = [broadcast_to(a, shape) for a in arrays]
        arrays = tuple(arrays)
        results = []
        for k, o in enumerate(outs):
            r = _c._user_map(fid, k, arrays)
            if o is not None:
                o[...] = r
                r = o
            results.append(r)
        return self._returned(results)


_IN_SIZE = re.compile(r"\b_in_ind\s*\.\s*size\s*\(\s*\)")
_OUT_SIZE = re.compile(r"\b_out_ind\s*\.\s*size\s*\(\s*\)")


class ReductionKernel:
    """CuPy's ReductionKernel over lazycl arrays: a lazy reduction written in OpenCL C.

    ``map_expr`` maps the inputs (broadcast together) to values of ``reduce_type``;
    ``reduce_expr`` combines two of them, ``a`` and ``b`` (it must be associative and
    commutative: the schedules fold chunks and combine their partials); ``identity`` (C code,
    '0', '-INFINITY', or None for none) starts each output's state; ``post_map_expr`` assigns
    the output from ``a``, the reduced value, and may read ``_in_ind.size()`` (the elements
    reduced per output) and ``_out_ind.size()`` (the outputs). ``reduce_type`` defaults to the
    output's type. Calls take the inputs and ``axis=`` (None: every axis), ``keepdims=``,
    ``out=``. The map fuses into the reduction's kernel and the post-map into its epilogue:
    ``l2(X - Y)`` is one launch.
    """

    def __init__(self, in_params, out_params, map_expr, reduce_expr, post_map_expr, identity,
                 name="reduce_kernel", reduce_type=None, reduce_dims=True, preamble="",
                 options=()):
        if not isinstance(name, str) or not _IDENT.match(name):
            raise ValueError(f"ReductionKernel name must be an identifier, not {name!r}")
        for what, text in (("map_expr", map_expr), ("reduce_expr", reduce_expr),
                           ("post_map_expr", post_map_expr)):
            if not isinstance(text, str):
                raise TypeError(f"ReductionKernel {name!r}: {what} must be a string, not "
                                f"{type(text).__name__}")
        if identity is not None and not isinstance(identity, str):
            raise TypeError(f"ReductionKernel {name!r}: identity must be a string of C code "
                            f"(e.g. '0') or None, not {type(identity).__name__}")
        if reduce_type is not None and not isinstance(reduce_type, str):
            raise TypeError(f"ReductionKernel {name!r}: reduce_type must be a type name, not "
                            f"{type(reduce_type).__name__}")
        if options:
            raise NotImplementedError(f"ReductionKernel {name!r}: build options are not "
                                      f"taken (the kernel fuses into lazycl's)")
        self.name = name
        self.in_params = _parse_params(in_params, "input", name, "ReductionKernel")
        self.out_params = _parse_params(out_params, "output", name, "ReductionKernel")
        if len(self.out_params) != 1:
            raise ValueError(f"ReductionKernel {name!r} takes exactly one output parameter, "
                             f"got {len(self.out_params)}")
        if not self.in_params:
            raise ValueError(f"ReductionKernel {name!r} has no input")
        _check_names("ReductionKernel", name, self.in_params + self.out_params,
                     lambda n: n.startswith(("lc_", "_lc_")) or n == "_type_reduce")
        if self.out_params[0][2] == "a":
            raise ValueError(f"ReductionKernel {name!r}: the output may not be named 'a' (the "
                             f"reduced value in post_map_expr)")
        self.reduce_type = reduce_type.strip() if reduce_type is not None else None
        if self.reduce_type is not None and not _IDENT.match(self.reduce_type):
            raise ValueError(f"ReductionKernel {name!r}: reduce_type {reduce_type!r} is not a "
                             f"type name")
        if self.reduce_type is not None:
            _dtype_of_name(self.reduce_type)        # float16 and complex: the TypeError now
        self.map_expr, self.reduce_expr = map_expr, reduce_expr
        self.identity = identity
        self.preamble = preamble or ""
        self.reduce_dims = reduce_dims
        self.nin = len(self.in_params)
        post = post_map_expr if post_map_expr.strip() else f"{self.out_params[0][2]} = a"
        self.post_map_expr = post
        body = _OUT_SIZE.sub("_lc_out_size", _IN_SIZE.sub("_lc_in_size", post))
        self._post_in, self._post_out = "_lc_in_size" in body, "_lc_out_size" in body
        self._post = body if body.rstrip().endswith(("}", ";")) else body + ";"
        self._fns = {}          # the dtypes of the inputs, output and reduce type -> ids

    def __repr__(self):
        return f"<lazycl.ReductionKernel {self.name!r}>"

    # ---- types -------------------------------------------------------------------------

    def _bind(self, args, out):
        """The dtypes of the inputs, the output and the reduce type for these arguments, and
        the placeholders' dtypes."""
        bound = _bind_placeholders("ReductionKernel", self.name, self.in_params, args,
                                   self.out_params[:1], [out])
        ins = [dt if dt is not None else bound[t] for t, dt, _ in self.in_params]
        t, dt, pname = self.out_params[0]
        if dt is None:
            if t not in bound:
                raise TypeError(f"ReductionKernel {self.name!r}: cannot tell the dtype of "
                                f"output {pname!r} ({t} is bound by no input): pass out=")
            dt = bound[t]
        res = dt
        if self.reduce_type is None:
            red = res
        else:
            red = _dtype_of_name(self.reduce_type)
            if red is None:
                if self.reduce_type not in bound:
                    raise TypeError(f"ReductionKernel {self.name!r}: reduce_type "
                                    f"{self.reduce_type} is bound by no parameter")
                red = bound[self.reduce_type]
        for what, d in [(p[2], d) for p, d in zip(self.in_params, ins)] + \
                [(pname, res), ("reduce_type", red)]:
            if d.kind not in "biuf" or d == np.float16:
                raise TypeError(f"ReductionKernel {self.name!r}: parameter {what!r} is {d}; "
                                f"user kernels take bool, integer, float32 and float64 data")
        types = {}
        for p, d in list(zip(self.in_params, ins)) + [(self.out_params[0], res)]:
            if p[1] is None:
                types[p[0]] = d
        return ins, res, red, types

    def _fn(self, ins, res, red, types, scalars, device):
        """The ids of the kernel's functions for these dtypes: (combine, identity or 0, map,
        post), registered and built once."""
        key = (tuple(ins), res, red, scalars)
        fids = self._fns.get(key)
        if fids is not None:
            return fids
        prefix = "".join(f"typedef {_CL_NAME[d.name]} {t}; " for t, d in types.items()
                         if t != "_type_reduce")
        prefix += f"typedef {_CL_NAME[red.name]} _type_reduce; "
        pre = self.preamble
        R = [("_lc_r", red)]
        comb = _c._user_fn(self.name, [("a", red), ("b", red)], R,
                           f"{prefix}_lc_r = ({self.reduce_expr});", pre)
        init = 0 if self.identity is None else _c._user_fn(
            self.name + "_identity", [], [("_lc_i", red)], f"{prefix}_lc_i = ({self.identity});",
            pre)
        params = [(p[2], d) for p, d in zip(self.in_params, ins)]
        if len(params) + 1 > 8:
            raise ValueError(f"ReductionKernel {self.name!r}: at most 7 inputs, got "
                             f"{len(params)}")
        mapf = _c._user_fn(self.name + "_map", params, [("_lc_m", red)],
                           f"{prefix}_lc_m = ({self.map_expr});", pre)
        post_in = [("a", red)] + [(p[2], d) for p, d in zip(self.in_params, ins)
                                  if p[2] in scalars]
        if self._post_in:
            post_in.append(("_lc_in_size", np.dtype(np.int64)))
        if self._post_out:
            post_in.append(("_lc_out_size", np.dtype(np.int64)))
        post = _c._user_fn(self.name + "_post", post_in, [(self.out_params[0][2], res)],
                           prefix + self._post, pre)
        fids = (comb, init, mapf, post)
        try:
            _c._user_check(tuple(f for f in fids if f), device)
        except _c.CompileError as err:
            raise self._compile_error(err) from None
        self._fns[key] = fids
        return fids

    def _compile_error(self, err):
        """A CompileError naming the part (map_expr, reduce_expr, ...), the user's line and the
        compiler's message about it."""
        n = self.name
        return _compile_error("ReductionKernel", n, err, {
            n: ("reduce_expr", self.reduce_expr), n + "_map": ("map_expr", self.map_expr),
            n + "_identity": ("identity", self.identity or ""),
            n + "_post": ("post_map_expr", self.post_map_expr),
            **{n + k + " preamble": ("preamble", self.preamble)
               for k in ("", "_map", "_identity", "_post")}})

    # ---- calls -------------------------------------------------------------------------

    def __call__(self, *args, out=None, axis=None, keepdims=False, stream=None):
        if stream is not None:
            raise NotImplementedError(f"ReductionKernel {self.name!r}: stream has no meaning "
                                      f"in a fused kernel")
        n = len(args)
        if n == self.nin + 1:
            if out is not None:
                raise TypeError(f"ReductionKernel {self.name!r}: output given twice (as an "
                                f"argument and as out=)")
            args, out = args[:self.nin], args[self.nin]
        elif n != self.nin:
            raise TypeError(f"ReductionKernel {self.name!r} takes {self.nin} inputs (and "
                            f"optionally its output), got {n} arguments")
        if isinstance(out, tuple) and len(out) == 1:
            out = out[0]
        pname = self.out_params[0][2]
        if out is not None and not _u.is_array(out):
            raise TypeError(f"ReductionKernel {self.name!r}: output {pname!r} must be a "
                            f"lazycl array, not {type(out).__name__}")
        for (t, dt, p), a in zip(self.in_params, args):
            if not (_u.is_array(a) or isinstance(a, (np.ndarray, np.generic, bool, int, float))):
                raise TypeError(f"ReductionKernel {self.name!r}: input {p!r} must be an "
                                f"array or a real scalar, not {type(a).__name__}")
        ins, res, red, types = self._bind(args, out)
        for (t, dt, p), a, want in zip(self.in_params, args, ins):
            have = np.dtype(a.dtype) if hasattr(a, "dtype") else None
            if have is not None and not isinstance(a, np.generic) and \
                    not np.can_cast(have, want, "same_kind"):
                raise TypeError(f"ReductionKernel {self.name!r}: input {p!r} is {have}, "
                                f"which does not cast to {want} (same_kind)")
        is_arr = [_u.is_array(a) or isinstance(a, np.ndarray) for a in args]
        if not any(is_arr):
            raise ValueError(f"ReductionKernel {self.name!r}: no array argument")
        queue = _u.queue_of(*args, out)       # None: the default device's
        arrays = [a if _u.is_array(a) else _c.asarray(np.asarray(a, dtype=d), None, queue)
                  for a, d in zip(args, ins)]
        queue = arrays[0].queue
        shapes = [tuple(a.shape) for a, k in zip(arrays, is_arr) if k]
        try:
            shape = np.broadcast_shapes(*shapes)
        except ValueError:
            raise ValueError(f"ReductionKernel {self.name!r}: operands could not be broadcast "
                             f"together with shapes "
                             f"{' '.join(str(s) for s in shapes)}") from None
        axes = _u.norm_axes(axis, len(shape))
        kept = tuple(d for i, d in enumerate(shape) if i not in axes)
        rshape = tuple(1 if i in axes else d for i, d in enumerate(shape)) if keepdims else kept
        if out is not None and tuple(out.shape) != rshape:
            raise ValueError(f"ReductionKernel {self.name!r}: out has shape "
                             f"{tuple(out.shape)}, the result {rshape}")
        scalars = tuple(p[2] for p, k in zip(self.in_params, is_arr)
                        if not k and p[2] != "a" and
                        re.search(r"\b%s\b" % re.escape(p[2]), self._post))
        comb, init, mapf, post = self._fn(ins, res, red, types, scalars, queue)
        arrays = tuple(a if tuple(a.shape) == shape else broadcast_to(a, shape) for a in arrays)
        m = _c._user_map(mapf, 0, arrays)
        r = _c._user_reduce(comb, init, m, axes)
        post_args = [r] + [_c.asarray(np.asarray(a, dtype=d), None, queue)
                           for p, a, d in zip(self.in_params, args, ins) if p[2] in scalars]
        n_in = int(np.prod([shape[i] for i in axes], dtype=np.int64))
        if self._post_in:
            post_args.append(_c.asarray(np.int64(n_in), None, queue))
        if self._post_out:
            post_args.append(_c.asarray(np.int64(int(np.prod(kept, dtype=np.int64))), None, queue))
        post_args = tuple(a if tuple(a.shape) == kept else broadcast_to(a, kept)
                          for a in post_args)
        y = _c._user_map(post, 0, post_args)
        if keepdims:
            y = _c.reshape(y, rshape)
        if out is not None:
            out[...] = y
            return out
        return y


__all__ = ["ElementwiseKernel", "ReductionKernel"]
