"""The everyday math functions (python/lazycl/_mathfns.py) against NumPy 2: every dtype each
accepts, NEP 50 scalars, 0-d / empty / broadcast / strided inputs, special values (NaN, +-inf,
+-0, subnormals), NumPy's errors, NumPy's dispatch, and fusion proven by kernel counts."""
import warnings

import numpy as np
import pytest

import lazycl

from conftest import ALL_DTYPES, DEVICES, FLOAT_DTYPES, INT_DTYPES, assert_same, core, make

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")


def lz(a, dev=None):
    return lazycl.asarray(a, device=dev, copy=True)


def np_ref(f, *args):
    """NumPy's result(s); where NumPy computes in float16 lazycl computes in float32 (it has no
    float16), so those are recomputed from float32 inputs."""
    with np.errstate(all="ignore"):
        ref = f(*args)
        refs = ref if isinstance(ref, tuple) else (ref,)
        if any(np.asarray(r).dtype == np.float16 for r in refs):
            # (ldexp's exponent stays an integer)
            ref = f(*[a.astype(np.float32) if isinstance(a, np.ndarray) and
                      (k == 0 or f is not np.ldexp) else a for k, a in enumerate(args)])
    return ref


def check(got, ref, rtol=0.0, atol=0.0):
    if isinstance(ref, tuple):
        assert isinstance(got, tuple) and len(got) == len(ref)
        for g, r in zip(got, ref):
            assert_same(g, r, rtol, atol)
    else:
        assert isinstance(got, lazycl.Array), type(got)
        assert_same(got, ref, rtol, atol)


def same_signs(got, ref):
    """Equal sign bits where the reference is not NaN (zeros' signs are part of the answer; a
    NaN made by the hardware has a platform's sign)."""
    got, ref = np.asarray(got.numpy() if isinstance(got, lazycl.Array) else got), np.asarray(ref)
    keep = ~np.isnan(ref)
    np.testing.assert_array_equal(np.signbit(got[keep]), np.signbit(ref[keep]))


def launches(*arrays):
    lazycl.reset_stats()
    lazycl.compute(*arrays)
    return lazycl.stats()["launches"]


def specials(dtype):
    """NaN (both signs), +-inf, +-0, subnormals, the extremes and ordinary values."""
    fi = np.finfo(dtype)
    sub = fi.smallest_subnormal
    v = [np.nan, np.copysign(np.nan, -1), np.inf, -np.inf, 0.0, -0.0, sub, -sub, 3 * sub,
         fi.smallest_normal, -fi.smallest_normal, fi.max, -fi.max, 1.0, -1.0, 0.5, 2.5, -7.25,
         1e-30, 123456.789]
    return np.array(v, dtype=dtype)


# ---- unary ufuncs over every dtype ------------------------------------------------------

UNARY = ["fabs", "deg2rad", "rad2deg", "degrees", "radians", "signbit", "spacing", "frexp",
         "modf"]


@pytest.mark.parametrize("dtype", core(ALL_DTYPES))
@pytest.mark.parametrize("op", UNARY)
def test_unary_dtypes(op, dtype):
    a = make(dtype, (3, 5), seed=4)
    check(getattr(lazycl, op)(lz(a)), np_ref(getattr(np, op), a))


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@pytest.mark.parametrize("op", UNARY + ["sinc"])
def test_unary_special_values(op, dtype):
    a = specials(dtype)
    ref = np_ref(getattr(np, op), a)
    tol = (2e-6, 1e-7) if op == "sinc" and dtype == "float32" else \
        (1e-13, 1e-15) if op == "sinc" else (0, 0)
    check(getattr(lazycl, op)(lz(a)), ref, *tol)
    if op in ("modf", "frexp", "fabs", "spacing"):
        # The signs of zeros are part of the answer.
        got = getattr(lazycl, op)(lz(a))
        for g, r in zip(got if isinstance(got, tuple) else (got,),
                        ref if isinstance(ref, tuple) else (ref,)):
            same_signs(g, r)


def test_signbit_of_negative_nan_and_zero():
    a = np.array([np.copysign(np.nan, -1), np.nan, -0.0, 0.0, -np.inf], np.float64)
    assert lazycl.signbit(lz(a)).tolist() == [True, False, True, False, True]


@pytest.mark.parametrize("dtype", core(ALL_DTYPES))
def test_sinc_dtypes(dtype):
    a = make(dtype, (4, 3), seed=7)
    ref = np.sinc(a)
    tol = (2e-6, 1e-7) if ref.dtype == np.float32 else (1e-13, 1e-15)
    check(lazycl.sinc(lz(a)), ref, *tol)


def test_fabs_gives_floats_as_numpy():
    """np.fabs has only float loops: integers and bools come back as floats (int8 as float16
    in NumPy, float32 in lazycl)."""
    assert lazycl.fabs(lz(np.array([-3, 4], np.int64))).dtype == np.float64
    assert lazycl.fabs(lz(np.array([-3, 4], np.int16))).dtype == np.float32
    assert lazycl.fabs(lz(np.array([-3, 4], np.int8))).dtype == np.float32
    assert lazycl.fabs(-3).tolist() == 3.0


# ---- binary ufuncs -----------------------------------------------------------------------

BINARY = ["nextafter", "ldexp", "gcd", "lcm", "float_power", "divmod"]
TOL = {"float_power": (1e-13, 1e-300)}


def _binary_data(op, dt1, dt2):
    a = make(dt1, (4, 5), seed=11)
    b = make(dt2, (4, 5), seed=12)
    if op == "ldexp" and np.dtype(dt2).kind in "iu":
        b = make(dt2, (4, 5), seed=12, lo=-60, hi=60)
    if op == "float_power":
        a = np.abs(a) if np.dtype(dt1).kind != "b" else a
        b = make(dt2, (4, 5), seed=12, lo=-3, hi=3) if np.dtype(dt2).kind != "u" else \
            make(dt2, (4, 5), seed=12, lo=0, hi=3)
    return a, b


def _run_binary(op, a, b):
    f, g = getattr(np, op), getattr(lazycl, op)
    la = lz(a) if isinstance(a, np.ndarray) else a
    lb = lz(b) if isinstance(b, np.ndarray) else b
    try:
        ref = np_ref(f, a, b)
    except (TypeError, OverflowError) as e:
        with pytest.raises(type(e)) as info:
            g(la, lb)
        assert str(info.value) == str(e)
        return
    rtol, atol = TOL.get(op, (0, 0))
    if (rtol == 0 and ":gpu" in lazycl.default_device().filter_string and
            np.asarray(ref[0] if isinstance(ref, tuple) else ref).dtype == np.float32):
        rtol = 2.4e-7   # a GPU's float32 divide is within 2.5 ulp (OpenCL), not rounded exactly
    check(g(la, lb), ref, rtol, atol)


@pytest.mark.parametrize("dtype", core(ALL_DTYPES))
@pytest.mark.parametrize("op", BINARY)
def test_binary_same_dtype(op, dtype):
    _run_binary(op, *_binary_data(op, dtype, dtype))


PAIRS = [("int8", "int16"), ("uint8", "int8"), ("int32", "uint32"), ("uint64", "int64"),
         ("float32", "int16"), ("float32", "int64"), ("int16", "float32"), ("float64", "uint64"),
         ("bool", "int32"), ("float32", "float64"), ("float32", "uint32")]


@pytest.mark.parametrize("dt1,dt2", PAIRS)
@pytest.mark.parametrize("op", BINARY)
def test_binary_mixed_dtypes(op, dt1, dt2):
    _run_binary(op, *_binary_data(op, dt1, dt2))


@pytest.mark.parametrize("scalar", [3, -2, 2.5, True, 300, 2 ** 70])
@pytest.mark.parametrize("dtype", ["int8", "uint8", "int64", "float32", "float64"])
@pytest.mark.parametrize("op", BINARY)
def test_binary_python_scalars(op, dtype, scalar):
    """Python scalars are weak (NEP 50): NumPy's dtype, and NumPy's OverflowError or TypeError
    where it refuses one; on either side."""
    a = make(dtype, (6,), seed=3, lo=1 if op in ("float_power",) else None)
    _run_binary(op, a, scalar)
    if op not in ("ldexp",):
        _run_binary(op, scalar, a)


def test_binary_errors_are_numpys():
    f = lz(np.ones(3, np.float32))
    with pytest.raises(TypeError, match="ufunc 'gcd'"):
        lazycl.gcd(f, 2)
    with pytest.raises(TypeError, match="ufunc 'lcm'"):
        lazycl.lcm(lz(np.ones(3, np.uint64)), lz(np.ones(3, np.int64)))
    with pytest.raises(TypeError, match="ufunc 'ldexp' not supported"):
        lazycl.ldexp(f, 1.0)
    with pytest.raises(TypeError, match="ufunc 'ldexp' not supported"):
        lazycl.ldexp(f, lz(np.ones(3, np.uint64)))
    with pytest.raises(OverflowError):
        lazycl.gcd(lz(np.ones(3, np.int8)), 300)


def test_nextafter_special_values():
    for dt in FLOAT_DTYPES:
        a = specials(dt)
        for to in (np.inf, -np.inf, 0.0, -0.0, np.nan, 1.0):
            ref = np.nextafter(a, np.array(to, dt))
            got = lazycl.nextafter(lz(a), lz(np.array(to, dt)))
            assert_same(got, ref)
            same_signs(got, ref)
        b = specials(dt)[::-1].copy()
        assert_same(lazycl.nextafter(lz(a), lz(b)), np.nextafter(a, b))


def test_ldexp_special_values():
    for dt in FLOAT_DTYPES:
        a = specials(dt)
        for n in (0, 1, -1, 24, -24, 149, -149, 1074, -1075, 2000, -2000, 2 ** 40, -2 ** 40):
            for ndt in ("int32", "int64"):
                if np.iinfo(ndt).min <= n <= np.iinfo(ndt).max:
                    e = np.full(a.shape, n, ndt)
                    ref = np.ldexp(a, e)
                    got = lazycl.ldexp(lz(a), lz(e))
                    assert_same(got, ref)
                    same_signs(got, ref)


def test_frexp_round_trips_subnormals():
    for dt in FLOAT_DTYPES:
        fi = np.finfo(dt)
        a = np.array([fi.smallest_subnormal * k for k in (1, 2, 3, 1000)] +
                     [fi.smallest_normal * 0.75, -fi.smallest_subnormal], dt)
        m, e = lazycl.frexp(lz(a))
        rm, re = np.frexp(a)
        assert_same(m, rm)
        assert_same(e, re)
        assert_same(lazycl.ldexp(m, e), a)


def test_gcd_lcm_extremes():
    for dt in INT_DTYPES:
        info = np.iinfo(dt)
        v = np.array([info.min, info.max, 0, 1, info.max - 1, info.min + 1 if info.min else 2,
                      12, 18], dt)
        a, b = np.meshgrid(v, v)
        assert_same(lazycl.gcd(lz(a), lz(b)), np.gcd(a, b))
        assert_same(lazycl.lcm(lz(a), lz(b)), np.lcm(a, b))


def test_divmod_floats_special():
    a = np.array([5.5, -5.5, 5.5, -5.5, 1.0, -1.0, 0.0, -0.0, np.inf, np.nan, 1.0], np.float64)
    b = np.array([2.0, 2.0, -2.0, -2.0, 0.0, 0.0, 3.0, 3.0, 2.0, 1.0, np.inf], np.float64)
    q, r = lazycl.divmod(lz(a), lz(b))
    rq, rr = np.divmod(a, b)
    assert_same(q, rq)
    assert_same(r, rr)
    same_signs(r, rr)


def test_float_power_is_pow_not_sqrt():
    """np.float_power uses pow for every exponent: pow(-0.0, 0.5) is +0.0 and pow(-inf, 0.5)
    is +inf, where sqrt gives -0.0 and NaN (lazycl's power takes x**0.5 as sqrt)."""
    a = np.array([-0.0, -np.inf, 4.0, -8.0], np.float64)
    for e in (0.5, np.array(0.5), 2, -1):
        ref = np.float_power(a, e)
        got = lazycl.float_power(lz(a), lz(e) if isinstance(e, np.ndarray) else e)
        assert_same(got, ref, 1e-15, 0)
        same_signs(got, ref)
    assert lazycl.float_power(lz(np.array(4.0)), 0.5).shape == ()
    assert lazycl.float_power(lz(np.array([2], np.float32)), 3).dtype == np.float64


# ---- shapes and layouts ----------------------------------------------------------------------

def _layouts(dtype):
    base = make(dtype, (6, 8), seed=21)
    return {
        "0d": (base[2, 3].copy(), lambda x: x),
        "empty": (base[:0], lambda x: x),
        "strided": (base, lambda x: x[::2, 1::3]),
        "negative": (base, lambda x: x[::-1, ::-2]),
        "transposed": (base, lambda x: x.T),
    }


@pytest.mark.parametrize("layout", ["0d", "empty", "strided", "negative", "transposed"])
@pytest.mark.parametrize("op", ["spacing", "frexp", "modf", "signbit", "deg2rad", "sinc"])
def test_unary_layouts(op, layout):
    a, view = _layouts("float32")[layout]
    ref = np_ref(getattr(np, op), view(a))
    tol = (2e-6, 1e-7) if op == "sinc" else (0, 0)
    check(getattr(lazycl, op)(view(lz(a))), ref, *tol)


@pytest.mark.parametrize("layout", ["0d", "empty", "strided", "negative", "transposed"])
@pytest.mark.parametrize("op", ["nextafter", "ldexp", "gcd", "lcm", "divmod", "float_power"])
def test_binary_layouts_and_broadcast(op, layout):
    dt = "int32" if op in ("gcd", "lcm", "divmod") else "float64"
    a, view = _layouts(dt)[layout]
    x = view(a)
    # the second operand broadcasts along x's first dim (a row), or is 0-d
    b = make("int16" if op == "ldexp" else dt, x.shape[1:] if x.ndim else (), seed=22,
             lo=1 if op == "float_power" else None)
    ref = np_ref(getattr(np, op), x, b)
    got = getattr(lazycl, op)(view(lz(a)), lz(b)[::-1][::-1] if b.ndim else lz(b))
    check(got, ref, *TOL.get(op, (0, 0)))


# ---- fusion --------------------------------------------------------------------------------

def test_elementwise_ones_fuse_with_their_neighbours():
    a = make("float32", (50, 40), seed=31)
    i = make("int32", (50, 40), seed=32)
    j = make("int32", (50, 40), seed=33)
    x, ia, ja = lz(a).compute(), lz(i).compute(), lz(j).compute()
    cases = [
        (lambda: lazycl.sinc(x) * 2 + 1, lambda: np.sinc(a) * 2 + 1, (2e-6, 2e-6)),
        (lambda: lazycl.gcd(ia, ja) + 1, lambda: np.gcd(i, j) + 1, (0, 0)),
        (lambda: lazycl.lcm(ia + 1, ja) * 2, lambda: np.lcm(i + 1, j) * 2, (0, 0)),
        (lambda: lazycl.spacing(x * 3) + x, lambda: np.spacing(a * 3) + a, (0, 0)),
        (lambda: lazycl.nextafter(x, 0) - x, lambda: np.nextafter(a, 0) - a, (0, 0)),
        (lambda: lazycl.ldexp(x + 1, ia % 7), lambda: np.ldexp(a + 1, i % 7), (0, 0)),
        (lambda: lazycl.deg2rad(x) + lazycl.rad2deg(x), lambda: np.deg2rad(a) + np.rad2deg(a),
         (0, 0)),
        (lambda: lazycl.signbit(x - 1) | lazycl.isclose(x, 1.0),
         lambda: np.signbit(a - 1) | np.isclose(a, 1.0), (0, 0)),
        (lambda: lazycl.nan_to_num(lazycl.log(x)) * 2, lambda: np.nan_to_num(np.log(a)) * 2,
         (1e-6, 1e-6)),
        (lambda: lazycl.polyval([1.5, -2, 3], x) + 1, lambda: np.polyval([1.5, -2, 3], a) + 1,
         (1e-6, 1e-5)),
        (lambda: lazycl.float_power(x, 2) - 1, lambda: np.float_power(a, 2) - 1, (1e-13, 0)),
    ]
    for got, ref, tol in cases:
        y = got()
        assert launches(y) == 1
        assert_same(y, ref(), *tol)


def test_two_output_ufuncs_are_one_kernel():
    a = make("float64", (30, 7), seed=34)
    x = lz(a).compute()
    m, e = lazycl.frexp(x * 3)
    assert launches(m, e) == 1
    check((m, e), np.frexp(a * 3))
    f, i = lazycl.modf(x * 3)
    assert launches(f, i) == 1
    check((f, i), np.modf(a * 3))
    q, r = lazycl.divmod(x, 0.75)
    assert launches(q, r) == 1
    check((q, r), np.divmod(a, 0.75))


def test_reductions_fuse_their_prologue():
    a = make("float64", (200,), seed=35)
    x = lz(a).compute()
    r = lazycl.convolve(x, lz(np.array([0.25, 0.5, 0.25])).compute(), "same")
    assert launches(r) == 1
    assert_same(r, np.convolve(a, [0.25, 0.5, 0.25], "same"), 1e-14, 1e-15)
    g = lazycl.gradient(x * 2)
    assert launches(g) == 1
    assert_same(g, np.gradient(a * 2), 1e-15, 0)
    s = lazycl.sum(lazycl.isclose(x, x + 1e-9))
    assert launches(s) == 1
    assert int(s) == 200


# ---- isclose and friends -----------------------------------------------------------------------

@pytest.mark.parametrize("dtype", core(ALL_DTYPES))
def test_isclose_dtypes(dtype):
    a = make(dtype, (5, 6), seed=41)
    b = a.copy()
    if a.dtype.kind == "f":
        b = (a * (1 + np.linspace(-3e-5, 3e-5, 30).reshape(5, 6))).astype(dtype)
        b[0, :3] = [np.nan, np.inf, -np.inf]
        a[0, :3] = [np.nan, np.inf, np.inf]
    elif a.dtype.kind in "iu":
        b[1] += 1
    for kw in ({}, {"equal_nan": True}, {"rtol": 1e-3}, {"atol": 0.5, "rtol": 0}):
        assert_same(lazycl.isclose(lz(a), lz(b), **kw), np.isclose(a, b, **kw))
        assert lazycl.allclose(lz(a), lz(b), **kw) is np.allclose(a, b, **kw)
        assert_same(lazycl.isclose(lz(a), b[0], **kw), np.isclose(a, b[0], **kw))


def test_isclose_scalars_and_tolerance_arrays():
    a = np.array([1.0, 1.00001, 1.1, np.nan], np.float32)
    for b in (1, 1.0, np.float64(1.0), np.float32(1.0), np.int64(1), True):
        assert_same(lazycl.isclose(lz(a), b), np.isclose(a, b))
        assert_same(lazycl.isclose(b, lz(a)), np.isclose(b, a))
    rtol = np.array([1e-6, 1e-4, 1e-2, 1e-1])
    assert_same(lazycl.isclose(lz(a), 1.0, rtol=lz(rtol)), np.isclose(a, 1.0, rtol=rtol))
    got = lazycl.isclose(1.0, 1.0 + 1e-9)
    assert got.shape == () and bool(got)
    i8 = np.array([-128, 127, 0], np.int8)       # |MIN| is no trouble: y is made a float
    assert_same(lazycl.isclose(lz(i8), lz(i8)), np.isclose(i8, i8))
    with pytest.warns(RuntimeWarning, match="One of rtol or atol is not valid"):
        lazycl.isclose(lz(a), 1.0, atol=np.inf)


def test_array_equal_and_equiv():
    a = np.array([1.0, np.nan, 3.0])
    for x, y, kw in [(a, a.copy(), {}), (a, a.copy(), {"equal_nan": True}),
                     (a, np.array([1.0, 2.0, 3.0]), {"equal_nan": True}),
                     (a, a[:2], {}), (np.arange(6).reshape(2, 3), np.arange(6), {}),
                     (np.arange(3), np.arange(3, dtype=np.uint8), {}),
                     (np.arange(3), np.arange(3) + 1, {"equal_nan": True}),
                     (np.zeros((0, 3)), np.zeros((0, 3)), {})]:
        got = lazycl.array_equal(lz(x), lz(y), **kw)
        assert got is np.array_equal(x, y, **kw)
        assert lazycl.array_equal(lz(x), y, **kw) is np.array_equal(x, y, **kw)
    la = lz(a)
    assert lazycl.array_equal(la, la, equal_nan=True) is True
    for x, y in [(np.ones((2, 3)), np.ones(3)), (np.ones((2, 3)), np.ones(2)),
                 (np.arange(3), [0, 1, 2]), (np.arange(3), [[0, 1, 2], [0, 1, 3]])]:
        assert lazycl.array_equiv(lz(x), y) is np.array_equiv(x, y)


@pytest.mark.parametrize("dtype", core(ALL_DTYPES))
def test_nan_to_num(dtype):
    a = make(dtype, (7,), seed=51)
    if a.dtype.kind == "f":
        a[:4] = [np.nan, np.inf, -np.inf, -0.0]
    for kw in ({}, {"nan": -1.5, "posinf": 1e300, "neginf": -7}, {"nan": np.float64(2)}):
        ref = np.nan_to_num(a, **kw)
        got = lazycl.nan_to_num(lz(a), **kw)
        assert_same(got, ref)


def test_nan_to_num_copy_false_writes_in_place():
    a = np.array([np.nan, 1.0, np.inf, -np.inf], np.float32)
    x = lz(a)
    v = x[1:]                                  # a view sees the write
    before = x * 1                             # an expression built before keeps the old values
    r = lazycl.nan_to_num(x, copy=False, posinf=5)
    assert r is x
    ref = np.nan_to_num(a, posinf=5)
    assert_same(x, ref)
    assert_same(v, ref[1:])
    assert_same(before, a)
    h = a.copy()
    assert lazycl.nan_to_num(h, copy=False) is h
    assert_same(h, np.nan_to_num(a))
    i = lz(np.arange(3))
    assert lazycl.nan_to_num(i, copy=False) is i
    assert lazycl.nan_to_num(i) is not i


# ---- interp ---------------------------------------------------------------------------------

def test_interp_against_numpy():
    rng = np.random.default_rng(61)
    xp = np.sort(rng.uniform(-5, 5, 40))
    xp[10] = xp[11]                                    # a repeated sample point
    fp = rng.normal(size=40)
    x = np.concatenate([rng.uniform(-7, 7, 299), xp, [np.nan, -np.inf, np.inf]])
    for kw in ({}, {"left": -10.0, "right": 10}, {"left": np.nan}):
        assert_same(lazycl.interp(lz(x), xp, fp, **kw), np.interp(x, xp, fp, **kw), 1e-14,
                    1e-15)
        assert_same(lazycl.interp(lz(x), lz(xp), lz(fp), **kw), np.interp(x, xp, fp, **kw),
                    1e-14, 1e-15)
    xs = x.reshape(3, -1)[:, ::-3]
    assert_same(lazycl.interp(lz(x).reshape(3, -1)[:, ::-3], xp, fp), np.interp(xs, xp, fp),
                1e-14, 1e-15)


def test_interp_special_cases():
    xp = np.array([0.0, 1.0, 2.0, np.inf])
    fp = np.array([0.0, np.inf, 1.0, 1.0])
    x = np.array([0.5, 1.0, 1.5, 3.0, 1e308, 2.0, -1])
    assert_same(lazycl.interp(lz(x), xp, fp), np.interp(x, xp, fp))
    # one sample point; 0-d x; integer inputs give float64
    assert_same(lazycl.interp(lz(np.array([-1.0, 1.0, 3.0, np.nan])), [1.0], [5.0], 0, 9),
                np.interp([-1.0, 1.0, 3.0, np.nan], [1.0], [5.0], 0, 9))
    assert_same(lazycl.interp(lz(np.array(1.5)), [1, 2], [3, 5]), np.interp(1.5, [1, 2], [3, 5]))
    assert_same(lazycl.interp(lz(np.arange(5, dtype=np.int8)), np.array([0, 2, 4], np.uint8),
                              [1, 0, 1]),
                np.interp(np.arange(5, dtype=np.int8), np.array([0, 2, 4], np.uint8), [1, 0, 1]))
    assert_same(lazycl.interp(lz(np.zeros(0)), [0, 1], [0, 1]), np.interp([], [0, 1], [0, 1]))


def test_interp_period():
    x = np.array([-180.0, -170, -185, 185, -10, -5, 0, 365, 190, 360, 720.5])
    xp = np.array([190.0, -190, 350, -350])
    fp = np.array([5.0, 10, 3, 4])
    assert_same(lazycl.interp(lz(x), xp, fp, period=360), np.interp(x, xp, fp, period=360),
                1e-14, 1e-15)
    assert_same(lazycl.interp(lz(x), lz(xp), lz(fp), period=-360, left=1, right=2),
                np.interp(x, xp, fp, period=-360, left=1, right=2), 1e-14, 1e-15)


def test_interp_errors():
    x = lz(np.array([1.0]))
    for args, kw in [(([], []), {}), (([1, 2], [1]), {}), ((5, [1]), {}),
                     (([[1, 2]], [1, 2]), {}), (([1, 2], [1, 2]), {"period": 0}),
                     (([[1, 2]], [1, 2]), {"period": 1}), (([1, 2], [1, 2, 3]), {"period": 1})]:
        with pytest.raises(ValueError) as ref:
            np.interp([1.0], *args, **kw)
        with pytest.raises(ValueError) as got:
            lazycl.interp(x, *args, **kw)
        assert str(got.value) == str(ref.value)


# ---- convolve / correlate --------------------------------------------------------------------

@pytest.mark.parametrize("dtype", core(ALL_DTYPES))
def test_convolve_correlate_dtypes(dtype):
    a = make(dtype, (9,), seed=71)
    v = make(dtype, (4,), seed=72)
    tol = (2e-6, 1e-5) if dtype == "float32" else (1e-14, 1e-13) if dtype == "float64" else (0, 0)
    for mode in ("full", "same", "valid"):
        for x, y in ((a, v), (v, a)):
            assert_same(lazycl.convolve(lz(x), lz(y), mode), np.convolve(x, y, mode), *tol)
            assert_same(lazycl.correlate(lz(x), lz(y), mode), np.correlate(x, y, mode), *tol)


def test_convolve_correlate_wrap_mix_and_layouts():
    a = np.array([100, 100, -100, 7], np.int8)
    v = np.array([3, 3], np.int8)
    assert_same(lazycl.convolve(lz(a), lz(v)), np.convolve(a, v))        # wraps in int8
    f = make("float32", (11,), seed=73)
    assert_same(lazycl.correlate(lz(f), lz(v), 1), np.correlate(f, v, 1), 2e-6, 1e-5)
    assert_same(lazycl.correlate(lz(f)[::-2], [1, 2], "full"), np.correlate(f[::-2], [1, 2],
                                                                               "full"), 2e-6, 1e-6)
    assert_same(lazycl.convolve(lz(np.array(3.0)), [1, 2]), np.convolve(3.0, [1, 2]))
    assert_same(lazycl.convolve(lz(f), [2.0]), np.convolve(f, [2.0]))
    for mode in (0, 1, 2, np.int64(1)):
        assert_same(lazycl.correlate(lz(f), [1.0, -1.0], mode),
                    np.correlate(f, [1.0, -1.0], mode), 1e-6, 1e-6)


def test_convolve_correlate_errors():
    f = np.arange(4.0)
    cases = [(np.correlate, (f, [1.0], "bad")), (np.correlate, (f, [1.0], "VALID")),
             (np.correlate, (f, [1.0], "f")), (np.correlate, (f, [1.0], 5)),
             (np.correlate, (f, [1.0], None)), (np.correlate, (f, [1.0], "")),
             (np.correlate, (f, [1.0], True)), (np.correlate, (f, [1.0], 1.0)),
             (np.correlate, (f, [])), (np.correlate, (np.zeros(0), [1.0])),
             (np.correlate, (np.float64(2), [1.0])), (np.correlate, (f.reshape(2, 2), [1.0])),
             (np.convolve, (f, [])), (np.convolve, (np.zeros(0), [1.0])),
             (np.convolve, (f, [1.0], "bad"))]
    for fn, args in cases:
        with pytest.raises((ValueError, TypeError)) as ref:
            fn(*args)
        largs = (lz(np.asarray(args[0])),) + args[1:]
        with pytest.raises(ref.type) as got:
            getattr(lazycl, fn.__name__)(*largs)
        assert str(got.value) == str(ref.value)


# ---- gradient -----------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ["int8", "int64", "uint16", "float32", "float64"])
def test_gradient_dtypes_and_edge_orders(dtype):
    f = make(dtype, (6, 7), seed=81)
    for kw in ({}, {"edge_order": 2}, {"axis": 1}, {"axis": (-1, 0), "edge_order": 2}):
        for spacing in ((), (0.5,), (2,), (np.float64(0.5),), (np.float32(0.5), 3)):
            if len(spacing) == 2 and kw.get("axis") in (1,):
                continue
            try:
                ref = np.gradient(f, *spacing, **kw)
            except TypeError:
                continue
            got = lazycl.gradient(lz(f), *spacing, **kw)
            tol = (1e-6, 1e-6) if f.dtype == np.float32 else (1e-15, 1e-15)
            if isinstance(ref, list | tuple):
                assert isinstance(got, tuple) and len(got) == len(ref)
                for g, r in zip(got, ref):
                    assert_same(g, r, *tol)
            else:
                assert_same(got, ref, *tol)


def test_gradient_coordinates():
    f = make("float64", (5, 8), seed=82)
    x = np.array([0.0, 1.0, 1.5, 3.5, 4.0, 6.0, 7.0, 10.0])
    y = np.arange(5)                      # integer and uniform: becomes the scalar 1.0
    for eo in (1, 2):
        ref = np.gradient(f, y, x, edge_order=eo)
        got = lazycl.gradient(lz(f), y, lz(x), edge_order=eo)
        for g, r in zip(got, ref):
            assert_same(g, r, 1e-14, 1e-14)
        assert_same(lazycl.gradient(lz(f), x, axis=1, edge_order=eo),
                    np.gradient(f, x, axis=1, edge_order=eo), 1e-14, 1e-14)
    f32 = f.astype(np.float32)
    assert_same(lazycl.gradient(lz(f32), x, axis=-1), np.gradient(f32, x, axis=-1), 1e-6, 1e-6)
    for g, r in zip(lazycl.gradient(lz(f)[::-1, ::2], 2.0), np.gradient(f[::-1, ::2], 2.0)):
        assert_same(g, r, 1e-15, 0)


def test_gradient_errors():
    f = np.arange(6.0).reshape(2, 3)
    cases = [((f,), {"edge_order": 3}), ((f, 1, 2, 3), {}), ((f, np.ones((2, 2)), 1), {}),
             ((f, [1, 2, 3], 1), {}), ((f,), {"edge_order": 2}), ((f,), {"axis": 2}),
             ((f,), {"axis": (0, 0)}), ((np.array([True, False, True]),), {}),
             ((np.arange(2.0),), {"edge_order": 0})]
    for args, kw in cases:
        with pytest.raises(Exception) as ref:
            np.gradient(*args, **kw)
        with pytest.raises(ref.type) as got:
            lazycl.gradient(lz(args[0]), *args[1:], **kw)
        assert str(got.value) == str(ref.value)


# ---- polyval --------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", core(ALL_DTYPES))
def test_polyval_dtypes(dtype):
    x = make(dtype, (3, 4), seed=91)
    for p in ([1, -2, 3], [0.5, 0.25], np.array([2, 1], np.int8), [True, False], []):
        ref = np.polyval(p, x)
        tol = (1e-6, 1e-6) if ref.dtype == np.float32 else (1e-15, 1e-15)
        assert_same(lazycl.polyval(p, lz(x)), ref, *tol)
    p = make(dtype, (4,), seed=92)
    ref = np.polyval(p, x)
    tol = (1e-6, 1e-5) if ref.dtype == np.float32 else (1e-14, 1e-14)
    assert_same(lazycl.polyval(lz(p), lz(x)), ref, *tol)


def test_polyval_scalar_x():
    got = lazycl.polyval([1, 2, 3], 2)
    assert got.shape == () and int(got) == 11


# ---- NumPy's dispatch -------------------------------------------------------------------------

def test_numpy_calls_stay_lazy():
    a = make("float64", (12,), seed=101)
    i = make("int64", (12,), seed=102)
    x, ix = lz(a), lz(i)
    with warnings.catch_warnings():
        warnings.simplefilter("error", lazycl.HostFallbackWarning)
        for name in ("fabs", "deg2rad", "rad2deg", "degrees", "radians", "signbit", "spacing",
                     "sinc", "nan_to_num"):
            check(getattr(np, name)(x), getattr(np, name)(a), 1e-13, 1e-15)
        for name in ("frexp", "modf"):
            check(getattr(np, name)(x), getattr(np, name)(a))
        check(np.divmod(x, 3.0), np.divmod(a, 3.0))
        check(divmod(x, 3.0), divmod(a, 3.0))
        check(divmod(7.0, x), divmod(7.0, a))
        check(np.gcd(ix, 6), np.gcd(i, 6))
        check(np.lcm(ix, ix), np.lcm(i, i))
        check(np.ldexp(x, ix), np.ldexp(a, i))
        check(np.nextafter(x, 0), np.nextafter(a, 0))
        check(np.float_power(x, 2), np.float_power(a, 2), 1e-14)
        check(np.gcd.outer(ix[:3], ix[:4]), np.gcd.outer(i[:3], i[:4]))
        check(np.isclose(x, a), np.isclose(a, a))
        assert np.allclose(x, a) is True
        assert np.array_equal(x, a) is True
        assert np.array_equiv(x, a[None]) is True
        check(np.interp(x, [0, 1], [1, 2]), np.interp(a, [0, 1], [1, 2]))
        check(np.convolve(x, [1, 2]), np.convolve(a, [1, 2]), 1e-14, 1e-14)
        check(np.correlate(x, [1, 2], "same"), np.correlate(a, [1, 2], "same"), 1e-14, 1e-14)
        check(np.gradient(x), np.gradient(a), 1e-15)
        check(np.polyval([1, 2], x), np.polyval([1, 2], a), 1e-15)


def test_two_output_ufuncs_take_out_tuples():
    a = make("float64", (6,), seed=103)
    x = lz(a)
    m, e = lz(np.zeros(6)), lz(np.zeros(6, np.int64))
    r = np.frexp(x, out=(m, e))
    assert r[0] is m and r[1] is e
    check((m, e), tuple(v.astype(w.dtype) for v, w in zip(np.frexp(a), (m, e))))
    f = lz(np.zeros(6))
    r = np.modf(x, out=(f, None))
    assert r[0] is f and isinstance(r[1], lazycl.Array)
    assert_same(f, np.modf(a)[0])
    assert_same(r[1], np.modf(a)[1])
    hq, hr = np.zeros(6), np.zeros(6)
    r = np.divmod(x, 2.0, out=(hq, hr))
    assert r[0] is hq and r[1] is hr
    np.testing.assert_array_equal(hq, np.divmod(a, 2.0)[0])
    np.testing.assert_array_equal(hr, np.divmod(a, 2.0)[1])
    with pytest.raises(TypeError, match="Cannot cast ufunc 'frexp' output"):
        np.frexp(x, out=(lz(np.zeros(6, bool)), lz(np.zeros(6, np.int32))))
    with pytest.raises(TypeError, match="Cannot cast ufunc 'gcd' output"):
        np.gcd(lz(np.arange(3)), 2, out=lz(np.zeros(3, bool)))
    with pytest.raises(ValueError, match="exactly one entry per ufunc output"):
        lazycl.modf(x, out=(lz(np.zeros(6)),) * 3)


# ---- every device ----------------------------------------------------------------------------

@pytest.mark.parametrize("dev", DEVICES, ids=[d.filter_string for d in DEVICES])
def test_new_ops_on_every_device(dev):
    for dt in FLOAT_DTYPES:
        a = specials(dt)
        b = specials(dt)[::-1].copy()
        assert_same(lazycl.nextafter(lz(a, dev), lz(b, dev)), np.nextafter(a, b))
        assert_same(lazycl.spacing(lz(a, dev)), np.spacing(a))
        check(lazycl.frexp(lz(a, dev)), np.frexp(a))
        n = np.arange(-1100, 1100, 110, dtype=np.int32)[:a.size]
        assert_same(lazycl.ldexp(lz(a, dev), lz(n, dev)), np.ldexp(a, n))
    for dt in INT_DTYPES:
        info = np.iinfo(dt)
        v = np.array([info.min, info.max, 0, 1, 12, 18, 35], dt)
        x, y = np.meshgrid(v, v)
        assert_same(lazycl.gcd(lz(x, dev), lz(y, dev)), np.gcd(x, y))
        assert_same(lazycl.lcm(lz(x, dev), lz(y, dev)), np.lcm(x, y))
