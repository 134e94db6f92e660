/* ---- kernel 0: schedule "gemm: 128x128 tiles of 4 along K in local memory, 8x8 per item, 4-wide reads, post-reduction partials", 2 launches: lc_gemm_f32_c9355dbb4a3c1dd4 lc_gemm_f32_c9355dbb4a3c1dd4_post */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
/* lazycl: SPIR unoptimized */
/* lazycl gemm kernel: 7 fused ops; gemm: 128x128 tiles of 4 along K in local memory, 8x8 per item, 4-wide reads, post-reduction partials. */
__kernel __attribute__((reqd_work_group_size(16, 16, 1)))
void lc_gemm_f32_c9355dbb4a3c1dd4(
    __global float *restrict out0,
    __global const float *restrict a0, const long a0_o, const long a0_s0,
    __global const float *restrict a1, const long a1_o, const long a1_s2,
    __global const float *restrict a2, const long a2_o,
    const float a3_v,
    const long n0,
    const long n1,
    const long n2,
    __global char *scratch_, const long sbase, const long pMB, const long pNB, const long pNO, const long pT, const long so1_0)
{
    __local float4 As[4][33];
    __local float4 Bs[4][33];
    const int tx = get_local_id(0), ty = get_local_id(1), tid = ty * 16 + tx;
    const long bm_ = (long)get_group_id(1) * 128, bn_ = (long)get_group_id(0) * 128;
    __local double pl1_0[2048];
    __global char *scratch = scratch_ + sbase;
    long pob_ = 0, ptb_ = 0;
    float4 acc[8][2];
    #pragma unroll
    for (int i = 0; i < 8; i++)
        #pragma unroll
        for (int j = 0; j < 2; j++)
            acc[i][j] = 0;
    float u1_[2], u2_[2];
    {
        #pragma unroll
        for (int j_ = 0; j_ < 2; j_++) {
            const int l_ = tid + 256 * j_;
            const int kk = l_ % 4, rr = l_ / 4;
            const long i0 = bm_ + rr, i2 = 0 + kk;
            u1_[j_] = 0;
            if (i0 < n0 && i2 < n2) {
                const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                u1_[j_] = v0;
            }
        }
        #pragma unroll
        for (int j_ = 0; j_ < 2; j_++) {
            const int l_ = tid + 256 * j_;
            const int rr = l_ % 128, kk = l_ / 128;
            const long i1 = bn_ + rr, i2 = 0 + kk;
            u2_[j_] = 0;
            if (i1 < n1 && i2 < n2) {
                const float v1 = a1[a1_o + i1 + i2 * a1_s2]; /* buffer */
                u2_[j_] = v1;
            }
        }
    }
    for (long k0 = 0; k0 < n2; k0 += 4) {
        #pragma unroll
        for (int j_ = 0; j_ < 2; j_++) {
            const int l_ = tid + 256 * j_;
            const int kk = l_ % 4, rr = l_ / 4;
            ((__local float *)As[kk])[rr] = u1_[j_];
        }
        #pragma unroll
        for (int j_ = 0; j_ < 2; j_++) {
            const int l_ = tid + 256 * j_;
            const int rr = l_ % 128, kk = l_ / 128;
            ((__local float *)Bs[kk])[rr] = u2_[j_];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        const long k1_ = k0 + 4;
        if (k1_ < n2) {
        #pragma unroll
        for (int j_ = 0; j_ < 2; j_++) {
            const int l_ = tid + 256 * j_;
            const int kk = l_ % 4, rr = l_ / 4;
            const long i0 = bm_ + rr, i2 = k1_ + kk;
            u1_[j_] = 0;
            if (i0 < n0 && i2 < n2) {
                const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                u1_[j_] = v0;
            }
        }
        #pragma unroll
        for (int j_ = 0; j_ < 2; j_++) {
            const int l_ = tid + 256 * j_;
            const int rr = l_ % 128, kk = l_ / 128;
            const long i1 = bn_ + rr, i2 = k1_ + kk;
            u2_[j_] = 0;
            if (i1 < n1 && i2 < n2) {
                const float v1 = a1[a1_o + i1 + i2 * a1_s2]; /* buffer */
                u2_[j_] = v1;
            }
        }
        }
        #pragma unroll
        for (int kk = 0; kk < 4; kk++) {
            float4 a_[2], b_[2];
            #pragma unroll
            for (int i = 0; i < 2; i++)
                a_[i] = As[kk][i * 16 + ty];
            #pragma unroll
            for (int j = 0; j < 2; j++)
                b_[j] = Bs[kk][j * 16 + tx];
            #pragma unroll
            for (int i = 0; i < 2; i++)
                #pragma unroll
                for (int j = 0; j < 2; j++) {
                    acc[i * 4 + 0][j] = fma((float4)(a_[i].s0), b_[j], acc[i * 4 + 0][j]);
                    acc[i * 4 + 1][j] = fma((float4)(a_[i].s1), b_[j], acc[i * 4 + 1][j]);
                    acc[i * 4 + 2][j] = fma((float4)(a_[i].s2), b_[j], acc[i * 4 + 2][j]);
                    acc[i * 4 + 3][j] = fma((float4)(a_[i].s3), b_[j], acc[i * 4 + 3][j]);
                }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    for (int j = 0; j < 2; j++) {
        {
            const int cl_ = (j * 16 + tx) * 4 + 0;
            const long i1 = bn_ + cl_;
            double p1_a = 0;
            if (i1 < n1) {
                for (int i = 0; i < 2; i++) {
                    for (int q = 0; q < 4; q++) {
                        const long i0 = bm_ + (i * 16 + ty) * 4 + q;
                        if (i0 < n0) {
                            const double s0_a = acc[i * 4 + q][j].s0;
                            const float v3 = (float)s0_a; /* result of sum */
                            const float v4 = a2[a2_o + i1]; /* buffer */
                            const float v5 = (v3 + v4); /* add */
                            const float v6 = a3_v; /* full */
                            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
                            const float v8 = (v7 * v7); /* multiply */
                            p1_a += (double)v8;
                        }
                    }
                }
            }
            pl1_0[cl_ * 16 + ty] = p1_a;
        }
        {
            const int cl_ = (j * 16 + tx) * 4 + 1;
            const long i1 = bn_ + cl_;
            double p1_a = 0;
            if (i1 < n1) {
                for (int i = 0; i < 2; i++) {
                    for (int q = 0; q < 4; q++) {
                        const long i0 = bm_ + (i * 16 + ty) * 4 + q;
                        if (i0 < n0) {
                            const double s0_a = acc[i * 4 + q][j].s1;
                            const float v3 = (float)s0_a; /* result of sum */
                            const float v4 = a2[a2_o + i1]; /* buffer */
                            const float v5 = (v3 + v4); /* add */
                            const float v6 = a3_v; /* full */
                            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
                            const float v8 = (v7 * v7); /* multiply */
                            p1_a += (double)v8;
                        }
                    }
                }
            }
            pl1_0[cl_ * 16 + ty] = p1_a;
        }
        {
            const int cl_ = (j * 16 + tx) * 4 + 2;
            const long i1 = bn_ + cl_;
            double p1_a = 0;
            if (i1 < n1) {
                for (int i = 0; i < 2; i++) {
                    for (int q = 0; q < 4; q++) {
                        const long i0 = bm_ + (i * 16 + ty) * 4 + q;
                        if (i0 < n0) {
                            const double s0_a = acc[i * 4 + q][j].s2;
                            const float v3 = (float)s0_a; /* result of sum */
                            const float v4 = a2[a2_o + i1]; /* buffer */
                            const float v5 = (v3 + v4); /* add */
                            const float v6 = a3_v; /* full */
                            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
                            const float v8 = (v7 * v7); /* multiply */
                            p1_a += (double)v8;
                        }
                    }
                }
            }
            pl1_0[cl_ * 16 + ty] = p1_a;
        }
        {
            const int cl_ = (j * 16 + tx) * 4 + 3;
            const long i1 = bn_ + cl_;
            double p1_a = 0;
            if (i1 < n1) {
                for (int i = 0; i < 2; i++) {
                    for (int q = 0; q < 4; q++) {
                        const long i0 = bm_ + (i * 16 + ty) * 4 + q;
                        if (i0 < n0) {
                            const double s0_a = acc[i * 4 + q][j].s3;
                            const float v3 = (float)s0_a; /* result of sum */
                            const float v4 = a2[a2_o + i1]; /* buffer */
                            const float v5 = (v3 + v4); /* add */
                            const float v6 = a3_v; /* full */
                            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
                            const float v8 = (v7 * v7); /* multiply */
                            p1_a += (double)v8;
                        }
                    }
                }
            }
            pl1_0[cl_ * 16 + ty] = p1_a;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int cl_ = tid; cl_ < 128; cl_ += 256) {
        const long i1 = bn_ + cl_;
        if (i1 < n1) {
            double p1_a = 0;
            for (int u_ = 0; u_ < 16; u_++) {
                const double o1_a = pl1_0[cl_ * 16 + u_];
                p1_a += o1_a;
            }
            {
                const long pat_ = ((ptb_ * pMB + (long)get_group_id(1))) * pNO + (pob_ * n1 + i1);
                ((__global double *)(scratch + so1_0))[pat_] = p1_a;
            }
        }
    }
}

/* The partials of each output combined in order, then phase 2. */
__kernel void lc_gemm_f32_c9355dbb4a3c1dd4_post(
    __global float *restrict out0,
    __global const float *restrict a0, const long a0_o, const long a0_s0,
    __global const float *restrict a1, const long a1_o, const long a1_s2,
    __global const float *restrict a2, const long a2_o,
    const float a3_v,
    const long n0,
    const long n1,
    const long n2,
    __global char *scratch_, const long sbase, const long pMB, const long pNB, const long pNO, const long pT, const long so1_0)
{
    __global char *scratch = scratch_ + sbase;
    const long o_ = get_global_id(0);
    if (o_ >= pNO)
        return;
    long r_ = o_;
    const long i1 = r_ % n1; r_ /= n1;
    double s1_a = 0;
    for (long u_ = 0; u_ < pT; u_++) {
        const long at_ = u_ * pNO + o_;
        double o1_a = ((volatile __global double *)(scratch + so1_0))[at_];
        s1_a += o1_a;
    }
    const float v9 = (float)s1_a; /* result of sum */
    const float v10 = (sqrt(v9)); /* sqrt */
    out0[i1] = v10;
}

