/* ---- kernel 0: schedule "reduce: one item per output", 1 launch: lc_reduce_f32_9d48cbb8625f1731 */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
/* lazycl reduce kernel: 4 fused ops; reduce: one item per output. */
__kernel void lc_reduce_f32_9d48cbb8625f1731(
    __global float *restrict out0,
    __global const float *restrict a0, const long a0_o, const long a0_s0,
    __global const float *restrict a1, const long a1_o,
    __global const float *restrict a2, const long a2_o,
    const float a3_v,
    const long n0,
    const long n1, const long M)
{
    const long m = get_global_id(0);
    if (m >= M) return;
    const long i0 = m;
    float s0_a = 0;
    long r = 0;
    for (long i1 = 0; i1 < n1; i1++) {
        const float v0 = a0[a0_o + i0 * a0_s0 + i1]; /* buffer */
        const float v1 = a1[a1_o + i1]; /* buffer */
        const float v2 = (v0 * v1); /* multiply */
        s0_a += (float)v2;
        r++;
    }
    const float v3 = (float)s0_a; /* result of sum */
    const float v4 = a2[a2_o + i0]; /* buffer */
    const float v5 = (v3 + v4); /* add */
    const float v6 = a3_v; /* full */
    const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
    out0[i0] = v7;
}

