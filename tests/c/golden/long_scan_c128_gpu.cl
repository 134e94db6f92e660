/* ---- kernel 0: schedule "scan: tiles of 2048 per work-group, three phases", 3 launches: lc_scan_c128_a0678d4955fe70fe_p1 lc_scan_c128_a0678d4955fe70fe_p2 lc_scan_c128_a0678d4955fe70fe_p3 */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
/* lazycl: build from source */
/* lazycl scan kernel: 1 fused op; scan: tiles of 2048 per work-group, three phases. */
__kernel void lc_scan_c128_a0678d4955fe70fe_p1(
    __global double2 *restrict out0,
    __global const double2 *restrict a0, const long a0_o,
    const long n0, const long M, __global char *part_, const long sbase, const long P)
{
    __global double2 *part = (__global double2 *)(part_ + sbase);
    const int lid = get_local_id(0);
    __local double2 buf[256];
    const long grp = get_group_id(0);
    const long m = grp / P, q = grp % P;
    const long base = q * 2048;
    double2 acc = -0.0;
    for (int j = 0; j < 8; j++) {
        const long i0 = base + j * 256 + lid;
        if (i0 < n0) {
            const double2 v0 = a0[a0_o + i0]; /* buffer */
            acc += (double2)v0;
        }
    }
    buf[lid] = acc;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int h = 256 / 2; h > 0; h >>= 1) {
        if (lid < h) {
            double2 t_ = buf[lid];
            t_ += (double2)buf[lid + h];
            buf[lid] = t_;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        part[m * P + q] = buf[0];
}
__kernel void lc_scan_c128_a0678d4955fe70fe_p2(
    __global double2 *restrict out0,
    __global const double2 *restrict a0, const long a0_o,
    const long n0, const long M, __global char *part_, const long sbase, const long P)
{
    __global double2 *part = (__global double2 *)(part_ + sbase);
    const int lid = get_local_id(0);
    __local double2 tot[1024];
    __global double2 *row = part + get_group_id(0) * P;
    double2 carry = -0.0;
    double2 v_[4], nx_[4];
    for (int e = 0; e < 4; e++)
        v_[e] = lid * 4 + e < P ? row[lid * 4 + e] : (double2)(-0.0);
    for (long b0 = 0; b0 < P; b0 += 4096) {
        const long q0 = b0 + lid * 4;
        for (int e = 0; e < 4; e++)
            nx_[e] = q0 + 4096 + e < P ? row[q0 + 4096 + e] : (double2)(-0.0);
        double2 acc = -0.0;
        for (int e = 0; e < 4; e++) {
            acc += (double2)v_[e];
        }
#if defined(cl_nv_pragma_unroll)
    {
        const int lane_ = lid & 31, w_ = lid >> 5;
        for (int o_ = 1; o_ < 32; o_ <<= 1) {
            union { double2 t; uint u[4]; } x_, y_;
            x_.u[0] = 0;
            x_.u[1] = 0;
            x_.u[2] = 0;
            x_.u[3] = 0;
            x_.t = acc;
            asm volatile("shfl.sync.up.b32 %0, %1, %2, 0, 0xffffffff;" : "=r"(y_.u[0]) : "r"(x_.u[0]), "r"(o_));
            asm volatile("shfl.sync.up.b32 %0, %1, %2, 0, 0xffffffff;" : "=r"(y_.u[1]) : "r"(x_.u[1]), "r"(o_));
            asm volatile("shfl.sync.up.b32 %0, %1, %2, 0, 0xffffffff;" : "=r"(y_.u[2]) : "r"(x_.u[2]), "r"(o_));
            asm volatile("shfl.sync.up.b32 %0, %1, %2, 0, 0xffffffff;" : "=r"(y_.u[3]) : "r"(x_.u[3]), "r"(o_));
            if (lane_ >= o_) {
                double2 t_ = y_.t;
                t_ += (double2)acc;
                acc = t_;
            }
        }
        if (lane_ == 31)
            tot[w_] = acc;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (w_ > 0) {
            double2 t_ = tot[0];
            for (int i_ = 1; i_ < w_; i_++) {
                t_ += (double2)tot[i_];
            }
            t_ += (double2)acc;
            acc = t_;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        tot[lid] = acc;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
#else
    tot[lid] = acc;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int off = 1; off < 1024; off <<= 1) {
        double2 t_ = lid >= off ? tot[lid - off] : (double2)(-0.0);
        barrier(CLK_LOCAL_MEM_FENCE);
        t_ += (double2)tot[lid];
        tot[lid] = t_;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
#endif
        double2 t_ = carry;
        if (lid > 0) {
            t_ += (double2)tot[lid - 1];
        }
        for (int e = 0; e < 4; e++)
            if (q0 + e < P) {
                row[q0 + e] = t_;
                t_ += (double2)v_[e];
            }
        carry += (double2)tot[1023];
        for (int e = 0; e < 4; e++)
            v_[e] = nx_[e];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}
__kernel void lc_scan_c128_a0678d4955fe70fe_p3(
    __global double2 *restrict out0,
    __global const double2 *restrict a0, const long a0_o,
    const long n0, const long M, __global char *part_, const long sbase, const long P)
{
    __global double2 *part = (__global double2 *)(part_ + sbase);
    const int lid = get_local_id(0);
    __local double2 buf[2304];
    const long grp = get_group_id(0);
    const long m = grp / P, q = grp % P;
    const long base = q * 2048;
    __local double2 tot[256];
    const int E_ = 8;
    for (int j = 0; j < 8; j++) {
        const long i0 = base + j * 256 + lid;
        double2 x_ = (double2)(-0.0);
        if (i0 < n0) {
            const double2 v0 = a0[a0_o + i0]; /* buffer */
            x_ = (double2)v0;
        }
        buf[j * 288 + lid + (lid >> 3)] = x_;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    double2 acc = -0.0;
    for (int e = 0; e < 8; e++) {
        acc += (double2)buf[lid * (E_ + 1) + e];
        buf[lid * (E_ + 1) + e] = acc;
    }
#if defined(cl_nv_pragma_unroll)
    {
        const int lane_ = lid & 31, w_ = lid >> 5;
        for (int o_ = 1; o_ < 32; o_ <<= 1) {
            union { double2 t; uint u[4]; } x_, y_;
            x_.u[0] = 0;
            x_.u[1] = 0;
            x_.u[2] = 0;
            x_.u[3] = 0;
            x_.t = acc;
            asm volatile("shfl.sync.up.b32 %0, %1, %2, 0, 0xffffffff;" : "=r"(y_.u[0]) : "r"(x_.u[0]), "r"(o_));
            asm volatile("shfl.sync.up.b32 %0, %1, %2, 0, 0xffffffff;" : "=r"(y_.u[1]) : "r"(x_.u[1]), "r"(o_));
            asm volatile("shfl.sync.up.b32 %0, %1, %2, 0, 0xffffffff;" : "=r"(y_.u[2]) : "r"(x_.u[2]), "r"(o_));
            asm volatile("shfl.sync.up.b32 %0, %1, %2, 0, 0xffffffff;" : "=r"(y_.u[3]) : "r"(x_.u[3]), "r"(o_));
            if (lane_ >= o_) {
                double2 t_ = y_.t;
                t_ += (double2)acc;
                acc = t_;
            }
        }
        if (lane_ == 31)
            tot[w_] = acc;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (w_ > 0) {
            double2 t_ = tot[0];
            for (int i_ = 1; i_ < w_; i_++) {
                t_ += (double2)tot[i_];
            }
            t_ += (double2)acc;
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
        double2 t_ = lid >= off ? tot[lid - off] : (double2)(-0.0);
        barrier(CLK_LOCAL_MEM_FENCE);
        t_ += (double2)tot[lid];
        tot[lid] = t_;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
#endif
    double2 pre = part[m * P + q];
    if (lid > 0) {
        pre += (double2)tot[lid - 1];
    }
    for (int e = 0; e < 8; e++) {
        double2 t_ = pre;
        t_ += (double2)buf[lid * (E_ + 1) + e];
        buf[lid * (E_ + 1) + e] = t_;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int j = 0; j < 8; j++) {
        const long i0 = base + j * 256 + lid;
        if (i0 < n0) {
            const double2 v0 = (double2)buf[j * 288 + lid + (lid >> 3)];
            out0[i0] = v0;
        }
    }
}

