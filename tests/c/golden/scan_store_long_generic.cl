/* ---- kernel 0: schedule "store with its scan: three phases over chunks of each row", 3 launches: lc_store_f64_daa9b4f4765238b7_p1 lc_store_f64_daa9b4f4765238b7_p2 lc_store_f64_daa9b4f4765238b7_p3 */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
/* lazycl store kernel: 4 fused ops; store with its scan: three phases over chunks of each row. */
__kernel void lc_store_f64_daa9b4f4765238b7_p1(
    __global const float *restrict a0, const long a0_o,
    const float a1_v,
    __global double *a2, const long a2_o,
    const long n0, const long M, __global char *part_, const long sbase, const long P)
{
    __global double *part = (__global double *)(part_ + sbase);
    const long g_ = get_global_id(0);
    const long m = g_ / P, q = g_ % P;
    if (m >= M) return;
    const long chunk = (n0 + P - 1) / P;
    const long end = min(n0, (q + 1) * chunk);
    double sacc_ = -0.0;
    for (long i0 = q * chunk; i0 < end; i0++) {
        const float v0 = a0[a0_o + i0]; /* buffer */
        const float v1 = a1_v; /* full */
        const float v2 = (v0 * v1); /* multiply */
        sacc_ += (double)v2;
    }
    part[m * P + q] = sacc_;
}
__kernel void lc_store_f64_daa9b4f4765238b7_p2(
    __global const float *restrict a0, const long a0_o,
    const float a1_v,
    __global double *a2, const long a2_o,
    const long n0, const long M, __global char *part_, const long sbase, const long P)
{
    __global double *part = (__global double *)(part_ + sbase);
    const long m = get_global_id(0);
    if (m >= M) return;
    double sacc_ = -0.0;
    for (long q = 0; q < P; q++) {
        const double t = part[m * P + q];
        part[m * P + q] = sacc_;
        sacc_ += (double)t;
    }
}
__kernel void lc_store_f64_daa9b4f4765238b7_p3(
    __global const float *restrict a0, const long a0_o,
    const float a1_v,
    __global double *a2, const long a2_o,
    const long n0, const long M, __global char *part_, const long sbase, const long P)
{
    __global double *part = (__global double *)(part_ + sbase);
    const long g_ = get_global_id(0);
    const long m = g_ / P, q = g_ % P;
    if (m >= M) return;
    const float v1 = a1_v; /* full */
    const long chunk = (n0 + P - 1) / P;
    const long end = min(n0, (q + 1) * chunk);
    double sacc_ = part[m * P + q];
    for (long i0 = q * chunk; i0 < end; i0++) {
        const float v0 = a0[a0_o + i0]; /* buffer */
        const float v2 = (v0 * v1); /* multiply */
        sacc_ += (double)v2;
        const float v3 = (float)sacc_; /* running cumsum */
        const double v4 = (double)(v3); /* astype */
        a2[a2_o + i0] = v4;
    }
}

