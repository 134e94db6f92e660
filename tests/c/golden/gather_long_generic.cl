/* ---- kernel 0: schedule "map 1-d, one item per element, indices checked apart", 2 launches: lc_map_f32_bf0f6aa49ba4d925 lc_map_f32_bf0f6aa49ba4d925_chk */
#pragma OPENCL FP_CONTRACT OFF
/* lazycl map kernel: 3 fused ops; map 1-d, one item per element, indices checked apart. */
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
static inline long lc_gidx_w(const long i, const long n) {
    const long j = i < 0 ? i + n : i;
    return (ulong)j < (ulong)n ? j : 0;
}
static inline long lc_gidx_f(const long i, const long n, int *bad) {
    const long j = i < 0 ? i + n : i;
    const int ok = (ulong)j < (ulong)n;
    *bad |= !ok;
    return ok ? j : 0;
}
__kernel void lc_map_f32_bf0f6aa49ba4d925(
    __global float *restrict out0,
    __global const long *restrict a0, const long a0_o,
    __global const float *restrict a1, const long a1_o,
    const float a2_v,
    const float a3_v,
    const long n0,
    const long x1_n,
    __global int *restrict lc_err)
{
    const long i0 = get_global_id(0);
    const long v0 = a0[a0_o + i0]; /* buffer */
    const long v1 = lc_gidx_w((long)v0, x1_n); /* index checked for take */
    const float v2 = a1[a1_o + v1]; /* buffer */
    const float v3 = a2_v; /* full */
    const float v4 = (v2 * v3); /* multiply */
    const float v5 = a3_v; /* full */
    const float v6 = (v4 + v5); /* add */
    out0[i0] = v6;
}
__kernel void lc_map_f32_bf0f6aa49ba4d925_chk(
    __global float *restrict out0,
    __global const long *restrict a0, const long a0_o,
    __global const float *restrict a1, const long a1_o,
    const float a2_v,
    const float a3_v,
    const long n0,
    const long x1_n,
    __global int *restrict lc_err)
{
    const long c_ = (long)get_global_id(0) * 1024;
    const long e_ = min(c_ + 1024, n0);
    int bad_ = 0;
    for (long i0 = c_; i0 < e_; i0++) {
        const long v0 = a0[a0_o + i0]; /* buffer */
        const long v1 = lc_gidx_f((long)v0, x1_n, &bad_); /* index checked for take */
    }
    if (bad_)
        for (long i0 = c_; i0 < e_; i0++) {
            const long v0 = a0[a0_o + i0]; /* buffer */
            const long v1 = lc_gidx((long)v0, x1_n, lc_err, 0); /* index checked for take */
        }
}

