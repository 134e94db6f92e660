"""Kernels written by the user in OpenCL C, run on lazycl arrays (docs/api.md, "User kernels").

``lc.ElementwiseKernel`` and ``lc.ReductionKernel`` (CuPy's signatures) are lazy graph nodes:
their bodies are inlined in lazycl's fused kernels, so ``l2(X - Y)`` is one launch, the
difference, the squares, the sum and the square root together.

``lc.RawKernel(source, name)`` runs a whole kernel, pyMIC's ``invoke`` and CuPy's RawKernel:
``k(global_size, local_size, args)``. Its parameter list is read from the source: pointers
without ``const`` are arrays the kernel writes, in place, with lazycl's write rules (views see
the writes; arrays built before the call keep the old values); pending inputs are computed
first. A raw kernel is a fusion barrier: lazy work before it is computed, lazy work after it
reads its results.

Run ``python examples/user_kernels.py`` (``--device pocl:cpu``, ...): each example is checked
against NumPy.
"""
import argparse

import numpy as np

import lazycl as lc

AXPY = r"""
__kernel void axpy(const float a, __global const float *x, __global float *y, const uint n)
{
    size_t i = get_global_id(0);
    if (i < n)
        y[i] = a * x[i] + y[i];
}
"""

# A 3-point smoothing with the row held in local memory: each work-group loads its items and
# one halo element on each side, then every item averages its neighbours.
SMOOTH = r"""
__kernel void smooth(__global const float *u, __global float *out, const int n,
                     __local float *tile)
{
    int i = get_global_id(0), l = get_local_id(0), w = get_local_size(0);
    tile[l + 1] = i < n ? u[i] : 0.0f;
    if (l == 0)
        tile[0] = i > 0 ? u[i - 1] : 0.0f;
    if (l == w - 1)
        tile[w + 1] = i + 1 < n ? u[i + 1] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (i < n)
        out[i] = (tile[l] + tile[l + 1] + tile[l + 2]) / 3.0f;
}
"""


def fused_kernels(device):
    n = 1 << 20
    rng = np.random.default_rng(1)
    xh = rng.standard_normal(n).astype(np.float32)
    yh = rng.standard_normal(n).astype(np.float32)
    x = lc.asarray(xh, device=device, copy=True).compute()
    y = lc.asarray(yh, device=device, copy=True).compute()

    # A clipped difference, with a helper in the preamble: T is bound by x (float32).
    clipdiff = lc.ElementwiseKernel(
        "T x, T y, T lim", "T z", "z = clamp_abs(x - y, lim)", "clipdiff",
        preamble="static inline float clamp_abs(float v, float m) { return fmin(fmax(v, -m), m); }")
    l2 = lc.ReductionKernel("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm")

    lc.reset_stats()
    r = l2(clipdiff(x, y, np.float32(1.5)))     # one launch: map, sum and sqrt fused
    got = float(r)
    launches = lc.stats()["launches"]
    ref = np.sqrt((np.clip(xh - yh, -1.5, 1.5).astype(np.float64) ** 2).sum())
    np.testing.assert_allclose(got, ref, rtol=1e-4)
    print(f"l2(clipdiff(x, y)) = {got:.3f} in {launches} launch")
    print(lc.explain(l2(clipdiff(x, y, np.float32(1.5)))).splitlines()[2:7])

    # Per-row norms: axis= and keepdims=, then a lazy division that fuses as the epilogue.
    X = x.reshape(1024, -1)
    unit = X / l2(X, axis=1, keepdims=True)
    np.testing.assert_allclose(np.asarray(unit),
                               xh.reshape(1024, -1) / np.linalg.norm(xh.reshape(1024, -1), axis=1,
                                                                       keepdims=True),
                               rtol=1e-4, atol=1e-6)
    print("rows scaled to unit norm:", float(l2(unit[0])))


def raw_kernels(device):
    n = 1 << 16
    rng = np.random.default_rng(0)
    xh = rng.standard_normal(n).astype(np.float32)
    yh = rng.standard_normal(n).astype(np.float32)

    # axpy in place: y = 2 x + y. x is pending (x0 * 0.5): it is computed before the launch.
    axpy = lc.RawKernel(AXPY, "axpy")
    x0 = lc.asarray(xh, device=device, copy=True)
    x = x0 * 0.5
    y = lc.asarray(yh, device=device, copy=True)
    before = y.sum()                     # built before the call: keeps the old values
    head = y[:4]                         # a view: sees the write
    axpy((n,), None, (2.0, x, y, n))
    after = (y * y).sum()                # built after: reads the new values
    ref = 2 * (xh * 0.5) + yh
    np.testing.assert_allclose(np.asarray(y), ref, rtol=1e-6)
    np.testing.assert_allclose(float(before), yh.sum(dtype=np.float64), rtol=1e-4)
    np.testing.assert_allclose(np.asarray(head), ref[:4], rtol=1e-6)
    np.testing.assert_allclose(float(after), (ref.astype(np.float64) ** 2).sum(), rtol=1e-4)
    print(f"axpy: y = 2 x + y over {n} elements; sum(y^2) = {float(after):.2f}")

    # A stencil with local memory, three steps, lazy work between them.
    smooth = lc.RawKernel(SMOOTH, "smooth")
    u = lc.asarray(xh, device=device, copy=True)
    uh = xh.copy()
    wg = 64
    for _ in range(3):
        out = lc.empty(n, dtype=np.float32, device=device)
        smooth((n,), (wg,), (u, out, n, lc.LocalMemory((wg + 2) * 4)))
        u = out - out.mean()             # lazy: reads the kernel's result, fused in one kernel
        p = np.pad(uh, 1)
        uh = (p[:-2] + p[1:-1] + p[2:]) / np.float32(3)
        uh = uh - uh.mean()
    np.testing.assert_allclose(np.asarray(u), uh, rtol=1e-4, atol=1e-5)
    print(f"smooth: 3 steps of a 3-point stencil in local memory; max |u| = "
          f"{float(abs(u).max()):.4f}")

    # Errors name the parameter and the user's line.
    try:
        axpy((n,), None, (2.0, x, lc.zeros(n, dtype=np.int64, device=device), n))
    except TypeError as e:
        print("TypeError:", e)
    try:
        lc.RawKernel(AXPY.replace("a * x[i]", "a * z[i]"), "axpy")((n,), None, (2.0, x, y, n))
    except lc.CompileError as e:
        print("CompileError:", e)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--device", default=None, help="a device filter string (pocl:cpu, ...)")
    args = ap.parse_args()
    device = lc.Device(args.device) if args.device else lc.default_device()
    print(f"device: {device}")
    fused_kernels(device)
    raw_kernels(device)


if __name__ == "__main__":
    main()
