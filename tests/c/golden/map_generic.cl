/* ---- kernel 0: schedule "map 1-d, one item per element", 1 launch: lc_map_f32_5be42f2f97c95995 */
#pragma OPENCL FP_CONTRACT OFF
/* lazycl map kernel: 3 fused ops; map 1-d, one item per element. */
__kernel void lc_map_f32_5be42f2f97c95995(
    __global float *restrict out0,
    __global const float *restrict a0, const long a0_o,
    __global const float *restrict a1, const long a1_o,
    const float a2_v,
    const long n0)
{
    const long i0 = get_global_id(0);
    if (i0 >= n0) return;
    const float v0 = a0[a0_o + i0]; /* buffer */
    const float v1 = (exp(v0)); /* exp */
    const float v2 = a1[a1_o + i0]; /* buffer */
    const float v3 = (v1 * v2); /* multiply */
    const float v4 = a2_v; /* full */
    const float v5 = (v3 + v4); /* add */
    out0[i0] = v5;
}

