"""Mandelbrot with @lazycl.vectorize (docs/api.md, "Functions in Python"): the scalar loop as a
Python function, translated to OpenCL C and fused with what follows it, checked against NumPy's
vectorized form.

    python examples/vectorize_mandelbrot.py [--device pocl:cpu] [--n 400] [--iters 100]
"""
import argparse
import time

import numpy as np

import lazycl as lc


@lc.func
def escaped(zr, zi):
    return zr * zr + zi * zi > 4.0


@lc.vectorize
def mandel(cr, ci, maxiter):
    zr = 0.0
    zi = 0.0
    for n in range(maxiter):
        if escaped(zr, zi):
            return n
        zr, zi = zr * zr - zi * zi + cr, 2.0 * zr * zi + ci
    return maxiter


def numpy_mandel(cr, ci, maxiter):
    zr, zi = np.zeros_like(cr), np.zeros_like(ci)
    n = np.full(cr.shape, maxiter, np.int64)
    active = np.ones(cr.shape, bool)
    for k in range(maxiter):
        esc = active & (zr * zr + zi * zi > 4.0)
        n[esc] = k
        active &= ~esc
        zr, zi = (np.where(active, zr * zr - zi * zi + cr, zr),
                  np.where(active, 2.0 * zr * zi + ci, zi))
    return n


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--device", default=None)
    ap.add_argument("--n", type=int, default=400)
    ap.add_argument("--iters", type=int, default=100)
    a = ap.parse_args()
    dev = lc.Device(a.device) if a.device else lc.default_device()
    x = np.linspace(-2.25, 0.75, a.n)
    y = np.linspace(-1.5, 1.5, a.n)
    cr, ci = np.meshgrid(x, y)
    t0 = time.perf_counter()
    ref = numpy_mandel(cr, ci, a.iters)
    t_np = time.perf_counter() - t0
    R, I = lc.asarray(cr, device=dev), lc.asarray(ci, device=dev)
    counts = mandel(R, I, a.iters)
    lc.reset_stats()
    inside = int((counts == a.iters).sum())            # the loop and the count: one launch
    launches = lc.stats()["launches"]
    np.asarray(mandel(R, I, a.iters))                  # the first call builds the kernel
    t0 = time.perf_counter()
    got = np.asarray(mandel(R, I, a.iters))
    t_lc = time.perf_counter() - t0
    assert np.array_equal(got, ref)
    assert inside == int((ref == a.iters).sum())
    print(f"{a.n}x{a.n}, {a.iters} iterations on {dev.filter_string}: {inside} points inside "
          f"({launches} launch); NumPy's vectorized form {t_np * 1e3:.0f} ms, lazycl "
          f"{t_lc * 1e3:.1f} ms")
    print(lc.explain((mandel(R, I, a.iters) == a.iters).sum()).split("--- kernel")[0])


if __name__ == "__main__":
    main()
