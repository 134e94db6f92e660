/* ---- kernel 0: schedule "map 1-d, 8 elements per item (8-wide SIMD)", 1 launch: lc_map_f32_a3d967489c3ccf27 */
#pragma OPENCL FP_CONTRACT OFF
/* lazycl map kernel: 3 fused ops; map 1-d, 8 elements per item (8-wide SIMD). */
__kernel void lc_map_f32_a3d967489c3ccf27(
    __global float *restrict out0,
    __global const float *restrict a0, const long a0_o,
    __global const float *restrict a1, const long a1_o,
    const float a2_v,
    const long n0)
{
    if ((long)get_global_id(0) * 8 >= n0) return;
    const long i0 = min((long)get_global_id(0) * 8, n0 - 8);
    const float8 w0 = vload8(0, a0 + (a0_o + i0)); /* buffer */
    const float8 w1 = (exp(w0)); /* exp */
    const float8 w2 = vload8(0, a1 + (a1_o + i0)); /* buffer */
    const float8 w3 = (w1 * w2); /* multiply */
    const float8 w4 = (float8)(a2_v); /* full */
    const float8 w5 = (w3 + w4); /* add */
    vstore8(w5, 0, out0 + i0);
}

