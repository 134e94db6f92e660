"""Data-parallel kernels written in Python: ``lazycl.kernel`` (numba-dpex's ``@kernel``, on
OpenCL).

    @lc.kernel
    def axpy(a, x, y):
        i = lc.get_global_id(0)
        if i < x.size:
            y[i] = a * x[i] + y[i]

    axpy[n, 64](2.0, x, y)          # k[global, local](args); k[global](args) lets the driver
                                    # choose the local size

The function is translated (``_pytocl``'s Translator, extended here by KernelTranslator) into
an OpenCL C ``__kernel`` for the dtypes and ndims of each call's arguments, compiled once per
such signature, and run through ``lazycl.RawKernel``: so its written arrays follow RawKernel's
rules (their views see the writes, pending readers keep the old values, inputs are computed
first; a kernel is a fusion barrier). An array parameter becomes ``__global T *a`` (``const``
when the kernel never writes it) followed by its shape as ``long`` arguments; RawKernel passes
every array C-contiguous, so the strides are products of the shape. Work-item functions,
barriers, local and private arrays and atomics are _kernelapi's names, recognised by identity.

Layer: a feature module (package docstring); over _pytocl, _kernelapi, _vectorize (@lc.func
callees) and _rawkernel."""
import ast
import hashlib
import re

import numpy as np

from . import _kernelapi as _k
from . import _lazycl as _c
from . import _pytocl as _t
from . import _util as _u
from . import _vectorize as _v
from ._rawkernel import RawKernel

_I64 = np.dtype(np.int64)
_BOOL = np.dtype(bool)
#: OpenCL C's reserved words that Python allows as names (besides _pytocl's C keywords).
_CL_RESERVED = frozenset((
    "local", "private", "constant", "kernel", "__local", "__global", "__private", "__constant",
    "__kernel", "read_only", "write_only", "read_write", "__read_only", "__write_only",
    "__read_write", "size_t", "ptrdiff_t", "intptr_t", "uintptr_t", "sampler_t", "event_t",
    "image1d_t", "image2d_t", "image3d_t", "extern", "register", "auto", "uniform", "pipe"))
#: The dtypes an atomic takes.
_ATOMIC = frozenset(np.dtype(n) for n in ("int32", "uint32", "int64", "uint64", "float32",
                                          "float64"))
_F64_SCALAR, _I64_SCALAR = ("s", np.dtype(np.float64), 0), ("s", _I64, 0)
_2_63 = 2 ** 63
#: The calls _pytocl's Translator translates itself.
_BUILTINS = frozenset(("int", "float", "bool", "abs", "min", "max", "round", "range"))
_t_MATH = frozenset([*_t._MATH, *_t._MATH2, "isnan", "isinf", "isfinite"])
#: The ids of _kernelapi's functions (compared by identity: a call's object may be anything).
_API = frozenset(map(id, [*_k.WORK_ITEM, _k.barrier, _k.local.array, _k.private.array,
                          _k.atomic.add, _k.atomic.sub, _k.atomic.min, _k.atomic.max]))


class _Arr:
    """An array a kernel indexes: a parameter (space 'global', its shape the ``long``
    arguments) or a ``local``/``private`` one (its constant shape)."""
    __slots__ = ("name", "dt", "ndim", "space", "shape", "node")

    def __init__(self, name, dt, ndim, space, shape=None, node=None):
        self.name, self.dt, self.ndim, self.space = name, np.dtype(dt), ndim, space
        self.shape, self.node = shape, node

    def dim(self, k):
        """The C text of the length of dim k."""
        return f"lc_n{k}_{self.name}" if self.space == "global" else f"({self.shape[k]}L)"

    def stride(self, k):
        """The C text of dim k's stride in elements (C order)."""
        if k == self.ndim - 1:
            return None
        if self.space == "global":
            return f"lc_s{k}_{self.name}"
        s = 1
        for n in self.shape[k + 1:]:
            s *= n
        return f"{s}L"


class KernelTranslator(_t.Translator):
    """A Python kernel as an OpenCL C ``__kernel`` named `cname`. `params`: (kind, dtype,
    ndim) per Python parameter, kind 'a' (an array) or 's' (a scalar). `.source` is the kernel
    function; `.written` the array parameters it writes; `.atomics` the helpers it needs, as
    (op, space, dtype); `.int64_atomics` whether it needs cl_khr_int64_base_atomics."""

    def __init__(self, fs, params, cname, resolve):
        self.kinds = list(params)
        self.arrays = {}
        self.written = set()
        self.atomics = set()
        self.int64_atomics = False
        self.fs, self.scope, self.vars = fs, {}, {}
        if len(params) != len(fs.params):
            raise _t.TranslateError(f"kernel {fs.name!r} takes {len(fs.params)} arguments, got "
                                    f"{len(params)}")
        for p, (kind, dt, nd) in zip(fs.params, params):
            self.check_name(fs.tree, p)
            if kind == "a":
                self.arrays[p] = _Arr(p, dt, nd, "global")
        self.declare_arrays(fs)
        super().__init__(fs, [dt for _, dt, _ in params], cname, resolve)

    # ---- hooks of Translator --------------------------------------------------------------

    def result_dtype(self):
        return None

    def render(self):
        fs = self.fs
        ps = []
        for p, (kind, dt, nd) in zip(fs.params, self.kinds):
            if kind == "a":
                ps.append(f"__global {'' if p in self.written else 'const '}{_t.cl(dt)} *{p}")
                ps += [f"long lc_n{k}_{p}" for k in range(nd)]
            else:
                ps.append(f"{_t.cl(dt)} {p}")
        decls = []
        for a in self.arrays.values():
            if a.space == "global":
                for k in range(a.ndim - 2, -1, -1):
                    nxt = f" * {a.stride(k + 1)}" if k + 1 < a.ndim - 1 else ""
                    decls.append(f"    const long lc_s{k}_{a.name} = "
                                 f"lc_n{k + 1}_{a.name}{nxt};\n")
            else:
                size = int(np.prod(a.shape))
                q = "__local " if a.space == "local" else ""
                decls.append(f"    {q}{_t.cl(a.dt)} {a.name}[{size}];\n")
        decls += [f"    {_t.cl(t)} {v} = 0;\n" for v, t in self.vars.items()
                  if v not in fs.params and v not in self.arrays]
        f = fs.file.replace("\\", "/").replace('"', "'")
        sig = ", ".join(f"{dt.name}[{nd}-d]" if kind == "a" else dt.name
                        for kind, dt, nd in self.kinds)
        return (f"/* kernel {fs.name} ({sig}) */\n#line {fs.line(fs.tree)} \"{f}\"\n"
                f"__kernel void {self.cname}({', '.join(ps)})\n{{\n" + "".join(decls)
                + "".join(self.lines) + "}\n")

    def check_name(self, node, name):
        if name in _CL_RESERVED:
            self.fs.fail(node, f"a variable named {name!r} (an OpenCL C keyword)")
        if name in self.arrays and self.arrays[name].node is not node:
            self.fs.fail(node, f"assigning to {name!r}, an array (write its elements: "
                               f"{name}[i] = ...)")
        super().check_name(node, name)

    # ---- what a kernel adds: statements ---------------------------------------------------

    def stmt(self, st, depth):
        if isinstance(st, ast.Return):
            if st.value is not None:
                self.fs.fail(st, "a kernel returning a value (a kernel writes its results "
                                 "into arrays; a bare return ends the work-item)")
            self.emit(st, depth, "return;")
        elif isinstance(st, ast.Expr) and isinstance(st.value, ast.Call):
            if self.callee(st.value.func) is _k.barrier:
                self.emit(st, depth, self.barrier(st.value) + ";")
            else:
                self.emit(st, depth, f"(void)({self.expr(st.value).c});")
        elif isinstance(st, ast.Assign) and self.declaration(st.value) is not None:
            pass                        # a local or private array, declared at the top
        elif isinstance(st, ast.Assign) and len(st.targets) == 1 and \
                isinstance(st.targets[0], (ast.Tuple, ast.List)) and self.shape_of(st.value):
            arr = self.shape_of(st.value)
            t = st.targets[0]
            if len(t.elts) != arr.ndim:
                self.fs.fail(st, f"unpacking the shape of {arr.name!r} ({arr.ndim}-d) into "
                                 f"{len(t.elts)} names")
            for k, tgt in enumerate(t.elts):
                self.assign_to(tgt, _t.Typed(arr.dim(k), _I64), depth, st)
        elif isinstance(st, ast.AugAssign) and isinstance(st.target, ast.Subscript):
            arr, off = self.element(st.target)
            cur = _t.Typed(f"{arr.name}[{off}]", arr.dt)
            v = self.binop(st.op, cur, self.expr(st.value), st)
            self.store(arr, st.target)
            self.emit(st, depth, f"{arr.name}[{off}] = {_t.cast(v, arr.dt)};")
        else:
            super().stmt(st, depth)

    def assign_to(self, target, value, depth, node):
        if isinstance(target, ast.Subscript):
            arr, off = self.element(target)
            self.store(arr, target)
            self.emit(node, depth, f"{arr.name}[{off}] = {_t.cast(value, arr.dt)};")
        else:
            super().assign_to(target, value, depth, node)

    def store(self, arr, node):
        if arr.space == "global":
            self.written.add(arr.name)

    # ---- expressions ----------------------------------------------------------------------

    def name(self, node):
        if node.id in self.arrays:
            self.fs.fail(node, f"the array {node.id!r} as a value (index it, {node.id}[i]; a "
                               f"kernel cannot pass arrays to functions or assign them)")
        return super().name(node)

    def lookup(self, node, n):
        v = super().lookup(node, n)
        if _u.is_array(v) or isinstance(v, np.ndarray):
            self.fs.fail(node, f"the array {n!r} from outside the kernel (a closure or global; "
                               f"pass it as an argument)")
        return v

    def expr(self, e):
        if isinstance(e, ast.Subscript):
            arr = self.shape_of(e.value)
            if arr is not None:
                k = self.const_value(e.slice, "a shape's index")
                if not isinstance(k, int) or not -arr.ndim <= k < arr.ndim:
                    self.fs.fail(e, f"{arr.name}.shape[{k!r}] of a {arr.ndim}-d array")
                return _t.Typed(arr.dim(k % arr.ndim), _I64)
            arr, off = self.element(e)
            return _t.Typed(f"{arr.name}[{off}]", arr.dt)
        if isinstance(e, ast.Attribute) and isinstance(e.value, ast.Name) and \
                e.value.id in self.arrays:
            arr = self.arrays[e.value.id]
            if e.attr == "size":
                return _t.Typed("(" + " * ".join([arr.dim(k) for k in range(arr.ndim)] or
                                                 ["1L"]) + ")", _I64)
            if e.attr == "ndim":
                return _t.Typed(f"({arr.ndim}L)", _I64)
            if e.attr == "shape":
                self.fs.fail(e, f"{arr.name}.shape as a value (take {arr.name}.shape[k], or "
                                f"unpack it: n, m = {arr.name}.shape)")
            self.fs.fail(e, f"the attribute {e.attr!r} of an array (a kernel reads .shape, "
                            f".size and .ndim)")
        return super().expr(e)

    def shape_of(self, e):
        """The array whose ``.shape`` e is, or None."""
        if isinstance(e, ast.Attribute) and e.attr == "shape" and \
                isinstance(e.value, ast.Name) and e.value.id in self.arrays:
            return self.arrays[e.value.id]
        return None

    def element(self, e, index=None):
        """(array, C offset) of subscript e (or of array node e at `index`, a node)."""
        base = e.value if index is None else e
        index = e.slice if index is None else index
        if isinstance(base, ast.Name) and base.id not in self.arrays and \
                base.id not in self.vars:
            self.lookup(base, base.id)          # a global or closure array: its own message
        if not (isinstance(base, ast.Name) and base.id in self.arrays):
            what = ast.unparse(base) if hasattr(ast, "unparse") else "it"
            self.fs.fail(e, f"indexing {what!r} (a kernel indexes its array parameters and "
                            f"its local and private arrays)")
        arr = self.arrays[base.id]
        idx = index.elts if isinstance(index, ast.Tuple) else [index]
        if len(idx) != arr.ndim:
            self.fs.fail(e, f"{len(idx)} {'index' if len(idx) == 1 else 'indices'} into "
                            f"{arr.name!r}, a {arr.ndim}-d array (a kernel reads and writes "
                            f"single elements: one integer per dim)")
        terms = []
        for k, i in enumerate(idx):
            if isinstance(i, ast.Slice):
                self.fs.fail(e, "slices (a kernel reads and writes single elements)")
            if isinstance(i, ast.UnaryOp) and isinstance(i.op, ast.USub) and \
                    isinstance(i.operand, ast.Constant):
                self.fs.fail(e, f"the negative index -{i.operand.value!r} (a kernel's indices "
                                f"are not counted from the end)")
            t = self.expr(i)
            if t.dt.kind not in "iu":
                self.fs.fail(e, f"an index of dtype {t.dt if not t.weak else type(i).__name__} "
                                f"(indices are integers)")
            c = _t.cast(t, _I64)
            s = arr.stride(k)
            terms.append(f"{c} * {s}" if s else c)
        return arr, "(" + " + ".join(terms) + ")" if terms else "0"

    # ---- calls: the kernel API --------------------------------------------------------------

    def callee(self, f):
        """The Python object a call's function names (a global, a closure's, a module's
        attribute), or None for anything else."""
        parts = []
        x = f
        while isinstance(x, ast.Attribute):
            parts.append(x.attr)
            x = x.value
        if not isinstance(x, ast.Name) or x.id in self.vars or x.id in self.arrays:
            return None
        try:
            obj = _t.Translator.lookup(self, x, x.id)
        except _t.TranslateError:
            return None
        for p in reversed(parts):
            obj = getattr(obj, p, None)
        return obj

    def call(self, e):
        obj = self.callee(e.func)
        if obj is None or not self.is_api(obj):
            if isinstance(e.func, ast.Name) and e.func.id == "len" and len(e.args) == 1 and \
                    isinstance(e.args[0], ast.Name) and e.args[0].id in self.arrays:
                arr = self.arrays[e.args[0].id]
                if arr.ndim == 0:
                    self.fs.fail(e, "len() of a 0-d array")
                return _t.Typed(arr.dim(0), _I64)
            launched = self.callee(e.func.value) if isinstance(e.func, ast.Subscript) else obj
            if isinstance(launched, kernel):
                self.fs.fail(e, f"calling the kernel {launched.__name__!r} (a kernel calls "
                                f"@lazycl.func functions, not kernels; no recursion)")
            f = e.func
            builtin = (isinstance(f, ast.Name) and f.id in _BUILTINS) or (
                isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and
                f.value.id in ("math", "np", "numpy") and f.attr in _t_MATH)
            if obj is not None and not builtin and not isinstance(obj, _v._Scalar):
                self.fs.fail(e, f"calling {getattr(obj, '__name__', type(obj).__name__)!r} (a "
                                f"kernel calls lazycl's work-item functions and atomics, math.*, "
                                f"abs, min, max, int, float, bool and @lazycl.func functions)")
            return super().call(e)
        if e.keywords:
            self.fs.fail(e, "keyword arguments")
        fn = _k.WORK_ITEM.get(obj)
        if fn is not None:
            if len(e.args) != 1:
                self.fs.fail(e, f"{fn}() of {len(e.args)} arguments (it takes the dim)")
            d = self.expr(e.args[0])
            if d.dt.kind not in "iu":
                self.fs.fail(e, f"{fn}() of a {d.dt} dim")
            return _t.Typed(f"(long){fn}((uint)({d.c}))", _I64)
        if obj is _k.barrier:
            self.fs.fail(e, "barrier() as a value (call it as a statement)")
        if obj in (_k.local.array, _k.private.array):
            self.fs.fail(e, "local.array() and private.array() anywhere but 'name = "
                            "lc.local.array(shape, dtype)'")
        op = obj.__name__
        if len(e.args) != 3:
            self.fs.fail(e, f"atomic.{op}() of {len(e.args)} arguments (it takes the array, "
                            f"the index and the value)")
        a = e.args[0]
        if not (isinstance(a, ast.Name) and a.id in self.arrays):
            self.fs.fail(e, f"atomic.{op}() of something other than an array")
        arr, off = self.element(a, e.args[1])
        if arr.space == "private":
            self.fs.fail(e, f"atomic.{op}() on a private array (only its own work-item sees "
                            f"it: update it plainly)")
        if arr.dt not in _ATOMIC:
            self.fs.fail(e, f"atomic.{op}() on a {arr.dt} array (atomics take int32, uint32, "
                            f"int64, uint64, float32 and float64)")
        v = _t.cast(self.expr(e.args[2]), arr.dt)
        self.store(arr, a)
        if arr.dt.itemsize == 8:
            self.int64_atomics = True
        ptr = f"&{arr.name}[{off}]"
        if arr.dt.kind in "iu" and (op in ("add", "sub") or arr.dt.itemsize == 4):
            fn = ("atomic_" if arr.dt.itemsize == 4 else "atom_") + op
            return _t.Typed(f"{fn}({ptr}, {v})", arr.dt)
        self.atomics.add((op, arr.space, arr.dt))
        return _t.Typed(f"lc_atomic_{op}_{arr.space}_{_t.cl(arr.dt)}({ptr}, {v})", arr.dt)

    @staticmethod
    def is_api(obj):
        return id(obj) in _API

    def barrier(self, e):
        if e.keywords or len(e.args) > 1:
            self.fs.fail(e, "barrier() takes one argument, the flags")
        flags = (self.const_value(e.args[0], "barrier()'s flags") if e.args else
                 _k.LOCAL_MEM_FENCE | _k.GLOBAL_MEM_FENCE)
        if not isinstance(flags, int) or not 1 <= flags <= 3:
            self.fs.fail(e, f"barrier({flags!r}) (the flags are lazycl.LOCAL_MEM_FENCE, "
                            f"lazycl.GLOBAL_MEM_FENCE or both, with |)")
        names = [n for bit, n in ((1, "CLK_LOCAL_MEM_FENCE"), (2, "CLK_GLOBAL_MEM_FENCE"))
                 if flags & bit]
        return f"barrier({' | '.join(names)})"

    # ---- local and private arrays -----------------------------------------------------------

    def declaration(self, value):
        """The space ('local', 'private') of a call of local.array or private.array, else
        None."""
        if not isinstance(value, ast.Call):
            return None
        obj = self.callee(value.func)
        return "local" if obj is _k.local.array else "private" if obj is _k.private.array \
            else None

    def declare_arrays(self, fs):
        """Every 'name = lc.local.array(shape, dtype)' (or private) of the function, found
        before the translation: they are declared at the top of the kernel (OpenCL C's
        __local arrays must be)."""
        stored = {n.id for n in ast.walk(fs.tree)
                  if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
        self.vars = dict.fromkeys(stored)       # callee() must not take them for globals
        for st in ast.walk(fs.tree):
            if not isinstance(st, ast.Assign):
                continue
            space = self.declaration(st.value)
            if space is None:
                continue
            t = st.targets
            if len(t) != 1 or not isinstance(t[0], ast.Name):
                fs.fail(st, f"{space}.array() assigned to anything but one name")
            name = t[0].id
            if name in fs.params:
                fs.fail(st, f"the parameter {name!r} re-bound to a {space} array")
            if name in self.arrays:
                fs.fail(st, f"{name!r} declared as an array twice")
            call = st.value
            if call.keywords or len(call.args) != 2:
                fs.fail(st, f"{space}.array() takes (shape, dtype)")
            shape = self.const_value(call.args[0], f"a {space} array's shape")
            shape = (shape,) if isinstance(shape, int) else shape
            if not isinstance(shape, tuple) or not shape or \
                    not all(isinstance(n, int) and n > 0 for n in shape):
                fs.fail(st, f"the shape {shape!r} of a {space} array (positive constant ints)")
            try:
                dt = np.dtype(self.const_value(call.args[1], f"a {space} array's dtype"))
            except TypeError:
                dt = None
            if dt is None or dt.kind not in "biuf" or dt.itemsize == 2 and dt.kind == "f":
                fs.fail(st, f"the dtype of a {space} array (bool, int8-64, uint8-64, float32 "
                            f"or float64)")
            self.arrays[name] = _Arr(name, dt, len(shape), space, shape, t[0])
        self.vars = {}

    def const_value(self, e, what):
        """The Python value of a constant expression (literals, names of globals and
        closures, their attributes, tuples, arithmetic of them)."""
        if isinstance(e, ast.Constant):
            return e.value
        if isinstance(e, (ast.Tuple, ast.List)):
            return tuple(self.const_value(x, what) for x in e.elts)
        if isinstance(e, (ast.Name, ast.Attribute)):
            parts = []
            x = e
            while isinstance(x, ast.Attribute):
                parts.append(x.attr)
                x = x.value
            if isinstance(x, ast.Name) and x.id in self.arrays and parts == ["dtype"]:
                return self.arrays[x.id].dt     # an array parameter's dtype: the signature's
            if isinstance(x, ast.Name) and (x.id in self.vars or x.id in self.arrays):
                self.fs.fail(e, f"{what} from the variable {x.id!r} (it must be a constant)")
            if not isinstance(x, ast.Name):
                self.fs.fail(e, f"{what}: not a constant")
            obj = _t.Translator.lookup(self, x, x.id)
            for p in reversed(parts):
                if not hasattr(obj, p):
                    self.fs.fail(e, f"{what}: no attribute {p!r}")
                obj = getattr(obj, p)
            return int(obj) if isinstance(obj, np.integer) else obj
        if isinstance(e, ast.BinOp):
            a, b = self.const_value(e.left, what), self.const_value(e.right, what)
            ops = {ast.Add: lambda: a + b, ast.Sub: lambda: a - b, ast.Mult: lambda: a * b,
                   ast.FloorDiv: lambda: a // b, ast.Mod: lambda: a % b,
                   ast.LShift: lambda: a << b, ast.RShift: lambda: a >> b,
                   ast.BitOr: lambda: a | b, ast.BitAnd: lambda: a & b, ast.Pow: lambda: a ** b}
            if type(e.op) in ops:
                try:
                    return ops[type(e.op)]()
                except Exception:
                    pass
        if isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.USub):
            return -self.const_value(e.operand, what)
        self.fs.fail(e, f"{what}: not a constant")


# ---- the program around the kernel ------------------------------------------------------------

def _atomic_helper(op, space, dt):
    """A compare-and-swap loop for atomic `op` on one element of dtype dt in `space`; it
    returns the old value. The loop starts from a guess (0 bits), as codegen/atomic.c's."""
    t = _t.cl(dt)
    u = "ulong" if dt.itemsize == 8 else "uint"
    cas = "atom_cmpxchg" if dt.itemsize == 8 else "atomic_cmpxchg"
    asu, ast_ = f"as_{u}", f"as_{t}"
    if dt.kind in "iu":
        asu, ast_ = f"({u})", f"({t})"
    new = {"add": "o + v", "sub": "o - v",
           "min": "(o <= v || o != o) ? o : v", "max": "(o >= v || o != o) ? o : v"}[op]
    return (f"static inline {t} lc_atomic_{op}_{space}_{t}(volatile __{space} {t} *p, {t} v)\n"
            f"{{\n    volatile __{space} {u} *q = (volatile __{space} {u} *)p;\n"
            f"    {u} e, seen = 0;\n    do {{\n        e = seen;\n        {t} o = {ast_}(e);\n"
            f"        {t} n = {new};\n        seen = {cas}(q, e, {asu}(n));\n"
            f"    }} while (seen != e);\n    return {ast_}(e);\n}}\n")


def _program(tr, callees):
    """The whole OpenCL C program of a translated kernel."""
    body = "".join(callees.values()) + tr.source
    helpers = _t.helpers_for(body)
    head = ["#pragma OPENCL FP_CONTRACT OFF\n"]
    atomics = "".join(_atomic_helper(*a) for a in sorted(tr.atomics, key=str))
    if re.search(r"\bdouble\b", body + atomics + helpers):
        head.append("#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n")
    if tr.int64_atomics:
        head.append("#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n")
    return "".join(head) + '#line 1 "lazycl"\n' + helpers + atomics + body


class kernel(_v.PythonFunction):
    """``@lazycl.kernel``: a data-parallel kernel written in Python, launched as
    ``k[global_size, local_size](*args)`` (numba-dpex's ``@kernel``).

    The sizes are an int or a tuple of 1 to 3 ints (work-items, OpenCL's NDRange); the local
    size may be left out (``k[global_size](*args)``, or ``k[(n, m), None]`` for a 2-d launch)
    and the driver chooses it. The arguments are lazycl arrays (bool, int, float) and Python
    or NumPy scalars (typed as ``np.asarray`` types them). The kernel is translated to OpenCL C
    for each signature (the arguments' dtypes and ndims) at its first launch, compiled once
    and kept; arrays it writes hold the results for whatever reads them next (as
    ``lazycl.RawKernel``'s). ``k.source(*args)`` is the OpenCL C for those arguments. docs/
    api.md ("@lc.kernel") lists what a kernel may contain."""

    kind = "kernel"

    def __init__(self, fn=None):
        super().__init__(fn)
        self._progs = {}               # signature -> (RawKernel, source, Python files)

    def __repr__(self):
        return f"<lazycl.kernel {self.__name__!r}>"

    def __call__(self, *args, **kwargs):
        raise TypeError(f"kernel {self.__name__!r} is launched with its sizes: "
                        f"{self.__name__}[global_size, local_size](args), or "
                        f"{self.__name__}[global_size](args)")

    def __getitem__(self, key):
        if isinstance(key, tuple) and len(key) == 2:
            g, lo = key
        else:
            g, lo = key, None
        return _Launch(self, g, lo)

    def _signature(self, args):
        """((kind, dtype, ndim), ...) of the arguments: 'a' an array, 's' a scalar. The
        common cases first (a launch costs little more than RawKernel's); dtypes a kernel
        does not take are refused by _build, once per signature."""
        sig = []
        for i, a in enumerate(args):
            t = type(a)
            if t is float:
                sig.append(_F64_SCALAR)
            elif isinstance(a, _c.ArrayBase):
                sig.append(("a", a.dtype, a.ndim))
            elif t is int and -_2_63 <= a < _2_63:
                sig.append(_I64_SCALAR)
            elif isinstance(a, np.generic):
                sig.append(("s", a.dtype, 0))
            else:
                sig.append(self._scalar_signature(i, a))
        return tuple(sig)

    def _scalar_signature(self, i, a):
        where = f"kernel {self.__name__!r} argument {i + 1}"
        if isinstance(a, np.ndarray) and a.ndim:
            raise TypeError(f"{where}: expected a lazycl array or a scalar, got a "
                            f"numpy.ndarray (lc.asarray(a) it first)")
        if not isinstance(a, (bool, int, float, np.ndarray)):
            raise TypeError(f"{where}: expected a lazycl array or a real scalar, got "
                            f"{type(a).__name__}")
        try:
            dt = np.asarray(a).dtype
        except OverflowError:
            dt = np.dtype(object)
        return ("s", dt, 0)

    def _check(self, sig):
        for i, (kind, dt, _) in enumerate(sig):
            if dt.kind not in "biuf" or dt == np.float16:
                what = "an array" if kind == "a" else "a scalar"
                raise TypeError(f"kernel {self.__name__!r} argument {i + 1}: {what} of dtype "
                                f"{dt} (kernels take bool, int and float arrays and scalars of "
                                f"8 to 64 bits)")

    def _build(self, sig):
        hit = self._progs.get(sig)
        if hit is not None:
            return hit
        self._check(sig)
        fs = self._source()
        try:
            if len(sig) != len(fs.params):
                raise TypeError(f"kernel {self.__name__!r} takes {len(fs.params)} argument"
                                f"{'' if len(fs.params) == 1 else 's'} ({len(sig)} given)")
            key = ";".join(f"{k}{dt.name}{nd}" for k, dt, nd in sig)
            digest = hashlib.sha1(f"{fs.file}:{fs.name}:{fs.first}:{key}".encode()) \
                .hexdigest()[:10]
            cname = f"lc_pk_{_v.c_ident(self.__name__)}_{digest}"
            callees, files = {}, {fs.file}

            def resolve(callee, arg_types, node):
                if not isinstance(callee, _v._Scalar):
                    fs.fail(node, f"calling {getattr(callee, '__name__', type(callee).__name__)!r}"
                                  f" (a kernel calls lazycl's work-item functions and atomics, "
                                  f"math.*, abs, min, max, int, float, bool and @lazycl.func "
                                  f"functions)")
                n = len(callee._source().params)
                if len(arg_types) != n:
                    fs.fail(node, f"calling {callee.__name__!r} with {len(arg_types)} "
                                  f"arguments (it takes {n})")
                files.add(callee._source().file)
                return _v._translate(callee, tuple(arg_types), callees, [])

            tr = KernelTranslator(fs, sig, cname, resolve)
        except _t.TranslateError as e:
            raise _c.CompileError(str(e)) from None
        source = _program(tr, callees)
        rk = RawKernel(source, cname)
        # RawKernel's messages name the Python parameter (an array's shape arguments too).
        labels = [f"kernel {self.__name__!r} argument {i + 1} ({p!r})"
                  for i, (p, (kind, _, nd)) in enumerate(zip(fs.params, sig))
                  for _ in range(1 + (nd if kind == "a" else 0))]
        for p, label in zip(rk._params, labels):
            p.label = label
        hit = self._progs[sig] = (rk, source, files)
        return hit

    def source(self, *args):
        """The OpenCL C program of this kernel for these arguments' signature."""
        return self._build(self._signature(args))[1]

    def _launch(self, g, lo, args):
        sig = self._signature(args)
        rk, _, files = self._build(sig)
        flat = []
        for a, (kind, _, _) in zip(args, sig):
            flat.append(a)
            if kind == "a":
                flat.extend(a.shape)
        try:
            rk(g, lo, flat)
        except _c.CompileError as err:
            raise _t.python_line_error(err, "kernel", self.__name__, files) from None


class _Launch:
    """``k[global, local]``: the kernel with its launch sizes, to be called with the
    arguments."""
    __slots__ = ("k", "g", "lo")

    def __init__(self, k, g, lo):
        self.k, self.g, self.lo = k, g, lo

    def __call__(self, *args):
        self.k._launch(self.g, self.lo, args)

    def __repr__(self):
        return f"<lazycl.kernel {self.k.__name__!r} [{self.g!r}, {self.lo!r}]>"


__all__ = ["kernel"]
