/* ---- kernel 0: schedule "reduce: one item per output", 1 launch: lc_reduce_f32_372ac919e7d9b166 */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
/* lazycl reduce kernel: 3 fused ops; reduce: one item per output. */
__kernel void lc_reduce_f32_372ac919e7d9b166(
    __global float *restrict out0,
    __global float *restrict out1,
    __global const float *restrict a0, const long a0_o, const long a0_s1,
    const long n0,
    const long n1, const long M)
{
    const long m = get_global_id(0);
    if (m >= M) return;
    const long i0 = m;
    double s0_a = 0;
    double s1_a = 0, s1_b = 0, s1_c = 0;
    long r = 0;
    for (long i1 = 0; i1 < n1; i1++) {
        const float v0 = a0[a0_o + i0 + i1 * a0_s1]; /* buffer */
        s0_a += (double)v0;
        { const double x_ = (double)v0; s1_a += 1; const double d_ = x_ - s1_b; s1_b += d_ / s1_a; s1_c += d_ * (x_ - s1_b); }
        r++;
    }
    const float v1 = (float)(s1_c / fmax(s1_a - (double)0, (double)0)); /* result of var */
    const float v2 = (sqrt(v1)); /* sqrt */
    const float v3 = (float)s0_a; /* result of sum */
    out0[i0] = v3;
    out1[i0] = v2;
}

