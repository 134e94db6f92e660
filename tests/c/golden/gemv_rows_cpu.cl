/* ---- kernel 0: schedule "reduce: one item per 8 outputs (a shared read), 8-wide SIMD", 1 launch: lc_reduce_f32_1cf7c08ff0c6e8c3 */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
/* lazycl reduce kernel: 4 fused ops; reduce: one item per 8 outputs (a shared read), 8-wide SIMD. */
__kernel void lc_reduce_f32_1cf7c08ff0c6e8c3(
    __global float *restrict out0,
    __global const float *restrict a0, const long a0_o, const long a0_s0,
    __global const float *restrict a1, const long a1_o,
    __global const float *restrict a2, const long a2_o,
    const float a3_v,
    const long n0,
    const long n1, const long M)
{
    const long m0 = get_global_id(0) * 8;
    if (m0 >= M) return;
    if (m0 + 8 <= M) {
        float8 q0_ar0 = 0;
        float8 q0_ar1 = 0;
        float8 q0_ar2 = 0;
        float8 q0_ar3 = 0;
        float8 q0_ar4 = 0;
        float8 q0_ar5 = 0;
        float8 q0_ar6 = 0;
        float8 q0_ar7 = 0;
        long e_ = 0;
        for (; e_ + 8 <= n1; e_ += 8) {
            const long i1 = e_;
            {
                const long m = m0 + 0;
                const long i0 = m;
                float8 q0_a = q0_ar0;
                const float8 w0 = vload8(0, a0 + (a0_o + i0 * a0_s0 + i1)); /* buffer */
                const float8 w1 = vload8(0, a1 + (a1_o + i1)); /* buffer */
                const float8 w2 = (w0 * w1); /* multiply */
                q0_a += w2;
                q0_ar0 = q0_a;
            }
            {
                const long m = m0 + 1;
                const long i0 = m;
                float8 q0_a = q0_ar1;
                const float8 w0 = vload8(0, a0 + (a0_o + i0 * a0_s0 + i1)); /* buffer */
                const float8 w1 = vload8(0, a1 + (a1_o + i1)); /* buffer */
                const float8 w2 = (w0 * w1); /* multiply */
                q0_a += w2;
                q0_ar1 = q0_a;
            }
            {
                const long m = m0 + 2;
                const long i0 = m;
                float8 q0_a = q0_ar2;
                const float8 w0 = vload8(0, a0 + (a0_o + i0 * a0_s0 + i1)); /* buffer */
                const float8 w1 = vload8(0, a1 + (a1_o + i1)); /* buffer */
                const float8 w2 = (w0 * w1); /* multiply */
                q0_a += w2;
                q0_ar2 = q0_a;
            }
            {
                const long m = m0 + 3;
                const long i0 = m;
                float8 q0_a = q0_ar3;
                const float8 w0 = vload8(0, a0 + (a0_o + i0 * a0_s0 + i1)); /* buffer */
                const float8 w1 = vload8(0, a1 + (a1_o + i1)); /* buffer */
                const float8 w2 = (w0 * w1); /* multiply */
                q0_a += w2;
                q0_ar3 = q0_a;
            }
            {
                const long m = m0 + 4;
                const long i0 = m;
                float8 q0_a = q0_ar4;
                const float8 w0 = vload8(0, a0 + (a0_o + i0 * a0_s0 + i1)); /* buffer */
                const float8 w1 = vload8(0, a1 + (a1_o + i1)); /* buffer */
                const float8 w2 = (w0 * w1); /* multiply */
                q0_a += w2;
                q0_ar4 = q0_a;
            }
            {
                const long m = m0 + 5;
                const long i0 = m;
                float8 q0_a = q0_ar5;
                const float8 w0 = vload8(0, a0 + (a0_o + i0 * a0_s0 + i1)); /* buffer */
                const float8 w1 = vload8(0, a1 + (a1_o + i1)); /* buffer */
                const float8 w2 = (w0 * w1); /* multiply */
                q0_a += w2;
                q0_ar5 = q0_a;
            }
            {
                const long m = m0 + 6;
                const long i0 = m;
                float8 q0_a = q0_ar6;
                const float8 w0 = vload8(0, a0 + (a0_o + i0 * a0_s0 + i1)); /* buffer */
                const float8 w1 = vload8(0, a1 + (a1_o + i1)); /* buffer */
                const float8 w2 = (w0 * w1); /* multiply */
                q0_a += w2;
                q0_ar6 = q0_a;
            }
            {
                const long m = m0 + 7;
                const long i0 = m;
                float8 q0_a = q0_ar7;
                const float8 w0 = vload8(0, a0 + (a0_o + i0 * a0_s0 + i1)); /* buffer */
                const float8 w1 = vload8(0, a1 + (a1_o + i1)); /* buffer */
                const float8 w2 = (w0 * w1); /* multiply */
                q0_a += w2;
                q0_ar7 = q0_a;
            }
        }
        {
            const long m = m0 + 0;
            const long i0 = m;
            float s0_a = 0;
            {
                float8 q0_a = q0_ar0;
                long i1 = e_;
                s0_a += (float)q0_a.s0;
                s0_a += (float)q0_a.s1;
                s0_a += (float)q0_a.s2;
                s0_a += (float)q0_a.s3;
                s0_a += (float)q0_a.s4;
                s0_a += (float)q0_a.s5;
                s0_a += (float)q0_a.s6;
                s0_a += (float)q0_a.s7;
                for (; i1 < n1; i1++) {
                    const float v0 = a0[a0_o + i0 * a0_s0 + i1]; /* buffer */
                    const float v1 = a1[a1_o + i1]; /* buffer */
                    const float v2 = (v0 * v1); /* multiply */
                    s0_a += (float)v2;
                }
            }
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i0]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0] = v7;
        }
        {
            const long m = m0 + 1;
            const long i0 = m;
            float s0_a = 0;
            {
                float8 q0_a = q0_ar1;
                long i1 = e_;
                s0_a += (float)q0_a.s0;
                s0_a += (float)q0_a.s1;
                s0_a += (float)q0_a.s2;
                s0_a += (float)q0_a.s3;
                s0_a += (float)q0_a.s4;
                s0_a += (float)q0_a.s5;
                s0_a += (float)q0_a.s6;
                s0_a += (float)q0_a.s7;
                for (; i1 < n1; i1++) {
                    const float v0 = a0[a0_o + i0 * a0_s0 + i1]; /* buffer */
                    const float v1 = a1[a1_o + i1]; /* buffer */
                    const float v2 = (v0 * v1); /* multiply */
                    s0_a += (float)v2;
                }
            }
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i0]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0] = v7;
        }
        {
            const long m = m0 + 2;
            const long i0 = m;
            float s0_a = 0;
            {
                float8 q0_a = q0_ar2;
                long i1 = e_;
                s0_a += (float)q0_a.s0;
                s0_a += (float)q0_a.s1;
                s0_a += (float)q0_a.s2;
                s0_a += (float)q0_a.s3;
                s0_a += (float)q0_a.s4;
                s0_a += (float)q0_a.s5;
                s0_a += (float)q0_a.s6;
                s0_a += (float)q0_a.s7;
                for (; i1 < n1; i1++) {
                    const float v0 = a0[a0_o + i0 * a0_s0 + i1]; /* buffer */
                    const float v1 = a1[a1_o + i1]; /* buffer */
                    const float v2 = (v0 * v1); /* multiply */
                    s0_a += (float)v2;
                }
            }
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i0]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0] = v7;
        }
        {
            const long m = m0 + 3;
            const long i0 = m;
            float s0_a = 0;
            {
                float8 q0_a = q0_ar3;
                long i1 = e_;
                s0_a += (float)q0_a.s0;
                s0_a += (float)q0_a.s1;
                s0_a += (float)q0_a.s2;
                s0_a += (float)q0_a.s3;
                s0_a += (float)q0_a.s4;
                s0_a += (float)q0_a.s5;
                s0_a += (float)q0_a.s6;
                s0_a += (float)q0_a.s7;
                for (; i1 < n1; i1++) {
                    const float v0 = a0[a0_o + i0 * a0_s0 + i1]; /* buffer */
                    const float v1 = a1[a1_o + i1]; /* buffer */
                    const float v2 = (v0 * v1); /* multiply */
                    s0_a += (float)v2;
                }
            }
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i0]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0] = v7;
        }
        {
            const long m = m0 + 4;
            const long i0 = m;
            float s0_a = 0;
            {
                float8 q0_a = q0_ar4;
                long i1 = e_;
                s0_a += (float)q0_a.s0;
                s0_a += (float)q0_a.s1;
                s0_a += (float)q0_a.s2;
                s0_a += (float)q0_a.s3;
                s0_a += (float)q0_a.s4;
                s0_a += (float)q0_a.s5;
                s0_a += (float)q0_a.s6;
                s0_a += (float)q0_a.s7;
                for (; i1 < n1; i1++) {
                    const float v0 = a0[a0_o + i0 * a0_s0 + i1]; /* buffer */
                    const float v1 = a1[a1_o + i1]; /* buffer */
                    const float v2 = (v0 * v1); /* multiply */
                    s0_a += (float)v2;
                }
            }
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i0]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0] = v7;
        }
        {
            const long m = m0 + 5;
            const long i0 = m;
            float s0_a = 0;
            {
                float8 q0_a = q0_ar5;
                long i1 = e_;
                s0_a += (float)q0_a.s0;
                s0_a += (float)q0_a.s1;
                s0_a += (float)q0_a.s2;
                s0_a += (float)q0_a.s3;
                s0_a += (float)q0_a.s4;
                s0_a += (float)q0_a.s5;
                s0_a += (float)q0_a.s6;
                s0_a += (float)q0_a.s7;
                for (; i1 < n1; i1++) {
                    const float v0 = a0[a0_o + i0 * a0_s0 + i1]; /* buffer */
                    const float v1 = a1[a1_o + i1]; /* buffer */
                    const float v2 = (v0 * v1); /* multiply */
                    s0_a += (float)v2;
                }
            }
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i0]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0] = v7;
        }
        {
            const long m = m0 + 6;
            const long i0 = m;
            float s0_a = 0;
            {
                float8 q0_a = q0_ar6;
                long i1 = e_;
                s0_a += (float)q0_a.s0;
                s0_a += (float)q0_a.s1;
                s0_a += (float)q0_a.s2;
                s0_a += (float)q0_a.s3;
                s0_a += (float)q0_a.s4;
                s0_a += (float)q0_a.s5;
                s0_a += (float)q0_a.s6;
                s0_a += (float)q0_a.s7;
                for (; i1 < n1; i1++) {
                    const float v0 = a0[a0_o + i0 * a0_s0 + i1]; /* buffer */
                    const float v1 = a1[a1_o + i1]; /* buffer */
                    const float v2 = (v0 * v1); /* multiply */
                    s0_a += (float)v2;
                }
            }
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i0]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0] = v7;
        }
        {
            const long m = m0 + 7;
            const long i0 = m;
            float s0_a = 0;
            {
                float8 q0_a = q0_ar7;
                long i1 = e_;
                s0_a += (float)q0_a.s0;
                s0_a += (float)q0_a.s1;
                s0_a += (float)q0_a.s2;
                s0_a += (float)q0_a.s3;
                s0_a += (float)q0_a.s4;
                s0_a += (float)q0_a.s5;
                s0_a += (float)q0_a.s6;
                s0_a += (float)q0_a.s7;
                for (; i1 < n1; i1++) {
                    const float v0 = a0[a0_o + i0 * a0_s0 + i1]; /* buffer */
                    const float v1 = a1[a1_o + i1]; /* buffer */
                    const float v2 = (v0 * v1); /* multiply */
                    s0_a += (float)v2;
                }
            }
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i0]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0] = v7;
        }
    } else {
        for (long m = m0; m < M; m++) {
            const long i0 = m;
            float s0_a = 0;
            {
                float8 q0_a = 0;
                long i1 = 0;
                for (; i1 + 8 <= n1; i1 += 8) {
                    const float8 w0 = vload8(0, a0 + (a0_o + i0 * a0_s0 + i1)); /* buffer */
                    const float8 w1 = vload8(0, a1 + (a1_o + i1)); /* buffer */
                    const float8 w2 = (w0 * w1); /* multiply */
                    q0_a += w2;
                }
                s0_a += (float)q0_a.s0;
                s0_a += (float)q0_a.s1;
                s0_a += (float)q0_a.s2;
                s0_a += (float)q0_a.s3;
                s0_a += (float)q0_a.s4;
                s0_a += (float)q0_a.s5;
                s0_a += (float)q0_a.s6;
                s0_a += (float)q0_a.s7;
                for (; i1 < n1; i1++) {
                    const float v0 = a0[a0_o + i0 * a0_s0 + i1]; /* buffer */
                    const float v1 = a1[a1_o + i1]; /* buffer */
                    const float v2 = (v0 * v1); /* multiply */
                    s0_a += (float)v2;
                }
            }
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i0]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0] = v7;
        }
    }
}

