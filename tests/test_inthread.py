"""The in-thread path (runtime/inthread.c): PoCL's basic device beside its pthread device.

Small launches and every transfer run in the calling thread, big launches on PoCL's threads,
and the two queues behave as one in-order queue. LAZYCL_INTHREAD is read at each force, so a
test moves the limit to send the same work one way or the other."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import lazycl as lc
from conftest import DEVICES

#: PoCL's threaded CPU device: "pthread-<cpu>" in PoCL 3, "cpu-<cpu>" in PoCL 5.
POCL = [d for d in DEVICES if d.platform_name == "Portable Computing Language"
        and (d.name.startswith("pthread-") or d.name.startswith("cpu-"))]
PAIRED = [d.filter_string for d in POCL if d.inthread]


def test_pocl_pthread_devices_have_an_inthread_companion():
    # The companion is asked for at discovery (POCL_DEVICES) unless the user set PoCL up.
    if "POCL_DEVICES" in os.environ or os.environ.get("LAZYCL_INTHREAD") in ("0", "off"):
        pytest.skip("PoCL's devices were chosen by the environment")
    assert POCL, "no PoCL pthread device is listed"
    for d in POCL:
        assert d.inthread and d.inthread.startswith(("basic-", "cpu-minimal-")), d
        assert d.inthread_limit > 0
    # The companion is never listed as a device of its own.
    assert not [d for d in lc.devices() if d.name.startswith(("basic-", "cpu-minimal-"))]


@pytest.fixture(params=PAIRED)
def pdev(request):
    return lc.Device(request.param)


def _force(expr, limit, monkeypatch):
    monkeypatch.setenv("LAZYCL_INTHREAD", str(limit))
    lc.reset_stats()
    out = np.asarray(expr())
    return out, lc.stats()


def test_small_work_runs_inthread_big_work_threaded(pdev, monkeypatch):
    xn = np.linspace(-2, 2, 50000, dtype=np.float32)
    x = lc.asarray(xn, device=pdev).compute()
    want = np.sqrt(np.abs(xn * 3 + 1)) - xn
    for limit, inthread in ((10 ** 12, True), (1000, False)):
        got, s = _force(lambda: lc.sqrt(abs(x * 3 + 1)) - x, limit, monkeypatch)
        np.testing.assert_allclose(got, want, rtol=1e-6)
        assert s["launches"] == 1
        assert s["launches_inthread"] == (1 if inthread else 0)


def test_sides_stay_in_order(pdev, monkeypatch):
    """A big reduction (threaded) feeds small work (in-thread) and the other way round, with
    writes between: every step sees the one before, as on one in-order queue."""
    monkeypatch.setenv("LAZYCL_INTHREAD", str(64 << 10))
    rng = np.random.default_rng(1)
    bn = rng.standard_normal(1 << 18)
    sn = rng.standard_normal(100)
    b = lc.asarray(bn, device=pdev)
    s = lc.asarray(sn, device=pdev)
    for step in range(6):
        lc.reset_stats()
        tot = b.sum()                 # reads 2 MiB: threaded
        s = s * 0.5 + tot             # 100 elements: in-thread, after the sum
        bn_tot = bn.sum()
        sn = sn * 0.5 + bn_tot
        s[step] = -1.0                # a scalar write: in-thread
        sn[step] = -1.0
        b = b + s[step]               # big again: threaded, after the write
        bn = bn + sn[step]
        np.testing.assert_allclose(np.asarray(s), sn, rtol=1e-9)
        st = lc.stats()
        assert 0 < st["launches_inthread"] < st["launches"]
    np.testing.assert_allclose(np.asarray(b), bn, rtol=1e-9)


def test_off_runs_threaded_with_the_same_answers(pdev, monkeypatch):
    xn = np.arange(1000, dtype=np.int64)
    x = lc.asarray(xn, device=pdev)
    got, s = _force(lambda: (x * x).cumsum()[::7], 10 ** 12, monkeypatch)
    off, s_off = _force(lambda: (x * x).cumsum()[::7], "off", monkeypatch)
    np.testing.assert_array_equal(got, (xn * xn).cumsum()[::7])
    np.testing.assert_array_equal(off, got)
    assert s["launches_inthread"] == s["launches"] > 0
    assert s_off["launches_inthread"] == 0


def test_errors_surface_from_the_inthread_path(pdev, monkeypatch):
    monkeypatch.setenv("LAZYCL_INTHREAD", str(10 ** 12))
    x = lc.arange(10, device=pdev)
    with pytest.raises(IndexError, match="index 12 is out of bounds for axis 0 with size 10"):
        np.asarray(x[lc.asarray([1, 12], device=pdev)])
    assert int(x[lc.asarray([9], device=pdev)].sum()) == 9   # still usable


_CHILD = """
import json, sys, lazycl as lc, numpy as np
d = lc.Device(sys.argv[1])
x = lc.asarray(np.arange(100, dtype=np.float32), device=d)
lc.reset_stats()
v = float((x * 2).sum())
print(json.dumps({"v": v, "limit": d.inthread_limit, "inthread": d.inthread,
                  "stats": lc.stats()}))
"""


def _child(dev, cache, **env):
    full = dict(os.environ, LAZYCL_CACHE_DIR=str(cache), **env)
    full.pop("LAZYCL_INTHREAD", None)
    full.update(env)
    r = subprocess.run([sys.executable, "-c", _CHILD, dev], env=full, capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("dev", PAIRED)
def test_limit_is_timed_once_and_kept(dev, tmp_path):
    a = _child(dev, tmp_path)
    recs = list((tmp_path / "tune").glob("inthread-*.txt"))
    assert len(recs) == 1
    text = recs[0].read_text()
    assert text == f"inthread_limit_bytes {a['limit']}\n"
    assert 256 << 10 <= a["limit"] <= 4 << 20
    # The probe goes around the caches and counters: the force's own launch only.
    assert a["stats"]["launches"] == a["stats"]["launches_inthread"] == 1
    assert a["v"] == 9900.0
    # A second process reads the record, and the in-thread kernel from the disk cache.
    again = _child(dev, tmp_path)
    assert again["limit"] == a["limit"] and again["stats"]["launches_inthread"] == 1
    assert a["stats"]["kernels_compiled"] >= 1
    assert again["stats"]["kernels_compiled"] == 0 and again["stats"]["disk_cache_hits"] >= 1
    # A hand-set record is taken as it is.
    recs[0].write_text("inthread_limit_bytes 777777\n")
    assert _child(dev, tmp_path)["limit"] == 777777
    # A corrupt one is dropped and timed again.
    recs[0].write_text("inthread_limit_bytes lots\n")
    b = _child(dev, tmp_path)
    assert 256 << 10 <= b["limit"] <= 4 << 20
    assert recs[0].read_text() == f"inthread_limit_bytes {b['limit']}\n"


@pytest.mark.parametrize("dev", PAIRED)
def test_env_off_and_fixed(dev, tmp_path):
    off = _child(dev, tmp_path, LAZYCL_INTHREAD="0")
    assert off["inthread"] is None and off["limit"] == 0
    assert off["stats"]["launches_inthread"] == 0 and off["v"] == 9900.0
    fixed = _child(dev, tmp_path, LAZYCL_INTHREAD="12345")
    assert fixed["limit"] == 12345 and fixed["stats"]["launches_inthread"] == 1
    # POCL_DEVICES set by the user: PoCL as they set it up, no companion.
    user = _child(dev.replace(":0", ""), tmp_path, POCL_DEVICES="pthread")
    assert user["inthread"] is None and user["v"] == 9900.0
