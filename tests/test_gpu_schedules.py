"""The GPU schedules (work-group trees, column blocks, tile scans, 4-wide maps) on the CPU
devices: CI has no GPU, so the reduction, scan and fusion suites run again in a child pytest
with LAZYCL_SCHEDULE=gpu, which makes lazycl write GPU-shaped kernels for any device. The
NVIDIA run (benchmarks/gpu/run.sh) runs the whole suite on the real thing."""
import os
import subprocess
import sys

import pytest

import lazycl

HERE = os.path.dirname(os.path.abspath(__file__))


@pytest.mark.parametrize("module", ["test_reductions.py", "test_scans.py", "test_fusion.py",
                                    "test_plan_cache.py", "test_gather.py"])
def test_suite_with_gpu_schedules(module):
    if lazycl.default_device().type == "gpu":
        pytest.skip("the default device is a GPU: the whole suite already runs GPU schedules")
    env = dict(os.environ, LAZYCL_SCHEDULE="gpu")
    p = subprocess.run([sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider",
                        os.path.join(HERE, module)], capture_output=True, text=True, env=env,
                       cwd=HERE, timeout=1500)
    assert p.returncode == 0, p.stdout[-4000:] + p.stderr[-2000:]
    assert " passed" in p.stdout.splitlines()[-1], p.stdout[-1000:]
