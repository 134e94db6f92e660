/* ---- kernel 0: schedule "reduce: one item per output, 8-wide SIMD", 1 launch: lc_reduce_f32_48f2348b13fc1234 */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
/* lazycl reduce kernel: 2 fused ops; reduce: one item per output, 8-wide SIMD. */
__kernel void lc_reduce_f32_48f2348b13fc1234(
    __global float *restrict out0,
    __global float *restrict out1,
    __global const float *restrict a0, const long a0_o,
    const long n0, const long M)
{
    const long m = get_global_id(0);
    if (m >= M) return;
    float s0_a = -INFINITY;
    float s1_a = -INFINITY; double s1_b = 0;
    {
        float8 q0_a = (float8)(-INFINITY);
        float8 q1_a = (float8)(-INFINITY); double8 q1_b = 0;
        long i0 = 0;
        for (; i0 + 256 <= n0; i0 += 256) {
            const long b0_ = i0;
            float8 bm1_ = (float8)(-INFINITY);
            for (long i0 = b0_; i0 < b0_ + 256; i0 += 8) {
                const float8 w0 = vload8(0, a0 + (a0_o + i0)); /* buffer */
                bm1_ = select(bm1_, w0, (w0 > bm1_) | isnan(w0));
            }
            q0_a = select(q0_a, bm1_, (bm1_ > q0_a) | isnan(bm1_));
            if (any(bm1_ > q1_a)) {
                const float8 q_m_ = q1_a, n_m_ = select(q1_a, bm1_, bm1_ > q1_a);
                q1_b = select(q1_b * exp(convert_double8(q_m_) - convert_double8(n_m_)), q1_b, convert_long8(n_m_ == q_m_));
                q1_a = n_m_;
            }
            const float8 qe1_ = select(q1_a, (float8)(0), q1_a == (float8)(-INFINITY));
            for (long i0 = b0_; i0 < b0_ + 256; i0 += 8) {
                const float8 w0 = vload8(0, a0 + (a0_o + i0)); /* buffer */
                q1_b += convert_double8(exp(w0 - qe1_));
            }
        }
        for (; i0 + 8 <= n0; i0 += 8) {
            const float8 w0 = vload8(0, a0 + (a0_o + i0)); /* buffer */
            q0_a = select(q0_a, w0, (w0 > q0_a) | isnan(w0));
            if (any(w0 > q1_a)) {
                const float8 q_m_ = q1_a, n_m_ = select(q1_a, w0, w0 > q1_a);
                q1_b = select(q1_b * exp(convert_double8(q_m_) - convert_double8(n_m_)), q1_b, convert_long8(n_m_ == q_m_));
                q1_a = n_m_;
            }
            q1_b += convert_double8(select(exp(w0 - q1_a), (float8)(0), w0 == (float8)(-INFINITY)));
        }
        if (q0_a.s0 > s0_a || isnan(q0_a.s0)) s0_a = q0_a.s0;
        if (q0_a.s1 > s0_a || isnan(q0_a.s1)) s0_a = q0_a.s1;
        if (q0_a.s2 > s0_a || isnan(q0_a.s2)) s0_a = q0_a.s2;
        if (q0_a.s3 > s0_a || isnan(q0_a.s3)) s0_a = q0_a.s3;
        if (q0_a.s4 > s0_a || isnan(q0_a.s4)) s0_a = q0_a.s4;
        if (q0_a.s5 > s0_a || isnan(q0_a.s5)) s0_a = q0_a.s5;
        if (q0_a.s6 > s0_a || isnan(q0_a.s6)) s0_a = q0_a.s6;
        if (q0_a.s7 > s0_a || isnan(q0_a.s7)) s0_a = q0_a.s7;
        { const float l1_a = q1_a.s0; const double l1_b = q1_b.s0;
            if (l1_a > s1_a) { s1_b = s1_b * exp((double)s1_a - (double)l1_a) + l1_b; s1_a = l1_a; }
            else if (l1_a != -INFINITY) s1_b += l1_b * exp((double)l1_a - (double)s1_a);
        }
        { const float l1_a = q1_a.s1; const double l1_b = q1_b.s1;
            if (l1_a > s1_a) { s1_b = s1_b * exp((double)s1_a - (double)l1_a) + l1_b; s1_a = l1_a; }
            else if (l1_a != -INFINITY) s1_b += l1_b * exp((double)l1_a - (double)s1_a);
        }
        { const float l1_a = q1_a.s2; const double l1_b = q1_b.s2;
            if (l1_a > s1_a) { s1_b = s1_b * exp((double)s1_a - (double)l1_a) + l1_b; s1_a = l1_a; }
            else if (l1_a != -INFINITY) s1_b += l1_b * exp((double)l1_a - (double)s1_a);
        }
        { const float l1_a = q1_a.s3; const double l1_b = q1_b.s3;
            if (l1_a > s1_a) { s1_b = s1_b * exp((double)s1_a - (double)l1_a) + l1_b; s1_a = l1_a; }
            else if (l1_a != -INFINITY) s1_b += l1_b * exp((double)l1_a - (double)s1_a);
        }
        { const float l1_a = q1_a.s4; const double l1_b = q1_b.s4;
            if (l1_a > s1_a) { s1_b = s1_b * exp((double)s1_a - (double)l1_a) + l1_b; s1_a = l1_a; }
            else if (l1_a != -INFINITY) s1_b += l1_b * exp((double)l1_a - (double)s1_a);
        }
        { const float l1_a = q1_a.s5; const double l1_b = q1_b.s5;
            if (l1_a > s1_a) { s1_b = s1_b * exp((double)s1_a - (double)l1_a) + l1_b; s1_a = l1_a; }
            else if (l1_a != -INFINITY) s1_b += l1_b * exp((double)l1_a - (double)s1_a);
        }
        { const float l1_a = q1_a.s6; const double l1_b = q1_b.s6;
            if (l1_a > s1_a) { s1_b = s1_b * exp((double)s1_a - (double)l1_a) + l1_b; s1_a = l1_a; }
            else if (l1_a != -INFINITY) s1_b += l1_b * exp((double)l1_a - (double)s1_a);
        }
        { const float l1_a = q1_a.s7; const double l1_b = q1_b.s7;
            if (l1_a > s1_a) { s1_b = s1_b * exp((double)s1_a - (double)l1_a) + l1_b; s1_a = l1_a; }
            else if (l1_a != -INFINITY) s1_b += l1_b * exp((double)l1_a - (double)s1_a);
        }
        for (; i0 < n0; i0++) {
            const float v0 = a0[a0_o + i0]; /* buffer */
            if (v0 > s0_a || isnan(v0)) s0_a = v0;
            if (v0 > s1_a) { s1_b *= exp((double)s1_a - (double)v0); s1_a = v0; }
            if (v0 != -INFINITY) s1_b += (double)exp(v0 - s1_a);
        }
    }
    const float v1 = (float)s0_a; /* result of max */
    const float v2 = (float)(s1_a == -INFINITY ? (double)NAN : s1_b); /* result of sumexp */
    out0[0] = v1;
    out1[0] = v2;
}

/* ---- kernel 1: schedule "map 1-d, 8 elements per item (8-wide SIMD)", 1 launch: lc_map_f32_8becaa6bb5ab1311 */
#pragma OPENCL FP_CONTRACT OFF
/* lazycl map kernel: 5 fused ops; map 1-d, 8 elements per item (8-wide SIMD). */
__kernel void lc_map_f32_8becaa6bb5ab1311(
    __global float *restrict out0,
    __global const float *restrict a0, const long a0_o,
    __global const float *restrict a1, const long a1_o,
    __global const float *restrict a2, const long a2_o,
    const long n0)
{
    if ((long)get_global_id(0) * 8 >= n0) return;
    const long i0 = min((long)get_global_id(0) * 8, n0 - 8);
    const float8 w0 = vload8(0, a0 + (a0_o + i0)); /* buffer */
    const float8 w1 = (float8)(a1[a1_o]); /* max */
    const float8 w2 = (w0 - w1); /* subtract */
    const float8 w3 = (exp(w2)); /* exp */
    const float8 w4 = (float8)(a2[a2_o]); /* sumexp */
    const float8 w5 = (w3 / w4); /* true_divide */
    vstore8(w5, 0, out0 + i0);
}

