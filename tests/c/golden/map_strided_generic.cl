/* ---- kernel 0: schedule "map 1-d, one item per element", 1 launch: lc_map_f32_00276994da248466 */
#pragma OPENCL FP_CONTRACT OFF
/* lazycl map kernel: 2 fused ops; map 1-d, one item per element. */
__kernel void lc_map_f32_00276994da248466(
    __global float *restrict out0,
    __global const float *restrict a0, const long a0_o, const long a0_s0,
    const float a1_v,
    const float a2_v,
    const long n0)
{
    const long i0 = get_global_id(0);
    if (i0 >= n0) return;
    const float v0 = a0[a0_o + i0 * a0_s0]; /* buffer */
    const float v1 = a1_v; /* full */
    const float v2 = (v0 * v1); /* multiply */
    const float v3 = a2_v; /* full */
    const float v4 = (v2 + v3); /* add */
    out0[i0] = v4;
}

