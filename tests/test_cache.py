"""The kernel cache: memory hits, disk entries across processes, corruption, permissions, errors."""
import json
import os
import stat
import subprocess
import sys

import pytest

import lazycl
from lazycl import _lazycl

DEVICES = lazycl.devices()
IDS = [d.filter_string for d in DEVICES]

SRC = """/* test_cache kernel */
__kernel void lc_test_scale(__global float *restrict a, const float s, const uint n)
{
    size_t i = get_global_id(0);
    if (i < n)
        a[i] = a[i] * s + 1.0f;
}
"""

BUILD = """
import json, sys, lazycl
from lazycl import _lazycl
lazycl.reset_stats()
_lazycl._kernel_build(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4] if len(sys.argv) > 4 else "")
print(json.dumps(lazycl.stats()))
"""


def build_in_subprocess(device, cache_dir, source=SRC, name="lc_test_scale", options="", **env):
    full = dict(os.environ)
    full.pop("LAZYCL_CACHE", None)
    full["LAZYCL_CACHE_DIR"] = str(cache_dir)
    full.update(env)
    r = subprocess.run([sys.executable, "-c", BUILD, device, source, name, options], env=full,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def entries(cache_dir):
    out = []
    for root, _, files in os.walk(cache_dir):
        out += [os.path.join(root, f) for f in files]
    return sorted(out)


@pytest.mark.parametrize("dev", IDS)
def test_memory_cache_hit(dev):
    lazycl.reset_stats()
    src = SRC + f"/* memory hit {dev} */\n"
    _lazycl._kernel_build(dev, src, "lc_test_scale")
    s = lazycl.stats()
    assert s["kernels_compiled"] + s["disk_cache_hits"] == 1
    _lazycl._kernel_build(dev, src, "lc_test_scale")
    _lazycl._kernel_build(lazycl.Device(dev), src, "lc_test_scale")
    s = lazycl.stats()
    assert s["memory_cache_hits"] == 2
    assert s["kernels_compiled"] + s["disk_cache_hits"] == 1


@pytest.mark.parametrize("dev", IDS)
def test_disk_cache_across_processes(dev, tmp_path):
    cache = tmp_path / "cache"
    s1 = build_in_subprocess(dev, cache)
    assert s1["kernels_compiled"] == 1 and s1["disk_cache_hits"] == 0
    files = entries(cache)
    assert len(files) == 1, files
    # Sharded: <dir>/<2 hex>/<32 hex>.bin
    rel = os.path.relpath(files[0], cache)
    shard, name = rel.split(os.sep)
    assert len(shard) == 2 and name == shard + name[2:] and name.endswith(".bin") and len(name) == 36
    # Private: directories 0700, the entry not writable by others.
    assert stat.S_IMODE(os.stat(cache).st_mode) == 0o700
    assert stat.S_IMODE(os.stat(cache / shard).st_mode) == 0o700
    assert stat.S_IMODE(os.stat(files[0]).st_mode) & 0o077 == 0
    with open(files[0], "rb") as f:
        assert f.read(8) == b"LZCLCACH"

    s2 = build_in_subprocess(dev, cache)
    assert s2["kernels_compiled"] == 0 and s2["disk_cache_hits"] == 1
    # Other options or another kernel source are other entries.
    s3 = build_in_subprocess(dev, cache, options="-cl-fast-relaxed-math")
    assert s3["kernels_compiled"] == 1 and s3["disk_cache_hits"] == 0
    assert len(entries(cache)) == 2


def _flip(path, offset):
    with open(path, "r+b") as f:
        f.seek(offset)
        b = f.read(1)
        f.seek(offset)
        f.write(bytes([b[0] ^ 0x5A]))


def _truncate(path, keep):
    with open(path, "r+b") as f:
        f.truncate(keep)


CORRUPTIONS = {
    "payload_flip": lambda p, n: _flip(p, 48 + (n - 48) // 2),
    "last_byte_flip": lambda p, n: _flip(p, n - 1),
    "header_magic": lambda p, n: _flip(p, 0),
    "header_version": lambda p, n: _flip(p, 8),
    "header_kind": lambda p, n: _flip(p, 12),
    "header_key": lambda p, n: _flip(p, 20),
    "header_size": lambda p, n: _flip(p, 32),
    "header_checksum": lambda p, n: _flip(p, 44),
    "truncated_half": lambda p, n: _truncate(p, n // 2),
    "truncated_header": lambda p, n: _truncate(p, 20),
    "empty": lambda p, n: _truncate(p, 0),
    "padded": lambda p, n: open(p, "ab").write(b"\0" * 7),
}


@pytest.mark.parametrize("how", sorted(CORRUPTIONS))
def test_corrupt_entry_is_rebuilt(how, tmp_path):
    dev = IDS[0]
    cache = tmp_path / "cache"
    assert build_in_subprocess(dev, cache)["kernels_compiled"] == 1
    (path,) = entries(cache)
    good = open(path, "rb").read()
    CORRUPTIONS[how](path, len(good))
    assert open(path, "rb").read() != good

    s = build_in_subprocess(dev, cache, LAZYCL_DEBUG="1")
    assert s["kernels_compiled"] == 1 and s["disk_cache_hits"] == 0
    # The bad entry was replaced by a good one, which the next process loads.
    (path2,) = entries(cache)
    assert path2 == path
    assert open(path, "rb").read()[:8] == b"LZCLCACH"
    s = build_in_subprocess(dev, cache)
    assert s["kernels_compiled"] == 0 and s["disk_cache_hits"] == 1


def test_unsafe_entry_is_not_loaded(tmp_path):
    dev = IDS[0]
    cache = tmp_path / "cache"
    build_in_subprocess(dev, cache)
    (path,) = entries(cache)
    os.chmod(path, 0o666)
    s = build_in_subprocess(dev, cache)
    assert s["kernels_compiled"] == 1 and s["disk_cache_hits"] == 0
    assert stat.S_IMODE(os.stat(path).st_mode) & 0o022 == 0


def test_symlinked_entry_is_not_loaded(tmp_path):
    dev = IDS[0]
    cache = tmp_path / "cache"
    build_in_subprocess(dev, cache)
    (path,) = entries(cache)
    elsewhere = tmp_path / "elsewhere.bin"
    os.rename(path, elsewhere)
    os.symlink(elsewhere, path)
    s = build_in_subprocess(dev, cache)
    assert s["kernels_compiled"] == 1 and s["disk_cache_hits"] == 0
    assert not os.path.islink(path)


def test_world_writable_cache_dir_is_not_used(tmp_path):
    dev = IDS[0]
    cache = tmp_path / "cache"
    cache.mkdir()
    os.chmod(cache, 0o777)
    s = build_in_subprocess(dev, cache)
    assert s["kernels_compiled"] == 1
    assert entries(cache) == []


def test_cache_off_writes_nothing(tmp_path):
    dev = IDS[0]
    cache = tmp_path / "cache"
    for _ in range(2):
        s = build_in_subprocess(dev, cache, LAZYCL_CACHE="0")
        assert s["kernels_compiled"] == 1 and s["disk_cache_hits"] == 0
    assert not cache.exists()


def test_default_dir_under_xdg_cache_home(tmp_path):
    dev = IDS[0]
    full = dict(os.environ)
    for k in ("LAZYCL_CACHE_DIR", "LAZYCL_CACHE"):
        full.pop(k, None)
    full["XDG_CACHE_HOME"] = str(tmp_path / "xdg")
    r = subprocess.run([sys.executable, "-c", BUILD, dev, SRC, "lc_test_scale"], env=full,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert len(entries(tmp_path / "xdg" / "lazycl")) == 1
    assert stat.S_IMODE(os.stat(tmp_path / "xdg" / "lazycl").st_mode) == 0o700


@pytest.mark.parametrize("dev", IDS)
def test_compile_error_has_log_and_source(dev, tmp_path, monkeypatch):
    bad = "__kernel void lc_test_bad(__global float *a)\n{\n    a[0] = undefined_name;\n}\n"
    lazycl.reset_stats()
    with pytest.raises(lazycl.CompileError) as ei:
        _lazycl._kernel_build(dev, bad, "lc_test_bad")
    text = str(ei.value)
    assert "lc_test_bad" in text
    assert "build log" in text
    assert "undefined_name" in text
    assert "   3 |     a[0] = undefined_name;" in text   # the source, with line numbers
    assert isinstance(ei.value, RuntimeError)
    assert "undefined_name" in ei.value.detail
    assert lazycl.stats()["kernels_compiled"] == 0


def test_missing_kernel_name():
    with pytest.raises(ValueError) as ei:
        _lazycl._kernel_build(IDS[0], SRC, "no_such_kernel")
    assert "no_such_kernel" in str(ei.value)


def test_concurrent_processes_share_the_cache(tmp_path):
    """Several processes building the same kernel at once all succeed; one entry results."""
    dev = IDS[0]
    cache = tmp_path / "cache"
    full = dict(os.environ)
    full.pop("LAZYCL_CACHE", None)
    full["LAZYCL_CACHE_DIR"] = str(cache)
    procs = [subprocess.Popen([sys.executable, "-c", BUILD, dev, SRC, "lc_test_scale"], env=full,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for _ in range(4)]
    for p in procs:
        out, err = p.communicate(timeout=300)
        assert p.returncode == 0, err
    files = entries(cache)
    assert len(files) == 1, files   # no temp files left behind
    assert build_in_subprocess(dev, cache)["disk_cache_hits"] == 1


def test_threads_share_the_memory_cache():
    import threading
    dev = IDS[0]
    src = SRC + "/* threads */\n"
    errors = []

    def work():
        try:
            for _ in range(20):
                _lazycl._kernel_build(dev, src, "lc_test_scale")
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    lazycl.reset_stats()
    ts = [threading.Thread(target=work) for _ in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert not errors
    s = lazycl.stats()
    assert s["memory_cache_hits"] >= 80 - 4
