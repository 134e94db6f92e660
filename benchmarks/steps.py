"""steps.py: the cost of one small step, NumPy against lazycl (issue 28's table).

Each row times one call (graph building, a forced scalar, a write) on 1e3 floats or a 100x100
matrix: the min of 5 rounds of 500-2000 calls, after a warm-up, on the device named (default
pocl:cpu); lazycl's inputs are computed on the device first. With more arguments, only the rows
whose name contains one of them run.

    python benchmarks/steps.py [device] [row-substring ...]
"""
import sys
import time

import numpy as np

import lazycl as lc


def per_call_us(fn, reps):
    """The min over 5 rounds of the mean time of `reps` calls, in microseconds."""
    for _ in range(50):
        fn()
    best = float("inf")
    for _ in range(5):
        t0 = time.perf_counter()
        for _ in range(reps):
            fn()
        best = min(best, (time.perf_counter() - t0) / reps * 1e6)
    return best


def rows(d):
    """(name, NumPy call, lazycl call, calls per round)."""
    xn = np.random.default_rng(0).random(1000).astype(np.float32)
    an = np.random.default_rng(1).random((100, 100))
    x = lc.asarray(xn, device=d, copy=True).compute()
    a = lc.asarray(an, device=d, copy=True).compute()
    idx = np.arange(0, 1000, 7)
    il = lc.asarray(idx, device=d, copy=True).compute()
    aw = an.copy()

    def write_np():
        aw[3, 4] = 1.0

    def write_lc():
        a[3, 4] = 1.0

    return [
        ("x + 1", lambda: xn + 1, lambda: x + 1, 2000),
        ("abs(x)", lambda: abs(xn), lambda: abs(x), 2000),
        ("x.sum()", lambda: xn.sum(), lambda: x.sum(), 2000),
        ("A.sum(axis=0, keepdims=True)", lambda: an.sum(axis=0, keepdims=True),
         lambda: a.sum(axis=0, keepdims=True), 2000),
        ("A[3, :50] @ A[:50, 7]", lambda: an[3, :50] @ an[:50, 7], lambda: a[3, :50] @ a[:50, 7],
         2000),
        ("A @ A", lambda: an @ an, lambda: a @ a, 2000),
        ("np.dot(A[3], A[:,7])", lambda: np.dot(an[3], an[:, 7]), lambda: lc.dot(a[3], a[:, 7]),
         2000),
        ("A[3]", lambda: an[3], lambda: a[3], 2000),
        ("A[3, 4] (0-d)", lambda: an[3, 4], lambda: a[3, 4], 2000),
        ("A[2:50, 1:-1]", lambda: an[2:50, 1:-1], lambda: a[2:50, 1:-1], 2000),
        ("x[idx]", lambda: xn[idx], lambda: x[il], 2000),
        ("x > 0.5", lambda: xn > 0.5, lambda: x > 0.5, 2000),
        ("float(x.sum())", lambda: float(xn.sum()), lambda: float(x.sum()), 500),
        ("float(x[3])", lambda: float(xn[3]), lambda: float(x[3]), 500),
        ("x[3].item()", lambda: xn[3].item(), lambda: x[3].item(), 500),
        ("bool(x.sum() > 3)", lambda: bool(xn.sum() > 3), lambda: bool(x.sum() > 3), 500),
        ("int(A.argmax())", lambda: int(an.argmax()), lambda: int(a.argmax()), 500),
        ("A[3, 4] = 1.0", write_np, write_lc, 500),
        ("(x*2+1).compute()", lambda: np.asarray(xn * 2 + 1), lambda: (x * 2 + 1).compute(), 500),
    ]


def main(argv):
    d = lc.Device(argv[0] if argv else "pocl:cpu")
    only = argv[1:]
    for name, fn_np, fn_lc, reps in rows(d):
        if only and not any(o in name for o in only):
            continue
        t_np, t_lc = per_call_us(fn_np, reps), per_call_us(fn_lc, reps)
        print(f"{name:32s} numpy {t_np:7.2f} us  lazycl {t_lc:7.2f} us  ratio {t_lc / t_np:6.1f}")


if __name__ == "__main__":
    main(sys.argv[1:])
