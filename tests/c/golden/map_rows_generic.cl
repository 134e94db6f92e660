/* ---- kernel 0: schedule "map 2-d range, one item per element", 1 launch: lc_map_f32_83d586a40c176c44 */
#pragma OPENCL FP_CONTRACT OFF
/* lazycl map kernel: 2 fused ops; map 2-d range, one item per element. */
__kernel void lc_map_f32_83d586a40c176c44(
    __global float *restrict out0,
    __global const float *restrict a0, const long a0_o, const long a0_s0,
    __global const float *restrict a1, const long a1_o,
    const long n0,
    const long n1, const long os0_0)
{
    const long i0 = get_global_id(1);
    const long i1 = min((long)get_group_id(0) * (long)get_local_size(0), n1 - (long)get_local_size(0)) + (long)get_local_id(0);
    if (i0 >= n0) return;
    const float v0 = a0[a0_o + i0 * a0_s0 + i1]; /* buffer */
    const float v1 = (exp(v0)); /* exp */
    const float v2 = a1[a1_o + i1]; /* buffer */
    const float v3 = (v1 * v2); /* multiply */
    out0[i0 * os0_0 + i1] = v3;
}

