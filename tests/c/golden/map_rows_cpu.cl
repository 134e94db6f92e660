/* ---- kernel 0: schedule "map 2-d, 8 elements per item (8-wide SIMD)", 1 launch: lc_map_f32_d66c9e759209e413 */
#pragma OPENCL FP_CONTRACT OFF
/* lazycl map kernel: 2 fused ops; map 2-d, 8 elements per item (8-wide SIMD). */
__kernel void lc_map_f32_d66c9e759209e413(
    __global float *restrict out0,
    __global const float *restrict a0, const long a0_o, const long a0_s0,
    __global const float *restrict a1, const long a1_o,
    const long n0,
    const long n1, const long os0_0)
{
    const long i0 = get_global_id(1);
    const long j_ = min((long)get_group_id(0) * (long)get_local_size(0), (n1 + 7) / 8 - (long)get_local_size(0)) + (long)get_local_id(0);
    if (i0 >= n0) return;
    const long i1 = min(j_ * 8, n1 - 8);
    const float8 w0 = vload8(0, a0 + (a0_o + i0 * a0_s0 + i1)); /* buffer */
    const float8 w1 = (exp(w0)); /* exp */
    const float8 w2 = vload8(0, a1 + (a1_o + i1)); /* buffer */
    const float8 w3 = (w1 * w2); /* multiply */
    vstore8(w3, 0, out0 + i0 * os0_0 + i1);
}

