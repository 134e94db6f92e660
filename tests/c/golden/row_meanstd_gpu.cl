/* ---- kernel 0: schedule "reduce: split over groups of 256 items, last group combines", 1 launch: lc_reduce_f64_696787df89639355 */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
/* lazycl reduce kernel: 3 fused ops; reduce: split over groups of 256 items, last group combines. */
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
__kernel void lc_reduce_f64_696787df89639355(
    __global double *restrict out0,
    __global double *restrict out1,
    __global const double *restrict a0, const long a0_o, const long a0_s0,
    const long n0,
    const long n1,
    __global char *scratch_, const long sbase, const long P, const long N, const long so0_0, const long so0_1, const long so0_2, const long so1_0, const long so1_1, const long so1_2)
{
    __local double ls0_0[256];
    __local double ls0_1[256];
    __local double ls0_2[256];
    __local double ls1_0[256];
    __local double ls1_1[256];
    __local double ls1_2[256];
    __local int last_[1];
    __global char *scratch = scratch_ + sbase;
    const long grp = get_group_id(0);
    const long m = grp / P, p = grp % P;
    const int lid = get_local_id(0);
    const long L = get_local_size(0);
    const long i0 = m;
    {
    double s0_a = 0, s0_b = 0, s0_c = 0;
    double s1_a = 0, s1_b = 0, s1_c = 0;
    for (long r = p * L + lid; r < N; r += P * L) {
        {
        const long i1 = r;
        const double v0 = a0[a0_o + i0 * a0_s0 + i1]; /* buffer */
        { const double x_ = (double)v0; s0_a += 1; const double d_ = x_ - s0_b; s0_b += d_ / s0_a; s0_c += d_ * (x_ - s0_b); }
        { const double x_ = (double)v0; s1_a += 1; const double d_ = x_ - s1_b; s1_b += d_ / s1_a; s1_c += d_ * (x_ - s1_b); }
        }
    }
    ls0_0[lid] = s0_a;
    ls0_1[lid] = s0_b;
    ls0_2[lid] = s0_c;
    ls1_0[lid] = s1_a;
    ls1_1[lid] = s1_b;
    ls1_2[lid] = s1_c;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int w = 256 / 2; w > 0; w >>= 1) {
        if (lid < w) {
            double o0_a = ls0_0[lid + w];
            double o0_b = ls0_1[lid + w];
            double o0_c = ls0_2[lid + w];
            s0_a = ls0_0[lid];
            s0_b = ls0_1[lid];
            s0_c = ls0_2[lid];
            if (o0_a > 0) { const double n_ = s0_a + o0_a; const double d_ = o0_b - s0_b; s0_b += d_ * (o0_a / n_); s0_c += o0_c + d_ * d_ * (s0_a * o0_a / n_); s0_a = n_; }
            ls0_0[lid] = s0_a;
            ls0_1[lid] = s0_b;
            ls0_2[lid] = s0_c;
            double o1_a = ls1_0[lid + w];
            double o1_b = ls1_1[lid + w];
            double o1_c = ls1_2[lid + w];
            s1_a = ls1_0[lid];
            s1_b = ls1_1[lid];
            s1_c = ls1_2[lid];
            if (o1_a > 0) { const double n_ = s1_a + o1_a; const double d_ = o1_b - s1_b; s1_b += d_ * (o1_a / n_); s1_c += o1_c + d_ * d_ * (s1_a * o1_a / n_); s1_a = n_; }
            ls1_0[lid] = s1_a;
            ls1_1[lid] = s1_b;
            ls1_2[lid] = s1_c;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    s0_a = ls0_0[0];
    s0_b = ls0_1[0];
    s0_c = ls0_2[0];
    s1_a = ls1_0[0];
    s1_b = ls1_1[0];
    s1_c = ls1_2[0];
    if (lid == 0) {
        {
            union { double t; ulong w[1]; } u_;
            volatile __global ulong *w_ = (volatile __global ulong *)(scratch + so0_0) + (m * P + p);
            u_.t = s0_a;
            atom_xchg(w_ + 0, u_.w[0]);
        }
        {
            union { double t; ulong w[1]; } u_;
            volatile __global ulong *w_ = (volatile __global ulong *)(scratch + so0_1) + (m * P + p);
            u_.t = s0_b;
            atom_xchg(w_ + 0, u_.w[0]);
        }
        {
            union { double t; ulong w[1]; } u_;
            volatile __global ulong *w_ = (volatile __global ulong *)(scratch + so0_2) + (m * P + p);
            u_.t = s0_c;
            atom_xchg(w_ + 0, u_.w[0]);
        }
        {
            union { double t; ulong w[1]; } u_;
            volatile __global ulong *w_ = (volatile __global ulong *)(scratch + so1_0) + (m * P + p);
            u_.t = s1_a;
            atom_xchg(w_ + 0, u_.w[0]);
        }
        {
            union { double t; ulong w[1]; } u_;
            volatile __global ulong *w_ = (volatile __global ulong *)(scratch + so1_1) + (m * P + p);
            u_.t = s1_b;
            atom_xchg(w_ + 0, u_.w[0]);
        }
        {
            union { double t; ulong w[1]; } u_;
            volatile __global ulong *w_ = (volatile __global ulong *)(scratch + so1_2) + (m * P + p);
            u_.t = s1_c;
            atom_xchg(w_ + 0, u_.w[0]);
        }
        mem_fence(CLK_GLOBAL_MEM_FENCE);
        last_[0] = atomic_inc((volatile __global int *)scratch + m) == (int)(P - 1);
    }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (!last_[0]) return;
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    double s0_a = 0, s0_b = 0, s0_c = 0;
    double s1_a = 0, s1_b = 0, s1_c = 0;
    for (long q = lid; q < P; q += L) {
        double o0_a;
        {
            union { double t; ulong w[1]; } u_;
            volatile __global ulong *w_ = (volatile __global ulong *)(scratch + so0_0) + (m * P + q);
            u_.w[0] = atom_add(w_ + 0, 0);
            o0_a = u_.t;
        }
        double o0_b;
        {
            union { double t; ulong w[1]; } u_;
            volatile __global ulong *w_ = (volatile __global ulong *)(scratch + so0_1) + (m * P + q);
            u_.w[0] = atom_add(w_ + 0, 0);
            o0_b = u_.t;
        }
        double o0_c;
        {
            union { double t; ulong w[1]; } u_;
            volatile __global ulong *w_ = (volatile __global ulong *)(scratch + so0_2) + (m * P + q);
            u_.w[0] = atom_add(w_ + 0, 0);
            o0_c = u_.t;
        }
        if (o0_a > 0) { const double n_ = s0_a + o0_a; const double d_ = o0_b - s0_b; s0_b += d_ * (o0_a / n_); s0_c += o0_c + d_ * d_ * (s0_a * o0_a / n_); s0_a = n_; }
        double o1_a;
        {
            union { double t; ulong w[1]; } u_;
            volatile __global ulong *w_ = (volatile __global ulong *)(scratch + so1_0) + (m * P + q);
            u_.w[0] = atom_add(w_ + 0, 0);
            o1_a = u_.t;
        }
        double o1_b;
        {
            union { double t; ulong w[1]; } u_;
            volatile __global ulong *w_ = (volatile __global ulong *)(scratch + so1_1) + (m * P + q);
            u_.w[0] = atom_add(w_ + 0, 0);
            o1_b = u_.t;
        }
        double o1_c;
        {
            union { double t; ulong w[1]; } u_;
            volatile __global ulong *w_ = (volatile __global ulong *)(scratch + so1_2) + (m * P + q);
            u_.w[0] = atom_add(w_ + 0, 0);
            o1_c = u_.t;
        }
        if (o1_a > 0) { const double n_ = s1_a + o1_a; const double d_ = o1_b - s1_b; s1_b += d_ * (o1_a / n_); s1_c += o1_c + d_ * d_ * (s1_a * o1_a / n_); s1_a = n_; }
    }
    ls0_0[lid] = s0_a;
    ls0_1[lid] = s0_b;
    ls0_2[lid] = s0_c;
    ls1_0[lid] = s1_a;
    ls1_1[lid] = s1_b;
    ls1_2[lid] = s1_c;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid != 0) return;
    for (int w = 1; w < L; w++) {
        const double o0_a = ls0_0[w];
        const double o0_b = ls0_1[w];
        const double o0_c = ls0_2[w];
        if (o0_a > 0) { const double n_ = s0_a + o0_a; const double d_ = o0_b - s0_b; s0_b += d_ * (o0_a / n_); s0_c += o0_c + d_ * d_ * (s0_a * o0_a / n_); s0_a = n_; }
        const double o1_a = ls1_0[w];
        const double o1_b = ls1_1[w];
        const double o1_c = ls1_2[w];
        if (o1_a > 0) { const double n_ = s1_a + o1_a; const double d_ = o1_b - s1_b; s1_b += d_ * (o1_a / n_); s1_c += o1_c + d_ * d_ * (s1_a * o1_a / n_); s1_a = n_; }
    }
    const double v1 = (double)(s1_c / fmax(s1_a - (double)0, (double)0)); /* result of var */
    const double v2 = (sqrt(v1)); /* sqrt */
    const double v3 = (double)(s0_a > 0 ? s0_b : NAN); /* result of var */
    out0[i0] = v3;
    out1[i0] = v2;
}

