"""The loops benchmark's kernels (benchmarks/loops.py) at n = 8..12: the same function run by
lazycl (the default device) and by NumPy gives the same result, with no host fallback."""
import warnings

import numpy as np
import pytest

import lazycl as lc
from conftest import load_bench
from lazycl._fallback import HostFallbackWarning

loops = load_bench("loops")

#: (kernel, n, iters): every kernel whole at a small size, two of them capped as the benchmark
#: caps them at large sizes.
CASES = [("cholesky", 9, None), ("lu", 10, None), ("lu", 12, 4), ("trisolv", 12, None),
         ("gramschmidt", 8, None), ("durbin", 8, None), ("seidel_2d", 11, None),
         ("seidel_2d", 10, 3)]


@pytest.mark.parametrize("name,n,iters", CASES)
def test_kernel_matches_numpy(name, n, iters):
    ref = loops.run_numpy(name, n, iters=iters)
    with warnings.catch_warnings():
        warnings.simplefilter("error", HostFallbackWarning)
        got = loops.run_lazycl(lc, name, n, iters=iters)
    assert len(got) == len(ref)
    for g, r in zip(got, ref):
        assert g.shape == r.shape and g.dtype == r.dtype
        np.testing.assert_allclose(g, r, rtol=1e-12, atol=1e-12 * float(np.max(np.abs(r))))
    ok, _ = loops.check(got, ref)
    assert ok


def test_caps_and_rows():
    # A capped size says so in its row; the table renders every status.
    assert loops.cap("trisolv", 500) is None
    assert loops.cap("lu", 100) is None and loops.cap("lu", 300) == 40
    assert loops.cap("lu", 2000) == 5
    row = {"kernel": "lu", "n": 300, "numpy_ms": 1.0, "lazycl_ms": 50.0, "ratio": 50.0,
           "ok": True, "max_err": 0.0, "note": "capped", "error": "", "warnings": []}
    bad = dict(row, ok=False, max_err=0.5, lazycl_ms=None, ratio=None, error="TypeError: x")
    md = loops.table_md([row, bad])
    assert "| lu | 300 | 1 | 50 | 50 | ok | capped |" in md
    assert "| error |" in md and "TypeError: x" in md
