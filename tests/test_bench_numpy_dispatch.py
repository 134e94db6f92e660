"""The benchmark peer `numpy.avx2` (benchmarks/numpy_dispatch.py): NumPy with its AVX-512
dispatch targets turned off, in a worker process, for the sort and selection rows. What it
turns off, that its NumPy dispatches none of it, and that its results are NumPy's. No clock."""
import numpy as np

from conftest import load_bench

load_bench("numpy_dispatch")        # puts benchmarks/ on sys.path for the worker's import
import numpy_dispatch as nd        # noqa: E402  (by name: the spawned worker imports it so)
from selection import TOPK          # noqa: E402


class W:
    def __init__(self, name, x):
        self.name, self.inputs = name, [x]


def test_targets_are_found_dispatch_targets_beyond_avx2():
    m = nd._features()
    off = nd.avx512_targets()
    for f in off:
        assert f in m.__cpu_dispatch__ and m.__cpu_features__[f]
        assert f == "X86_V4" or f.startswith("AVX512")
    assert all(f not in off for f in ("AVX2", "X86_V3", "SSE42"))


def test_worker_dispatches_none_of_them_and_gives_numpy_results():
    off = nd.avx512_targets()
    w = nd.Worker(off)
    try:
        rng = np.random.default_rng(0)
        x = rng.random(10007).astype(np.float32)
        X = rng.random((37, 129)).astype(np.float32)
        for name, a in (("sort", x), ("argsort", x), ("sort_rows", X), ("topk", x),
                        ("topk_rows", X)):
            prep, run, sync, to_np = nd.system(w, W(name, a))
            prep()
            sync(run(None))
            r = to_np(None)
            if name in ("sort", "sort_rows"):
                np.testing.assert_array_equal(r, np.sort(a))
            elif name == "argsort":
                np.testing.assert_array_equal(r, np.argsort(a, kind="stable"))
            else:
                v, i = r
                np.testing.assert_array_equal(v, -np.sort(-a, axis=-1)[..., :TOPK])
                np.testing.assert_array_equal(np.take_along_axis(a, i, axis=-1), v)
        assert w.active and not set(off) & set(w.active)
        assert isinstance(nd.system(w, W("transc", x)), str)      # other rows: a skip note
    finally:
        w.close()
