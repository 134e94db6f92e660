"""Data-parallel kernels written in Python with ``@lc.kernel`` (docs/api.md, "@lc.kernel"),
numba-dpex style: each work-item runs the function, which finds its place with
``lc.get_global_id(d)``, reads and writes array elements, and may share ``lc.local.array``
memory with its work-group across ``lc.barrier()``. A kernel is translated to OpenCL C for the
dtypes and ndims of its arguments at its first launch, ``k[global_size, local_size](args)``,
and kept; the arrays it writes hold the results for whatever reads them next.

- a tiled sum reduction: each work-group sums its items' strided partial sums in local memory
  (a tree, a barrier per level), one partial per group; a second launch of the same kernel,
  one group, sums the partials;
- a 2-D 5-point stencil (Jacobi iterations of the Laplace equation), two buffers swapped;
- a histogram with integer atomics (``lc.atomic.add``).

Run ``python examples/python_kernels.py`` (``--device pocl:cpu``, ...): each example is checked
against NumPy. ``--bench`` also times the reduction and the stencil against the same kernels
hand-written in OpenCL C (``lc.RawKernel``).
"""
import argparse
import time

import numpy as np

import lazycl as lc

WG = 256                                  # work-group size of the reduction (a power of two)


@lc.kernel
def partial_sums(x, out):
    """out[g] = the sum of the elements x[k] that group g's items visit (k = id, id + size,
    ...): a grid-stride loop, then a tree in local memory."""
    tile = lc.local.array(WG, np.float32)
    lid = lc.get_local_id(0)
    acc = 0.0                             # float32: the weak literal takes x's dtype
    for k in range(lc.get_global_id(0), x.size, lc.get_global_size(0)):
        acc += x[k]
    tile[lid] = acc
    lc.barrier(lc.LOCAL_MEM_FENCE)
    s = WG // 2
    while s > 0:
        if lid < s:
            tile[lid] += tile[lid + s]
        lc.barrier(lc.LOCAL_MEM_FENCE)
        s >>= 1
    if lid == 0:
        out[lc.get_group_id(0)] = tile[0]


def tiled_sum(x, groups=64):
    """The sum of x (float32) in two launches: `groups` partials, then one group sums them."""
    partials = lc.empty(groups, dtype=np.float32, device=x.device)
    total = lc.empty(1, dtype=np.float32, device=x.device)
    partial_sums[groups * WG, WG](x, partials)
    partial_sums[WG, WG](partials, total)
    return total


@lc.kernel
def jacobi_step(u, v):
    """v = the mean of u's four neighbours, on the interior; the border is kept."""
    j = lc.get_global_id(0)               # dim 0 varies fastest: the columns
    i = lc.get_global_id(1)
    n, m = u.shape
    if i < n and j < m:
        if 0 < i < n - 1 and 0 < j < m - 1:
            v[i, j] = 0.25 * (u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1])
        else:
            v[i, j] = u[i, j]


def jacobi(u0, steps):
    """`steps` Jacobi sweeps from u0 (2-d float32), two buffers swapped."""
    n, m = u0.shape
    u, v = u0.copy(), lc.empty_like(u0)
    for _ in range(steps):
        jacobi_step[(m, n), None](u, v)
        u, v = v, u
    return u


@lc.kernel
def histogram(x, lo, width, hist):
    """hist[b] += 1 for each x in bin b = (x - lo) / width; values outside are dropped."""
    i = lc.get_global_id(0)
    if i < x.size:
        b = int((x[i] - lo) / width)
        if 0 <= b < hist.size and x[i] >= lo:
            lc.atomic.add(hist, b, 1)


# ---- the same kernels in OpenCL C, for --bench -------------------------------------------------

HAND_SUM = r"""
#define WG 256
__kernel void partial_sums(__global const float *x, __global float *out, const long n)
{
    __local float tile[WG];
    const long lid = get_local_id(0);
    float acc = 0.0f;
    for (long k = get_global_id(0); k < n; k += get_global_size(0))
        acc += x[k];
    tile[lid] = acc;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (long s = WG / 2; s > 0; s >>= 1) {
        if (lid < s)
            tile[lid] += tile[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        out[get_group_id(0)] = tile[0];
}
"""

HAND_JACOBI = r"""
__kernel void jacobi_step(__global const float *u, __global float *v, const long n, const long m)
{
    const long j = get_global_id(0), i = get_global_id(1);
    if (i < n && j < m) {
        if (i > 0 && i < n - 1 && j > 0 && j < m - 1)
            v[i * m + j] = 0.25f * (u[(i - 1) * m + j] + u[(i + 1) * m + j] + u[i * m + j - 1]
                                    + u[i * m + j + 1]);
        else
            v[i * m + j] = u[i * m + j];
    }
}
"""


def numpy_jacobi(u, steps):
    u = u.copy()
    for _ in range(steps):
        v = u.copy()
        v[1:-1, 1:-1] = np.float32(0.25) * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2]
                                             + u[1:-1, 2:])
        u = v
    return u


def timed(f, reps):
    f()
    t = []
    for _ in range(reps):
        t0 = time.perf_counter()
        f()
        t.append(time.perf_counter() - t0)
    return sorted(t)[len(t) // 2] * 1e3


def bench(dev, reps):
    """Median ms of each @lc.kernel against its hand-written OpenCL C twin, same launches."""
    rows = []
    n = 1 << 24
    x = lc.asarray(np.random.default_rng(1).random(n, dtype=np.float32), device=dev,
                   copy=True).compute()
    groups = 64
    parts = lc.empty(groups, dtype=np.float32, device=dev).compute()
    tot = lc.empty(1, dtype=np.float32, device=dev).compute()
    hs = lc.RawKernel(HAND_SUM, "partial_sums")
    q = x.queue

    def py_sum():
        partial_sums[groups * WG, WG](x, parts)
        partial_sums[WG, WG](parts, tot)
        q.finish()

    def hand_sum():
        hs((groups * WG,), (WG,), (x, parts, n))
        hs((WG,), (WG,), (parts, tot, groups))
        q.finish()

    rows.append((f"sum of {n} float32 (2 launches)", timed(py_sum, reps), timed(hand_sum, reps)))
    side, steps = 2048, 10
    u = lc.asarray(np.random.default_rng(2).random((side, side), dtype=np.float32), device=dev,
                   copy=True).compute()
    v = lc.empty_like(u).compute()
    hj = lc.RawKernel(HAND_JACOBI, "jacobi_step")

    def py_jacobi():
        for _ in range(steps):
            jacobi_step[(side, side), None](u, v)
            jacobi_step[(side, side), None](v, u)
        q.finish()

    def hand_jacobi():
        for _ in range(steps):
            hj((side, side), None, (u, v, side, side))
            hj((side, side), None, (v, u, side, side))
        q.finish()

    rows.append((f"jacobi {side}x{side}, {2 * steps} sweeps", timed(py_jacobi, reps),
                 timed(hand_jacobi, reps)))
    print(f"@lc.kernel against hand-written OpenCL C on {dev.filter_string} ({dev.name}), "
          f"median of {reps}:")
    for name, py, hand in rows:
        print(f"  {name:<36} @lc.kernel {py:8.2f} ms   hand {hand:8.2f} ms   x{py / hand:5.2f}")
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--device", default=None)
    ap.add_argument("--bench", action="store_true")
    ap.add_argument("--reps", type=int, default=5)
    args = ap.parse_args(argv)
    dev = lc.Device(args.device) if args.device else lc.default_device()
    rng = np.random.default_rng(0)

    h = rng.random(100_003, dtype=np.float32)
    got = float(np.asarray(tiled_sum(lc.asarray(h, device=dev, copy=True)))[0])
    want = float(h.astype(np.float64).sum())
    assert abs(got - want) <= 1e-5 * want, (got, want)
    print(f"tiled sum of {h.size} float32: {got:.3f} (NumPy: {want:.3f})")

    u0 = np.zeros((65, 80), np.float32)
    u0[0, :] = 1.0                        # a hot top edge
    got = np.asarray(jacobi(lc.asarray(u0, device=dev, copy=True), 50))
    np.testing.assert_allclose(got, numpy_jacobi(u0, 50), rtol=1e-6, atol=1e-7)
    print(f"jacobi 65x80, 50 sweeps: u[4, 40] = {got[4, 40]:.5f}")

    d = rng.normal(size=50_000).astype(np.float32)
    hist = lc.zeros(16, dtype=np.int32, device=dev)
    histogram[d.size](lc.asarray(d, device=dev, copy=True), -4.0, 0.5, hist)
    want = np.histogram(d, bins=16, range=(-4.0, 4.0))[0]
    got = np.asarray(hist)
    # np.histogram's last bin is closed; the kernel's are half-open: compare the others.
    assert np.array_equal(got[:-1], want[:-1]), (got, want)
    print(f"histogram of {d.size} normal values: {got.tolist()}")
    if args.bench:
        bench(dev, args.reps)


if __name__ == "__main__":
    main()
