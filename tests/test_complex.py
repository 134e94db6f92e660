"""complex64 and complex128: arithmetic, the transcendental functions with NumPy's branch cuts
and special values, parts, casts and NEP 50 promotion, reductions, scans, sorting, products,
fusion, and NumPy's errors; every result against NumPy."""
import warnings

import numpy as np
import pytest

import lazycl
from conftest import DEVICES, FULL, core, lz

CDTYPES = ["complex64", "complex128"]


TOL = {"complex64": dict(rtol=2e-5, atol=2e-6), "complex128": dict(rtol=1e-12, atol=1e-13)}


def cdata(dtype, shape, seed=0, scale=3.0):
    rng = np.random.default_rng(seed)
    return (rng.uniform(-scale, scale, shape) + 1j * rng.uniform(-scale, scale, shape)).astype(dtype)


def check(got, ref, dtype=None, **tol):
    got = got.numpy() if isinstance(got, lazycl.Array) else np.asarray(got)
    ref = np.asarray(ref)
    assert got.dtype == ref.dtype, f"dtype {got.dtype}, expected {ref.dtype}"
    assert got.shape == ref.shape
    if tol:
        np.testing.assert_allclose(got, ref, equal_nan=True, **tol)
    else:
        np.testing.assert_array_equal(got, ref)


@pytest.fixture(params=DEVICES, ids=[d.filter_string for d in DEVICES])
def dev(request):
    return request.param


# ---- values, views, casts --------------------------------------------------------------------

@pytest.mark.parametrize("dt", CDTYPES)
@pytest.mark.parametrize("shape", [(), (0,), (7,), (3, 4), (2, 0, 3)])
def test_round_trip_and_views(dev, dt, shape):
    z = cdata(dt, shape)
    a = lz(z, dev)
    assert a.dtype == np.dtype(dt)
    check(a, z)
    if z.ndim == 2:
        check(a[::-1, 1::2], z[::-1, 1::2])
        check(a.T, z.T)
        check(a[[2, 0]], z[[2, 0]])


def test_scalars_and_fill(dev):
    check(lazycl.full((2, 3), 1 - 2j, device=dev), np.full((2, 3), 1 - 2j))
    check(lazycl.zeros(3, dtype="complex64", device=dev), np.zeros(3, np.complex64))
    check(lazycl.ones(2, dtype=np.complex128, device=dev), np.ones(2, np.complex128))
    assert complex(lazycl.asarray(2 + 3j, device=dev)) == 2 + 3j
    assert lazycl.asarray(np.complex64(1 + 1j), device=dev).dtype == np.complex64
    a = lz(cdata("complex64", (4,)), dev)
    a[1] = 5j
    z = cdata("complex64", (4,))
    z[1] = 5j
    check(a, z)


@pytest.mark.parametrize("src", ["bool", "int8", "int32", "uint64", "float32", "float64"])
@pytest.mark.parametrize("dt", CDTYPES)
def test_cast_to_complex(dev, src, dt):
    x = (np.arange(-3, 5) % 3 == 0) if src == "bool" else np.arange(-3, 5).astype(src)
    if src.startswith("uint"):
        x = np.arange(8).astype(src)
    check(lz(x, dev).astype(dt), x.astype(dt))


@pytest.mark.parametrize("to", ["bool", "int16", "uint8", "float32", "float64", "complex64",
                                "complex128"])
def test_cast_from_complex(dev, to):
    z = np.array([0, 1.5 - 2j, -2.25 + 0j, 1j, 0 + 0j, 3 + 4j], np.complex128)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        ref = z.astype(to)
    if to[0] in "fiu":
        with pytest.warns(np.exceptions.ComplexWarning):
            got = lz(z, dev).astype(to)
    else:
        got = lz(z, dev).astype(to)
    check(got, ref)


@pytest.mark.parametrize("a,b", [("complex64", "float64"), ("complex64", "int32"),
                                 ("complex64", "int16"), ("complex64", "uint64"),
                                 ("complex128", "float32"), ("complex64", "complex128"),
                                 ("bool", "complex64")])
def test_promotion(dev, a, b):
    x, y = np.ones(3, a), np.full(3, 2, b)
    got = lz(x, dev) + lz(y, dev)
    check(got, x + y)


@pytest.mark.parametrize("dt", ["float32", "float64", "int8", "int64", "complex64", "bool"])
def test_python_complex_scalar_is_weak(dev, dt):
    x = np.arange(4).astype(dt)
    check(lz(x, dev) * (1 + 2j), x * (1 + 2j))
    check((2 - 1j) - lz(x, dev), (2 - 1j) - x)
    if dt.startswith("complex"):
        check(lz(x, dev) + 2.5, x + 2.5)


# ---- elementwise ----------------------------------------------------------------------------

BINARY = ["add", "subtract", "multiply", "divide", "power", "equal", "not_equal", "less",
          "less_equal", "greater", "greater_equal", "maximum", "minimum", "fmax", "fmin",
          "logical_and", "logical_or", "logical_xor"]
UNARY = ["negative", "positive", "absolute", "sign", "square", "reciprocal", "exp", "expm1",
         "exp2", "log", "log1p", "log2", "log10", "sqrt", "sin", "cos", "tan", "sinh", "cosh",
         "tanh", "arcsin", "arccos", "arctan", "arcsinh", "arccosh", "arctanh", "isnan", "isinf",
         "isfinite", "logical_not", "conjugate", "rint"]


@pytest.mark.parametrize("dt", core(CDTYPES, ["complex64"]))
@pytest.mark.parametrize("op", UNARY)
def test_unary(dev, dt, op):
    z = cdata(dt, (5, 40), seed=1)
    z[0, :4] = [0, 1, -1, 1j]                    # zeros, branch points
    check(getattr(lazycl, op)(lz(z, dev)), getattr(np, op)(z), **TOL[dt])


@pytest.mark.parametrize("dt", core(CDTYPES, ["complex128"]))
@pytest.mark.parametrize("op", BINARY)
def test_binary_broadcast(dev, dt, op):
    x = cdata(dt, (4, 1, 6), seed=2, scale=2)
    y = cdata(dt, (5, 1), seed=3, scale=2)
    y[0, 0] = x[0, 0, 0]                          # equal values for the comparisons
    x[1, 0, :2] = [0, 2]
    y[1, 0] = 0
    with np.errstate(all="ignore"):
        ref = getattr(np, op)(x, y)
    got = getattr(lazycl, op)(lz(x, dev), lz(y, dev))
    check(got, ref, **TOL[dt])


# Special values on and off the branch cuts (signed zeros pick the side), and non-finite
# inputs, against NumPy's npymath.
SPECIAL = np.array([complex(a, b) for a in (0.0, -0.0, 2.0, -2.0, 0.5, np.inf, -np.inf, np.nan)
                    for b in (0.0, -0.0, 1.0, -1.0, np.inf, np.nan)], np.complex128)


@pytest.mark.parametrize("dt", CDTYPES)
@pytest.mark.parametrize("op", ["exp", "log", "sqrt", "arcsin", "arccos", "arctan", "arcsinh",
                                "arccosh", "arctanh", "sin", "cos", "tan", "sinh", "cosh", "tanh",
                                "expm1", "log1p", "exp2", "log2", "log10", "reciprocal", "square",
                                "absolute", "sign", "isnan", "isinf", "isfinite"])
def test_special_values(dev, op, dt):
    """Every input of SPECIAL gives NumPy's value: C99 Annex G's for the non-finite ones, the
    side of a branch cut a signed zero picks, and the sign of every zero in the result."""
    z = SPECIAL.astype(dt)
    with np.errstate(all="ignore"):
        ref = getattr(np, op)(z)
    got = getattr(lazycl, op)(lz(z, dev)).numpy()
    assert got.dtype == ref.dtype
    tol = 1e-12 if dt == "complex128" else 2e-6
    parts = (lambda v: (v.real, v.imag)) if ref.dtype.kind == "c" else (lambda v: (v,))
    for g, r in zip(parts(got), parts(ref)):
        np.testing.assert_allclose(g, r, rtol=tol, atol=0, equal_nan=True, err_msg=op)
        if g.dtype.kind == "f":
            num = ~np.isnan(r)
            bad = np.flatnonzero(np.signbit(g[num]) != np.signbit(r[num]))
            assert bad.size == 0, (op, z[num][bad], got[num][bad], ref[num][bad])


def test_parts_and_angle(dev):
    z = cdata("complex64", (3, 4))
    a = lz(z, dev)
    check(a.real, z.real)
    check(a.imag, z.imag)
    check(lazycl.real(a), np.real(z))
    check(lazycl.conj(a), np.conj(z))
    check(a.conj(), z.conj())
    check(lazycl.angle(a), np.angle(z), rtol=1e-6)
    check(lazycl.angle(a, deg=True), np.angle(z, deg=True), rtol=1e-5)
    x = np.arange(-2, 3, dtype=np.float32)
    check(lazycl.imag(lz(x, dev)), np.imag(x))
    check(lazycl.angle(lz(x, dev)), np.angle(x))
    # NumPy's own functions stay lazy on lazycl arrays
    assert isinstance(np.real(a), lazycl.Array) and isinstance(np.angle(a), lazycl.Array)
    assert isinstance(np.conjugate(a), lazycl.Array)


@pytest.mark.parametrize("op", ["floor", "ceil", "trunc", "cbrt", "floor_divide", "remainder",
                                "arctan2", "hypot", "copysign", "bitwise_and", "invert",
                                "left_shift"])
def test_no_complex_loop(dev, op):
    z = lz(cdata("complex64", (3,)), dev)
    f = getattr(lazycl, op)
    with pytest.raises(TypeError, match=op):
        f(z) if op in ("floor", "ceil", "trunc", "cbrt", "invert") else f(z, z)
    with pytest.raises(TypeError):
        getattr(np, op)(cdata("complex64", (3,))) if op in (
            "floor", "ceil", "trunc", "cbrt", "invert") else getattr(np, op)(
            cdata("complex64", (3,)), cdata("complex64", (3,)))


# ---- reductions, scans, sorting ---------------------------------------------------------------

@pytest.mark.parametrize("dt", CDTYPES)
@pytest.mark.parametrize("axis", [None, 0, 1, (0, 2)])
def test_reductions(dev, dt, axis):
    z = cdata(dt, (6, 5, 40), seed=4, scale=1)
    a = lz(z, dev)
    tol = TOL[dt] if dt == "complex128" else dict(rtol=1e-4, atol=1e-4)
    check(lazycl.sum(a, axis=axis), np.sum(z, axis=axis), **tol)
    check(lazycl.mean(a, axis=axis), np.mean(z, axis=axis), **tol)
    check(lazycl.prod(a * 0.5 + 0.8, axis=axis), np.prod(z * 0.5 + 0.8, axis=axis),
          rtol=1e-3 if dt == "complex64" else 1e-10)
    check(lazycl.var(a, axis=axis), np.var(z, axis=axis), **tol)
    check(lazycl.std(a, axis=axis, ddof=1), np.std(z, axis=axis, ddof=1), **tol)
    check(lazycl.any(a, axis=axis), np.any(z, axis=axis))
    check(lazycl.all(a, axis=axis), np.all(z, axis=axis))


def test_reductions_empty_and_0d(dev):
    z = np.zeros((0, 3), np.complex64)
    check(lazycl.sum(lz(z, dev), axis=0), z.sum(axis=0))
    check(lazycl.prod(lz(z, dev), axis=0), z.prod(axis=0))
    w = np.asarray(2 - 1j)
    check(lazycl.sum(lz(w, dev)), w.sum())


@pytest.mark.parametrize("dt", CDTYPES)
def test_long_sum_and_prod(dev, dt):
    z = (1 + cdata(dt, (100000,), seed=5, scale=1e-3)).astype(dt)
    tol = dict(rtol=1e-4) if dt == "complex64" else dict(rtol=1e-10)
    check(lazycl.sum(lz(z, dev)), z.sum(), **tol)
    check(lazycl.prod(lz(z, dev)), z.prod(), **tol)


@pytest.mark.parametrize("dt", CDTYPES)
@pytest.mark.parametrize("axis", [0, 1])
def test_scans(dev, dt, axis):
    z = cdata(dt, (30, 300), seed=6, scale=0.6) + 0.5
    tol = dict(rtol=1e-3, atol=1e-4) if dt == "complex64" else dict(rtol=1e-9, atol=1e-12)
    check(lazycl.cumsum(lz(z, dev), axis=axis), np.cumsum(z, axis=axis), **tol)
    check(lazycl.cumprod(lz(z, dev), axis=axis), np.cumprod(z, axis=axis), **tol)


# complex128 in `make test-full` (28 kernels a dtype; the other complex128 tests stay).
@pytest.mark.parametrize("dt", core(CDTYPES, ["complex64"]))
def test_lexicographic_reductions(dev, dt):
    """max/min/argmax/argmin and the nan forms in NumPy's order: ties on the real part broken
    by the imaginary one, the first element with a NaN part winning (skipped by the nan
    forms, NaN for an all-NaN row)."""
    nan = np.nan
    rng = np.random.default_rng(11)
    z = (np.round(rng.uniform(-2, 2, (4, 5, 6))) + 1j * np.round(rng.uniform(-2, 2, (4, 5, 6))))
    z[0, 1, 2] = complex(nan, 1)
    z[1, :, 3] = complex(1, nan)
    z[2, 2, :] = complex(nan, nan)
    z = z.astype(dt)
    a = lz(z, dev)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        # `make test` takes each axis class once over the four (28 kernels a dtype in full).
        for j, f in enumerate(("max", "min", "nanmax", "nanmin")):
            for ax in (None, 0, 1, 2, (0, 2)) if FULL else ((None, 2), (0,), (1,), ((0, 2),))[j]:
                np.testing.assert_array_equal(getattr(lazycl, f)(a, axis=ax).numpy(),
                                              getattr(np, f)(z, axis=ax), err_msg=f"{f} {ax}")
    for f in ("argmax", "argmin"):
        for ax in (None, 0, 1, 2):
            np.testing.assert_array_equal(getattr(lazycl, f)(a, axis=ax).numpy(),
                                          getattr(np, f)(z, axis=ax), err_msg=f"{f} {ax}")
    assert lazycl.max(a, axis=1, keepdims=True).shape == (4, 1, 6)
    assert lazycl.argmin(a, axis=2, keepdims=True).shape == (4, 5, 1)
    with pytest.raises(ValueError, match="zero-size"):
        lazycl.max(lz(np.zeros((0, 2), dt), dev), axis=0)
    with pytest.raises(NotImplementedError, match="initial"):
        lazycl.max(a, initial=0)


@pytest.mark.parametrize("dt", CDTYPES)
def test_sort_nan_classes(dev, dt):
    nan = np.nan
    z = np.array([1 + 2j, complex(nan, 1), 1 + 1j, complex(1, nan), -3 + 0j, complex(nan, nan),
                  complex(nan, -1), 1 + 1j, complex(-3, nan), 0j], dt)
    a = lz(z, dev)
    np.testing.assert_array_equal(lazycl.sort(a).numpy(), np.sort(z))
    np.testing.assert_array_equal(lazycl.argsort(a).numpy(), np.argsort(z, kind="stable"))
    d = lazycl.sort(a, descending=True).numpy()
    finite = ~np.isnan(z.real) & ~np.isnan(z.imag)
    np.testing.assert_array_equal(d[:finite.sum()], np.sort(z[finite])[::-1])


def test_sort_rows(dev):
    z = np.round(cdata("complex128", (5, 30), seed=7), 0)   # many equal real parts
    check(lazycl.sort(lz(z, dev), axis=1), np.sort(z, axis=1))
    check(lazycl.sort(lz(z, dev), axis=0), np.sort(z, axis=0))


# ---- products -----------------------------------------------------------------------------------

@pytest.mark.parametrize("dt", CDTYPES)
@pytest.mark.parametrize("k", [3, 40])
def test_matmul(dev, dt, k):
    x, y = cdata(dt, (2, 7, k), seed=8), cdata(dt, (k, 5), seed=9)
    tol = dict(rtol=1e-4, atol=1e-4) if dt == "complex64" else TOL[dt]
    check(lz(x, dev) @ lz(y, dev), x @ y, **tol)
    check(lazycl.einsum("bij,jk->bk", lz(x, dev), lz(y, dev)), np.einsum("bij,jk->bk", x, y),
          **tol)
    check(lazycl.vdot(lz(x[0, 0], dev), lz(y[:, 0], dev)), np.vdot(x[0, 0], y[:, 0]), **tol)
    check(lazycl.vecdot(lz(x, dev), lz(x, dev)), np.vecdot(x, x), **tol)
    check(lz(x, dev) @ lz(y.real.copy(), dev), x @ y.real, **tol)


def test_norms(dev):
    z = cdata("complex128", (6, 9), seed=10)
    a = lz(z, dev)
    for o in (None, "fro", 1, np.inf):
        check(lazycl.linalg.norm(a, ord=o), np.linalg.norm(z, ord=o), rtol=1e-12)
    for o in (2, 1, 0, np.inf, 3):
        check(lazycl.linalg.vector_norm(a, ord=o, axis=1), np.linalg.vector_norm(z, ord=o, axis=1),
              rtol=1e-12)


# ---- fusion -------------------------------------------------------------------------------------

def test_fusion_counts(dev):
    z = lz(cdata("complex64", (1000,)), dev)
    lazycl.compute(z)
    lazycl.reset_stats()
    r = lazycl.exp(z * (1 - 1j)) + z.conj() * 2
    lazycl.compute(r)
    s = lazycl.stats()
    assert s["launches"] == 1 and s["buffers_allocated"] <= 1, s
    lazycl.reset_stats()
    t = lazycl.sum(lazycl.abs(z) ** 2)           # |z|^2 summed: one reduction kernel
    float(t)
    s = lazycl.stats()
    assert s["launches"] == 1, s
    np.testing.assert_allclose(float(t), np.sum(np.abs(z.numpy()) ** 2), rtol=1e-5)


@pytest.mark.parametrize("dt", CDTYPES)
def test_dlpack_round_trip(dev, dt):
    z = cdata(dt, (3, 5))
    a = lazycl.from_dlpack(z, device=dev)
    assert a.dtype == np.dtype(dt)
    check(a, z)
    b = np.from_dlpack(a * (1 - 1j))
    check(b, z * (1 - 1j), **TOL[dt])


# ---- the rest of the namespace on complex arrays ------------------------------------------------

def test_scatter_adds(dev):
    z = np.round(cdata("complex128", (12,), seed=12), 0)
    idx = np.array([0, 3, 3, 5, 11])
    for name, v in (("add", 1 + 1j), ("subtract", z[:5]), ("add", 2.5)):
        a, r = lz(z.copy(), dev), z.copy()
        getattr(np, name).at(a, idx, v if np.ndim(v) == 0 else lz(v, dev))
        getattr(np, name).at(r, idx, v)
        check(a, r)
    c = lz(z.astype(np.complex64), dev)
    with pytest.raises(NotImplementedError):
        np.multiply.at(c, idx, 2j)
    with pytest.raises(TypeError):
        np.add.at(lz(np.zeros(12), dev), idx, 1j)


@pytest.mark.parametrize("axis", [None, 1])
def test_median(dev, axis):
    z = np.round(cdata("complex128", (3, 5), seed=13), 0)
    check(lazycl.median(lz(z, dev), axis=axis), np.median(z, axis=axis))
    z[1, 2] = complex(np.nan, 1)
    check(lazycl.median(lz(z, dev), axis=axis), np.median(z, axis=axis))
    check(lazycl.median(lz(z[:, :4], dev), axis=axis, keepdims=True),
          np.median(z[:, :4], axis=axis, keepdims=True))


def test_refusals_as_numpy(dev):
    z = lz(cdata("complex128", (6,)), dev)
    with pytest.raises(TypeError, match="real numbers"):
        lazycl.percentile(z, 50)
    with pytest.raises(TypeError, match="real numbers"):
        lazycl.quantile(z, [0.5])
    with pytest.raises(TypeError, match="complex128"):
        lazycl.bincount(lz(np.arange(6), dev), weights=z)
    for f in (lambda: lazycl.histogram(z), lambda: lazycl.top_k(z, 2),
              lambda: lazycl.nanmedian(z)):
        with pytest.raises(NotImplementedError):
            f()


def test_creation(dev):
    check(lazycl.arange(3, dtype=complex, device=dev), np.arange(3, dtype=complex))
    check(lazycl.arange(1, 2, 0.25, dtype=np.complex64, device=dev),
          np.arange(1, 2, 0.25, dtype=np.complex64))
    check(lazycl.linspace(0, 1 + 1j, 5, device=dev), np.linspace(0, 1 + 1j, 5), rtol=1e-15)
    check(lazycl.linspace(0, 1, 3, dtype=np.complex64, device=dev),
          np.linspace(0, 1, 3, dtype=np.complex64))
    r, step = lazycl.linspace(1j, 2, 4, endpoint=False, retstep=True, device=dev)
    rr, rstep = np.linspace(1j, 2, 4, endpoint=False, retstep=True)
    check(r, rr, rtol=1e-15)
    assert step == rstep
    check(lazycl.eye(3, dtype=np.complex64, device=dev), np.eye(3, dtype=np.complex64))


def test_python_scalars(dev):
    a = lz(np.array([1.5 - 2j, 3 + 0j]), dev)
    with pytest.warns(np.exceptions.ComplexWarning):
        assert float(a[0]) == 1.5
    with pytest.warns(np.exceptions.ComplexWarning):
        assert int(a[1]) == 3
    assert complex(a[0]) == 1.5 - 2j
    assert a[0].item() == 1.5 - 2j


def test_everyday_functions(dev):
    z = np.round(cdata("complex128", (12,), seed=14), 1)
    zn = z.copy()
    zn[2], zn[4] = complex(np.nan, np.inf), complex(-np.inf, np.nan)
    x = np.arange(12.0)
    assert lazycl.array_equal(lz(zn, dev), lz(zn.copy(), dev), equal_nan=True)
    assert not lazycl.array_equal(lz(zn, dev), lz(zn.copy(), dev))
    check(lazycl.nan_to_num(lz(zn, dev)), np.nan_to_num(zn))
    z64 = zn.astype(np.complex64)
    check(lazycl.nan_to_num(lz(z64, dev), posinf=5, nan=-1), np.nan_to_num(z64, posinf=5, nan=-1))
    check(lazycl.interp(lz(x * 0.7, dev), lz(x, dev), lz(z, dev)), np.interp(x * 0.7, x, z),
          rtol=1e-12)
    check(lazycl.interp(lz(x * 1.3 - 1, dev), lz(x, dev), lz(z, dev), left=1j, right=2),
          np.interp(x * 1.3 - 1, x, z, left=1j, right=2), rtol=1e-12)
    check(lazycl.gradient(lz(z, dev)), np.gradient(z), rtol=1e-12)
    m = z.reshape(3, 4).astype(np.complex64)
    check(lazycl.gradient(lz(m, dev), axis=1), np.gradient(m, axis=1), rtol=1e-6)
    check(lazycl.isclose(lz(z, dev), lz(z + 1e-9j, dev)), np.isclose(z, z + 1e-9j))
    for f in ("logaddexp", "logaddexp2", "heaviside"):
        with pytest.raises(TypeError, match=f):
            getattr(lazycl, f)(lz(z, dev), 0.5)
