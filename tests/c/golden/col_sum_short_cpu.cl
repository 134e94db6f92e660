/* ---- kernel 0: schedule "reduce: one item per 8 outputs, 8-wide SIMD across outputs", 1 launch: lc_reduce_f32_4d9e6654a41fc0df */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
/* lazycl reduce kernel: 1 fused op; reduce: one item per 8 outputs, 8-wide SIMD across outputs. */
__kernel void lc_reduce_f32_4d9e6654a41fc0df(
    __global float *restrict out0,
    __global const float *restrict a0, const long a0_o, const long a0_s1,
    const long n0,
    const long n1, const long M)
{
    const long c0 = get_global_id(0) * 8;
    if (c0 >= M) return;
    if (c0 + 8 <= M) {
        const long i0 = c0;
        double8 q0_a = 0;
        for (long i1 = 0; i1 < n1; i1++) {
            const float8 w0 = vload8(0, a0 + (a0_o + i0 + i1 * a0_s1)); /* buffer */
            q0_a += convert_double8(w0);
        }
        double p0_a[8];
        vstore8(q0_a, 0, p0_a);
        for (int ln = 0; ln < 8; ln++) {
            const long i0 = c0 + ln;
            double s0_a = p0_a[ln];
            const float v1 = (float)s0_a; /* result of sum */
            out0[i0] = v1;
        }
    } else {
        for (long i0 = c0; i0 < M; i0++) {
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
    }
}

