/* ---- kernel 0: schedule "store with its scan: three phases over chunks of each row", 3 launches: lc_store_f32_f6839a743998fd28_p1 lc_store_f32_f6839a743998fd28_p2 lc_store_f32_f6839a743998fd28_p3 */
#pragma OPENCL FP_CONTRACT OFF
/* lazycl store kernel: 6 fused ops; store with its scan: three phases over chunks of each row. */
__kernel void lc_store_f32_f6839a743998fd28_p1(
    __global const float *restrict a0, const long a0_o,
    const float a1_v,
    const int a2_v,
    __global float *a3, const long a3_o,
    const long n0,
    const long x7_n, const long M, __global char *part_, const long sbase, const long P)
{
    __global uint *part = (__global uint *)(part_ + sbase);
    const long g_ = get_global_id(0);
    const long m = g_ / P, q = g_ % P;
    if (m >= M) return;
    const long chunk = (n0 + P - 1) / P;
    const long end = min(n0, (q + 1) * chunk);
    uint sacc_ = 0;
    for (long i0 = q * chunk; i0 < end; i0++) {
        const float v0 = a0[a0_o + i0]; /* buffer */
        const float v1 = a1_v; /* full */
        const uchar v2 = (uchar)((v0 > v1)); /* greater */
        const int v3 = (int)(v2); /* astype */
        sacc_ += (uint)v3;
    }
    part[m * P + q] = sacc_;
}
__kernel void lc_store_f32_f6839a743998fd28_p2(
    __global const float *restrict a0, const long a0_o,
    const float a1_v,
    const int a2_v,
    __global float *a3, const long a3_o,
    const long n0,
    const long x7_n, const long M, __global char *part_, const long sbase, const long P)
{
    __global uint *part = (__global uint *)(part_ + sbase);
    const long m = get_global_id(0);
    if (m >= M) return;
    uint sacc_ = 0;
    for (long q = 0; q < P; q++) {
        const uint t = part[m * P + q];
        part[m * P + q] = sacc_;
        sacc_ += (uint)t;
    }
}
__kernel void lc_store_f32_f6839a743998fd28_p3(
    __global const float *restrict a0, const long a0_o,
    const float a1_v,
    const int a2_v,
    __global float *a3, const long a3_o,
    const long n0,
    const long x7_n, const long M, __global char *part_, const long sbase, const long P)
{
    __global uint *part = (__global uint *)(part_ + sbase);
    const long g_ = get_global_id(0);
    const long m = g_ / P, q = g_ % P;
    if (m >= M) return;
    const float v1 = a1_v; /* full */
    const int v5 = a2_v; /* full */
    const long chunk = (n0 + P - 1) / P;
    const long end = min(n0, (q + 1) * chunk);
    uint sacc_ = part[m * P + q];
    for (long i0 = q * chunk; i0 < end; i0++) {
        const float v0 = a0[a0_o + i0]; /* buffer */
        const uchar v2 = (uchar)((v0 > v1)); /* greater */
        const int v3 = (int)(v2); /* astype */
        sacc_ += (uint)v3;
        const int v4 = (int)sacc_; /* running cumsum */
        const int v6 = (int)((uint)v4 - (uint)v5); /* subtract */
        const long v7 = (long)min((ulong)v6, (ulong)(x7_n - 1)); /* index clamped for take */
        if (v2) {
            a3[a3_o + v7] = v0;
        }
    }
}

