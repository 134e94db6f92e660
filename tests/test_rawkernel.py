"""lazycl.RawKernel: whole OpenCL C kernels on lazycl arrays (python/lazycl/_rawkernel.py,
python/py_launch.c's _raw_launch). Each test runs the kernel on every device and compares with
NumPy doing the same; the errors are checked by type and message."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import lazycl as lc
from conftest import DEVICES, assert_same, lz

AXPY = r"""
/* y = a * x + y, over n elements */
__kernel void axpy(const T a, __global const T *x, __global T *y, const uint n)
{
    size_t i = get_global_id(0);
    if (i < n)
        y[i] = a * x[i] + y[i];
}
"""

F32_AXPY = AXPY.replace("T", "float")


def launches():
    return lc.stats()["launches"]


@pytest.mark.parametrize("dtype, ctype", [("float32", "float"), ("float64", "double")])
def test_axpy(dev, dtype, ctype):
    k = lc.RawKernel(AXPY, "axpy", options=("-DT=" + ctype,))
    n = 1000
    x, y = np.linspace(-3, 3, n).astype(dtype), np.cos(np.arange(n)).astype(dtype)
    lx, ly = lz(x, dev), lz(y, dev)
    k(((n + 63) // 64 * 64,), (64,), (2.5, lx, ly, n))
    assert_same(ly, np.asarray(2.5, dtype) * x + y, rtol=1e-6)
    assert_same(lx, x)


def test_2d_transpose(dev):
    src = r"""
    #define TILE 8
    __kernel void transpose(__global float *out, __global const float *in,
                            const int rows, const int cols)
    {
        int c = get_global_id(0), r = get_global_id(1);
        __local float tile[TILE][TILE + 1];
        int lc_ = get_local_id(0), lr = get_local_id(1);
        if (r < rows && c < cols)
            tile[lr][lc_] = in[r * cols + c];
        barrier(CLK_LOCAL_MEM_FENCE);
        int r2 = get_group_id(0) * TILE + lr, c2 = get_group_id(1) * TILE + lc_;
        if (r2 < cols && c2 < rows)
            out[r2 * rows + c2] = tile[lc_][lr];
    }
    """
    k = lc.RawKernel(src, "transpose")
    a = np.arange(24 * 40, dtype=np.float32).reshape(24, 40)
    out = lc.zeros((40, 24), dtype=np.float32, device=dev)
    k((40, 24), (8, 8), (out, lz(a, dev), 24, 40))
    assert_same(out, a.T)


SCALARS = r"""
__kernel void scalars(char c, uchar uc, short s, unsigned short us, int i, unsigned int ui,
                      long l, unsigned long ul, float f, double d,
                      __global char *oc, __global uchar *ouc, __global short *os,
                      __global ushort *ous, __global int *oi, __global uint *oui,
                      __global long *ol, __global ulong *oul, __global float *of,
                      __global double *od)
{
    oc[0] = c; ouc[0] = uc; os[0] = s; ous[0] = us; oi[0] = i; oui[0] = ui;
    ol[0] = l; oul[0] = ul; of[0] = f; od[0] = d;
}
"""
SCALAR_DTYPES = ["int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
                 "float32", "float64"]


@pytest.mark.parametrize("values", [
    [-128, 255, -32768, 65535, -2 ** 31, 2 ** 32 - 1, -2 ** 63, 2 ** 64 - 1, 1.1, 1e300],
    [127, 0, 32767, 0, 2 ** 31 - 1, 0, 2 ** 63 - 1, 0, -2.5, -0.125],
    # NumPy scalars: cast as NumPy's same_kind rule (astype) casts them
    [np.int64(-3), np.uint16(7), np.int8(-9), np.uint8(200), np.int64(2 ** 40 + 5),
     np.uint64(2 ** 33 + 6), np.int32(-7), np.uint8(9), np.float64(1.1), np.float32(0.1)],
    # Python ints into float parameters, a bool into an integer one
    [True, 1, 2, 3, 4, 5, 6, 7, 3, -4],
])
def test_scalar_kinds(dev, values):
    k = lc.RawKernel(SCALARS, "scalars")
    outs = [lc.zeros(1, dtype=dt, device=dev) for dt in SCALAR_DTYPES]
    k(1, None, tuple(values) + tuple(outs))
    for o, v, dt in zip(outs, values, SCALAR_DTYPES):
        assert_same(o, np.asarray(v).astype(dt).reshape(1))


def test_scalar_conversion_errors(dev):
    k = lc.RawKernel(SCALARS, "scalars")
    outs = tuple(lc.zeros(1, dtype=dt, device=dev) for dt in SCALAR_DTYPES)
    good = [0] * 10
    cases = [
        (4, 1.5, TypeError, r"argument 5 \('i'\): expected an integer \(int\), got float"),
        (1, 256, OverflowError,
         r"argument 2 \('uc'\): Python integer 256 out of bounds for uint8"),
        (7, -1, OverflowError, r"out of bounds for uint64"),
        (4, np.float64(2.0), TypeError,
         r"cannot cast float64 to int32 \(int\) under the same_kind"),
        (8, 1j, TypeError, r"argument 9 \('f'\): expected a real number \(float\), got complex"),
        (8, outs[8], TypeError,
         r"argument 9 \('f'\): expected a scalar \(float\), got a lazycl array"),
        (8, "1.0", TypeError, r"expected a scalar \(float\), got str"),
    ]
    for pos, v, exc, msg in cases:
        args = list(good)
        args[pos] = v
        with pytest.raises(exc, match=msg):
            k(1, None, tuple(args) + outs)


def test_complex_and_typedefs(dev):
    src = r"""
    typedef float2 cfloat;
    #define REAL float
    __kernel void conj_scale(__global const cfloat *z, __global cfloat *out, REAL s, cfloat w)
    {
        size_t i = get_global_id(0);
        out[i] = (cfloat)(z[i].x * s + w.x, -z[i].y * s + w.y);
    }
    """
    k = lc.RawKernel(src, "conj_scale")
    assert [p[2] for p in k.params] == [np.dtype("complex64")] * 2 + [np.dtype("float32"),
                                                                      np.dtype("complex64")]
    z = (np.arange(6) + 1j * np.arange(6, 12)).astype(np.complex64)
    out = lc.empty(6, dtype=np.complex64, device=dev)
    k(6, None, (lz(z, dev), out, 2.0, 0.5 - 1j))
    assert_same(out, (np.conj(z) * 2 + (0.5 - 1j)).astype(np.complex64))


def test_local_memory(dev):
    src = r"""
    __kernel void group_sums(__global const float *x, __global float *sums,
                             __local float *scratch)
    {
        size_t l = get_local_id(0), n = get_local_size(0);
        scratch[l] = x[get_global_id(0)];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (size_t s = n / 2; s > 0; s /= 2) {
            if (l < s)
                scratch[l] += scratch[l + s];
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        if (l == 0)
            sums[get_group_id(0)] = scratch[0];
    }
    """
    k = lc.RawKernel(src, "group_sums")
    x = np.arange(256, dtype=np.float32)
    sums = lc.zeros(8, dtype=np.float32, device=dev)
    k(256, 32, (lz(x, dev), sums, lc.LocalMemory(32 * 4)))
    assert_same(sums, x.reshape(8, 32).sum(axis=1))
    with pytest.raises(TypeError, match=r"argument 3 \('scratch'\): expected lc.LocalMemory"):
        k(256, 32, (lz(x, dev), sums, 128))
    with pytest.raises(ValueError, match="positive number of bytes"):
        lc.LocalMemory(0)


def test_pending_inputs_are_computed_first(dev):
    k = lc.RawKernel(F32_AXPY, "axpy")
    a = np.arange(50, dtype=np.float32)
    la = lz(a, dev)
    x = la * 2 + 1                       # pending: computed before the launch, and kept
    y = lc.ones(50, dtype=np.float32, device=dev)   # a constant: it takes a buffer
    k(64, None, (np.float32(3), x, y, 50))
    assert_same(y, 3 * (a * 2 + 1) + 1)
    lc.reset_stats()
    assert_same(x, a * 2 + 1)
    assert launches() == 0               # x was computed where it is


@pytest.mark.parametrize("n", [100, 40000])     # copy-on-write; >= 64 KiB: readers computed
def test_pending_reader_keeps_the_old_values(dev, n):
    k = lc.RawKernel(F32_AXPY, "axpy")
    y0 = np.arange(n, dtype=np.float32)
    y = lz(y0, dev).compute()
    before = y * 2 + 1                   # reads y's old values, pending
    v = y[3:9]                           # a view: sees the write
    k(n, None, (1.0, lz(np.ones(n, np.float32), dev), y, n))
    after = y * 2 + 1                    # built after: reads the new values
    assert_same(before, y0 * 2 + 1)
    assert_same(y, y0 + 1)
    assert_same(v, (y0 + 1)[3:9])
    assert_same(after, (y0 + 1) * 2 + 1)


def test_numpy_memory_sees_the_write(dev):
    """On a device that shares NumPy's memory, lc.asarray(h) is h: the kernel's write shows
    in h when the call returns, and pending readers of the old values keep them."""
    k = lc.RawKernel(F32_AXPY, "axpy")
    h = np.arange(8, dtype=np.float32)
    y = lc.asarray(h, device=dev)
    before = y * 2
    k(8, None, (1.0, lz(np.ones(8, np.float32), dev), y, 8))
    if lc._lazycl._host_shares(dev)[0]:
        np.testing.assert_array_equal(h, np.arange(8) + 1)     # finished: no wait needed
    else:
        np.testing.assert_array_equal(h, np.arange(8))
    assert_same(y, np.arange(8, dtype=np.float32) + 1)
    assert_same(before, np.arange(8, dtype=np.float32) * 2)


def test_views_see_the_write(dev):
    k = lc.RawKernel(F32_AXPY, "axpy")
    y0 = np.arange(24, dtype=np.float32)
    y = lz(y0, dev)
    m = y.reshape(4, 6)
    col = m[:, 2]
    k(24, None, (1.0, lz(np.full(24, 10, np.float32), dev), m, 24))   # written through a view
    assert_same(y, y0 + 10)
    assert_same(col, (y0 + 10).reshape(4, 6)[:, 2])


def test_pending_written_array(dev):
    k = lc.RawKernel(F32_AXPY, "axpy")
    a = np.arange(20, dtype=np.float32)
    base = lz(a, dev)
    y = base + 1                         # pending: computed, then written
    k(20, None, (2.0, base, y, 20))
    assert_same(y, a + 1 + 2 * a)
    assert_same(base, a)


def test_recorded_writes_are_applied_first(dev):
    k = lc.RawKernel(F32_AXPY, "axpy")
    x, y = lz(np.zeros(8, np.float32), dev).compute(), lz(np.zeros(8, np.float32), dev).compute()
    x[2] = 5.0                           # recorded element writes (engine/pokes.c)
    y[3] = 7.0
    k(8, None, (2.0, x, y, 8))
    want = np.zeros(8, np.float32)
    want[2], want[3] = 10, 7
    assert_same(y, want)


def test_deferred_index_error_is_raised_first(dev):
    """An array a gather with an index out of range left wrong (compute(wait=False) defers
    the check) raises NumPy's IndexError before a kernel reads or writes it."""
    src = "__kernel void copy(__global const float *s, __global float *d) " \
          "{ size_t i = get_global_id(0); d[i] = s[i]; }"
    k = lc.RawKernel(src, "copy")
    x = lz(np.arange(10, dtype=np.float32), dev)
    y = x[lz(np.array([1, 2, 30]), dev)]
    y.compute(wait=False)
    out = lc.zeros(3, dtype=np.float32, device=dev)
    with pytest.raises(IndexError, match="index 30 is out of bounds for axis 0 with size 10"):
        k(3, None, (y, out))
    with pytest.raises(IndexError, match="index 30 is out of bounds"):
        k(3, None, (out, y))
    assert_same(out, np.zeros(3, np.float32))


def test_one_array_read_and_written(dev):
    src = r"""
    __kernel void twice(__global const float *src, __global float *dst)
    {
        size_t i = get_global_id(0);
        dst[i] = 2 * src[i];
    }
    """
    k = lc.RawKernel(src, "twice")
    a = np.arange(10, dtype=np.float32)
    x = lz(a, dev)
    k(10, None, (x, x))
    assert_same(x, 2 * a)


def test_non_contiguous_reads_are_copied(dev):
    src = r"""
    __kernel void copy(__global const float *src, __global float *dst)
    {
        size_t i = get_global_id(0);
        dst[i] = src[i];
    }
    """
    k = lc.RawKernel(src, "copy")
    a = np.arange(48, dtype=np.float32).reshape(6, 8)
    x = lz(a, dev)
    for view, ref in [(x.T, a.T), (x[1:, ::2], a[1:, ::2]), (x[2], a[2]),
                      (lc.full((3, 4), 1.5, dtype=np.float32, device=dev), np.full((3, 4), 1.5)),
                      (lc.arange(12, dtype=np.float32, device=dev), np.arange(12))]:
        out = lc.zeros(ref.shape, dtype=np.float32, device=dev)
        k(ref.size, None, (view, out))
        assert_same(out, np.ascontiguousarray(ref, dtype=np.float32))
    assert_same(x, a)


def test_order_with_later_lazy_ops(dev):
    k = lc.RawKernel(F32_AXPY, "axpy")
    y = lz(np.zeros(16, np.float32), dev)
    ones = lz(np.ones(16, np.float32), dev)
    for i in range(5):
        k(16, None, (1.0, ones, y, 16))
        y += 1                           # a store after each launch, in queue order
    assert_same(y.sum(), np.float32(10 * 16))


def test_device_keyword(dev):
    src = "__kernel void nothing(int a) { }"
    k = lc.RawKernel(src, "nothing")
    lc.reset_stats()
    k(4, None, (1,), device=dev)
    k(4, None, (1,), queue=lc.Queue(dev))
    k(4, None, (1,), device=dev.filter_string)
    assert launches() == 3
    with pytest.raises(TypeError, match="not both"):
        k(4, None, (1,), device=dev, queue=dev)
    # A queue of its own: the kernel runs there, and the arrays' queue decides without one.
    q = lc.Queue(dev)
    y = lz(np.zeros(8, np.float32), dev).to_device(q)
    k2 = lc.RawKernel(F32_AXPY, "axpy")
    k2(8, None, (1.0, lz(np.ones(8, np.float32), dev).to_device(q), y, 8))
    assert_same(y, np.ones(8, np.float32))
    with pytest.raises(lc.PlacementError, match=r"argument 3 \('y'\) lives on another queue"):
        k2(8, None, (1.0, lz(np.ones(8, np.float32), dev), y, 8))


def test_argument_errors(dev):
    k = lc.RawKernel(F32_AXPY, "axpy")
    x = lz(np.zeros(8, np.float32), dev)
    y = lz(np.zeros(8, np.float32), dev)
    with pytest.raises(TypeError, match=r"RawKernel 'axpy' takes 4 arguments \(3 given\)"):
        k(8, None, (1.0, x, y))
    with pytest.raises(TypeError, match=r"^RawKernel 'axpy' argument 3 \('y'\): expected a float32 "
                       r"array \(__global float \*y\), got int64$"):
        k(8, None, (1.0, x, lz(np.zeros(8, np.int64), dev), 8))
    with pytest.raises(TypeError, match=r"argument 2 \('x'\): expected a lazycl array "
                       r"\(__global const float \*x\), got float"):
        k(8, None, (1.0, 2.0, y, 8))
    with pytest.raises(TypeError, match=r"got numpy.ndarray \(lc.asarray\(a\) it first\)"):
        k(8, None, (1.0, np.zeros(8, np.float32), y, 8))
    with pytest.raises(TypeError, match=r"argument 1 \('a'\): expected a scalar \(float\), got a "
                       "lazycl array"):
        k(8, None, (x, x, y, 8))
    with pytest.raises(TypeError, match="args must be a tuple"):
        k(8, None, x)
    # Arrays the kernel may write must be contiguous from the start of their memory.
    with pytest.raises(ValueError, match=r"argument 3 \('y'\): the kernel may write this array, "
                       "so it must be C-contiguous"):
        k(4, None, (1.0, x, y[::2], 4))
    with pytest.raises(ValueError, match="C-contiguous from the start"):
        k(4, None, (1.0, x, y[4:], 4))
    with pytest.raises(ValueError,
                       match=r"argument 3 \('y'\): assignment destination is read-only"):
        k(8, None, (1.0, x, lc.broadcast_to(y[:1], (8,)), 8))
    # Sizes.
    with pytest.raises(ValueError,
                       match=r"global size \(10,\) is not a multiple of the local size"):
        k(10, 4, (1.0, x, y, 8))
    with pytest.raises(ValueError, match="1 to 3 dims"):
        k((1, 1, 1, 1), None, (1.0, x, y, 8))
    with pytest.raises(ValueError, match="local size"):
        k((8, 1), (8,), (1.0, x, y, 8))
    assert_same(y, np.zeros(8, np.float32))     # nothing ran


@pytest.mark.skipif(len(DEVICES) < 2, reason="needs two devices")
def test_placement_errors():
    k = lc.RawKernel(F32_AXPY, "axpy")
    d0, d1 = DEVICES[:2]
    x = lz(np.zeros(8, np.float32), d0)
    y = lz(np.zeros(8, np.float32), d1)
    with pytest.raises(lc.PlacementError, match=r"argument 3 \('y'\) lives on"):
        k(8, None, (1.0, x, y, 8))
    with pytest.raises(lc.PlacementError, match="the kernel's arrays live on"):
        k(8, None, (1.0, x, lz(np.zeros(8, np.float32), d0), 8), device=d1)


@pytest.mark.parametrize("src, msg", [
    (F32_AXPY, "no kernel named 'other'"),
    ("__kernel void other(bool b) {}", r"parameter 1 \('bool b'\): OpenCL C allows no bool"),
    ("__kernel void other(__global half *h) {}", "no float16"),
    ("__kernel void other(float *p) {}", "__global, __constant or __local"),
    ("__kernel void other(__local float x) {}", "must be a pointer"),
    ("__kernel void other(__read_only image2d_t im) {}", "images"),
    ("__kernel void other(__global float **pp) {}", "pointers to scalars"),
])
def test_source_errors(src, msg):
    with pytest.raises(ValueError, match=msg):
        lc.RawKernel(src, "other")


def test_parameters_read_from_the_source():
    src = r"""
    // __kernel void k(int wrong) in a comment
    #define GLOBAL __global
    __kernel __attribute__((reqd_work_group_size(64, 1, 1)))
    void k(GLOBAL float *restrict out, __global const int *in, __constant double *c,
           const __global uchar *m, __global float * const p, __local int *tmp, ulong n)
    { }
    """
    k = lc.RawKernel(src, "k")
    assert k.params == (
        ("out", "global", np.dtype("float32"), True),
        ("in", "global", np.dtype("int32"), False),
        ("c", "constant", np.dtype("float64"), False),
        ("m", "global", np.dtype("uint8"), False),
        ("p", "global", np.dtype("float32"), True),     # a const pointer to writable data
        ("tmp", "local", np.dtype("int32"), False),
        ("n", "scalar", np.dtype("uint64"), False))


BAD = """__kernel void bad(__global float *x, float a)
{
    int i = get_global_id(0);
    x[i] = a * undeclared_name;
}
"""


def test_compile_error(dev):
    k = lc.RawKernel(BAD, "bad")
    x = lz(np.zeros(4, np.float32), dev)
    with pytest.raises(lc.CompileError) as info:
        k(4, None, (x, 1.0))
    e = info.value
    text = str(e)
    assert text.startswith("RawKernel 'bad' failed to build for device")
    assert "line 4: x[i] = a * undeclared_name;" in text
    assert "error: use of undeclared identifier" in text.split("line 4:", 1)[1].split("\n")[1]
    assert "get_global_id" not in text          # not the whole source
    assert e.line == 4
    assert "get_global_id" in e.detail          # the full source and log
    assert_same(x, np.zeros(4, np.float32))


CHILD = """
import json, sys
import numpy as np
import lazycl as lc
src, dev = sys.argv[1], lc.Device(sys.argv[2])
k = lc.RawKernel(src, "axpy")
x = lc.asarray(np.arange(8, dtype=np.float32), device=dev, copy=True).compute()
y = lc.asarray(np.ones(8, dtype=np.float32), device=dev, copy=True).compute()
lc.reset_stats()
k(8, None, (2.0, x, y, 8))
s = lc.stats()
assert (np.asarray(y) == 2 * np.arange(8) + 1).all()
print(json.dumps(s))
"""


def test_disk_cache_hit_in_a_second_process(dev, tmp_path):
    src = F32_AXPY + f"/* {tmp_path} */\n"        # a source no cache has seen
    env = dict(os.environ, LAZYCL_CACHE_DIR=str(tmp_path / "cache"))
    env.pop("LAZYCL_CACHE", None)
    stats = []
    for _ in range(2):
        r = subprocess.run([sys.executable, "-c", CHILD, src, dev.filter_string], env=env,
                           capture_output=True, text=True, timeout=300)
        assert r.returncode == 0, r.stderr
        stats.append(json.loads(r.stdout.strip().splitlines()[-1]))
    assert stats[0]["kernels_compiled"] == 1 and stats[0]["disk_cache_hits"] == 0
    assert stats[1]["kernels_compiled"] == 0 and stats[1]["disk_cache_hits"] == 1
    # In this process, the memory cache: a second call builds nothing.
    k = lc.RawKernel(src, "axpy")
    x = lz(np.ones(8, np.float32), dev)
    k(8, None, (1.0, x, x, 8))
    lc.reset_stats()
    k(8, None, (1.0, x, x, 8))
    s = lc.stats()
    assert s["kernels_compiled"] == 0 and s["disk_cache_hits"] == 0 and s["launches"] == 1
    assert_same(x, np.full(8, 4, np.float32))
