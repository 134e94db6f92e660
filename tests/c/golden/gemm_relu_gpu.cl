/* ---- kernel 0: schedule "gemm: 128x128 tiles of 4 along K in local memory, 8x8 per item, 4-wide reads", 1 launch: lc_gemm_f32_f1d2f27ed97b094b */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
/* lazycl: SPIR unoptimized */
/* lazycl gemm kernel: 7 fused ops; gemm: 128x128 tiles of 4 along K in local memory, 8x8 per item, 4-wide reads. */
__kernel __attribute__((reqd_work_group_size(16, 16, 1)))
void lc_gemm_f32_f1d2f27ed97b094b(
    __global float *restrict out0,
    __global const float *restrict a0, const long a0_o, const long a0_s0,
    const float a1_v,
    __global const float *restrict a2, const long a2_o, const long a2_s2,
    __global const float *restrict a3, const long a3_o,
    const float a4_v,
    const long n0,
    const long n1,
    const long n2, const long os0_0)
{
    __local float4 As[4][33];
    __local float4 Bs[4][33];
    const int tx = get_local_id(0), ty = get_local_id(1), tid = ty * 16 + tx;
    const long bm_ = (long)get_group_id(1) * 128, bn_ = (long)get_group_id(0) * 128;
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
                const float v1 = a1_v; /* full */
                const float v2 = (v0 * v1); /* multiply */
                u1_[j_] = v2;
            }
        }
        #pragma unroll
        for (int j_ = 0; j_ < 2; j_++) {
            const int l_ = tid + 256 * j_;
            const int rr = l_ % 128, kk = l_ / 128;
            const long i1 = bn_ + rr, i2 = 0 + kk;
            u2_[j_] = 0;
            if (i1 < n1 && i2 < n2) {
                const float v3 = a2[a2_o + i1 + i2 * a2_s2]; /* buffer */
                u2_[j_] = v3;
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
                const float v1 = a1_v; /* full */
                const float v2 = (v0 * v1); /* multiply */
                u1_[j_] = v2;
            }
        }
        #pragma unroll
        for (int j_ = 0; j_ < 2; j_++) {
            const int l_ = tid + 256 * j_;
            const int rr = l_ % 128, kk = l_ / 128;
            const long i1 = bn_ + rr, i2 = k1_ + kk;
            u2_[j_] = 0;
            if (i1 < n1 && i2 < n2) {
                const float v3 = a2[a2_o + i1 + i2 * a2_s2]; /* buffer */
                u2_[j_] = v3;
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
    #pragma unroll
    for (int i = 0; i < 2; i++) {
        #pragma unroll
        for (int q = 0; q < 4; q++) {
            const long i0 = bm_ + (i * 16 + ty) * 4 + q;
            if (i0 < n0) {
                #pragma unroll
                for (int j = 0; j < 2; j++) {
                    {
                        const long i1 = bn_ + (j * 16 + tx) * 4 + 0;
                        if (i1 < n1) {
                            const double s0_a = acc[i * 4 + q][j].s0;
                            const float v5 = (float)s0_a; /* result of sum */
                            const float v6 = a3[a3_o + i1]; /* buffer */
                            const float v7 = (v5 + v6); /* add */
                            const float v8 = a4_v; /* full */
                            const float v9 = ((v7 >= v8 || isnan(v7)) ? v7 : v8); /* maximum */
                            out0[i0 * os0_0 + i1] = v9;
                        }
                    }
                    {
                        const long i1 = bn_ + (j * 16 + tx) * 4 + 1;
                        if (i1 < n1) {
                            const double s0_a = acc[i * 4 + q][j].s1;
                            const float v5 = (float)s0_a; /* result of sum */
                            const float v6 = a3[a3_o + i1]; /* buffer */
                            const float v7 = (v5 + v6); /* add */
                            const float v8 = a4_v; /* full */
                            const float v9 = ((v7 >= v8 || isnan(v7)) ? v7 : v8); /* maximum */
                            out0[i0 * os0_0 + i1] = v9;
                        }
                    }
                    {
                        const long i1 = bn_ + (j * 16 + tx) * 4 + 2;
                        if (i1 < n1) {
                            const double s0_a = acc[i * 4 + q][j].s2;
                            const float v5 = (float)s0_a; /* result of sum */
                            const float v6 = a3[a3_o + i1]; /* buffer */
                            const float v7 = (v5 + v6); /* add */
                            const float v8 = a4_v; /* full */
                            const float v9 = ((v7 >= v8 || isnan(v7)) ? v7 : v8); /* maximum */
                            out0[i0 * os0_0 + i1] = v9;
                        }
                    }
                    {
                        const long i1 = bn_ + (j * 16 + tx) * 4 + 3;
                        if (i1 < n1) {
                            const double s0_a = acc[i * 4 + q][j].s3;
                            const float v5 = (float)s0_a; /* result of sum */
                            const float v6 = a3[a3_o + i1]; /* buffer */
                            const float v7 = (v5 + v6); /* add */
                            const float v8 = a4_v; /* full */
                            const float v9 = ((v7 >= v8 || isnan(v7)) ? v7 : v8); /* maximum */
                            out0[i0 * os0_0 + i1] = v9;
                        }
                    }
                }
            }
        }
    }
}

