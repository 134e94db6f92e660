"""lazycl.linalg's decompositions and solvers and lazycl.fft (python/lazycl/_host.py and fft.py):
results equal NumPy's (they run NumPy on the host, with the HostFallbackWarning), come back as
lazycl arrays on the input's device, keep NumPy's named tuples, and raise NumPy's errors; the
lazy fftfreq, rfftfreq, fftshift and ifftshift are checked elementwise and by kernel counts."""
import warnings

import numpy as np
import pytest

import lazycl
from conftest import assert_same, lz


def close(got, ref, rtol):
    """got is a lazycl array with ref's dtype and shape and values within rtol (complex values
    compared as complex: both parts)."""
    assert isinstance(got, lazycl.Array)
    got, ref = got.numpy(), np.asarray(ref)
    assert got.dtype == ref.dtype and got.shape == ref.shape
    np.testing.assert_allclose(got, ref, rtol=rtol, atol=rtol)

pytestmark = pytest.mark.filterwarnings("ignore::lazycl.HostFallbackWarning")


def _spd(dtype, shape, seed):
    """Symmetric (Hermitian) positive-definite matrices of `shape` (..., n, n)."""
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.standard_normal(shape)
    m = a @ np.swapaxes(a.conj(), -1, -2) + shape[-1] * np.eye(shape[-1])
    return m.astype(dtype)


LINALG = ["cholesky", "det", "eigvalsh", "inv", "matrix_rank", "pinv", "slogdet", "svdvals",
          "qr", "svd", "eigh"]


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
@pytest.mark.parametrize("name", LINALG)
def test_linalg_matches_numpy(name, dtype, dev):
    if dtype in ("float64", "complex128") and not dev.fp64:
        pytest.skip("no fp64 on this device")
    for shape in ((3, 3), (2, 4, 4), (0, 2, 2)):
        a = _spd(dtype, shape, 1)
        x = lz(a, dev)[..., ::-1, :][..., ::-1, :]       # negative strides, same values
        got, ref = getattr(lazycl.linalg, name)(x), getattr(np.linalg, name)(a)
        rtol = 1e-4 if dtype in ("float32", "complex64") else 1e-12
        if isinstance(ref, tuple):
            assert type(got) is type(ref) and got._fields == ref._fields
            pairs = zip(got, ref)
        else:
            pairs = [(got, ref)]
        for g, r in pairs:
            assert g.device == dev
            close(g, r, rtol)


def test_linalg_solvers(dev):
    rng = np.random.default_rng(2)
    a = rng.standard_normal((2, 3, 3)) + 3 * np.eye(3)
    b1, b2 = rng.standard_normal(3), rng.standard_normal((2, 3, 2))
    for b in (b1, b2):
        assert_same(lazycl.linalg.solve(lz(a, dev), lz(b, dev)), np.linalg.solve(a, b),
                    rtol=1e-12, atol=1e-12)
    for n in (-2, 0, 1, 3):
        assert_same(lazycl.linalg.matrix_power(lz(a, dev), n), np.linalg.matrix_power(a, n),
                    rtol=1e-10, atol=1e-12)
    m = rng.standard_normal((4, 3)).astype(np.float32)
    for mode in ("reduced", "complete"):
        got, ref = lazycl.linalg.qr(lz(m, dev), mode=mode), np.linalg.qr(m, mode=mode)
        close(got.Q, ref.Q, 1e-5)
        close(got.R, ref.R, 1e-5)
    got, ref = lazycl.linalg.svd(lz(m, dev), full_matrices=False), np.linalg.svd(m, False)
    for g, r in zip(got, ref):
        close(g, r, 1e-4)
    assert_same(lazycl.linalg.pinv(lz(m, dev), rtol=0.5), np.linalg.pinv(m, rtol=0.5), rtol=1e-5)
    assert_same(lazycl.linalg.matrix_rank(lz(m, dev), rtol=0.9),
                np.linalg.matrix_rank(m, rtol=0.9))
    assert_same(lazycl.linalg.cholesky(lz(a @ a.transpose(0, 2, 1), dev), upper=True),
                np.linalg.cholesky(a @ a.transpose(0, 2, 1), upper=True), rtol=1e-10, atol=1e-12)


def test_linalg_errors_and_warning(dev):
    with pytest.raises(np.linalg.LinAlgError):
        lazycl.linalg.inv(lz(np.zeros((2, 2)), dev))
    with pytest.raises(np.linalg.LinAlgError):
        lazycl.linalg.det(lz(np.zeros((2, 3)), dev))
    with pytest.raises(ValueError, match="Unrecognized mode"):
        lazycl.linalg.qr(lz(np.eye(2), dev), mode="r")
    from lazycl import _fallback
    _fallback.WARNED.discard("lazycl.linalg.det")
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        lazycl.linalg.det(lz(np.eye(2), dev))
    assert [x.category for x in w] == [lazycl.HostFallbackWarning]


FFTS = [("fft", "n"), ("ifft", "n"), ("rfft", "n"), ("irfft", "n"), ("hfft", "n"),
        ("ihfft", "n"), ("fftn", "s"), ("ifftn", "s"), ("rfftn", "s"), ("irfftn", "s")]


@pytest.mark.parametrize("name,size,dtype", [
    (name, size, dtype) for name, size in FFTS
    for dtype in ("float32", "float64", "complex64", "complex128")
    if dtype[0] == "f" or name not in ("rfft", "ihfft", "rfftn")])   # real-input transforms
def test_fft_matches_numpy(name, size, dtype, dev):
    if dtype in ("float64", "complex128") and not dev.fp64:
        pytest.skip("no fp64 on this device")
    rng = np.random.default_rng(3)
    a = rng.standard_normal((4, 6))
    if dtype[0] == "c":
        a = a + 1j * rng.standard_normal((4, 6))
    a = a.astype(dtype)
    rtol = 1e-4 if dtype in ("float32", "complex64") else 1e-12
    f, ref = getattr(lazycl.fft, name), getattr(np.fft, name)
    x = lz(a, dev)[:, ::-1]
    for norm in ("backward", "ortho", "forward"):
        if size == "n":
            for kw in ({}, {"n": 5}, {"axis": 0, "n": 8}):
                close(f(x, norm=norm, **kw), ref(a[:, ::-1], norm=norm, **kw), rtol)
        else:
            for kw in ({}, {"axes": (0,)}, {"s": (3, 4), "axes": (0, 1)}):
                close(f(x, norm=norm, **kw), ref(a[:, ::-1], norm=norm, **kw), rtol)
    with pytest.raises(ValueError, match="Invalid norm"):
        f(x, norm="none")


@pytest.mark.parametrize("dtype", [None, "float32", "float64"])
def test_fftfreq(dtype, dev):
    if dtype == "float64" and not dev.fp64:
        pytest.skip("no fp64 on this device")
    want = np.dtype(dtype or ("float64" if dev.fp64 else "float32"))
    for n in (1, 2, 5, 8, 101):
        for d in (1.0, 0.25, 3):
            lazycl.reset_stats()
            got = lazycl.fft.fftfreq(n, d=d, dtype=dtype, device=dev).numpy()
            assert lazycl.stats()["launches"] == 1
            assert_same(got, np.fft.fftfreq(n, d).astype(want))
            assert_same(lazycl.fft.rfftfreq(n, d=d, dtype=dtype, device=dev),
                        np.fft.rfftfreq(n, d).astype(want))
    with pytest.raises(ValueError):
        lazycl.fft.fftfreq(0)
    with pytest.raises(ValueError):
        lazycl.fft.fftfreq(4, dtype="int32")


@pytest.mark.parametrize("dtype", ["bool", "int16", "float32", "complex64"])
def test_fftshift(dtype, dev):
    a = (np.arange(60).reshape(3, 4, 5) % 7).astype(dtype)
    x = lz(a, dev)
    for axes in (None, 0, (1, 2), [-1], ()):
        kw = {} if axes is None else {"axes": axes}
        assert_same(lazycl.fft.fftshift(x, **kw), np.fft.fftshift(a, **kw))
        assert_same(lazycl.fft.ifftshift(x[:, ::-1], **kw), np.fft.ifftshift(a[:, ::-1], **kw))
    lazycl.reset_stats()
    (lazycl.fft.fftshift(x) + 1).numpy()                  # the roll fuses into its consumer
    assert lazycl.stats()["launches"] == 1


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "int16"])
def test_matrix_norms_from_singular_values(dtype, dev):
    rng = np.random.default_rng(5)
    a = rng.standard_normal((2, 3, 4))
    if dtype[0] == "c":
        a = a + 1j * rng.standard_normal((2, 3, 4))
    a = (a * 3).astype(dtype)
    rtol = 1e-5 if dtype in ("float32", "complex64") else 1e-12
    x = lz(a, dev)
    for ord in (2, -2, "nuc"):
        close(lazycl.linalg.matrix_norm(x, ord=ord), np.linalg.matrix_norm(a, ord=ord), rtol)
        close(lazycl.linalg.matrix_norm(x, ord=ord, keepdims=True),
              np.linalg.matrix_norm(a, ord=ord, keepdims=True), rtol)
        for axis in ((2, 0), (0, 1), (-1, -2)):
            close(lazycl.linalg.norm(x, ord=ord, axis=axis),
                  np.linalg.norm(a, ord=ord, axis=axis), rtol)
