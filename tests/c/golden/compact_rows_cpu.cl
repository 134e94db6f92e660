/* ---- kernel 0: schedule "store in row order with its scan: one item per row", 1 launch: lc_store_f32_efb4799638b5c743 */
#pragma OPENCL FP_CONTRACT OFF
/* lazycl store kernel: 8 fused ops; store in row order with its scan: one item per row. */
__kernel void lc_store_f32_efb4799638b5c743(
    __global const float *restrict a0, const long a0_o, const long a0_s0,
    const float a1_v,
    __global const long *restrict a2, const long a2_o,
    __global const long *restrict a3, const long a3_o,
    __global float *a4, const long a4_o,
    const long n0,
    const long n1,
    const long x10_n, const long M)
{
    const long m = get_global_id(0);
    if (m >= M) return;
    const long i0 = m;
    const float v1 = a1_v; /* full */
    const long v6 = a2[a2_o + i0]; /* buffer */
    const long v8 = a3[a3_o + i0]; /* buffer */
    ulong sacc_ = 0;
#pragma clang loop vectorize(disable) interleave(disable)
    for (long i1 = 0; i1 < n1; i1++) {
        const float v0 = a0[a0_o + i0 * a0_s0 + i1]; /* buffer */
        const uchar v2 = (uchar)((v0 > v1)); /* greater */
        const long v3 = (long)(v2); /* astype */
        sacc_ += (ulong)v3;
        const long v4 = (long)sacc_; /* running cumsum */
        const long v5 = (long)((ulong)v4 - (ulong)v3); /* subtract */
        const uchar v7 = (uchar)((v5 < v6)); /* less */
        const long v9 = (long)((ulong)v8 + (ulong)v5); /* add */
        const long v10 = (long)v9; /* index bounded by the store for take */
        if (!v7)
            break;
        a4[a4_o + v10] = v0;
    }
}

