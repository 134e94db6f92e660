/* ---- kernel 0: schedule "reduce: blocks of 256 adjacent outputs x chunks of rows, last group combines", 1 launch: lc_reduce_f32_82392d5a065709c7 */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
/* lazycl reduce kernel: 3 fused ops; reduce: blocks of 256 adjacent outputs x chunks of rows, last group combines. */
static inline long lc_gidx(const long i, const long n, __global int *err, const int axis) {
    const long j = i < 0 ? i + n : i;
    if (j >= 0 && j < n)
        return j;
    if (atomic_cmpxchg(err, 0, 1) == 0) {
        err[1] = axis;
        ((__global long *)err)[1] = i;
        ((__global long *)err)[2] = n;
    }
    return 0;
}
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
__kernel void lc_reduce_f32_82392d5a065709c7(
    __global float *restrict out0,
    __global const int *restrict a0, const long a0_o,
    __global const float *restrict a1, const long a1_o, const long a1_g0,
    const float a2_v,
    const long n0,
    const long n1,
    const long x1_n,
    __global int *restrict lc_err,
    __global char *scratch_, const long sbase, const long P, const long N, const long M, const long so0_0)
{
    __local int last_[1];
    __global char *scratch = scratch_ + sbase;
    const long grp = get_group_id(0);
    const long blk = grp / P, p = grp % P;
    const int lid = get_local_id(0);
    const long i0 = blk * 256 + lid;
    const int valid = i0 < M;
    if (valid) {
        double s0_a = 0;
        const long chunk = (N + P - 1) / P;
        const long r_end = min(N, (p + 1) * chunk);
        for (long r = p * chunk; r < r_end; r++) {
            const long i1 = r;
            const int v0 = a0[a0_o + i0]; /* buffer */
            const long v1 = lc_gidx((long)v0, x1_n, lc_err, 0); /* index checked for take */
            const float v2 = a1[a1_o + i1 + v1 * a1_g0]; /* buffer */
            const float v3 = a2_v; /* full */
            const float v4 = (v2 * v3); /* multiply */
            s0_a += (double)v4;
        }
        {
            union { double t; ulong w[1]; } u_;
            volatile __global ulong *w_ = (volatile __global ulong *)(scratch + so0_0) + (p * M + i0);
            u_.t = s0_a;
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
    double s0_a = 0;
    for (long q = 0; q < P; q++) {
        double o0_a;
        {
            union { double t; ulong w[1]; } u_;
            volatile __global ulong *w_ = (volatile __global ulong *)(scratch + so0_0) + (q * M + i0);
            u_.w[0] = atom_add(w_ + 0, 0);
            o0_a = u_.t;
        }
        s0_a += o0_a;
    }
    const float v5 = (float)s0_a; /* result of sum */
    out0[i0] = v5;
}

