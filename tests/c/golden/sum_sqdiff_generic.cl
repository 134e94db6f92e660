/* ---- kernel 0: schedule "reduce: one item per output", 1 launch: lc_reduce_f32_e83affe72d1a9c3b */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
/* lazycl reduce kernel: 3 fused ops; reduce: one item per output. */
__kernel void lc_reduce_f32_e83affe72d1a9c3b(
    __global float *restrict out0,
    __global const float *restrict a0, const long a0_o,
    __global const float *restrict a1, const long a1_o,
    const long n0, const long M)
{
    const long m = get_global_id(0);
    if (m >= M) return;
    double s0_a = 0;
    long r = 0;
    for (long i0 = 0; i0 < n0; i0++) {
        const float v0 = a0[a0_o + i0]; /* buffer */
        const float v1 = a1[a1_o + i0]; /* buffer */
        const float v2 = (v0 - v1); /* subtract */
        const float v3 = (v2 * v2); /* multiply */
        s0_a += (double)v3;
        r++;
    }
    const float v4 = (float)s0_a; /* result of sum */
    out0[0] = v4;
}

