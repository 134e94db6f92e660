"""Hand-written OpenCL kernels for the benchmark workloads, run through lazycl's own runtime
(lazycl._lazycl._alloc / _launch), so that lazycl / hand-written measures only the fusion
overhead.

Kernel shapes differ between device kinds, as measured on each (docs: shared/GPU.md):

  CPU (PoCL, Intel CPU): maps are 8 elements per work-item as float8; reductions and scans are
      explicit-vector chunk-per-item kernels (vload8 + double8 accumulators, one work-item
      per chunk, local size 1, ~16 chunks).
  GPU: maps are one work-item per element in groups of 256; reductions are coalesced
      grid-stride loops with a 256-item work-group tree; the scan is reduce-then-scan over
      contiguous segments, scanning tiles in local memory.

Each `setup_*` takes a HandContext and the computed input arrays and returns a callable that
enqueues the kernels (asynchronously) and returns the output array; outputs and scratch are
allocated once, outside the timed region.
"""
import numpy as np

from lazycl import _lazycl

F32, F64 = np.float32, np.float64


class HandContext:
    def __init__(self, device, queue):
        self.device = device
        self.queue = queue
        self.gpu = device.type == "gpu"
        self.cu = max(1, int(device.compute_units))
        # chunks for CPU reductions/scans (~16, at least 2 per core); groups for GPU ones
        self.chunks = max(16, 2 * self.cu)
        self.groups = 8 * self.cu
        self.local = 256

    def alloc(self, shape, dtype=F32):
        return _lazycl._alloc(tuple(shape), np.dtype(dtype), self.queue)

    def launch(self, src, name, gsize, lsize, args):
        _lazycl._launch(self.queue, src, name, tuple(gsize), None if lsize is None else tuple(lsize), args)

    def map_sizes(self, n):
        if self.gpu:
            return (_round_up(n, self.local),), (self.local,)
        return (n,), None


def _round_up(n, m):
    return (n + m - 1) // m * m


def _long(v):
    return ("int64", int(v))


# ---- maps --------------------------------------------------------------------------------

def map_source(name, inputs, expr, scalars=(), guard=False, vec=1):
    """out[i] = expr, with each input named in `inputs` loaded as a float of the same name.
    The bounds check is for GPUs only (global size rounded up to the group): on PoCL an early
    return in a map kernel costs its work-group vectorization (measured 4-5x). With vec = 8
    (CPU devices), each item computes 8 elements as float8 (PoCL only calls its vector math
    library for vector types: log1p 14x faster); the last item starts at n - 8 and overlaps
    its neighbour instead of branching on a tail."""
    params = ["__global float *restrict out"]
    params += [f"__global const float *restrict {v.upper()}_" for v in inputs]
    params += [f"const float {s}" for s in scalars]
    params.append("const long n")
    if vec > 1:
        loads = "".join(f"    const float{vec} {v} = vload{vec}(0, {v.upper()}_ + i);\n"
                        for v in inputs)
        return (f"__kernel void {name}({', '.join(params)})\n{{\n"
                f"    const long i = min((long)get_global_id(0) * {vec}, n - {vec});\n{loads}"
                f"    vstore{vec}({expr}, 0, out + i);\n}}\n")
    loads = "".join(f"    const float {v} = {v.upper()}_[i];\n" for v in inputs)
    return (f"__kernel void {name}({', '.join(params)})\n{{\n"
            f"    const long i = get_global_id(0);\n{'    if (i >= n) return;' if guard else ''}\n{loads}"
            f"    out[i] = {expr};\n}}\n")


def map_vec(ctx, n):
    """Elements per work-item of a hand-written map: 8 on CPU devices (n >= 8), else 1."""
    return 1 if ctx.gpu or n < 8 else 8


def setup_map(ctx, name, inputs, expr, arrays, scalars=()):
    """A map kernel (one element per item on GPUs, 8 per item on CPUs); `scalars` are
    (name, value) float32 pairs."""
    n = arrays[0].size
    vec = map_vec(ctx, n)
    src = map_source(name, inputs, expr, [s for s, _ in scalars], ctx.gpu, vec)
    out = ctx.alloc(arrays[0].shape)
    g, l = ctx.map_sizes(n) if vec == 1 else (((n + vec - 1) // vec,), None)
    args = [out] + list(arrays) + [("float32", v) for _, v in scalars] + [_long(n)]

    def run():
        ctx.launch(src, name, g, l, args)
        return out
    return run


# ---- gathers ------------------------------------------------------------------------------

def setup_gather(ctx, arrays):
    """o[i] = x[idx[i]], one element per item, indices trusted (no check: the floor a
    hand-written gather reaches)."""
    x, idx = arrays
    n = idx.size
    src = ("__kernel void hand_gather(__global float *restrict o, __global const float *restrict x,\n"
           "                          __global const long *restrict idx, const long n) {\n"
           "    const long i = get_global_id(0);\n"
           "    if (i < n)\n"
           "        o[i] = x[idx[i]];\n"
           "}\n")
    out = ctx.alloc(idx.shape)
    g, l = ctx.map_sizes(n)

    def run():
        ctx.launch(src, "hand_gather", g, l, [out, x, idx, _long(n)])
        return out
    return run


# ---- writes: scatter-add, stencil, slice write, compaction ------------------------------

_BINCOUNT = """#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
__kernel void hand_bincount_zero(__global double *restrict out, const long nb)
{
    const long i = get_global_id(0);
    if (i < nb) out[i] = 0.0;
}
__kernel void hand_bincount(__global double *out, __global const long *restrict idx,
                            __global const float *restrict w, const long n)
{
    const long i = get_global_id(0);
    if (i >= n) return;
    volatile __global ulong *p = (volatile __global ulong *)(out + idx[i]);
    const double v = (double)w[i];
    union { ulong u; double d; } o, nw;
    ulong e;
    o.u = *p;
    do {
        e = o.u;
        nw.d = o.d + v;
        o.u = atom_cmpxchg(p, e, nw.u);
    } while (o.u != e);
}
"""


def setup_bincount(ctx, idx, w, nbins):
    """bincount(idx, weights=w, minlength=nbins) as lazycl does it: float64 bins zeroed by one
    kernel, then one work-item per element folds its weight (as double) into its bin with a
    compare-and-swap loop on the bin's 64 bits. Indices trusted (no min/max pass: lazycl reads
    the index's min and max first to size the result and raise on a negative one)."""
    n = idx.size
    out = ctx.alloc((nbins,), F64)
    gz, lz = ctx.map_sizes(nbins)
    g, l = ctx.map_sizes(n)

    src = _BINCOUNT

    def run():
        ctx.launch(src, "hand_bincount_zero", gz, lz, [out, _long(nbins)])
        ctx.launch(src, "hand_bincount", g, l, [out, idx, w, _long(n)])
        return out
    return run


_JACOBI = """#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void hand_jacobi(__global double *restrict dst, __global const double *restrict src,
                          const long N)
{
    /* dst[1:-1, 1:-1] = 0.2 * (five-point stencil of src), one item per interior element */
    const long j = get_global_id(0) + 1, i = get_global_id(1) + 1;
#ifdef GUARD
    if (i >= N - 1 || j >= N - 1) return;
#endif
    const long k = i * N + j;
    dst[k] = 0.2 * (src[k] + src[k - 1] + src[k + 1] + src[k + N] + src[k - N]);
}
"""


def setup_jacobi(ctx, A, B, steps):
    """npbench jacobi_2d: per step two launches of a five-point stencil kernel (B from A, then
    A from B), in place in the given arrays, as the Python code does."""
    N = A.shape[0]
    m = N - 2
    if ctx.gpu:
        g, l = (_round_up(m, 256), m), (256, 1)
    else:
        g, l = (m, m), None

    src = ("#define GUARD\n" if ctx.gpu else "") + _JACOBI  # (PoCL: no early return)

    def run():
        for _ in range(steps):
            ctx.launch(src, "hand_jacobi", g, l, [B, A, _long(N)])
            ctx.launch(src, "hand_jacobi", g, l, [A, B, _long(N)])
        return A
    return run


_SLICEWRITE = """__kernel void hand_slicewrite(__global float *restrict x, __global const float *restrict y,
                              const long start, const long step, const long n)
{
    const long i = get_global_id(0);
#ifdef GUARD
    if (i >= n) return;
#endif
    x[start + i * step] = y[i];
}
"""


def setup_slicewrite(ctx, x, y, start, step):
    """x[start::step][:len(y)] = y: one item per element written (the slice's cost only)."""
    n = y.size
    g, l = ctx.map_sizes(n)

    src = ("#define GUARD\n" if ctx.gpu else "") + _SLICEWRITE  # (PoCL: no early return)

    def run():
        ctx.launch(src, "hand_slicewrite", g, l, [x, y, _long(start), _long(step), _long(n)])
        return x
    return run


_COMPACT = """__kernel void hand_compact_count(__global long *restrict cnt, __global const float *restrict x,
                                 const long n, const long chunk)
{
    const long p = get_global_id(0);
    long i = p * chunk;
    const long end = min(n, i + chunk);
    int8 c8 = 0;                        /* a true comparison is -1 in each lane */
    for (; i + 8 <= end; i += 8)
        c8 += vload8(0, x + i) > 0.5f;
    long c = -(long)(c8.s0 + c8.s1 + c8.s2 + c8.s3 + c8.s4 + c8.s5 + c8.s6 + c8.s7);
    for (; i < end; i++)
        c += x[i] > 0.5f;
    cnt[p] = c;
}
__kernel void hand_compact_write(__global float *restrict out, __global const float *restrict x,
                                 __global const long *restrict cnt, const long n, const long chunk)
{
    const long p = get_global_id(0);
    long o = 0;
    for (long q = 0; q < p; q++) o += cnt[q];
    const long oend = o + cnt[p];
    long i = p * chunk;
    const long end = min(n, i + chunk);
    for (; i < end && o < oend; i++) { /* write each element at the slot, advance on a keep */
        const float v = x[i];
        out[o] = v;
        o += v > 0.5f;
    }
}
"""


def setup_compaction(ctx, x):
    """x[x > 0.5] on a CPU device: a chunk per work-item (ctx.chunks chunks) counts its keeps
    (float8 compares), the host reads the counts (the result's length, as lazycl reads its
    count), then each chunk writes its keeps at the sum of the counts before it, branch-free
    (every element is written at the current slot, which advances on a keep, until the chunk's
    last keep). Not written for GPUs (one item per long chunk is no GPU compaction)."""
    if ctx.gpu:
        raise NotImplementedError("hand-written compaction is CPU-only (chunk per work-item)")
    n = x.size
    P = ctx.chunks
    chunk = _round_up((n + P - 1) // P, 8)
    cnt = ctx.alloc((P,), np.int64)
    out = ctx.alloc((n,))

    src = _COMPACT

    def run():
        ctx.launch(src, "hand_compact_count", (P,), (1,), [cnt, x, _long(n), _long(chunk)])
        total = int(np.asarray(cnt).sum())
        ctx.launch(src, "hand_compact_write", (P,), (1,), [out, x, cnt, _long(n), _long(chunk)])
        return out[:total]
    return run


# ---- reductions --------------------------------------------------------------------------

_OPS = {
    # op: (identity, scalar combine, vector accumulate type, vector combine, horizontal fold)
    "sum": ("0.0", "({a} + {b})"),
    "max": ("-INFINITY", "fmax({a}, {b})"),
}


def _cpu_partial_source(name, inputs, expr, op, prelude_params="", prelude=""):
    """One work-item per chunk: 8-wide vector loop, double8 (sum) / float8 (max) accumulator."""
    if op == "sum":
        vdecl, vacc, sdecl, sacc = ("double8 acc = 0;", "acc += convert_double8({e});",
                                    "double s = 0;", "s += (double)({e});")
        fold = "s = " + " + ".join(f"acc.s{c}" for c in "01234567") + ";"
    else:
        vdecl, vacc, sdecl, sacc = ("float8 acc = (float8)(-INFINITY);", "acc = fmax(acc, {e});",
                                    "float s = -INFINITY;", "s = fmax(s, {e});")
        fold = "s = fmax(fmax(fmax(acc.s0, acc.s1), fmax(acc.s2, acc.s3)), " \
               "fmax(fmax(acc.s4, acc.s5), fmax(acc.s6, acc.s7)));"
    params = ["__global double *restrict part"]
    params += [f"__global const float *restrict {v.upper()}_" for v in inputs]
    if prelude_params:
        params.append(prelude_params)
    params += ["const long n", "const long chunk"]
    vload = "".join(f"            const float8 {v} = vload8(0, {v.upper()}_ + i);\n" for v in inputs)
    sload = "".join(f"            const float {v} = {v.upper()}_[i];\n" for v in inputs)
    return f"""__kernel void {name}({', '.join(params)})
{{
    {prelude}
    const long p = get_global_id(0);
    long i = p * chunk;
    const long end = min(n, i + chunk);
    {sdecl}
    {{
        {vdecl}
        for (; i + 8 <= end; i += 8) {{
{vload}            {vacc.format(e=expr)}
        }}
        {fold}
    }}
    for (; i < end; i++) {{
{sload}            {sacc.format(e=expr)}
    }}
    part[p] = s;
}}
"""


def _gpu_partial_source(name, inputs, expr, op, prelude_params="", prelude=""):
    """Coalesced grid-stride loop, then a 256-item work-group tree; one partial per group."""
    ident, comb = _OPS[op]
    params = ["__global double *restrict part"]
    params += [f"__global const float *restrict {v.upper()}_" for v in inputs]
    if prelude_params:
        params.append(prelude_params)
    params += ["const long n"]
    sload = "".join(f"        const float {v} = {v.upper()}_[i];\n" for v in inputs)
    return f"""__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void {name}({', '.join(params)})
{{
    __local double sh[256];
    {prelude}
    const int lid = get_local_id(0);
    double s = {ident};
    for (long i = get_global_id(0); i < n; i += get_global_size(0)) {{
{sload}        s = {comb.format(a="s", b="(double)(" + expr + ")")};
    }}
    sh[lid] = s;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 128; k > 0; k >>= 1) {{
        if (lid < k) sh[lid] = {comb.format(a="sh[lid]", b="sh[lid + k]")};
        barrier(CLK_LOCAL_MEM_FENCE);
    }}
    if (lid == 0) part[get_group_id(0)] = sh[0];
}}
"""


def _final_source(name, op, local):
    """One work-group of `local` items folds the partials into out[0] (as float)."""
    ident, comb = _OPS[op]
    return f"""__kernel void {name}(__global float *restrict out, __global const double *restrict part,
                   const long P)
{{
    __local double sh[{local}];
    const int lid = get_local_id(0);
    double s = {ident};
    for (long q = lid; q < P; q += {local}) s = {comb.format(a="s", b="part[q]")};
    sh[lid] = s;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = {local} / 2; k > 0; k >>= 1) {{
        if (lid < k) sh[lid] = {comb.format(a="sh[lid]", b="sh[lid + k]")};
        barrier(CLK_LOCAL_MEM_FENCE);
    }}
    if (lid == 0) out[0] = (float)sh[0];
}}
"""


class Reduction:
    """partial kernel + final kernel: out[0] = op over i of expr(inputs[i])."""

    def __init__(self, ctx, name, inputs, expr, op, arrays, extra=None):
        # extra: optional (param decl, prelude code, array) for a scalar read from a buffer
        self.ctx = ctx
        pp, pre, earr = extra if extra else ("", "", None)
        self.n = n = arrays[0].size
        if ctx.gpu:
            self.P = ctx.groups
            self.psrc = _gpu_partial_source(name + "_part", inputs, expr, op, pp, pre)
            self.pg, self.pl = (self.P * ctx.local,), (ctx.local,)
            tail = [_long(n)]
            fl = ctx.local
        else:
            self.P = ctx.chunks
            chunk = _round_up((n + self.P - 1) // self.P, 8)
            self.psrc = _cpu_partial_source(name + "_part", inputs, expr, op, pp, pre)
            self.pg, self.pl = (self.P,), (1,)
            tail = [_long(n), _long(chunk)]
            fl = 1
        self.fsrc = _final_source(name + "_fin", op, fl)
        self.fg = (fl,)
        self.part = ctx.alloc((self.P,), F64)
        self.out = ctx.alloc((1,), F32)
        self.pargs = [self.part] + list(arrays) + ([earr] if earr is not None else []) + tail
        self.fargs = [self.out, self.part, _long(self.P)]
        self.name = name

    def enqueue(self):
        self.ctx.launch(self.psrc, self.name + "_part", self.pg, self.pl, self.pargs)
        self.ctx.launch(self.fsrc, self.name + "_fin", self.fg, self.fg, self.fargs)
        return self.out


def setup_l2(ctx, x, y):
    red = Reduction(ctx, "hand_l2", ["x", "y"], "(x - y) * (x - y)", "sum", [x, y])
    out1 = red.out

    def run():
        red.enqueue()
        return out1
    return run


def setup_softmax(ctx, x):
    rmax = Reduction(ctx, "hand_smax", ["x"], "x", "max", [x])
    rsum = Reduction(ctx, "hand_ssum", ["x"], "exp(x - m)", "sum", [x],
                     extra=("__global const float *restrict M_", "const float m = M_[0];", rmax.out))
    name = "hand_softmax_map"
    n = x.size
    vec = map_vec(ctx, n)
    params = ("__global float *restrict out, __global const float *restrict X_, "
              "__global const float *restrict M_, __global const float *restrict S_, const long n")
    if vec > 1:
        src = (f"__kernel void {name}({params})\n{{\n"
               f"    const long i = min((long)get_global_id(0) * {vec}, n - {vec});\n"
               f"    vstore{vec}(exp(vload{vec}(0, X_ + i) - M_[0]) / S_[0], 0, out + i);\n}}\n")
        g, l = ((n + vec - 1) // vec,), None
    else:
        src = (f"__kernel void {name}({params})\n{{\n"
               "    const long i = get_global_id(0);\n"
               + ("    if (i >= n) return;\n" if ctx.gpu else "") +
               "    out[i] = exp(X_[i] - M_[0]) / S_[0];\n}\n")
        g, l = ctx.map_sizes(n)
    out = ctx.alloc(x.shape)
    args = [out, x, rmax.out, rsum.out, _long(n)]

    def run():
        rmax.enqueue()
        rsum.enqueue()
        ctx.launch(src, name, g, l, args)
        return out
    return run


# ---- standardize: column mean / std (axis 0), then a map ----------------------------------

_STD_MAP = """__kernel void hand_std_map(__global float *restrict out, __global const float *restrict X,
    __global const float *restrict mean, __global const float *restrict sd, const long R, const long C)
{
    const long c = get_global_id(0), r = get_global_id(1);
#ifdef GUARD
    if (c >= C || r >= R) return;
#endif
    const long i = r * C + c;
    out[i] = (X[i] - mean[c]) / sd[c];
}
"""

_STD_CPU_STATS = """__kernel void hand_std_part8(__global double *restrict ps, __global double *restrict pss,
    __global const float *restrict X, const long R, const long C, const long S)
{
    /* 32 adjacent columns x a chunk of rows per work-item (reading all rows of 8 columns
       per item runs at a third of the bandwidth: half a cache line per 16 KB stride). */
    const long c = get_global_id(0) * 32, q = get_global_id(1);
    const long rows = (R + S - 1) / S, r0 = q * rows, r1 = min(R, r0 + rows);
    double8 s0 = 0, s1 = 0, s2 = 0, s3 = 0, t0 = 0, t1 = 0, t2 = 0, t3 = 0;
    for (long r = r0; r < r1; r++) {
        __global const float *x = X + r * C + c;
        const double8 v0 = convert_double8(vload8(0, x)), v1 = convert_double8(vload8(1, x));
        const double8 v2 = convert_double8(vload8(2, x)), v3 = convert_double8(vload8(3, x));
        s0 += v0; s1 += v1; s2 += v2; s3 += v3;
        t0 += v0 * v0; t1 += v1 * v1; t2 += v2 * v2; t3 += v3 * v3;
    }
    __global double *p = ps + q * C + c, *pp = pss + q * C + c;
    vstore8(s0, 0, p); vstore8(s1, 1, p); vstore8(s2, 2, p); vstore8(s3, 3, p);
    vstore8(t0, 0, pp); vstore8(t1, 1, pp); vstore8(t2, 2, pp); vstore8(t3, 3, pp);
}
__kernel void hand_std_fin8(__global float *restrict mean, __global float *restrict sd,
    __global const double *restrict ps, __global const double *restrict pss,
    const long R, const long C, const long S)
{
    const long c = get_global_id(0) * 8;
    double8 s = 0, ss = 0;
    for (long q = 0; q < S; q++) {
        s += vload8(0, ps + q * C + c);
        ss += vload8(0, pss + q * C + c);
    }
    const double8 m = s / (double)R;
    vstore8(convert_float8(m), 0, mean + c);
    vstore8(convert_float8(sqrt(fmax(ss / (double)R - m * m, (double8)0))), 0, sd + c);
}
"""

_STD_GPU_PART = """__kernel void hand_std_part(__global double *restrict ps, __global double *restrict pss,
    __global const float *restrict X, const long R, const long C, const long S)
{
    const long c = get_global_id(0), q = get_global_id(1);
    if (c >= C) return;
    const long rows = (R + S - 1) / S, r0 = q * rows, r1 = min(R, r0 + rows);
    double s = 0, ss = 0;
    for (long r = r0; r < r1; r++) {
        const double v = X[r * C + c];
        s += v;
        ss += v * v;
    }
    ps[q * C + c] = s;
    pss[q * C + c] = ss;
}
__kernel void hand_std_fin(__global float *restrict mean, __global float *restrict sd,
    __global const double *restrict ps, __global const double *restrict pss,
    const long R, const long C, const long S)
{
    const long c = get_global_id(0);
    if (c >= C) return;
    double s = 0, ss = 0;
    for (long q = 0; q < S; q++) {
        s += ps[q * C + c];
        ss += pss[q * C + c];
    }
    const double m = s / (double)R;
    mean[c] = (float)m;
    sd[c] = (float)sqrt(fmax(ss / (double)R - m * m, 0.0));
}
"""


def setup_standardize(ctx, X):
    R, C = X.shape
    mean, sd = ctx.alloc((C,)), ctx.alloc((C,))
    out = ctx.alloc((R, C))
    steps = []
    if ctx.gpu:
        S = 64
        ps, pss = ctx.alloc((S, C), F64), ctx.alloc((S, C), F64)
        steps.append((_STD_GPU_PART, "hand_std_part", (_round_up(C, 256), S), (256, 1),
                      [ps, pss, X, _long(R), _long(C), _long(S)]))
        steps.append((_STD_GPU_PART, "hand_std_fin", (_round_up(C, 256),), (256,),
                      [mean, sd, ps, pss, _long(R), _long(C), _long(S)]))
        steps.append(("#define GUARD\n" + _STD_MAP, "hand_std_map", (_round_up(C, 256), R), (256, 1),
                      [out, X, mean, sd, _long(R), _long(C)]))
    else:
        if C % 32:
            raise ValueError("the CPU standardize kernel needs a multiple of 32 columns")
        S = max(1, min(16, R // 256))
        ps, pss = ctx.alloc((S, C), F64), ctx.alloc((S, C), F64)
        steps.append((_STD_CPU_STATS, "hand_std_part8", (C // 32, S), None,
                      [ps, pss, X, _long(R), _long(C), _long(S)]))
        steps.append((_STD_CPU_STATS, "hand_std_fin8", (C // 8,), None,
                      [mean, sd, ps, pss, _long(R), _long(C), _long(S)]))
        steps.append((_STD_MAP, "hand_std_map", (C, R), None, [out, X, mean, sd, _long(R), _long(C)]))

    def run():
        for src, name, g, l, args in steps:
            ctx.launch(src, name, g, l, args)
        return out
    return run


# ---- cumsum(x*x) -------------------------------------------------------------------------

_SCAN_CPU = """__kernel void hand_cumsum_scan(__global float *restrict out, __global const float *restrict X,
    __global const double *restrict part, const long n, const long chunk)
{
    const long p = get_global_id(0);
    double acc = 0;
    for (long q = 0; q < p; q++) acc += part[q];
    long i = p * chunk;
    const long end = min(n, i + chunk);
    for (; i < end; i++) {
        const float x = X[i];
        acc += (double)(x * x);
        out[i] = (float)acc;
    }
}
"""

_SCAN_GPU = """#define T 256
#define K 8
#define IDX(j) ((j) + ((j) >> 5))
__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void hand_cumsum_segsum(__global double *restrict part, __global const float *restrict X,
    const long n, const long seg)
{
    __local double sh[T];
    const int lid = get_local_id(0);
    const long b = get_group_id(0) * seg, e = min(n, b + seg);
    double s = 0;
    for (long i = b + lid; i < e; i += T) { const float x = X[i]; s += (double)(x * x); }
    sh[lid] = s;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = T / 2; k > 0; k >>= 1) {
        if (lid < k) sh[lid] += sh[lid + k];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) part[get_group_id(0)] = sh[0];
}
__kernel void hand_cumsum_partscan(__global double *restrict part, const long G)
{
    double acc = 0;
    for (long q = 0; q < G; q++) { const double t = part[q]; part[q] = acc; acc += t; }
}
__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void hand_cumsum_segscan(__global float *restrict out, __global const float *restrict X,
    __global const double *restrict part, const long n, const long seg)
{
    __local float tile[T * K + T * K / 32];
    __local double ts[T];
    const int lid = get_local_id(0);
    const long b = get_group_id(0) * seg, e = min(n, b + seg);
    double carry = part[get_group_id(0)];
    for (long base = b; base < e; base += T * K) {
        for (int k = 0; k < K; k++) {          /* coalesced loads of x*x into the tile */
            const long i = base + k * T + lid;
            const float x = i < e ? X[i] : 0.0f;
            tile[IDX(k * T + lid)] = x * x;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        float run = 0;                          /* each item: K consecutive elements */
        for (int k = 0; k < K; k++) run += tile[IDX(lid * K + k)];
        ts[lid] = run;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int off = 1; off < T; off <<= 1) { /* inclusive scan of the item totals */
            const double v = lid >= off ? ts[lid - off] : 0.0;
            barrier(CLK_LOCAL_MEM_FENCE);
            ts[lid] += v;
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        double a = carry + (lid ? ts[lid - 1] : 0.0);
        for (int k = 0; k < K; k++) {
            a += tile[IDX(lid * K + k)];
            tile[IDX(lid * K + k)] = (float)a;
        }
        carry += ts[T - 1];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < K; k++) {          /* coalesced stores */
            const long i = base + k * T + lid;
            if (i < e) out[i] = tile[IDX(k * T + lid)];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}
"""


def setup_cumsum(ctx, x):
    n = x.size
    out = ctx.alloc(x.shape)
    steps = []
    if ctx.gpu:
        G = ctx.groups
        seg = _round_up((n + G - 1) // G, 256 * 8)
        G = (n + seg - 1) // seg
        part = ctx.alloc((G,), F64)
        steps.append((_SCAN_GPU, "hand_cumsum_segsum", (G * 256,), (256,), [part, x, _long(n), _long(seg)]))
        steps.append((_SCAN_GPU, "hand_cumsum_partscan", (1,), (1,), [part, _long(G)]))
        steps.append((_SCAN_GPU, "hand_cumsum_segscan", (G * 256,), (256,),
                      [out, x, part, _long(n), _long(seg)]))
    else:
        P = ctx.chunks
        chunk = _round_up((n + P - 1) // P, 8)
        part = ctx.alloc((P,), F64)
        psrc = _cpu_partial_source("hand_cumsum_part", ["x"], "x * x", "sum")
        steps.append((psrc, "hand_cumsum_part", (P,), (1,), [part, x, _long(n), _long(chunk)]))
        steps.append((_SCAN_CPU, "hand_cumsum_scan", (P,), (1,), [out, x, part, _long(n), _long(chunk)]))

    def run():
        for src, name, g, l, args in steps:
            ctx.launch(src, name, g, l, args)
        return out
    return run


def sources(run_fn):
    """The OpenCL C a setup_* closure launches (for the JSON), best effort."""
    cells = [c.cell_contents for c in (run_fn.__closure__ or ())]
    out = []
    for c in cells:
        if isinstance(c, str) and "__kernel" in c:
            out.append(c)
        elif isinstance(c, Reduction):
            out += [c.psrc, c.fsrc]
        elif isinstance(c, list):
            out += [s[0] for s in c if isinstance(s, tuple) and s and isinstance(s[0], str)]
    seen, res = set(), []
    for s in out:
        if s not in seen:
            seen.add(s)
            res.append(s)
    return res


def setup_none(ctx, arrays):
    """Rows with no hand-written kernel (the random rows: each system uses its own generator)."""
    raise NotImplementedError("no hand-written kernel for this row")
