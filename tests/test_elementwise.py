"""Elementwise ops against NumPy 2: every op x dtype, shape classes, edge values, NEP 50 scalars,
fusion proven by kernel counts, and a core subset on every device."""
import operator
import warnings

import numpy as np
import pytest

import lazycl
from lazycl._ufuncs import BINARY as _BINARY, UNARY as _UNARY

from conftest import ALL_DTYPES, DEVICE_FILTERS, FLOAT_DTYPES, INT_DTYPES, assert_same, core, make

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

KNOWN_BUGS = []


# Ops whose float results are exactly NumPy's (IEEE-exact or bit operations).
EXACT = {"negative", "positive", "absolute", "invert", "logical_not", "sign", "square", "floor",
         "ceil", "trunc", "rint", "isnan", "isinf", "isfinite", "add", "subtract", "multiply",
         "equal", "not_equal", "less", "less_equal", "greater", "greater_equal", "bitwise_and",
         "bitwise_or", "bitwise_xor", "left_shift", "right_shift", "logical_and", "logical_or",
         "logical_xor", "maximum", "minimum", "fmax", "fmin", "copysign", "floor_divide",
         "remainder"}
# Correctly rounded in IEEE but OpenCL allows a few ulp in single precision.
NEAR = {"true_divide", "reciprocal", "sqrt"}


def tol(op, dtype):
    """(rtol, atol) for `op` giving `dtype`."""
    dtype = np.dtype(dtype)
    if dtype.kind != "f" or op in EXACT:
        return 0.0, 0.0
    if dtype == np.float32:
        return (3e-7, 0.0) if op in NEAR else (1e-6, 1e-6)
    return (1e-15, 0.0) if op in NEAR else (1e-13, 1e-14)


def unary_data(op, dtype, shape=(7,), seed=1):
    """Data inside the op's domain where it has one (NaNs outside are tested separately)."""
    dt = np.dtype(dtype)
    if op in ("arcsin", "arccos", "arctanh"):
        return make(dt, shape, seed, -1, 1) if dt.kind != "f" else make(dt, shape, seed, -0.99, 0.99)
    if op == "arccosh":
        return make(dt, shape, seed, 1, 100) if dt.kind != "f" else make(dt, shape, seed, 1, 50)
    if op in ("log", "log2", "log10", "sqrt", "log1p") and dt.kind == "f":
        return make(dt, shape, seed, 0.01, 50)
    if op in ("exp", "expm1", "exp2", "sinh", "cosh") and dt.kind in "iuf":
        return make(dt, shape, seed, -10, 10)  # float16 (NumPy) would overflow past ~11
    if op == "reciprocal" and dt.kind in "iu":
        return make(dt, shape, seed, 1, 100)  # NumPy's 1 // 0 is platform-defined
    return make(dt, shape, seed)


def np_ref(f, *args):
    """NumPy's result, and the dtype lazycl must give: float16 results are float32 in lazycl
    (it has no float16), so those are recomputed from float32 inputs."""
    ref = f(*args)
    if ref.dtype == np.float16:
        ref = f(*[a.astype(np.float32) if isinstance(a, np.ndarray) else a for a in args])
        assert ref.dtype == np.float32
    return ref


def run_unary(op, a):
    try:
        ref = np_ref(getattr(np, op), a)
    except TypeError as e:
        with pytest.raises(TypeError):
            getattr(lazycl, op)(lazycl.asarray(a))
        return e
    got = getattr(lazycl, op)(lazycl.asarray(a))
    assert_same(got, ref, *tol(op, ref.dtype))
    return None


# ---- every unary op x every dtype ----------------------------------------------------------
#
# Kernel builds dominate the cost of these tests, so the ops that share an input are computed
# together by one lazycl.compute (siblings over one index space fuse into one kernel with an
# output each); every op is still a test of its own, comparing its own output.

def _outcome(f):
    try:
        return f(), None
    except Exception as e:  # noqa: BLE001 (the type is compared below)
        return None, e


def _batch(cases):
    """cases: key -> (numpy thunk, lazycl thunk). Returns key -> (ref, ref_exc, got, got_exc),
    forcing all lazycl results with one compute (per key on failure, to say which one broke)."""
    out, lazy = {}, {}
    for key, (fn, fl) in cases.items():
        ref, rexc = _outcome(fn)
        got, gexc = _outcome(fl)
        out[key] = [ref, rexc, got, gexc]
        if got is not None:
            lazy[key] = got
    try:
        lazycl.compute(*lazy.values())
    except Exception:  # noqa: BLE001
        pass
    for key in lazy:
        out[key][2], out[key][3] = _outcome(lazy[key].numpy)
    return out


def _check(result, op):
    ref, rexc, got, gexc = result
    if rexc is not None:
        assert isinstance(rexc, TypeError), rexc
        assert isinstance(gexc, TypeError), f"NumPy raises {rexc!r}, lazycl gave {gexc or got!r}"
        return
    if gexc is not None:
        raise gexc
    if ref.dtype == np.float16:
        raise AssertionError("float16 references must be recomputed in float32")
    assert_same(got, ref, *tol(op, ref.dtype))


_UNARY_CACHE = {}


def unary_results(dtype):
    if dtype not in _UNARY_CACHE:
        cases = {}
        for op in _UNARY:
            a = unary_data(op, dtype)
            cases[op] = (lambda op=op, a=a: np_ref(getattr(np, op), a),
                         lambda op=op, a=a: getattr(lazycl, op)(lazycl.asarray(a)))
        _UNARY_CACHE[dtype] = _batch(cases)
    return _UNARY_CACHE[dtype]


@pytest.mark.parametrize("dtype", core(ALL_DTYPES))
@pytest.mark.parametrize("op", _UNARY)
def test_unary(op, dtype):
    _check(unary_results(dtype)[op], op)


def test_float16_results_are_float32():
    """The documented deviation: where NumPy gives float16 lazycl gives float32."""
    for dt in ("bool", "int8", "uint8"):
        a = make(dt, 5, lo=0, hi=3)
        assert np.sin(a).dtype == np.float16
        assert lazycl.sin(lazycl.asarray(a)).dtype == np.float32
        assert lazycl.arctan2(lazycl.asarray(a), lazycl.asarray(a)).dtype == np.float32
    assert lazycl.sin(lazycl.asarray(make("int16", 3))).dtype == np.float32
    assert lazycl.sin(lazycl.asarray(make("int32", 3))).dtype == np.float64


# ---- every binary op x every dtype (same dtype on both sides) -------------------------------

def binary_data(op, dt1, dt2, shape1=(7,), shape2=(7,)):
    a = make(dt1, shape1, 2)
    b = make(dt2, shape2, 3)
    k2 = np.dtype(dt2).kind
    if op in ("left_shift", "right_shift") and k2 in "iu":
        b = make(dt2, shape2, 3, 0, 8 * np.dtype(dt1).itemsize - 1)
    if op == "power":
        if k2 in "iu":
            b = make(dt2, shape2, 3, 0, 4)
        elif k2 == "f":
            a = np.abs(a) + 1 if np.dtype(dt1).kind == "f" else a
            b = make(dt2, shape2, 3, -3, 3)
    return a, b


def run_binary(op, a, b, la=None, lb=None):
    la = lazycl.asarray(a) if la is None else la
    lb = lazycl.asarray(b) if lb is None else lb
    try:
        ref = np_ref(getattr(np, op), a, b)
    except TypeError:
        with pytest.raises(TypeError):
            getattr(lazycl, op)(la, lb)
        return
    got = getattr(lazycl, op)(la, lb)
    assert_same(got, ref, *tol(op, ref.dtype))


_BINARY_CACHE = {}


def binary_results(dt1, dt2):
    if (dt1, dt2) not in _BINARY_CACHE:
        cases = {}
        for op in _BINARY:
            a, b = binary_data(op, dt1, dt2)
            cases[op] = (lambda op=op, a=a, b=b: np_ref(getattr(np, op), a, b),
                         lambda op=op, a=a, b=b: getattr(lazycl, op)(lazycl.asarray(a),
                                                                     lazycl.asarray(b)))
        _BINARY_CACHE[(dt1, dt2)] = _batch(cases)
    return _BINARY_CACHE[(dt1, dt2)]


@pytest.mark.parametrize("dtype", core(ALL_DTYPES))
@pytest.mark.parametrize("op", _BINARY)
def test_binary(op, dtype):
    _check(binary_results(dtype, dtype)[op], op)


_PROMO = {}


@pytest.mark.parametrize("dt1", core(ALL_DTYPES))
@pytest.mark.parametrize("dt2", ALL_DTYPES)
def test_add_promotion(dt1, dt2):
    """The whole NumPy 2 promotion table, through add (one kernel per left dtype)."""
    if dt1 not in _PROMO:
        a = make(dt1, 5, 1)
        la = lazycl.asarray(a)
        _PROMO[dt1] = _batch({d: (lambda d=d: a + make(d, 5, 2),
                                  lambda d=d: la + lazycl.asarray(make(d, 5, 2)))
                              for d in ALL_DTYPES})
    _check(_PROMO[dt1][dt2], "add")


MIXED = [("int8", "uint8"), ("uint16", "int8"), ("int32", "float32"), ("uint64", "int64"),
         ("int16", "float32"), ("bool", "float32"), ("uint8", "float64")]


@pytest.mark.parametrize("dt1,dt2", MIXED)
@pytest.mark.parametrize("op", ["true_divide", "floor_divide", "remainder", "power", "arctan2",
                                "hypot", "maximum", "less", "equal"])
def test_binary_mixed(op, dt1, dt2):
    run_binary(op, *binary_data(op, dt1, dt2))


def test_int64_uint64_comparison_is_exact():
    """NumPy 2 compares int64 with uint64 exactly, not through float64."""
    u = np.array([2**53 + 1, 2**64 - 1, 0, 2**63], np.uint64)
    s = np.array([2**53, -1, -1, 2**63 - 1], np.int64)
    lu, ls = lazycl.asarray(u), lazycl.asarray(s)
    for op in ("equal", "not_equal", "less", "less_equal", "greater", "greater_equal"):
        assert_same(getattr(lazycl, op)(lu, ls), getattr(np, op)(u, s))
        assert_same(getattr(lazycl, op)(ls, lu), getattr(np, op)(s, u))


# ---- operators ---------------------------------------------------------------------------

BINOPS = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv,
          "//": operator.floordiv, "%": operator.mod, "**": operator.pow, "&": operator.and_,
          "|": operator.or_, "^": operator.xor, "<<": operator.lshift, ">>": operator.rshift,
          "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
          ">": operator.gt, ">=": operator.ge}


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint32", "int64", "float32", "float64"])
@pytest.mark.parametrize("sym", list(BINOPS))
def test_operator(sym, dtype):
    f = BINOPS[sym]
    a = make(dtype, (2, 3), 4)
    b = make(dtype, (2, 3), 5, 1, 6) if np.dtype(dtype).kind != "b" else make(dtype, (2, 3), 5)
    if sym in ("<<", ">>") and np.dtype(dtype).kind in "iu":
        b = make(dtype, (2, 3), 5, 0, 7)
    if sym == "**" and np.dtype(dtype).kind == "f":
        a = np.abs(a)
    la, lb = lazycl.asarray(a), lazycl.asarray(b)
    try:
        ref = f(a, b)
    except TypeError:
        with pytest.raises(TypeError):
            f(la, lb)
        return
    if ref.dtype == np.float16:
        ref = f(a.astype(np.float32), b.astype(np.float32))
    op = {"/": "true_divide", "**": "power"}.get(sym, "add")
    assert_same(f(la, lb), ref, *tol(op, ref.dtype))
    # With NumPy arrays and scalars on the other side, both orders (reflected operators).
    assert_same(f(la, b), ref, *tol(op, ref.dtype))
    assert_same(f(a, lb), ref, *tol(op, ref.dtype))


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int32", "float32", "float64"])
def test_operator_python_scalars(dtype):
    a = make(dtype, (3, 2), 6, 1, 9)
    la = lazycl.asarray(a)
    for f in (lambda x: x + 2, lambda x: 2 + x, lambda x: 7 - x, lambda x: x * 3,
              lambda x: 3 * x, lambda x: 100 // x, lambda x: x % 3, lambda x: 5 % x,
              lambda x: x ** 2, lambda x: 2 ** x, lambda x: 8 / x, lambda x: x / 2,
              lambda x: x > 3, lambda x: 3 < x, lambda x: x == 5, lambda x: 4 != x):
        ref = f(a)
        assert_same(f(la), ref, *tol("true_divide", ref.dtype))


@pytest.mark.parametrize("dtype", core(ALL_DTYPES))
@pytest.mark.parametrize("sym", ["-", "+", "abs", "~"])
def test_unary_operator(sym, dtype):
    f = {"-": operator.neg, "+": operator.pos, "abs": abs, "~": operator.invert}[sym]
    a = make(dtype, (4, 3), 7)
    if np.dtype(dtype).kind in "iu":
        a[0, 0] = np.iinfo(dtype).min  # -MIN wraps, abs(MIN) is MIN
        a[0, 1] = np.iinfo(dtype).max
    try:
        ref = f(a)
    except TypeError:
        with pytest.raises(TypeError):
            f(lazycl.asarray(a))
        return
    assert_same(f(lazycl.asarray(a)), ref)


# ---- shape classes -------------------------------------------------------------------------

def _base(shape, dtype="float32", seed=0):
    return make(dtype, shape, seed)


# name -> function returning (numpy operand, lazycl operand) pairs for a and b.
def _pair(sa, sb):
    def f(dt):
        a, b = make(dt, sa, 11), make(dt, sb, 12, 1, 9)
        return a, b, lazycl.asarray(a), lazycl.asarray(b)
    return f


def _views(dt):
    x = make(dt, (6, 8), 13)
    y = make(dt, (4, 6), 14, 1, 9)
    lx, ly = lazycl.asarray(x), lazycl.asarray(y)
    return x[::2, 1::3].T, y[::-1, ::-2].T[:, 1:], lx[::2, 1::3].T, ly[::-1, ::-2].T[:, 1:]


def _pending_views(dt):
    x = make(dt, (3, 4), 15)
    y = make(dt, (4, 3), 16, 1, 9)
    lx, ly = lazycl.asarray(x), lazycl.asarray(y)
    return (x + 1).T, (y * 2)[::-1], (lx + 1).T, (ly * 2)[::-1]


def _pending_slices(dt):
    x = make(dt, (4, 6), 17)
    y = make(dt, (3, 3), 18, 1, 9)
    lx, ly = lazycl.asarray(x), lazycl.asarray(y)
    return (x * 2)[1:, ::-2], y, (lx * 2)[1:, ::-2], ly


def _pending_reshape(dt):
    x = make(dt, (2, 6), 19)
    y = make(dt, (12,), 20, 1, 9)
    lx, ly = lazycl.asarray(x), lazycl.asarray(y)
    return (x + 1).reshape(3, 4), (y - 1).reshape(3, 4), (lx + 1).reshape(3, 4), \
        (ly - 1).reshape(3, 4)


def _transposed_reshape(dt):
    x = make(dt, (3, 4), 21)
    y = make(dt, (2, 6), 22, 1, 9)
    lx, ly = lazycl.asarray(x), lazycl.asarray(y)
    return x.T.reshape(2, 6), y, lx.T.reshape(2, 6), ly  # needs a copy: not a strided view


def _scalar_array(dt):
    a = make(dt, (), 23)
    b = make(dt, (5, 3), 24, 1, 9)
    return a, b, lazycl.asarray(a), lazycl.asarray(b)


def _reversed(dt):
    x = make(dt, 9, 25)
    y = make(dt, 27, 26, 1, 9)
    return x[::-1], y[::-3], lazycl.asarray(x)[::-1], lazycl.asarray(y)[::-3]


SHAPES = {
    "0d": _pair((), ()),
    "empty": _pair((0,), (0,)),
    "empty2d": _pair((3, 0), (3, 0)),
    "empty_bcast": _pair((3, 0), (1,)),
    "n1": _pair((1,), (1,)),
    "n7": _pair((7,), (7,)),
    "n1023": _pair((1023,), (1023,)),
    "2d": _pair((3, 4), (3, 4)),
    "3d": _pair((2, 3, 4), (2, 3, 4)),
    "bcast": _pair((3, 1), (1, 4)),
    "bcast3d": _pair((2, 1, 4), (3, 1)),
    "scalar_array": _scalar_array,
    "strided_T": _views,
    "reversed": _reversed,
    "pending_T": _pending_views,
    "pending_slice": _pending_slices,
    "pending_reshape": _pending_reshape,
    "transposed_reshape": _transposed_reshape,
}

SHAPE_OPS = ["add", "multiply", "true_divide", "floor_divide", "maximum", "less", "arctan2",
             "where"]


_SHAPE_CACHE = {}


def _shape_case(shape, dtype, op):
    def fn():
        a, b, _, _ = SHAPES[shape](dtype)
        return np.where(a > b, a, b) if op == "where" else np_ref(getattr(np, op), a, b)

    def fl():
        _, _, la, lb = SHAPES[shape](dtype)
        return lazycl.where(la > lb, la, lb) if op == "where" else getattr(lazycl, op)(la, lb)
    return fn, fl


@pytest.mark.parametrize("op", SHAPE_OPS)
@pytest.mark.parametrize("dtype", core(["int32", "float32", "float64"], ["float32"]))
@pytest.mark.parametrize("shape", list(SHAPES))
def test_shapes(shape, dtype, op):
    key = (shape, dtype)
    if key not in _SHAPE_CACHE:
        _SHAPE_CACHE[key] = _batch({o: _shape_case(shape, dtype, o) for o in SHAPE_OPS})
    _check(_SHAPE_CACHE[key][op], op)


@pytest.mark.parametrize("shape", ["0d", "empty", "empty2d", "n1023", "3d", "strided_T",
                                   "reversed", "pending_T", "transposed_reshape"])
@pytest.mark.parametrize("op", ["sin", "negative", "isnan", "sqrt"])
def test_shapes_unary(shape, op):
    a, _, la, _ = SHAPES[shape]("float32")
    a, la = np.abs(a), abs(la)
    assert_same(getattr(lazycl, op)(la), getattr(np, op)(a), *tol(op, "float32"))


def test_broadcast_mismatch_is_value_error():
    a = lazycl.asarray(np.zeros((3, 2)))
    with pytest.raises(ValueError):
        a + lazycl.asarray(np.zeros((4,)))
    assert_same(a + 1, np.ones((3, 2)))


# ---- where, clip, round, astype --------------------------------------------------------------

@pytest.mark.parametrize("dt1,dt2", [("int8", "int8"), ("int8", "float32"), ("bool", "int16"),
                                     ("uint32", "int32"), ("float64", "float32")])
def test_where(dt1, dt2):
    c = make("bool", (3, 4), 30)
    a, b = make(dt1, (3, 4), 31), make(dt2, (1, 4), 32)
    lc_, la, lb = lazycl.asarray(c), lazycl.asarray(a), lazycl.asarray(b)
    assert_same(lazycl.where(lc_, la, lb), np.where(c, a, b))
    # Python scalars are weak; a non-bool condition means != 0.
    assert_same(lazycl.where(lc_, la, 1), np.where(c, a, 1))
    assert_same(lazycl.where(lc_, 2, 1), np.where(c, 2, 1))
    assert_same(lazycl.where(la, la, lb), np.where(a, a, b))


@pytest.mark.parametrize("dtype", ["int8", "uint16", "int64", "float32", "float64"])
def test_clip(dtype):
    a = make(dtype, (4, 5), 33)
    la = lazycl.asarray(a)
    assert_same(lazycl.clip(la, 2, 50), np.clip(a, 2, 50))
    assert_same(lazycl.clip(la, None, 10), np.clip(a, None, 10))
    assert_same(lazycl.clip(la, 3, None), np.clip(a, 3, None))
    assert_same(la.clip(5, 6), a.clip(5, 6))
    lo, hi = make(dtype, (1, 5), 34, 0, 5), make(dtype, (4, 1), 35, 20, 40)
    assert_same(lazycl.clip(la, lazycl.asarray(lo), lazycl.asarray(hi)), np.clip(a, lo, hi))
    if np.dtype(dtype).kind == "f":
        n = np.array([np.nan, 1.0, -np.inf, np.inf], dtype)
        assert_same(lazycl.clip(lazycl.asarray(n), 0, 2), np.clip(n, 0, 2))


@pytest.mark.parametrize("dtype", ["int16", "uint8", "float32", "float64"])
@pytest.mark.parametrize("decimals", [0, 1, 2, -1])
def test_round(dtype, decimals):
    if np.dtype(dtype).kind == "f":
        a = np.array([0.5, 1.5, 2.5, -0.5, -1.5, 1.25, 1.35, 12.345, -7.77, 15.0, 25.0, 0.0],
                     dtype)
    else:
        a = make(dtype, 12, 36, 0, 99)
    la = lazycl.asarray(a)
    ref = np.round(a, decimals)
    rt = 0.0 if decimals == 0 or np.dtype(dtype).kind != "f" else 1e-6
    assert_same(lazycl.round(la, decimals), ref, rtol=rt)
    assert_same(la.round(decimals), ref, rtol=rt)


def cast_data(src, dst):
    a = make(src, 9, 37, 0 if np.dtype(dst).kind in "ub" else None, None)
    if np.dtype(src).kind == "f" and np.dtype(dst).kind in "iu":
        # In range of the target (out of range is undefined in C and NumPy alike); truncates.
        a = np.trunc(a * 10).astype(src) if np.dtype(dst).kind == "i" else np.abs(a * 10)
        a[0] = 0.75
    if np.dtype(src).kind in "iu" and np.dtype(dst).kind in "iu":
        a = make(src, 9, 37)  # wraps in both, modulo 2**bits
    return a


_CASTS = {}


@pytest.mark.parametrize("dst", ALL_DTYPES)
@pytest.mark.parametrize("src", core(ALL_DTYPES))
def test_astype(src, dst):
    if src not in _CASTS:
        _CASTS[src] = _batch({d: (lambda d=d: cast_data(src, d).astype(d),
                                  lambda d=d: lazycl.asarray(cast_data(src, d)).astype(d) + 0
                                  if d != "bool" else lazycl.asarray(cast_data(src, d)).astype(d)
                                  | False)
                              for d in ALL_DTYPES})
    _check(_CASTS[src][dst], "astype")


def test_astype_wraps_and_truncates():
    a = np.array([300, -1, 65535, -129, 2**31], np.int64)
    la = lazycl.asarray(a)
    for dt in ("int8", "uint8", "int16", "uint16", "int32", "uint32", "bool"):
        assert_same(la.astype(dt), a.astype(dt))
    f = np.array([-2.7, -0.5, 0.5, 2.9, np.nan, np.inf, -0.0], np.float64)
    assert_same(lazycl.asarray(f).astype(bool), f.astype(bool))
    assert_same(lazycl.asarray(f[:4]).astype(np.int32), f[:4].astype(np.int32))
    assert_same(lazycl.asarray(f).astype(np.float32), f.astype(np.float32))


# ---- edge semantics -------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
def test_nan_inf(dtype):
    nan, inf = np.nan, np.inf
    a = np.array([nan, 1.0, nan, -inf, inf, 0.0, -0.0, 2.0], dtype)
    b = np.array([1.0, nan, nan, inf, nan, -0.0, 0.0, -inf], dtype)
    la, lb = lazycl.asarray(a), lazycl.asarray(b)
    for op in ("maximum", "minimum", "fmax", "fmin", "add", "multiply", "less", "equal",
               "not_equal", "greater_equal", "copysign", "arctan2", "hypot"):
        ref = getattr(np, op)(a, b)
        assert_same(getattr(lazycl, op)(la, lb), ref, *tol(op, ref.dtype))
    for op in ("sign", "isnan", "isinf", "isfinite", "absolute", "floor", "exp", "log", "sqrt",
               "tanh", "negative", "rint", "logical_not"):
        ref = getattr(np, op)(a)
        assert_same(getattr(lazycl, op)(la), ref, *tol(op, ref.dtype))


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
def test_float_floor_divide_remainder(dtype):
    nan, inf = np.nan, np.inf
    a = np.array([1, -1, 0, 7, -7, 7, -7, inf, -inf, 5, -5, 5, -5, nan, 1, 0.5, -0.5, 6],
                 dtype)
    b = np.array([0, 0, 0, 2, 2, -2, -2, 1, 1, inf, inf, -inf, -inf, 1, nan, 0.1, 0.1, 0.2],
                 dtype)
    la, lb = lazycl.asarray(a), lazycl.asarray(b)
    assert_same(lazycl.floor_divide(la, lb), np.floor_divide(a, b))
    assert_same(la // lb, a // b)
    assert_same(lazycl.remainder(la, lb), np.remainder(a, b))
    assert_same(la % lb, a % b)
    # The sign of a zero remainder is the divisor's.
    z = (la % lb).numpy()
    assert np.array_equal(np.signbit(z[[3, 5]]), np.signbit((a % b)[[3, 5]]))


@pytest.mark.parametrize("dtype", core(INT_DTYPES))
def test_int_divide_modulo(dtype):
    info = np.iinfo(dtype)
    if info.min < 0:
        a = np.array([7, -7, 7, -7, 0, 5, -5, info.min, info.min, info.max, 3, -3], dtype)
        b = np.array([2, 2, -2, -2, 0, 0, 0, -1, 1, -1, 7, 7], dtype)
    else:
        a = np.array([7, 8, 0, 5, info.max, info.max, 3, 0], dtype)
        b = np.array([2, 3, 0, 0, 1, 7, 7, 5], dtype)
    la, lb = lazycl.asarray(a), lazycl.asarray(b)
    with np.errstate(all="ignore"):
        assert_same(la // lb, a // b)          # x // 0 is 0, MIN // -1 wraps to MIN
        assert_same(la % lb, a % b)            # x % 0 is 0, sign of the divisor
        assert_same(lazycl.true_divide(la, lb), a / b)


@pytest.mark.parametrize("dtype", core(INT_DTYPES))
def test_int_overflow_wraps(dtype):
    info = np.iinfo(dtype)
    a = np.array([info.max, info.min, info.max, info.min, info.max // 2 + 1], dtype)
    b = np.array([1, 1, info.max, info.max, 2], dtype)
    la, lb = lazycl.asarray(a), lazycl.asarray(b)
    with np.errstate(all="ignore"):
        for f in (operator.add, operator.sub, operator.mul):
            assert_same(f(la, lb), f(a, b))
        assert_same(lazycl.square(la), np.square(a))
        assert_same(-la, -a)
        assert_same(la ** 3, a ** 3)
        assert_same(lazycl.power(la, lb), np.power(a, b))


@pytest.mark.parametrize("dtype", core(INT_DTYPES))
def test_shifts_past_width(dtype):
    bits = np.dtype(dtype).itemsize * 8
    a = np.array([1, 5, 3, 100, 7, 1], dtype)
    if np.iinfo(dtype).min < 0:
        a[3] = -100
    b = np.array([0, 1, bits - 1, bits, bits + 3, 2 * bits], dtype)
    la, lb = lazycl.asarray(a), lazycl.asarray(b)
    assert_same(la << lb, a << b)
    assert_same(la >> lb, a >> b)
    if np.iinfo(dtype).min < 0:
        neg = np.array([-1, -2, -3, -4, -5, -6], dtype)
        assert_same(la << lazycl.asarray(neg), a << neg)
        assert_same(la >> lazycl.asarray(neg), a >> neg)


def test_int_power_edges():
    a = np.array([0, 1, -1, 2, -2, 3, 10], np.int64)
    la = lazycl.asarray(a)
    for e in (0, 1, 2, 5, 63, 64):
        assert_same(la ** e, a ** e)
    e = np.array([0, 0, 3, 62, 63, 3, 20], np.int64)
    assert_same(la ** lazycl.asarray(e), a ** e)
    assert_same(lazycl.asarray(np.array([0, 2, 3], np.uint8)) ** 9,
                np.array([0, 2, 3], np.uint8) ** 9)


# ---- NEP 50: Python scalars are weak, NumPy scalars are strong ------------------------------

WEAK = [
    ("int8", lambda x: x + 1), ("int8", lambda x: 1 + x), ("uint8", lambda x: x * 2),
    ("int8", lambda x: x + True), ("bool", lambda x: x + 1), ("bool", lambda x: x * 1.5),
    ("float32", lambda x: x + 1.5), ("float32", lambda x: 2.5 * x), ("float32", lambda x: x + 1),
    ("int32", lambda x: x + 1.5), ("int16", lambda x: x / 2), ("uint64", lambda x: x + 1),
    ("int8", lambda x: x > 100), ("uint8", lambda x: x - 1),
    ("float32", lambda x: x ** 2), ("int16", lambda x: x ** 2.0), ("uint32", lambda x: x // 3),
    ("float32", lambda x: lazycl.where(x > 0, x, 0.5) if isinstance(x, lazycl.Array)
     else np.where(x > 0, x, 0.5)),
    ("uint64", lambda x: x + 2**63), ("int64", lambda x: x - 2**62),
]


@pytest.mark.parametrize("i", range(len(WEAK)))
def test_weak_python_scalars(i):
    dtype, f = WEAK[i]
    a = make(dtype, 6, 40, 0, 50)
    with np.errstate(all="ignore"):
        ref = f(a)
    assert_same(f(lazycl.asarray(a)), ref, *tol("true_divide", ref.dtype))


@pytest.mark.parametrize("dtype,value", [("int8", 300), ("int8", -129), ("uint8", -1),
                                         ("uint8", 256), ("int16", 2**15), ("uint32", 2**32),
                                         ("int64", 2**63), ("uint64", -1), ("uint64", 2**64)])
def test_weak_int_out_of_range_raises(dtype, value):
    la = lazycl.asarray(make(dtype, 3))
    with pytest.raises(OverflowError):
        np.asarray(make(dtype, 3)) + value
    with pytest.raises(OverflowError):
        la + value
    with pytest.raises(OverflowError):
        value * la
    assert_same(la + 1, make(dtype, 3) + 1)  # still usable


def test_weak_int_out_of_range_comparison():
    """NumPy 2 compares an integer array with an out-of-range Python int by value."""
    a = make("int8", 4)
    la = lazycl.asarray(a)
    assert_same(la == 1000, a == 1000)
    assert_same(la < 1000, a < 1000)
    assert_same(la > -1000, a > -1000)
    assert_same(lazycl.asarray(make("uint8", 3)) > -1, make("uint8", 3) > -1)


@pytest.mark.parametrize("scalar,dtype", [(np.float64(1.5), "float32"), (np.int64(3), "int8"),
                                          (np.float32(2.0), "int16"), (np.uint8(7), "int8"),
                                          (np.int32(2), "float32"), (np.bool_(True), "int8"),
                                          (np.float32(0.5), "float64")])
def test_numpy_scalars_are_strong(scalar, dtype):
    a = make(dtype, 5, 41, 0, 20)
    la = lazycl.asarray(a)
    assert_same(la * scalar, a * scalar, *tol("add", (a * scalar).dtype))
    assert_same(scalar * la, scalar * a, *tol("add", (a * scalar).dtype))
    assert (la * scalar).dtype == (a * scalar).dtype


# ---- fusion, proven by counting kernels -----------------------------------------------------

def _launches(*arrays):
    lazycl.reset_stats()
    lazycl.compute(*arrays)
    return lazycl.stats()


def test_chain_of_ten_is_one_kernel():
    a = make("float32", (64, 33), 50)
    x = lazycl.asarray(a).compute()
    y = x
    ref = a
    for i in range(5):
        y = y * 1.5 + i
        ref = ref * np.float32(1.5) + np.float32(i)
    s = _launches(y)
    assert s["launches"] == 1
    assert s["buffers_allocated"] + s["pool_hits"] == 1
    assert_same(y, ref, 1e-6, 1e-6)


def test_compute_shared_inputs_is_one_kernel():
    a, b = make("float64", 100, 51), make("float64", 100, 52)
    la, lb = lazycl.asarray(a).compute(), lazycl.asarray(b).compute()
    u, v, w = la + lb, la * lb, lazycl.sin(la) - lb
    assert _launches(u, v, w)["launches"] == 1
    assert_same(u, a + b)
    assert_same(v, a * b)
    assert_same(w, np.sin(a) - b, 1e-13, 1e-14)


def test_shared_subexpression_computed_once():
    a = make("float32", 50, 53)
    la = lazycl.asarray(a).compute()
    t = lazycl.exp(la)
    y = t * t + t
    text = lazycl.explain(y)
    src = text[text.index("__kernel"):]
    # One exp per point the kernel evaluates (GPU schedules evaluate four
    # lanes per item, each from its own load; PoCL's evaluates one vector
    # per item), not one per use.
    points = src.count("a0[") + src.count("= t0.s") + src.count("vload8(0, a0")
    assert points >= 1 and src.count("exp(") == points, text
    assert _launches(y)["launches"] == 1
    e = np.exp(a)
    assert_same(y, e * e + e, 1e-6, 1e-6)


def test_views_fuse_into_consumer():
    a = make("float32", (8, 6), 54)
    la = lazycl.asarray(a).compute()
    y = ((la + 1).T[1:, ::-2] * 2).reshape(-1)
    assert _launches(y)["launches"] == 1
    assert_same(y, ((a + 1).T[1:, ::-2] * 2).reshape(-1))


# ---- the core subset on every device ----------------------------------------------------------

CORE = [("add", "int32"), ("multiply", "float32"), ("true_divide", "int16"),
        ("floor_divide", "int64"), ("remainder", "float64"), ("power", "uint8"),
        ("maximum", "float32"), ("less", "uint64"), ("left_shift", "int8"),
        ("arctan2", "float64"), ("bitwise_xor", "bool"), ("subtract", "uint16")]


@pytest.mark.parametrize("op,dtype", CORE)
def test_core_binary_on_every_device(device, op, dtype):
    a, b = binary_data(op, dtype, dtype, (3, 5), (1, 5))
    la, lb = lazycl.asarray(a, device=device), lazycl.asarray(b, device=device)
    assert la.device == lazycl.Device(device)
    r = getattr(lazycl, op)(la.T.T, lb[::-1])
    ref = getattr(np, op)(a, b[::-1])
    assert r.device == lazycl.Device(device)
    assert_same(r, ref, *tol(op, ref.dtype))


@pytest.mark.parametrize("op,dtype", [("sin", "float32"), ("exp", "float64"), ("sqrt", "int8"),
                                      ("negative", "int64"), ("sign", "float32"),
                                      ("invert", "uint32"), ("isnan", "float64"),
                                      ("floor", "float32")])
def test_core_unary_on_every_device(device, op, dtype):
    a = unary_data(op, dtype, (4, 3))
    la = lazycl.asarray(a, device=device)
    ref = np_ref(getattr(np, op), a)
    assert_same(getattr(lazycl, op)(la.T), ref.T, *tol(op, ref.dtype))


def test_fused_chain_on_every_device(device):
    a = make("float32", (17, 5), 60)
    la = lazycl.asarray(a, device=device).compute()
    y = lazycl.where(la > 0, lazycl.sqrt(la * 2.0), -la).astype(np.float64) + 1
    assert _launches(y)["launches"] == 1
    ref = np.where(a > 0, np.sqrt(a * np.float32(2.0)), -a).astype(np.float64) + 1
    assert_same(y, ref, 3e-7)


def test_edges_on_every_device(device):
    a = np.array([7, -7, 0, -128, 127], np.int8)
    b = np.array([0, 2, 0, -1, -2], np.int8)
    la, lb = lazycl.asarray(a, device=device), lazycl.asarray(b, device=device)
    with np.errstate(all="ignore"):
        assert_same(la // lb, a // b)
        assert_same(la % lb, a % b)
        assert_same(la + la, a + a)
    f = np.array([np.nan, 1.0, -np.inf], np.float32)
    g = np.array([1.0, np.nan, 0.0], np.float32)
    lf, lg = lazycl.asarray(f, device=device), lazycl.asarray(g, device=device)
    assert_same(lazycl.maximum(lf, lg), np.maximum(f, g))
    assert_same(lazycl.fmin(lf, lg), np.fmin(f, g))
    assert_same(lf // lg, f // g)
