/* ---- kernel 0: schedule "store 1-d, scatter-add into a local copy per work-group, then into the target", 1 launch: lc_store_f64_91655a6073d1a732 */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
/* lazycl store kernel: 3 fused ops; store 1-d, scatter-add into a local copy per work-group, then into the target. */
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
__kernel void lc_store_f64_91655a6073d1a732(
    __global const double *restrict a0, const long a0_o,
    const double a1_v,
    __global const long *restrict a2, const long a2_o,
    __global double *a3, const long a3_o,
    const long n0,
    const long x4_n,
    __global int *restrict lc_err, const long lo, const long T_)
{
    __local double h_[4096];
    const long l_ = get_local_id(0);
    for (long b_ = l_; b_ < T_; b_ += 256)
        h_[b_] = -0.0;
    barrier(CLK_LOCAL_MEM_FENCE);
    const long N_ = 1 * n0;
    for (long gid = get_global_id(0); gid < N_; gid += get_global_size(0)) {
        const long i0 = gid;
        const double v0 = a0[a0_o + i0]; /* buffer */
        const double v1 = a1_v; /* full */
        const double v2 = (v0 * v1); /* multiply */
        const long v3 = a2[a2_o + i0]; /* buffer */
        const long v4 = lc_gidx((long)v3, x4_n, lc_err, 0); /* index checked for take */
        if ((long)v3 >= -x4_n && (long)v3 < x4_n) {
            const long q_ = a3_o + v4;
#if defined(cl_nv_pragma_unroll)
            asm volatile("red.shared.add.f64 [%0], %1;" :: "l"((ulong)(h_ + (q_ - lo))), "d"(v2) : "memory");
#else
            {
                volatile __local ulong *p_ = (volatile __local ulong *)(h_ + (q_ - lo));
                union { ulong u; double t; } o_, n_;
                ulong e_;
                o_.u = 0;
                do {
                    e_ = o_.u;
                    n_.t = (o_.t + v2);
                    o_.u = atom_cmpxchg(p_, e_, n_.u);
                } while (o_.u != e_);
            }
#endif
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (long b_ = l_; b_ < T_; b_ += 256) {
        const double s_ = h_[b_];
        if (as_ulong(s_) != 0x8000000000000000ul) {
#if defined(cl_nv_pragma_unroll)
            asm volatile("red.global.add.f64 [%0], %1;" :: "l"(a3 + lo + b_), "d"(s_) : "memory");
#else
            {
                volatile __global ulong *p_ = (volatile __global ulong *)(a3 + lo + b_);
                union { ulong u; double t; } o_, n_;
                ulong e_;
                o_.u = 0;
                do {
                    e_ = o_.u;
                    n_.t = (o_.t + s_);
                    o_.u = atom_cmpxchg(p_, e_, n_.u);
                } while (o_.u != e_);
            }
#endif
        }
    }
}

