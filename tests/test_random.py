"""lazycl.random: counter-based Philox4x32-10 on the device.

Exactness against an independent NumPy implementation of Philox (the C test checks the kernel
code against Random123 itself), reproducibility, device and schedule independence of the bits,
fusion into consumers (kernel and buffer counts), NumPy's errors, and statistical quality with
fixed seeds (so nothing can flake: the values are the same on every run)."""
import math
import os

import numpy as np
import pytest

import lazycl
from conftest import DEVICE_FILTERS

R = lazycl.random


# ---- an independent Philox4x32-10 in NumPy ---------------------------------------------------

def philox_words(key, counters):
    """The four words of Philox4x32-10 for 64-bit counters (words 2, 3 zero) and a 64-bit key."""
    c = np.asarray(counters, dtype=np.uint64)
    x0 = (c & 0xFFFFFFFF).astype(np.uint64)
    x1 = (c >> np.uint64(32)).astype(np.uint64)
    x2 = np.zeros_like(x0)
    x3 = np.zeros_like(x0)
    k0, k1 = key & 0xFFFFFFFF, key >> 32
    M = np.uint64(0xFFFFFFFF)
    for r in range(10):
        p0 = x0 * np.uint64(0xD2511F53)
        p1 = x2 * np.uint64(0xCD9E8D57)
        x0, x1, x2, x3 = ((p1 >> np.uint64(32)) ^ x1 ^ np.uint64(k0), p1 & M,
                          (p0 >> np.uint64(32)) ^ x3 ^ np.uint64(k1), p0 & M)
        k0 = (k0 + 0x9E3779B9) & 0xFFFFFFFF
        k1 = (k1 + 0xBB67AE85) & 0xFFFFFFFF
    return [w.astype(np.uint32) for w in (x0, x1, x2, x3)]


def ref_bits32(key, c0, n):
    """Values c0..c0+n-1 of the 32-bit stream: value v is word v & 3 of block v >> 2."""
    v = np.arange(n, dtype=np.uint64) + np.uint64(c0)
    w = np.stack(philox_words(key, v >> np.uint64(2)))
    return w[(v & np.uint64(3)).astype(np.intp), np.arange(n)]


def ref_bits64(key, c0, n):
    """Values of the 64-bit stream: value v is words 0-1 (v even) or 2-3 of block v >> 1."""
    v = np.arange(n, dtype=np.uint64) + np.uint64(c0)
    w = [x.astype(np.uint64) for x in philox_words(key, v >> np.uint64(1))]
    lo, hi = w[0] | w[1] << np.uint64(32), w[2] | w[3] << np.uint64(32)
    return np.where((v & np.uint64(1)) == 1, hi, lo)


def ref_uniform(key, c0, n, dtype):
    if np.dtype(dtype) == np.float32:
        return (ref_bits32(key, c0, n) >> np.uint32(8)).astype(np.float32) * np.float32(2.0 ** -24)
    return (ref_bits64(key, c0, n) >> np.uint64(11)).astype(np.float64) * 2.0 ** -53


def ref_normal(key, c0, n, dtype):
    """Box-Muller over the words as lazycl documents it, in float64: t = 2 pi u2 - odd pi / 2
    is exact in the kernels (codegen/philox.h's quarter turns and polynomial, within 3 ulp of
    the cosine), u1 rounded as they round it; the device's log and sqrt may differ from it in
    their last bits, wrong words by far more."""
    v = np.arange(n, dtype=np.uint64) + np.uint64(c0)
    odd = (v & np.uint64(1)).astype(dtype)
    if np.dtype(dtype) == np.float32:
        w = np.stack(philox_words(key, v >> np.uint64(2)))
        p = (v & np.uint64(2)).astype(np.intp)
        w1, w2 = w[p, np.arange(n)], w[p + 1, np.arange(n)]
        s = np.float32(2.0 ** -24)
        u1 = ((w1 >> np.uint32(8)) + np.uint32(1)).astype(np.float32) * s
        u2 = (w2 >> np.uint32(8)).astype(np.float64) * 2.0 ** -24
    else:
        w = [x.astype(np.uint64) for x in philox_words(key, v >> np.uint64(1))]
        lo, hi = w[0] | w[1] << np.uint64(32), w[2] | w[3] << np.uint64(32)
        u1 = ((lo >> np.uint64(11)) + np.uint64(1)).astype(np.float64) * 2.0 ** -53
        u2 = (hi >> np.uint64(11)).astype(np.float64) * 2.0 ** -53
    t = 2 * np.pi * u2 - odd.astype(np.float64) * (np.pi / 2)
    return np.sqrt(-2 * np.log(u1.astype(np.float64))) * np.cos(t)


def test_known_answer_through_a_kernel(dev):
    """Counter 0, key 0 gives Random123's known answer (word 0: 0x6627e8d5) on the device."""
    from lazycl import _lazycl as _c
    r = np.asarray(_c._random("uint32", 0, 0, 0, 2, dev))
    assert r[0] == 0x6627E8D5
    w = philox_words(0, [0])
    assert list(r) == [w[0][0], w[1][0]]                # words 0 and 1 of block 0
    np.testing.assert_array_equal(r, ref_bits32(0, 0, 2))
    r64 = np.asarray(_c._random("uint64", 0, 0xA4093822299F31D0, 5, 3, dev))
    w = [x.astype(np.uint64) for x in philox_words(0xA4093822299F31D0, [2, 3])]
    np.testing.assert_array_equal(r64, [w[2][0] | w[3][0] << np.uint64(32),       # block 2, 2-3
                                        w[0][1] | w[1][1] << np.uint64(32),       # block 3, 0-1
                                        w[2][1] | w[3][1] << np.uint64(32)])      # block 3, 2-3
    np.testing.assert_array_equal(r64, ref_bits64(0xA4093822299F31D0, 5, 3))
    # every alignment of a draw (quads of values read from whole blocks where they can)
    for c0 in range(5):
        for n in (1, 3, 4, 5, 9, 4099):
            got = np.asarray(_c._random("uint32", 0, 77, c0, n, dev))
            np.testing.assert_array_equal(got, ref_bits32(77, c0, n))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_uniform_bits_are_exact(dev, dtype):
    """random() is the documented scaling of the words, bit for bit, through every schedule:
    a map, a SIMD reduction's input, a strided view, a gather, and after other draws."""
    g = R.default_rng(1234, device=dev)
    key = g.bit_generator.key
    g.random(7, dtype=dtype)                     # draws advance the counter by 7, made 8
    assert g.bit_generator.counter == 8
    x = g.random((3, 1000), dtype=dtype)
    want = ref_uniform(key, 8, 3000, dtype).reshape(3, 1000)
    np.testing.assert_array_equal(np.asarray(x), want)
    np.testing.assert_array_equal(np.asarray(x[:, ::-3]), want[:, ::-3])
    np.testing.assert_array_equal(np.asarray(x.T[5]), want.T[5])
    assert float(lazycl.sum(x[1])) == pytest.approx(float(want[1].astype(np.float64).sum()),
                                                    rel=1e-6)
    assert float(lazycl.max(x)) == float(want.max())
    # views of a draw not yet computed: the view's addresses inside the kernel (reversed and
    # strided rows cannot take the four-values-a-block path)
    for view in (lambda a: a[1, ::-1], lambda a: a[2, ::-2], lambda a: a[:, 3::4], lambda a: a.T[::-1]):
        g2 = R.default_rng(1234, device=dev)
        g2.random(7, dtype=dtype)
        np.testing.assert_array_equal(np.asarray(view(g2.random((3, 1000), dtype=dtype)) * 2),
                                      view(want) * 2)
    idx = np.array([2999, 0, 1500, 1500])
    np.testing.assert_array_equal(np.asarray(x.reshape(-1)[lazycl.asarray(idx, device=dev)]),
                                  want.reshape(-1)[idx])


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("dist", ["uniform", "normal"])
def test_lanes_at_every_alignment(dev, dtype, dist):
    """PoCL's SIMD maps and reductions read a random source eight values at a time (float32
    sixteen, where the device prefers vectors of 16 floats: AVX-512), computing
    only the Philox blocks those values share and moving the words into lanes, one way for
    each alignment of the run against the blocks. Every alignment (slices of a draw, draws
    after others, rows of odd length, sizes that are no multiple of 8, the last item's overlap
    with its neighbour), fused with elementwise neighbours and in reductions, gives the
    documented values: uniforms bit for bit, normals within the device's math (and the same
    bits from every alignment, as from a copy)."""
    normal = dist == "normal"
    g = R.default_rng(4321, device=dev)
    key = g.bit_generator.key
    g.random(12, dtype=dtype)                    # this draw starts at value 12
    n = 1031
    x = g.standard_normal(n, dtype=dtype) if normal else g.random(n, dtype=dtype)
    y = g.random(n, dtype=dtype)                 # a second source, at value 1044
    want = (ref_normal if normal else ref_uniform)(key, 12, n, dtype)
    wy = ref_uniform(key, 1044, n, dtype)
    full = np.asarray(lazycl.copy(x))
    if normal:
        tol = dict(rtol=1e-5, atol=2e-5) if dtype == "float32" else dict(rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(full, want, **tol)
        want = full                              # the lanes' own bits, from here on
    else:
        np.testing.assert_array_equal(full, want)
    two = np.asarray(2, dtype)
    for s in range(9):
        for m in (8, 9, 13, 15, 16, 17, 23, 31, 32, 33, 47, 64, 100, n - s):
            if s + m > n:
                continue
            v = x[s:s + m]
            np.testing.assert_array_equal(np.asarray(lazycl.copy(v)), want[s:s + m])
            np.testing.assert_array_equal(np.asarray(v * two - y[s:s + m]),
                                          want[s:s + m] * two - wy[s:s + m])
        # in a SIMD reduction (chunks start anywhere; their scalar tails may round differently)
        d = float(lazycl.max(abs(x[s:] - lazycl.asarray(want[s:], device=dev))))
        assert d <= (2e-6 if normal and dtype == "float32" else 1e-15 if normal else 0.0), (s, d)
    rows = x[:31 * 33].reshape(31, 33)           # each row starts at another alignment
    wrows = want[:31 * 33].reshape(31, 33)
    np.testing.assert_array_equal(np.asarray(lazycl.copy(rows[:, 3:])), wrows[:, 3:])
    # one element of each row in every lane (a broadcast along the row), beside the row itself
    np.testing.assert_array_equal(np.asarray(rows[:, 5:6] * two + rows),
                                  wrows[:, 5:6] * two + wrows)
    W = 16 if dtype == "float32" and dev.preferred_vector_widths["float"] >= 16 else 8
    lanes = "lc_rnd_%s_%s_%d(" % (dist, "f32" if dtype == "float32" else "f64", W)
    if dev.schedule == "simd":   # maps in lanes on PoCL; Intel's compiler vectorizes its own
        pocl = dev.filter_string.startswith("pocl")
        assert (lanes in lazycl.explain(lazycl.copy(x[3:]))) == pocl, f"the {W}-lane path"
        assert lanes in lazycl.explain(lazycl.sum(x[3:])), f"the {W}-lane path was not taken"


def test_integers_are_exact(dev):
    """integers: low + the high half of a 32-bit word times the span (spans <= 2^32)."""
    g = R.default_rng(99, device=dev)
    key = g.bit_generator.key
    r = np.asarray(g.integers(-5, 17, 1000))
    w = ref_bits32(key, 0, 1000).astype(np.uint64)
    np.testing.assert_array_equal(r, (-5 + ((w * np.uint64(22)) >> np.uint64(32)).astype(np.int64)))
    assert r.dtype == np.int64


def test_same_seed_same_values_and_draws_continue(dev):
    a = R.default_rng(7, device=dev)
    b = R.default_rng(7, device=dev)
    x1, x2 = np.asarray(a.standard_normal(100)), np.asarray(a.standard_normal(50))
    y = np.asarray(b.standard_normal(150))
    np.testing.assert_array_equal(np.concatenate([x1, x2]), y)     # counter-based
    assert not np.array_equal(x1[:50], x2)
    c = R.default_rng(8, device=dev)
    assert not np.array_equal(np.asarray(c.standard_normal(100)), x1)
    s = R.default_rng(R.SeedSequence(7), device=dev)
    np.testing.assert_array_equal(np.asarray(s.standard_normal(100)), x1)
    assert R.default_rng(a) is a


def test_bits_identical_across_devices():
    if len(DEVICE_FILTERS) < 2:
        pytest.skip("one device")
    vals = []
    for d in DEVICE_FILTERS:
        g = R.default_rng(2024, device=d)
        vals.append((np.asarray(g.random(5000)), np.asarray(g.random(5000, dtype=np.float32)),
                     np.asarray(g.integers(0, 1000, 5000))))
    for a, b in zip(vals[0], vals[1]):
        np.testing.assert_array_equal(a, b)


def test_fused_into_the_consumer(dev):
    """mean(normal(n) ** 2): one kernel and no buffer but the result."""
    g = R.default_rng(3, device=dev)
    x = g.normal(size=1 << 16)
    lazycl.reset_stats()
    m = float(lazycl.mean(x ** 2))
    s = lazycl.stats()
    assert s["launches"] == 1
    assert s["buffers_allocated"] + s["pool_hits"] == 1
    assert abs(m - 1) < 0.03
    # and a random array fed to a map and a reduction over rows in one forcing
    u = g.random((64, 256), dtype=np.float32)
    lazycl.reset_stats()
    r = np.asarray(lazycl.sum(u * 2, axis=1))
    assert lazycl.stats()["launches"] == 1
    np.testing.assert_allclose(r, np.asarray(u).sum(axis=1, dtype=np.float64) * 2, rtol=1e-5)


def test_writes_into_a_random_array(dev):
    """A random array is a source; a write gives it memory, and older results keep the values."""
    g = R.default_rng(11, device=dev)
    x = g.random(10)
    before = np.asarray(x).copy()
    y = x * 1
    v = x[2:5]
    x[3] = -1.0
    want = before.copy()
    want[3] = -1
    np.testing.assert_array_equal(np.asarray(x), want)
    np.testing.assert_array_equal(np.asarray(v), want[2:5])     # a view sees the write
    np.testing.assert_array_equal(np.asarray(y), before)       # an older result does not


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_normal_moments_and_ks(dtype):
    n = 1 << 20
    g = R.default_rng(12345)
    z = np.asarray(g.standard_normal(n, dtype=dtype)).astype(np.float64)
    assert z.dtype == np.float64
    se = 1 / math.sqrt(n)
    assert abs(z.mean()) < 5 * se
    assert abs(z.var() - 1) < 5 * math.sqrt(2) * se
    assert abs((z ** 3).mean()) < 5 * math.sqrt(15) * se
    assert abs((z ** 4).mean() - 3) < 5 * math.sqrt(96) * se
    zs = np.sort(z)
    cdf = 0.5 * (1 + np.vectorize(math.erf)(zs[:: 64] / math.sqrt(2)))
    emp = (np.arange(zs.size)[:: 64] + 1) / zs.size
    assert np.max(np.abs(cdf - emp)) < 1.95 / math.sqrt(n) + 64 / n     # KS at p = 0.001
    assert np.max(np.abs(z)) <= (5.78 if dtype == "float32" else 8.6)


def test_uniform_ks_chi2_and_neighbours():
    n = 1 << 20
    g = R.default_rng(2)
    u = np.asarray(g.random(n))
    us = np.sort(u)
    d = np.max(np.abs(us - (np.arange(n) + 1) / n))
    assert d < 1.95 / math.sqrt(n)
    counts = np.bincount(np.asarray(g.integers(0, 100, n)), minlength=100)
    chi2 = ((counts - n / 100) ** 2 / (n / 100)).sum()
    assert chi2 < 148          # 99 degrees of freedom: P(chi2 > 148) ~ 0.001
    r = np.corrcoef(u[:-1], u[1:])[0, 1]
    assert abs(r) < 5 / math.sqrt(n)
    a, b = g.spawn(2)
    x, y = np.asarray(a.random(n)), np.asarray(b.random(n))
    assert abs(np.corrcoef(x, y)[0, 1]) < 5 / math.sqrt(n)     # spawned streams independent
    assert not np.array_equal(x[:10], y[:10])


def test_distributions_against_numpy_moments(dev):
    """Every distribution's moments, on every device: float64 normals, exponentials and
    lognormals run their log, sqrt and cos in the W-lane loops (PoCL's double8 log1p gave
    garbage on an AVX2 host until the target split it: codegen simd_math_bits)."""
    n = 1 << 18
    g = R.default_rng(5, device=dev)
    se = 1 / math.sqrt(n)
    x = np.asarray(g.uniform(-2, 6, n))
    assert x.min() >= -2 and x.max() < 6 and abs(x.mean() - 2) < 5 * 8 / math.sqrt(12) * se
    x = np.asarray(g.normal(3, 2, n))
    assert abs(x.mean() - 3) < 10 * se and abs(x.std() - 2) < 10 * se
    x = np.asarray(g.exponential(2, n))
    assert x.min() >= 0 and abs(x.mean() - 2) < 10 * se and abs(x.std() - 2) < 20 * se
    x = np.asarray(g.lognormal(0, 0.5, n))
    assert abs(np.log(x).mean()) < 5 * se and abs(np.log(x).std() - 0.5) < 5 * se
    x = np.asarray(g.integers(10, 20, n, endpoint=True, dtype=np.int16))
    assert x.dtype == np.int16 and x.min() == 10 and x.max() == 20
    x = np.asarray(g.integers(0, 2 ** 40, n))                  # the 64-bit path
    assert x.min() >= 0 and x.max() < 2 ** 40 and abs(x.mean() / 2 ** 40 - 0.5) < 0.01
    x = np.asarray(g.integers(np.iinfo(np.int64).min, np.iinfo(np.int64).max, 1000,
                              endpoint=True))
    assert x.min() < -2 ** 60 and x.max() > 2 ** 60
    p = np.array([0.1, 0.0, 0.6, 0.3])
    c = np.bincount(np.asarray(g.choice(4, n, p=p)), minlength=4) / n
    np.testing.assert_allclose(c, p, atol=0.005)
    assert c[1] == 0
    a = np.arange(12).reshape(3, 4) * 10
    s = np.asarray(g.choice(a, 5, axis=1))
    assert s.shape == (3, 5) and set(s[0]) <= set(a[0]) and (s[1] - s[0] == 40).all()


def test_shapes_params_and_out(dev):
    g = R.default_rng(0, device=dev)
    assert g.random().shape == ()
    assert g.random(0).shape == (0,)
    assert g.standard_normal((2, 0, 3)).shape == (2, 0, 3)
    assert g.normal([0.0, 10.0], 1.0).shape == (2,)
    r = np.asarray(g.normal(np.array([[0.0], [100.0]]), [1.0, 2.0, 3.0], size=(2, 3)))
    assert r.shape == (2, 3) and (r[1] > 50).all()
    with pytest.raises(ValueError, match="shape mismatch"):
        g.normal([0.0, 1.0, 2.0], 1.0, size=(2,))
    out = lazycl.zeros((4, 5), dtype=np.float32, device=dev)
    assert g.random(out=out, dtype=np.float32) is out
    v = np.asarray(out)
    assert (v > 0).any() and (v < 1).all()
    with pytest.raises(TypeError, match="wrong type"):
        g.random(out=out)                        # float64 into float32
    with pytest.raises(TypeError, match="wrong type"):
        g.standard_exponential(out=out)          # the same check as NumPy's
    assert g.standard_exponential(out=out, dtype=np.float32) is out
    assert (np.asarray(out) >= 0).all()
    assert np.asarray(g.random(3, dtype=np.float32)).dtype == np.float32


def test_errors_are_numpys():
    g = R.default_rng(0)
    cases = [
        (lambda: g.random(dtype=np.int32), TypeError, r"Unsupported dtype dtype\('int32'\) for random"),
        (lambda: g.standard_normal(dtype=np.float16), TypeError, "for standard_normal"),
        (lambda: g.integers(5, 5), ValueError, "low >= high"),
        (lambda: g.integers(5, 4, endpoint=True), ValueError, "low > high"),
        (lambda: g.integers(0, 300, dtype=np.uint8), ValueError, "high is out of bounds for uint8"),
        (lambda: g.integers(-1, 3, dtype=np.uint8), ValueError, "low is out of bounds for uint8"),
        (lambda: g.integers(0, 2 ** 70), ValueError, "high is out of bounds for int64"),
        (lambda: g.normal(0, -1), ValueError, "scale < 0"),
        (lambda: g.exponential(-1), ValueError, "scale < 0"),
        (lambda: g.lognormal(0, -1), ValueError, "sigma < 0"),
        (lambda: g.random(size=-1), ValueError, "negative dimensions"),
        (lambda: g.choice(0), ValueError, "a must be a positive integer"),
        (lambda: g.choice(3, p=[0.5, 0.6, 0.1]), ValueError, "do not sum to 1"),
        (lambda: g.choice(3, p=[0.5, 0.5]), ValueError, "same size"),
        (lambda: g.choice(3, p=[-0.5, 1, 0.5]), ValueError, "non-negative"),
        (lambda: g.uniform(0, np.inf), OverflowError, "Range exceeds"),
        (lambda: g.choice(5, 6, replace=False), ValueError, "larger sample than population"),
        (lambda: g.choice(3, 2, replace=False, p=[1.0, 0, 0]), ValueError, "Fewer non-zero"),
        (lambda: g.permutation(np.array(5)), IndexError, "at least 1-dimensional"),
        (lambda: g.permutation(-1), ValueError, "negative dimensions"),
        (lambda: g.shuffle(np.arange(3)), TypeError, "in place"),
        (lambda: g.permuted(lazycl.zeros((2, 3)), axis=2), np.exceptions.AxisError, "axis 2"),
    ]
    for f, exc, msg in cases:
        with pytest.raises(exc, match=msg):
            f()
    assert np.asarray(g.random(3)).shape == (3,)         # still usable


def test_legacy_functions():
    R.seed(3)
    a = [np.asarray(R.rand(2, 3)), np.asarray(R.randn(4)), np.asarray(R.randint(5, size=6)),
         np.asarray(R.random_sample((2,))), np.asarray(R.uniform(1, 2, 3)),
         np.asarray(R.normal(0, 1, 2))]
    R.seed(3)
    b = [np.asarray(R.rand(2, 3)), np.asarray(R.randn(4)), np.asarray(R.randint(5, size=6)),
         np.asarray(R.random_sample((2,))), np.asarray(R.uniform(1, 2, 3)),
         np.asarray(R.normal(0, 1, 2))]
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x, y)
    assert a[0].shape == (2, 3) and a[2].max() < 5 and a[2].dtype == np.int64
    assert ((a[4] >= 1) & (a[4] < 2)).all()
    with pytest.raises(ValueError, match="Seed must be"):
        R.seed(-1)


def test_permutations(dev):
    """permutation, shuffle, permuted, choice(replace=False): argsorts of random 64-bit keys."""
    g = R.default_rng(21, device=dev)
    p = np.asarray(g.permutation(1000))
    assert p.dtype == np.int64 and sorted(p) == list(range(1000))
    assert not np.array_equal(p, np.arange(1000))
    a = np.arange(40).reshape(8, 5)
    x = lazycl.asarray(a, device=dev)
    r = np.asarray(g.permutation(x))
    assert sorted(r[:, 0]) == list(a[:, 0]) and (r - r[:, :1] == a[0] - a[0, 0]).all()
    r = np.asarray(g.permutation(x, axis=1))
    assert (np.sort(r, axis=1) == a).all() and (r - r[:1] == (a - a[:1])).all()
    v = x[2]
    g.shuffle(x)
    got = np.asarray(x)
    assert sorted(map(tuple, got)) == sorted(map(tuple, a))
    np.testing.assert_array_equal(np.asarray(v), got[2])          # a view sees the shuffle
    # permuted: each row on its own; every position uniform (chi-square over 20000 rows)
    rows = np.asarray(g.permuted(lazycl.asarray(np.tile(np.arange(6), (20000, 1)), device=dev),
                                 axis=1))
    assert (np.sort(rows, axis=1) == np.arange(6)).all()
    counts = np.stack([np.bincount(rows[:, j], minlength=6) for j in range(6)])
    chi2 = ((counts - 20000 / 6) ** 2 / (20000 / 6)).sum()
    assert chi2 < 74           # 25 degrees of freedom: P(chi2 > 74) < 1e-6
    assert len({tuple(r) for r in rows[:50]}) > 40                  # rows differ
    flat = np.asarray(g.permuted(lazycl.asarray(np.arange(12).reshape(3, 4), device=dev)))
    assert flat.shape == (3, 4) and sorted(flat.reshape(-1)) == list(range(12))
    out = lazycl.zeros((3, 4), dtype=np.int64, device=dev)
    assert g.permuted(lazycl.asarray(np.arange(12).reshape(3, 4), device=dev), axis=0, out=out) is out
    assert (np.sort(np.asarray(out), axis=0) == np.arange(12).reshape(3, 4)).all()
    # choice without replacement: distinct, from the population
    c = np.asarray(g.choice(100, 30, replace=False))
    assert len(set(c)) == 30 and c.min() >= 0 and c.max() < 100
    c = np.asarray(g.choice(np.arange(10) * 3, (2, 3), replace=False))
    assert c.shape == (2, 3) and len(set(c.reshape(-1))) == 6 and (c % 3 == 0).all()


def test_choice_without_replacement_with_p():
    """The law of drawing one at a time with p renormalized (NumPy's): item 0 of
    p = [.5, .2, .1, .1, .1] is in a sample of 2 with probability 0.7917."""
    g = R.default_rng(77)
    p = [0.5, 0.2, 0.1, 0.1, 0.1]
    hits = np.zeros(5)
    n = 400
    for _ in range(n):
        s = np.asarray(g.choice(5, 2, replace=False, p=p))
        assert len(set(s)) == 2
        hits[s] += 1
    want = np.array([0.7917, 0.4667, 0.2472, 0.2472, 0.2472])
    assert (np.abs(hits / n - want) < 5 * np.sqrt(want * (1 - want) / n)).all()
    s = np.asarray(g.choice(4, 2, replace=False, p=[0.5, 0.5, 0.0, 0.0]))
    assert sorted(s) == [0, 1]
