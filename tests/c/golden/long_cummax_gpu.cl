/* ---- kernel 0: schedule "scan: tiles of 2048 per work-group, three phases", 3 launches: lc_scan_f32_68e38d559529e29f_p1 lc_scan_f32_68e38d559529e29f_p2 lc_scan_f32_68e38d559529e29f_p3 */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
/* lazycl scan kernel: 1 fused op; scan: tiles of 2048 per work-group, three phases. */
__kernel void lc_scan_f32_68e38d559529e29f_p1(
    __global float *restrict out0,
    __global const float *restrict a0, const long a0_o,
    const long n0, const long M, __global char *part_, const long sbase, const long P)
{
    __global float *part = (__global float *)(part_ + sbase);
    const int lid = get_local_id(0);
    __local float buf[256];
    const long grp = get_group_id(0);
    const long m = grp / P, q = grp % P;
    const long base = q * 2048;
    float acc = -INFINITY;
    for (int j = 0; j < 8; j++) {
        const long i0 = base + j * 256 + lid;
        if (i0 < n0) {
            const float v0 = a0[a0_o + i0]; /* buffer */
            if (v0 > acc || isnan(v0)) acc = v0;
        }
    }
    buf[lid] = acc;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int h = 256 / 2; h > 0; h >>= 1) {
        if (lid < h) {
            float t_ = buf[lid];
            if (buf[lid + h] > t_ || isnan(buf[lid + h])) t_ = buf[lid + h];
            buf[lid] = t_;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        part[m * P + q] = buf[0];
}
__kernel void lc_scan_f32_68e38d559529e29f_p2(
    __global float *restrict out0,
    __global const float *restrict a0, const long a0_o,
    const long n0, const long M, __global char *part_, const long sbase, const long P)
{
    __global float *part = (__global float *)(part_ + sbase);
    const int lid = get_local_id(0);
    __local float tot[1024];
    __global float *row = part + get_group_id(0) * P;
    float carry = -INFINITY;
    for (long b0 = 0; b0 < P; b0 += 16384) {
        const long q0 = b0 + lid * 16;
        float v_[16];
        float acc = -INFINITY;
        for (int e = 0; e < 16; e++) {
            v_[e] = q0 + e < P ? row[q0 + e] : (float)(-INFINITY);
            if (v_[e] > acc || isnan(v_[e])) acc = v_[e];
        }
#if defined(cl_nv_pragma_unroll)
    {
        const int lane_ = lid & 31, w_ = lid >> 5;
        for (int o_ = 1; o_ < 32; o_ <<= 1) {
            union { float t; uint u[1]; } x_, y_;
            x_.u[0] = 0;
            x_.t = acc;
            asm volatile("shfl.sync.up.b32 %0, %1, %2, 0, 0xffffffff;" : "=r"(y_.u[0]) : "r"(x_.u[0]), "r"(o_));
            if (lane_ >= o_) {
                float t_ = y_.t;
                if (acc > t_ || isnan(acc)) t_ = acc;
                acc = t_;
            }
        }
        if (lane_ == 31)
            tot[w_] = acc;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (w_ > 0) {
            float t_ = tot[0];
            for (int i_ = 1; i_ < w_; i_++) {
                if (tot[i_] > t_ || isnan(tot[i_])) t_ = tot[i_];
            }
            if (acc > t_ || isnan(acc)) t_ = acc;
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
        float t_ = lid >= off ? tot[lid - off] : (float)(-INFINITY);
        barrier(CLK_LOCAL_MEM_FENCE);
        if (tot[lid] > t_ || isnan(tot[lid])) t_ = tot[lid];
        tot[lid] = t_;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
#endif
        float t_ = carry;
        if (lid > 0) {
            if (tot[lid - 1] > t_ || isnan(tot[lid - 1])) t_ = tot[lid - 1];
        }
        for (int e = 0; e < 16; e++)
            if (q0 + e < P) {
                row[q0 + e] = t_;
                if (v_[e] > t_ || isnan(v_[e])) t_ = v_[e];
            }
        if (tot[1023] > carry || isnan(tot[1023])) carry = tot[1023];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}
__kernel void lc_scan_f32_68e38d559529e29f_p3(
    __global float *restrict out0,
    __global const float *restrict a0, const long a0_o,
    const long n0, const long M, __global char *part_, const long sbase, const long P)
{
    __global float *part = (__global float *)(part_ + sbase);
    const int lid = get_local_id(0);
    __local float buf[2304];
    const long grp = get_group_id(0);
    const long m = grp / P, q = grp % P;
    const long base = q * 2048;
    __local float tot[256];
    const int E_ = 8;
    for (int j = 0; j < 8; j++) {
        const long i0 = base + j * 256 + lid;
        float x_ = -INFINITY;
        if (i0 < n0) {
            const float v0 = a0[a0_o + i0]; /* buffer */
            x_ = (float)v0;
        }
        buf[j * 288 + lid + (lid >> 3)] = x_;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    float acc = -INFINITY;
    for (int e = 0; e < 8; e++) {
        if (buf[lid * (E_ + 1) + e] > acc || isnan(buf[lid * (E_ + 1) + e])) acc = buf[lid * (E_ + 1) + e];
        buf[lid * (E_ + 1) + e] = acc;
    }
#if defined(cl_nv_pragma_unroll)
    {
        const int lane_ = lid & 31, w_ = lid >> 5;
        for (int o_ = 1; o_ < 32; o_ <<= 1) {
            union { float t; uint u[1]; } x_, y_;
            x_.u[0] = 0;
            x_.t = acc;
            asm volatile("shfl.sync.up.b32 %0, %1, %2, 0, 0xffffffff;" : "=r"(y_.u[0]) : "r"(x_.u[0]), "r"(o_));
            if (lane_ >= o_) {
                float t_ = y_.t;
                if (acc > t_ || isnan(acc)) t_ = acc;
                acc = t_;
            }
        }
        if (lane_ == 31)
            tot[w_] = acc;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (w_ > 0) {
            float t_ = tot[0];
            for (int i_ = 1; i_ < w_; i_++) {
                if (tot[i_] > t_ || isnan(tot[i_])) t_ = tot[i_];
            }
            if (acc > t_ || isnan(acc)) t_ = acc;
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
        float t_ = lid >= off ? tot[lid - off] : (float)(-INFINITY);
        barrier(CLK_LOCAL_MEM_FENCE);
        if (tot[lid] > t_ || isnan(tot[lid])) t_ = tot[lid];
        tot[lid] = t_;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
#endif
    float pre = part[m * P + q];
    if (lid > 0) {
        if (tot[lid - 1] > pre || isnan(tot[lid - 1])) pre = tot[lid - 1];
    }
    for (int e = 0; e < 8; e++) {
        float t_ = pre;
        if (buf[lid * (E_ + 1) + e] > t_ || isnan(buf[lid * (E_ + 1) + e])) t_ = buf[lid * (E_ + 1) + e];
        buf[lid * (E_ + 1) + e] = t_;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int j = 0; j < 8; j++) {
        const long i0 = base + j * 256 + lid;
        if (i0 < n0) {
            const float v0 = (float)buf[j * 288 + lid + (lid >> 3)];
            out0[i0] = v0;
        }
    }
}

