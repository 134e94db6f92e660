/* ---- kernel 0: schedule "reduce: one item per output, 8-wide SIMD", 1 launch: lc_reduce_f32_68721eac512327c7 */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
/* lazycl reduce kernel: 1 fused op; reduce: one item per output, 8-wide SIMD. */
__kernel void lc_reduce_f32_68721eac512327c7(
    __global float *restrict out0,
    __global const float *restrict a0, const long a0_o, const long a0_s0,
    const long n0,
    const long n1, const long M)
{
    const long m = get_global_id(0);
    if (m >= M) return;
    const long i0 = m;
    double s0_a = 0;
    {
        double8 q0_a = 0;
        long i1 = 0;
        for (; i1 + 8 <= n1; i1 += 8) {
            const float8 w0 = vload8(0, a0 + (a0_o + i0 * a0_s0 + i1)); /* buffer */
            q0_a += convert_double8(w0);
        }
        s0_a += (double)q0_a.s0;
        s0_a += (double)q0_a.s1;
        s0_a += (double)q0_a.s2;
        s0_a += (double)q0_a.s3;
        s0_a += (double)q0_a.s4;
        s0_a += (double)q0_a.s5;
        s0_a += (double)q0_a.s6;
        s0_a += (double)q0_a.s7;
        for (; i1 < n1; i1++) {
            const float v0 = a0[a0_o + i0 * a0_s0 + i1]; /* buffer */
            s0_a += (double)v0;
        }
    }
    const float v1 = (float)s0_a; /* result of sum */
    out0[i0] = v1;
}

