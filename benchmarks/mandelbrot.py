"""Mandelbrot with @lazycl.vectorize (issue 31): the escape count of each point of an n x n grid
after at most `iters` iterations, against NumPy's vectorized form (masks over the whole grid,
as npbench's mandelbrot), Numba's @vectorize(target='parallel') where Numba is installed, and
the same loop hand-written in OpenCL C (lc.RawKernel).

    python benchmarks/mandelbrot.py [--device pocl:cpu] [--n 1000] [--iters 200] [--reps 5]

Every system computes in float64 and is checked against NumPy's counts.
"""
import argparse
import time

import numpy as np

import lazycl as lc


@lc.vectorize
def mandel(cr, ci, maxiter):
    zr = 0.0
    zi = 0.0
    for n in range(maxiter):
        zr2 = zr * zr
        zi2 = zi * zi
        if zr2 + zi2 > 4.0:
            return n
        zr, zi = zr2 - zi2 + cr, 2.0 * zr * zi + ci
    return maxiter


def numpy_mandel(cr, ci, maxiter):
    """NumPy's vectorized form: every point steps until it escapes, under a mask."""
    zr, zi = np.zeros_like(cr), np.zeros_like(ci)
    n = np.full(cr.shape, maxiter, np.int64)
    active = np.ones(cr.shape, bool)
    for k in range(maxiter):
        zr2, zi2 = zr * zr, zi * zi
        esc = active & (zr2 + zi2 > 4.0)
        n[esc] = k
        active &= ~esc
        zi = np.where(active, 2.0 * zr * zi + ci, zi)
        zr = np.where(active, zr2 - zi2 + cr, zr)
    return n


# FP_CONTRACT OFF as in lazycl's kernels: NVIDIA's compiler would otherwise fuse multiplies and
# adds, and the escape counts of points near the boundary would differ from NumPy's.
HAND = r"""
#pragma OPENCL FP_CONTRACT OFF
__kernel void mandel(__global const double *cr, __global const double *ci, __global long *out,
                     const long maxiter, const long size)
{
    const long i = get_global_id(0);
    if (i >= size) return;
    const double r = cr[i], c = ci[i];
    double zr = 0.0, zi = 0.0;
    long res = maxiter;
    for (long n = 0; n < maxiter; n++) {
        const double zr2 = zr * zr, zi2 = zi * zi;
        if (zr2 + zi2 > 4.0) { res = n; break; }
        const double t = zr2 - zi2 + r;
        zi = 2.0 * zr * zi + c;
        zr = t;
    }
    out[i] = res;
}
"""


def timed(f, reps):
    f()
    t = []
    for _ in range(reps):
        t0 = time.perf_counter()
        f()
        t.append(time.perf_counter() - t0)
    return sorted(t)[len(t) // 2] * 1e3


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--device", default=None)
    ap.add_argument("--n", type=int, default=1000)
    ap.add_argument("--iters", type=int, default=200)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--skip-numpy", action="store_true", help="NumPy's form is slow: skip it")
    args = ap.parse_args(argv)
    dev = lc.Device(args.device) if args.device else lc.default_device()
    n, iters = args.n, args.iters
    x = np.linspace(-2.25, 0.75, n)
    y = np.linspace(-1.5, 1.5, n)
    cr = np.ascontiguousarray(np.broadcast_to(x[None, :], (n, n)))
    ci = np.ascontiguousarray(np.broadcast_to(y[:, None], (n, n)))
    ref = numpy_mandel(cr, ci, iters)
    rows = []
    if not args.skip_numpy:
        rows.append(("NumPy vectorized (masks)", timed(lambda: numpy_mandel(cr, ci, iters),
                                                     max(1, args.reps // 2))))
    CR = lc.asarray(cr, device=dev, copy=True).compute()
    CI = lc.asarray(ci, device=dev, copy=True).compute()
    got = np.asarray(mandel(CR, CI, iters))
    assert np.array_equal(got, ref), "lazycl vectorize differs from NumPy"
    rows.append(("lazycl @vectorize, device-resident",
                 timed(lambda: mandel(CR, CI, iters).compute(), args.reps)))
    rows.append(("lazycl @vectorize, NumPy in and out",
                 timed(lambda: np.asarray(mandel(lc.asarray(cr, device=dev),
                                                  lc.asarray(ci, device=dev), iters)), args.reps)))
    k = lc.RawKernel(HAND, "mandel")
    out = lc.zeros((n, n), np.int64, device=dev).compute()

    def hand():
        k((n * n,), None, (CR, CI, out, iters, n * n))
        out.compute()
        dev_q = out.queue
        dev_q.finish()

    hand()
    assert np.array_equal(np.asarray(out), ref), "hand-written kernel differs from NumPy"
    rows.append(("hand-written OpenCL C (RawKernel)", timed(hand, args.reps)))
    try:
        import numba
        nv = numba.vectorize(["int64(float64, float64, int64)"], target="parallel")(mandel.py)
        assert np.array_equal(nv(cr, ci, iters), ref)
        rows.append((f"Numba {numba.__version__} @vectorize(target='parallel')",
                     timed(lambda: nv(cr, ci, iters), args.reps)))
    except ImportError:
        rows.append(("Numba: not installed", float("nan")))
    base = dict(rows).get("lazycl @vectorize, device-resident")
    print(f"mandelbrot {n}x{n}, {iters} iterations, float64, on {dev.filter_string} ({dev.name})")
    for name, ms in rows:
        print(f"  {name:<44} {ms:10.3g} ms   x{ms / base:7.2f} of lazycl" if ms == ms else
              f"  {name}")
    return rows


if __name__ == "__main__":
    main()
