/* ---- kernel 0: schedule "scan: three phases over chunks of each row", 3 launches: lc_scan_c128_388fc000ba7f96cf_p1 lc_scan_c128_388fc000ba7f96cf_p2 lc_scan_c128_388fc000ba7f96cf_p3 */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
/* lazycl: build from source */
/* lazycl scan kernel: 1 fused op; scan: three phases over chunks of each row. */
__kernel void lc_scan_c128_388fc000ba7f96cf_p1(
    __global double2 *restrict out0,
    __global const double2 *restrict a0, const long a0_o,
    const long n0, const long M, __global char *part_, const long sbase, const long P)
{
    __global double2 *part = (__global double2 *)(part_ + sbase);
    const long g_ = get_global_id(0);
    const long m = g_ / P, q = g_ % P;
    if (m >= M) return;
    const long chunk = (n0 + P - 1) / P;
    const long end = min(n0, (q + 1) * chunk);
    double2 acc = -0.0;
    long i0 = q * chunk;
    for (; i0 < end; i0++) {
        const double2 v0 = a0[a0_o + i0]; /* buffer */
        acc += (double2)v0;
    }
    part[m * P + q] = acc;
}
__kernel void lc_scan_c128_388fc000ba7f96cf_p2(
    __global double2 *restrict out0,
    __global const double2 *restrict a0, const long a0_o,
    const long n0, const long M, __global char *part_, const long sbase, const long P)
{
    __global double2 *part = (__global double2 *)(part_ + sbase);
    const long m = get_global_id(0);
    if (m >= M) return;
    double2 acc = -0.0;
    for (long q = 0; q < P; q++) {
        const double2 t = part[m * P + q];
        part[m * P + q] = acc;
        acc += (double2)t;
    }
}
__kernel void lc_scan_c128_388fc000ba7f96cf_p3(
    __global double2 *restrict out0,
    __global const double2 *restrict a0, const long a0_o,
    const long n0, const long M, __global char *part_, const long sbase, const long P)
{
    __global double2 *part = (__global double2 *)(part_ + sbase);
    const long g_ = get_global_id(0);
    const long m = g_ / P, q = g_ % P;
    if (m >= M) return;
    const long chunk = (n0 + P - 1) / P;
    const long end = min(n0, (q + 1) * chunk);
    double2 acc = part[m * P + q];
    long i0 = q * chunk;
    for (; i0 < end; i0++) {
        const double2 v0 = a0[a0_o + i0]; /* buffer */
        acc += (double2)v0;
        {
            const double2 v0 = (double2)acc;
            out0[i0] = v0;
        }
    }
}

