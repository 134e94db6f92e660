/* ---- kernel 0: schedule "store 1-d, one item per element, combined atomically", 1 launch: lc_store_f64_400ede26d399a4b5 */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
/* lazycl store kernel: 3 fused ops; store 1-d, one item per element, combined atomically. */
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
__kernel void lc_store_f64_400ede26d399a4b5(
    __global const float *restrict a0, const long a0_o,
    __global const long *restrict a1, const long a1_o,
    __global double *a2, const long a2_o,
    const long n0,
    const long x3_n,
    __global int *restrict lc_err)
{
    const long i0 = get_global_id(0);
    if (i0 >= n0) return;
    const float v0 = a0[a0_o + i0]; /* buffer */
    const double v1 = (double)(v0); /* astype */
    const long v2 = a1[a1_o + i0]; /* buffer */
    const long v3 = lc_gidx((long)v2, x3_n, lc_err, 0); /* index checked for take */
    if ((long)v2 >= -x3_n && (long)v2 < x3_n) {
#if defined(cl_nv_pragma_unroll)
        asm volatile("red.global.add.f64 [%0], %1;" :: "l"(a2 + a2_o + v3), "d"(v1) : "memory");
#else
        {
            volatile __global ulong *p_ = (volatile __global ulong *)(a2 + a2_o + v3);
            union { ulong u; double t; } o_, n_;
            ulong e_;
            o_.u = 0;
            do {
                e_ = o_.u;
                n_.t = (o_.t + v1);
                o_.u = atom_cmpxchg(p_, e_, n_.u);
            } while (o_.u != e_);
        }
#endif
    }
}

