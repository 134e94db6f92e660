/* ---- kernel 0: schedule "store 1-d, scatter-add by ranges of 2048 places: tiles ordered by range, then each range summed in local memory", 2 launches: lc_store_f64_8d4ad6485319476b_part lc_store_f64_8d4ad6485319476b_acc */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
/* lazycl store kernel: 3 fused ops; store 1-d, scatter-add by ranges of 2048 places: tiles ordered by range, then each range summed in local memory. */
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
#define WG_ 256
#define T_ 2048
#define RB_ 2048
#define TB_ 12288
static inline long lc_gidx_d(const long i, const long n, long *bad, const int axis) {
    const long j = i < 0 ? i + n : i;
    if (j >= 0 && j < n)
        return j;
    if (!bad[0]) {
        bad[0] = 1;
        bad[1] = i;
        bad[2] = n;
        bad[3] = axis;
    }
    return 0;
}
#define lc_gidx(i, n, err, axis) lc_gidx_d(i, n, bad_, axis)
__kernel __attribute__((reqd_work_group_size(WG_, 1, 1)))
void lc_store_f64_8d4ad6485319476b_part(
    __global const float *restrict a0, const long a0_o,
    __global const long *restrict a1, const long a1_o,
    __global double *a2, const long a2_o,
    const long n0,
    const long x3_n,
    __global int *restrict lc_err,
    __global char *scratch_, const long sbase, const long lo, const long R_, const long ntiles_, const long tpg_)
{
    __global uint *toff_ = (__global uint *)(scratch_ + sbase + ntiles_ * TB_);
    __local uint c_[256], s_[WG_];
    __local ushort sb_[T_];
    __local float sv_[T_];
    const int lid = get_local_id(0);
    const long t_ = get_group_id(0), base_ = t_ * T_, N_ = 1 * n0;
    for (int i_ = lid; i_ < R_; i_ += WG_)
        c_[i_] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    int rr_[8];
    uint sl_[8];
    ushort bb_[8];
    float vv_[8];
    long bad_[4] = {0, 0, 0, 0};
    if (base_ + T_ <= N_) {
#pragma unroll
    for (int j_ = 0; j_ < 8; j_++) {
        const long gid = base_ + j_ * WG_ + lid;
        rr_[j_] = -1;
         {
        const long i0 = gid;
        const float v0 = a0[a0_o + i0]; /* buffer */
        const double v1 = (double)(v0); /* astype */
        const long v2 = a1[a1_o + i0]; /* buffer */
        const long v3 = lc_gidx((long)v2, x3_n, lc_err, 0); /* index checked for take */
        if ((long)v2 >= -x3_n && (long)v2 < x3_n) {
            const long q_ = a2_o + v3;
            const long e_ = q_ - lo;
            rr_[j_] = (int)(e_ >> 11);
            bb_[j_] = (ushort)(e_ & (RB_ - 1));
            vv_[j_] = v0;
        }
        }
    }
    } else {
#pragma unroll
    for (int j_ = 0; j_ < 8; j_++) {
        const long gid = base_ + j_ * WG_ + lid;
        rr_[j_] = -1;
        if (gid < N_) {
        const long i0 = gid;
        const float v0 = a0[a0_o + i0]; /* buffer */
        const double v1 = (double)(v0); /* astype */
        const long v2 = a1[a1_o + i0]; /* buffer */
        const long v3 = lc_gidx((long)v2, x3_n, lc_err, 0); /* index checked for take */
        if ((long)v2 >= -x3_n && (long)v2 < x3_n) {
            const long q_ = a2_o + v3;
            const long e_ = q_ - lo;
            rr_[j_] = (int)(e_ >> 11);
            bb_[j_] = (ushort)(e_ & (RB_ - 1));
            vv_[j_] = v0;
        }
        }
    }
    }
#undef lc_gidx
    if (bad_[0])
        lc_gidx(bad_[1], bad_[2], lc_err, (int)bad_[3]);
#pragma unroll
    for (int j_ = 0; j_ < 8; j_++)
        if (rr_[j_] >= 0)
            sl_[j_] = atomic_inc(&c_[rr_[j_]]);
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint x_ = lid < R_ ? c_[lid] : 0u;
    s_[lid] = x_;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int o_ = 1; o_ < R_; o_ <<= 1) {
        const uint y_ = lid >= o_ ? s_[lid - o_] : 0u;
        barrier(CLK_LOCAL_MEM_FENCE);
        s_[lid] += y_;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    const uint kept_ = s_[R_ - 1];
    if (lid < R_) {
        c_[lid] = s_[lid] - x_;
        toff_[t_ * (R_ + 1) + lid] = s_[lid] - x_;
    }
    if (lid == 0)
        toff_[t_ * (R_ + 1) + R_] = kept_;
    barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
    for (int j_ = 0; j_ < 8; j_++)
        if (rr_[j_] >= 0) {
            const uint p_ = c_[rr_[j_]] + sl_[j_];
            sb_[p_] = bb_[j_];
            sv_[p_] = vv_[j_];
        }
    barrier(CLK_LOCAL_MEM_FENCE);
    __global ushort *pb_ =
        (__global ushort *)(scratch_ + sbase + t_ * TB_);
    __global float *pv_ =
        (__global float *)(scratch_ + sbase + t_ * TB_ + T_ * 2);
    for (uint p_ = lid; p_ < kept_; p_ += WG_) {
        pb_[p_] = sb_[p_];
        pv_[p_] = sv_[p_];
    }
}

__kernel __attribute__((reqd_work_group_size(WG_, 1, 1)))
void lc_store_f64_8d4ad6485319476b_acc(__global double *a2, __global const char *restrict scratch_, const long sbase,
    const long lo, const long R_, const long ntiles_, const long tpg_, const long span_)
{
    __global const uint *restrict toff_ = (__global const uint *)(scratch_ + sbase + ntiles_ * TB_);
    __local double h_[RB_];
    const int lid = get_local_id(0), lane_ = lid & 31, w_ = lid >> 5;
    const long r_ = get_group_id(0) % R_, g_ = get_group_id(0) / R_;
    for (int i_ = lid; i_ < RB_; i_ += WG_)
        h_[i_] = -0.0;
    barrier(CLK_LOCAL_MEM_FENCE);
    const long t1_ = min(ntiles_, (g_ + 1) * tpg_);
    for (long t_ = g_ * tpg_ + w_; t_ < t1_; t_ += WG_ / 32) {
        __global const ushort *restrict pb_ =
            (__global const ushort *)(scratch_ + sbase + t_ * TB_);
        __global const float *restrict pv_ =
            (__global const float *)(scratch_ + sbase + t_ * TB_ + T_ * 2);
        const uint end_ = toff_[t_ * (R_ + 1) + r_ + 1];
        for (uint i_ = toff_[t_ * (R_ + 1) + r_] + lane_; i_ < end_; i_ += 32) {
            const double v_ = (double)pv_[i_];
#if defined(cl_nv_pragma_unroll)
            asm volatile("red.shared.add.f64 [%0], %1;" :: "l"((ulong)(h_ + pb_[i_])), "d"(v_) : "memory");
#else
            {
                volatile __local ulong *p_ = (volatile __local ulong *)(h_ + pb_[i_]);
                union { ulong u; double t; } o_, n_;
                ulong e_;
                o_.u = 0;
                do {
                    e_ = o_.u;
                    n_.t = (o_.t + v_);
                    o_.u = atom_cmpxchg(p_, e_, n_.u);
                } while (o_.u != e_);
            }
#endif
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int b_ = lid; b_ < RB_; b_ += WG_) {
        const double s_ = h_[b_];
        if (as_ulong(s_) != 0x8000000000000000ul && r_ * RB_ + b_ < span_) {
#if defined(cl_nv_pragma_unroll)
            asm volatile("red.global.add.f64 [%0], %1;" :: "l"(a2 + lo + r_ * RB_ + b_), "d"(s_) : "memory");
#else
            {
                volatile __global ulong *p_ = (volatile __global ulong *)(a2 + lo + r_ * RB_ + b_);
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

