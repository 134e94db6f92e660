"""The peers beyond lazycl / NumPy / numexpr / the hand-written kernel (benchmarks/run.py): each
is detected, and for a workload gives (prepare, run, sync, to_np) or a string saying why it
cannot express it."""
import re

import numpy as np

import lazycl as lc

import numpy_dispatch
from numba_impls import numba_impls
from selection import argpartition_top_k
from workloads import f_cumsum, f_matmul, f_standardize

# ---- namespaces --------------------------------------------------------------------------------

class NS:
    """The names a workload calls, from module `mod` unless overridden; ns.mod is the module
    itself (for code written against a whole NumPy-like module, as the sparse PCA)."""

    def __init__(self, mod, **over):
        self.mod = mod
        self.top_k = getattr(mod, "top_k", None)
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


def each(f):
    """f applied to a result, or to each array of a tuple of results (top_k's (values, indices),
    the sparse PCA's (opt_x, value, column)); Python numbers are left as they are."""
    def g(r):
        if isinstance(r, (tuple, list)):
            return tuple(v if isinstance(v, (int, float)) else f(v) for v in r)
        return f(r)
    return g


def positional(fn, nargs, name):
    """A function named `name` (made an identifier) of exactly `nargs` positional parameters,
    a0 .. a{nargs-1}, returning fn(a0, ...): what a tracer that reads a function's parameters
    or its name sees as a plain named function (cupy.fuse's CUDA kernel takes both)."""
    if nargs < 1:
        raise ValueError(f"nargs must be at least 1, not {nargs}")
    name = re.sub(r"\W", "_", name)
    if not name.isidentifier():
        name = "_" + name
    params = ", ".join(f"a{i}" for i in range(nargs))
    scope = {"fn": fn}
    exec(f"def {name}({params}):\n    return fn({params})\n", scope)  # noqa: S102 (our text)
    return scope[name]


def fuse_named(fuse, fn, nargs, name):
    """`fn` of `nargs` arrays fused by `fuse` (cupy.fuse) into a kernel named `name`.

    cupy.fuse(f) fuses f, but cupy.fuse(f, kernel_name=...) is read as the decorator factory
    cupy.fuse(kernel_name=...) with f as a factory argument: it returns the one-argument
    decorator, and calling that with the row's two arrays failed ("lambda19() takes exactly 1
    positional argument (2 given)", every two-input row). The name goes to the factory, the
    function to the decorator it returns."""
    f = positional(fn, nargs, name)
    return fuse(kernel_name=f.__name__)(f)


def fn_for(w, peer, mod):
    """The workload's function for this peer: its own spelling (w.impl) where it has one."""
    make = w.impl.get(peer)
    return make(mod) if make else w.fn


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
            dns = NS(da, top_k=lambda x, k: (da.topk(x, k), da.argtopk(x, k)))
            peers["dask"] = ("dask " + v, lambda w: _dask_system(da, dns, w))
        except Exception as e:  # noqa: BLE001
            notes["dask"] = f"dask.array unavailable: {e}"
    else:
        notes["dask"] = v if not dask else "skipped"

    jax, v = detect("jax")
    if jax and "jax" not in skip:
        # float64 rows (jacobi_2d) stay float64 and int64 indices int64, as in NumPy
        jax.config.update("jax_enable_x64", True)
        import jax.numpy as jnp
        # jnp.bincount under jit needs a static length (the bins: no index reaches it here)
        jrand = (lambda n, tok: jax.random.normal(
            jax.random.fold_in(jax.random.PRNGKey(0), tok[0]), (n,), dtype=jnp.float32))
        jns = NS(jnp, bincount=lambda i, weights=None, minlength=0:
                 jnp.bincount(i, weights, minlength=minlength, length=minlength),
                 randn=jrand, randn_mat=jrand, top_k=jax.lax.top_k)
        peers["jax"] = (f"jax {v} jit ({jax.default_backend()})", lambda w: _jax_system(jax, jns, w))
    else:
        notes["jax"] = v if not jax else "skipped"

    pyopencl, v = detect("pyopencl")
    if pyopencl and "pyopencl" not in skip:
        peers["pyopencl"] = ("pyopencl " + v + " (eager arrays)", lambda w: _pyopencl_system(args, w))
        if "pyopencl.kernel" not in skip:
            peers["pyopencl.kernel"] = ("pyopencl ElementwiseKernel / ReductionKernel",
                                        lambda w: _pyopencl_kernel_system(args, w))
    else:
        notes["pyopencl"] = v if not pyopencl else "skipped"

    if gpu:
        cupy, v = detect("cupy")
        if cupy and "cupy" not in skip:
            crand = (lambda n, tok: cupy.random.standard_normal(n, dtype=cupy.float32))
            cns = NS(cupy, randn=crand, randn_mat=crand, top_k=argpartition_top_k(cupy))
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
                 argsort=lambda x: torch.argsort(x, stable=True),
                 top_k=lambda x, k: tuple(torch.topk(x, k)))
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

    off = numpy_dispatch.avx512_targets()
    if gpu or not off:
        notes["numpy.avx2"] = ("GPU device: not run" if gpu else
                               "NumPy takes no AVX-512 target on this CPU: the numpy column is it")
    elif "numpy.avx2" not in skip:
        worker = numpy_dispatch.Worker(off)
        peers["numpy.avx2"] = (f"NumPy {np.__version__}, {' '.join(off)} off (a worker process)",
                               lambda w: numpy_dispatch.system(worker, w))
    else:
        notes["numpy.avx2"] = "skipped"

    dpnp, v = detect("dpnp")
    notes["dpnp"] = v if not dpnp else "installed, not wired into this suite"
    return peers, notes


# Each *_system returns (prepare, run, sync, to_np) or raises/returns a string (skip note).

def _numba_system(impl, w):
    """w.numba names the function in numba_impls, or is (name, extra arguments after the
    inputs); writes into the inputs run on fresh copies as NumPy's (each run the same)."""
    key, extra = (w.numba, ()) if isinstance(w.numba, str) or w.numba is None else w.numba
    if key is None:
        return "not expressed"
    f = impl[key]
    prep = (lambda: [a.copy() for a in w.inputs]) if w.mutates else (lambda: w.inputs)
    return (prep, lambda st: f(*st, *extra), _noop, each(np.asarray))


def _dask_system(da, dns, w):
    import dask

    def prep():
        return [da.from_array(a, chunks=max(1, a.shape[0] // 8)) if a.ndim == 1 else
                da.from_array(a, chunks=(max(1, a.shape[0] // 8), a.shape[1])) for a in w.inputs]

    def run(st):
        r = w.fn(dns, *st)
        return dask.compute(*r) if isinstance(r, tuple) else r.compute()
    return (prep, run, _noop, each(np.asarray))


def _jax_system(jax, jns, w):
    fn = fn_for(w, "jax", jax)
    f = jax.jit(lambda *a: fn(jns, *a))
    return (lambda: [jax.device_put(a) for a in w.inputs], lambda st: f(*st),
            lambda r: jax.block_until_ready(r), each(np.asarray))


def _cupy_system(cp, cns, w, fuse):
    if fuse:
        if not w.fuse:
            return "cupy.fuse cannot express it"
        f = fuse_named(cp.fuse, lambda *a: w.fn(cns, *a), len(w.inputs), "fused_" + w.name)
    else:
        fn = fn_for(w, "cupy", cp)

        def f(*a):
            return fn(cns, *a)
    return (lambda: [cp.asarray(a) for a in w.inputs], lambda st: f(*st),
            lambda r: cp.cuda.Device().synchronize(), each(cp.asnumpy))


def _torch_system(torch, tns, tdev, w, compiled):
    fn = fn_for(w, "torch", torch)

    def base(*a):
        return fn(tns, *a)
    f = torch.compile(base) if compiled else base
    sync = (lambda r: torch.cuda.synchronize()) if tdev == "cuda" else _noop
    def prep():
        ts = [torch.from_numpy(a).to(tdev) for a in w.inputs]
        return [t.clone() for t in ts] if w.mutates and tdev == "cpu" else ts
    return (prep, lambda st: f(*st), sync, each(lambda r: r.detach().cpu().numpy()))


def _cl_queue(args):
    """A PyOpenCL context and queue on lazycl's device (found by name), or a string why not."""
    import pyopencl as cl
    name = (lc.Device(args.device) if args.device else lc.default_device()).name
    devs = [d for p in cl.get_platforms() for d in p.get_devices() if d.name == name]
    if not devs:
        return f"pyopencl does not list {name}"
    ctx = cl.Context(devs[:1])
    return ctx, cl.CommandQueue(ctx)


def _pyopencl_system(args, w):
    import pyopencl.array as cla
    import pyopencl.clmath as clm
    if w.fn in (f_standardize, f_cumsum):
        return "pyopencl arrays have no axis reductions / scans here"
    cq = _cl_queue(args)
    if isinstance(cq, str):
        return cq
    ctx, q = cq
    pns = NS(np, exp=clm.exp, sqrt=clm.sqrt, log1p=clm.log1p, sum=cla.sum, max=cla.max)
    return (lambda: [cla.to_device(q, a) for a in w.inputs], lambda st: w.fn(pns, *st),
            lambda r: q.finish(), lambda r: r.get())


# PyOpenCL's kernel builders, as a PyOpenCL user writes them: one ElementwiseKernel per map, a
# ReductionKernel for a map fused into a sum (softmax: max, sum of exp, then the divide).
CL_MAPS = {"f_axpy": "out[i] = 2.5f * x[i] + y[i]",
           "f_chain": "out[i] = (x[i] * 1.5f + y[i]) * (x[i] - y[i]) / (1.0f + x[i] * x[i])",
           "f_transc": "out[i] = exp(-x[i] * x[i]) * sqrt(y[i] + 1.0f) + log1p(x[i])"}


def _pyopencl_kernel_system(args, w):
    import pyopencl.array as cla
    from pyopencl.elementwise import ElementwiseKernel
    from pyopencl.reduction import ReductionKernel
    name = getattr(w.fn, "__name__", "")
    if name not in CL_MAPS and name not in ("f_l2", "f_softmax"):
        return "not written with PyOpenCL's kernel builders (maps and sums only)"
    cq = _cl_queue(args)
    if isinstance(cq, str):
        return cq
    ctx, q = cq
    if name in CL_MAPS:
        k = ElementwiseKernel(ctx, "float *out, const float *x, const float *y", CL_MAPS[name],
                              "pcl_" + name[2:])

        def run(st):
            out = cla.empty_like(st[0])
            k(out, st[0], st[1])
            return out
    elif name == "f_l2":
        k = ReductionKernel(ctx, np.float32, neutral="0", reduce_expr="a + b",
                            map_expr="(x[i] - y[i]) * (x[i] - y[i])",
                            arguments="const float *x, const float *y")

        def run(st):
            return k(st[0], st[1])
    else:
        kmax = ReductionKernel(ctx, np.float32, neutral="-INFINITY", reduce_expr="fmax(a, b)",
                               map_expr="x[i]", arguments="const float *x")
        ksum = ReductionKernel(ctx, np.float32, neutral="0", reduce_expr="a + b",
                               map_expr="exp(x[i] - m[0])", arguments="const float *x, const float *m")
        kdiv = ElementwiseKernel(ctx, "float *out, const float *x, const float *m, const float *s",
                                 "out[i] = exp(x[i] - m[0]) / s[0]", "pcl_softmax_div")

        def run(st):
            x = st[0]
            m = kmax(x)
            s = ksum(x, m)
            out = cla.empty_like(x)
            kdiv(out, x, m, s)
            return out
    return (lambda: [cla.to_device(q, a) for a in w.inputs], run, lambda r: q.finish(),
            lambda r: r.get())


def _clblast_system(args, w):
    """CLBlast's SGEMM on lazycl's device (the plain product only), through pyopencl."""
    if w.fn is not f_matmul:
        return "CLBlast runs the plain product only"
    import pyclblast
    import pyopencl.array as cla
    cq = _cl_queue(args)
    if isinstance(cq, str):
        return cq
    ctx, q = cq

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
