/* ---- kernel 0: schedule "map 1-d, one item per element", 1 launch: lc_map_f32_41b245c580dfcb71 */
#pragma OPENCL FP_CONTRACT OFF
/* lazycl map kernel: 3 fused ops; map 1-d, one item per element. */
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
__kernel void lc_map_f32_41b245c580dfcb71(
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
    if (i0 >= n0) return;
    const long v0 = a0[a0_o + i0]; /* buffer */
    const long v1 = lc_gidx((long)v0, x1_n, lc_err, 0); /* index checked for take */
    const float v2 = a1[a1_o + v1]; /* buffer */
    const float v3 = a2_v; /* full */
    const float v4 = (v2 * v3); /* multiply */
    const float v5 = a3_v; /* full */
    const float v6 = (v4 + v5); /* add */
    out0[i0] = v6;
}

