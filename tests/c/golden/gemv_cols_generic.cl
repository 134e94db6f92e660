/* ---- kernel 0: schedule "reduce: one item per output", 1 launch: lc_reduce_f32_a43a379750154444 */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
/* lazycl reduce kernel: 3 fused ops; reduce: one item per output. */
__kernel void lc_reduce_f32_a43a379750154444(
    __global float *restrict out0,
    __global const float *restrict a0, const long a0_o,
    __global const float *restrict a1, const long a1_o, const long a1_s1,
    const float a2_v,
    const long n0,
    const long n1, const long M)
{
    const long m = get_global_id(0);
    if (m >= M) return;
    const long i0 = m;
    float s0_a = 0;
    long r = 0;
    for (long i1 = 0; i1 < n1; i1++) {
        const float v0 = a0[a0_o + i1]; /* buffer */
        const float v1 = a1[a1_o + i0 + i1 * a1_s1]; /* buffer */
        const float v2 = (v0 * v1); /* multiply */
        s0_a += (float)v2;
        r++;
    }
    const float v3 = (float)s0_a; /* result of sum */
    const float v4 = a2_v; /* full */
    const float v5 = (v3 * v4); /* multiply */
    out0[i0] = v5;
}

