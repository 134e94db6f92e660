"""lazycl.ElementwiseKernel: user OpenCL C that fuses (issue 30), against NumPy, with kernel
counts for the fusion and every error."""
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import lazycl as lc

from conftest import assert_same, lz, make

SQ = lc.ElementwiseKernel("T x, T y", "T z", "z = (x - y) * (x - y)", "sqdiff")


def launches(f):
    lc.reset_stats()
    r = f()
    return r, lc.stats()["launches"]


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "uint8", "int64"])
def test_sqdiff_by_dtype(dev, dtype):
    if dtype == "float64" and not dev.fp64:
        pytest.skip("no fp64")
    a, b = make(dtype, (7, 5), seed=1), make(dtype, (7, 5), seed=2)
    got = SQ(lz(a, dev), lz(b, dev))
    assert got.dtype == np.dtype(dtype)
    with np.errstate(over="ignore"):
        assert_same(got.numpy(), ((a - b) * (a - b)).astype(dtype))


@pytest.mark.parametrize("layout", ["broadcast", "transposed", "reversed", "0-d", "empty"])
def test_layouts(dev, layout):
    a = make("float32", (4, 6), seed=3)
    b = make("float32", (6,), seed=4)
    x, y = lz(a, dev), lz(b, dev)
    if layout == "broadcast":
        got, ref = SQ(x[:, None, :], y), (a[:, None, :] - b) ** 2
    elif layout == "transposed":
        got, ref = SQ(x.T, x.T[::-1]), (a.T - a.T[::-1]) ** 2
    elif layout == "reversed":
        got, ref = SQ(x[::-1, ::-2], y[::-2]), (a[::-1, ::-2] - b[::-2]) ** 2
    elif layout == "0-d":
        got, ref = SQ(x[1, 2], y[3]), np.float32((a[1, 2] - b[3]) ** 2)
    else:
        got, ref = SQ(x[:0], y), (a[:0] - b) ** 2
    assert got.shape == ref.shape
    assert_same(got.numpy(), ref.astype(np.float32))


def test_fuses_into_one_launch(dev):
    a, b = make("float32", (1000,), seed=5), make("float32", (1000,), seed=6)
    x, y = lz(a, dev).compute(), lz(b, dev).compute()
    r, n = launches(lambda: float((SQ(2 * x, y) + 1).sum()))
    assert n == 1
    assert r == pytest.approx(float(((2 * a - b) ** 2 + 1).astype(np.float64).sum()), rel=1e-5)
    plan = lc.explain((SQ(2 * x, y) + 1).sum())
    assert "user:sqdiff" in plan and "1 kernel" in plan


def test_two_outputs_share_a_kernel(dev):
    k = lc.ElementwiseKernel("T x, T y", "T s, T d", "s = x + y; d = x - y;", "sumdiff")
    a, b = make("int32", (50,), seed=7), make("int32", (50,), seed=8)
    x, y = lz(a, dev).compute(), lz(b, dev).compute()
    s, d = k(x, y)
    (_, n) = launches(lambda: lc.compute(s, d))
    assert n == 1
    assert_same(s.numpy(), a + b)
    assert_same(d.numpy(), a - b)
    assert "user:sumdiff.d" in lc.explain(k(x, y)[1] * 2)


def test_typed_params_scalars_and_casts(dev):
    k = lc.ElementwiseKernel("float32 x, int32 n, T a", "T z",
                             "z = a * x + (T)n", "affine")
    a = make("float32", (20,), seed=9)
    x = lz(a, dev)
    got = k(x, 3, np.float32(0.5))            # T bound by the NumPy scalar: float32
    assert got.dtype == np.float32
    assert_same(got.numpy(), (np.float32(0.5) * a + np.float32(3)).astype(np.float32))
    got = k(lz(a.astype(np.float32), dev), np.int16(2), 1.5)   # T from a Python float: float64
    if dev.fp64:
        assert got.dtype == np.float64
        assert_same(got.numpy(), 1.5 * a.astype(np.float64) + 2, rtol=1e-6)
    # An int16 array casts to the int32 parameter (same_kind); a float one does not.
    k(x, lz(np.arange(20, dtype=np.int16), dev), np.float32(1)).compute()
    with pytest.raises(TypeError, match="input 'n' is float32"):
        k(x, lz(a, dev), np.float32(1))


def test_index_and_size(dev):
    k = lc.ElementwiseKernel("T x", "T z", "z = x * i + _ind.size()", "idx")
    a = make("float32", (3, 4), seed=10)
    assert_same(k(lz(a, dev)).numpy(),
                (a * np.arange(12, dtype=np.float32).reshape(3, 4) + 12).astype(np.float32))
    fill = lc.ElementwiseKernel("", "int64 z", "z = 3 * i", "fill3")
    assert_same(fill(size=5).numpy(), 3 * np.arange(5))
    assert_same(fill(out=lc.zeros(5, np.int64, device=dev)).numpy(), 3 * np.arange(5))
    with pytest.raises(ValueError, match="size="):
        lc.ElementwiseKernel("T x", "T z", "z = x", "ident")(2.0)


def test_outputs_written(dev):
    a, b = make("float32", (6, 3), seed=11), make("float32", (6, 3), seed=12)
    o = lz(np.zeros((6, 3), np.float32), dev)
    view = o[::2]
    r = SQ(lz(a, dev), lz(b, dev), o)
    assert r is o
    assert_same(o.numpy(), (a - b) ** 2)
    assert_same(view.numpy(), ((a - b) ** 2)[::2])
    o2 = lz(np.zeros((6, 3), np.int32), dev)
    with pytest.raises(TypeError, match="parameter 'z' is int32, but T is float32"):
        SQ(lz(a, dev), lz(b, dev), out=o2)      # an output binds T as an input does (CuPy)
    with pytest.raises(ValueError, match="cannot hold"):
        SQ(lz(a, dev), lz(b, dev), out=lz(np.zeros(3, np.float32), dev))
    with pytest.raises(TypeError, match="must be a lazycl array"):
        SQ(lz(a, dev), lz(b, dev), np.zeros((6, 3), np.float32))


def test_preamble(dev):
    k = lc.ElementwiseKernel("T x", "T z", "z = twice(x) + 1", "pre",
                             preamble="static inline float twice(float v) { return 2 * v; }")
    a = make("float32", (9,), seed=13)
    assert_same(k(lz(a, dev)).numpy(), 2 * a + 1)


def test_repeated_calls_check_every_call(dev):
    """Calls with the dtypes of an earlier call take a shorter path (remembered dtypes and
    function): every call still checks shapes, dtypes and devices, and broadcasts."""
    a, b = make("float32", (6,), seed=20), make("float32", (2, 6), seed=21)
    x, y = lz(a, dev), lz(b, dev)
    for _ in range(3):
        assert_same(SQ(x, x).numpy(), np.zeros(6, np.float32))
        assert_same(SQ(x, y).numpy(), (a - b) ** 2)                     # broadcast
        assert_same(SQ(x, lz(np.float32(2), dev)).numpy(), (a - 2) ** 2)  # a 0-d input
        with pytest.raises(ValueError, match="could not be broadcast"):
            SQ(x, lz(np.ones(3, np.float32), dev))
        with pytest.raises(TypeError, match="parameter 'y' is int64, but T is float32"):
            SQ(x, lz(np.arange(6), dev))
    two = lc.ElementwiseKernel("T x", "T z, T w", "z = x + 1; w = x * 2", "two_rep")
    for _ in range(2):
        z, w = two(x)
        assert_same(z.numpy(), a + 1)
        assert_same(w.numpy(), a * 2)
    gone = lc.ElementwiseKernel("T x", "T z", "z = x", "noret_rep", no_return=True)
    assert gone(x) is None and gone(x) is None
    mixed = lc.ElementwiseKernel("float32 x, int64 k", "float32 z", "z = x * k", "mixed_rep")
    for k in (3, np.int64(4), 5):
        assert_same(mixed(x, k).numpy(), (a * k).astype(np.float32))
    u8 = lc.ElementwiseKernel("float32 x, uint8 k", "float32 z", "z = x * k", "u8_rep")
    assert_same(u8(x, 5).numpy(), (a * 5).astype(np.float32))
    with pytest.raises(OverflowError):                  # the same types, a value out of range
        u8(x, 300)
    with pytest.raises(TypeError, match="output 'z' must be a lazycl array"):
        SQ(x, x, out=[0.0] * 6)


def test_numpy_inputs_and_no_arrays(dev):
    a = make("float32", (8,), seed=14)
    got = SQ(lz(a, dev), a[::-1].copy())
    assert_same(got.numpy(), (a - a[::-1]) ** 2)


def test_errors(dev):
    x = lz(make("float32", (4,), seed=15), dev)
    with pytest.raises(TypeError, match="parameter 'y' is int64, but T is float32"):
        SQ(x, lz(np.arange(4), dev))
    with pytest.raises(TypeError, match="takes 2 inputs"):
        SQ(x)
    with pytest.raises(ValueError, match="could not be broadcast"):
        SQ(x, lz(np.ones(3, np.float32), dev))
    with pytest.raises(NotImplementedError, match="raw parameters"):
        lc.ElementwiseKernel("raw T x", "T z", "z = x[i]", "r")
    with pytest.raises(ValueError, match="cannot parse"):
        lc.ElementwiseKernel("T", "T z", "z = 1", "p")
    with pytest.raises(ValueError, match="identifier"):
        lc.ElementwiseKernel("T x", "T z", "z = x", "not a name")
    with pytest.raises(ValueError, match="reserved"):
        lc.ElementwiseKernel("T i", "T z", "z = i", "res")
    with pytest.raises(ValueError, match="declared twice"):
        lc.ElementwiseKernel("T x", "T x", "x = x", "twice")
    with pytest.raises(TypeError, match="cannot tell the dtype of output 'z'"):
        lc.ElementwiseKernel("T x", "U z", "z = x", "unbound")(x)
    with pytest.raises(TypeError, match="not complex64"):
        lc.ElementwiseKernel("complex64 x", "T z", "z = x", "cplx")
    bad = lc.ElementwiseKernel("T x", "T z", "T w = x;\nz = w + q;", "bad")
    with pytest.raises(lc.CompileError, match=r"'bad', operation line 2: z = w \+ q;") as ei:
        bad(x)
    assert "q" in str(ei.value).splitlines()[1]
    # The engine stays usable.
    assert_same(SQ(x, x).numpy(), np.zeros(4, np.float32))


def test_kernel_cache_across_processes(tmp_path):
    code = textwrap.dedent("""
        import numpy as np, lazycl as lc
        k = lc.ElementwiseKernel("T x, T y", "T z", "z = x * 3 - y", "cached_%s")
        x = lc.asarray(np.arange(100, dtype=np.float32))
        lc.reset_stats()
        print(float(k(x, 1.0 + x).sum()), lc.stats()["kernels_compiled"],
              lc.stats()["disk_cache_hits"])
    """ % os.getpid())
    env = dict(os.environ, LAZYCL_CACHE_DIR=str(tmp_path))
    first = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                           text=True, check=True).stdout.split()
    second = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                            text=True, check=True).stdout.split()
    assert first[0] == second[0] == str(float((np.arange(100) * 3 - (1 + np.arange(100))).sum()))
    assert int(first[1]) >= 1
    assert int(second[1]) == 0 and int(second[2]) >= 1
