"""Several Python threads building and forcing graphs at once, also over shared nodes."""
import threading

import numpy as np
import pytest

import lazycl

from conftest import DEVICE_FILTERS


@pytest.mark.parametrize("dev", DEVICE_FILTERS)
def test_threads_force_shared_graphs(dev):
    rng = np.random.default_rng(7)
    a = rng.standard_normal(4096).astype(np.float32)
    b = rng.standard_normal((64, 64)).astype(np.float32)
    x = lazycl.asarray(a, device=dev).compute()
    m = lazycl.asarray(b, device=dev).compute()
    shared = x * 2.0 + 1.0          # pending, used by every thread
    errors, results = [], {}

    def work(i):
        try:
            for r in range(20):
                y = lazycl.sqrt(((shared - i) ** 2).sum())
                z = (m - m.mean(0)) / (m.std(0) + i)
                c = lazycl.cumsum(shared * i)
                lazycl.explain(y)
                got = (float(y), z.numpy(), c.numpy())
                results[(i, r)] = got
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(repr(e))

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert not errors, errors
    assert len(results) == 80
    s = a.astype(np.float64) * 2 + 1
    for (i, r), (yv, zv, cv) in results.items():
        assert np.isclose(yv, np.sqrt(((s - i) ** 2).sum()), rtol=1e-5)
        np.testing.assert_allclose(zv, (b - b.mean(0)) / (b.std(0) + i), rtol=1e-4, atol=1e-5)
        np.testing.assert_allclose(cv, np.cumsum(s * i), rtol=1e-4, atol=1e-2)
    # The shared pending array is still right after all of that.
    np.testing.assert_allclose(shared.numpy(), s, rtol=1e-6)


@pytest.mark.parametrize("dev", DEVICE_FILTERS)
def test_threads_force_the_same_pending_arrays(dev):
    """Every thread forces the same pending arrays (in its own order): each is
    computed once and realized once, whoever gets there first."""
    a = np.arange(50000, dtype=np.float32) / 50000
    x = lazycl.asarray(a, device=dev).compute()
    pend = [lazycl.exp(x * (j % 7)) + j for j in range(60)]
    errors = []

    def work(i):
        try:
            order = list(range(len(pend)))[i::2] + list(range(len(pend)))[1 - i % 2::2]
            for j in order:
                v = pend[j].numpy()
                np.testing.assert_allclose(v, np.exp(a * (j % 7)) + j, rtol=1e-5)
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(repr(e))

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert not errors, errors[:3]
    assert all(not p.pending for p in pend)
