/* ---- kernel 0: schedule "scan: one item per row", 1 launch: lc_scan_f32_9b99bc756e7e3ea7 */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
/* lazycl scan kernel: 2 fused ops; scan: one item per row. */
__kernel void lc_scan_f32_9b99bc756e7e3ea7(
    __global float *restrict out0,
    __global const float *restrict a0, const long a0_o, const long a0_s0,
    const long n0,
    const long n1, const long os0_0, const long M)
{
    const long m = get_global_id(0);
    if (m >= M) return;
    const long i0 = m;
    double acc = -0.0;
    for (long i1 = 0; i1 < n1; i1++) {
        const float v0 = a0[a0_o + i0 * a0_s0 + i1]; /* buffer */
        const float v1 = (v0 * v0); /* multiply */
        acc += (double)v1;
        {
            const float v1 = (float)acc;
            out0[i0 * os0_0 + i1] = v1;
        }
    }
}

