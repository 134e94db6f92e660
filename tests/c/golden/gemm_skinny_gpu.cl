/* ---- kernel 0: schedule "gemm: up to 16 rows, an item per 4 columns and slice of K, in registers; slices added by a second launch", 2 launches: lc_gemm_f32_6af52778a57050b8_part lc_gemm_f32_6af52778a57050b8_comb */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
/* lazycl: SPIR unoptimized */
/* lazycl gemm kernel: 4 fused ops; gemm: up to 16 rows, an item per 4 columns and slice of K, in registers; slices added by a second launch. */
__kernel void lc_gemm_f32_6af52778a57050b8_part(
    __global float *restrict out0,
    __global const float *restrict a0, const long a0_o, const long a0_s0,
    __global const float *restrict a1, const long a1_o, const long a1_s2,
    __global const float *restrict a2, const long a2_o,
    const float a3_v,
    const long n0,
    const long n1,
    const long n2, const long os0_0,
    __global char *scratch_, const long sbase, const long S, const long KS)
{
    __global float *part_ = (__global float *)(scratch_ + sbase);
    __local float4 xs_[64][5];
    const long c0_ = get_global_id(0) * 4, s_ = get_global_id(1);
    const int lid_ = (int)get_local_id(0);
    float4 acc_[16];
    #pragma unroll
    for (int r_ = 0; r_ < 16; r_++)
        acc_[r_] = 0;
    const long kend_ = min(n2, (s_ + 1) * KS);
    for (long k0_ = s_ * KS; k0_ < kend_; k0_ += 64) {
        const int kc_ = (int)min((long)64, kend_ - k0_);
        for (int t_ = lid_; t_ < 1024; t_ += (int)get_local_size(0)) {
            const int r_ = t_ / 64, u_ = t_ % 64;
            float xv_ = 0;
            if (r_ < n0 && u_ < kc_) {
                const long i0 = r_, i2 = k0_ + u_;
                const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                xv_ = v0;
            }
            ((__local float *)xs_[u_])[r_] = xv_;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        int j_ = 0;
        for (; j_ + 16 <= kc_; j_ += 16) {
            float4 yb_[16];
            if (c0_ + 4 <= n1) {
                #pragma unroll
                for (int u_ = 0; u_ < 16; u_++) {
                    const long i2 = k0_ + j_ + u_;
                    {
                        const long i1 = c0_;
                        const float4 t1 = *(__global const float4 *)(a1 + a1_o + i1 + i2 * a1_s2);
                        {
                            const long i1 = c0_ + 0;
                            const float v1 = t1.s0; /* buffer */
                            yb_[u_].s0 = v1;
                        }
                        {
                            const long i1 = c0_ + 1;
                            const float v1 = t1.s1; /* buffer */
                            yb_[u_].s1 = v1;
                        }
                        {
                            const long i1 = c0_ + 2;
                            const float v1 = t1.s2; /* buffer */
                            yb_[u_].s2 = v1;
                        }
                        {
                            const long i1 = c0_ + 3;
                            const float v1 = t1.s3; /* buffer */
                            yb_[u_].s3 = v1;
                        }
                    }
                }
            } else {
                #pragma unroll
                for (int u_ = 0; u_ < 16; u_++) {
                    const long i2 = k0_ + j_ + u_;
                    yb_[u_].s0 = 0;
                    if (c0_ + 0 < n1) {
                        const long i1 = c0_ + 0;
                        const float v1 = a1[a1_o + i1 + i2 * a1_s2]; /* buffer */
                        yb_[u_].s0 = v1;
                    }
                    yb_[u_].s1 = 0;
                    if (c0_ + 1 < n1) {
                        const long i1 = c0_ + 1;
                        const float v1 = a1[a1_o + i1 + i2 * a1_s2]; /* buffer */
                        yb_[u_].s1 = v1;
                    }
                    yb_[u_].s2 = 0;
                    if (c0_ + 2 < n1) {
                        const long i1 = c0_ + 2;
                        const float v1 = a1[a1_o + i1 + i2 * a1_s2]; /* buffer */
                        yb_[u_].s2 = v1;
                    }
                    yb_[u_].s3 = 0;
                    if (c0_ + 3 < n1) {
                        const long i1 = c0_ + 3;
                        const float v1 = a1[a1_o + i1 + i2 * a1_s2]; /* buffer */
                        yb_[u_].s3 = v1;
                    }
                }
            }
            #pragma unroll
            for (int u_ = 0; u_ < 16; u_++) {
                #pragma unroll
                for (int q_ = 0; q_ < 4; q_++)
                    if (4 * q_ < n0) {
                        const float4 x4_ = xs_[j_ + u_][q_];
                        acc_[4 * q_ + 0] = fma((float4)(x4_.s0), yb_[u_], acc_[4 * q_ + 0]);
                        acc_[4 * q_ + 1] = fma((float4)(x4_.s1), yb_[u_], acc_[4 * q_ + 1]);
                        acc_[4 * q_ + 2] = fma((float4)(x4_.s2), yb_[u_], acc_[4 * q_ + 2]);
                        acc_[4 * q_ + 3] = fma((float4)(x4_.s3), yb_[u_], acc_[4 * q_ + 3]);
                    }
            }
        }
        for (; j_ < kc_; j_++) {
            float4 y_;
            if (c0_ + 4 <= n1) {
                const long i2 = k0_ + j_;
                {
                    const long i1 = c0_;
                    const float4 t1 = *(__global const float4 *)(a1 + a1_o + i1 + i2 * a1_s2);
                    {
                        const long i1 = c0_ + 0;
                        const float v1 = t1.s0; /* buffer */
                        y_.s0 = v1;
                    }
                    {
                        const long i1 = c0_ + 1;
                        const float v1 = t1.s1; /* buffer */
                        y_.s1 = v1;
                    }
                    {
                        const long i1 = c0_ + 2;
                        const float v1 = t1.s2; /* buffer */
                        y_.s2 = v1;
                    }
                    {
                        const long i1 = c0_ + 3;
                        const float v1 = t1.s3; /* buffer */
                        y_.s3 = v1;
                    }
                }
            } else {
                const long i2 = k0_ + j_;
                y_.s0 = 0;
                if (c0_ + 0 < n1) {
                    const long i1 = c0_ + 0;
                    const float v1 = a1[a1_o + i1 + i2 * a1_s2]; /* buffer */
                    y_.s0 = v1;
                }
                y_.s1 = 0;
                if (c0_ + 1 < n1) {
                    const long i1 = c0_ + 1;
                    const float v1 = a1[a1_o + i1 + i2 * a1_s2]; /* buffer */
                    y_.s1 = v1;
                }
                y_.s2 = 0;
                if (c0_ + 2 < n1) {
                    const long i1 = c0_ + 2;
                    const float v1 = a1[a1_o + i1 + i2 * a1_s2]; /* buffer */
                    y_.s2 = v1;
                }
                y_.s3 = 0;
                if (c0_ + 3 < n1) {
                    const long i1 = c0_ + 3;
                    const float v1 = a1[a1_o + i1 + i2 * a1_s2]; /* buffer */
                    y_.s3 = v1;
                }
            }
            #pragma unroll
            for (int q_ = 0; q_ < 4; q_++)
                if (4 * q_ < n0) {
                    const float4 x4_ = xs_[j_][q_];
                    acc_[4 * q_ + 0] = fma((float4)(x4_.s0), y_, acc_[4 * q_ + 0]);
                    acc_[4 * q_ + 1] = fma((float4)(x4_.s1), y_, acc_[4 * q_ + 1]);
                    acc_[4 * q_ + 2] = fma((float4)(x4_.s2), y_, acc_[4 * q_ + 2]);
                    acc_[4 * q_ + 3] = fma((float4)(x4_.s3), y_, acc_[4 * q_ + 3]);
                }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (c0_ >= n1)
        return;
    __global float *p_ = part_ + s_ * n0 * n1 + c0_;
    #pragma unroll
    for (int r_ = 0; r_ < 16; r_++)
        if (r_ < n0) {
            p_[r_ * n1] = acc_[r_].s0;
            if (c0_ + 1 < n1) p_[r_ * n1 + 1] = acc_[r_].s1;
            if (c0_ + 2 < n1) p_[r_ * n1 + 2] = acc_[r_].s2;
            if (c0_ + 3 < n1) p_[r_ * n1 + 3] = acc_[r_].s3;
        }
}

__kernel void lc_gemm_f32_6af52778a57050b8_comb(
    __global float *restrict out0,
    __global const float *restrict a0, const long a0_o, const long a0_s0,
    __global const float *restrict a1, const long a1_o, const long a1_s2,
    __global const float *restrict a2, const long a2_o,
    const float a3_v,
    const long n0,
    const long n1,
    const long n2, const long os0_0,
    __global char *scratch_, const long sbase, const long S, const long KS)
{
    __local float red_[4][32];
    const int lid_ = (int)get_local_id(0), o_ = lid_ % 32, j_ = lid_ / 32;
    const long g_ = (long)get_group_id(0) * 32 + o_, st_ = n0 * n1;
    __global const float *p_ = (__global const float *)(scratch_ + sbase) + g_;
    float sum_ = 0;
    if (g_ < st_) {
        long s_ = j_;
        for (; s_ + 12 < S; s_ += 16) {
            float pv_[4];
            #pragma unroll
            for (int e_ = 0; e_ < 4; e_++)
                pv_[e_] = p_[(s_ + 4 * e_) * st_];
            #pragma unroll
            for (int e_ = 0; e_ < 4; e_++)
                sum_ += pv_[e_];
        }
        for (; s_ < S; s_ += 4)
            sum_ += p_[s_ * st_];
    }
    red_[j_][o_] = sum_;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (j_ != 0 || g_ >= st_)
        return;
    sum_ = red_[0][o_] + red_[1][o_];
    sum_ += red_[2][o_];
    sum_ += red_[3][o_];
    const long i0 = g_ / n1, i1 = g_ % n1;
    const double s0_a = sum_;
    const float v3 = (float)s0_a; /* result of sum */
    const float v4 = a2[a2_o + i1]; /* buffer */
    const float v5 = (v3 + v4); /* add */
    const float v6 = a3_v; /* full */
    const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
    out0[i0 * os0_0 + i1] = v7;
}

