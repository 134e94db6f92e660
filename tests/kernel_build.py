"""One kernel build in a fresh process, for the tests of the build routes (test_spirv.py,
test_spir.py): LAZYCL_BUILD and the tools are read once per process."""
import json
import os
import subprocess
import sys

BUILD = """
import json, sys, lazycl
from lazycl import _lazycl
lazycl.reset_stats()
try:
    _lazycl._kernel_build(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4])
    print(json.dumps(lazycl.stats()))
except Exception as e:
    print(json.dumps({"error": type(e).__name__, "text": str(e)}))
"""


def build_env(**env):
    """This process's environment without the build variables and with the disk cache off,
    then `env`."""
    full = dict(os.environ)
    for k in ("LAZYCL_BUILD", "LAZYCL_CLANG", "LAZYCL_LLVM_SPIRV", "LAZYCL_DUMP"):
        full.pop(k, None)
    full["LAZYCL_CACHE"] = "0"
    full.update(env)
    return full


def build(device, source, name, options="", **env):
    """Build kernel `name` of `source` on `device` in a child process: (its stats() after, or
    {"error": type name, "text": message}), and its stderr."""
    r = subprocess.run([sys.executable, "-c", BUILD, device.filter_string, source, name, options],
                       env=build_env(**env), capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout.strip().splitlines()[-1]), r.stderr


BAD = "__kernel void lc_route_bad(__global float *a) { a[0] = nope; }\n"


def check_strict_mode_error(device, mode, says):
    """A kernel clang refuses, under the strict LAZYCL_BUILD `mode`: a CompileError with clang's
    message and `says`."""
    s, _ = build(device, BAD, "lc_route_bad", LAZYCL_BUILD=mode)
    assert s["error"] == "CompileError"
    assert "nope" in s["text"] and says in s["text"]


def check_auto_mode_falls_back(device, route):
    """The same kernel under LAZYCL_BUILD=auto: built again from source, whose error is raised;
    LAZYCL_DEBUG=1 says that the `route` build failed."""
    s, err = build(device, BAD, "lc_route_bad", LAZYCL_DEBUG="1")
    assert s["error"] == "CompileError"
    assert "from source" in s["text"] and "nope" in s["text"]
    assert f"{route} build failed" in err


def check_disk_cache(device, source, name, stat, tmp_path, **route):
    """A build through a route (counted in stats()[stat]; `route`: the environment that picks
    it, else auto's) is found on disk by the next process; the source route is another key:
    no reuse of the first route's entry."""
    env = {"LAZYCL_CACHE": "1", "LAZYCL_CACHE_DIR": str(tmp_path / "c")}
    s1, _ = build(device, source, name, **env, **route)
    assert s1[stat] == 1
    s2, _ = build(device, source, name, **env, **route)
    assert s2["kernels_compiled"] == 0 and s2["disk_cache_hits"] == 1
    s3, _ = build(device, source, name, **dict(env, LAZYCL_BUILD="source"))
    assert s3["kernels_compiled"] == 1 and s3["disk_cache_hits"] == 0
