/* ---- kernel 0: schedule "reduce: one item per output", 1 launch: lc_reduce_f64_c45c21716ec6cf9c */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
/* lazycl reduce kernel: 3 fused ops; reduce: one item per output. */
__kernel void lc_reduce_f64_c45c21716ec6cf9c(
    __global double *restrict out0,
    __global double *restrict out1,
    __global const double *restrict a0, const long a0_o, const long a0_s0,
    const long n0,
    const long n1, const long M)
{
    const long m = get_global_id(0);
    if (m >= M) return;
    const long i0 = m;
    double s0_a = 0, s0_b = 0, s0_c = 0;
    double s1_a = 0, s1_b = 0, s1_c = 0;
    long r = 0;
    for (long i1 = 0; i1 < n1; i1++) {
        const double v0 = a0[a0_o + i0 * a0_s0 + i1]; /* buffer */
        { const double x_ = (double)v0; s0_a += 1; const double d_ = x_ - s0_b; s0_b += d_ / s0_a; s0_c += d_ * (x_ - s0_b); }
        { const double x_ = (double)v0; s1_a += 1; const double d_ = x_ - s1_b; s1_b += d_ / s1_a; s1_c += d_ * (x_ - s1_b); }
        r++;
    }
    const double v1 = (double)(s1_c / fmax(s1_a - (double)0, (double)0)); /* result of var */
    const double v2 = (sqrt(v1)); /* sqrt */
    const double v3 = (double)(s0_a > 0 ? s0_b : NAN); /* result of var */
    out0[i0] = v3;
    out1[i0] = v2;
}

