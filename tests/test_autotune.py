"""The GEMM autotune (engine/autotune.c, docs/cache.md#the-gemm-autotune-record): the first float
product of at least 2^27 multiply-adds on a device times the target's tile candidates and CLBlast
once, writes the choice to <LAZYCL_CACHE_DIR>/tune/gemm-<key>.json, and later processes read it.
Each scenario runs in a child process with its own cache directory (the record is read once per
process) on PoCL (else the first device), with the test hook LAZYCL_AUTOTUNE_SIZE=128 so that a tuning costs its kernel
builds and little else. In this process: every candidate (forced with the test hook
LAZYCL_GEMM_CANDIDATE) gives NumPy's products within test_matmul's bounds."""
import ctypes
import glob
import json
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

import lazycl
from conftest import DEVICES, core, lz

HERE = os.path.dirname(os.path.abspath(__file__))
# The children's device: PoCL where present (quick builds), else the first device.
CHILD_DEV = ([d for d in DEVICES if d.filter_string.startswith("pocl:cpu")] or DEVICES)[0]


def _clblast_installed():
    for name in ("libclblast.so.1", "libclblast.so"):
        try:
            ctypes.CDLL(name)
            return True
        except OSError:
            pass
    return False


# A child: a small product (no tuning), then a 512^3 one (2^27: tunes an untuned device), both
# against NumPy; prints what it saw as JSON on its last line.
CHILD = r"""
import json, os, numpy as np, lazycl as lc
rng = np.random.default_rng(0)
a = rng.uniform(-1, 1, (512, 512)).astype(np.float32)
b = rng.uniform(-1, 1, (512, 512)).astype(np.float32)
A, B = lc.asarray(a), lc.asarray(b)
lc.compute(A, B)
lc.reset_stats()
small = np.asarray(A[:100] @ B[:, :100])
assert np.allclose(small, a[:100] @ b[:, :100], rtol=1e-5, atol=1e-4)
tunings_small = lc.stats()["gemm_tunings"]
got = np.asarray(A @ B)
assert np.allclose(got, a @ b, rtol=1e-5, atol=1e-4), np.abs(got - a @ b).max()
fused = np.asarray(lc.maximum(A @ B + 1, 0))
assert np.allclose(fused, np.maximum(a @ b + 1, 0), rtol=1e-5, atol=1e-4)
def line(x):
    return [l for l in lc.explain(x).splitlines() if l.startswith("--- gemm engine:")][0]
seen = {"tunings_small": tunings_small, "tunings": lc.stats()["gemm_tunings"],
        "plain": line(A @ B), "fused": line(lc.maximum(A @ B + 1, 0)),
        "device": A.device.name, "driver": A.device.driver_version}
for gemm in ("lazycl", "clblast"):       # LAZYCL_GEMM is read at every force
    os.environ["LAZYCL_GEMM"] = gemm
    seen["plain_" + gemm] = line(A @ B)
print(json.dumps(seen))
"""


def child(cdir, **env):
    full = dict(os.environ, LAZYCL_DEVICE=CHILD_DEV.filter_string, LAZYCL_CACHE_DIR=str(cdir),
                LAZYCL_AUTOTUNE_SIZE="128")
    for k in ("LAZYCL_GEMM", "LAZYCL_AUTOTUNE", "LAZYCL_GEMM_CANDIDATE", "LAZYCL_AUTOTUNE_CLBLAST",
              "LAZYCL_SCHEDULE"):
        full.pop(k, None)
    full.update(env)
    p = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, env=full,
                       cwd=HERE, timeout=600)
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-3000:]
    return json.loads(p.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def warm(tmp_path_factory):
    """A cache directory holding the kernels the children build (tuning builds them all), and
    the record that tuning wrote (name, JSON): each test starts from a copy without the record,
    so that its children build nothing but CLBlast's own kernels."""
    d = tmp_path_factory.mktemp("warm")
    child(d)
    [path] = records(d)
    rec = os.path.basename(path), json.load(open(path))
    shutil.rmtree(d / "tune")
    return d, rec


@pytest.fixture
def cdir(warm, tmp_path):
    d = tmp_path / "cache"
    shutil.copytree(warm[0], d)
    os.chmod(d, 0o700)
    return d


def records(cdir):
    return glob.glob(os.path.join(str(cdir), "tune", "gemm-*.json"))


def write_record(cdir, warm, text):
    """Put a record (text, or JSON of a dict) where the device's record goes; its path."""
    os.makedirs(cdir / "tune", mode=0o700, exist_ok=True)
    path = str(cdir / "tune" / warm[1][0])
    with open(path, "w") as f:
        f.write(text if isinstance(text, str) else json.dumps(text))
    os.chmod(path, 0o600)
    return path


def test_record_written_once_and_reused(cdir):
    off = child(cdir, LAZYCL_AUTOTUNE="off")
    assert off["tunings"] == 0 and records(cdir) == []        # off: no timing, no record
    first = child(cdir)
    assert first["tunings_small"] == 0 and first["tunings"] == 1
    [path] = records(cdir)
    assert oct(os.stat(path).st_mode & 0o777) == "0o600"
    with open(path) as f:
        rec = json.load(f)
    assert rec["format"] == 1 and rec["lazycl"] == lazycl.__version__
    assert rec["device"] == first["device"] and rec["driver"] == first["driver"]
    assert rec["schedule"] == CHILD_DEV.schedule and rec["problem"] == [128, 128, 128]
    cands = rec["candidates"]
    assert len(cands) >= 3 and len({c["config"] for c in cands}) == len(cands)
    assert all(c["ms"] > 0 and c["gflops"] > 0 for c in cands)
    fastest = min(cands, key=lambda c: c["ms"])
    assert rec["best"] == fastest["config"]
    if rec["clblast"] is None:
        assert not _clblast_installed() and rec["choice"] == "lazycl"
    else:
        assert rec["clblast"]["ms"] > 0
        assert rec["choice"] == ("clblast" if rec["clblast"]["ms"] < fastest["ms"] else "lazycl")
    engine = "clblast" if rec["choice"] == "clblast" else "lazycl, " + rec["best"]
    assert first["plain"].startswith("--- gemm engine: " + engine), first["plain"]
    assert "autotuned in this process" in first["plain"] + first["fused"]
    assert first["fused"].startswith("--- gemm engine: lazycl, " + rec["best"])

    text, mtime = open(path).read(), os.stat(path).st_mtime_ns
    again = child(cdir)
    assert again["tunings"] == 0                      # read, not timed again
    assert open(path).read() == text and os.stat(path).st_mtime_ns == mtime
    assert again["plain"].startswith("--- gemm engine: " + engine)
    assert f"autotuned; record {path}" in again["plain"] + again["fused"]


def test_a_record_is_applied_and_off_means_defaults(cdir, warm):
    """A record naming another candidate is applied as it says (no timing); LAZYCL_AUTOTUNE=0
    ignores it and takes the target's default tiles; LAZYCL_AUTOTUNE=force times again, once."""
    rec = json.loads(json.dumps(warm[1][1]))
    default = rec["candidates"][0]["config"]     # candidate 0 is lc_target_init's default
    other = rec["candidates"][1]["config"]
    for c in rec["candidates"]:
        c["ms"] = 5.0 if c["config"] == other else 50.0
    rec.update(best=other, choice="lazycl")
    path = write_record(cdir, warm, rec)
    read = child(cdir)
    assert read["tunings"] == 0
    assert read["plain"].startswith(f"--- gemm engine: lazycl, {other} (autotuned; record"), read
    off = child(cdir, LAZYCL_AUTOTUNE="0")
    assert off["tunings"] == 0
    assert off["plain"] == f"--- gemm engine: lazycl, {default} (default tiles: LAZYCL_AUTOTUNE=0)"
    assert json.load(open(path))["best"] == other    # untouched
    forced = child(cdir, LAZYCL_AUTOTUNE="force")
    assert forced["tunings"] == 1                    # once, though two big products ran
    assert json.load(open(path))["candidates"] != rec["candidates"]


@pytest.mark.parametrize("damage", ["garbage", "other_device"])
def test_a_bad_record_is_replaced(cdir, warm, damage):
    """A record that does not parse, or is another device's, is deleted and the device tuned
    again (truncations and the other refusals: tests/c/test_tunerec.c)."""
    text = json.dumps(warm[1][1])
    bad = {"garbage": "\x00\x01not json at all",
           "other_device": text.replace('"device": "', '"device": "another ')}[damage]
    path = write_record(cdir, warm, bad)
    again = child(cdir)
    assert again["tunings"] == 1                     # discarded and timed again
    rec = json.load(open(path))                      # rewritten whole
    assert rec["device"] == again["device"]
    assert rec["best"] in {c["config"] for c in rec["candidates"]}


@pytest.mark.skipif(not _clblast_installed(), reason="CLBlast (libclblast.so.1) is not installed")
def test_clblast_chosen_when_it_wins(cdir):
    """The test hook LAZYCL_AUTOTUNE_CLBLAST=win makes the tuner treat CLBlast as faster: plain
    products then go to CLBlast (explain says so, results are NumPy's), products with fused work
    stay on lazycl's kernels, and the choice is kept for the next process; LAZYCL_GEMM forces
    either way."""
    first = child(cdir, LAZYCL_AUTOTUNE_CLBLAST="win")
    assert first["tunings"] == 1
    [path] = records(cdir)
    rec = json.load(open(path))
    assert rec["choice"] == "clblast" and rec["clblast"]["ms"] > 0
    assert first["plain"].startswith("--- gemm engine: clblast (autotuned:"), first
    assert first["fused"].startswith("--- gemm engine: lazycl, " + rec["best"]), first
    assert "CLBlast (faster here) takes plain products only" in first["fused"]
    later = child(cdir)                              # no hook: the record decides
    assert later["tunings"] == 0 and later["plain"].startswith("--- gemm engine: clblast (autotuned:")
    assert later["plain_lazycl"].startswith("--- gemm engine: lazycl, " + rec["best"])
    assert later["plain_lazycl"].endswith("; LAZYCL_GEMM=lazycl)")
    assert later["plain_clblast"] == "--- gemm engine: clblast (LAZYCL_GEMM=clblast)"


# ---- every candidate against NumPy (in this process; the hooks are read at every force) ----


def _candidates(dev):
    """The candidate indices of dev's current target kind: the hook names each in explain()."""
    x = lz(np.ones((64, 64), np.float32), dev)
    found = []
    for i in range(9):
        os.environ["LAZYCL_GEMM_CANDIDATE"] = str(i)
        if f"candidate {i}, forced by LAZYCL_GEMM_CANDIDATE" not in lazycl.explain(x @ x):
            break
        found.append(i)
    return found


@pytest.fixture
def hooks():
    saved = {k: os.environ.get(k) for k in ("LAZYCL_GEMM_CANDIDATE", "LAZYCL_SCHEDULE")}
    yield
    for k, v in saved.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v


# The GPU tiles' candidates (on PoCL) in `make test-full` and the GPU machine's runs.
@pytest.mark.parametrize("schedule", core([None, "gpu"], [None]))
@pytest.mark.parametrize("dev", DEVICES, ids=[d.filter_string for d in DEVICES])
def test_every_candidate_matches_numpy(dev, schedule, hooks):
    """Each tile candidate: test_matmul's float32 accuracy bound (K = 4096: within the bound any
    float32 dot product meets, and the largest error within 2x NumPy's on CPU schedules, 8x on
    GPU tiles), ragged tiles with an epilogue, and float64."""
    if schedule and not dev.filter_string.startswith("pocl"):
        pytest.skip("the GPU schedules' candidates run on PoCL only (Intel's builds are slow)")
    if schedule:
        os.environ["LAZYCL_SCHEDULE"] = schedule
    cands = _candidates(dev)
    assert len(cands) >= 3
    rng = np.random.default_rng(11)
    k = 4096
    a = rng.uniform(-1, 1, (200, k)).astype(np.float32)
    b = rng.uniform(-1, 1, (k, 150)).astype(np.float32)
    ref = a.astype(np.float64) @ b.astype(np.float64)
    np_err = np.abs((a @ b) - ref).max()
    u = 2.0 ** -24
    bound = k * u / (1 - k * u) * (np.abs(a).astype(np.float64) @ np.abs(b).astype(np.float64))
    factor = 8 if (schedule or dev.schedule) == "gpu" else 2
    c = rng.uniform(-1, 1, (130, 70)).astype(np.float32)
    d = rng.uniform(-1, 1, (70, 203)).astype(np.float32)
    configs = set()
    for i in cands:
        os.environ["LAZYCL_GEMM_CANDIDATE"] = str(i)
        line = [l for l in lazycl.explain(lz(a, dev) @ lz(b, dev)).splitlines()
                if l.startswith("--- gemm engine:")][0]
        configs.add(line)
        got = np.asarray(lz(a, dev) @ lz(b, dev)).astype(np.float64)
        assert np.all(np.abs(got - ref) <= bound), (i, line)
        assert np.abs(got - ref).max() <= factor * np_err, (i, line, np.abs(got - ref).max(), np_err)
        if dev.platform_name.lower().startswith("intel"):
            continue
        lazycl.reset_stats()
        fused = np.asarray(lazycl.maximum(lz(c, dev) @ lz(d, dev) - 0.5, 0))
        assert lazycl.stats()["launches"] == 1
        np.testing.assert_allclose(fused, np.maximum(c @ d - 0.5, 0), rtol=1e-5, atol=1e-5)
        if dev.fp64:
            got64 = np.asarray(lz(c.astype(np.float64), dev) @ lz(d.astype(np.float64), dev))
            np.testing.assert_allclose(got64, c.astype(np.float64) @ d, rtol=1e-12, atol=1e-13)
    assert len(configs) == len(cands)     # each forced candidate is another kernel
