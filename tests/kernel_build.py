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
