/* ---- kernel 0: schedule "reduce: one item per output, 8-wide SIMD", 1 launch: lc_reduce_f32_cb1338514058f257 */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
/* lazycl reduce kernel: 3 fused ops; reduce: one item per output, 8-wide SIMD. */
__kernel void lc_reduce_f32_cb1338514058f257(
    __global float *restrict out0,
    __global const float *restrict a0, const long a0_o,
    __global const float *restrict a1, const long a1_o,
    const long n0, const long M)
{
    const long m = get_global_id(0);
    if (m >= M) return;
    double s0_a = 0;
    {
        double8 q0_a = 0;
        long i0 = 0;
        for (; i0 + 8 <= n0; i0 += 8) {
            const float8 w0 = vload8(0, a0 + (a0_o + i0)); /* buffer */
            const float8 w1 = vload8(0, a1 + (a1_o + i0)); /* buffer */
            const float8 w2 = (w0 - w1); /* subtract */
            const float8 w3 = (w2 * w2); /* multiply */
            q0_a += convert_double8(w3);
        }
        s0_a += (double)q0_a.s0;
        s0_a += (double)q0_a.s1;
        s0_a += (double)q0_a.s2;
        s0_a += (double)q0_a.s3;
        s0_a += (double)q0_a.s4;
        s0_a += (double)q0_a.s5;
        s0_a += (double)q0_a.s6;
        s0_a += (double)q0_a.s7;
        for (; i0 < n0; i0++) {
            const float v0 = a0[a0_o + i0]; /* buffer */
            const float v1 = a1[a1_o + i0]; /* buffer */
            const float v2 = (v0 - v1); /* subtract */
            const float v3 = (v2 * v2); /* multiply */
            s0_a += (double)v3;
        }
    }
    const float v4 = (float)s0_a; /* result of sum */
    out0[0] = v4;
}

