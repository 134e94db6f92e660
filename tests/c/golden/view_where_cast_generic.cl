/* ---- kernel 0: schedule "map 2-d range, one item per element", 1 launch: lc_map_i32_f77b9498dc31a16e */
#pragma OPENCL FP_CONTRACT OFF
/* lazycl map kernel: 3 fused ops; map 2-d range, one item per element. */
__kernel void lc_map_i32_f77b9498dc31a16e(
    __global int *restrict out0,
    __global const float *restrict a0, const long a0_o, const long a0_s0, const long a0_s1,
    const float a1_v,
    const float a2_v,
    const long n0,
    const long n1, const long os0_0)
{
    const long i0 = get_global_id(1);
    const long i1 = min((long)get_group_id(0) * (long)get_local_size(0), n1 - (long)get_local_size(0)) + (long)get_local_id(0);
    if (i0 >= n0) return;
    const float v0 = a0[a0_o + i0 * a0_s0 + i1 * a0_s1]; /* buffer */
    const float v1 = a1_v; /* full */
    const uchar v2 = (uchar)((v0 > v1)); /* greater */
    const float v3 = a2_v; /* full */
    const float v4 = ((v2 != 0) ? v0 : v3); /* where */
    const int v5 = (int)(v4); /* astype */
    out0[i0 * os0_0 + i1] = v5;
}

