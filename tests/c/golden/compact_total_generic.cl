/* ---- kernel 0: schedule "store with its scan: three phases over chunks of each row", 3 launches: lc_store_f64_600cae11ea9a7920_p1 lc_store_f64_600cae11ea9a7920_p2 lc_store_f64_600cae11ea9a7920_p3 */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
/* lazycl store kernel: 6 fused ops; store with its scan: three phases over chunks of each row. */
__kernel void lc_store_f64_600cae11ea9a7920_p1(
    __global const double *restrict a0, const long a0_o,
    const double a1_v,
    const int a2_v,
    __global double *a3, const long a3_o,
    const long n0,
    const long x7_n, const long M, __global char *part_, const long sbase, const long P)
{
    __global uint *part = (__global uint *)(part_ + sbase);
    const long g_ = get_global_id(0);
    const long m = g_ / P, q = g_ % P;
    if (m >= M) return;
    const long chunk = (n0 + P - 1) / P;
    const long end = min(n0, (q + 1) * chunk);
    uint sacc_ = 0;
    for (long i0 = q * chunk; i0 < end; i0++) {
        const double v0 = a0[a0_o + i0]; /* buffer */
        const double v1 = a1_v; /* full */
        const uchar v2 = (uchar)((v0 > v1)); /* greater */
        const int v3 = (int)(v2); /* astype */
        sacc_ += (uint)v3;
    }
    part[m * P + q] = sacc_;
}
__kernel void lc_store_f64_600cae11ea9a7920_p2(
    __global const double *restrict a0, const long a0_o,
    const double a1_v,
    const int a2_v,
    __global double *a3, const long a3_o,
    const long n0,
    const long x7_n, const long M, __global char *part_, const long sbase, const long P)
{
    __global uint *part = (__global uint *)(part_ + sbase);
    const long m = get_global_id(0);
    if (m >= M) return;
    uint sacc_ = 0;
    for (long q = 0; q < P; q++) {
        const uint t = part[m * P + q];
        part[m * P + q] = sacc_;
        sacc_ += (uint)t;
    }
}
__kernel void lc_store_f64_600cae11ea9a7920_p3(
    __global const double *restrict a0, const long a0_o,
    const double a1_v,
    const int a2_v,
    __global double *a3, const long a3_o,
    const long n0,
    const long x7_n, const long M, __global char *part_, const long sbase, const long P)
{
    __global uint *part = (__global uint *)(part_ + sbase);
    const long g_ = get_global_id(0);
    const long m = g_ / P, q = g_ % P;
    if (m >= M) return;
    const double v1 = a1_v; /* full */
    const int v5 = a2_v; /* full */
    const long chunk = (n0 + P - 1) / P;
    const long end = min(n0, (q + 1) * chunk);
    uint sacc_ = part[m * P + q];
    for (long i0 = q * chunk; i0 < end; i0++) {
        const double v0 = a0[a0_o + i0]; /* buffer */
        const uchar v2 = (uchar)((v0 > v1)); /* greater */
        const int v3 = (int)(v2); /* astype */
        sacc_ += (uint)v3;
        const int v4 = (int)sacc_; /* running cumsum */
        const int v6 = (int)((uint)v4 - (uint)v5); /* subtract */
        const long v7 = (long)min((ulong)v6, (ulong)(x7_n - 1)); /* index clamped for take */
        if (v2) {
            a3[a3_o + v7] = v0;
        }
    }
}

/* ---- kernel 1: schedule "reduce: split over groups of 1 items, last group combines", 1 launch: lc_reduce_i32_d61f2900ddf6f855 */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
/* lazycl reduce kernel: 3 fused ops; reduce: split over groups of 1 items, last group combines. */
__kernel void lc_reduce_i32_d61f2900ddf6f855(
    __global int *restrict out0,
    __global const double *restrict a0, const long a0_o,
    const double a1_v,
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
    uint s0_a = 0;
    const long t = p * L + lid, chunk = (N + P * L - 1) / (P * L);
    const long r_end = min(N, (t + 1) * chunk);
    for (long r = t * chunk; r < r_end; r++) {
        {
        const long i0 = r;
        const double v0 = a0[a0_o + i0]; /* buffer */
        const double v1 = a1_v; /* full */
        const uchar v2 = (uchar)((v0 > v1)); /* greater */
        const int v3 = (int)(v2); /* astype */
        s0_a += (uint)v3;
        }
    }
    if (lid == 0) {
        {
            union { uint t; uint w[1]; } u_;
            volatile __global uint *w_ = (volatile __global uint *)(scratch + so0_0) + (m * P + p);
            u_.t = s0_a;
            atomic_xchg(w_ + 0, u_.w[0]);
        }
        mem_fence(CLK_GLOBAL_MEM_FENCE);
        last_[0] = atomic_inc((volatile __global int *)scratch + m) == (int)(P - 1);
    }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid != 0 || !last_[0]) return;
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    uint s0_a = 0;
    for (long q = 0; q < P; q++) {
        uint o0_a;
        {
            union { uint t; uint w[1]; } u_;
            volatile __global uint *w_ = (volatile __global uint *)(scratch + so0_0) + (m * P + q);
            u_.w[0] = atomic_add(w_ + 0, 0);
            o0_a = u_.t;
        }
        s0_a += o0_a;
    }
    const int v4 = (int)s0_a; /* result of sum */
    out0[0] = v4;
}

