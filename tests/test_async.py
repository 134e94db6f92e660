"""compute(wait=False), lazycl.synchronize, deferred index errors, several queues at once.

compute(wait=False) enqueues and returns at once; a read, a compute that waits or synchronize()
waits. An index out of range found by a force that did not wait is raised at the next wait on
its queue, and its outputs raise that IndexError at every later read or use (never their
values). Threads forcing on queues of their own run concurrently on the device."""
import threading

import numpy as np
import pytest

import lazycl as lc

from conftest import DEVICES, assert_same, lz

GPUS = [d for d in DEVICES if d.type == "gpu"]


def numpy_index_error(a, idx):
    """NumPy's IndexError message for a[idx]."""
    with pytest.raises(IndexError) as ei:
        a[idx]
    return str(ei.value)


def test_wait_false_equals_numpy(dev):
    rng = np.random.default_rng(1)
    a = rng.standard_normal((64, 300)).astype(np.float32)
    i = rng.integers(-64, 64, 50)
    x = lz(a, dev)
    y = (lc.exp(x * 0.5) - x).compute(wait=False)
    s = x.sum(axis=1)
    c = lc.cumsum(x, axis=1)
    g = x[lz(i, dev)]
    o = lc.sort(x, axis=1)
    assert lc.compute(s, c, g, o, wait=False) == (s, c, g, o)
    assert y.compute(wait=False) is y
    assert_same(y, np.exp(a * np.float32(0.5)) - a, rtol=1e-6, atol=1e-6)
    assert_same(s, a.sum(axis=1), rtol=1e-5, atol=1e-4)
    assert_same(c, np.cumsum(a, axis=1), rtol=1e-5, atol=1e-4)
    assert_same(g, a[i])
    assert_same(o, np.sort(a, axis=1))


def test_many_queued_forces_then_synchronize(dev):
    a = np.linspace(-1, 1, 10000)
    x = lz(a, dev)
    ref = a.copy()
    outs = []
    for k in range(60):
        x = (x * 0.99 + k).compute(wait=False)
        ref = ref * 0.99 + k
        outs.append((x, ref))
        if k % 7 == 0:
            m = x.max()
            lc.compute(m, wait=False)
            outs.append((m, ref.max()))
    lc.synchronize()
    lc.synchronize(dev)
    lc.synchronize(dev.filter_string)
    for got, want in outs:
        assert_same(got, want, rtol=1e-12, atol=1e-9)


def test_deferred_index_error_at_synchronize(dev):
    a = np.arange(10.0)
    x = lz(a, dev)
    bad = lz(np.array([1, 2, 30]), dev)
    msg = numpy_index_error(a, np.array([1, 2, 30]))
    y = (x[bad] * 3).compute(wait=False)          # returns at once
    with pytest.raises(IndexError, match=msg):
        lc.synchronize()
    lc.synchronize()                               # reported once
    # y is poisoned: every read or use raises the same error, never its values
    for use in (y.numpy, lambda: np.asarray(y), lambda: float(y.sum()), lambda: repr(y),
                lambda: (y + 1).compute(), lambda: (y + 1).compute(wait=False).numpy(),
                lambda: y.compute(), lambda: y.tolist()):
        with pytest.raises(IndexError, match=msg):
            use()
    with pytest.raises(IndexError, match=msg):
        y[0] = 1.0
    # the engine is fine
    good = lz(np.array([0, 9, -1]), dev)
    assert_same((x[good] * 3).compute(wait=False), a[[0, 9, -1]] * 3)
    lc.synchronize()
    assert_same(x + 1, a + 1)


def test_deferred_index_error_at_a_read(dev):
    a = np.arange(12).reshape(3, 4)
    x = lz(a, dev)
    other = (x * 2).compute(wait=False)
    bad = lz(np.array([0, -5]), dev)
    msg = numpy_index_error(a, (slice(None), np.array([0, -5])))
    y = x[:, bad].compute(wait=False)
    # the next wait on the queue is a read of another array: it reports the error
    with pytest.raises(IndexError, match=msg):
        other.numpy()
    assert_same(other, a * 2)
    with pytest.raises(IndexError, match=msg):
        y.numpy()
    # a compute that waits is a wait too
    z = x[:, bad].compute(wait=False)
    with pytest.raises(IndexError, match=msg):
        (x + 1).compute()
    with pytest.raises(IndexError, match=msg):
        lc.asnumpy(z)


def test_an_error_a_use_raised_is_not_raised_again_by_a_wait(dev):
    a = np.arange(6)
    x = lz(a, dev)
    msg = numpy_index_error(a, np.array([7]))
    y = x[lz(np.array([7]), dev)].compute(wait=False)
    with pytest.raises(IndexError, match=msg):
        (y + 1).compute()                          # a use: it raises, and that reports it
    lc.synchronize()
    with pytest.raises(IndexError, match=msg):
        y.numpy()                                  # the outputs stay poisoned


def test_deferred_errors_pass_down_chains(dev):
    a = np.arange(10.0)
    x = lz(a, dev)
    msg = numpy_index_error(a, np.array([10]))
    w = x[lz(np.array([10]), dev)].compute(wait=False)
    v = (w * 2 + x[:1]).compute(wait=False)       # reads w before anyone waited
    u = lc.cumsum(v).compute(wait=False)
    for arr in (u, v, w):
        with pytest.raises(IndexError, match=msg):
            arr.numpy()
    lc.synchronize()
    # a chain of good ones is right
    w = x[lz(np.array([3, -1]), dev)].compute(wait=False)
    v = (w * 2 + x[:2]).compute(wait=False)
    assert_same(lc.cumsum(v), np.cumsum(a[[3, -1]] * 2 + a[:2]))


def test_waiting_compute_raises_at_compute(dev):
    a = np.arange(5)
    x = lz(a, dev)
    msg = numpy_index_error(a, np.array([5]))
    y = x[lz(np.array([5]), dev)]
    for _ in range(2):                             # nothing realized: it raises again
        with pytest.raises(IndexError, match=msg):
            y.compute()
    lc.synchronize()
    assert_same(x[lz(np.array([4]), dev)].compute(), a[[4]])


def test_wait_argument_and_synchronize_arguments(dev):
    x = lz(np.ones(3), dev)
    with pytest.raises(TypeError):
        x.compute(wat=False)
    with pytest.raises(TypeError):
        x.compute(False)
    with pytest.raises(TypeError):
        lc.compute(x, wat=False)
    with pytest.raises(TypeError):
        lc.synchronize(5)
    q = lc.Queue(dev)
    y = lc.asarray(np.arange(4.0), device=q)
    z = (y * 2).compute(wait=False)
    lc.synchronize(q)
    lc.synchronize(device=q)
    assert_same(z, np.arange(4.0) * 2)


def run_two_queues(dev, n, rounds, profile=False):
    """Two threads, each forcing `rounds` large independent graphs on a Queue of its own with
    wait=False (dropping its inputs and intermediates while the work is in flight), then
    synchronizing its queue. Returns (queues, profile or None); asserts the results."""
    queues = [lc.Queue(dev), lc.Queue(dev)]
    errors, checked = [], []
    start = threading.Barrier(2)

    def work(t):
        try:
            q = queues[t]
            rng = np.random.default_rng(t)
            a = rng.standard_normal(n).astype(np.float32)
            x0 = lc.asarray(a, device=q, copy=True).compute()
            want, got = [], []
            for r in (0, rounds - 1):
                ar = a + np.float32(r)
                yr = np.sin(ar * np.float32(3)) * np.exp(-ar * ar) + np.cos(ar + np.float32(t))
                want.append((r, yr, float((yr.astype(np.float64) - yr.mean()).sum())))
            start.wait()
            for r in range(rounds):
                x = (x0 + r).compute(wait=False)    # device-side inputs: the queues run kernels
                y = lc.sin(x * 3) * lc.exp(-x * x) + lc.cos(x + t)
                s = (y - y.mean()).sum()            # a reduction over a temporary's mean
                got.append(lc.compute(y, s, wait=False))
                del x                               # in flight: the queue holds its buffer
            lc.synchronize(q)
            for r, yr, sr in want:
                y, s = got[r]
                np.testing.assert_allclose(y.numpy(), yr, rtol=1e-4, atol=1e-5)
                assert abs(float(s) - sr) < 1e-3 * n ** 0.5
            for y, s in got:                        # every round: the same graph, the same sums
                assert np.isfinite(float(s))
            checked.append(t)
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(repr(e))

    def both():
        threads = [threading.Thread(target=work, args=(t,)) for t in range(2)]
        for th in threads:
            th.start()
        for th in threads:
            th.join(timeout=600)

    p = None
    if profile:
        with lc.profile() as p:
            both()
    else:
        both()
    assert not errors, errors
    assert sorted(checked) == [0, 1]
    return queues, p


def test_two_threads_two_queues(dev):
    run_two_queues(dev, 1 << 18, 6)


def overlaps(kernels, qa, qb):
    """Some kernel of queue qa runs while one of queue qb does (device timestamps)."""
    a = [(k["start_ms"], k["end_ms"]) for k in kernels if k["queue"] == qa and k["kind"] == "kernel"]
    b = [(k["start_ms"], k["end_ms"]) for k in kernels if k["queue"] == qb and k["kind"] == "kernel"]
    return any(s0 < e1 and s1 < e0 for s0, e0 in a for s1, e1 in b), len(a), len(b)


@pytest.mark.skipif(not GPUS, reason="the overlap of two queues is measured on a GPU device")
@pytest.mark.parametrize("gpu", GPUS, ids=[d.filter_string for d in GPUS])
def test_gpu_queues_overlap(gpu):
    run_two_queues(gpu, 1 << 22, 2)               # plans and kernels made, off the profile
    (qa, qb), p = run_two_queues(gpu, 1 << 25, 16, profile=True)
    ok, na, nb = overlaps(p.kernels, qa.id, qb.id)
    assert na >= 16 and nb >= 16, (na, nb)
    assert ok, p.table()
