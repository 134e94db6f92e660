/* ---- kernel 0: schedule "store 1-d, scatter-add into private copies, then their sum", 2 launches: lc_store_f64_55274b1971fc289a_acc lc_store_f64_55274b1971fc289a_merge */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
/* lazycl store kernel: 3 fused ops; store 1-d, scatter-add into private copies, then their sum. */
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
__kernel void lc_store_f64_55274b1971fc289a_acc(
    __global const float *restrict a0, const long a0_o,
    __global const long *restrict a1, const long a1_o,
    __global double *a2, const long a2_o,
    const long n0,
    const long x3_n,
    __global int *restrict lc_err,
    __global char *scratch_, const long sbase, const long G, const long T, const long lo)
{
    const long g_ = get_global_id(0);
    __global double *p_ = (__global double *)(scratch_ + sbase) + g_ * T;
    for (long b_ = 0; b_ < T; b_++)
        p_[b_] = -0.0;
    const long N_ = 1 * n0;
#pragma clang loop vectorize(disable) interleave(disable)
    for (long gid = N_ * g_ / G; gid < N_ * (g_ + 1) / G; gid++) {
        const long i0 = gid;
        const float v0 = a0[a0_o + i0]; /* buffer */
        const double v1 = (double)(v0); /* astype */
        const long v2 = a1[a1_o + i0]; /* buffer */
        const long v3 = lc_gidx((long)v2, x3_n, lc_err, 0); /* index checked for take */
        if ((long)v2 >= -x3_n && (long)v2 < x3_n) {
            const long q_ = a2_o + v3;
            p_[q_ - lo] = (p_[q_ - lo] + v1);
        }
    }
}

__kernel void lc_store_f64_55274b1971fc289a_merge(__global double *a2, __global char *scratch_, const long sbase,
    const long G, const long T, const long lo)
{
    const long b_ = get_global_id(0);
    if (b_ >= T)
        return;
    __global const double *p_ = (__global const double *)(scratch_ + sbase) + b_;
    double s_ = p_[0];
    for (long g_ = 1; g_ < G; g_++)
        s_ = (s_ + p_[g_ * T]);
    a2[lo + b_] = (a2[lo + b_] + s_);
}

