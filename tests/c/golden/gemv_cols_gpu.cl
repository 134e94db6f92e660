/* ---- kernel 0: schedule "reduce: blocks of 256 adjacent outputs x chunks of rows, last group combines", 1 launch: lc_reduce_f32_269b1ac3e3779a32 */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
/* lazycl reduce kernel: 3 fused ops; reduce: blocks of 256 adjacent outputs x chunks of rows, last group combines. */
__kernel void lc_reduce_f32_269b1ac3e3779a32(
    __global float *restrict out0,
    __global const float *restrict a0, const long a0_o,
    __global const float *restrict a1, const long a1_o, const long a1_s1,
    const float a2_v,
    const long n0,
    const long n1,
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
        float s0_a = 0;
        const long chunk = (N + P - 1) / P;
        const long r_end = min(N, (p + 1) * chunk);
        for (long r = p * chunk; r < r_end; r++) {
            const long i1 = r;
            const float v0 = a0[a0_o + i1]; /* buffer */
            const float v1 = a1[a1_o + i0 + i1 * a1_s1]; /* buffer */
            const float v2 = (v0 * v1); /* multiply */
            s0_a += (float)v2;
        }
        {
            union { float t; uint w[1]; } u_;
            volatile __global uint *w_ = (volatile __global uint *)(scratch + so0_0) + (p * M + i0);
            u_.t = s0_a;
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
    float s0_a = 0;
    for (long q = 0; q < P; q++) {
        float o0_a;
        {
            union { float t; uint w[1]; } u_;
            volatile __global uint *w_ = (volatile __global uint *)(scratch + so0_0) + (q * M + i0);
            u_.w[0] = atomic_add(w_ + 0, 0);
            o0_a = u_.t;
        }
        s0_a += o0_a;
    }
    const float v3 = (float)s0_a; /* result of sum */
    const float v4 = a2_v; /* full */
    const float v5 = (v3 * v4); /* multiply */
    out0[i0] = v5;
}

