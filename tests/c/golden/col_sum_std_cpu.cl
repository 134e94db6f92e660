/* ---- kernel 0: schedule "reduce: blocks of 32 outputs x chunks of rows, 8-wide SIMD, then a launch combines", 2 launches: lc_reduce_f32_1edfe6af6a2f734f_part lc_reduce_f32_1edfe6af6a2f734f_comb */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
/* lazycl reduce kernel: 3 fused ops; reduce: blocks of 32 outputs x chunks of rows, 8-wide SIMD, then a launch combines. */
__kernel void lc_reduce_f32_1edfe6af6a2f734f_part(
    __global float *restrict out0,
    __global float *restrict out1,
    __global const float *restrict a0, const long a0_o, const long a0_s1,
    const long n0,
    const long n1,
    __global char *scratch_, const long sbase, const long P, const long N, const long M, const long so0_0, const long so1_0, const long so1_1, const long so1_2)
{
    __global char *scratch = scratch_ + sbase;
    const long blk = get_global_id(0), p = get_global_id(1);
    const long c0 = blk * 32;
    const long chunk = (N + P - 1) / P;
    const long r0 = min(N, p * chunk), r_end = min(N, r0 + chunk);
    if (c0 + 32 <= M) {
        double8 q1_k0 = 0, q1_b0 = 0, q1_c0 = 0;
        double8 q1_k1 = 0, q1_b1 = 0, q1_c1 = 0;
        double8 q1_k2 = 0, q1_b2 = 0, q1_c2 = 0;
        double8 q1_k3 = 0, q1_b3 = 0, q1_c3 = 0;
        if (r0 < r_end) {
            const long i1 = r0;
            {
                const long i0 = c0 + 0;
                const float8 w0 = vload8(0, a0 + (a0_o + i0 + i1 * a0_s1)); /* buffer */
                q1_k0 = convert_double8(w0);
            }
            {
                const long i0 = c0 + 8;
                const float8 w0 = vload8(0, a0 + (a0_o + i0 + i1 * a0_s1)); /* buffer */
                q1_k1 = convert_double8(w0);
            }
            {
                const long i0 = c0 + 16;
                const float8 w0 = vload8(0, a0 + (a0_o + i0 + i1 * a0_s1)); /* buffer */
                q1_k2 = convert_double8(w0);
            }
            {
                const long i0 = c0 + 24;
                const float8 w0 = vload8(0, a0 + (a0_o + i0 + i1 * a0_s1)); /* buffer */
                q1_k3 = convert_double8(w0);
            }
        }
        for (long r = r0; r < r_end; r++) {
            const long i1 = r;
            {
                const long i0 = c0 + 0;
                const float8 w0 = vload8(0, a0 + (a0_o + i0 + i1 * a0_s1)); /* buffer */
                { const double8 x_ = convert_double8((w0 - convert_float8(q1_k0))); q1_b0 += x_; q1_c0 = fma(x_, x_, q1_c0); }
            }
            {
                const long i0 = c0 + 8;
                const float8 w0 = vload8(0, a0 + (a0_o + i0 + i1 * a0_s1)); /* buffer */
                { const double8 x_ = convert_double8((w0 - convert_float8(q1_k1))); q1_b1 += x_; q1_c1 = fma(x_, x_, q1_c1); }
            }
            {
                const long i0 = c0 + 16;
                const float8 w0 = vload8(0, a0 + (a0_o + i0 + i1 * a0_s1)); /* buffer */
                { const double8 x_ = convert_double8((w0 - convert_float8(q1_k2))); q1_b2 += x_; q1_c2 = fma(x_, x_, q1_c2); }
            }
            {
                const long i0 = c0 + 24;
                const float8 w0 = vload8(0, a0 + (a0_o + i0 + i1 * a0_s1)); /* buffer */
                { const double8 x_ = convert_double8((w0 - convert_float8(q1_k3))); q1_b3 += x_; q1_c3 = fma(x_, x_, q1_c3); }
            }
        }
        vstore8((double)(r_end - r0) * q1_k0 + q1_b0, 0, (__global double *)(scratch + so0_0) + p * M + c0 + 0);
        vstore8((double)(r_end - r0) * q1_k1 + q1_b1, 0, (__global double *)(scratch + so0_0) + p * M + c0 + 8);
        vstore8((double)(r_end - r0) * q1_k2 + q1_b2, 0, (__global double *)(scratch + so0_0) + p * M + c0 + 16);
        vstore8((double)(r_end - r0) * q1_k3 + q1_b3, 0, (__global double *)(scratch + so0_0) + p * M + c0 + 24);
        {
            const double n_ = (double)(r_end - r0);
            const double8 m2_ = q1_c0 - q1_b0 * q1_b0 / n_;
            vstore8((double8)(n_), 0, (__global double *)(scratch + so1_0) + p * M + c0 + 0);
            vstore8(n_ > 0 ? q1_k0 + q1_b0 / n_ : (double8)(0), 0, (__global double *)(scratch + so1_1) + p * M + c0 + 0);
            vstore8(n_ > 0 ? select(m2_, (double8)(0), m2_ < 0) : (double8)(0), 0, (__global double *)(scratch + so1_2) + p * M + c0 + 0);
        }
        {
            const double n_ = (double)(r_end - r0);
            const double8 m2_ = q1_c1 - q1_b1 * q1_b1 / n_;
            vstore8((double8)(n_), 0, (__global double *)(scratch + so1_0) + p * M + c0 + 8);
            vstore8(n_ > 0 ? q1_k1 + q1_b1 / n_ : (double8)(0), 0, (__global double *)(scratch + so1_1) + p * M + c0 + 8);
            vstore8(n_ > 0 ? select(m2_, (double8)(0), m2_ < 0) : (double8)(0), 0, (__global double *)(scratch + so1_2) + p * M + c0 + 8);
        }
        {
            const double n_ = (double)(r_end - r0);
            const double8 m2_ = q1_c2 - q1_b2 * q1_b2 / n_;
            vstore8((double8)(n_), 0, (__global double *)(scratch + so1_0) + p * M + c0 + 16);
            vstore8(n_ > 0 ? q1_k2 + q1_b2 / n_ : (double8)(0), 0, (__global double *)(scratch + so1_1) + p * M + c0 + 16);
            vstore8(n_ > 0 ? select(m2_, (double8)(0), m2_ < 0) : (double8)(0), 0, (__global double *)(scratch + so1_2) + p * M + c0 + 16);
        }
        {
            const double n_ = (double)(r_end - r0);
            const double8 m2_ = q1_c3 - q1_b3 * q1_b3 / n_;
            vstore8((double8)(n_), 0, (__global double *)(scratch + so1_0) + p * M + c0 + 24);
            vstore8(n_ > 0 ? q1_k3 + q1_b3 / n_ : (double8)(0), 0, (__global double *)(scratch + so1_1) + p * M + c0 + 24);
            vstore8(n_ > 0 ? select(m2_, (double8)(0), m2_ < 0) : (double8)(0), 0, (__global double *)(scratch + so1_2) + p * M + c0 + 24);
        }
    } else {
        for (long i0 = c0; i0 < M; i0++) {
            double s0_a = 0;
            double s1_a = 0, s1_b = 0, s1_c = 0;
            for (long r = r0; r < r_end; r++) {
                const long i1 = r;
                const float v0 = a0[a0_o + i0 + i1 * a0_s1]; /* buffer */
                s0_a += (double)v0;
                { const double x_ = (double)v0; s1_a += 1; const double d_ = x_ - s1_b; s1_b += d_ / s1_a; s1_c += d_ * (x_ - s1_b); }
            }
            ((__global double *)(scratch + so0_0))[p * M + i0] = s0_a;
            ((__global double *)(scratch + so1_0))[p * M + i0] = s1_a;
            ((__global double *)(scratch + so1_1))[p * M + i0] = s1_b;
            ((__global double *)(scratch + so1_2))[p * M + i0] = s1_c;
        }
    }
}

__kernel void lc_reduce_f32_1edfe6af6a2f734f_comb(
    __global float *restrict out0,
    __global float *restrict out1,
    __global const float *restrict a0, const long a0_o, const long a0_s1,
    const long n0,
    const long n1,
    __global char *scratch_, const long sbase, const long P, const long N, const long M, const long so0_0, const long so1_0, const long so1_1, const long so1_2)
{
    __global char *scratch = scratch_ + sbase;
    const long c0 = get_global_id(0) * 32;
    for (long i0 = c0; i0 < min(M, c0 + 32); i0++) {
        double s0_a = 0;
        double s1_a = 0, s1_b = 0, s1_c = 0;
        for (long q = 0; q < P; q++) {
            double o0_a = ((volatile __global double *)(scratch + so0_0))[q * M + i0];
            s0_a += o0_a;
            double o1_a = ((volatile __global double *)(scratch + so1_0))[q * M + i0];
            double o1_b = ((volatile __global double *)(scratch + so1_1))[q * M + i0];
            double o1_c = ((volatile __global double *)(scratch + so1_2))[q * M + i0];
            if (o1_a > 0) { const double n_ = s1_a + o1_a; const double d_ = o1_b - s1_b; s1_b += d_ * (o1_a / n_); s1_c += o1_c + d_ * d_ * (s1_a * o1_a / n_); s1_a = n_; }
        }
        const float v1 = (float)(s1_c / fmax(s1_a - (double)0, (double)0)); /* result of var */
        const float v2 = (sqrt(v1)); /* sqrt */
        const float v3 = (float)s0_a; /* result of sum */
        out0[i0] = v3;
        out1[i0] = v2;
    }
}

