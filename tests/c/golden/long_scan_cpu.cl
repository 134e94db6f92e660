/* ---- kernel 0: schedule "scan: three phases over chunks of each row", 3 launches: lc_scan_f32_0e583e77c7a4ff12_p1 lc_scan_f32_0e583e77c7a4ff12_p2 lc_scan_f32_0e583e77c7a4ff12_p3 */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
/* lazycl scan kernel: 1 fused op; scan: three phases over chunks of each row. */
__kernel void lc_scan_f32_0e583e77c7a4ff12_p1(
    __global float *restrict out0,
    __global const float *restrict a0, const long a0_o,
    const long n0, const long M, __global char *part_, const long sbase, const long P)
{
    __global double *part = (__global double *)(part_ + sbase);
    const long g_ = get_global_id(0);
    const long m = g_ / P, q = g_ % P;
    if (m >= M) return;
    const long chunk = (n0 + P - 1) / P;
    const long end = min(n0, (q + 1) * chunk);
    double acc = -0.0;
    long i0 = q * chunk;
    double8 q_ = (double8)(-0.0);
    for (; i0 + 8 <= end; i0 += 8) {
        const float8 w0 = vload8(0, a0 + (a0_o + i0)); /* buffer */
        double8 p_ = convert_double8(w0);
        q_ += p_;
    }
    acc += q_.s0;
    acc += q_.s1;
    acc += q_.s2;
    acc += q_.s3;
    acc += q_.s4;
    acc += q_.s5;
    acc += q_.s6;
    acc += q_.s7;
    for (; i0 < end; i0++) {
        const float v0 = a0[a0_o + i0]; /* buffer */
        acc += (double)v0;
    }
    part[m * P + q] = acc;
}
__kernel void lc_scan_f32_0e583e77c7a4ff12_p2(
    __global float *restrict out0,
    __global const float *restrict a0, const long a0_o,
    const long n0, const long M, __global char *part_, const long sbase, const long P)
{
    __global double *part = (__global double *)(part_ + sbase);
    const long m = get_global_id(0);
    if (m >= M) return;
    double acc = -0.0;
    for (long q = 0; q < P; q++) {
        const double t = part[m * P + q];
        part[m * P + q] = acc;
        acc += (double)t;
    }
}
__kernel void lc_scan_f32_0e583e77c7a4ff12_p3(
    __global float *restrict out0,
    __global const float *restrict a0, const long a0_o,
    const long n0, const long M, __global char *part_, const long sbase, const long P)
{
    __global double *part = (__global double *)(part_ + sbase);
    const long g_ = get_global_id(0);
    const long m = g_ / P, q = g_ % P;
    if (m >= M) return;
    const long chunk = (n0 + P - 1) / P;
    const long end = min(n0, (q + 1) * chunk);
    double acc = part[m * P + q];
    long i0 = q * chunk;
    for (; i0 + 8 <= end; i0 += 8) {
        const float8 w0 = vload8(0, a0 + (a0_o + i0)); /* buffer */
        double8 p_ = convert_double8(w0);
        p_ += (double8)((double)-0.0, p_.s0, p_.s1, p_.s2, p_.s3, p_.s4, p_.s5, p_.s6);
        p_ += (double8)((double)-0.0, (double)-0.0, p_.s0, p_.s1, p_.s2, p_.s3, p_.s4, p_.s5);
        p_ += (double8)((double)-0.0, (double)-0.0, (double)-0.0, (double)-0.0, p_.s0, p_.s1, p_.s2, p_.s3);
        p_ += (double8)(acc);
        acc = p_.s7;
        vstore8(convert_float8(p_), 0, out0 + (i0));
    }
    for (; i0 < end; i0++) {
        const float v0 = a0[a0_o + i0]; /* buffer */
        acc += (double)v0;
        {
            const float v0 = (float)acc;
            out0[i0] = v0;
        }
    }
}

