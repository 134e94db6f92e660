"""The GPU schedules (work-group trees, column blocks, tile scans, 4-wide maps) on the CPU
devices: CI has no GPU, so the reduction, scan and fusion suites run again in a child pytest
with LAZYCL_SCHEDULE=gpu, which makes lazycl write GPU-shaped kernels for any device. The
NVIDIA run (benchmarks/gpu/run.sh) runs the whole suite on the real thing. Under `make test`
the child runs take their dtype parameters in conftest.GPU_SCHEDULE_DTYPES only (int64,
float32, complex64); `make test-full` takes every dtype."""
import os
import subprocess
import sys

import pytest

import lazycl
from conftest import FULL

HERE = os.path.dirname(os.path.abspath(__file__))


# (module, -k expression): the writes and histograms run their store schedules on PoCL only
# (the rest of test_write.py is the map schedules again; Intel's compiles are slow); the CPU
# SIMD schedules' own tests (sorts in vector registers, top-k in SIMD steps) stay out; the plan
# cache's (whose keys and hits the schedules do not change) runs in `make test-full` only.
SUITES = [("test_reductions.py", None), ("test_reductionkernel.py", None),
          ("test_scans.py", None), ("test_fusion.py", None),
          pytest.param("test_plan_cache.py", None, marks=pytest.mark.full),
          ("test_gather.py", None),
          ("test_histogram.py", "pocl"), ("test_scatter_ranges.py", "pocl"),
          ("test_random.py", "not intel"),
          ("test_sort.py", "not intel and not vector_registers"),
          ("test_topk.py", "pocl and not simd_steps"), ("test_matmul.py", "pocl"),
          ("test_matmul_epilogue.py", "pocl"), ("test_linalg.py", "pocl"),
          ("test_write.py", "pocl and (repeated or add_at or bincount or scatter or compaction "
                            "or scan_written)")]


@pytest.mark.parametrize("module,select", SUITES,
                         ids=[getattr(m, "values", m)[0] for m in SUITES])
def test_suite_with_gpu_schedules(module, select):
    """`make test` runs the GPU schedules on PoCL only (the target they must work on is a GPU;
    one CPU runtime proves the kernels); `make test-full` on every CPU device as well."""
    if not FULL:
        select = "not intel" if select is None else f"({select}) and not intel"
    if lazycl.default_device().type == "gpu":
        pytest.skip("the default device is a GPU: the whole suite already runs GPU schedules")
    env = dict(os.environ, LAZYCL_SCHEDULE="gpu")
    env.pop("LAZYCL_TEST_SHARD", None)   # this test's shard runs the whole module
    cmd = [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider",
           os.path.join(HERE, module)] + (["-k", select] if select else [])
    # A guard against a hang, not a time target: with empty kernel caches on a 2-core Zen 4,
    # PoCL took 1428 s to compile and run test_topk.py's GPU-shaped kernels (191 s since their
    # loops stay rolled on CPU devices: lc_target's roll_loops), test_sort.py's 1082 s (600).
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=HERE, timeout=2700)
    assert p.returncode == 0, p.stdout[-4000:] + p.stderr[-2000:]
    assert " passed" in p.stdout.splitlines()[-1], p.stdout[-1000:]
