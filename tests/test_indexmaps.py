"""Index maps (issue 10 item 5): tril, triu, diagonal, diag, trace, indices, meshgrid, outer,
differential against NumPy on every device, NumPy's errors, and fusion by launch counts."""
import numpy as np
import pytest

import lazycl
from conftest import ALL_DTYPES, WIDTH_DTYPES, assert_same, core, make

try:
    from numpy.exceptions import AxisError
except ImportError:  # NumPy < 1.25
    from numpy import AxisError

DTYPES = ["bool", "int8", "uint16", "int32", "int64", "uint64", "float32", "float64"]
SHAPES = [(0, 0), (0, 3), (3, 0), (1, 1), (4, 4), (3, 5), (6, 2), (2, 3, 4), (2, 0, 3),
          (2, 2, 3, 3)]
KS = [-7, -2, -1, 0, 1, 3, 7]


def launches(*arrays):
    lazycl.reset_stats()
    lazycl.compute(*arrays)
    return lazycl.stats()["launches"]


def views(a, x):
    """(NumPy, lazycl) pairs of a as is, transposed on its last two dims, stepped and
    reversed (non-contiguous, negative strides)."""
    out = [(a, x), (np.swapaxes(a, -1, -2), lazycl.swapaxes(x, -1, -2))]
    if a.ndim >= 2:
        sl = (Ellipsis, slice(None, None, -1), slice(None, None, 2))
        out.append((a[sl], x[sl]))
    return out


# ---- tril, triu --------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", core(DTYPES, ["int8", "float64"]))
@pytest.mark.parametrize("shape", SHAPES)
def test_tril_triu(device, dtype, shape):
    a = make(dtype, shape)
    x = lazycl.asarray(a, device=device)
    for av, xv in views(a, x):
        for k in KS:
            assert_same(lazycl.tril(xv, k), np.tril(av, k))
            assert_same(lazycl.triu(xv, k), np.triu(av, k))
    # pending input
    assert_same(lazycl.tril(x + x, 1), np.tril(a + a, 1))


def test_tril_1d_and_float_k(device):
    # NumPy broadcasts a 1-d input to a square; k may be a float. (NumPy's triu of a
    # non-integral k is an artifact of arange(-k + 1, ..., dtype=int8) and not matched:
    # lazycl keeps col - row > k - 1, as NumPy's formula says.)
    a = make("int32", (5,))
    x = lazycl.asarray(a, device=device)
    assert_same(lazycl.tril(x), np.tril(a))
    assert_same(lazycl.triu(x, -1), np.triu(a, -1))
    b = make("float64", (4, 6))
    y = lazycl.asarray(b, device=device)
    for k in (2.0, -1.0):
        assert_same(lazycl.tril(y, k), np.tril(b, k))
        assert_same(lazycl.triu(y, k), np.triu(b, k))


def test_tril_0d_is_type_error(device):
    with pytest.raises(TypeError):
        np.tril(np.float64(1))
    with pytest.raises(TypeError):
        lazycl.tril(lazycl.asarray(np.float64(1), device=device))


# ---- diagonal, trace, diag ----------------------------------------------------------------

@pytest.mark.parametrize("dtype", core(DTYPES, ["int8", "float64"]))
@pytest.mark.parametrize("shape", SHAPES)
def test_diagonal_trace(device, dtype, shape):
    a = make(dtype, shape)
    x = lazycl.asarray(a, device=device)
    nd = len(shape)
    axes = [(0, 1), (1, 0), (-1, -2), (0, nd - 1)]
    # a float sum may add in another order than NumPy's pairwise sum
    tol = {"float32": {"rtol": 1e-6}, "float64": {"rtol": 1e-14}}.get(dtype, {})
    for av, xv in views(a, x):
        for a1, a2 in axes:
            for k in KS:
                assert_same(lazycl.diagonal(xv, k, a1, a2), np.diagonal(av, k, a1, a2))
                assert_same(lazycl.trace(xv, k, a1, a2), np.trace(av, k, a1, a2), **tol)
    # pending inputs, contiguous and not
    assert_same(lazycl.diagonal(x * 1, 1), np.diagonal(a * 1, 1))
    assert_same(lazycl.diagonal(lazycl.swapaxes(x, 0, 1) * 1, -1),
                np.diagonal(np.swapaxes(a, 0, 1) * 1, -1))
    assert_same(lazycl.trace(x * 1, -1, 0, 1), np.trace(a * 1, -1, 0, 1), **tol)


def test_trace_dtype(device):
    a = make("int8", (5, 5))
    x = lazycl.asarray(a, device=device)
    for dt in (None, np.int8, np.float32, np.uint64):
        assert_same(lazycl.trace(x, dtype=dt), np.trace(a, dtype=dt))
    b = make("float32", (3, 4))
    assert_same(lazycl.trace(lazycl.asarray(b, device=device)), np.trace(b), rtol=1e-6)


@pytest.mark.parametrize("dtype", core(ALL_DTYPES, WIDTH_DTYPES))
def test_diag(device, dtype):
    for n in (0, 1, 4):
        v = make(dtype, (n,))
        x = lazycl.asarray(v, device=device)
        for k in KS:
            assert_same(lazycl.diag(x, k), np.diag(v, k))
        assert_same(lazycl.diag(x * 1, 2), np.diag(v * 1, 2))
    m = make(dtype, (4, 6))
    y = lazycl.asarray(m, device=device)
    for k in KS:
        assert_same(lazycl.diag(y, k), np.diag(m, k))
        assert_same(lazycl.diag(y.T, k), np.diag(m.T, k))


def test_diagonal_errors(device):
    x = lazycl.asarray(np.zeros((2, 3)), device=device)
    v = lazycl.asarray(np.zeros(3), device=device)
    cases = [
        (lambda m, a, b: m.diagonal(b), ValueError),          # 1-d
        (lambda m, a, b: m.trace(b), ValueError),
        (lambda m, a, b: m.diagonal(a, axis1=0, axis2=0), ValueError),
        (lambda m, a, b: m.diagonal(a, axis1=0, axis2=2), AxisError),
        (lambda m, a, b: m.diagonal(a, axis1=-3, axis2=1), AxisError),
        (lambda m, a, b: m.diagonal(a, offset=1.5), TypeError),
        (lambda m, a, b: m.diag(a, k=1.5), TypeError),
        (lambda m, a, b: m.diag(a[None]), ValueError),        # 3-d
    ]
    for f, exc in cases:
        with pytest.raises(exc):
            f(np, np.zeros((2, 3)), np.zeros(3))
        with pytest.raises(exc):
            f(lazycl, x, v)
    with pytest.raises(ValueError):
        np.diag(np.float64(1))
    with pytest.raises(ValueError):
        lazycl.diag(lazycl.asarray(np.float64(1), device=device))


# ---- indices, meshgrid, outer -------------------------------------------------------------

@pytest.mark.parametrize("dims", [(), (0,), (3,), (2, 3), (2, 0, 4), (3, 1, 2, 2)])
def test_indices(device, dims):
    for dt in (int, np.int32, np.float32):
        assert_same(lazycl.indices(dims, dtype=dt, device=device), np.indices(dims, dtype=dt))
    got = lazycl.indices(dims, sparse=True, device=device)
    ref = np.indices(dims, sparse=True)
    assert len(got) == len(ref)
    for g, r in zip(got, ref):
        assert_same(g, r)


def test_indices_errors():
    with pytest.raises(ValueError):
        np.indices((2, -1))
    with pytest.raises(ValueError):
        lazycl.indices((2, -1))
    with pytest.raises(TypeError):
        lazycl.indices((2, 1.5))


@pytest.mark.parametrize("indexing", ["xy", "ij"])
@pytest.mark.parametrize("sparse", [False, True])
def test_meshgrid(device, indexing, sparse):
    xs = [make("float32", (3,)), make("int64", (4,), seed=1), make("bool", (2, 1), seed=2),
          make("uint8", (0,), seed=3)]
    for n in range(len(xs) + 1):
        ref = np.meshgrid(*xs[:n], indexing=indexing, sparse=sparse)
        got = lazycl.meshgrid(*[lazycl.asarray(a, device=device) for a in xs[:n]],
                              indexing=indexing, sparse=sparse)
        assert isinstance(got, tuple) and len(got) == len(ref)
        for g, r in zip(got, ref):
            assert_same(g, r)
    with pytest.raises(ValueError):
        np.meshgrid(xs[0], indexing="xx")
    with pytest.raises(ValueError):
        lazycl.meshgrid(lazycl.asarray(xs[0], device=device), indexing="xx")


def test_meshgrid_copies_and_diagonal_views_are_numpys(device):
    """meshgrid's default copy=True gives writable arrays whose writes stay theirs; diagonal is
    a read-only view, as NumPy's."""
    a, b = np.arange(3.0), np.arange(4.0)
    x, y = lazycl.asarray(a, device=device), lazycl.asarray(b, device=device)
    (gx, gy), (hx, hy) = lazycl.meshgrid(x, y), np.meshgrid(a, b)
    gx[0, 0] = 9
    hx[0, 0] = 9
    assert_same(gx, hx)
    assert_same(gy, hy)
    assert_same(x, a)                                   # the input is not written
    (g1,), (h1,) = lazycl.meshgrid(x), np.meshgrid(a)
    g1[1] = -1
    h1[1] = -1
    assert_same(g1, h1)
    assert_same(x, a)
    m = lazycl.asarray(np.zeros((3, 3)), device=device)
    for d in (lazycl.diagonal(m), np.diagonal(m), lazycl.diag(m)):
        with pytest.raises(ValueError, match="read-only"):
            d[0] = 1
    assert_same(m, np.zeros((3, 3)))


@pytest.mark.parametrize("da,db", [("float32", "float32"), ("int8", "int64"),
                                   ("bool", "bool"), ("uint16", "float64")])
def test_outer(device, da, db):
    for sa, sb in [((3,), (4,)), ((0,), (2,)), ((2, 2), (3,)), ((), (5,))]:
        a, b = make(da, sa), make(db, sb, seed=1)
        x, y = lazycl.asarray(a, device=device), lazycl.asarray(b, device=device)
        assert_same(lazycl.outer(x, y), np.outer(a, b))
        assert_same(lazycl.outer(x[::-1] if x.ndim == 1 else x, y * 1),
                    np.outer(a[::-1] if a.ndim == 1 else a, b * 1))


# ---- NumPy dispatch -----------------------------------------------------------------------

def test_numpy_functions_stay_lazy(device):
    a = make("float64", (4, 5))
    x = lazycl.asarray(a, device=device)
    v = lazycl.asarray(a[0], device=device)
    for f, args in [(np.tril, (x,)), (np.triu, (x, 1)), (np.diagonal, (x, -1)), (np.diag, (v, 1)),
                    (np.trace, (x,)), (np.outer, (v, v))]:
        r = f(*args)
        assert isinstance(r, lazycl.Array), f
        assert_same(r, f(*[np.asarray(t) for t in args]))
    g = np.meshgrid(v, v)
    assert all(isinstance(t, lazycl.Array) for t in g)


# ---- fusion -------------------------------------------------------------------------------

def test_fusion_counts(device):
    a = make("float32", (64, 48))
    x = lazycl.asarray(a, device=device)
    r = lazycl.tril(x * 2) + 1
    assert launches(r) == 1
    assert_same(r, np.tril(a * 2) + 1)
    t = lazycl.trace(x)
    assert launches(t) == 1
    np.testing.assert_allclose(float(t), np.trace(a.astype(np.float64)), rtol=1e-5)
    u, w = lazycl.asarray(a[0], device=device), lazycl.asarray(a[:, 1], device=device)
    s = lazycl.outer(u, w).sum()
    assert launches(s) == 1
    np.testing.assert_allclose(float(s), np.outer(a[0], a[:, 1]).astype(np.float64).sum(),
                               rtol=1e-4)
    # a diagonal of a realized array is a strided leaf, whatever its layout: no launch of its
    # own, the trace of a transposed, stepped or reversed array is one launch
    for v in (x.T, x[::2, ::-3], x[::-1]):
        d = lazycl.diagonal(v, 1)
        assert not d.pending
        assert launches(lazycl.trace(v, -1)) == 1
    assert launches(lazycl.diagonal(x * 2, 1) + 1) == 1
    assert launches(lazycl.indices((4, 5, 6), device=device)) == 1
    assert launches(lazycl.diag(u)) == 1
    assert launches(lazycl.meshgrid(u, w)[0] * 1) == 1
    assert launches(lazycl.triu(lazycl.tril(x, 3), -3).sum(axis=1)) == 1
