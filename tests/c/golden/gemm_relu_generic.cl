/* ---- kernel 0: schedule "reduce: one item per output", 1 launch: lc_reduce_f32_b1c2393da321da6f */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
/* lazycl reduce kernel: 7 fused ops; reduce: one item per output. */
__kernel void lc_reduce_f32_b1c2393da321da6f(
    __global float *restrict out0,
    __global const float *restrict a0, const long a0_o, const long a0_s0,
    const float a1_v,
    __global const float *restrict a2, const long a2_o, const long a2_s2,
    __global const float *restrict a3, const long a3_o,
    const float a4_v,
    const long n0,
    const long n1,
    const long n2, const long os0_0, const long M)
{
    const long m = get_global_id(0);
    if (m >= M) return;
    long r_ = m;
    const long i1 = r_ % n1; r_ /= n1;
    const long i0 = r_;
    double s0_a = 0;
    long r = 0;
    for (long i2 = 0; i2 < n2; i2++) {
        const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
        const float v1 = a1_v; /* full */
        const float v2 = (v0 * v1); /* multiply */
        const float v3 = a2[a2_o + i1 + i2 * a2_s2]; /* buffer */
        const float v4 = (v2 * v3); /* multiply */
        s0_a += (double)v4;
        r++;
    }
    const float v5 = (float)s0_a; /* result of sum */
    const float v6 = a3[a3_o + i1]; /* buffer */
    const float v7 = (v5 + v6); /* add */
    const float v8 = a4_v; /* full */
    const float v9 = ((v7 >= v8 || isnan(v7)) ? v7 : v8); /* maximum */
    out0[i0 * os0_0 + i1] = v9;
}

