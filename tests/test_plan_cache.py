"""The plan cache: a graph of a structure planned before reuses its kernels, binding only its
own buffers, offsets and values; graphs that differ in any structural way never share a plan."""
import os
import subprocess
import sys

import numpy as np
import pytest

import lazycl

DEVICES = lazycl.devices()


def data(shape, seed=0, dtype=np.float32):
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


def forced(f, *arrays):
    """Build f(*arrays) and force it; return (value as NumPy, plan hits, plan misses)."""
    r = f(*arrays)
    lazycl.reset_stats()
    out = np.asarray(r)
    s = lazycl.stats()
    return out, s["plan_hits"], s["plan_misses"]


def check(got, ref):
    ref = np.asarray(ref)
    assert got.shape == ref.shape and got.dtype == ref.dtype, (got.shape, got.dtype, ref.dtype)
    np.testing.assert_allclose(got.astype(np.float64), ref.astype(np.float64), rtol=1e-5,
                               atol=1e-5)


def test_same_structure_hits_with_new_buffers_and_values(dev):
    a, b = data((64, 48), 1), data((64, 48), 2)
    f = lambda x, c: (x * c + 1.0).sum(axis=1)
    for i, (h, c) in enumerate([(a, 1.5), (b, 2.5), (a, -3.0), (b, 1.5)]):
        x = lazycl.asarray(h, device=dev)
        got, hits, misses = forced(f, x, c)
        check(got, (h * np.float32(c) + np.float32(1)).sum(axis=1))
        assert (hits, misses) == ((0, 1) if i == 0 else (1, 0)), i


def test_arange_values_rebound(dev):
    # Start and step of an arange are kernel arguments: a new arange reuses the plan.
    f = lambda s, st: lazycl.arange(s, s + 100 * st, st, dtype="float32", device=dev) * 2
    got, _, m0 = forced(f, 0, 1)
    check(got, np.arange(0, 100, 1, dtype=np.float32) * 2)
    got, hits, misses = forced(f, 5, 3)
    check(got, np.arange(5, 5 + 300, 3, dtype=np.float32) * 2)
    assert hits == 1 and misses == 0


def test_pending_leaf_realized_between_runs_is_rebound(dev):
    # A loop: y = y * 0.5 + x; each iteration has the same structure.
    h = data(1000, 3)
    x = lazycl.asarray(h, device=dev)
    y = lazycl.asarray(np.zeros(1000, np.float32), device=dev)
    ref = np.zeros(1000, np.float32)
    lazycl.reset_stats()
    for _ in range(10):
        y = (y * 0.5 + x).compute()
        ref = ref * np.float32(0.5) + h
    s = lazycl.stats()
    check(np.asarray(y), ref)
    assert s["plan_misses"] == 1 and s["plan_hits"] == 9


# Pairs of graphs that differ in exactly one structural thing. The second must not reuse the
# first's plan, and both must equal NumPy. Each case has square data of its own size, so that
# no other test planned the same structure before.
A = data((32, 32), 4)
B = data((32, 32), 5)
DIFFER = {
    "axis": (lambda x, y: x.sum(axis=0), lambda x, y: x.sum(axis=1),
             lambda a, b: a.sum(axis=0), lambda a, b: a.sum(axis=1)),
    "scalar dtype": (lambda x, y: x * np.float32(2), lambda x, y: x * np.float64(2),
                     lambda a, b: a * np.float32(2), lambda a, b: a * np.float64(2)),
    "int scalar dtype": (lambda x, y: (x > 0).astype("int32") * np.int32(3),
                         lambda x, y: (x > 0).astype("int32") * np.int64(3),
                         lambda a, b: (a > 0).astype("int32") * np.int32(3),
                         lambda a, b: (a > 0).astype("int32") * np.int64(3)),
    "stride": (lambda x, y: x + 1, lambda x, y: x.T + 1,
               lambda a, b: a + 1, lambda a, b: a.T + 1),
    "negative stride": (lambda x, y: x[:, 1:] * 2, lambda x, y: x[:, :0:-1] * 2,
                        lambda a, b: a[:, 1:] * 2, lambda a, b: a[:, :0:-1] * 2),
    "broadcast": (lambda x, y: x + y, lambda x, y: x + y[0],
                  lambda a, b: a + b, lambda a, b: a + b[0]),
    "offset mod 16 (aligned loads)": (lambda x, y: x[1:] * 3, lambda x, y: x[:-1] * 3,
                                      lambda a, b: a[1:] * 3, lambda a, b: a[:-1] * 3),
    "keepdims": (lambda x, y: x.sum(axis=1) * 2, lambda x, y: x.sum(axis=1, keepdims=True) * 2,
                 lambda a, b: a.sum(axis=1) * 2, lambda a, b: a.sum(axis=1, keepdims=True) * 2),
    "aliasing": (lambda x, y: x * y, lambda x, y: x * x,
                 lambda a, b: a * b, lambda a, b: a * a),
    "sharing": (lambda x, y: (x + 1) * (y + 1), lambda x, y: (x + 1) * (x + 1),
                lambda a, b: (a + 1) * (b + 1), lambda a, b: (a + 1) * (a + 1)),
    "op": (lambda x, y: x - y, lambda x, y: x + y, lambda a, b: a - b, lambda a, b: a + b),
    "reduction op": (lambda x, y: x.max(axis=1), lambda x, y: x.min(axis=1),
                     lambda a, b: a.max(axis=1), lambda a, b: a.min(axis=1)),
}


@pytest.mark.parametrize("what", sorted(DIFFER))
def test_one_difference_is_another_plan(dev, what):
    f1, f2, r1, r2 = DIFFER[what]
    n = 40 + sorted(DIFFER).index(what)
    a, b = data((n, n), 4), data((n, n), 5)
    x = lazycl.asarray(a, device=dev)
    y = lazycl.asarray(b, device=dev)
    got1, _, misses = forced(f1, x, y)
    check(got1, r1(a, b))
    assert misses == 1, what
    got2, hits, misses = forced(f2, x, y)
    check(got2, r2(a, b))
    assert hits == 0 and misses == 1, what
    # Each is still found again afterwards, with other data.
    a2 = data((n, n), 7)
    got1, hits, misses = forced(f1, lazycl.asarray(a2, device=dev), y)
    check(got1, r1(a2, b))
    assert hits == 1 and misses == 0


def test_slices_at_other_offsets_share_a_plan(dev):
    """Where a view lies in its array is bound at each run, not structure: the column slices
    C[:, i:i+1] of a loop (the sparse PCA loop) take one plan per offset mod 16 (aligned
    loads), then only hits; so do 0-d elements of an arange."""
    h = data((3, 64), 8, np.float64)
    C = lazycl.asarray(h, device=dev)
    lazycl.reset_stats()
    for rep in range(2):
        for i in range(64):
            c = C[:, i:i + 1]
            got = np.asarray((c / lazycl.linalg.norm(c)) * 2 + 1)
            check(got, (h[:, i:i + 1] / np.linalg.norm(h[:, i:i + 1])) * 2 + 1)
        s = lazycl.stats()
        assert s["plan_misses"] <= 16, s
        if rep == 0:
            lazycl.reset_stats()
    assert s["plan_misses"] == 0 and s["plan_hits"] == 64, s
    r = lazycl.arange(1, 41, device=dev)
    lazycl.reset_stats()
    vals = [int(i - 1) for i in r]
    assert vals == list(range(40))
    assert lazycl.stats()["plan_misses"] <= 16


def test_overlapping_writes_keep_their_offsets_apart(dev):
    """In a graph that writes, how two views of one array lie relative to each other is
    structure (a store reading its own target in place or not): x[k:k+24] += x[j:j+24] over
    pairs whose offsets agree mod 16 but overlap differently, against NumPy (NumPy adds a
    copy of the right side)."""
    h = data((80,), 9)
    x = lazycl.asarray(h.copy(), device=dev)
    ref = h.copy()
    for j, k in ((0, 0), (0, 16), (16, 0), (32, 32), (1, 17), (17, 1), (3, 3), (2, 5)):
        x[k:k + 24] += x[j:j + 24]
        ref[k:k + 24] += ref[j:j + 24].copy()
        check(np.asarray(x), ref)


def test_scatter_adds_into_slices_rebind_their_span(dev):
    """A scatter-add into a small target (privatized copies on CPUs, a local copy per group on
    GPUs) places its span by the target's offset, bound at each run: np.add.at into x[o:o+100]
    at several offsets reuses one plan and adds in the right places."""
    idx = np.random.default_rng(0).integers(0, 100, 20000)
    i = lazycl.asarray(idx, device=dev)
    h = np.zeros(400, np.float32)
    x = lazycl.asarray(h.copy(), device=dev)
    lazycl.reset_stats()
    for o in (0, 16, 32, 48, 160):
        np.add.at(x[o:o + 100], i, 1.0)
        np.add.at(h[o:o + 100], idx, 1.0)
        np.testing.assert_array_equal(np.asarray(x), h, err_msg=str(o))
    assert lazycl.stats()["plan_hits"] >= 4


def test_pending_versus_realized_input(dev):
    x = lazycl.asarray(A, device=dev)
    p = x + 1                       # pending
    got, _, _ = forced(lambda: p * 2)
    check(got, (A + 1) * 2)
    q = (x + 1).compute()           # realized, same shape and dtype
    got, hits, misses = forced(lambda: q * 2)
    check(got, (A + 1) * 2)
    assert hits == 0 and misses == 1


def test_device_is_part_of_the_key():
    if len(DEVICES) < 2:
        pytest.skip("needs two devices")
    f = lambda x: (x * 2 + 1).sum()
    got, _, _ = forced(f, lazycl.asarray(A, device=DEVICES[0]))
    got2, hits, misses = forced(f, lazycl.asarray(A, device=DEVICES[1]))
    check(got2, (A * 2 + 1).sum())
    assert hits == 0 and misses == 1


def test_several_outputs_in_order(dev):
    x = lazycl.asarray(A, device=dev)
    lazycl.reset_stats()
    for i in range(3):
        u, v = x + i, x * i
        lazycl.compute(u, v) if i % 2 == 0 else lazycl.compute(v, u)
        check(np.asarray(u), A + np.float32(i))
        check(np.asarray(v), A * np.float32(i))
    s = lazycl.stats()
    # (u, v) and (v, u) are two plans: the first and third force share one.
    assert s["plan_misses"] == 2 and s["plan_hits"] == 1


def test_error_then_reuse(dev):
    # A plan stays usable after a failed force (here, an output on another queue).
    x = lazycl.asarray(A, device=dev)
    got, _, _ = forced(lambda: x - 2)
    got, hits, _ = forced(lambda: x - 3)
    check(got, A - np.float32(3))
    assert hits == 1


def run_py(code, **env):
    e = dict(os.environ)
    e.update(env)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=e,
                       timeout=300)
    assert r.returncode == 0, r.stderr
    return r.stdout


LOOP = """
import numpy as np, lazycl
x = lazycl.asarray(np.arange(100, dtype=np.float32))
lazycl.reset_stats()
for i in range(6):
    for k in range(3):                    # three structures in turn
        y = np.asarray([x + 1, x * 2, x - 3][k] * i)
        ref = [np.arange(100) + 1, np.arange(100) * 2, np.arange(100) - 3][k] * i
        assert np.allclose(y, ref)
s = lazycl.stats()
print(s["plan_hits"], s["plan_misses"])
"""


def test_env_disables_the_cache():
    hits, misses = map(int, run_py(LOOP, LAZYCL_PLAN_CACHE="0").split())
    assert (hits, misses) == (0, 18)


def test_env_bounds_the_cache():
    # Three structures cycled through a cache of 2: least recently used out, every force misses.
    hits, misses = map(int, run_py(LOOP, LAZYCL_PLAN_CACHE="2").split())
    assert (hits, misses) == (0, 18)
    hits, misses = map(int, run_py(LOOP, LAZYCL_PLAN_CACHE="3").split())
    assert (hits, misses) == (15, 3)
