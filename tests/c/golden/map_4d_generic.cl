/* ---- kernel 0: schedule "map 4-d unravelled, one item per element", 1 launch: lc_map_f32_3c7e2849742b2839 */
#pragma OPENCL FP_CONTRACT OFF
/* lazycl map kernel: 1 fused op; map 4-d unravelled, one item per element. */
__kernel void lc_map_f32_3c7e2849742b2839(
    __global float *restrict out0,
    __global const float *restrict a0, const long a0_o, const long a0_s1, const long a0_s2, const long a0_s3,
    const float a1_v,
    const long n0,
    const long n1,
    const long n2,
    const long n3, const long os0_0, const long os0_1, const long os0_2)
{
    const long gid = get_global_id(0);
    long r_ = gid;
    const long i3 = r_ % n3; r_ /= n3;
    const long i2 = r_ % n2; r_ /= n2;
    const long i1 = r_ % n1; r_ /= n1;
    const long i0 = r_;
    const float v0 = a0[a0_o + i0 + i1 * a0_s1 + i2 * a0_s2 + i3 * a0_s3]; /* buffer */
    const float v1 = a1_v; /* full */
    const float v2 = (v0 + v1); /* add */
    out0[i0 * os0_0 + i1 * os0_1 + i2 * os0_2 + i3] = v2;
}

