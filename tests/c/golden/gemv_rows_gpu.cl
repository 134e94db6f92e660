/* ---- kernel 0: schedule "reduce: split over groups of 256 items, last group combines", 1 launch: lc_reduce_f32_a8708f8c6b633a8d */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
/* lazycl reduce kernel: 4 fused ops; reduce: split over groups of 256 items, last group combines. */
__kernel void lc_reduce_f32_a8708f8c6b633a8d(
    __global float *restrict out0,
    __global const float *restrict a0, const long a0_o, const long a0_s0,
    __global const float *restrict a1, const long a1_o,
    __global const float *restrict a2, const long a2_o,
    const float a3_v,
    const long n0,
    const long n1,
    __global char *scratch_, const long sbase, const long P, const long N, const long so0_0)
{
    __local float ls0_0[256];
    __local int last_[1];
    __global char *scratch = scratch_ + sbase;
    const long grp = get_group_id(0);
    const long m = grp / P, p = grp % P;
    const int lid = get_local_id(0);
    const long L = get_local_size(0);
    const long i0 = m;
    {
    float s0_a = 0;
    for (long r = p * L + lid; r < N; r += P * L) {
        {
        const long i1 = r;
        const float v0 = a0[a0_o + i0 * a0_s0 + i1]; /* buffer */
        const float v1 = a1[a1_o + i1]; /* buffer */
        const float v2 = (v0 * v1); /* multiply */
        s0_a += (float)v2;
        }
    }
    ls0_0[lid] = s0_a;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int w = 256 / 2; w > 0; w >>= 1) {
        if (lid < w) {
            float o0_a = ls0_0[lid + w];
            s0_a = ls0_0[lid];
            s0_a += o0_a;
            ls0_0[lid] = s0_a;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    s0_a = ls0_0[0];
    if (lid == 0) {
        {
            union { float t; uint w[1]; } u_;
            volatile __global uint *w_ = (volatile __global uint *)(scratch + so0_0) + (m * P + p);
            u_.t = s0_a;
            atomic_xchg(w_ + 0, u_.w[0]);
        }
        mem_fence(CLK_GLOBAL_MEM_FENCE);
        last_[0] = atomic_inc((volatile __global int *)scratch + m) == (int)(P - 1);
    }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (!last_[0]) return;
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    float s0_a = 0;
    for (long q = lid; q < P; q += L) {
        float o0_a;
        {
            union { float t; uint w[1]; } u_;
            volatile __global uint *w_ = (volatile __global uint *)(scratch + so0_0) + (m * P + q);
            u_.w[0] = atomic_add(w_ + 0, 0);
            o0_a = u_.t;
        }
        s0_a += o0_a;
    }
    ls0_0[lid] = s0_a;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid != 0) return;
    for (int w = 1; w < L; w++) {
        const float o0_a = ls0_0[w];
        s0_a += o0_a;
    }
    const float v3 = (float)s0_a; /* result of sum */
    const float v4 = a2[a2_o + i0]; /* buffer */
    const float v5 = (v3 + v4); /* add */
    const float v6 = a3_v; /* full */
    const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
    out0[i0] = v7;
}

