/* ---- kernel 0: schedule "reduce: one item per output", 1 launch: lc_reduce_f32_f00f77e2db7f2eb8 */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
/* lazycl reduce kernel: 3 fused ops; reduce: one item per output. */
static inline long lc_gidx(const long i, const long n, __global int *err, const int axis) {
    const long j = i < 0 ? i + n : i;
    if (j >= 0 && j < n)
        return j;
    if (atomic_cmpxchg(err, 0, 1) == 0) {
        err[1] = axis;
        ((__global long *)err)[1] = i;
        ((__global long *)err)[2] = n;
    }
    return 0;
}
__kernel void lc_reduce_f32_f00f77e2db7f2eb8(
    __global float *restrict out0,
    __global const int *restrict a0, const long a0_o,
    __global const float *restrict a1, const long a1_o, const long a1_g0,
    const float a2_v,
    const long n0,
    const long n1,
    const long x1_n,
    __global int *restrict lc_err, const long M)
{
    const long m = get_global_id(0);
    if (m >= M) return;
    const long i0 = m;
    double s0_a = 0;
    long r = 0;
    for (long i1 = 0; i1 < n1; i1++) {
        const int v0 = a0[a0_o + i0]; /* buffer */
        const long v1 = lc_gidx((long)v0, x1_n, lc_err, 0); /* index checked for take */
        const float v2 = a1[a1_o + i1 + v1 * a1_g0]; /* buffer */
        const float v3 = a2_v; /* full */
        const float v4 = (v2 * v3); /* multiply */
        s0_a += (double)v4;
        r++;
    }
    const float v5 = (float)s0_a; /* result of sum */
    out0[i0] = v5;
}

