/* ---- kernel 0: schedule "reduce: split over groups of 1 items, last group combines, 8-wide SIMD", 1 launch: lc_reduce_f32_f7818fb83e9c2688 */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
/* lazycl reduce kernel: 2 fused ops; reduce: split over groups of 1 items, last group combines, 8-wide SIMD. */
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
__kernel void lc_reduce_f32_f7818fb83e9c2688(
    __global float *restrict out0,
    __global float *restrict out1,
    __global const float *restrict a0, const long a0_o,
    const long n0,
    __global char *scratch_, const long sbase, const long P, const long N, const long so0_0, const long so1_0, const long so1_1)
{
    __local int last_[1];
    __global char *scratch = scratch_ + sbase;
    const long grp = get_group_id(0);
    const long m = grp / P, p = grp % P;
    const int lid = get_local_id(0);
    const long L = get_local_size(0);
    {
    float s0_a = -INFINITY;
    float s1_a = -INFINITY; double s1_b = 0;
    const long t = p * L + lid, chunk = (N + P * L - 1) / (P * L);
    const long r_end = min(N, (t + 1) * chunk);
    {
        float8 q0_a = (float8)(-INFINITY);
        float8 q1_a = (float8)(-INFINITY); double8 q1_b = 0;
        long i0 = t * chunk;
        for (; i0 + 256 <= r_end; i0 += 256) {
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
        for (; i0 + 8 <= r_end; i0 += 8) {
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
        for (; i0 < r_end; i0++) {
            const float v0 = a0[a0_o + i0]; /* buffer */
            if (v0 > s0_a || isnan(v0)) s0_a = v0;
            if (v0 > s1_a) { s1_b *= exp((double)s1_a - (double)v0); s1_a = v0; }
            if (v0 != -INFINITY) s1_b += (double)exp(v0 - s1_a);
        }
    }
    if (lid == 0) {
        {
            union { float t; uint w[1]; } u_;
            volatile __global uint *w_ = (volatile __global uint *)(scratch + so0_0) + (m * P + p);
            u_.t = s0_a;
            atomic_xchg(w_ + 0, u_.w[0]);
        }
        {
            union { float t; uint w[1]; } u_;
            volatile __global uint *w_ = (volatile __global uint *)(scratch + so1_0) + (m * P + p);
            u_.t = s1_a;
            atomic_xchg(w_ + 0, u_.w[0]);
        }
        {
            union { double t; ulong w[1]; } u_;
            volatile __global ulong *w_ = (volatile __global ulong *)(scratch + so1_1) + (m * P + p);
            u_.t = s1_b;
            atom_xchg(w_ + 0, u_.w[0]);
        }
        mem_fence(CLK_GLOBAL_MEM_FENCE);
        last_[0] = atomic_inc((volatile __global int *)scratch + m) == (int)(P - 1);
    }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid != 0 || !last_[0]) return;
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    float s0_a = -INFINITY;
    float s1_a = -INFINITY; double s1_b = 0;
    for (long q = 0; q < P; q++) {
        float o0_a;
        {
            union { float t; uint w[1]; } u_;
            volatile __global uint *w_ = (volatile __global uint *)(scratch + so0_0) + (m * P + q);
            u_.w[0] = atomic_add(w_ + 0, 0);
            o0_a = u_.t;
        }
        if (o0_a > s0_a || isnan(o0_a)) s0_a = o0_a;
        float o1_a;
        {
            union { float t; uint w[1]; } u_;
            volatile __global uint *w_ = (volatile __global uint *)(scratch + so1_0) + (m * P + q);
            u_.w[0] = atomic_add(w_ + 0, 0);
            o1_a = u_.t;
        }
        double o1_b;
        {
            union { double t; ulong w[1]; } u_;
            volatile __global ulong *w_ = (volatile __global ulong *)(scratch + so1_1) + (m * P + q);
            u_.w[0] = atom_add(w_ + 0, 0);
            o1_b = u_.t;
        }
        if (o1_a > s1_a) { s1_b = s1_b * exp((double)s1_a - (double)o1_a) + o1_b; s1_a = o1_a; }
        else if (o1_a != -INFINITY) s1_b += o1_b * exp((double)o1_a - (double)s1_a);
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

