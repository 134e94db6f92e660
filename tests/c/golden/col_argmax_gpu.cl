/* ---- kernel 0: schedule "reduce: blocks of 256 adjacent outputs x chunks of rows, last group combines", 1 launch: lc_reduce_i64_5dbbaeb8ae8958f1 */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
/* lazycl reduce kernel: 2 fused ops; reduce: blocks of 256 adjacent outputs x chunks of rows, last group combines. */
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
__kernel void lc_reduce_i64_5dbbaeb8ae8958f1(
    __global long *restrict out0,
    __global int *restrict out1,
    __global const int *restrict a0, const long a0_o, const long a0_s1,
    const long n0,
    const long n1,
    __global char *scratch_, const long sbase, const long P, const long N, const long M, const long so0_0, const long so0_1, const long so1_0)
{
    __local int last_[1];
    __global char *scratch = scratch_ + sbase;
    const long grp = get_group_id(0);
    const long blk = grp / P, p = grp % P;
    const int lid = get_local_id(0);
    const long i0 = blk * 256 + lid;
    const int valid = i0 < M;
    if (valid) {
        int s0_a = 0; long s0_b = -1;
        int s1_a = INT_MIN;
        const long chunk = (N + P - 1) / P;
        const long r_end = min(N, (p + 1) * chunk);
        for (long r = p * chunk; r < r_end; r++) {
            const long i1 = r;
            const int v0 = a0[a0_o + i0 + i1 * a0_s1]; /* buffer */
            if (s0_b < 0 || v0 > s0_a) { s0_a = v0; s0_b = r; }
            if (v0 > s1_a) s1_a = v0;
        }
        {
            union { int t; uint w[1]; } u_;
            volatile __global uint *w_ = (volatile __global uint *)(scratch + so0_0) + (p * M + i0);
            u_.t = s0_a;
            atomic_xchg(w_ + 0, u_.w[0]);
        }
        {
            union { long t; ulong w[1]; } u_;
            volatile __global ulong *w_ = (volatile __global ulong *)(scratch + so0_1) + (p * M + i0);
            u_.t = s0_b;
            atom_xchg(w_ + 0, u_.w[0]);
        }
        {
            union { int t; uint w[1]; } u_;
            volatile __global uint *w_ = (volatile __global uint *)(scratch + so1_0) + (p * M + i0);
            u_.t = s1_a;
            atomic_xchg(w_ + 0, u_.w[0]);
        }
        mem_fence(CLK_GLOBAL_MEM_FENCE);
    }
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    if (lid == 0)
        last_[0] = atomic_inc((volatile __global int *)scratch + blk) == (int)(P - 1);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (!last_[0] || !valid) return;
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    int s0_a = 0; long s0_b = -1;
    int s1_a = INT_MIN;
    for (long q = 0; q < P; q++) {
        int o0_a;
        {
            union { int t; uint w[1]; } u_;
            volatile __global uint *w_ = (volatile __global uint *)(scratch + so0_0) + (q * M + i0);
            u_.w[0] = atomic_add(w_ + 0, 0);
            o0_a = u_.t;
        }
        long o0_b;
        {
            union { long t; ulong w[1]; } u_;
            volatile __global ulong *w_ = (volatile __global ulong *)(scratch + so0_1) + (q * M + i0);
            u_.w[0] = atom_add(w_ + 0, 0);
            o0_b = u_.t;
        }
        if (o0_b >= 0 && (s0_b < 0 || o0_a > s0_a || (o0_a == s0_a && o0_b < s0_b))) { s0_a = o0_a; s0_b = o0_b; }
        int o1_a;
        {
            union { int t; uint w[1]; } u_;
            volatile __global uint *w_ = (volatile __global uint *)(scratch + so1_0) + (q * M + i0);
            u_.w[0] = atomic_add(w_ + 0, 0);
            o1_a = u_.t;
        }
        if (o1_a > s1_a) s1_a = o1_a;
    }
    const long v1 = s0_b; /* result of argmax */
    const int v2 = (int)s1_a; /* result of max */
    out0[i0] = v1;
    out1[i0] = v2;
}

