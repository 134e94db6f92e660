/* ---- kernel 0: schedule "store with its count of flags: tiles of 4096 per work-group in one pass, warp ballots, a decoupled look-back", 1 launch: lc_store_f64_936356f342c27c2b */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
/* lazycl store kernel: 7 fused ops; store with its count of flags: tiles of 4096 per work-group in one pass, warp ballots, a decoupled look-back. */
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#if defined(cl_nv_pragma_unroll)
#define LC_LB_READ(p) (*(p))
#else
#define LC_LB_READ(p) atom_add((p), (ulong)0)
#endif
static inline void lc_lb_put(volatile __global ulong *w, const uint v, const uint st) {
    union { uint t; uint u[1]; } u_;
    u_.u[0] = 0;
    u_.t = v;
    atom_xchg(w + 0, ((ulong)st << 32) | u_.u[0]);
}
/* The state's status (0 until every word shows the same one), its value in *v. */
static inline uint lc_lb_get(volatile __global ulong *w, uint *v) {
    union { uint t; uint u[1]; } u_;
    const ulong a = LC_LB_READ(w);
    u_.u[0] = (uint)a;
    *v = u_.t;
    return (uint)(a >> 32);
}
__kernel void lc_store_f64_936356f342c27c2b(
    __global int *restrict out0,
    __global const double *restrict a0, const long a0_o,
    const double a1_v,
    const int a2_v,
    __global double *a3, const long a3_o,
    const long n0,
    const long x7_n, const long M, __global char *part_, const long sbase, const long P)
{
    __global char *sc_ = part_ + sbase;
    __local uint tot[256];
    __local uint lbv_[32];
    __local uint lbs_[32];
    __local uint lbpre_;
    __local long lbt_;
    __local int lbgo_;
    const int lid = get_local_id(0);
    if (lid == 0)
        lbt_ = atomic_inc((volatile __global uint *)sc_);
    barrier(CLK_LOCAL_MEM_FENCE);
    const long m = lbt_ / P, q = lbt_ % P;
    volatile __global ulong *lb_w = (volatile __global ulong *)(sc_ + 8) + m * P * 1;
    const long base = q * 4096;
    __local uint bal_[128];
    __local uint fl_[256];
    uint fl_me = 0;
    double kv0[16];
    if (base + 4096 <= n0) {
        #pragma unroll
        for (int j = 0; j < 16; j++) {
            const long i0 = base + j * 256 + lid;
            uint x_ = (uint)(0);
            {
                const double v0 = a0[a0_o + i0]; /* buffer */
                const double v1 = a1_v; /* full */
                const uchar v2 = (uchar)((v0 > v1)); /* greater */
                const int v3 = (int)(v2); /* astype */
                kv0[j] = v0;
                x_ = (uint)v3;
            }
            fl_me |= (uint)(x_ != 0) << j;
        }
    } else {
        #pragma unroll
        for (int j = 0; j < 16; j++) {
            const long i0 = base + j * 256 + lid;
            uint x_ = (uint)(0);
            if (i0 < n0) {
                const double v0 = a0[a0_o + i0]; /* buffer */
                const double v1 = a1_v; /* full */
                const uchar v2 = (uchar)((v0 > v1)); /* greater */
                const int v3 = (int)(v2); /* astype */
                kv0[j] = v0;
                x_ = (uint)v3;
            }
            fl_me |= (uint)(x_ != 0) << j;
        }
    }
    const int lane_ = lid & 31, w_ = lid >> 5;
#if defined(cl_nv_pragma_unroll)
    #pragma unroll
    for (int j = 0; j < 16; j++) {
        uint b_;
        asm volatile("{ .reg .pred p; setp.ne.u32 p, %1, 0; vote.sync.ballot.b32 %0, p, 0xffffffff; }" : "=r"(b_) : "r"((fl_me >> j) & 1u));
        if (lane_ == 0)
            bal_[j * 8 + w_] = b_;
    }
#else
    fl_[lid] = fl_me;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lane_ < 16) {
        uint b_ = 0;
        for (int t_ = 0; t_ < 32; t_++)
            b_ |= ((fl_[(w_ << 5) + t_] >> lane_) & 1u) << t_;
        bal_[lane_ * 8 + w_] = b_;
    }
#endif
    barrier(CLK_LOCAL_MEM_FENCE);
    uint acc = lid < 128 ? (uint)popcount(bal_[lid]) : (uint)(0);
#if defined(cl_nv_pragma_unroll)
    {
        const int lane_ = lid & 31, w_ = lid >> 5;
        for (int o_ = 1; o_ < 32; o_ <<= 1) {
            union { uint t; uint u[1]; } x_, y_;
            x_.u[0] = 0;
            x_.t = acc;
            asm volatile("shfl.sync.up.b32 %0, %1, %2, 0, 0xffffffff;" : "=r"(y_.u[0]) : "r"(x_.u[0]), "r"(o_));
            if (lane_ >= o_) {
                uint t_ = y_.t;
                t_ += (uint)acc;
                acc = t_;
            }
        }
        if (lane_ == 31)
            tot[w_] = acc;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (w_ > 0) {
            uint t_ = tot[0];
            for (int i_ = 1; i_ < w_; i_++) {
                t_ += (uint)tot[i_];
            }
            t_ += (uint)acc;
            acc = t_;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        tot[lid] = acc;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
#else
    tot[lid] = acc;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int off = 1; off < 256; off <<= 1) {
        uint t_ = lid >= off ? tot[lid - off] : (uint)(0);
        barrier(CLK_LOCAL_MEM_FENCE);
        t_ += (uint)tot[lid];
        tot[lid] = t_;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
#endif
    if (lid == 0) {
        lc_lb_put(lb_w + q * 1, tot[255], q == 0 ? 2u : 1u);
        lbpre_ = (uint)(0);
        lbgo_ = q > 0;
    }
    long j_ = q - 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    while (lbgo_) {
        if (lid < 32) {
            const long t_ = j_ - lid;
            uint v_ = (uint)(0);
            uint s_ = 2;
            if (t_ >= 0)
                while ((s_ = lc_lb_get(lb_w + t_ * 1, &v_)) == 0)
                    ;
            lbv_[lid] = v_;
            lbs_[lid] = s_;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid == 0) {
            int k_ = 0;
            while (k_ < 31 && lbs_[k_] != 2)
                k_++;
            uint f_ = lbv_[k_];
            for (int i_ = k_ - 1; i_ >= 0; i_--) {
                f_ += (uint)lbv_[i_];
            }
            f_ += (uint)lbpre_;
            lbpre_ = f_;
            lbgo_ = lbs_[k_] != 2;
        }
        j_ -= 32;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    uint pre = lbpre_;
    if (lid == 0 && q > 0) {
        uint t_ = pre;
        t_ += (uint)tot[255];
        lc_lb_put(lb_w + q * 1, t_, 2u);
    }
    if (lid == 0 && q == P - 1) {
        uint t_ = pre;
        t_ += (uint)tot[255];
        const int v4 = (int)t_;
        out0[0] = v4;
    }
    if (base + 4096 <= n0) {
        #pragma unroll
        for (int j = 0; j < 16; j++) {
            const long i0 = base + j * 256 + lid;
            {
                const int e_ = j * 8 + w_;
                uint sacc_ = pre + (e_ > 0 ? tot[e_ - 1] : (uint)0) + (uint)popcount(bal_[e_] & ((1u << lane_) - 1u));
                const double v0 = kv0[j];
                const double v1 = a1_v; /* full */
                const uchar v2 = (uchar)((v0 > v1)); /* greater */
                const int v3 = (int)(v2); /* astype */
                sacc_ += (uint)v3;
                const int v4 = (int)sacc_; /* running cumsum */
                const int v5 = a2_v; /* full */
                const int v6 = (int)((uint)v4 - (uint)v5); /* subtract */
                const long v7 = (long)min((ulong)v6, (ulong)(x7_n - 1)); /* index clamped for take */
                if (v2) {
                    a3[a3_o + v7] = v0;
                }
            }
        }
    } else {
        #pragma unroll
        for (int j = 0; j < 16; j++) {
            const long i0 = base + j * 256 + lid;
            if (i0 < n0) {
                const int e_ = j * 8 + w_;
                uint sacc_ = pre + (e_ > 0 ? tot[e_ - 1] : (uint)0) + (uint)popcount(bal_[e_] & ((1u << lane_) - 1u));
                const double v0 = kv0[j];
                const double v1 = a1_v; /* full */
                const uchar v2 = (uchar)((v0 > v1)); /* greater */
                const int v3 = (int)(v2); /* astype */
                sacc_ += (uint)v3;
                const int v4 = (int)sacc_; /* running cumsum */
                const int v5 = a2_v; /* full */
                const int v6 = (int)((uint)v4 - (uint)v5); /* subtract */
                const long v7 = (long)min((ulong)v6, (ulong)(x7_n - 1)); /* index clamped for take */
                if (v2) {
                    a3[a3_o + v7] = v0;
                }
            }
        }
    }
}

