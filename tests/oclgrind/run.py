"""run.py: every schedule family's kernels on Oclgrind's simulator (`make oclgrind`).

Oclgrind (Debian's `oclgrind`) interprets OpenCL kernels and reports data races, reads of
uninitialized memory, out-of-bounds accesses, barrier divergence and API misuse. This driver
runs small cases of each schedule family (FAMILIES below) under it, with the kernels shaped
for each kind of device (LAZYCL_SCHEDULE = cpu, simd, gpu: SCHEDULES), checks every result
against NumPy, and fails on any Oclgrind message at all and on any wrong result.

Each (schedule, family) runs in a child Python of its own (`run.py --child KIND FAMILY`) with
Oclgrind's runtime preloaded, so Oclgrind's is the only OpenCL platform it sees, an empty
LAZYCL_CACHE_DIR (every kernel is built and run by the simulator, never loaded from a cache)
and LAZYCL_DEBUG=2, whose launch lines say which schedules ran: EXPECT names the ones each
family must reach, so that a threshold moved elsewhere cannot silently drop a path.

How Oclgrind is set up here, and why:
- Oclgrind's runtime (liboclgrind-rt.so) is preloaded with its options in OCLGRIND_*
  variables, as the `oclgrind` command does; the command itself would replace LD_PRELOAD,
  and whole_writes.so (beside this file) must come first: it works around Oclgrind 21.10
  forgetting which bytes of a buffer are initialized after a host write to part of it.
- -cl-opt-disable: with optimizations, LLVM emits `freeze`, which Oclgrind 21.10's
  uninitialized-value checker cannot interpret (a fatal error that aborts the kernel).
- The uninitialized-value checker is off for the PoCL random family (UNINIT_OFF): Oclgrind
  21.10's checker crashes (SIGSEGV) on any vector shuffle with a non-identity mask, such as
  `(ulong4)(...).s1032`, which PoCL's 8-lane random helpers (codegen/philox.h) are made of.
  Out-of-bounds accesses, races and the results are still checked there.
- 48 KiB of local memory, as NVIDIA's GPUs give a work-group (Oclgrind's default is 32 KiB,
  and the GPU sort tiles are sized for 48 KiB).
- Oclgrind reports one compute unit and classes its device as a GPU.
- No pinned staging (LAZYCL_STAGE=0): the staging thread's writes of a big upload (8 MB and
  more), beside the caller's, crashed Oclgrind's runtime, which is not thread-safe.

Usage: python3 tests/oclgrind/run.py [--schedules cpu,simd,gpu] [--families map,sort,...]
                                     [--cases simd:sort,gpu:scan,...] [--jobs N] [--keep DIR]
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SCHEDULES = ["cpu", "simd", "gpu"]


# ---- the cases (run in the child, under Oclgrind) ---------------------------------------------

def _data(np, dtype, shape, seed=0):
    """Deterministic values of dtype: small signed integers, or floats with fractions and a
    few ties, -0.0 and (floats) a NaN, so sorts and selections meet their special cases."""
    rng = np.random.default_rng(seed)
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return rng.integers(0, 2, shape).astype(bool)
    if dt.kind in "iu":
        return rng.integers(0 if dt.kind == "u" else -50, 50, shape).astype(dt)
    if dt.kind == "c":
        return (rng.uniform(-3, 3, shape) + 1j * rng.uniform(-3, 3, shape)).astype(dt)
    return rng.uniform(-4, 4, shape).round(2).astype(dt)


def _same(np, got, ref, what, rtol=0.0, atol=0.0):
    got = np.asarray(got)
    ref = np.asarray(ref)
    assert got.shape == ref.shape, f"{what}: shape {got.shape}, expected {ref.shape}"
    assert got.dtype == ref.dtype, f"{what}: dtype {got.dtype}, expected {ref.dtype}"
    if rtol or atol:
        np.testing.assert_allclose(got, ref, rtol=rtol, atol=atol, equal_nan=True, err_msg=what)
    else:
        np.testing.assert_array_equal(got, ref, err_msg=what)


def case_map(lc, np):
    for dt in ("float32", "float64", "int32", "uint8"):
        h = _data(np, dt, (37, 131), 1)
        b = _data(np, dt, (131,), 2)
        x, y = lc.asarray(h), lc.asarray(b)
        _same(np, x * 3 + y, h * 3 + b, f"map {dt}")
        _same(np, x[:, ::-3] - y[::-3], h[:, ::-3] - b[::-3], f"map strided {dt}")
        _same(np, lc.maximum(x.T, 1), np.maximum(h.T, 1), f"map transposed {dt}")
    h = _data(np, "float32", (1001,), 3)
    _same(np, lc.exp(lc.asarray(h)) / (1 + lc.sin(lc.asarray(h)) ** 2),
          np.exp(h) / (1 + np.sin(h) ** 2), "map math f32", rtol=2e-6)
    _same(np, lc.where(lc.asarray(h) > 0, lc.asarray(h), 0), np.where(h > 0, h, 0), "where")


def _sum_tol(dt, n):
    """A sum of n values in [-4, 4] in any order (lazycl may sum floats in double precision)."""
    eps = {"float32": 6e-8, "float64": 1.2e-16}.get(dt)
    return dict(rtol=eps * n, atol=eps * 4 * n) if eps else {}


def case_reduce(lc, np):
    for dt, axes in (("float32", (None, 0, 1)), ("float64", (None,)), ("int64", (1,))):
        h = _data(np, dt, (37, 131), 4)
        x = lc.asarray(h)
        tol = _sum_tol(dt, h.size)
        for ax in axes:
            _same(np, lc.sum(x, axis=ax), np.sum(h, axis=ax), f"sum {dt} axis {ax}", **tol)
        _same(np, lc.max(x, axis=axes[-1]), np.max(h, axis=axes[-1]), f"max {dt}")
    h = _data(np, "float32", (37, 131), 4)
    _same(np, lc.argmax(lc.asarray(h), axis=1), np.argmax(h, axis=1), "argmax")
    h = _data(np, "float64", (37, 131), 5)
    x = lc.asarray(h)
    _same(np, lc.std(x, axis=1), np.std(h, axis=1), "std f64", rtol=1e-12)
    _same(np, lc.mean(x[:, 3:100:2], axis=0), np.mean(h[:, 3:100:2], axis=0), "mean", rtol=1e-12)


def case_reduce_split(lc, np):
    """Long rows cut over several items or groups, the last combining; columns in blocks."""
    for dt in ("float32", "float64", "int64"):
        h = _data(np, dt, (20000,), 6)
        tol = _sum_tol(dt, h.size)
        _same(np, lc.sum(lc.asarray(h)), np.sum(h), f"split sum {dt}", **tol)
    h = _data(np, "float32", (2, 9000), 7)
    _same(np, lc.max(lc.asarray(h), axis=1), np.max(h, axis=1), "split max rows")
    h = _data(np, "float32", (600, 40), 8)
    x = lc.asarray(h)
    _same(np, lc.sum(x, axis=0), np.sum(h, axis=0), "column sum", **_sum_tol("float32", 600))
    _same(np, lc.var(x, axis=0), np.var(h, axis=0), "column var", rtol=1e-4)
    # Standardize: the column sum from the variance's sums (PoCL), mean and std in its epilogue.
    z = (x - x.mean(axis=0)) / x.std(axis=0)
    _same(np, z, (h - h.mean(axis=0)) / h.std(axis=0), "standardize", rtol=1e-4, atol=1e-5)


def case_scan(lc, np):
    for dt in ("float32", "int64"):
        tol = dict(rtol=1e-5, atol=1e-3) if dt == "float32" else {}
        for shape, ax in (((3, 5000), -1), ((40, 30), -1), ((300, 7), 0), ((9000,), 0)):
            h = _data(np, dt, shape, 9)
            _same(np, lc.cumsum(lc.asarray(h), axis=ax), np.cumsum(h, axis=ax),
                  f"cumsum {dt} {shape} axis {ax}", **tol)
    h = _data(np, "float64", (5, 700), 10)
    _same(np, lc.cumprod(lc.asarray(h) * 0.1 + 1, axis=1), np.cumprod(h * 0.1 + 1, axis=1),
          "cumprod", rtol=1e-12)
    # GPUs scan long rows in one pass (a look-back over tiles of 4096, as the 9000-element
    # cumsums above; float sums in a fixed association): 4-byte states.
    h = _data(np, "int32", (9000,), 23)
    _same(np, lc.cummax(lc.asarray(h)), np.maximum.accumulate(h), "cummax int32")


def _sorts(lc, np, shape, dtypes, seed, ops=("sort", "argsort", "descending")):
    for dt in dtypes:
        h = _data(np, dt, shape, seed)
        if h.dtype.kind == "f":
            h.flat[::97] = np.nan
            h.flat[5::89] = -0.0
        x = lc.asarray(h)
        if "sort" in ops:
            _same(np, lc.sort(x), np.sort(h, kind="stable"), f"sort {dt} {shape}")
        if "argsort" in ops:
            _same(np, lc.argsort(x), np.argsort(h, kind="stable"), f"argsort {dt} {shape}")
        if "descending" in ops:
            _same(np, lc.sort(x * 2, descending=True), -np.sort(-(h * 2), kind="stable"),
                  f"sort descending of a fused map {dt} {shape}")


def case_sort(lc, np):
    """Short rows (sort_row.c on CPUs, one tile on GPUs), many rows, and rows long enough for
    the radix passes over chunks (sort.c, CPUs: > 8192) or over tiles (sort_tile.c, GPUs: more
    than one tile), float and int64 keys, values and indices (the payload) both. A GPU tile
    costs about 10 s a pass under the simulator: one row each, one sort over two tiles."""
    if lc.default_device().schedule == "gpu":     # tiles of 4096 4-byte or 2048 8-byte keys
        _sorts(lc, np, (1, 300), ["float32"], 11, ("argsort",))
        _sorts(lc, np, (1, 200), ["int64"], 12, ("sort", "descending"))
        _sorts(lc, np, (2100,), ["int64"], 14, ("argsort",))
        return
    _sorts(lc, np, (4, 300), ["float32", "float64", "int64", "int32"], 11)
    _sorts(lc, np, (12, 40), ["float32"], 12)
    _sorts(lc, np, (8300,), ["float32", "int64"], 13)
    _sorts(lc, np, (8300,), ["float64"], 14, ("argsort",))
    h = _data(np, "float32", (1001,), 15)
    _same(np, lc.median(lc.asarray(h)), np.median(h), "median")


def case_topk(lc, np):
    for dt, shape in (("float32", (3, 1000)), ("int64", (2, 700)), ("float64", (1, 5000)),
                      ("float32", (2, 3000))):
        h = _data(np, dt, shape, 16)
        if shape == (2, 3000):
            # a rising row and a row of equal values: the SIMD walk's second pass from the end
            h[0] = np.arange(3000, dtype=dt)
            h[1] = 1
        x = lc.asarray(h)
        for k, largest in ((5, True), (64, True), (10, False)):
            v, i = lc.top_k(x, k, largest=largest)
            order = np.argsort(h, axis=-1, kind="stable")
            n = h.shape[-1]
            idx = order[:, n - 1:n - 1 - k:-1] if largest else order[:, :k]
            _same(np, i, idx, f"top_k indices {dt} {shape} k={k} {largest}")
            _same(np, v, np.take_along_axis(h, idx, -1), f"top_k values {dt} {shape} k={k}")
    # a long 1-d row: on GPU schedules its groups' k best, merged by the last group in the
    # first launch (codegen/topk_group.c)
    h = _data(np, "float32", (140000,), 19)
    h[::7] = 0.5
    for k, largest in ((16, True), (3, False)):
        v, i = lc.top_k(lc.asarray(h), k, largest=largest)
        order = np.argsort(h, kind="stable")
        _same(np, i, order[::-1][:k] if largest else order[:k], f"top_k long row k={k}")


def case_store(lc, np):
    for dt in ("float32", "int64", "uint8"):
        h = _data(np, dt, (20, 33), 17)
        x = lc.asarray(h)
        v = _data(np, dt, (3, 33), 18)
        h[[2, 7, 11]] = v
        x[[2, 7, 11]] = v
        h[:, 4:30:3] = 5
        x[:, 4:30:3] = 5
        m = (np.arange(20 * 33).reshape(20, 33) % 7) == 0
        h[m] = 9
        x[lc.asarray(m)] = 9
        x += 1
        h += 1
        _same(np, x, h, f"writes {dt}")
        _same(np, x[lc.asarray(m)], h[m], f"mask read {dt}")
        _same(np, lc.nonzero(lc.asarray(m))[1], np.nonzero(m)[1], "nonzero")
    # CPUs compact a long mask in chunks: a store in row order whose running count is computed
    # in it (python/lazycl/_write.py); a scan only a store reads is computed in the store.
    h = _data(np, "float32", (16 * 256 + 5,), 21)
    x = lc.asarray(h)
    _same(np, x[x > 0], h[h > 0], "chunked compaction")
    # GPUs compact a long mask in one store computing the running count (a look-back) and
    # writing the count (the last tile's inclusive prefix).
    h = _data(np, "float32", (9000,), 24)     # 4 bytes kept: the flags' quads (two tiles)
    _same(np, lc.asarray(h)[lc.asarray(h) > 0], h[h > 0], "one-pass compaction")
    h = _data(np, "int64", (9000,), 25)       # 8 bytes kept an element: the flags' ballots
    _same(np, lc.asarray(h)[lc.asarray(h) > 0], h[h > 0], "one-pass compaction int64")
    g = _data(np, "float32", (8, 300), 22)
    o = lc.asarray(np.zeros((8, 300), np.float32))
    o[...] = lc.cumsum(lc.asarray(g), axis=1) + 1
    _same(np, o, np.cumsum(g.astype(np.float64), axis=1).astype(np.float32) + np.float32(1),
          "scan in a store")


def case_scatter(lc, np):
    """Scatter-adds: private copies (CPUs) or local-memory copies and atomics (GPUs)."""
    rng = np.random.default_rng(19)
    idx = rng.integers(-8, 8, 5000)
    for dt in ("float32", "int32", "float64", "uint64"):
        vals = (rng.random(5000) * 4).astype(dt)
        h = np.zeros(16, dt)
        x = lc.asarray(h)
        np.add.at(x, lc.asarray(idx), lc.asarray(vals))
        np.add.at(h, idx, vals)
        tol = dict(rtol=1e-5) if dt == "float32" else dict(rtol=1e-12) if dt == "float64" else {}
        _same(np, x, h, f"add.at into few places {dt}", **tol)
    idx = rng.integers(0, 3000, 4000)
    h = np.zeros(3000, np.float32)
    x = lc.asarray(h)
    np.add.at(x, lc.asarray(idx), 1.5)
    np.add.at(h, idx, 1.5)
    _same(np, x, h, "add.at into many places")
    idx = rng.integers(0, 300, 5000)
    w = rng.random(5000)
    _same(np, lc.bincount(lc.asarray(idx)), np.bincount(idx), "bincount")
    _same(np, lc.bincount(lc.asarray(idx), weights=lc.asarray(w)), np.bincount(idx, w),
          "bincount weights", rtol=1e-12)
    h = _data(np, "float32", (3000,), 20)
    for bins in (10, 200):
        got, edges = lc.histogram(lc.asarray(h), bins=bins)
        ref, redges = np.histogram(h, bins=bins)
        _same(np, got, ref, f"histogram {bins}")
        _same(np, edges, redges, f"histogram edges {bins}", rtol=1e-6)
    if lc.default_device().schedule == "gpu":
        # GPUs: a scatter-add of many elements into a bigger float target goes by ranges of its
        # places (codegen/store_ranges.c; at least 2^22 elements and 64 a place): three whole
        # ranges and a partial one, a partial last tile. The simulator takes ~15 minutes over
        # it (its first launch alone 515 s).
        n = (1 << 22) + 1000
        rng = np.random.default_rng(45)
        idx, w = rng.integers(0, 6500, n), rng.random(n, dtype=np.float32)
        _same(np, lc.bincount(lc.asarray(idx), weights=lc.asarray(w), minlength=6500),
              np.bincount(idx, w, 6500), "bincount by ranges", rtol=1e-9)


def case_gather(lc, np):
    h = _data(np, "float32", (50, 40), 21)
    x = lc.asarray(h)
    rng = np.random.default_rng(22)
    i = rng.integers(-50, 50, 300)
    j = rng.integers(0, 40, 300)
    _same(np, x[lc.asarray(i)], h[i], "rows")
    _same(np, x[lc.asarray(i), lc.asarray(j)] * 2, h[i, j] * 2, "points")
    k = rng.integers(0, 40, (50, 7))
    _same(np, lc.take_along_axis(x, lc.asarray(k), 1), np.take_along_axis(h, k, 1), "along")
    _same(np, lc.sum(x[lc.asarray(i) % 17], axis=1), np.sum(h[i % 17], axis=1),
          "gather fused with a reduction", rtol=1e-5)


def case_random(lc, np):
    sys.path.insert(0, os.path.join(ROOT, "tests"))
    from test_random import ref_bits32, ref_uniform   # NumPy's Philox4x32-10, independent
    for dt in ("float32", "float64"):
        g = lc.random.default_rng(1234)
        key = g.bit_generator.key
        g.random(7, dtype=dt)
        x = g.random((3, 1001), dtype=dt)
        want = ref_uniform(key, 8, 3003, dt).reshape(3, 1001)
        _same(np, x, want, f"random {dt}")
        _same(np, x[:, ::-3] * 2, want[:, ::-3] * 2, f"random view {dt}")
        _same(np, lc.sum(x, axis=1), want.sum(axis=1), f"random reduced {dt}", rtol=1e-5)
    g = lc.random.default_rng(99)
    key = g.bit_generator.key
    r = g.integers(-5, 17, 1000)
    w = ref_bits32(key, 0, 1000).astype(np.uint64)
    _same(np, r, -5 + ((w * np.uint64(22)) >> np.uint64(32)).astype(np.int64), "integers")
    n = np.asarray(lc.random.default_rng(5).normal(size=4000))
    assert abs(n.mean()) < 0.1 and abs(n.std() - 1) < 0.1, "normal moments"


def case_gemm(lc, np):
    for dt in ("float32", "float64"):
        tol = dict(rtol=2e-5, atol=2e-5) if dt == "float32" else dict(rtol=1e-12, atol=1e-12)
        a = _data(np, dt, (70, 20), 23)
        b = _data(np, dt, (20, 66), 24)
        ref = a.astype(np.float64) @ b.astype(np.float64)
        _same(np, lc.asarray(a) @ lc.asarray(b), ref.astype(dt), f"matmul {dt}", **tol)
        _same(np, lc.asarray(a[:, :17]) @ lc.asarray(b[:17]),
              (a[:, :17].astype(np.float64) @ b[:17]).astype(dt), f"matmul ragged {dt}", **tol)
    a = _data(np, "float32", (2, 65, 20), 25)
    b = _data(np, "float32", (2, 20, 64), 26)
    _same(np, lc.matmul(lc.asarray(a), lc.asarray(b)), a @ b, "batched", rtol=2e-5, atol=2e-5)
    ai = _data(np, "int64", (64, 20), 27)
    bi = _data(np, "int64", (20, 64), 28)
    _same(np, lc.asarray(ai) @ lc.asarray(bi), ai @ bi, "int64 matmul")
    # A skinny product: work-groups of as few items as its 6 rows need (CPU targets).
    xs = _data(np, "float32", (6, 40), 29)
    ws = _data(np, "float32", (40, 70), 30)
    bs = _data(np, "float32", (70,), 31)
    _same(np, lc.maximum(lc.asarray(xs) @ lc.asarray(ws) + lc.asarray(bs), 0),
          np.maximum(xs.astype(np.float64) @ ws + bs, 0).astype("float32"), "skinny relu",
          rtol=2e-5, atol=2e-5)
    # ... and one long enough along K to be cut into slices (GPU targets: gemm_skinny.c).
    xl = _data(np, "float32", (6, 300), 32)
    wl = _data(np, "float32", (300, 70), 33)
    _same(np, lc.maximum(lc.asarray(xl) @ lc.asarray(wl) + lc.asarray(bs), 0),
          np.maximum(xl.astype(np.float64) @ wl + bs, 0).astype("float32"), "skinny sliced",
          rtol=2e-5, atol=2e-4)
    # ... with W a view one value into rows 71 apart (no 16-byte loads: value by value).
    wo = _data(np, "float32", (300, 71), 34)
    _same(np, lc.asarray(xl) @ lc.asarray(wo)[:, 1:],
          (xl.astype(np.float64) @ wo[:, 1:]).astype("float32"), "skinny unaligned",
          rtol=2e-5, atol=2e-4)
    # Matrix-vector products: rows in blocks sharing the vector's loads, and column panels
    # (PoCL; reduce.c, reduce_split.c), each with a partial last block.
    av = _data(np, "float32", (53, 301), 35)
    vv = _data(np, "float32", (301,), 36)
    _same(np, lc.asarray(av) @ lc.asarray(vv), (av.astype(np.float64) @ vv).astype("float32"),
          "matrix-vector", rtol=2e-5, atol=2e-4)
    _same(np, lc.asarray(vv[:53]) @ lc.asarray(av),
          (vv[:53].astype(np.float64) @ av).astype("float32"), "vector-matrix", rtol=2e-5,
          atol=2e-4)
    at = _data(np, "float32", (300, 45), 37)
    _same(np, lc.asarray(vv[:300]) @ lc.asarray(at),
          (vv[:300].astype(np.float64) @ at).astype("float32"), "vector-matrix panels",
          rtol=2e-5, atol=2e-4)


def case_gemm_post(lc, np):
    """Products reduced along rows or columns in the product's epilogue."""
    a = _data(np, "float32", (70, 24), 29)
    b = _data(np, "float32", (24, 66), 30)
    bias = _data(np, "float32", (66,), 31)
    A, B, bb = lc.asarray(a), lc.asarray(b), lc.asarray(bias)
    p = a.astype(np.float64) @ b.astype(np.float64)
    tol = dict(rtol=2e-5, atol=2e-3)
    _same(np, (A @ B).sum(0), p.sum(0).astype(np.float32), "sum0", **tol)
    _same(np, (A @ B).sum(1), p.sum(1).astype(np.float32), "sum1", **tol)
    _same(np, lc.maximum(A @ B + bb, 0).max(0), np.maximum(p + bias, 0).max(0).astype(np.float32),
          "relu max0", **tol)
    _same(np, lc.linalg.norm(A @ B, axis=1), np.linalg.norm(p, axis=1).astype(np.float32),
          "norm1", **tol)
    _same(np, ((A @ B) ** 2).sum(), np.float32((p ** 2).sum()), "sum of squares", **tol)


def case_complex(lc, np):
    for dt in ("complex64", "complex128"):
        tol = dict(rtol=2e-5, atol=2e-5) if dt == "complex64" else dict(rtol=1e-12, atol=1e-12)
        z = _data(np, dt, (30, 41), 32)
        w = _data(np, dt, (41,), 33)
        Z, W = lc.asarray(z), lc.asarray(w)
        _same(np, Z * W + 1j, z * w + 1j, f"complex map {dt}", **tol)
        _same(np, lc.exp(Z) / (W + 4), np.exp(z) / (w + 4), f"complex math {dt}", **tol)
        _same(np, lc.abs(Z), np.abs(z), f"abs {dt}", **tol)
        _same(np, lc.sum(Z, axis=0), np.sum(z, axis=0), f"complex sum {dt}", **tol)
        _same(np, lc.cumsum(Z, axis=1), np.cumsum(z, axis=1), f"complex cumsum {dt}", **tol)
        _same(np, Z @ lc.asarray(z.T.conj()), z @ z.T.conj(), f"complex matmul {dt}", **tol)
        if dt == "complex64":
            _same(np, lc.sort(Z[0]), np.sort(z[0]), f"complex sort {dt}")


def case_user(lc, np):
    """User kernels (lazycl.ElementwiseKernel, ReductionKernel) fused into maps and into
    reductions of each schedule: rows split over items or groups, columns in blocks, states
    with and without an identity."""
    sq = lc.ElementwiseKernel("T x, T y", "T z", "z = (x - y) * (x - y)", "sqdiff")
    l2 = lc.ReductionKernel("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm")
    mx = lc.ReductionKernel("T x", "T y", "x", "a > b ? a : b", "y = a", None, "noidmax")
    h, b = _data(np, "float32", (37, 131), 40), _data(np, "float32", (131,), 41)
    x, y = lc.asarray(h), lc.asarray(b)
    _same(np, sq(x, y) + 1, (h - b) ** 2 + 1, "user map")
    h64 = h.astype(np.float64)
    for ax in (None, 0, 1):
        _same(np, l2(x - y, axis=ax), np.sqrt(((h64 - b) ** 2).sum(axis=ax)).astype(np.float32),
              f"user l2 axis {ax}", rtol=1e-5)
        _same(np, mx(x, axis=ax), h.max(axis=ax), f"user max axis {ax}")
    v = _data(np, "float32", (20000,), 42)
    _same(np, l2(lc.asarray(v)), np.float32(np.sqrt((v.astype(np.float64) ** 2).sum())),
          "user split l2", rtol=1e-5)
    _same(np, mx(lc.asarray(v)), v.max(), "user split max")
    c = _data(np, "float32", (600, 40), 43)
    _same(np, l2(lc.asarray(c), axis=0), np.sqrt((c.astype(np.float64) ** 2).sum(0)).astype(
        np.float32), "user column l2", rtol=1e-5)
    _same(np, mx(lc.asarray(c), axis=0), c.max(0), "user column max")


FAMILIES = {
    "map": case_map, "reduce": case_reduce, "reduce_split": case_reduce_split,
    "scan": case_scan, "sort": case_sort, "topk": case_topk, "store": case_store,
    "scatter": case_scatter, "gather": case_gather, "random": case_random, "gemm": case_gemm,
    "gemm_post": case_gemm_post, "complex": case_complex, "user": case_user,
}

# (family, schedule kind) -> words of the schedules (LAZYCL_DEBUG=2's launch lines) that must
# have run, each in some launch; a family not listed must only build and launch something.
_CPU = {
    "store": ["store 1-d", "store 2-d", "store in row order with its scan",
              "store with its scan"],
    "sort": ["LSD radix, ", "chunks per row", "one item per row"],
    "scan": ["scan: one item per row", "three phases over chunks"],
    "reduce_split": ["split over groups"],
    "scatter": ["into private copies", "combined atomically"],
    "gemm": ["gemm: 4 rows"],
}
_GPU = {
    "topk": ["k largest", "k smallest", "groups' k merged by the last"],
    "store": ["store 1-d", "store 2-d", "store with its scan", "warp ballots",
              "quads of adjacent elements"],
    "sort": ["rows in one work-group tile", "LSD radix in work-group tiles"],
    "scan": ["scan: one item per row", "scan: tiles of"],
    "reduce_split": ["split over groups of 256", "blocks of 256 adjacent outputs"],
    "scatter": ["local copy per work-group", "combined atomically", "scatter-add by ranges"],
    "gemm": ["gemm: 128x128 tiles", "slice of K"],
    "map": ["four elements per item"],
    "user": ["split over groups of 256", "blocks of 256 adjacent outputs"],
}
_CPU["user"] = ["split over groups", "one item per output"]
_SIMD = dict(_CPU, map=["8-wide SIMD"], reduce=["8-wide SIMD across outputs"],
             sort=_CPU["sort"] + ["merge sort in vector registers"],   # not on Intel
             reduce_split=["split over groups", "blocks of 32 outputs"],
             user=["split over groups", "8-wide SIMD", "blocks of 32 outputs"])
_ALL = {"topk": ["k largest", "k smallest"], "gemm_post": ["post-reduction"],
        "store": ["store 1-d", "store 2-d"], "complex": ["map", "reduce", "scan", "sort"]}
EXPECT = {(f, k): w for k, table in (("cpu", _CPU), ("simd", _SIMD), ("gpu", _GPU))
          for f, w in dict(_ALL, **table).items()}


def child(kind, family):
    """Run one family's cases on the only device there is (Oclgrind's); exit 1 on a wrong
    result."""
    import numpy as np

    import lazycl as lc
    dev = lc.default_device()
    assert "oclgrind" in dev.filter_string.lower(), f"not Oclgrind's device: {dev!r}"
    assert dev.schedule == kind, f"schedule {dev.schedule}, expected {kind}"
    try:
        FAMILIES[family](lc, np)
    except Exception:   # noqa: BLE001 - the child reports every failure the same way
        traceback.print_exc()
        return 1
    return 0


# ---- the parent ------------------------------------------------------------------------------

def oclgrind_runtime():
    """The path of Oclgrind's preloadable runtime, from the `oclgrind` command's prefix."""
    exe = shutil.which("oclgrind")
    if not exe:
        sys.exit("oclgrind: the `oclgrind` command is not on PATH (Debian: apt-get install "
                 "oclgrind; `make oclgrind` installs it)")
    lib = os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(exe))), "lib",
                       "oclgrind", "liboclgrind-rt.so")
    if not os.path.exists(lib):
        sys.exit(f"oclgrind: no {lib} beside {exe}")
    return lib


def build_shim(out_dir):
    so = os.path.join(out_dir, "whole_writes.so")
    cc = os.environ.get("CC", "cc")
    cmd = [cc, "-Wall", "-Wextra", "-Werror", "-O2", "-shared", "-fPIC", "-o", so,
           os.path.join(HERE, "whole_writes.c"), "-ldl"]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode:
        sys.exit(f"oclgrind: building the shim failed:\n{' '.join(cmd)}\n{p.stderr}")
    return so


# An Oclgrind message: a first line at the margin saying what, then indented lines naming
# the kernel, the work-items, the instruction and the kernel's source line.
def findings(log_text):
    out = []
    for line in log_text.splitlines():
        if line[:1].strip():
            out.append([line])
        elif out and line.strip():
            out[-1].append(line)
    return out


def summarize(blocks):
    """One line per (what, kernel, source line) with its count, then the first message of
    each in full."""
    seen = {}
    for b in blocks:
        what = re.sub(r"address 0x[0-9a-f]+", "address", b[0].strip())
        kernel = next((ln.split(":", 1)[1].strip() for ln in b
                       if ln.strip().startswith("Kernel:")), "-")
        where = next((ln.strip() for ln in b if ln.strip().startswith("At line")), "")
        seen.setdefault((what, kernel, where), [0, b])[0] += 1
    lines, full = [], []
    for (what, kernel, where), (n, b) in seen.items():
        lines.append(f"  {n:4d} x {what} | {kernel} | {where or 'no source line'}")
        full.append("\n".join("      " + ln.replace("\t", "  ") for ln in b[:16]))
    return lines, full


LAUNCH = re.compile(r"^\[lazycl\] (\S+): [\d.]+ ms, [\d.]+ GB/s \((.*)\)$")


#: (kind, family) whose kernels Oclgrind's uninitialized-value checker cannot run (see above).
UNINIT_OFF = {("simd", "random")}


def run_one(kind, family, rt, shim, work):
    log = os.path.join(work, f"{kind}-{family}.oclgrind.log")
    cache = os.path.join(work, f"cache-{kind}-{family}")
    dump = os.path.join(work, f"kernels-{kind}-{family}")
    os.makedirs(cache, mode=0o700)
    env = dict(os.environ)
    env.update({
        "LD_PRELOAD": f"{shim} {rt}",
        "OCLGRIND_DATA_RACES": "1", "OCLGRIND_UNINITIALIZED": "1", "OCLGRIND_CHECK_API": "1",
        "OCLGRIND_BUILD_OPTIONS": "-cl-opt-disable", "OCLGRIND_LOCAL_MEM_SIZE": "49152",
        "OCLGRIND_NUM_THREADS": "1", "OCLGRIND_MAX_ERRORS": "3000", "OCLGRIND_LOG": log,
        "LAZYCL_CACHE_DIR": cache, "LAZYCL_SCHEDULE": kind, "LAZYCL_DEBUG": "2",
        "LAZYCL_AUTOTUNE": "0", "LAZYCL_DEVICE": "oclgrind:all",
        "LAZYCL_HOST_FALLBACK_WARNING": "0", "LAZYCL_DUMP": dump,
        # no pinned staging: its thread's writes of a big upload, beside the caller's, crashed
        # Oclgrind's runtime (a SIGSEGV in its clFinish: it is not thread-safe)
        "LAZYCL_STAGE": "0",
    })
    env.pop("LAZYCL_GEMM", None)
    if (kind, family) in UNINIT_OFF:
        env["OCLGRIND_UNINITIALIZED"] = "0"
    t = time.time()
    p = subprocess.run([sys.executable, os.path.abspath(__file__), "--child", kind, family],
                       capture_output=True, text=True, env=env, cwd=work)
    secs = time.time() - t
    text = open(log).read() if os.path.exists(log) else ""
    found = findings(text)
    schedules = {}
    built = 0
    for line in p.stderr.splitlines():
        m = LAUNCH.match(line)
        if m:
            schedules[m.group(2)] = schedules.get(m.group(2), 0) + 1
        elif "built from source" in line or "built through SPIR-V" in line:
            built += 1
    errors = [ln for ln in p.stderr.splitlines()
              if not ln.startswith(("lazycl:", "[lazycl]"))]
    # what Oclgrind writes to stderr in spite of OCLGRIND_LOG (a fatal error: the kernel is
    # abandoned) is a finding too, with the lines after it
    for i, ln in enumerate(errors):
        if "OCLGRIND" in ln or "Oclgrind" in ln:
            found.append([ln] + [x for x in errors[i + 1:i + 6] if x.strip()])
    return dict(kind=kind, family=family, dump=dump, rc=p.returncode, secs=secs, findings=found,
                schedules=schedules, built=built, errors=errors, stdout=p.stdout)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--child", nargs=2, metavar=("KIND", "FAMILY"), help=argparse.SUPPRESS)
    ap.add_argument("--schedules", default=",".join(SCHEDULES))
    ap.add_argument("--families", default=",".join(FAMILIES))
    ap.add_argument("--cases", help="KIND:FAMILY,... pairs to run instead of every schedule "
                    "kind x family")
    ap.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--keep", help="a directory to keep the logs and caches in")
    a = ap.parse_args()
    if a.child:
        return child(*a.child)
    if a.cases:
        pairs = [tuple(c.split(":", 1)) for c in a.cases.split(",") if c]
    else:
        pairs = [(k, f) for k in a.schedules.split(",") if k for f in a.families.split(",") if f]
    bad = sorted({":".join(p) for p in pairs
                  if len(p) != 2 or p[0] not in SCHEDULES or p[1] not in FAMILIES})
    if bad:
        sys.exit(f"oclgrind: unknown kind or family in: {', '.join(bad)} (schedules: "
                 f"{', '.join(SCHEDULES)}; families: {', '.join(FAMILIES)})")
    rt = oclgrind_runtime()
    work = a.keep or tempfile.mkdtemp(prefix="lazycl-oclgrind-")
    os.makedirs(work, exist_ok=True)
    shim = build_shim(work)
    # the slowest first (the GPU tile sorts), so that two workers end together
    slow = ("sort", "gemm", "gemm_post", "complex", "reduce")
    jobs = sorted(pairs,
                  key=lambda kf: (kf[1] not in slow, kf[0] != "gpu", slow.index(kf[1])
                                  if kf[1] in slow else 0))
    t0 = time.time()
    from concurrent.futures import ThreadPoolExecutor, as_completed
    failed = 0
    with ThreadPoolExecutor(max(1, a.jobs)) as pool:
        futures = [pool.submit(run_one, k, f, rt, shim, work) for k, f in jobs]
        for fut in as_completed(futures):
            r = fut.result()
            want = EXPECT.get((r["family"], r["kind"]), [])
            missing = [w for w in want if not any(w in s for s in r["schedules"])]
            ok = (r["rc"] == 0 and not r["findings"] and not missing and r["schedules"]
                  and r["built"])
            failed += not ok
            print(f"{'ok  ' if ok else 'FAIL'} {r['kind']:4s} {r['family']:12s} "
                  f"{r['secs']:6.1f} s  {sum(r['schedules'].values()):3d} launches, "
                  f"{r['built']} kernels built, {len(r['findings'])} Oclgrind messages", flush=True)
            for s, n in sorted(r["schedules"].items()):
                print(f"       {n:4d} x {s}")
            if r["findings"]:
                lines, full = summarize(r["findings"])
                print(f"     Oclgrind (the kernels' sources are in {r['dump']}):")
                print("\n".join(lines))
                print("\n".join(full))
            if r["rc"]:
                print(f"     the child exited with {r['rc']}:")
                print("\n".join("       " + ln for ln in (r["errors"] + r["stdout"].splitlines())[-30:]))
            if missing:
                print(f"     these schedules never ran: {', '.join(missing)}")
            if not r["schedules"] or not r["built"]:
                print("     no kernel was built and launched (LAZYCL_DEBUG=2 printed none)")
    print(f"oclgrind: {len(jobs) - failed} of {len(jobs)} passed in {time.time() - t0:.0f} s"
          + (f"; logs in {work}" if a.keep or failed else ""))
    if not a.keep and not failed:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
