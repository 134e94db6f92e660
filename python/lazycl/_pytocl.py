"""Python functions as OpenCL C: the translator behind ``lazycl.vectorize`` (and ``lazycl.kernel``).

A function's source is parsed (``ast``) and translated, for given argument dtypes, into an
OpenCL C function. Its local variables get dtypes by NumPy's promotion rules:

- an expression's dtype follows NumPy 2 (NEP 50): Python literals are weak (``x * 2.0`` keeps
  float32 ``x`` float32; an int literal keeps any dtype), ``/`` of integers is float64,
  comparisons are bool;
- a variable's dtype is the promotion of the dtypes of everything assigned to it, where a
  weak literal counts only when nothing else is assigned (``z = 0.0`` then ``z = z * z + c``
  with a float32 ``c``: float32); a weak int alone is int64, a weak float float64;
- the return dtype is the promotion of every returned value's, the same way.

Each statement is preceded by ``#line <line> "<file>"``, so the device compiler's messages
name the Python line. What the translator does not take (objects, containers, strings,
exceptions, closures over arrays, recursion, ...) raises ``TranslateError`` naming the
function, the line and the construct.
"""
import ast
import inspect
import math
import re
import textwrap

import numpy as np

#: lazycl's dtypes as OpenCL C spells them (bool is a byte).
CL_NAME = {"bool": "uchar", "int8": "char", "uint8": "uchar", "int16": "short",
           "uint16": "ushort", "int32": "int", "uint32": "uint", "int64": "long",
           "uint64": "ulong", "float32": "float", "float64": "double"}

_BOOL = np.dtype(bool)
_I64 = np.dtype(np.int64)
_F64 = np.dtype(np.float64)

#: math.* (and builtins) that map to an OpenCL built-in of the same arity, on floats.
_MATH = {"sqrt": "sqrt", "exp": "exp", "log": "log", "log2": "log2", "log10": "log10",
         "log1p": "log1p", "expm1": "expm1", "sin": "sin", "cos": "cos", "tan": "tan",
         "asin": "asin", "acos": "acos", "atan": "atan", "sinh": "sinh", "cosh": "cosh",
         "tanh": "tanh", "asinh": "asinh", "acosh": "acosh", "atanh": "atanh",
         "floor": "floor", "ceil": "ceil", "trunc": "trunc", "fabs": "fabs", "erf": "erf",
         "erfc": "erfc", "gamma": "tgamma", "lgamma": "lgamma", "cbrt": "cbrt",
         "exp2": "exp2"}
_MATH2 = {"atan2": "atan2", "hypot": "hypot", "pow": "pow", "fmod": "fmod",
          "copysign": "copysign"}
_MATH_CONST = {"pi": math.pi, "e": math.e, "tau": math.tau, "inf": math.inf, "nan": math.nan}


_MISSING = object()


class TranslateError(Exception):
    """A Python function lazycl cannot translate; the message names the function, the line
    and what is not supported. (lazycl.CompileError is raised in its place by callers.)"""


class Typed:
    """An expression's C text, its dtype and whether it is a weak Python literal."""
    __slots__ = ("c", "dt", "weak")

    def __init__(self, c, dt, weak=False):
        self.c, self.dt, self.weak = c, np.dtype(dt), weak


def promote(a, b):
    """The dtype of a binary arithmetic op on a and b (Typed), NEP 50 style; and whether it
    is weak."""
    if a.weak and b.weak:
        return (_F64 if "f" in (a.dt.kind, b.dt.kind) else
                _I64 if "i" in (a.dt.kind, b.dt.kind) or a.dt.kind != b.dt.kind else a.dt), True
    if a.weak or b.weak:
        w, s = (a, b) if a.weak else (b, a)
        if w.dt.kind == "f" and s.dt.kind in "biu":
            return _F64, False
        if w.dt.kind in "iu" and s.dt.kind == "b":
            return _I64, False
        return s.dt, False
    return np.promote_types(a.dt, b.dt), False


def settle(t):
    """The dtype a variable or result of t gets: a weak literal's default one."""
    if not t.weak:
        return t.dt
    return _F64 if t.dt.kind == "f" else _BOOL if t.dt.kind == "b" else _I64


def cl(dt):
    return CL_NAME[np.dtype(dt).name]


def cast(t, dt):
    """t's C text as dtype dt (bool: 0 or 1)."""
    dt = np.dtype(dt)
    if t.dt == dt and not t.weak:
        return t.c
    if dt == _BOOL:
        return f"(uchar)(({t.c}) != 0)"
    return f"({cl(dt)})({t.c})"


class FunctionSource:
    """A Python function's parsed source: its ast.FunctionDef, file and first line."""

    def __init__(self, fn, kind):
        self.fn, self.kind = fn, kind
        self.name = fn.__name__
        try:
            src = inspect.getsource(fn)
            self.file = inspect.getsourcefile(fn) or "<python>"
        except (OSError, TypeError):
            raise TranslateError(f"{kind} {self.name!r}: its source is not available (lazycl "
                                 f"translates a function from its source: define it in a "
                                 f"file or a notebook cell)") from None
        self.first = fn.__code__.co_firstlineno
        tree = ast.parse(textwrap.dedent(src))
        defs = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
        if not defs:
            raise TranslateError(f"{kind} {self.name!r}: a lambda cannot be translated; use "
                                 f"a def")
        self.tree = defs[0]
        if isinstance(self.tree, ast.AsyncFunctionDef):
            self.fail(self.tree, "async functions")
        a = self.tree.args
        if a.vararg or a.kwarg or a.kwonlyargs or a.posonlyargs or a.defaults:
            self.fail(self.tree, "*args, **kwargs, keyword-only arguments and defaults")
        self.params = [p.arg for p in a.args]

    def line(self, node):
        return self.first + getattr(node, "lineno", 1) - 1

    def fail(self, node, what):
        raise TranslateError(f"{self.kind} {self.name!r}, line {self.line(node)} of {self.file}: "
                             f"not supported: {what}")


class Translator:
    """One Python function translated for argument dtypes `types` into an OpenCL C function
    named `cname`. `resolve(obj, arg_types)` translates a callee (another lazycl function)
    and returns (its C name, its return dtype). `.source` is the C text, `.ret` the return
    dtype."""

    def __init__(self, fs, types, cname, resolve, extra_scope=None):
        self.fs, self.types, self.cname, self.resolve = fs, [np.dtype(t) for t in types], cname, \
            resolve
        if len(self.types) != len(fs.params):
            raise TranslateError(f"{fs.kind} {fs.name!r} takes {len(fs.params)} arguments, "
                                 f"got {len(self.types)}")
        self.scope = dict(extra_scope or {})
        self.vars = {}                  # name -> dtype (settled)
        self.assigned = {}              # name -> [Typed of every value assigned]
        self.returns = []
        self.tmp = 0
        # Type inference to a fixpoint: variables' dtypes may widen as the loop bodies are seen.
        # A variable read before its assignment in the source (around a loop) reads as a weak
        # int in the first pass: it does not widen what it is combined with.
        self.provisional = {node.id for node in ast.walk(fs.tree)
                            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)}
        for p, t in zip(fs.params, self.types):
            self.vars[p] = t
        for _ in range(8):
            before = dict(self.vars)
            self.returns = []
            self.assigned = {p: [Typed(p, t)] for p, t in zip(fs.params, self.types)}
            self.lines = []
            self.block(fs.tree.body, 1)
            for v, ts in self.assigned.items():
                strong = [t for t in ts if not t.weak]
                if v in fs.params:
                    continue
                if strong:
                    dt = strong[0].dt
                    for t in strong[1:]:
                        dt = np.promote_types(dt, t.dt)
                    if any(t.weak and t.dt.kind == "f" for t in ts) and dt.kind in "biu":
                        dt = _F64
                else:
                    dt = settle(ts[0])
                    for t in ts[1:]:
                        dt = np.promote_types(dt, settle(t))
                self.vars[v] = dt
            if self.vars == before:
                break
        else:
            raise TranslateError(f"{fs.kind} {fs.name!r}: the dtypes of its variables do not "
                                 f"settle")
        self.ret = self.result_dtype()
        # The final text, with the settled dtypes.
        self.returns = []
        self.lines = []
        self.block(fs.tree.body, 1)
        self.source = self.render()

    # Hooks a subclass may replace (_pykernel's kernels return nothing, have array params).

    def result_dtype(self):
        """The return dtype, from every returned value's (after the fixpoint)."""
        if not self.returns:
            self.fs.fail(self.fs.tree, "a function without a return value")
        strong = [t.dt for t in self.returns if not t.weak]
        if strong:
            ret = strong[0]
            for d in strong[1:]:
                ret = np.promote_types(ret, d)
            if any(t.weak and t.dt.kind == "f" for t in self.returns) and ret.kind in "biu":
                ret = _F64
        else:
            ret = settle(self.returns[0])
            for t in self.returns[1:]:
                ret = np.promote_types(ret, settle(t))
        return ret

    def render(self):
        """The C text of the function, from self.lines (its body) and self.vars."""
        fs = self.fs
        params = ", ".join(f"{cl(t)} {p}" for p, t in zip(fs.params, self.types))
        decls = "".join(f"    {cl(t)} {v} = 0;\n" for v, t in self.vars.items()
                        if v not in fs.params)
        return (f"/* {fs.kind} {fs.name} ({', '.join(t.name for t in self.types)}) -> "
                f"{self.ret.name} */\n"
                f"static {cl(self.ret)} {self.cname}({params})\n{{\n{decls}"
                + "".join(self.lines) + "    return 0;\n}\n")

    # ---- statements --------------------------------------------------------------------

    def emit(self, node, depth, text):
        f = self.fs.file.replace("\\", "/").replace('"', "'")
        self.lines.append(f'#line {self.fs.line(node)} "{f}"\n' + "    " * depth + text + "\n")

    def block(self, body, depth):
        for st in body:
            self.stmt(st, depth)

    def assign_to(self, target, value, depth, node):
        if isinstance(target, ast.Name):
            self.check_name(target, target.id)
            self.assigned.setdefault(target.id, []).append(value)
            dt = self.vars.get(target.id, settle(value))
            self.emit(node, depth, f"{target.id} = {cast(value, dt)};")
        elif isinstance(target, (ast.Tuple, ast.List)):
            self.fs.fail(target, "unpacking anything but a tuple of values")
        elif isinstance(target, ast.Subscript):
            self.fs.fail(target, "item assignment (a scalar function has no arrays)")
        else:
            self.fs.fail(target, f"assigning to {type(target).__name__}")

    def check_name(self, node, name):
        if name in self.fs.params and self.fs.kind == "vectorize":
            pass
        if name.startswith("lc_") or name in CL_NAME.values() or name in (
                "int", "float", "double", "long", "char", "short", "unsigned", "return", "if",
                "else", "while", "for", "do", "switch", "case", "break", "continue", "goto",
                "static", "const", "void", "struct", "union", "enum", "typedef", "sizeof",
                "inline", "restrict", "volatile", "signed", "default", "half", "bool"):
            self.fs.fail(node, f"a variable named {name!r} (a C keyword or reserved name)")

    def stmt(self, st, depth):
        if isinstance(st, ast.Assign):
            if len(st.targets) != 1:
                self.fs.fail(st, "chained assignment (a = b = ...)")
            t = st.targets[0]
            if isinstance(t, (ast.Tuple, ast.List)):
                if not isinstance(st.value, (ast.Tuple, ast.List)) or \
                        len(st.value.elts) != len(t.elts):
                    self.fs.fail(st, "unpacking anything but a tuple of as many values")
                vals = [self.expr(v) for v in st.value.elts]
                tmps = []
                for v in vals:           # all values first, as Python evaluates them
                    self.tmp += 1
                    name = f"lc_t{self.tmp}"
                    tmps.append(name)
                    self.emit(st, depth, f"const {cl(settle(v))} {name} = {v.c};")
                for tgt, v, name in zip(t.elts, vals, tmps):
                    self.assign_to(tgt, Typed(name, settle(v)) if not v.weak else
                                   Typed(name, v.dt, True), depth, st)
            else:
                self.assign_to(t, self.expr(st.value), depth, st)
        elif isinstance(st, ast.AugAssign):
            if not isinstance(st.target, ast.Name):
                self.fs.fail(st, "augmented assignment to anything but a variable")
            cur = self.name(st.target)
            self.assign_to(st.target, self.binop(st.op, cur, self.expr(st.value), st), depth, st)
        elif isinstance(st, ast.AnnAssign):
            if st.value is None:
                self.fs.fail(st, "a bare annotation")
            self.assign_to(st.target, self.expr(st.value), depth, st)
        elif isinstance(st, ast.Return):
            if st.value is None:
                self.fs.fail(st, "a return without a value")
            v = self.expr(st.value)
            self.returns.append(v)
            ret = getattr(self, "ret", None)
            self.emit(st, depth, f"return {cast(v, ret) if ret is not None else v.c};")
        elif isinstance(st, ast.If):
            c = self.truth(self.expr(st.test))
            self.emit(st, depth, f"if ({c}) {{")
            self.block(st.body, depth + 1)
            if st.orelse:
                self.lines.append("    " * depth + "} else {\n")
                self.block(st.orelse, depth + 1)
            self.lines.append("    " * depth + "}\n")
        elif isinstance(st, ast.While):
            if st.orelse:
                self.fs.fail(st, "while ... else")
            self.emit(st, depth, "while (1) {")
            c = self.truth(self.expr(st.test))
            self.emit(st, depth + 1, f"if (!({c})) break;")
            self.block(st.body, depth + 1)
            self.lines.append("    " * depth + "}\n")
        elif isinstance(st, ast.For):
            self.for_range(st, depth)
        elif isinstance(st, ast.Break):
            self.emit(st, depth, "break;")
        elif isinstance(st, ast.Continue):
            self.emit(st, depth, "continue;")
        elif isinstance(st, ast.Pass):
            pass
        elif isinstance(st, ast.Expr):
            if isinstance(st.value, ast.Constant) and isinstance(st.value.value, str):
                return                  # a docstring
            self.expr(st.value)         # evaluated for its errors; no side effects to keep
        elif isinstance(st, (ast.Raise, ast.Try, getattr(ast, "TryStar", ast.Try))):
            self.fs.fail(st, "exceptions (raise, try)")
        elif isinstance(st, (ast.FunctionDef, ast.Lambda, ast.ClassDef)):
            self.fs.fail(st, "nested functions and classes")
        elif isinstance(st, (ast.Global, ast.Nonlocal)):
            self.fs.fail(st, "global and nonlocal")
        elif isinstance(st, (ast.With, ast.Import, ast.ImportFrom, ast.Delete, ast.Assert)):
            self.fs.fail(st, f"the {type(st).__name__.lower()} statement")
        else:
            self.fs.fail(st, f"the {type(st).__name__} statement")

    def for_range(self, st, depth):
        if st.orelse:
            self.fs.fail(st, "for ... else")
        it = st.iter
        if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and
                it.func.id == "range" and not it.keywords and 1 <= len(it.args) <= 3):
            self.fs.fail(st, "for loops over anything but range(...)")
        if not isinstance(st.target, ast.Name):
            self.fs.fail(st, "a for loop whose target is not one variable")
        args = [self.expr(a) for a in it.args]
        for a in args:
            if a.dt.kind not in "iub":
                self.fs.fail(st, f"range() of a {a.dt} value (range takes integers)")
        start, stop, step = ((Typed("0", _I64, True), args[0], Typed("1", _I64, True))
                             if len(args) == 1 else
                             (args[0], args[1], Typed("1", _I64, True)) if len(args) == 2 else args)
        v = st.target.id
        self.check_name(st.target, v)
        self.assigned.setdefault(v, []).append(Typed(v, _I64))
        self.tmp += 1
        n = self.tmp
        self.emit(st, depth, f"const long lc_stop{n} = (long)({stop.c}), "
                             f"lc_step{n} = (long)({step.c});")
        # A literal positive step (or none) counts up; any other step's sign is tested.
        up = len(args) < 3 or (isinstance(it.args[2], ast.Constant) and
                               isinstance(it.args[2].value, int) and it.args[2].value > 0)
        cond = (f"lc_i{n} < lc_stop{n}" if up
                else f"(lc_step{n} > 0 ? lc_i{n} < lc_stop{n} : lc_i{n} > lc_stop{n})")
        self.emit(st, depth, f"for (long lc_i{n} = (long)({start.c}); {cond}; "
                             f"lc_i{n} += lc_step{n}) {{")
        dt = self.vars.get(v, _I64)
        self.emit(st, depth + 1, f"{v} = ({cl(dt)})lc_i{n};")
        self.block(st.body, depth + 1)
        self.lines.append("    " * depth + "}\n")

    # ---- expressions -------------------------------------------------------------------

    def truth(self, t):
        return t.c if t.dt == _BOOL else f"(({t.c}) != 0)"

    def name(self, node):
        n = node.id
        if n in self.vars:
            return Typed(n, self.vars[n])
        if n in self.provisional:       # not typed yet (the first pass)
            return Typed(n, _I64, True)
        v = self.lookup(node, n)
        if isinstance(v, (bool, np.bool_)):
            return Typed("1" if v else "0", _BOOL, isinstance(v, bool))
        if isinstance(v, (int, np.integer)):
            return self.constant(node, v)
        if isinstance(v, (float, np.floating)):
            return self.constant(node, v)
        self.fs.fail(node, f"the global {n!r} (a {type(v).__name__}; only numbers are read "
                           f"from outside the function)")

    def lookup(self, node, n):
        if n in self.scope:
            return self.scope[n]
        fn = self.fs.fn
        cv = inspect.getclosurevars(fn)
        for d in (cv.nonlocals, cv.globals, cv.builtins):
            if n in d:
                return d[n]
        self.fs.fail(node, f"the name {n!r} (not defined)")

    def constant(self, node, v):
        if isinstance(v, (bool, np.bool_)):
            return Typed("1" if v else "0", _BOOL, isinstance(v, bool))
        if isinstance(v, (int, np.integer)):
            weak = isinstance(v, int)
            dt = _I64 if weak else np.dtype(type(v))
            if weak and not -2 ** 63 <= v < 2 ** 64:
                self.fs.fail(node, f"the integer {v} (too large for 64 bits)")
            if v >= 2 ** 63:
                return Typed(f"{v}UL", np.dtype(np.uint64), False)
            return Typed(f"({v}L)" if v >= 0 else f"({v + 1}L - 1L)", dt, weak)
        if isinstance(v, (float, np.floating)):
            weak = isinstance(v, float)
            dt = _F64 if weak else np.dtype(type(v))
            if math.isnan(v):
                c = "NAN"
            elif math.isinf(v):
                c = "INFINITY" if v > 0 else "(-INFINITY)"
            else:
                c = repr(float(v))
                if "e" not in c and "." not in c:
                    c += ".0"
                c = f"({c})" if dt == _F64 or weak else f"({c}f)"
            return Typed(c, dt, weak)
        self.fs.fail(node, f"a constant of type {type(v).__name__}")

    def expr(self, e):
        if isinstance(e, ast.Constant):
            if isinstance(e.value, str):
                self.fs.fail(e, "strings")
            if e.value is None:
                self.fs.fail(e, "None")
            if isinstance(e.value, complex):
                self.fs.fail(e, "complex numbers")
            return self.constant(e, e.value)
        if isinstance(e, ast.Name):
            return self.name(e)
        if isinstance(e, ast.BinOp):
            return self.binop(e.op, self.expr(e.left), self.expr(e.right), e)
        if isinstance(e, ast.UnaryOp):
            v = self.expr(e.operand)
            if isinstance(e.op, ast.Not):
                return Typed(f"(uchar)(!{self.truth(v)})", _BOOL)
            if isinstance(e.op, ast.USub):
                if v.dt == _BOOL:
                    self.fs.fail(e, "negating a bool")
                return Typed(f"(-{v.c})", v.dt, v.weak)
            if isinstance(e.op, ast.UAdd):
                return v
            if isinstance(e.op, ast.Invert):
                if v.dt.kind == "f":
                    self.fs.fail(e, "~ of a float")
                return Typed(f"(uchar)!({v.c})" if v.dt == _BOOL else f"(~{v.c})", v.dt, v.weak)
        if isinstance(e, ast.BoolOp):
            op = " && " if isinstance(e.op, ast.And) else " || "
            vals = [self.truth(self.expr(v)) for v in e.values]
            return Typed("(uchar)(" + op.join(vals) + ")", _BOOL)
        if isinstance(e, ast.Compare):
            left = self.expr(e.left)
            parts = []
            for op, right in zip(e.ops, e.comparators):
                r = self.expr(right)
                parts.append(self.compare(op, left, r, e))
                left = r
            return Typed("(uchar)(" + " && ".join(parts) + ")", _BOOL)
        if isinstance(e, ast.IfExp):
            c = self.truth(self.expr(e.test))
            a, b = self.expr(e.body), self.expr(e.orelse)
            dt, weak = promote(a, b)
            return Typed(f"(({c}) ? {cast(a, dt)} : {cast(b, dt)})", dt, weak)
        if isinstance(e, ast.Call):
            return self.call(e)
        if isinstance(e, ast.Attribute):
            if isinstance(e.value, ast.Name) and e.value.id == "math" and e.attr in _MATH_CONST:
                return self.constant(e, _MATH_CONST[e.attr])
            obj = self.attribute(e)
            return self.constant(e, obj)
        if isinstance(e, (ast.List, ast.Tuple, ast.Dict, ast.Set, ast.ListComp,
                          ast.DictComp, ast.SetComp, ast.GeneratorExp)):
            self.fs.fail(e, "lists, tuples, dicts and sets (a lazycl function computes scalars)")
        if isinstance(e, ast.Subscript):
            self.fs.fail(e, "indexing (a scalar function has no arrays)")
        if isinstance(e, ast.Lambda):
            self.fs.fail(e, "lambdas")
        if isinstance(e, ast.JoinedStr):
            self.fs.fail(e, "strings")
        self.fs.fail(e, f"the expression {type(e).__name__}")

    def dotted(self, e, what, called=False):
        """The object a dotted name (a.b.c) names, looked up from outside the function, and
        the name; `what` says what is refused where e is not a dotted name. A name that is not
        there is refused as an attribute, or (`called`) as a function."""
        parts = []
        x = e
        while isinstance(x, ast.Attribute):
            parts.append(x.attr)
            x = x.value
        if not isinstance(x, ast.Name):
            self.fs.fail(e, what)
        name = ".".join([x.id] + parts[::-1])
        obj = self.lookup(x, x.id)
        for p in reversed(parts):
            obj = getattr(obj, p, _MISSING)
            if obj is _MISSING or (called and obj is None):
                self.fs.fail(e, f"the function {name!r}" if called else f"the attribute {p!r}")
        return obj, name

    def attribute(self, e):
        """A module attribute holding a number (np.pi, math.e, a module constant)."""
        obj, name = self.dotted(e, "attributes of expressions")
        if isinstance(obj, (bool, int, float, np.number, np.bool_)):
            return obj
        self.fs.fail(e, f"the attribute {name.split('.', 1)[1]!r} (not a number)")

    def compare(self, op, a, b, node):
        sym = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==",
               ast.NotEq: "!="}.get(type(op))
        if sym is None:
            self.fs.fail(node, f"the comparison {type(op).__name__} (is, in)")
        dt, _ = promote(a, b)
        if dt.kind in "iu" and a.dt.kind != b.dt.kind and {a.dt.kind, b.dt.kind} == {"i", "u"} \
                and not (a.weak or b.weak):
            dt = _F64                  # NumPy compares int64 with uint64 as floats
        return f"({cast(a, dt)} {sym} {cast(b, dt)})"

    def binop(self, op, a, b, node):
        if isinstance(op, ast.Div):
            dt, weak = promote(a, b)
            if dt.kind != "f":
                dt = _F64
            return Typed(f"({cast(a, dt)} / {cast(b, dt)})", dt, weak and dt.kind == "f" and
                         a.weak and b.weak)
        dt, weak = promote(a, b)
        if isinstance(op, (ast.Add, ast.Sub, ast.Mult)):
            if dt == _BOOL:
                if isinstance(op, ast.Sub):
                    self.fs.fail(node, "subtracting bools")
                sym = "||" if isinstance(op, ast.Add) else "&&"
                return Typed(f"(uchar)({a.c} {sym} {b.c})", _BOOL)
            sym = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*"}[type(op)]
            return Typed(f"({cast(a, dt)} {sym} {cast(b, dt)})", dt, weak)
        if isinstance(op, (ast.FloorDiv, ast.Mod, ast.Pow)):
            # Python's // % ** : on floats OpenCL's own (% with Python's sign), on integers
            # the helpers (helpers()); bools compute as int8.
            x, y = cast(a, dt), cast(b, dt)
            if dt.kind == "f":
                c = {ast.FloorDiv: f"floor({x} / {y})", ast.Mod: f"lc_fmod_py_{cl(dt)}({x}, {y})",
                     ast.Pow: f"pow({x}, {y})"}[type(op)]
                return Typed(c, dt, weak)
            if dt == _BOOL:
                dt = np.dtype(np.int8)
                x, y = cast(a, dt), cast(b, dt)
            name = {ast.FloorDiv: "floordiv", ast.Mod: "mod", ast.Pow: "ipow"}[type(op)]
            return Typed(f"lc_{name}_{cl(dt)}({x}, {y})", dt, weak)
        if isinstance(op, (ast.BitAnd, ast.BitOr, ast.BitXor, ast.LShift, ast.RShift)):
            if dt.kind == "f":
                self.fs.fail(node, "bitwise operators on floats")
            sym = {ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^", ast.LShift: "<<",
                   ast.RShift: ">>"}[type(op)]
            return Typed(f"({cast(a, dt)} {sym} {cast(b, dt)})", dt, weak)
        self.fs.fail(node, f"the operator {type(op).__name__}")

    def call(self, e):
        if e.keywords:
            self.fs.fail(e, "keyword arguments")
        f = e.func
        args = [self.expr(a) for a in e.args]
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and \
                f.value.id in ("math", "np", "numpy") and \
                (f.attr in _MATH or f.attr in _MATH2 or f.attr in ("isnan", "isinf",
                                                                     "isfinite")):
            return self.math(e, f.attr, args)
        if isinstance(f, ast.Name):
            n = f.id
            if n in ("int", "float", "bool") and n not in self.vars:
                if len(args) != 1:
                    self.fs.fail(e, f"{n}() of {len(args)} arguments")
                dt = {"int": _I64, "float": _F64, "bool": _BOOL}[n]
                if n == "int" and args[0].dt.kind == "f":
                    return Typed(f"(long)trunc({args[0].c})", _I64)
                return Typed(cast(args[0], dt), dt)
            if n == "abs" and n not in self.vars:
                if len(args) != 1:
                    self.fs.fail(e, "abs() of several arguments")
                a = args[0]
                if a.dt.kind == "f":
                    return Typed(f"fabs({a.c})", a.dt, a.weak)
                if a.dt.kind == "u" or a.dt == _BOOL:
                    return a
                return Typed(f"(({a.c}) < 0 ? -({a.c}) : ({a.c}))", a.dt, a.weak)
            if n in ("min", "max") and n not in self.vars:
                if len(args) < 2:
                    self.fs.fail(e, f"{n}() of fewer than 2 values")
                acc = args[0]
                for b in args[1:]:
                    dt, weak = promote(acc, b)
                    sym = "<" if n == "min" else ">"
                    x, y = cast(acc, dt), cast(b, dt)
                    # Python's: the first of equal values, and a NaN where it comes first.
                    acc = Typed(f"(({y}) {sym} ({x}) ? ({y}) : ({x}))", dt, weak)
                return acc
            if n == "round" and n not in self.vars:
                if len(args) != 1:
                    self.fs.fail(e, "round() with digits")
                return Typed(f"(long)rint({cast(args[0], _F64)})", _I64)
            obj = self.lookup(f, n)
        elif isinstance(f, ast.Attribute):
            obj, _ = self.dotted(f, "calls of expressions", called=True)
        else:
            self.fs.fail(e, "calls of expressions")
        try:
            cname, ret = self.resolve(obj, [settle(a) for a in args], e)
        except TranslateError:
            raise
        except TypeError as err:
            self.fs.fail(e, f"calling {getattr(obj, '__name__', obj)!r} ({err})")
        params = [settle(a) for a in args]
        return Typed(f"{cname}({', '.join(cast(a, t) for a, t in zip(args, params))})", ret)

    def math(self, e, name, args):
        if name in ("isnan", "isinf", "isfinite"):
            if len(args) != 1:
                self.fs.fail(e, f"{name}() of {len(args)} arguments")
            a = args[0]
            if a.dt.kind != "f":
                return Typed("1" if name == "isfinite" else "0", _BOOL)
            return Typed(f"(uchar){name}({a.c})", _BOOL)
        want = 1 if name in _MATH else 2
        if len(args) != want:
            self.fs.fail(e, f"math.{name}() of {len(args)} arguments")
        if want == 1:
            a = args[0]
            dt = a.dt if a.dt.kind == "f" and not a.weak else _F64
            if name in ("floor", "ceil", "trunc"):
                # math.floor gives a Python int; NumPy's np.floor keeps the float.
                c = f"{_MATH[name]}({cast(a, dt)})"
                return Typed(f"(long){c}", _I64) if e.func.value.id == "math" else Typed(c, dt)
            return Typed(f"{_MATH[name]}({cast(a, dt)})", dt)
        dt, _ = promote(*args)
        if dt.kind != "f":
            dt = _F64
        return Typed(f"{_MATH2[name]}({cast(args[0], dt)}, {cast(args[1], dt)})", dt)


_HELPER = re.compile(r"\blc_(?:floordiv|mod|ipow|fmod_py)_(\w+)\(")
_BY_CL = {v: np.dtype(k) for k, v in CL_NAME.items() if k != "bool"}


def helpers_for(text):
    """The helpers (helpers()) of the dtypes whose Python // % ** the C `text` calls."""
    return helpers(sorted({_BY_CL[m] for m in _HELPER.findall(text) if m in _BY_CL}, key=str))


def helpers(dtypes):
    """OpenCL C helpers for Python's // % and ** on integers, and % on floats (Python's sign
    rules), for the given dtypes."""
    out = []
    for dt in dtypes:
        dt = np.dtype(dt)
        t = cl(dt)
        if dt.kind == "f":
            out.append(f"static inline {t} lc_fmod_py_{t}({t} a, {t} b) {{ {t} r = fmod(a, b); "
                       f"return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r; }}\n")
        elif dt.kind in "iu":
            signed = dt.kind == "i"
            fd = (f"{t} q = a / b; return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;"
                  if signed else "return a / b;")
            md = (f"{t} r = a % b; return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;"
                  if signed else "return a % b;")
            out.append(f"static inline {t} lc_floordiv_{t}({t} a, {t} b) {{ if (b == 0) return 0; "
                       f"{fd} }}\n")
            out.append(f"static inline {t} lc_mod_{t}({t} a, {t} b) {{ if (b == 0) return 0; "
                       f"{md} }}\n")
            out.append(f"static inline {t} lc_ipow_{t}({t} a, {t} b) {{ {t} r = 1; "
                       f"if (b < 0) return a == 1 ? 1 : 0; while (b) {{ if (b & 1) r *= a; "
                       f"b >>= 1; a *= a; }} return r; }}\n")
    return "".join(out)



# ---- device compiler messages, at the Python line --------------------------------------

_NUMBERED = re.compile(r"^\s*(\d+) \| (.*)$")
_LINE_DIRECTIVE = re.compile(r'^\s*#line\s+(\d+)\s+"([^"]*)"')
_GENERATED_AT = re.compile(r"<[^>\n]*>:(\d+):(\d+):")


def user_lines(detail):
    """A build failure's detail (the numbered source, then the log) with the log's places in
    the generated source ("<kernel>:9:9:", as NVIDIA's compiler writes them: it does not follow
    #line) put as the #line directives say ("name:2:9:", as clang writes them)."""
    directives = []                       # (generated line of the directive, its line, file)
    source = {}                           # generated line -> its text
    for text in detail.splitlines():
        m = _NUMBERED.match(text)
        if m:
            source[int(m.group(1))] = m.group(2)
            d = _LINE_DIRECTIVE.match(m.group(2))
            if d:
                directives.append((int(m.group(1)), int(d.group(1)), d.group(2)))

    def place(m):
        at = int(m.group(1))
        before = [d for d in directives if d[0] < at]
        if not before or before[-1][2] == "lazycl":
            return m.group(0)
        src, line, name = before[-1]
        return f"{name}:{line + at - src - 1}:{m.group(2)}:"

    out = _GENERATED_AT.sub(place, detail) if directives else detail
    # NVIDIA's compiler takes an unknown function for an external one (a warning, which its
    # cache may not repeat) and fails only at the link ("Unresolved extern function 'f'"): the
    # warning is the user's error, or else the first user line that calls f.
    if "fatal" in out and not re.search(r"(?m)^\S+:\d+:\d+:\s*(?:fatal )?error:", out):
        warned = re.sub(r"(?m)^(\S+:\d+:\d+:)\s*warning:(.*)$", r"\1 error:\2", out, count=1)
        if warned != out:
            return warned
        f = re.search(r"Unresolved extern function '(\w+)'", out)
        for at in sorted(source) if f else ():
            call = re.search(r"\b" + f.group(1) + r"\s*\(", source[at])
            before = [d for d in directives if d[0] < at]
            if call and before and before[-1][2] != "lazycl":
                src, line, name = before[-1]
                out += (f"\n{name}:{line + at - src - 1}:{call.start() + 1}: error: no function "
                        f"'{f.group(1)}' (unresolved at the link)")
                break
    return out


def python_line_error(err, kind, name, files):
    """The device compiler's first error about a line of the Python `files`, as a
    lazycl.CompileError naming the function (`kind` 'name'), the file, the line and its text;
    else err itself."""
    detail = user_lines(getattr(err, "detail", "") or str(err))
    alts = "|".join(re.escape(f.replace("\\", "/").replace('"', "'"))
                    for f in sorted(files, key=len, reverse=True))
    m = (re.search(r"(?m)(" + alts + r"):(\d+):(?:\d+:)?\s*(?:fatal )?error:\s*(.*)$", detail)
         or re.search(r"(?m)error:\s*(" + alts + r"):(\d+):(?:\d+:)?\s*(.*)$", detail))
    if not m:
        return err
    line = int(m.group(2))
    try:
        with open(m.group(1)) as fh:
            text = fh.read().splitlines()[line - 1].strip()
    except (OSError, IndexError):
        text = ""
    out = type(err)(f"{kind} {name!r}, line {line} of {m.group(1)}: {text}\n"
                          f"    {m.group(3).strip()}")
    out.detail = detail
    out.line = line
    return out
