"""Fusion, proven by counting launches (lazycl.stats) and reading lazycl.explain, on every device."""
import re
import subprocess
import sys

import numpy as np
import pytest

import lazycl

DEVICES = lazycl.devices()


def arr(dev, shape=(256, 64), seed=0, dtype=np.float32):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(shape).astype(dtype)
    return a, lazycl.asarray(a, device=dev)


def run(*arrays):
    """Force `arrays` together from a clean slate; return the stats of that run."""
    lazycl.reset_stats()
    lazycl.compute(*arrays)
    return lazycl.stats()


def n_kernels(text):
    m = re.match(r"plan: (\d+) kernels?", text)
    assert m, text[:200]
    return int(m.group(1))


def test_sum_of_squared_difference(dev):
    a, x = arr(dev)
    b, y = arr(dev, seed=1)
    r = lazycl.sum((x - y) ** 2)
    text = lazycl.explain(r)
    assert n_kernels(text) == 1
    assert "reduce" in text and "subtract" in text
    assert "1 buffer" in text.splitlines()[0]
    s = run(r)
    assert s["launches"] == 1
    assert s["buffers_allocated"] + s["pool_hits"] == 1
    np.testing.assert_allclose(float(r), np.sum((a.astype(np.float64) - b) ** 2), rtol=1e-5)


def test_norm(dev):
    a, x = arr(dev)
    r = lazycl.sqrt(lazycl.sum(x * x))
    text = lazycl.explain(r)
    assert n_kernels(text) == 1
    assert "sqrt" in text
    assert run(r)["launches"] == 1
    np.testing.assert_allclose(float(r), np.sqrt(np.sum(a.astype(np.float64) ** 2)), rtol=1e-5)


def n_launches(text):
    """The launches explain announces, summed over its kernels."""
    counts = re.findall(r"^--- kernel \d+: \S+ \((\d+) launch(?:es)?\)", text, re.M)
    assert counts, text[:200]
    return sum(int(c) for c in counts)


def test_mean_and_std_siblings(dev):
    a, x = arr(dev)
    m, s = x.mean(0), x.std(0)
    text = lazycl.explain(m, s)
    assert n_kernels(text) == 1
    # One kernel; PoCL's column blocks take a second launch to combine the partials in order
    # (a launch boundary instead of a last-group combine: no race between groups).
    assert n_launches(text) <= 2
    assert run(m, s)["launches"] == n_launches(text)
    np.testing.assert_allclose(np.asarray(m), a.mean(0), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(np.asarray(s), a.std(0), rtol=1e-5)


def test_mean_var_min_max_siblings(dev):
    a, x = arr(dev)
    outs = (x.mean(1), x.var(1), x.min(1), x.max(1), x.sum(1))
    assert run(*outs)["launches"] == 1
    for got, want in zip(outs, (a.mean(1), a.var(1), a.min(1), a.max(1), a.sum(1))):
        np.testing.assert_allclose(np.asarray(got), want, rtol=1e-4, atol=1e-5)


def test_softmax(dev):
    a, x = arr(dev, (1000,))
    e = lazycl.exp(x - lazycl.max(x))
    r = e / lazycl.sum(e)
    plan = lazycl.explain(r)
    # The max and sum(exp(x - max)) share one pass ("sumexp"), then the division.
    assert n_kernels(plan) == 2 and "sumexp" in plan
    assert run(r)["launches"] == 2
    ea = np.exp(a.astype(np.float64) - a.max())
    np.testing.assert_allclose(np.asarray(r), ea / ea.sum(), rtol=1e-5)


def _softmax_cases():
    rng = np.random.default_rng(5)
    c = {}
    for dt in ("float32", "float64"):
        a = (rng.standard_normal(70000) * 10).astype(dt)
        c[f"{dt}-random"] = (a, None)
        c[f"{dt}-increasing"] = (np.sort(a), None)          # the max grows at every step
        c[f"{dt}-rows"] = ((rng.standard_normal((33, 700)) * 10).astype(dt), 1)
        c[f"{dt}-cols"] = ((rng.standard_normal((700, 33)) * 10).astype(dt), 0)
    a = rng.standard_normal(70000).astype(np.float32)
    b = a.copy(); b[:9000] = -np.inf                          # whole blocks of -inf first
    c["neginf-prefix"] = (b, None)
    b = a.copy(); b[123] = np.nan
    c["nan"] = (b, None)
    b = a.copy(); b[3000:9000] = np.inf
    c["inf"] = (b, None)
    c["all-neginf"] = (np.full(5000, -np.inf, np.float32), None)
    b = rng.standard_normal((4, 7000)).astype(np.float32)
    b[1, :4000] = -np.inf; b[2, 5] = np.nan; b[3] = -np.inf
    c["rows-mixed"] = (b, 1)
    return c


SOFTMAX_CASES = _softmax_cases()


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("case", sorted(SOFTMAX_CASES))
def test_softmax_one_pass_edges(dev, case):
    """The one-pass max + sum(exp) (running max, sums rescaled when it grows) gives NumPy's
    softmax, NaN and infinities included."""
    a, axis = SOFTMAX_CASES[case]
    x = lazycl.asarray(a, device=dev)
    e = lazycl.exp(x - lazycl.max(x, axis=axis, keepdims=True))
    r = e / lazycl.sum(e, axis=axis, keepdims=True)
    assert run(r)["launches"] == 2
    with np.errstate(all="ignore"):
        ea = np.exp(a - a.max(axis=axis, keepdims=True))
        want = ea / ea.sum(axis=axis, keepdims=True)
    got = np.asarray(r)
    assert got.dtype == a.dtype
    np.testing.assert_allclose(got, want, rtol=1e-5 if a.dtype == np.float32 else 1e-12, atol=0)


SOFTMAX_ROWS = """
import numpy as np, lazycl
dev = lazycl.devices()[{i}]
a = np.random.default_rng(0).standard_normal((256, 64)).astype(np.float32)
x = lazycl.asarray(a, device=dev)
e = lazycl.exp(x - lazycl.max(x, axis=1, keepdims=True))
r = e / lazycl.sum(e, axis=1, keepdims=True)
lazycl.reset_stats()
lazycl.compute(r)
assert lazycl.stats()["launches"] <= 3, lazycl.stats()
ea = np.exp(a - a.max(1, keepdims=True))
np.testing.assert_allclose(np.asarray(r), ea / ea.sum(1, keepdims=True), rtol=1e-5)
"""


def test_softmax_rows(dev):
    i = DEVICES.index(dev)
    p = subprocess.run([sys.executable, "-c", SOFTMAX_ROWS.format(i=i)], capture_output=True,
                       text=True, timeout=300)
    assert p.returncode == 0, p.stderr[-2000:]


def test_standardize(dev):
    a, x = arr(dev)
    r = (x - x.mean(0)) / x.std(0)
    text = lazycl.explain(r)
    assert n_kernels(text) <= 2
    # PoCL's column blocks combine their partials in a second launch of the same kernel.
    assert run(r)["launches"] == n_launches(text) <= 3
    np.testing.assert_allclose(np.asarray(r), (a - a.mean(0)) / a.std(0), rtol=1e-4, atol=1e-5)


def test_scan_prologue_adds_no_kernel(dev):
    a, x = arr(dev, (1 << 20,))
    plain = lazycl.cumsum(x)
    fused = lazycl.cumsum(x * x)
    n_plain = run(plain)["launches"]
    n_fused = run(fused)["launches"]
    assert n_fused == n_plain
    assert n_kernels(lazycl.explain(lazycl.cumsum(x * x))) == 1
    np.testing.assert_allclose(np.asarray(fused)[-1], np.sum(a.astype(np.float64) ** 2),
                               rtol=1e-4)


def test_scan_epilogue_is_not_a_new_reduction(dev):
    a, x = arr(dev, (4096,))
    r = lazycl.cumsum(x) * 2
    assert run(r)["launches"] <= run(lazycl.cumsum(x))["launches"] + 1
    np.testing.assert_allclose(np.asarray(r), np.cumsum(a.astype(np.float64)) * 2, rtol=1e-4,
                               atol=1e-4)


def test_ten_op_chain(dev):
    a, x = arr(dev)
    r = x
    ra = a
    for i in range(10):
        if i % 3 == 0:
            r, ra = r * 1.01, ra * np.float32(1.01)
        elif i % 3 == 1:
            r, ra = r + 0.5, ra + np.float32(0.5)
        else:
            r, ra = lazycl.abs(r), np.abs(ra)
    text = lazycl.explain(r)
    assert n_kernels(text) == 1
    assert run(r)["launches"] == 1
    np.testing.assert_allclose(np.asarray(r), ra, rtol=1e-5, atol=1e-6)


def test_several_outputs_one_index_space(dev):
    a, x = arr(dev)
    b, y = arr(dev, seed=1)
    outs = (x + y, x * y, lazycl.exp(x) - y, lazycl.maximum(x, y))
    assert n_kernels(lazycl.explain(*outs)) == 1
    s = run(*outs)
    assert s["launches"] == 1
    assert s["buffers_allocated"] + s["pool_hits"] == 4
    np.testing.assert_allclose(np.asarray(outs[2]), np.exp(a) - b, rtol=1e-5, atol=1e-6)


def test_two_index_spaces_two_kernels(dev):
    a, x = arr(dev)
    outs = (x + 1, x[:10] * 2)
    assert run(*outs)["launches"] == 2


def test_shared_cheap_node_is_recomputed(dev):
    # A cheap elementwise node read by two reductions over different axes is not written out.
    a, x = arr(dev)
    t = x * 2
    outs = (t.sum(0), t.sum(1))
    text = lazycl.explain(*outs)
    assert n_kernels(text) == 2
    s = run(*outs)
    assert s["launches"] == n_launches(text) <= 3   # the column sum may combine in a second launch
    assert s["buffers_allocated"] + s["pool_hits"] == 2
    text = lazycl.explain(*outs)
    assert "temporary" not in text


def test_repeat_uses_cache(dev):
    a, x = arr(dev)
    r1 = lazycl.sum((x - 1) ** 2)
    run(r1)
    r2 = lazycl.sum((x - 1) ** 2)
    s = run(r2)
    assert s["kernels_compiled"] == 0
    # The same structure: the plan cache holds the kernels, no program lookup.
    assert s["plan_hits"] == 1 and s["plan_misses"] == 0
    assert s["memory_cache_hits"] == 0


def test_explain_does_not_run(dev):
    a, x = arr(dev)
    r = lazycl.sum(x * 3)
    lazycl.reset_stats()
    text = lazycl.explain(r)
    assert lazycl.stats()["launches"] == 0
    assert r.pending
    assert "__kernel" in text
    assert re.search(r"lc_reduce_f32_[0-9a-f]{16}", text)
    assert "multiply" in text


def test_explain_map_kernel_name(dev):
    a, x = arr(dev)
    text = lazycl.explain(lazycl.exp(x) + 1)
    assert re.search(r"lc_map_f32_[0-9a-f]{16}", text)
    text = lazycl.explain(lazycl.cumsum(x, axis=1))
    assert re.search(r"lc_scan_f32_[0-9a-f]{16}", text)


@pytest.mark.parametrize("case", ["T_reshape", "slice_T", "T_bcast"])
def test_stacked_views_on_pending(dev, case):
    # Several views over a pending node become index arithmetic on its leaves, applied in order.
    a = np.arange(24, dtype=np.float32).reshape(4, 6)
    x = lazycl.asarray(a, device=dev)
    f = {"T_reshape": lambda v: (-v).T.reshape(-1),
         "slice_T": lambda v: (-v)[::2, 1:].T,
         "T_bcast": lambda v: lazycl.broadcast_to((-v).T[:, :1], (6, 4)) if isinstance(v, lazycl.Array)
         else np.broadcast_to((-v).T[:, :1], (6, 4))}[case]
    got = np.asarray(f(x))
    np.testing.assert_array_equal(got, f(a))


def test_reshape_of_transposed_pending(dev):
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    x = lazycl.asarray(a, device=dev)
    r = (-x).T.reshape(-1)
    np.testing.assert_array_equal(np.asarray(r), (-a).T.reshape(-1))
    # No strided layout reshapes the transpose: -x is written contiguously in
    # the transpose's C order, which is the reshape's, and the reshape takes
    # that buffer: one kernel, one buffer.
    text = lazycl.explain((-x).T.reshape(-1))
    assert n_kernels(text) == 1 and "1 buffer" in text.splitlines()[0], text


# ---- a forced reshape of a node written contiguously takes its buffer ----------------------

def _keep_launches(y):
    """Launches of forcing y alone, after its input is realized."""
    return run(y)["launches"]


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.uint8])
@pytest.mark.parametrize("axis", [0, 1, 2, (0, 2), None])
def test_sum_keepdims_is_one_launch(dev, axis, dtype):
    # keepdims is a reshape of the reduction: a view of its buffer, not a copy kernel.
    a = (np.random.default_rng(3).standard_normal((7, 6, 5)) * 10).astype(dtype)
    x = lazycl.asarray(a, device=dev).compute()
    y = x.sum(axis=axis, keepdims=True)
    text = lazycl.explain(y)
    assert n_kernels(text) == 1 and "1 buffer" in text.splitlines()[0], text
    assert _keep_launches(y) == 1
    want = a.sum(axis=axis, keepdims=True)
    got = np.asarray(y)
    assert got.shape == want.shape and got.dtype == want.dtype
    if dtype == np.float32:
        want = a.astype(np.float64).sum(axis=axis, keepdims=True)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize("axis", [0, 1])
def test_sum_keepdims_2d_is_one_launch(dev, axis):
    a, x = arr(dev, (33, 17))
    x = x.compute()
    y = x.sum(axis=axis, keepdims=True)
    assert _keep_launches(y) == 1
    np.testing.assert_allclose(np.asarray(y), a.sum(axis=axis, keepdims=True, dtype=np.float64),
                               rtol=1e-5)


@pytest.mark.parametrize("fn", ["max", "argmax", "prod", "any"])
def test_other_reductions_keepdims_are_one_launch(dev, fn):
    a = np.random.default_rng(4).standard_normal((6, 9)).astype(np.float32)
    x = lazycl.asarray(a, device=dev).compute()
    y = getattr(lazycl, fn)(x, axis=1, keepdims=True)
    assert _keep_launches(y) == 1
    want = getattr(np, fn)(a, axis=1, keepdims=True)
    got = np.asarray(y)
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=1e-5)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("axis", [0, 1, (0, 2), None])
@pytest.mark.parametrize("fn", ["mean", "std", "var"])
def test_mean_std_keepdims_are_one_launch(dev, fn, axis, dtype):
    # mean is reshape(sum / n) and std sqrt(reshape(var)): the elementwise part is the
    # reduction's epilogue over the kept dims, and the reshape adds unit dims only.
    a = np.random.default_rng(5).standard_normal((7, 6, 5)).astype(dtype)
    x = lazycl.asarray(a, device=dev).compute()
    y = getattr(x, fn)(axis=axis, keepdims=True)
    assert _keep_launches(y) == 1
    want = getattr(a.astype(np.float64), fn)(axis=axis, keepdims=True)
    got = np.asarray(y)
    assert got.shape == want.shape and got.dtype == dtype
    np.testing.assert_allclose(got, want, rtol=1e-4 if dtype == np.float32 else 1e-10, atol=1e-6)


def test_keepdims_epilogue_reads_leaves_with_unit_dims(dev):
    a, x = arr(dev, (40, 12))
    b, y = arr(dev, (40, 1), seed=1)
    x, y = x.compute(), y.compute()
    r = lazycl.sqrt(x.var(axis=1, keepdims=True)) * 2 + y
    assert _keep_launches(r) == 1
    np.testing.assert_allclose(np.asarray(r), np.sqrt(a.astype(np.float64).var(axis=1, keepdims=True))
                               * 2 + b, rtol=1e-5, atol=1e-6)


def test_reduction_and_its_keepdims_forced_together(dev):
    a, x = arr(dev, (31, 8))
    x = x.compute()
    s = x.sum(axis=0)
    k = lazycl.reshape(s, (1, 8))
    assert run(s, k)["launches"] == 1
    want = a.sum(axis=0, dtype=np.float64)
    np.testing.assert_allclose(np.asarray(s), want, rtol=1e-5)
    np.testing.assert_allclose(np.asarray(k), want.reshape(1, 8), rtol=1e-5)


PENDING_RESHAPES = {
    # No strided layout expresses these reshapes of a pending expression.
    "T_slice": lambda v: ((v + 1).T[1:, ::-2] * 2).reshape(-1),
    "reshape_of_reshape": lambda v: ((v + 1).T[1:, ::-2] * 2).reshape(-1).reshape(4, 1, 5),
    "T_reshape_3d": lambda v: (v * v).T.reshape(2, 4, 6),
}


@pytest.mark.parametrize("case", sorted(PENDING_RESHAPES))
@pytest.mark.parametrize("dtype", [np.float32, np.int32])
def test_reshape_of_pending_is_one_launch(dev, case, dtype):
    a = (np.random.default_rng(6).standard_normal((8, 6)) * 10).astype(dtype)
    x = lazycl.asarray(a, device=dev).compute()
    f = PENDING_RESHAPES[case]
    y = f(x)
    text = lazycl.explain(y)
    assert n_kernels(text) == 1 and "1 buffer" in text.splitlines()[0], text
    assert run(y)["launches"] == 1
    want = f(a)
    got = np.asarray(y)
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)


def test_reshape_of_pending_forced_with_its_input(dev):
    # Both outputs are one buffer written by one kernel.
    a = np.random.default_rng(7).standard_normal((8, 6)).astype(np.float32)
    x = lazycl.asarray(a, device=dev).compute()
    m = (x + 1).T[1:, ::-2] * 2
    r = m.reshape(4, 5)
    s = run(m, r)
    assert s["launches"] == 1
    assert s["buffers_allocated"] + s["pool_hits"] == 1
    want = (a + 1).T[1:, ::-2] * 2
    np.testing.assert_array_equal(np.asarray(m), want)
    np.testing.assert_array_equal(np.asarray(r), want.reshape(4, 5))
    # Two reshapes of one pending product, forced without it: one kernel, one buffer.
    m = (x - 1).T[1:, ::-2] * 3
    r1, r2 = m.reshape(-1), m.reshape(2, 1, 10)
    s = run(r1, r2)
    assert s["launches"] == 1
    assert s["buffers_allocated"] + s["pool_hits"] == 1
    want = (a - 1).T[1:, ::-2] * 3
    np.testing.assert_array_equal(np.asarray(r1), want.reshape(-1))
    np.testing.assert_array_equal(np.asarray(r2), want.reshape(2, 1, 10))
    # A reshape that strides can express, forced beside its map: one kernel too.
    m2 = x * 3 - 1
    r2 = m2.reshape(2, 24)
    assert run(m2, r2)["launches"] == 1
    np.testing.assert_array_equal(np.asarray(r2), (a * 3 - 1).reshape(2, 24))
    np.testing.assert_array_equal(np.asarray(m2), a * 3 - 1)


def test_reshape_of_pending_read_by_another_kernel(dev):
    # The written input is the reshape's output and a temporary read by the reduction.
    a = np.random.default_rng(8).standard_normal((8, 6)).astype(np.float32)
    x = lazycl.asarray(a, device=dev).compute()
    m = (x + 1).T[1:, ::-2] * 2
    r, s = m.reshape(-1), m.sum(axis=0)
    assert run(r, s)["launches"] == 2
    want = (a + 1).T[1:, ::-2] * 2
    np.testing.assert_array_equal(np.asarray(r), want.reshape(-1))
    np.testing.assert_allclose(np.asarray(s), want.sum(axis=0), rtol=1e-5)


def test_scan_reshape_is_one_launch(dev):
    a = np.random.default_rng(9).standard_normal((8, 6)).astype(np.float32)
    x = lazycl.asarray(a, device=dev).compute()
    y = lazycl.cumsum(x, axis=0).reshape(-1)
    assert run(y)["launches"] == 1
    np.testing.assert_allclose(np.asarray(y), np.cumsum(a, axis=0).reshape(-1), rtol=1e-5, atol=1e-6)
