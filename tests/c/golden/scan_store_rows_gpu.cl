/* ---- kernel 0: schedule "store with its scan: one item per row", 1 launch: lc_store_f32_df4415fe176bffb3 */
#pragma OPENCL FP_CONTRACT OFF
/* lazycl store kernel: 3 fused ops; store with its scan: one item per row. */
__kernel void lc_store_f32_df4415fe176bffb3(
    __global const float *restrict a0, const long a0_o, const long a0_s0,
    const float a1_v,
    __global float *a2, const long a2_o, const long a2_s0,
    const long n0,
    const long n1, const long M)
{
    const long m = get_global_id(0);
    if (m >= M) return;
    const long i0 = m;
    const float v2 = a1_v; /* full */
    double sacc_ = -0.0;
    for (long i1 = 0; i1 < n1; i1++) {
        const float v0 = a0[a0_o + i0 * a0_s0 + i1]; /* buffer */
        sacc_ += (double)v0;
        const float v1 = (float)sacc_; /* running cumsum */
        const float v3 = (v1 + v2); /* add */
        a2[a2_o + i0 * a2_s0 + i1] = v3;
    }
}

