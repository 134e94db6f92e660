/* ---- kernel 0: schedule "map 2-d range, four elements of a row per item (vector loads)", 1 launch: lc_map_f32_7a060f7f2386967d */
#pragma OPENCL FP_CONTRACT OFF
/* lazycl map kernel: 2 fused ops; map 2-d range, four elements of a row per item (vector loads). */
__kernel void lc_map_f32_7a060f7f2386967d(
    __global float *restrict out0,
    __global const float *restrict a0, const long a0_o, const long a0_s0,
    __global const float *restrict a1, const long a1_o,
    const long n0,
    const long n1, const long os0_0)
{
    const long i0 = get_global_id(1);
    const long q_ = get_global_id(0);
    if (q_ * 4 >= n1) return;
    const long i1 = q_ * 4;
    const float4 t0 = *(__global const float4 *)(a0 + a0_o + i0 * a0_s0 + i1);
    const float4 t1 = *(__global const float4 *)(a1 + a1_o + i1);
    float4 ov0;
    {
        const float v0 = t0.s0; /* buffer */
        const float v1 = (exp(v0)); /* exp */
        const float v2 = t1.s0; /* buffer */
        const float v3 = (v1 * v2); /* multiply */
        ov0.s0 = v3;
    }
    {
        const float v0 = t0.s1; /* buffer */
        const float v1 = (exp(v0)); /* exp */
        const float v2 = t1.s1; /* buffer */
        const float v3 = (v1 * v2); /* multiply */
        ov0.s1 = v3;
    }
    {
        const float v0 = t0.s2; /* buffer */
        const float v1 = (exp(v0)); /* exp */
        const float v2 = t1.s2; /* buffer */
        const float v3 = (v1 * v2); /* multiply */
        ov0.s2 = v3;
    }
    {
        const float v0 = t0.s3; /* buffer */
        const float v1 = (exp(v0)); /* exp */
        const float v2 = t1.s3; /* buffer */
        const float v3 = (v1 * v2); /* multiply */
        ov0.s3 = v3;
    }
    *(__global float4 *)(out0 + i0 * os0_0 + i1) = ov0;
}

