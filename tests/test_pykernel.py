"""@lazycl.kernel: data-parallel kernels written in Python, translated to OpenCL C and run through
lazycl.RawKernel (python/lazycl/_pykernel.py, issue 31). Each construct against NumPy doing the
same, on every device; RawKernel's write rules; the cache; every error, with its Python line."""
import inspect
import json
import math
import os
import subprocess
import sys

import numpy as np
import pytest

import lazycl as lc
from conftest import assert_same, lz

WG = 16
TILE = 8
ARR = np.zeros(3)


def line_of(fn, marker):
    """The line number in this file of the line of fn's source holding `marker`."""
    lines, first = inspect.getsourcelines(getattr(fn, "py", fn))
    return first + next(i for i, t in enumerate(lines) if marker in t)


def compiled():
    s = lc.stats()
    return s["kernels_compiled"] + s.get("disk_cache_hits", 0)


# ---- arrays, scalars, indexing ------------------------------------------------------------------

@lc.kernel
def axpy(a, x, y):
    i = lc.get_global_id(0)
    if i < x.size:
        y[i] = a * x[i] + y[i]


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "int64", "uint8"])
def test_axpy_scalar_types(dev, dtype):
    n = 100
    x, y = (np.arange(n) % 7).astype(dtype), (np.arange(n) % 5).astype(dtype)
    for a in (3, np.dtype(dtype).type(2)):
        ly = lz(y, dev)
        axpy[128](a, lz(x, dev), ly)
        # y[i] = a * x[i] + y[i] as NumPy computes it for a 0-d array a, then stored as y's dtype
        want = (np.asarray(a) * x + y).astype(dtype)
        assert_same(ly, want)


def test_python_float_scalar_is_float64(dev):
    x = np.linspace(0, 1, 10, dtype=np.float32)
    y = np.zeros(10, np.float32)
    ly = lz(y, dev)
    axpy[10](0.1, lz(x, dev), ly)
    assert_same(ly, (0.1 * x.astype(np.float64)).astype(np.float32))
    src = axpy.source(0.1, lz(x, dev), ly)
    assert "double a" in src and "__global const float *x" in src and "__global float *y" in src


@lc.kernel
def shapes(a, out):
    n, m, p = a.shape
    out[0] = a.shape[0]
    out[1] = a.shape[-1]
    out[2] = a.size
    out[3] = a.ndim
    out[4] = len(a)
    out[5] = n * 100 + m * 10 + p
    out[6] = a[1, 2, 3]
    out[7] = a[n - 1, m - 1, p - 1]


def test_shape_size_ndim_3d(dev):
    h = np.arange(2 * 3 * 4, dtype=np.int64).reshape(2, 3, 4) * 3
    out = lc.zeros(8, dtype=np.int64, device=dev)
    shapes[1](lz(h, dev), out)
    assert_same(out, np.array([2, 4, 24, 3, 2, 234, h[1, 2, 3], h[-1, -1, -1]]))


@lc.kernel
def transpose_add(a, b, out):
    i = lc.get_global_id(1)
    j = lc.get_global_id(0)
    rows, cols = out.shape
    if i < rows and j < cols:
        out[i, j] = a[j, i] + b[i, j]
        out[i, j] *= 2
        out[i, j] -= 1


@pytest.mark.parametrize("dtype", ["float32", "int16"])
def test_2d_reads_writes_augassign(dev, dtype):
    a = np.arange(35).reshape(7, 5).astype(dtype)
    b = (np.arange(35).reshape(5, 7) % 4).astype(dtype)
    out = lc.zeros((5, 7), dtype=dtype, device=dev)
    transpose_add[(8, 8), (4, 4)](lz(a, dev), lz(b, dev), out)
    assert_same(out, ((a.T + b) * 2 - 1).astype(dtype))


@lc.kernel
def swap_pairs(x):
    i = lc.get_global_id(0) * 2
    if i + 1 < x.size:
        x[i], x[i + 1] = x[i + 1], x[i]


def test_tuple_assignment_into_elements(dev):
    h = np.arange(11, dtype=np.float64)
    x = lz(h, dev)
    swap_pairs[6](x)
    want = h.copy()
    want[0:10:2], want[1:10:2] = h[1:10:2], h[0:10:2]
    assert_same(x, want)


@lc.kernel
def booleans(x, flag, out):
    i = lc.get_global_id(0)
    if i < x.size:
        out[i] = (x[i] > 2) == flag
        if not x[i]:
            return
        out[i] = out[i] and x[i] != 4


def test_bool_arrays_scalars_and_return(dev):
    h = np.array([0, 1, 2, 3, 4, 5, 0], np.int8)
    for flag in (True, np.bool_(False)):
        out = lc.zeros(7, dtype=bool, device=dev)
        booleans[7](lz(h, dev), flag, out)
        want = (h > 2) == flag
        want = np.where(h == 0, want, want & (h != 4))
        assert_same(out, want)


# ---- work-item functions, local and private memory, barriers ------------------------------------

@lc.kernel
def ids(out):
    x = lc.get_global_id(0)
    y = lc.get_global_id(1)
    out[y, x, 0] = lc.get_local_id(0)
    out[y, x, 1] = lc.get_local_id(1)
    out[y, x, 2] = lc.get_group_id(0)
    out[y, x, 3] = lc.get_group_id(1)
    out[y, x, 4] = lc.get_global_size(0) * 1000 + lc.get_global_size(1)
    out[y, x, 5] = lc.get_local_size(0) * 1000 + lc.get_local_size(1)
    out[y, x, 6] = lc.get_num_groups(0) * 1000 + lc.get_num_groups(1)


def test_work_item_functions(dev):
    gx, gy, lx, ly = 8, 6, 4, 2
    out = lc.zeros((gy, gx, 7), dtype=np.int32, device=dev)
    ids[(gx, gy), (lx, ly)](out)
    y, x = np.mgrid[0:gy, 0:gx]
    want = np.stack([x % lx, y % ly, x // lx, y // ly, np.full_like(x, gx * 1000 + gy),
                     np.full_like(x, lx * 1000 + ly),
                     np.full_like(x, gx // lx * 1000 + gy // ly)], axis=-1).astype(np.int32)
    assert_same(out, want)


@lc.kernel
def reverse_groups(x, out):
    """Each work-group's elements reversed, through local memory."""
    tile = lc.local.array(WG, x.dtype)
    i = lc.get_global_id(0)
    l = lc.get_local_id(0)
    tile[l] = x[i]
    lc.barrier(lc.LOCAL_MEM_FENCE)
    out[i] = tile[WG - 1 - l]


@pytest.mark.parametrize("dtype", ["float32", "int64"])
def test_local_array_and_barrier(dev, dtype):
    h = np.arange(4 * WG, dtype=dtype)
    out = lc.zeros_like(lz(h, dev))
    reverse_groups[h.size, WG](lz(h, dev), out)
    assert_same(out, h.reshape(4, WG)[:, ::-1].ravel())
    assert "__local long tile[16]" in reverse_groups.source(out, out) if dtype == "int64" else 1


@lc.kernel
def tile_transpose(a, out):
    """out = a.T through a 2-d local tile with a padded row (TILE x TILE + 1)."""
    tile = lc.local.array((TILE, TILE + 1), np.int32)
    c = lc.get_global_id(0)
    r = lc.get_global_id(1)
    lcol = lc.get_local_id(0)
    lrow = lc.get_local_id(1)
    rows, cols = a.shape
    if r < rows and c < cols:
        tile[lrow, lcol] = a[r, c]
    lc.barrier()
    r2 = lc.get_group_id(0) * TILE + lrow
    c2 = lc.get_group_id(1) * TILE + lcol
    if r2 < cols and c2 < rows:
        out[r2, c2] = tile[lcol, lrow]


def test_2d_local_tile(dev):
    a = np.arange(24 * 40, dtype=np.int32).reshape(24, 40)
    out = lc.zeros((40, 24), dtype=np.int32, device=dev)
    tile_transpose[(40, 24), (TILE, TILE)](lz(a, dev), out)
    assert_same(out, a.T)


@lc.kernel
def private_poly(x, out):
    """Each item keeps x**0 .. x**3 in a private array, then sums them backwards."""
    p = lc.private.array(4, np.float64)
    i = lc.get_global_id(0)
    if i < x.size:
        p[0] = 1.0
        for k in range(1, 4):
            p[k] = p[k - 1] * x[i]
        s = 0.0
        for k in range(3, -1, -1):
            s += p[k]
        out[i] = s


def test_private_array(dev):
    h = np.linspace(-2, 2, 33)
    out = lz(np.zeros(33), dev)
    private_poly[64, 32](lz(h, dev), out)
    assert_same(out, ((h ** 3 + h ** 2) + h) + 1.0, rtol=1e-15)


# ---- atomics ------------------------------------------------------------------------------------

@lc.kernel
def hist_kernel(x, hist):
    i = lc.get_global_id(0)
    if i < x.size:
        lc.atomic.add(hist, x[i], 1)


@pytest.mark.parametrize("dtype", ["int32", "uint32", "int64", "uint64", "float32", "float64"])
def test_atomic_histogram(dev, dtype):
    h = (np.arange(1000) * 7919 % 13).astype(np.int32)
    hist = lc.zeros(13, dtype=dtype, device=dev)
    hist_kernel[1024](lz(h, dev), hist)
    assert_same(hist, np.bincount(h, minlength=13).astype(dtype))


@lc.kernel
def tickets(counter, got):
    i = lc.get_global_id(0)
    got[i] = lc.atomic.add(counter, 0, 1)


def test_atomic_add_returns_the_old_value(dev):
    counter = lc.zeros(1, dtype=np.int32, device=dev)
    got = lc.zeros(256, dtype=np.int32, device=dev)
    tickets[256, 64](counter, got)
    assert_same(counter, np.array([256], np.int32))
    assert_same(lc.sort(got), np.arange(256, dtype=np.int32))


@lc.kernel
def atomic_ops(x, acc):
    i = lc.get_global_id(0)
    if i < x.size:
        v = x[i]
        lc.atomic.sub(acc, 0, v)
        lc.atomic.min(acc, 1, v)
        lc.atomic.max(acc, 2, v)
        lc.atomic.add(acc, 3, v)


@pytest.mark.parametrize("dtype", ["int32", "int64", "float32", "float64"])
def test_atomic_sub_min_max(dev, dtype):
    h = ((np.arange(300) * 37 % 101) - 50).astype(dtype)
    acc = lz(np.array([1000, 10 ** 6, -10 ** 6, 0], dtype), dev)
    atomic_ops[300](lz(h, dev), acc)
    want = np.array([1000 - h.sum(), h.min(), h.max(), h.sum()], dtype)
    assert_same(acc, want)


@lc.kernel
def local_hist(x, hist):
    """A histogram per work-group in local memory (local atomics), then one global atomic per
    bin and group."""
    part = lc.local.array(16, np.int32)
    l = lc.get_local_id(0)
    if l < 16:
        part[l] = 0
    lc.barrier(lc.LOCAL_MEM_FENCE)
    i = lc.get_global_id(0)
    if i < x.size:
        lc.atomic.add(part, x[i] & 15, 1)
    lc.barrier(lc.LOCAL_MEM_FENCE)
    if l < 16:
        lc.atomic.add(hist, l, part[l])


def test_local_atomics(dev):
    h = (np.arange(5000) * 31 % 97).astype(np.int64)
    hist = lc.zeros(16, dtype=np.int32, device=dev)
    local_hist[5056, 64](lz(h, dev), hist)
    assert_same(hist, np.bincount(h & 15, minlength=16).astype(np.int32))


# ---- @lc.func callees, math ---------------------------------------------------------------------

@lc.func
def smoothstep(e0, e1, x):
    t = min(max((x - e0) / (e1 - e0), 0.0), 1.0)
    return t * t * (3.0 - 2.0 * t)


@lc.kernel
def shade(x, out, lo, hi):
    i = lc.get_global_id(0)
    if i < x.size:
        out[i] = smoothstep(lo, hi, x[i]) + math.sqrt(abs(x[i])) + x[i] // 0.75 + i % 3


def test_func_callee_and_math(dev):
    h = np.linspace(-3, 3, 50)
    out = lz(np.zeros(50), dev)
    shade[50](lz(h, dev), out, -1.0, 2.0)
    t = np.clip((h + 1.0) / 3.0, 0.0, 1.0)
    want = t * t * (3.0 - 2.0 * t) + np.sqrt(np.abs(h)) + h // 0.75 + np.arange(50) % 3
    assert_same(out, want, rtol=1e-12, atol=1e-12)


# ---- the stencil and the reduction --------------------------------------------------------------

@lc.kernel
def jacobi_step(u, v):
    j = lc.get_global_id(0)
    i = lc.get_global_id(1)
    n, m = u.shape
    if i < n and j < m:
        if 0 < i < n - 1 and 0 < j < m - 1:
            v[i, j] = 0.25 * (u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1])
        else:
            v[i, j] = u[i, j]


def test_jacobi_stencil(dev):
    h = np.random.default_rng(3).random((33, 47), dtype=np.float32)
    u, v = lz(h, dev), lc.empty((33, 47), dtype=np.float32, device=dev)
    ref = h.copy()
    for _ in range(6):
        jacobi_step[(48, 40), (16, 8)](u, v)
        u, v = v, u
        nxt = ref.copy()
        nxt[1:-1, 1:-1] = np.float32(0.25) * (ref[:-2, 1:-1] + ref[2:, 1:-1] + ref[1:-1, :-2]
                                              + ref[1:-1, 2:])
        ref = nxt
    assert_same(u, ref)


@lc.kernel
def partial_sums(x, out):
    tile = lc.local.array(WG, np.float64)
    lid = lc.get_local_id(0)
    acc = 0.0
    for k in range(lc.get_global_id(0), x.size, lc.get_global_size(0)):
        acc += x[k]
    tile[lid] = acc
    lc.barrier(lc.LOCAL_MEM_FENCE)
    s = WG // 2
    while s > 0:
        if lid < s:
            tile[lid] += tile[lid + s]
        lc.barrier(lc.LOCAL_MEM_FENCE)
        s //= 2
    if lid == 0:
        out[lc.get_group_id(0)] = tile[0]


def test_tiled_reduction(dev):
    h = np.random.default_rng(4).random(10007)
    parts = lc.zeros(8, dtype=np.float64, device=dev)
    total = lc.zeros(1, dtype=np.float64, device=dev)
    partial_sums[8 * WG, WG](lz(h, dev), parts)
    partial_sums[WG, WG](parts, total)
    assert_same(total, np.array([h.sum()]), rtol=1e-12)


# ---- RawKernel's write rules --------------------------------------------------------------------

@lc.kernel
def fill(x, v):
    i = lc.get_global_id(0)
    if i < x.size:
        x[i] = v + i


def test_views_see_writes_and_pending_readers_keep_old_values(dev):
    h = np.arange(12, dtype=np.float32)
    x = lz(h, dev)
    view = x.reshape(3, 4)[1]                 # a view, built before the kernel
    pending = x * 2                           # a pending reader of the old values
    fill[16](x, np.float32(100))
    assert_same(x, 100 + np.arange(12, dtype=np.float32))
    assert_same(view, 100 + np.arange(4, 8, dtype=np.float32))
    assert_same(pending, h * 2)
    y = x + 1                                 # lazy after the kernel: reads its results
    assert_same(y, 101 + np.arange(12, dtype=np.float32))


def test_pending_inputs_are_computed(dev):
    h = np.arange(20, dtype=np.float32)
    y = lz(np.ones(20, np.float32), dev)
    axpy[20](np.float32(2), lz(h, dev) * 3 + 1, y)
    assert_same(y, 2 * (h * 3 + 1) + 1)


def test_written_view_with_offset_is_refused(dev):
    x = lc.zeros(10, dtype=np.float32, device=dev)
    with pytest.raises(ValueError, match=r"kernel 'fill' argument 1 \('x'\).*contiguous"):
        fill[10](x[1:], np.float32(1))


def test_placement_error_across_devices():
    if len(lc.devices()) < 2:
        pytest.skip("one device")
    d0, d1 = lc.devices()[:2]
    x = lc.zeros(4, dtype=np.float32, device=d0)
    y = lc.zeros(4, dtype=np.float32, device=d1)
    with pytest.raises(lc.PlacementError):
        axpy[4](np.float32(1), x, y)


# ---- compiled once per signature ----------------------------------------------------------------

@lc.kernel
def scale(x, a):
    i = lc.get_global_id(0)
    if i < x.size:
        x[i] *= a


def test_cached_per_signature(dev):
    x = lc.zeros(8, dtype=np.float32, device=dev)
    scale[8](x, np.float32(2))
    before = compiled()
    for _ in range(3):
        scale[8](x, np.float32(3))
        scale[(8,), None](x, np.float32(3))
    assert compiled() == before
    scale[8](lc.zeros(8, dtype=np.float64, device=dev), 2.0)
    scale[8](lc.zeros(8, dtype=np.int32, device=dev), 2)
    assert len(scale._progs) == 3                  # one program per signature, every device
    assert compiled() > before


def test_const_only_for_arrays_never_written(dev):
    src = transpose_add.source(*(lc.zeros((2, 2), dtype=np.float32, device=dev),) * 3)
    assert src.count("__global const float *") == 2 and src.count("__global float *out") == 1
    assert "#line" in src and os.path.basename(__file__) in src


def test_dump_and_spirv(tmp_path):
    """LAZYCL_DUMP gets the generated OpenCL C (and the SPIR-V where the device takes it); with
    no disk cache each device builds the kernel once, through SPIR-V where it takes it."""
    code = ("import json, numpy as np, lazycl as lc\n"
            "@lc.kernel\n"
            "def dumped(x):\n"
            "    x[lc.get_global_id(0)] = 7\n"
            "out = {}\n"
            "for d in lc.devices():\n"
            "    x = lc.asarray(np.zeros(4, np.int32), device=d, copy=True).compute()\n"
            "    s0 = lc.stats()\n"
            "    dumped[4](x)\n"
            "    s1 = lc.stats()\n"
            "    assert (np.asarray(x) == 7).all()\n"
            "    out[d.filter_string] = [d.takes_spirv and d.type != 'cpu',\n"
            "                            s1['spirv_builds'] - s0['spirv_builds'],\n"
            "                            s1['kernels_compiled'] - s0['kernels_compiled']]\n"
            "print(json.dumps(out))\n")
    script = tmp_path / "k.py"
    script.write_text(code)
    env = dict(os.environ, LAZYCL_DUMP=str(tmp_path / "dump"), LAZYCL_CACHE="0")
    r = subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout.strip().splitlines()[-1])
    for name, (spirv, spirv_builds, built) in got.items():
        # (PoCL's in-thread companion device may build it a second time; auto takes SPIR-V
        # on GPUs that take it, a CPU driver builds from source)
        assert built >= 1 and (spirv_builds >= 1) == spirv, (name, got)
    files = os.listdir(tmp_path / "dump")
    cl = [f for f in files if f.startswith("lc_pk_dumped_") and f.endswith(".cl")]
    assert len(cl) == 1, files
    assert "__kernel void lc_pk_dumped_" in (tmp_path / "dump" / cl[0]).read_text()
    if any(spirv for spirv, _, _ in got.values()):
        assert cl[0][:-3] + ".spv" in files, files


# ---- errors -----------------------------------------------------------------------------------

def test_launch_errors(dev):
    x = lc.zeros(8, dtype=np.float32, device=dev)
    with pytest.raises(TypeError, match=r"scale\[global_size, local_size\]"):
        scale(x, 2.0)
    with pytest.raises(TypeError, match="takes 2 arguments"):
        scale[8](x)
    with pytest.raises(TypeError, match="lc.asarray"):
        scale[8](np.zeros(8, np.float32), 2.0)
    with pytest.raises(TypeError, match="argument 2: expected a lazycl array or a real scalar"):
        scale[8](x, "2")
    with pytest.raises(TypeError, match="an array of dtype complex128"):
        scale[8](lc.zeros(8, dtype=np.complex128, device=dev), 2.0)
    with pytest.raises(TypeError, match="a scalar of dtype float16"):
        scale[8](x, np.float16(2))
    with pytest.raises(TypeError, match="a scalar of dtype object"):
        scale[8](x, 2 ** 70)
    with pytest.raises(ValueError, match="not a multiple of the local size"):
        scale[10, 4](x, 2.0)


def test_api_outside_a_kernel():
    for call in (lambda: lc.get_global_id(0), lambda: lc.barrier(),
                 lambda: lc.local.array(4, np.float32), lambda: lc.atomic.add(ARR, 0, 1)):
        with pytest.raises(TypeError, match="inside an @lazycl.kernel"):
            call()


class Point:
    x = 1.0


def k_object(x):
    x[0] = Point()  # MARK


def k_dict(x):
    d = {"a": 1}  # MARK  # noqa: F841
    x[0] = 1


def k_string(x):
    s = "abc"  # MARK  # noqa: F841


def k_raise(x):
    if x[0] > 1:
        raise ValueError("no")  # MARK


def k_try(x):
    try:  # MARK
        x[0] = 1
    except Exception:
        pass


def k_closure_array(x):
    x[0] = ARR[0]  # MARK


def k_return_value(x):
    return x[0]  # MARK


def k_index_count(x):
    x[0] = x[1, 2]  # MARK


def k_slice(x):
    x[0] = x[1:3]  # MARK


def k_float_index(x):
    x[0] = x[1.5]  # MARK


def k_negative_index(x):
    x[0] = x[-1]  # MARK


def k_assign_array(x):
    x = 3  # MARK  # noqa: F841


def k_array_value(x):
    y = x + 1  # MARK  # noqa: F841


def k_local_shape(x):
    n = 4
    t = lc.local.array(n, np.float32)  # MARK
    x[0] = t[0]


def k_barrier_flags(x):
    lc.barrier(7)  # MARK


def k_atomic_private(x):
    p = lc.private.array(4, np.int32)
    lc.atomic.add(p, 0, 1)  # MARK


def k_atomic_int8(x):
    lc.atomic.add(x, 0, 1)  # MARK


def k_unknown_call(x):
    x[0] = np.sum(x)  # MARK


def k_shape_value(x):
    s = x.shape  # MARK  # noqa: F841


def k_local_keyword(x):
    local = 1  # MARK
    x[0] = local


ERRORS = [
    (k_object, "float32", "Point"),
    (k_dict, "float32", "dicts"),
    (k_string, "float32", "strings"),
    (k_raise, "float32", "exceptions"),
    (k_try, "float32", "exceptions"),
    (k_closure_array, "float32", "the array 'ARR' from outside the kernel"),
    (k_return_value, "float32", "returning a value"),
    (k_index_count, "float32", "2 indices into 'x', a 1-d array"),
    (k_slice, "float32", "slices"),
    (k_float_index, "float32", "an index of dtype"),
    (k_negative_index, "float32", "negative index"),
    (k_assign_array, "float32", "assigning to 'x', an array"),
    (k_array_value, "float32", "the array 'x' as a value"),
    (k_local_shape, "float32", "from the variable 'n'"),
    (k_barrier_flags, "float32", r"barrier\(7\)"),
    (k_atomic_private, "float32", "private array"),
    (k_atomic_int8, "int8", "int8 array"),
    (k_unknown_call, "float32", "calling 'sum'"),
    (k_shape_value, "float32", "x.shape as a value"),
    (k_local_keyword, "float32", "OpenCL C keyword"),
]


@pytest.mark.parametrize("fn, dtype, what", ERRORS, ids=[f.__name__ for f, _, _ in ERRORS])
def test_unsupported_constructs(fn, dtype, what):
    k = lc.kernel(fn)
    x = lc.zeros(4, dtype=dtype)
    with pytest.raises(lc.CompileError, match=what) as e:
        k[4](x)
    msg = str(e.value)
    assert f"kernel '{fn.__name__}', line {line_of(fn, '# MARK')} of {__file__}" in msg, msg


@lc.func
def fact(n):
    return 1 if n <= 1 else n * fact(n - 1)


def k_recursion(x):
    x[0] = fact(5)  # MARK


def k_calls_itself(x):
    k_self[1](x)  # MARK


k_self = lc.kernel(k_calls_itself)


def test_recursion():
    with pytest.raises(lc.CompileError, match="recursion"):
        lc.kernel(k_recursion)[1](lc.zeros(1, dtype=np.int64))
    with pytest.raises(lc.CompileError, match="calling the kernel 'k_calls_itself'"):
        k_self[1](lc.zeros(1, dtype=np.int64))


def test_lambda_is_refused():
    k = lc.kernel(lambda x: None)
    with pytest.raises(lc.CompileError, match="lambda"):
        k[1](lc.zeros(1))


def k_device_error(x, y):
    i = lc.get_global_id(0)
    sqrt = 2.0
    y[i] = math.sqrt(x[i]) * sqrt  # MARK


def test_device_compile_error_names_the_python_line(dev):
    """A variable named like an OpenCL built-in passes the translator; the device compiler's
    error is reported at the Python line that calls the built-in."""
    k = lc.kernel(k_device_error)
    x = lc.zeros(4, dtype=np.float32, device=dev)
    with pytest.raises(lc.CompileError) as e:
        k[4](x, x * 1)
    msg = str(e.value)
    line = line_of(k_device_error, "# MARK")
    assert f"kernel 'k_device_error', line {line} of {__file__}: y[i] = math.sqrt(x[i]) * sqrt" \
        in msg, msg
