"""The seed's sparse PCA (NumbaPro's `spca`), as NumPy code that lazycl runs unchanged.

Sparse PCA by random search: draw S random directions c in the span of the top d principal
directions Vd (p x d), score each by the norm of the k largest entries of Vd @ c, and keep the
best direction's sparse vector. NumbaPro's GPU version needed cuRAND, a batched matmul, a
k-selection, a scatter and custom kernels; here the same NumPy code runs with
``import lazycl as np``.

Two forms:

- ``spca_loop(np, Vd, C, k)``: the seed's CPU loop, one direction at a time, written exactly as
  in the seed (``argsort``, a fancy-indexed norm, a scatter into ``opt_x``); ``np`` is the
  module to run it with (numpy or lazycl).
- ``spca_batched(np, Vd, C, k)``: what a GPU user writes: every direction at once,
  ``A = Vd @ C``, the k largest ``|A|`` of each column, their norms, the best column, its k
  entries scattered into ``opt_x``. With lazycl the p x S product is never written: the
  selection computes it inside its own kernel.

Run ``python examples/sparse_pca.py --check`` to compare both forms with NumPy (same random
directions) and print the times and lazycl's kernel counts.
"""
import argparse
import time

import numpy


def directions(d, S, seed=0):
    """S random directions in d dimensions (d x S float64), the seed's `np.random.randn(d, S)`."""
    return numpy.random.default_rng(seed).standard_normal((d, S))


def spca_loop(np, Vd, C, k=10):
    """The seed's `spca_unopt`, given its random directions C (d x numSamples)."""
    p = Vd.shape[0]
    numSamples = C.shape[1]
    opt_x = np.zeros((p, 1))
    opt_v = -np.inf
    for i in np.arange(1, numSamples + 1):
        c = C[:, i - 1:i]
        c = c / np.linalg.norm(c)
        a = Vd.dot(c)
        I = np.argsort(a, axis=0)
        val = np.linalg.norm(a[I[-k:]])
        if val > opt_v:
            opt_v = val
            opt_x = np.zeros((p, 1))
            opt_x[I[-k:]] = a[I[-k:], :] / val
    return opt_x


def top_k_columns(np, M, k):
    """Row indices of the k largest entries of each column of M (k x S), in any order: lazycl's
    top_k where the module has one, else NumPy's argpartition."""
    if hasattr(np, "top_k"):
        return np.top_k(M, k, axis=0)[1]
    return np.argpartition(M, M.shape[0] - k, axis=0)[M.shape[0] - k:]


def spca_batched(np, Vd, C, k=10):
    """Every direction at once: returns (opt_x (p x 1), the best value, the best column)."""
    p = Vd.shape[0]
    C = C / np.linalg.norm(C, axis=0)
    A = Vd @ C                                      # p x S: lazycl never writes it
    I = top_k_columns(np, np.abs(A), k)             # k x S row indices
    vals = np.linalg.norm(np.take_along_axis(A, I, axis=0), axis=0)
    best = int(np.argmax(vals))
    rows = I[:, best]
    opt_x = np.zeros((p, 1))
    opt_x[rows, 0] = A[rows, best] / vals[best]
    return opt_x, float(vals[best]), best


def _timed(fn, reps):
    best = None
    for _ in range(reps):
        t = time.perf_counter()
        out = fn()
        dt = time.perf_counter() - t
        best = dt if best is None else min(best, dt)
    return out, best


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--form", choices=("batched", "loop", "both"), default="both")
    ap.add_argument("--p", type=int, default=None, help="rows of Vd (batched 100000, loop 1000)")
    ap.add_argument("--d", type=int, default=3)
    ap.add_argument("--k", type=int, default=10)
    ap.add_argument("--S", type=int, default=4096, help="directions of the batched form")
    ap.add_argument("--epsilon", type=float, default=0.5,
                    help="the loop form's accuracy: (4 / epsilon) ** d directions")
    ap.add_argument("--dtype", default="float32", help="the batched form's dtype")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--device", default=None,
                    help="a lazycl device filter, e.g. pocl:cpu (sets LAZYCL_DEVICE)")
    ap.add_argument("--check", action="store_true", help="compare with NumPy")
    a = ap.parse_args(argv)

    if a.device:
        import os
        os.environ["LAZYCL_DEVICE"] = a.device
    import lazycl as lc
    rng = numpy.random.default_rng(1)
    if a.form in ("batched", "both"):
        p = a.p or 100000
        Vd = (rng.random((p, a.d)) - 0.5).astype(a.dtype)
        C = directions(a.d, a.S).astype(a.dtype)
        Vl, Cl = lc.asarray(Vd), lc.asarray(C)
        spca_batched(lc, Vl, Cl, a.k)                 # compile once
        lc.reset_stats()
        (x, v, best), t = _timed(lambda: spca_batched(lc, Vl, Cl, a.k), a.reps)
        st = lc.stats()
        print(f"batched  p={p} d={a.d} k={a.k} S={a.S}: lazycl {t * 1e3:.1f} ms, "
              f"{st['launches'] / a.reps:.0f} launches, best column {best} ({v:.6g})")
        if a.check:
            (xn, vn, bn), tn = _timed(lambda: spca_batched(numpy, Vd, C, a.k), 1)
            ok = bn == best and numpy.allclose(numpy.asarray(x), xn, rtol=1e-4, atol=1e-6)
            print(f"         NumPy {tn * 1e3:.1f} ms, best column {bn} ({vn:.6g}): "
                  f"{'same answer' if ok else 'DIFFERENT'}")
            if not ok:
                return 1
    if a.form in ("loop", "both"):
        p = a.p or 1000
        S = int((4.0 / a.epsilon) ** a.d)
        Vd = rng.random((p, a.d)) - 0.5
        C = directions(a.d, S)
        Vl, Cl = lc.asarray(Vd), lc.asarray(C)
        spca_loop(lc, Vl, Cl, a.k)
        lc.reset_stats()
        x, t = _timed(lambda: numpy.asarray(spca_loop(lc, Vl, Cl, a.k)), a.reps)
        st = lc.stats()
        print(f"loop     p={p} d={a.d} k={a.k} {S} directions: lazycl {t * 1e3:.1f} ms, "
              f"{st['launches'] / a.reps:.0f} launches")
        if a.check:
            xn, tn = _timed(lambda: spca_loop(numpy, Vd, C, a.k), a.reps)
            ok = numpy.allclose(x, xn, rtol=1e-12, atol=1e-15)
            print(f"         NumPy {tn * 1e3:.1f} ms: {'same answer' if ok else 'DIFFERENT'}")
            if not ok:
                return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
