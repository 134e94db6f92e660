"""Hand-written cumsum(x*x): chunk partials then a scan per chunk on CPUs; reduce-then-scan over
contiguous segments, scanning tiles in local memory, on GPUs."""
from .context import F64, long_arg, round_up
from .reductions import cpu_partial_source


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
        seg = round_up((n + G - 1) // G, 256 * 8)
        G = (n + seg - 1) // seg
        part = ctx.alloc((G,), F64)
        steps.append((_SCAN_GPU, "hand_cumsum_segsum", (G * 256,), (256,), [part, x, long_arg(n), long_arg(seg)]))
        steps.append((_SCAN_GPU, "hand_cumsum_partscan", (1,), (1,), [part, long_arg(G)]))
        steps.append((_SCAN_GPU, "hand_cumsum_segscan", (G * 256,), (256,),
                      [out, x, part, long_arg(n), long_arg(seg)]))
    else:
        P = ctx.chunks
        chunk = round_up((n + P - 1) // P, 8)
        part = ctx.alloc((P,), F64)
        psrc = cpu_partial_source("hand_cumsum_part", ["x"], "x * x", "sum")
        steps.append((psrc, "hand_cumsum_part", (P,), (1,), [part, x, long_arg(n), long_arg(chunk)]))
        steps.append((_SCAN_CPU, "hand_cumsum_scan", (P,), (1,), [out, x, part, long_arg(n), long_arg(chunk)]))

    def run():
        for src, name, g, l, args in steps:
            ctx.launch(src, name, g, l, args)
        return out
    return run
