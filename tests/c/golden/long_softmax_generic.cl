/* ---- kernel 0: schedule "reduce: split over groups of 1 items, last group combines", 1 launch: lc_reduce_f32_52fcbcf74e5fc9ed */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
/* lazycl reduce kernel: 2 fused ops; reduce: split over groups of 1 items, last group combines. */
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
__kernel void lc_reduce_f32_52fcbcf74e5fc9ed(
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
    for (long r = t * chunk; r < r_end; r++) {
        {
        const long i0 = r;
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

/* ---- kernel 1: schedule "map 1-d, one item per element", 1 launch: lc_map_f32_97ac0d4980e9f80f */
#pragma OPENCL FP_CONTRACT OFF
/* lazycl map kernel: 5 fused ops; map 1-d, one item per element. */
__kernel void lc_map_f32_97ac0d4980e9f80f(
    __global float *restrict out0,
    __global const float *restrict a0, const long a0_o,
    __global const float *restrict a1, const long a1_o,
    __global const float *restrict a2, const long a2_o,
    const long n0)
{
    const long i0 = get_global_id(0);
    const float v0 = a0[a0_o + i0]; /* buffer */
    const float v1 = a1[a1_o]; /* max */
    const float v2 = (v0 - v1); /* subtract */
    const float v3 = (exp(v2)); /* exp */
    const float v4 = a2[a2_o]; /* sumexp */
    const float v5 = ((v3 / v4)); /* true_divide */
    out0[i0] = v5;
}

