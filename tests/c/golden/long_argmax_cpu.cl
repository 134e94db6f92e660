/* ---- kernel 0: schedule "reduce: split over groups of 1 items, last group combines", 1 launch: lc_reduce_i64_5ddc71bf189a4d6e */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
/* lazycl reduce kernel: 1 fused op; reduce: split over groups of 1 items, last group combines. */
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
__kernel void lc_reduce_i64_5ddc71bf189a4d6e(
    __global long *restrict out0,
    __global const int *restrict a0, const long a0_o,
    const long n0,
    __global char *scratch_, const long sbase, const long P, const long N, const long so0_0, const long so0_1)
{
    __local int last_[1];
    __global char *scratch = scratch_ + sbase;
    const long grp = get_group_id(0);
    const long m = grp / P, p = grp % P;
    const int lid = get_local_id(0);
    const long L = get_local_size(0);
    {
    int s0_a = 0; long s0_b = -1;
    const long t = p * L + lid, chunk = (N + P * L - 1) / (P * L);
    const long r_end = min(N, (t + 1) * chunk);
    for (long r = t * chunk; r < r_end; r++) {
        {
        const long i0 = r;
        const int v0 = a0[a0_o + i0]; /* buffer */
        if (s0_b < 0 || v0 > s0_a) { s0_a = v0; s0_b = r; }
        }
    }
    if (lid == 0) {
        {
            union { int t; uint w[1]; } u_;
            volatile __global uint *w_ = (volatile __global uint *)(scratch + so0_0) + (m * P + p);
            u_.t = s0_a;
            atomic_xchg(w_ + 0, u_.w[0]);
        }
        {
            union { long t; ulong w[1]; } u_;
            volatile __global ulong *w_ = (volatile __global ulong *)(scratch + so0_1) + (m * P + p);
            u_.t = s0_b;
            atom_xchg(w_ + 0, u_.w[0]);
        }
        mem_fence(CLK_GLOBAL_MEM_FENCE);
        last_[0] = atomic_inc((volatile __global int *)scratch + m) == (int)(P - 1);
    }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid != 0 || !last_[0]) return;
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    int s0_a = 0; long s0_b = -1;
    for (long q = 0; q < P; q++) {
        int o0_a;
        {
            union { int t; uint w[1]; } u_;
            volatile __global uint *w_ = (volatile __global uint *)(scratch + so0_0) + (m * P + q);
            u_.w[0] = atomic_add(w_ + 0, 0);
            o0_a = u_.t;
        }
        long o0_b;
        {
            union { long t; ulong w[1]; } u_;
            volatile __global ulong *w_ = (volatile __global ulong *)(scratch + so0_1) + (m * P + q);
            u_.w[0] = atom_add(w_ + 0, 0);
            o0_b = u_.t;
        }
        if (o0_b >= 0 && (s0_b < 0 || o0_a > s0_a || (o0_a == s0_a && o0_b < s0_b))) { s0_a = o0_a; s0_b = o0_b; }
    }
    const long v1 = s0_b; /* result of argmax */
    out0[0] = v1;
}

