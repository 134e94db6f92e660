/* ---- kernel 0: schedule "scan: tiles of 2048 per work-group, three phases", 3 launches: lc_scan_f32_0fb0f2bd34182fbd_p1 lc_scan_f32_0fb0f2bd34182fbd_p2 lc_scan_f32_0fb0f2bd34182fbd_p3 */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
/* lazycl scan kernel: 2 fused ops; scan: tiles of 2048 per work-group, three phases. */
__kernel void lc_scan_f32_0fb0f2bd34182fbd_p1(
    __global float *restrict out0,
    __global const float *restrict a0, const long a0_o,
    const float a1_v,
    const long n0, const long M, __global char *part_, const long sbase, const long P)
{
    __global double *part = (__global double *)(part_ + sbase);
    const int lid = get_local_id(0);
    __local double buf[256];
    const long grp = get_group_id(0);
    const long m = grp / P, q = grp % P;
    const long base = q * 2048;
    double acc = 0;
    for (int j = 0; j < 8; j++) {
        const long i0 = base + j * 256 + lid;
        if (i0 < n0) {
            const float v0 = a0[a0_o + i0]; /* buffer */
            const float v1 = a1_v; /* full */
            const float v2 = (v0 * v1); /* multiply */
            acc += (double)v2;
        }
    }
    buf[lid] = acc;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int h = 256 / 2; h > 0; h >>= 1) {
        if (lid < h) {
            double t_ = buf[lid];
            t_ += (double)buf[lid + h];
            buf[lid] = t_;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        part[m * P + q] = buf[0];
}
__kernel void lc_scan_f32_0fb0f2bd34182fbd_p2(
    __global float *restrict out0,
    __global const float *restrict a0, const long a0_o,
    const float a1_v,
    const long n0, const long M, __global char *part_, const long sbase, const long P)
{
    __global double *part = (__global double *)(part_ + sbase);
    const int lid = get_local_id(0);
    __local double tot[1024];
    __global double *row = part + get_group_id(0) * P;
    double carry = 0;
    double v_[4], nx_[4];
    for (int e = 0; e < 4; e++)
        v_[e] = lid * 4 + e < P ? row[lid * 4 + e] : (double)(0);
    for (long b0 = 0; b0 < P; b0 += 4096) {
        const long q0 = b0 + lid * 4;
        for (int e = 0; e < 4; e++)
            nx_[e] = q0 + 4096 + e < P ? row[q0 + 4096 + e] : (double)(0);
        double acc = 0;
        for (int e = 0; e < 4; e++) {
            acc += (double)v_[e];
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
    for (int off = 1; off < 1024; off <<= 1) {
        double t_ = lid >= off ? tot[lid - off] : (double)(0);
        barrier(CLK_LOCAL_MEM_FENCE);
        t_ += (double)tot[lid];
        tot[lid] = t_;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
#endif
        double t_ = carry;
        if (lid > 0) {
            t_ += (double)tot[lid - 1];
        }
        for (int e = 0; e < 4; e++)
            if (q0 + e < P) {
                row[q0 + e] = t_;
                t_ += (double)v_[e];
            }
        carry += (double)tot[1023];
        for (int e = 0; e < 4; e++)
            v_[e] = nx_[e];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}
__kernel void lc_scan_f32_0fb0f2bd34182fbd_p3(
    __global float *restrict out0,
    __global const float *restrict a0, const long a0_o,
    const float a1_v,
    const long n0, const long M, __global char *part_, const long sbase, const long P)
{
    __global double *part = (__global double *)(part_ + sbase);
    const int lid = get_local_id(0);
    __local double buf[2304];
    const long grp = get_group_id(0);
    const long m = grp / P, q = grp % P;
    const long base = q * 2048;
    __local double tot[256];
    const int E_ = 8;
    for (int j = 0; j < 8; j++) {
        const long i0 = base + j * 256 + lid;
        double x_ = (double)(0);
        if (i0 < n0) {
            const float v0 = a0[a0_o + i0]; /* buffer */
            const float v1 = a1_v; /* full */
            const float v2 = (v0 * v1); /* multiply */
            x_ = (double)v2;
        }
        buf[j * 288 + lid + (lid >> 3)] = x_;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    double acc = 0;
    for (int e = 0; e < 8; e++) {
        acc += (double)buf[lid * (E_ + 1) + e];
        buf[lid * (E_ + 1) + e] = acc;
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
        double t_ = lid >= off ? tot[lid - off] : (double)(0);
        barrier(CLK_LOCAL_MEM_FENCE);
        t_ += (double)tot[lid];
        tot[lid] = t_;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
#endif
    double pre = part[m * P + q];
    if (lid > 0) {
        pre += (double)tot[lid - 1];
    }
    for (int e = 0; e < 8; e++) {
        double t_ = pre;
        t_ += (double)buf[lid * (E_ + 1) + e];
        buf[lid * (E_ + 1) + e] = t_;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int j = 0; j < 8; j++) {
        const long i0 = base + j * 256 + lid;
        if (i0 < n0) {
            const float v2 = (float)buf[j * 288 + lid + (lid >> 3)];
            out0[i0] = v2;
        }
    }
}

/* ---- kernel 1: schedule "store 1-d, one item per element", 1 launch: lc_store_f64_6903a0cf3abdf1aa */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
/* lazycl store kernel: 2 fused ops; store 1-d, one item per element. */
__kernel void lc_store_f64_6903a0cf3abdf1aa(
    __global const float *restrict a0, const long a0_o,
    __global double *a1, const long a1_o,
    const long n0)
{
    const long i0 = get_global_id(0);
    if (i0 >= n0) return;
    const float v0 = a0[a0_o + i0]; /* cumsum */
    const double v1 = (double)(v0); /* astype */
    a1[a1_o + i0] = v1;
}

