/* ---- kernel 0: schedule "store with its count of flags: tiles of 8192 per work-group in one pass, quads of adjacent elements, a decoupled look-back", 1 launch: lc_store_f32_4336a2f3c21bd838 */
#pragma OPENCL FP_CONTRACT OFF
/* lazycl store kernel: 6 fused ops; store with its count of flags: tiles of 8192 per work-group in one pass, quads of adjacent elements, a decoupled look-back. */
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
__kernel void lc_store_f32_4336a2f3c21bd838(
    __global const float *restrict a0, const long a0_o,
    const float a1_v,
    const int a2_v,
    __global float *a3, const long a3_o,
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
    const long base = q * 8192;
    __local uint wq_[16];
#if !defined(cl_nv_pragma_unroll)
    __local uint fl_[512];
#endif
    uint fq_[2], cq_[2], sq_[2];
    #pragma unroll
    for (int p_ = 0; p_ < 2; p_++)
        fq_[p_] = 0;
    float kv0[32];
    if (base + 8192 <= n0) {
        #pragma unroll
        for (int j = 0; j < 32; j++) {
            const long i0 = base + ((long)((j >> 2) * 256 + lid) << 2) + (j & 3);
            uint x_ = (uint)(0);
            {
                const float v0 = a0[a0_o + i0]; /* buffer */
                const float v1 = a1_v; /* full */
                const uchar v2 = (uchar)((v0 > v1)); /* greater */
                const int v3 = (int)(v2); /* astype */
                kv0[j] = v0;
                x_ = (uint)v3;
            }
            fq_[j >> 4] |= (uint)(x_ != 0) << (((j >> 2) & 3) * 8 + (j & 3));
        }
    } else {
        #pragma unroll
        for (int j = 0; j < 32; j++) {
            const long i0 = base + ((long)((j >> 2) * 256 + lid) << 2) + (j & 3);
            uint x_ = (uint)(0);
            if (i0 < n0) {
                const float v0 = a0[a0_o + i0]; /* buffer */
                const float v1 = a1_v; /* full */
                const uchar v2 = (uchar)((v0 > v1)); /* greater */
                const int v3 = (int)(v2); /* astype */
                kv0[j] = v0;
                x_ = (uint)v3;
            }
            fq_[j >> 4] |= (uint)(x_ != 0) << (((j >> 2) & 3) * 8 + (j & 3));
        }
    }
    const int lane_ = lid & 31, w_ = lid >> 5;
    #pragma unroll
    for (int p_ = 0; p_ < 2; p_++) {
        uint t_ = fq_[p_] - ((fq_[p_] >> 1) & 0x55555555u);
        t_ = (t_ & 0x33333333u) + ((t_ >> 2) & 0x33333333u);
        cq_[p_] = sq_[p_] = t_ & 0x0f0f0f0fu;
    }
#if defined(cl_nv_pragma_unroll)
    #pragma unroll
    for (int o_ = 1; o_ < 32; o_ <<= 1) {
        #pragma unroll
        for (int p_ = 0; p_ < 2; p_++) {
            uint y_;
            asm volatile("shfl.sync.up.b32 %0, %1, %2, 0, 0xffffffff;"
                         : "=r"(y_) : "r"(sq_[p_]), "r"(o_));
            if (lane_ >= o_)
                sq_[p_] += y_;
        }
    }
#else
    for (int o_ = 1; o_ < 32; o_ <<= 1) {
        for (int p_ = 0; p_ < 2; p_++)
            fl_[p_ * 256 + lid] = sq_[p_];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int p_ = 0; p_ < 2; p_++)
            sq_[p_] += lane_ >= o_ ? fl_[p_ * 256 + lid - o_] : 0u;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
#endif
    if (lane_ == 31)
        for (int p_ = 0; p_ < 2; p_++)
            wq_[p_ * 8 + w_] = sq_[p_];
    barrier(CLK_LOCAL_MEM_FENCE);
    uint acc = (uint)(0);
    if (lid < 64) {
        const int j_ = lid / 8, t_ = lid % 8;
        acc = (uint)((wq_[(j_ >> 2) * 8 + t_] >> ((j_ & 3) * 8)) & 255u);
    }
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
    uint qb_[8];
    #pragma unroll
    for (int j = 0; j < 8; j++) {
        const int e_ = j * 8 + w_;
        const uint t_ = tot[max(e_ - 1, 0)];
        qb_[j] = pre + (e_ > 0 ? t_ : (uint)0) +
                 (uint)(((sq_[j >> 2] - cq_[j >> 2]) >> ((j & 3) * 8)) & 255u);
    }
    if (base + 8192 <= n0) {
        #pragma unroll
        for (int j = 0; j < 32; j++) {
            const long i0 = base + ((long)((j >> 2) * 256 + lid) << 2) + (j & 3);
            {
                uint sacc_ = qb_[j >> 2] + (uint)popcount((fq_[j >> 4] >> (((j >> 2) & 3) * 8)) & ((1u << (j & 3)) - 1u));
                const float v0 = kv0[j];
                const float v1 = a1_v; /* full */
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
        for (int j = 0; j < 32; j++) {
            const long i0 = base + ((long)((j >> 2) * 256 + lid) << 2) + (j & 3);
            if (i0 < n0) {
                uint sacc_ = qb_[j >> 2] + (uint)popcount((fq_[j >> 4] >> (((j >> 2) & 3) * 8)) & ((1u << (j & 3)) - 1u));
                const float v0 = kv0[j];
                const float v1 = a1_v; /* full */
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

