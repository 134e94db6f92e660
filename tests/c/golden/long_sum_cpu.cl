/* ---- kernel 0: schedule "reduce: split over groups of 1 items, last group combines, 8-wide SIMD", 1 launch: lc_reduce_f32_02ea53ab23dcf5d0 */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
/* lazycl reduce kernel: 1 fused op; reduce: split over groups of 1 items, last group combines, 8-wide SIMD. */
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
__kernel void lc_reduce_f32_02ea53ab23dcf5d0(
    __global float *restrict out0,
    __global const float *restrict a0, const long a0_o,
    const long n0,
    __global char *scratch_, const long sbase, const long P, const long N, const long so0_0)
{
    __local int last_[1];
    __global char *scratch = scratch_ + sbase;
    const long grp = get_group_id(0);
    const long m = grp / P, p = grp % P;
    const int lid = get_local_id(0);
    const long L = get_local_size(0);
    {
    double s0_a = 0;
    const long t = p * L + lid, chunk = (N + P * L - 1) / (P * L);
    const long r_end = min(N, (t + 1) * chunk);
    {
        double8 q0_a = 0;
        long i0 = t * chunk;
        for (; i0 + 8 <= r_end; i0 += 8) {
            const float8 w0 = vload8(0, a0 + (a0_o + i0)); /* buffer */
            q0_a += convert_double8(w0);
        }
        s0_a += (double)q0_a.s0;
        s0_a += (double)q0_a.s1;
        s0_a += (double)q0_a.s2;
        s0_a += (double)q0_a.s3;
        s0_a += (double)q0_a.s4;
        s0_a += (double)q0_a.s5;
        s0_a += (double)q0_a.s6;
        s0_a += (double)q0_a.s7;
        for (; i0 < r_end; i0++) {
            const float v0 = a0[a0_o + i0]; /* buffer */
            s0_a += (double)v0;
        }
    }
    if (lid == 0) {
        {
            union { double t; ulong w[1]; } u_;
            volatile __global ulong *w_ = (volatile __global ulong *)(scratch + so0_0) + (m * P + p);
            u_.t = s0_a;
            atom_xchg(w_ + 0, u_.w[0]);
        }
        mem_fence(CLK_GLOBAL_MEM_FENCE);
        last_[0] = atomic_inc((volatile __global int *)scratch + m) == (int)(P - 1);
    }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid != 0 || !last_[0]) return;
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    double s0_a = 0;
    for (long q = 0; q < P; q++) {
        double o0_a;
        {
            union { double t; ulong w[1]; } u_;
            volatile __global ulong *w_ = (volatile __global ulong *)(scratch + so0_0) + (m * P + q);
            u_.w[0] = atom_add(w_ + 0, 0);
            o0_a = u_.t;
        }
        s0_a += o0_a;
    }
    const float v1 = (float)s0_a; /* result of sum */
    out0[0] = v1;
}

