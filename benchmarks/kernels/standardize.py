"""Hand-written standardize: column mean / std (axis 0) in partial sums over row chunks, then a
map."""
from .context import F64, long_arg, round_up


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
        steps.append((_STD_GPU_PART, "hand_std_part", (round_up(C, 256), S), (256, 1),
                      [ps, pss, X, long_arg(R), long_arg(C), long_arg(S)]))
        steps.append((_STD_GPU_PART, "hand_std_fin", (round_up(C, 256),), (256,),
                      [mean, sd, ps, pss, long_arg(R), long_arg(C), long_arg(S)]))
        steps.append(("#define GUARD\n" + _STD_MAP, "hand_std_map", (round_up(C, 256), R), (256, 1),
                      [out, X, mean, sd, long_arg(R), long_arg(C)]))
    else:
        if C % 32:
            raise ValueError("the CPU standardize kernel needs a multiple of 32 columns")
        S = max(1, min(16, R // 256))
        ps, pss = ctx.alloc((S, C), F64), ctx.alloc((S, C), F64)
        steps.append((_STD_CPU_STATS, "hand_std_part8", (C // 32, S), None,
                      [ps, pss, X, long_arg(R), long_arg(C), long_arg(S)]))
        steps.append((_STD_CPU_STATS, "hand_std_fin8", (C // 8,), None,
                      [mean, sd, ps, pss, long_arg(R), long_arg(C), long_arg(S)]))
        steps.append((_STD_MAP, "hand_std_map", (C, R), None, [out, X, mean, sd, long_arg(R), long_arg(C)]))

    def run():
        for src, name, g, l, args in steps:
            ctx.launch(src, name, g, l, args)
        return out
    return run
