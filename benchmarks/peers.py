"""The peers beyond lazycl / NumPy / numexpr / the hand-written kernel (benchmarks/run.py): each
is detected, and for a workload gives (prepare, run, sync, to_np) or a string saying why it
cannot express it."""
import numpy as np

import lazycl as lc

from numba_impls import numba_impls
from workloads import f_cumsum, f_matmul, f_standardize

# ---- namespaces --------------------------------------------------------------------------------

class NS:
    def __init__(self, mod, **over):
        self.exp, self.sqrt, self.log1p = mod.exp, mod.sqrt, mod.log1p
        self.sum, self.max, self.cumsum = mod.sum, mod.max, mod.cumsum
        self.bincount = getattr(mod, "bincount", None)
        self.randn = self.randn_mat = None
        self.sort = getattr(mod, "sort", None)
        self.argsort = getattr(mod, "argsort", None)
        self.mean0 = lambda X: X.mean(0)
        self.std0 = lambda X: X.std(0)
        for k, v in over.items():
            setattr(self, k, v)


# ---- peers -------------------------------------------------------------------------------------

def detect(name):
    try:
        mod = __import__(name)
        return mod, getattr(mod, "__version__", "?")
    except Exception as e:  # noqa: BLE001
        return None, f"not installed ({type(e).__name__})"


def _noop(r):
    pass


def build_peers(args, gpu):
    """Systems beyond lazycl / NumPy / numexpr / hand-written: name -> (factory or None, note)."""
    peers = {}
    notes = {}
    skip = set(args.skip.split(",")) if args.skip else set()

    numba, v = detect("numba")
    if numba and "numba" not in skip:
        try:
            impl = numba_impls(numba)
            peers["numba"] = ("numba " + v, lambda w: _numba_system(impl, w))
        except Exception as e:  # noqa: BLE001
            notes["numba"] = f"import failed: {e}"
    else:
        notes["numba"] = v if not numba else "skipped"

    dask, v = detect("dask")
    if dask and "dask" not in skip:
        try:
            import dask.array as da
            dns = NS(da)
            peers["dask"] = ("dask " + v, lambda w: _dask_system(da, dns, w))
        except Exception as e:  # noqa: BLE001
            notes["dask"] = f"dask.array unavailable: {e}"
    else:
        notes["dask"] = v if not dask else "skipped"

    jax, v = detect("jax")
    if jax and "jax" not in skip:
        import jax.numpy as jnp
        # jnp.bincount under jit needs a static length (the bins: no index reaches it here)
        jrand = (lambda n, tok: jax.random.normal(
            jax.random.fold_in(jax.random.PRNGKey(0), tok[0]), (n,), dtype=jnp.float32))
        jns = NS(jnp, bincount=lambda i, weights=None, minlength=0:
                 jnp.bincount(i, weights, minlength=minlength, length=minlength),
                 randn=jrand, randn_mat=jrand)
        peers["jax"] = (f"jax {v} jit ({jax.default_backend()})", lambda w: _jax_system(jax, jns, w))
    else:
        notes["jax"] = v if not jax else "skipped"

    pyopencl, v = detect("pyopencl")
    if pyopencl and "pyopencl" not in skip:
        peers["pyopencl"] = ("pyopencl " + v + " (eager arrays)", lambda w: _pyopencl_system(args, w))
    else:
        notes["pyopencl"] = v if not pyopencl else "skipped"

    if gpu:
        cupy, v = detect("cupy")
        if cupy and "cupy" not in skip:
            crand = (lambda n, tok: cupy.random.standard_normal(n, dtype=cupy.float32))
            cns = NS(cupy, randn=crand, randn_mat=crand)
            peers["cupy"] = ("cupy " + v, lambda w: _cupy_system(cupy, cns, w, False))
            if "cupy.fuse" not in skip:
                peers["cupy.fuse"] = ("cupy.fuse", lambda w: _cupy_system(cupy, cns, w, True))
        else:
            notes["cupy"] = v if not cupy else "skipped"
    else:
        notes["cupy"] = "GPU-only peer (CPU device)"

    torch, v = detect("torch")
    if torch and "torch" not in skip:
        tdev = "cuda" if gpu and torch.cuda.is_available() else "cpu"
        trand = (lambda n, tok: torch.randn(n, device=tdev))
        tns = NS(torch, cumsum=lambda x: torch.cumsum(x, 0),
                 std0=lambda X: X.std(0, correction=0), randn=trand, randn_mat=trand,
                 sort=lambda x: torch.sort(x).values,
                 argsort=lambda x: torch.argsort(x, stable=True))
        peers["torch"] = (f"torch {v} eager ({tdev})", lambda w: _torch_system(torch, tns, tdev, w, False))
        if "torch.compile" not in skip:
            peers["torch.compile"] = (f"torch.compile ({tdev})",
                                      lambda w: _torch_system(torch, tns, tdev, w, True))
        else:
            notes["torch.compile"] = "skipped"
    else:
        notes["torch"] = v if not torch else "skipped"

    pyclblast, v = detect("pyclblast")
    if pyclblast and "clblast" not in skip:
        peers["clblast"] = ("CLBlast (pyclblast " + v + ")", lambda w: _clblast_system(args, w))
    else:
        notes["clblast"] = v if not pyclblast else "skipped"

    dpnp, v = detect("dpnp")
    notes["dpnp"] = v if not dpnp else "installed, not wired into this suite"
    return peers, notes


# Each *_system returns (prepare, run, sync, to_np) or raises/returns a string (skip note).

def _numba_system(impl, w):
    key = w.numba
    if key is None:
        return "not expressed"
    f = impl[key]
    return (lambda: w.inputs, lambda st: f(*st), _noop, lambda r: r)


def _dask_system(da, dns, w):
    def prep():
        return [da.from_array(a, chunks=max(1, a.shape[0] // 8)) if a.ndim == 1 else
                da.from_array(a, chunks=(max(1, a.shape[0] // 8), a.shape[1])) for a in w.inputs]
    return (prep, lambda st: w.fn(dns, *st).compute(), _noop, lambda r: r)


def _jax_system(jax, jns, w):
    f = jax.jit(lambda *a: w.fn(jns, *a))
    return (lambda: [jax.device_put(a) for a in w.inputs], lambda st: f(*st),
            lambda r: r.block_until_ready(), lambda r: np.asarray(r))


def _cupy_system(cp, cns, w, fuse):
    if fuse:
        if not w.fuse:
            return "cupy.fuse cannot express it"
        # named functions: cupy.fuse names the CUDA kernel after the function ("<lambda>" fails)
        if len(w.inputs) == 2:
            def fused2(x, y):
                return w.fn(cns, x, y)
            f = cp.fuse(fused2, kernel_name="fused_" + w.name.replace("-", "_"))
        else:
            def fused1(x):
                return w.fn(cns, x)
            f = cp.fuse(fused1, kernel_name="fused_" + w.name.replace("-", "_"))
    else:
        def f(*a):
            return w.fn(cns, *a)
    return (lambda: [cp.asarray(a) for a in w.inputs], lambda st: f(*st),
            lambda r: cp.cuda.Device().synchronize(), lambda r: cp.asnumpy(r))


def _torch_system(torch, tns, tdev, w, compiled):
    def base(*a):
        return w.fn(tns, *a)
    f = torch.compile(base) if compiled else base
    sync = (lambda r: torch.cuda.synchronize()) if tdev == "cuda" else _noop
    def prep():
        ts = [torch.from_numpy(a).to(tdev) for a in w.inputs]
        return [t.clone() for t in ts] if w.mutates and tdev == "cpu" else ts
    return (prep, lambda st: f(*st), sync,
            lambda r: r.detach().cpu().numpy())


def _pyopencl_system(args, w):
    import pyopencl as cl
    import pyopencl.array as cla
    import pyopencl.clmath as clm
    if w.fn in (f_standardize, f_cumsum):
        return "pyopencl arrays have no axis reductions / scans here"
    ctx = cl.create_some_context(interactive=False)
    q = cl.CommandQueue(ctx)
    pns = NS(np, exp=clm.exp, sqrt=clm.sqrt, log1p=clm.log1p, sum=cla.sum, max=cla.max)
    return (lambda: [cla.to_device(q, a) for a in w.inputs], lambda st: w.fn(pns, *st),
            lambda r: q.finish(), lambda r: r.get())


def _clblast_system(args, w):
    """CLBlast's SGEMM on lazycl's device (the plain product only), through pyopencl."""
    if w.fn is not f_matmul:
        return "CLBlast runs the plain product only"
    import pyclblast
    import pyopencl as cl
    import pyopencl.array as cla
    name = lc.default_device().name
    devs = [d for p in cl.get_platforms() for d in p.get_devices() if d.name == name]
    if not devs:
        return f"pyopencl does not list {name}"
    ctx = cl.Context(devs[:1])
    q = cl.CommandQueue(ctx)

    def run(st):
        a, b = st
        m, k = a.shape
        n = b.shape[1]
        c = cla.empty(q, (m, n), np.float32)
        pyclblast.gemm(q, m, n, k, a, b, c, a_ld=k, b_ld=n, c_ld=n)
        return c
    return (lambda: [cla.to_device(q, a) for a in w.inputs], run, lambda r: q.finish(),
            lambda r: r.get())


def release_memory(peers):
    """Give cached device memory back between workloads (the GPU holds several peers' pools)."""
    import gc
    gc.collect()
    if "cupy" in peers:
        try:
            import cupy
            cupy.get_default_memory_pool().free_all_blocks()
        except Exception:  # noqa: BLE001
            pass
    if "torch" in peers:
        try:
            import torch
            if torch.cuda.is_available():
                torch.cuda.empty_cache()
        except Exception:  # noqa: BLE001
            pass
