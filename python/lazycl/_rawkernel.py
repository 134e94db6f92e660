"""Whole OpenCL C kernels written by the user: ``lazycl.RawKernel`` (CuPy's RawKernel,
pyMIC's ``invoke``) and ``lazycl.LocalMemory``.

    k = lc.RawKernel(source, "axpy")
    k((n,), None, (2.0, x, y))       # global size, local size (None: the driver's), args

The kernel's parameter list is read from the source, once: each ``__global T *p`` that is
not ``const`` is an array the kernel may write, a ``const`` or ``__constant`` one an array it
only reads, a ``__local T *p`` takes ``LocalMemory(nbytes)``, and a scalar parameter takes a
Python or NumPy scalar converted to its declared type. The call checks every argument
against its parameter (TypeError naming it), then ``_lazycl._raw_launch`` (python/
py_launch.c) computes pending inputs, applies the write rules of python/py_write.c to the
arrays written (their views see the writes; pending readers of the old values keep them)
and enqueues the kernel on the arrays' queue. A raw kernel is a fusion barrier: it is not a
graph node, its inputs are computed before it runs, and nothing fuses across it.

Layer: a feature module (package docstring); over the extension and _util."""
import numbers
import re
import struct

import numpy as np

from . import _lazycl as _c
from ._util import is_array

# OpenCL C's scalar and vector types a parameter may have, as NumPy's dtypes (float2/double2
# are lazycl's complex64/complex128: (real, imaginary)).
_CL_DTYPES = {"char": "int8", "uchar": "uint8", "short": "int16", "ushort": "uint16",
              "int": "int32", "uint": "uint32", "long": "int64", "ulong": "uint64",
              "float": "float32", "double": "float64", "float2": "complex64",
              "double2": "complex128"}
# Types OpenCL C or lazycl refuses in a kernel's parameters, and why.
_REFUSED = {
    "bool": "OpenCL C allows no bool kernel parameters (pass a char or int, or a uchar "
            "pointer for a bool array)",
    "half": "lazycl has no float16 arrays",
    "size_t": "OpenCL C allows no size_t kernel parameters (use ulong or uint)",
    "ptrdiff_t": "OpenCL C allows no ptrdiff_t kernel parameters (use long or int)",
    "intptr_t": "OpenCL C allows no intptr_t kernel parameters (use long)",
    "uintptr_t": "OpenCL C allows no uintptr_t kernel parameters (use ulong)",
}
_SPACES = {"__global": "global", "global": "global", "__constant": "constant",
           "constant": "constant", "__local": "local", "local": "local",
           "__private": "private", "private": "private"}
_IGNORED = {"restrict", "__restrict", "__restrict__", "volatile", "struct"}
_CONST = {"const", "__const"}
_IMAGE = re.compile(r"^(image[123]d\w*|sampler_t|pipe|__read_only|read_only|__write_only|"
                    r"write_only|__read_write|read_write)$")
_TOKEN = re.compile(r"[A-Za-z_]\w*|\*|\S")
_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)


class LocalMemory:
    """``nbytes`` of ``__local`` memory for a kernel's ``__local T *p`` parameter (each
    work-group gets its own; pyopencl's cl.LocalMemory)."""

    __slots__ = ("nbytes",)

    def __init__(self, nbytes):
        n = _index(nbytes, "LocalMemory's nbytes")
        if n <= 0:
            raise ValueError(f"LocalMemory needs a positive number of bytes, not {n}")
        self.nbytes = n

    def __repr__(self):
        return f"lazycl.LocalMemory({self.nbytes})"


def _typename(v):
    t = type(v)
    return t.__name__ if t.__module__ == "builtins" else f"{t.__module__}.{t.__name__}"


def _index(v, what):
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (numbers.Integral, np.integer)):
        raise TypeError(f"{what} must be an integer, not {type(v).__name__}")
    return int(v)


# ---- reading the kernel's parameters from its source ------------------------------------------

def _blank(m):
    """A comment replaced by spaces, keeping its newlines (line numbers stay)."""
    return re.sub(r"[^\n]", " ", m.group(0))


def _aliases(text, options):
    """{name: [tokens]} of the object-like macros (``#define T float``), the typedefs of a type
    to a name, and the options' ``-D NAME=value``: what a parameter's type may be spelled
    through."""
    out = {}
    for m in re.finditer(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)(?![\w(])[ \t]*(.*)$", text,
                         re.M):
        out[m.group(1)] = _TOKEN.findall(m.group(2))
    for m in re.finditer(r"\btypedef\s+([^;{}()]*?)\s*\b([A-Za-z_]\w*)\s*;", text):
        out[m.group(2)] = _TOKEN.findall(m.group(1))
    words = options.split()
    for i, w in enumerate(words):
        d = w[2:] if w.startswith("-D") and len(w) > 2 else (
            words[i + 1] if w == "-D" and i + 1 < len(words) else None)
        if d:
            k, _, v = d.partition("=")
            out[k] = _TOKEN.findall(v or "1")
    return out


def _strip_attributes(s):
    """s without its __attribute__((...)) parts (parentheses nest)."""
    while True:
        m = re.search(r"\b__attribute__\s*\(", s)
        if not m:
            return s
        depth, j = 0, m.end() - 1
        while j < len(s):
            depth += {"(": 1, ")": -1}.get(s[j], 0)
            j += 1
            if depth == 0:
                break
        s = s[:m.start()] + " " + s[j:]


def _find_params(text, name):
    """The text of kernel `name`'s parameter list, or None when the source has no kernel of
    that name. `text` has no comments."""
    code = re.sub(r"^[ \t]*#.*(?:\\\n.*)*$", lambda m: _blank(m), text, flags=re.M)
    for m in re.finditer(r"\b" + re.escape(name) + r"\s*\(", code):
        start = max(code.rfind(c, 0, m.start()) for c in ";}{")
        head = _TOKEN.findall(_strip_attributes(code[start + 1:m.start()]))
        if not ({"__kernel", "kernel"} & set(head)) or "void" not in head:
            continue
        depth, j = 0, m.end() - 1
        while j < len(code):
            depth += {"(": 1, ")": -1}.get(code[j], 0)
            if depth == 0:
                return code[m.end():j]
            j += 1
    return None


def _split_params(s):
    parts, depth, cur = [], 0, []
    for ch in s:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur))
    parts = [p.strip() for p in parts]
    return [] if parts in ([""], ["void"]) else parts


def _canonical(words):
    """'unsigned int' -> 'uint', 'long int' -> 'long', 'signed char' -> 'char'; else the words."""
    uns = "unsigned" in words
    w = [x for x in words if x not in ("signed", "unsigned")]
    if len(w) == 2 and w[0] in ("short", "long") and w[1] == "int":
        w = w[:1]
    if uns:
        w = w or ["int"]
        return "u" + w[0] if len(w) == 1 and w[0] in ("char", "short", "int", "long") else None
    return " ".join(w) if w else None


# struct's format of each dtype a scalar parameter takes (native order, standard sizes).
_FORMATS = {"int8": "=b", "uint8": "=B", "int16": "=h", "uint16": "=H", "int32": "=i",
            "uint32": "=I", "int64": "=q", "uint64": "=Q", "float32": "=f", "float64": "=d",
            "complex64": "=ff", "complex128": "=dd"}


class _Param:
    """One kernel parameter: `kind` 'scalar', 'global', 'constant' or 'local'; `dtype` the
    NumPy dtype of the scalar or of the elements pointed to (None when the type is not one
    lazycl can tell); `written`: an array the kernel may write. The rest is made once for
    the calls: `code` (_raw_launch's 'r', 'w', 's' or 'l'), `label` (for messages), and for
    a scalar its dtype's name, struct format and integer bounds."""

    __slots__ = ("name", "decl", "kind", "ctype", "dtype", "written", "code", "label",
                 "dtname", "fmt", "lo", "hi")

    def __init__(self, name, decl, kind, ctype, dtype, written):
        self.name, self.decl, self.kind = name, decl, kind
        self.ctype, self.dtype, self.written = ctype, dtype, written
        self.code = {"scalar": "s", "local": "l"}.get(kind, "w" if written else "r")
        self.label = None
        self.dtname = dtype.name if dtype is not None else None
        self.fmt = _FORMATS.get(self.dtname)
        self.lo = self.hi = None
        if kind == "scalar" and dtype is not None and dtype.kind in "iu":
            info = np.iinfo(dtype)
            self.lo, self.hi = int(info.min), int(info.max)


def _parse_param(decl, index, aliases, where):
    toks = _TOKEN.findall(_strip_attributes(decl))
    for _ in range(8):                      # macros and typedefs, a few levels deep
        if not any(t in aliases for t in toks):
            break
        toks = [u for t in toks for u in aliases.get(t, [t])]
    toks = [t for t in toks if t not in _IGNORED]
    stars = [i for i, t in enumerate(toks) if t == "*"]
    idents = [t for t in toks if re.match(r"[A-Za-z_]", t)]
    what = f"{where} parameter {index + 1} ({decl!r})"
    if any(_IMAGE.match(t) for t in toks):
        raise ValueError(f"{what}: images, samplers and pipes are not supported")
    if len(stars) > 1 or "[" in toks:
        raise ValueError(f"{what}: only scalars and pointers to scalars are supported")
    # The name is the last identifier, when something comes before it.
    name = idents[-1] if len(idents) > 1 and toks[-1] != "*" else f"#{index + 1}"
    body = toks[:-1] if name == toks[-1] else toks
    before = body[:stars[0]] if stars else body
    space = next((_SPACES[t] for t in before if t in _SPACES), None)
    const = any(t in _CONST for t in before)
    words = [t for t in before if t not in _SPACES and t not in _CONST]
    ctype = _canonical(words)
    if ctype in _REFUSED:
        raise ValueError(f"{what}: {_REFUSED[ctype]}")
    dtype = np.dtype(_CL_DTYPES[ctype]) if ctype in _CL_DTYPES else None
    if not stars:
        if space == "local":
            raise ValueError(f"{what}: a __local parameter must be a pointer")
        return _Param(name, decl, "scalar", ctype or " ".join(words), dtype, False)
    if space in (None, "private"):
        raise ValueError(f"{what}: a kernel's pointer parameters are __global, __constant or "
                         "__local")
    return _Param(name, decl, space, ctype or " ".join(words), dtype,
                  space == "global" and not const)


def _parse_kernel(source, name, options):
    text = _COMMENT.sub(_blank, source)
    params = _find_params(text, name)
    if params is None:
        raise ValueError(f"RawKernel: the source has no kernel named {name!r} "
                         f"('__kernel void {name}(...)')")
    aliases = _aliases(text, options)
    where = f"RawKernel {name!r}"
    return tuple(_parse_param(p, i, aliases, where) for i, p in enumerate(_split_params(params)))


# ---- compile errors ---------------------------------------------------------------------------

# A compiler's error line: 'prog.cl:4:16: error: msg' (clang, NVIDIA, Intel: '1:4:16: error:')
# or 'error: /path/f.cl:4:16: msg' (PoCL).
_ERR_AFTER = re.compile(r":(\d+):(?:\d+:)?\s*(?:fatal\s+)?error:\s*(.*)")
_ERR_BEFORE = re.compile(r"\berror:\s*\S*?:(\d+):(?:\d+:)?\s*(.*)")


def _compile_error(err, kernel):
    """The driver's CompileError made readable: the user's line and the compiler's message."""
    detail = getattr(err, "detail", None) or ""
    log = detail.split("--- build log", 1)[1].split("\n", 1)[-1] if "--- build log" in detail \
        else str(err)
    first = str(err).split("\n", 1)[0]
    dev = re.search(r"for device '(.*?)' \(", first)
    head = f"RawKernel {kernel.name!r} failed to build" + \
        (f" for device {dev.group(1)!r}" if dev else "")
    lines = kernel.source.splitlines()
    line = None
    for text in log.splitlines():
        m = _ERR_AFTER.search(text) or _ERR_BEFORE.search(text)
        if m:
            line, msg = int(m.group(1)), m.group(2).strip()
            break
    if line is not None and 1 <= line <= len(lines):
        message = f"{head}:\n  line {line}: {lines[line - 1].strip()}\n  error: {msg}"
    else:
        line = None
        msg = first.split("): ", 1)[1] if "): " in first else first
        message = f"{head}: {msg}"
    out = _c.CompileError(message)
    out.detail = detail
    out.line = line
    return out


# ---- the kernel -------------------------------------------------------------------------------

def _scalar(v, p):
    """('s', dtype name, bytes): scalar v as parameter p's type. Python numbers must fit an
    integer type (OverflowError, as NumPy's); NumPy scalars are cast as NumPy's astype under
    the same_kind rule."""
    t = type(v)
    if t is float and p.fmt in ("=f", "=d"):
        try:
            return ("s", p.dtname, struct.pack(p.fmt, v))
        except OverflowError:               # a float32 out of range: inf, as NumPy's cast
            return ("s", p.dtname, np.asarray(v, dtype=p.dtype).tobytes())
    if t is int and p.lo is not None:
        if not p.lo <= v <= p.hi:
            raise OverflowError(f"{p.label}: Python integer {v} out of bounds for {p.dtype} "
                                f"({p.ctype})")
        return ("s", p.dtname, struct.pack(p.fmt, v))
    return _scalar_slow(v, p)


def _scalar_slow(v, p):
    label, dt = p.label, p.dtype
    if is_array(v):
        raise TypeError(f"{label}: expected a scalar ({p.ctype}), got a lazycl array "
                        "(a scalar parameter takes a Python or NumPy number)")
    if isinstance(v, np.ndarray):
        if v.ndim:
            raise TypeError(f"{label}: expected a scalar ({p.ctype}), got a numpy.ndarray of "
                            f"shape {v.shape}")
        v = v[()]
    if dt is None:
        if isinstance(v, np.generic) and v.dtype.name in _FORMATS:
            return ("s", v.dtype.name, v.tobytes())
        raise TypeError(f"{label}: lazycl cannot tell the type {p.ctype!r}; pass a NumPy "
                        "scalar of the right type (np.float32(x), ...)")
    if isinstance(v, np.generic):
        if not np.can_cast(v.dtype, dt, "same_kind"):
            raise TypeError(f"{label}: cannot cast {v.dtype} to {dt} ({p.ctype}) under the "
                            "same_kind rule")
        return ("s", p.dtname, np.asarray(v).astype(dt).tobytes())
    if isinstance(v, (bool, numbers.Integral)):
        if p.lo is not None and not p.lo <= int(v) <= p.hi:
            raise OverflowError(f"{label}: Python integer {int(v)} out of bounds for {dt} "
                                f"({p.ctype})")
        return ("s", p.dtname, np.asarray(int(v)).astype(dt).tobytes())
    if isinstance(v, numbers.Real):
        if dt.kind in "iu":
            raise TypeError(f"{label}: expected an integer ({p.ctype}), got "
                            f"{type(v).__name__}")
        return ("s", p.dtname, np.asarray(float(v), dtype=dt).tobytes())
    if isinstance(v, numbers.Complex):
        if dt.kind != "c":
            raise TypeError(f"{label}: expected a real number ({p.ctype}), got complex")
        return ("s", p.dtname, np.asarray(complex(v), dtype=dt).tobytes())
    raise TypeError(f"{label}: expected a scalar ({p.ctype}), got {type(v).__name__}")


def _size_tuple(s, what):
    if type(s) is int:                      # the common cases, without the ABC checks
        return (s,)
    if type(s) is tuple and 1 <= len(s) <= 3 and all(type(x) is int for x in s):
        return s
    t = (s,) if isinstance(s, (numbers.Integral, np.integer)) else tuple(s)
    if not 1 <= len(t) <= 3:
        raise ValueError(f"the {what} size needs 1 to 3 dims, not {len(t)}")
    return tuple(_index(x, f"the {what} size") for x in t)


class RawKernel:
    """A whole OpenCL C kernel, run on lazycl arrays: ``RawKernel(source, name, options=())``.

    ``k(global_size, local_size, args, *, device=None)``: global_size is an int or a tuple
    of 1 to 3 ints (work-items, as OpenCL's NDRange: not CuPy's blocks), local_size None
    (the driver chooses) or as many ints, args a tuple with one value per parameter. The
    kernel runs on the queue of its array arguments (all on one, else PlacementError);
    ``device=`` (a Device, Queue or filter string) places a kernel without arrays. The call
    returns at once; the arrays it writes hold the results for whatever reads them next.
    docs/api.md ("User kernels") says what each parameter takes."""

    def __init__(self, source, name, options=()):
        if not isinstance(source, str):
            raise TypeError(f"RawKernel's source must be a str, not {type(source).__name__}")
        if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z_]\w*", name):
            raise ValueError(f"RawKernel's name must be a C identifier, not {name!r}")
        if isinstance(options, str):
            options = (options,)
        options = tuple(options)
        for o in options:
            if not isinstance(o, str):
                raise TypeError(f"RawKernel's options are strings, not {type(o).__name__}")
        self.source, self.name, self.options = source, name, options
        self._opts = " ".join(options)
        self._params = _parse_kernel(source, name, self._opts)
        for i, p in enumerate(self._params):
            p.label = f"RawKernel {name!r} argument {i + 1} ({p.name!r})"
        # OpenCL 1.2 (lazycl's default -cl-std) needs the global size a multiple of the local.
        self._uniform = not re.search(r"-cl-std=CL[23]", self._opts)

    @property
    def params(self):
        """The parameters as read from the source: (name, kind, dtype, written) each, kind
        'scalar', 'global', 'constant' or 'local'."""
        return tuple((p.name, p.kind, p.dtype, p.written) for p in self._params)

    def __repr__(self):
        return f"<lazycl.RawKernel {self.name!r} ({len(self._params)} parameters)>"

    def __call__(self, global_size, local_size, args, *, device=None, queue=None):
        if queue is not None:
            if device is not None:
                raise TypeError("give device= or queue=, not both")
            device = queue
        if not isinstance(args, (tuple, list)):
            raise TypeError(f"RawKernel {self.name!r}: args must be a tuple, not "
                            f"{type(args).__name__}")
        ps = self._params
        if len(args) != len(ps):
            raise TypeError(f"RawKernel {self.name!r} takes {len(ps)} argument"
                            f"{'' if len(ps) == 1 else 's'} ({len(args)} given)")
        g = _size_tuple(global_size, "global")
        lo = None if local_size is None else _size_tuple(local_size, "local")
        if lo is not None:
            if len(lo) != len(g):
                raise ValueError(f"the local size {lo} has {len(lo)} dims, the global size "
                                 f"{g} {len(g)}")
            if self._uniform and any(l_ <= 0 or gi % l_ for gi, l_ in zip(g, lo)):
                raise ValueError(f"the global size {g} is not a multiple of the local size "
                                 f"{lo} (OpenCL 1.2; -cl-std=CL2.0 or later in the options "
                                 "lifts it where the device allows)")
        out = []
        for p, v in zip(ps, args):
            code = p.code
            if code == "s":
                out.append(_scalar(v, p))
            elif code == "l":
                if not isinstance(v, LocalMemory):
                    raise TypeError(f"{p.label}: expected lc.LocalMemory(nbytes) "
                                    f"({p.decl}), got {type(v).__name__}")
                out.append(("l", v.nbytes))
            else:
                if not is_array(v):
                    hint = " (lc.asarray(a) it first)" if isinstance(v, np.ndarray) else ""
                    raise TypeError(f"{p.label}: expected a lazycl array ({p.decl}), got "
                                    f"{_typename(v)}{hint}")
                dt = v.dtype
                if dt != p.dtype and p.dtype is not None and not (
                        dt == np.bool_ and p.dtype.kind in "iu" and p.dtype.itemsize == 1):
                    raise TypeError(f"{p.label}: expected a {p.dtype} array ({p.decl}), got "
                                    f"{dt}")
                out.append((code, v, p.label))
        try:
            _c._raw_launch(device, self.source, self.name, self._opts, g, lo, out)
        except _c.CompileError as err:
            raise _compile_error(err, self) from None


__all__ = ["RawKernel", "LocalMemory"]
