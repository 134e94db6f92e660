/* ---- kernel 0: schedule "reduce: panels of 4096 outputs x chunks of rows, 4 rows a step, 8-wide SIMD, then a launch combines", 2 launches: lc_reduce_f32_5343d1c68eaf534a_part lc_reduce_f32_5343d1c68eaf534a_comb */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
/* lazycl reduce kernel: 3 fused ops; reduce: panels of 4096 outputs x chunks of rows, 4 rows a step, 8-wide SIMD, then a launch combines. */
__kernel void lc_reduce_f32_5343d1c68eaf534a_part(
    __global float *restrict out0,
    __global const float *restrict a0, const long a0_o,
    __global const float *restrict a1, const long a1_o, const long a1_s1,
    const float a2_v,
    const long n0,
    const long n1,
    __global char *scratch_, const long sbase, const long P, const long N, const long M, const long so0_0)
{
    __global char *scratch = scratch_ + sbase;
    const long blk = get_global_id(0), p = get_global_id(1);
    const long c0 = blk * 4096;
    const long chunk = (N + P - 1) / P;
    const long r0 = min(N, p * chunk), r_end = min(N, r0 + chunk);
    const int nv = (int)min((long)512, (M - c0) / 8);
    float8 q0_a[512];
    for (int j = 0; j < nv; j++) {
        q0_a[j] = 0;
    }
    long e_ = r0;
    for (; e_ + 4 <= r_end; e_ += 4) {
        for (int j = 0; j < nv; j++) {
            float8 t0_ = 0;
            {
                const long r = e_ + 0;
                const long i1 = r;
                const long i0 = c0 + j * 8;
                const float8 w0 = (float8)(a0[a0_o + i1]); /* buffer */
                const float8 w1 = vload8(0, a1 + (a1_o + i0 + i1 * a1_s1)); /* buffer */
                const float8 w2 = (w0 * w1); /* multiply */
                t0_ += w2;
            }
            {
                const long r = e_ + 1;
                const long i1 = r;
                const long i0 = c0 + j * 8;
                const float8 w0 = (float8)(a0[a0_o + i1]); /* buffer */
                const float8 w1 = vload8(0, a1 + (a1_o + i0 + i1 * a1_s1)); /* buffer */
                const float8 w2 = (w0 * w1); /* multiply */
                t0_ += w2;
            }
            {
                const long r = e_ + 2;
                const long i1 = r;
                const long i0 = c0 + j * 8;
                const float8 w0 = (float8)(a0[a0_o + i1]); /* buffer */
                const float8 w1 = vload8(0, a1 + (a1_o + i0 + i1 * a1_s1)); /* buffer */
                const float8 w2 = (w0 * w1); /* multiply */
                t0_ += w2;
            }
            {
                const long r = e_ + 3;
                const long i1 = r;
                const long i0 = c0 + j * 8;
                const float8 w0 = (float8)(a0[a0_o + i1]); /* buffer */
                const float8 w1 = vload8(0, a1 + (a1_o + i0 + i1 * a1_s1)); /* buffer */
                const float8 w2 = (w0 * w1); /* multiply */
                t0_ += w2;
            }
            q0_a[j] += t0_;
        }
    }
    for (; e_ < r_end; e_++) {
        const long r = e_;
        const long i1 = r;
        for (int j = 0; j < nv; j++) {
            const long i0 = c0 + j * 8;
            const float8 w0 = (float8)(a0[a0_o + i1]); /* buffer */
            const float8 w1 = vload8(0, a1 + (a1_o + i0 + i1 * a1_s1)); /* buffer */
            const float8 w2 = (w0 * w1); /* multiply */
            q0_a[j] += w2;
        }
    }
    for (int j = 0; j < nv; j++) {
        vstore8(q0_a[j], 0, (__global float *)(scratch + so0_0) + p * M + c0 + j * 8);
    }
    for (long i0 = c0 + nv * 8; i0 < min(M, c0 + 4096); i0++) {
        float s0_a = 0;
        for (long r = r0; r < r_end; r++) {
            const long i1 = r;
            const float v0 = a0[a0_o + i1]; /* buffer */
            const float v1 = a1[a1_o + i0 + i1 * a1_s1]; /* buffer */
            const float v2 = (v0 * v1); /* multiply */
            s0_a += (float)v2;
        }
        ((__global float *)(scratch + so0_0))[p * M + i0] = s0_a;
    }
}

__kernel void lc_reduce_f32_5343d1c68eaf534a_comb(
    __global float *restrict out0,
    __global const float *restrict a0, const long a0_o,
    __global const float *restrict a1, const long a1_o, const long a1_s1,
    const float a2_v,
    const long n0,
    const long n1,
    __global char *scratch_, const long sbase, const long P, const long N, const long M, const long so0_0)
{
    __global char *scratch = scratch_ + sbase;
    const long c0 = get_global_id(0) * 4096;
    for (long i0 = c0; i0 < min(M, c0 + 4096); i0++) {
        float s0_a = 0;
        for (long q = 0; q < P; q++) {
            float o0_a = ((volatile __global float *)(scratch + so0_0))[q * M + i0];
            s0_a += o0_a;
        }
        const float v3 = (float)s0_a; /* result of sum */
        const float v4 = a2_v; /* full */
        const float v5 = (v3 * v4); /* multiply */
        out0[i0] = v5;
    }
}

