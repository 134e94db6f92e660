/* ---- kernel 0: schedule "reduce: blocks of 256 adjacent outputs x chunks of rows, last group combines", 1 launch: lc_reduce_f32_a9fb9f8a6c5b3559 */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
/* lazycl reduce kernel: 3 fused ops; reduce: blocks of 256 adjacent outputs x chunks of rows, last group combines. */
static inline double lc_var_1(double n, double s1, double s2) {
    const double v = (s2 - s1 * s1 / n) / fmax(n - (double)0, (double)0);
    return v < 0 ? (double)0 : v;
}
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
__kernel void lc_reduce_f32_a9fb9f8a6c5b3559(
    __global float *restrict out0,
    __global float *restrict out1,
    __global const float *restrict a0, const long a0_o, const long a0_s1,
    const long n0,
    const long n1,
    __global char *scratch_, const long sbase, const long P, const long N, const long M, const long so0_0, const long so1_0, const long so1_1, const long so1_2)
{
    __local int last_[1];
    __global char *scratch = scratch_ + sbase;
    const long grp = get_group_id(0);
    const long blk = grp / P, p = grp % P;
    const int lid = get_local_id(0);
    const long i0 = blk * 256 + lid;
    const int valid = i0 < M;
    if (valid) {
        double s1_k = 0;
        if (1 && n1 > 0) {
            const long i1 = 0;
            const float v0 = a0[a0_o + i0 + i1 * a0_s1]; /* buffer */
            s1_k = (double)v0;
        }
        double s0_a = 0;
        double s1_a = 0, s1_b = 0, s1_c = 0;
        const long chunk = (N + P - 1) / P;
        const long r_end = min(N, (p + 1) * chunk);
        for (long r = p * chunk; r < r_end; r++) {
            const long i1 = r;
            const float v0 = a0[a0_o + i0 + i1 * a0_s1]; /* buffer */
            s0_a += (double)v0;
            { const double x_ = (double)v0 - s1_k; s1_a += 1; s1_b += x_; s1_c += x_ * x_; }
        }
        {
            union { double t; ulong w[1]; } u_;
            volatile __global ulong *w_ = (volatile __global ulong *)(scratch + so0_0) + (p * M + i0);
            u_.t = s0_a;
            atom_xchg(w_ + 0, u_.w[0]);
        }
        {
            union { double t; ulong w[1]; } u_;
            volatile __global ulong *w_ = (volatile __global ulong *)(scratch + so1_0) + (p * M + i0);
            u_.t = s1_a;
            atom_xchg(w_ + 0, u_.w[0]);
        }
        {
            union { double t; ulong w[1]; } u_;
            volatile __global ulong *w_ = (volatile __global ulong *)(scratch + so1_1) + (p * M + i0);
            u_.t = s1_b;
            atom_xchg(w_ + 0, u_.w[0]);
        }
        {
            union { double t; ulong w[1]; } u_;
            volatile __global ulong *w_ = (volatile __global ulong *)(scratch + so1_2) + (p * M + i0);
            u_.t = s1_c;
            atom_xchg(w_ + 0, u_.w[0]);
        }
        mem_fence(CLK_GLOBAL_MEM_FENCE);
    }
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    if (lid == 0)
        last_[0] = atomic_inc((volatile __global int *)scratch + blk) == (int)(P - 1);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (!last_[0] || !valid) return;
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    double s1_k = 0;
    if (1 && n1 > 0) {
        const long i1 = 0;
        const float v0 = a0[a0_o + i0 + i1 * a0_s1]; /* buffer */
        s1_k = (double)v0;
    }
    double s0_a = 0;
    double s1_a = 0, s1_b = 0, s1_c = 0;
    for (long q = 0; q < P; q++) {
        double o0_a;
        {
            union { double t; ulong w[1]; } u_;
            volatile __global ulong *w_ = (volatile __global ulong *)(scratch + so0_0) + (q * M + i0);
            u_.w[0] = atom_add(w_ + 0, 0);
            o0_a = u_.t;
        }
        s0_a += o0_a;
        double o1_a;
        {
            union { double t; ulong w[1]; } u_;
            volatile __global ulong *w_ = (volatile __global ulong *)(scratch + so1_0) + (q * M + i0);
            u_.w[0] = atom_add(w_ + 0, 0);
            o1_a = u_.t;
        }
        double o1_b;
        {
            union { double t; ulong w[1]; } u_;
            volatile __global ulong *w_ = (volatile __global ulong *)(scratch + so1_1) + (q * M + i0);
            u_.w[0] = atom_add(w_ + 0, 0);
            o1_b = u_.t;
        }
        double o1_c;
        {
            union { double t; ulong w[1]; } u_;
            volatile __global ulong *w_ = (volatile __global ulong *)(scratch + so1_2) + (q * M + i0);
            u_.w[0] = atom_add(w_ + 0, 0);
            o1_c = u_.t;
        }
        s1_a += o1_a; s1_b += o1_b; s1_c += o1_c;
    }
    const float v1 = (float)lc_var_1(s1_a, s1_b, s1_c); /* result of var */
    const float v2 = (sqrt(v1)); /* sqrt */
    const float v3 = (float)s0_a; /* result of sum */
    out0[i0] = v3;
    out1[i0] = v2;
}

