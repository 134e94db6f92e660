/* ---- kernel 0: schedule "store with its scan: tiles of 4096 per work-group in one pass, a decoupled look-back", 1 launch: lc_store_f64_9e5b7fe8904ded0f */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
/* lazycl store kernel: 4 fused ops; store with its scan: tiles of 4096 per work-group in one pass, a decoupled look-back. */
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#if defined(cl_nv_pragma_unroll)
#define LC_LB_READ(p) (*(p))
#else
#define LC_LB_READ(p) atom_add((p), (ulong)0)
#endif
static inline void lc_lb_put(volatile __global ulong *w, const double v, const uint st) {
    union { double t; uint u[2]; } u_;
    u_.u[0] = 0;
    u_.u[1] = 0;
    u_.t = v;
    atom_xchg(w + 0, ((ulong)st << 32) | u_.u[0]);
    atom_xchg(w + 1, ((ulong)st << 32) | u_.u[1]);
}
/* The state's status (0 until every word shows the same one), its value in *v. */
static inline uint lc_lb_get(volatile __global ulong *w, double *v) {
    union { double t; uint u[2]; } u_;
    const ulong a = LC_LB_READ(w);
    u_.u[0] = (uint)a;
    const ulong b = LC_LB_READ(w + 1);
    if ((a >> 32) != (b >> 32))
        return 0;
    u_.u[1] = (uint)b;
    *v = u_.t;
    return (uint)(a >> 32);
}
__kernel void lc_store_f64_9e5b7fe8904ded0f(
    __global const float *restrict a0, const long a0_o,
    const float a1_v,
    __global double *a2, const long a2_o,
    const long n0, const long M, __global char *part_, const long sbase, const long P)
{
    __global char *sc_ = part_ + sbase;
    __local double buf[4352];
    __local double tot[256];
    __local double lbv_[512];
    __local int lbw_;
    __local uint lbs_[32];
    __local double lbpre_;
    __local long lbt_;
    __local int lbgo_;
    const int lid = get_local_id(0);
    if (lid == 0)
        lbt_ = atomic_inc((volatile __global uint *)sc_);
    barrier(CLK_LOCAL_MEM_FENCE);
    const long m = lbt_ / P, q = lbt_ % P;
    volatile __global ulong *lb_w = (volatile __global ulong *)(sc_ + 8) + m * P * 2;
    const long base = q * 4096;
    float kv0[16];
    if (base + 4096 <= n0) {
        #pragma unroll
        for (int j = 0; j < 16; j++) {
            const long i0 = base + j * 256 + lid;
            double x_ = (double)(-0.0);
            {
                const float v0 = a0[a0_o + i0]; /* buffer */
                const float v1 = a1_v; /* full */
                const float v2 = (v0 * v1); /* multiply */
                kv0[j] = v0;
                x_ = (double)v2;
            }
            buf[j * 272 + lid + (lid >> 4)] = x_;
        }
    } else {
        #pragma unroll
        for (int j = 0; j < 16; j++) {
            const long i0 = base + j * 256 + lid;
            double x_ = (double)(-0.0);
            if (i0 < n0) {
                const float v0 = a0[a0_o + i0]; /* buffer */
                const float v1 = a1_v; /* full */
                const float v2 = (v0 * v1); /* multiply */
                kv0[j] = v0;
                x_ = (double)v2;
            }
            buf[j * 272 + lid + (lid >> 4)] = x_;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const int E_ = 16, E_SH = 4;
    double acc = (double)(-0.0);
    for (int e = 0; e < 16; e++) {
        const int ke_ = lid * E_ + e;
        acc += (double)buf[ke_ + (ke_ >> E_SH)];
    }
#if defined(cl_nv_pragma_unroll)
    {
        const int lane_ = lid & 31, w_ = lid >> 5;
        for (int o_ = 1; o_ < 32; o_ <<= 1) {
            union { double t; uint u[2]; } x_, y_;
            x_.u[0] = 0;
            x_.u[1] = 0;
            x_.t = acc;
            asm volatile("shfl.sync.up.b32 %0, %1, %2, 0, 0xffffffff;" : "=r"(y_.u[0]) : "r"(x_.u[0]), "r"(o_));
            asm volatile("shfl.sync.up.b32 %0, %1, %2, 0, 0xffffffff;" : "=r"(y_.u[1]) : "r"(x_.u[1]), "r"(o_));
            if (lane_ >= o_) {
                double t_ = y_.t;
                t_ += (double)acc;
                acc = t_;
            }
        }
        if (lane_ == 31)
            tot[w_] = acc;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (w_ > 0) {
            double t_ = tot[0];
            for (int i_ = 1; i_ < w_; i_++) {
                t_ += (double)tot[i_];
            }
            t_ += (double)acc;
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
        double t_ = lid >= off ? tot[lid - off] : (double)(-0.0);
        barrier(CLK_LOCAL_MEM_FENCE);
        t_ += (double)tot[lid];
        tot[lid] = t_;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
#endif
    if (lid == 0) {
        lc_lb_put(lb_w + q * 2, tot[255], q == 0 ? 2u : 1u);
        lbpre_ = (double)(-0.0);
        lbgo_ = q > 0;
    }
    if (lid == 0)
        lbw_ = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    while (lbgo_) {
        const int w_ = lbw_;
        if (lid < 32) {
            const long t_ = q - 1 - 32 * w_ - lid;
            double v_ = (double)(-0.0);
            uint s_ = 2;
            if (t_ >= 0)
                while ((s_ = lc_lb_get(lb_w + t_ * 2, &v_)) == 0)
                    ;
            lbv_[32 * w_ + lid] = v_;
            lbs_[lid] = s_;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid == 0) {
            int k_ = 0;
            while (k_ < 31 && lbs_[k_] != 2)
                k_++;
            if (lbs_[k_] == 2) {
                double f_ = lbv_[32 * w_ + k_];
                for (int i_ = 32 * w_ + k_ - 1; i_ >= 0; i_--) {
                    f_ += (double)lbv_[i_];
                }
                lbpre_ = f_;
                lbgo_ = 0;
            } else if (w_ < 15) {
                lbw_ = w_ + 1;
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    double pre = lbpre_;
    if (lid == 0 && q > 0) {
        double t_ = pre;
        t_ += (double)tot[255];
        lc_lb_put(lb_w + q * 2, t_, 2u);
    }
    if (lid > 0) {
        pre += (double)tot[lid - 1];
    }
    for (int e = 0; e < 16; e++) {
        const int ke_ = lid * E_ + e;
        const double x_ = buf[ke_ + (ke_ >> E_SH)];
        buf[ke_ + (ke_ >> E_SH)] = pre;
        pre += (double)x_;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (base + 4096 <= n0) {
        #pragma unroll
        for (int j = 0; j < 16; j++) {
            const long i0 = base + j * 256 + lid;
            {
                double sacc_ = buf[j * 272 + lid + (lid >> E_SH)];
                const float v0 = kv0[j];
                const float v1 = a1_v; /* full */
                const float v2 = (v0 * v1); /* multiply */
                sacc_ += (double)v2;
                const float v3 = (float)sacc_; /* running cumsum */
                const double v4 = (double)(v3); /* astype */
                a2[a2_o + i0] = v4;
            }
        }
    } else {
        #pragma unroll
        for (int j = 0; j < 16; j++) {
            const long i0 = base + j * 256 + lid;
            if (i0 < n0) {
                double sacc_ = buf[j * 272 + lid + (lid >> E_SH)];
                const float v0 = kv0[j];
                const float v1 = a1_v; /* full */
                const float v2 = (v0 * v1); /* multiply */
                sacc_ += (double)v2;
                const float v3 = (float)sacc_; /* running cumsum */
                const double v4 = (double)(v3); /* astype */
                a2[a2_o + i0] = v4;
            }
        }
    }
}

