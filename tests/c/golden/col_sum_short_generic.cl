/* ---- kernel 0: schedule "reduce: one item per output", 1 launch: lc_reduce_f32_a71b1c730193a181 */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
/* lazycl reduce kernel: 1 fused op; reduce: one item per output. */
__kernel void lc_reduce_f32_a71b1c730193a181(
    __global float *restrict out0,
    __global const float *restrict a0, const long a0_o, const long a0_s1,
    const long n0,
    const long n1, const long M)
{
    const long m = get_global_id(0);
    if (m >= M) return;
    const long i0 = m;
    double s0_a = 0;
    long r = 0;
    for (long i1 = 0; i1 < n1; i1++) {
        const float v0 = a0[a0_o + i0 + i1 * a0_s1]; /* buffer */
        s0_a += (double)v0;
        r++;
    }
    const float v1 = (float)s0_a; /* result of sum */
    out0[i0] = v1;
}

