/* ---- kernel 0: schedule "gemm: 4 rows x 16 columns per item (8-wide vectors), panels of 256 along K in local memory", 1 launch: lc_gemm_f32_05b5534c5a942498 */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
/* lazycl: SPIR unoptimized */
/* lazycl gemm kernel: 7 fused ops; gemm: 4 rows x 16 columns per item (8-wide vectors), panels of 256 along K in local memory. */
__kernel __attribute__((reqd_work_group_size(16, 1, 1)))
void lc_gemm_f32_05b5534c5a942498(
    __global float *restrict out0,
    __global const float *restrict a0, const long a0_o, const long a0_s0,
    const float a1_v,
    __global const float *restrict a2, const long a2_o, const long a2_s2,
    __global const float *restrict a3, const long a3_o,
    const float a4_v,
    const long n0,
    const long n1,
    const long n2, const long os0_0, const long MG, const long NB)
{
    __local float8 Bp[256][2];
    const long q_ = get_group_id(0);
    const int lid = get_local_id(0);
    const long qm_ = q_ / NB % MG, qn_ = q_ % NB;   /* the group's blocks */
    const long bm_ = qm_ * 64 + lid * 4, bn_ = qn_ * 16;
    const int nfull_ = bn_ + 16 <= n1;
    float8 acc[4][2], tot[4][2];
    tot[0][0] = 0;
    tot[0][1] = 0;
    tot[1][0] = 0;
    tot[1][1] = 0;
    tot[2][0] = 0;
    tot[2][1] = 0;
    tot[3][0] = 0;
    tot[3][1] = 0;
    for (long k0 = 0; k0 < n2; k0 += 256) {
        acc[0][0] = 0;
        acc[0][1] = 0;
        acc[1][0] = 0;
        acc[1][1] = 0;
        acc[2][0] = 0;
        acc[2][1] = 0;
        acc[3][0] = 0;
        acc[3][1] = 0;
        for (int kk = lid; kk < 256; kk += 16) {
            const long i2 = k0 + kk;
            if (i2 < n2 && nfull_) {
                const long i1 = bn_ + 0;
                const float8 w3 = vload8(0, a2 + (a2_o + i1 + i2 * a2_s2)); /* buffer */
                Bp[kk][0] = w3;
            } else {
                float e_[8];
                for (int p = 0; p < 8; p++) {
                    const long i1 = bn_ + 0 + p;
                    e_[p] = 0;
                    if (i2 < n2 && i1 < n1) {
                        const float v3 = a2[a2_o + i1 + i2 * a2_s2]; /* buffer */
                        e_[p] = v3;
                    }
                }
                Bp[kk][0] = vload8(0, e_);
            }
            if (i2 < n2 && nfull_) {
                const long i1 = bn_ + 8;
                const float8 w3 = vload8(0, a2 + (a2_o + i1 + i2 * a2_s2)); /* buffer */
                Bp[kk][1] = w3;
            } else {
                float e_[8];
                for (int p = 0; p < 8; p++) {
                    const long i1 = bn_ + 8 + p;
                    e_[p] = 0;
                    if (i2 < n2 && i1 < n1) {
                        const float v3 = a2[a2_o + i1 + i2 * a2_s2]; /* buffer */
                        e_[p] = v3;
                    }
                }
                Bp[kk][1] = vload8(0, e_);
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        const int kn_ = min((long)256, n2 - k0);
        for (int kk = 0; kk < kn_; kk++) {
            const long i2 = k0 + kk;
            float a_[4];
            {
                const long i0 = min(bm_ + 0, n0 - 1);
                const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                const float v1 = a1_v; /* full */
                const float v2 = (v0 * v1); /* multiply */
                a_[0] = v2;
            }
            {
                const long i0 = min(bm_ + 1, n0 - 1);
                const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                const float v1 = a1_v; /* full */
                const float v2 = (v0 * v1); /* multiply */
                a_[1] = v2;
            }
            {
                const long i0 = min(bm_ + 2, n0 - 1);
                const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                const float v1 = a1_v; /* full */
                const float v2 = (v0 * v1); /* multiply */
                a_[2] = v2;
            }
            {
                const long i0 = min(bm_ + 3, n0 - 1);
                const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                const float v1 = a1_v; /* full */
                const float v2 = (v0 * v1); /* multiply */
                a_[3] = v2;
            }
            {
                const float8 x_ = (float8)(a_[0]);
                acc[0][0] = fma(x_, Bp[kk][0], acc[0][0]);
                acc[0][1] = fma(x_, Bp[kk][1], acc[0][1]);
            }
            {
                const float8 x_ = (float8)(a_[1]);
                acc[1][0] = fma(x_, Bp[kk][0], acc[1][0]);
                acc[1][1] = fma(x_, Bp[kk][1], acc[1][1]);
            }
            {
                const float8 x_ = (float8)(a_[2]);
                acc[2][0] = fma(x_, Bp[kk][0], acc[2][0]);
                acc[2][1] = fma(x_, Bp[kk][1], acc[2][1]);
            }
            {
                const float8 x_ = (float8)(a_[3]);
                acc[3][0] = fma(x_, Bp[kk][0], acc[3][0]);
                acc[3][1] = fma(x_, Bp[kk][1], acc[3][1]);
            }
        }
        tot[0][0] += acc[0][0];
        tot[0][1] += acc[0][1];
        tot[1][0] += acc[1][0];
        tot[1][1] += acc[1][1];
        tot[2][0] += acc[2][0];
        tot[2][1] += acc[2][1];
        tot[3][0] += acc[3][0];
        tot[3][1] += acc[3][1];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    for (int i = 0; i < 4; i++) {
        const long i0 = bm_ + i;
        if (i0 >= n0)
            break;
        for (int j = 0; j < 2; j++) {
            {
                const long i1 = bn_ + j * 8 + 0;
                if (i1 < n1) {
                    const double s0_a = tot[i][j].s0;
                    const float v5 = (float)s0_a; /* result of sum */
                    const float v6 = a3[a3_o + i1]; /* buffer */
                    const float v7 = (v5 + v6); /* add */
                    const float v8 = a4_v; /* full */
                    const float v9 = ((v7 >= v8 || isnan(v7)) ? v7 : v8); /* maximum */
                    out0[i0 * os0_0 + i1] = v9;
                }
            }
            {
                const long i1 = bn_ + j * 8 + 1;
                if (i1 < n1) {
                    const double s0_a = tot[i][j].s1;
                    const float v5 = (float)s0_a; /* result of sum */
                    const float v6 = a3[a3_o + i1]; /* buffer */
                    const float v7 = (v5 + v6); /* add */
                    const float v8 = a4_v; /* full */
                    const float v9 = ((v7 >= v8 || isnan(v7)) ? v7 : v8); /* maximum */
                    out0[i0 * os0_0 + i1] = v9;
                }
            }
            {
                const long i1 = bn_ + j * 8 + 2;
                if (i1 < n1) {
                    const double s0_a = tot[i][j].s2;
                    const float v5 = (float)s0_a; /* result of sum */
                    const float v6 = a3[a3_o + i1]; /* buffer */
                    const float v7 = (v5 + v6); /* add */
                    const float v8 = a4_v; /* full */
                    const float v9 = ((v7 >= v8 || isnan(v7)) ? v7 : v8); /* maximum */
                    out0[i0 * os0_0 + i1] = v9;
                }
            }
            {
                const long i1 = bn_ + j * 8 + 3;
                if (i1 < n1) {
                    const double s0_a = tot[i][j].s3;
                    const float v5 = (float)s0_a; /* result of sum */
                    const float v6 = a3[a3_o + i1]; /* buffer */
                    const float v7 = (v5 + v6); /* add */
                    const float v8 = a4_v; /* full */
                    const float v9 = ((v7 >= v8 || isnan(v7)) ? v7 : v8); /* maximum */
                    out0[i0 * os0_0 + i1] = v9;
                }
            }
            {
                const long i1 = bn_ + j * 8 + 4;
                if (i1 < n1) {
                    const double s0_a = tot[i][j].s4;
                    const float v5 = (float)s0_a; /* result of sum */
                    const float v6 = a3[a3_o + i1]; /* buffer */
                    const float v7 = (v5 + v6); /* add */
                    const float v8 = a4_v; /* full */
                    const float v9 = ((v7 >= v8 || isnan(v7)) ? v7 : v8); /* maximum */
                    out0[i0 * os0_0 + i1] = v9;
                }
            }
            {
                const long i1 = bn_ + j * 8 + 5;
                if (i1 < n1) {
                    const double s0_a = tot[i][j].s5;
                    const float v5 = (float)s0_a; /* result of sum */
                    const float v6 = a3[a3_o + i1]; /* buffer */
                    const float v7 = (v5 + v6); /* add */
                    const float v8 = a4_v; /* full */
                    const float v9 = ((v7 >= v8 || isnan(v7)) ? v7 : v8); /* maximum */
                    out0[i0 * os0_0 + i1] = v9;
                }
            }
            {
                const long i1 = bn_ + j * 8 + 6;
                if (i1 < n1) {
                    const double s0_a = tot[i][j].s6;
                    const float v5 = (float)s0_a; /* result of sum */
                    const float v6 = a3[a3_o + i1]; /* buffer */
                    const float v7 = (v5 + v6); /* add */
                    const float v8 = a4_v; /* full */
                    const float v9 = ((v7 >= v8 || isnan(v7)) ? v7 : v8); /* maximum */
                    out0[i0 * os0_0 + i1] = v9;
                }
            }
            {
                const long i1 = bn_ + j * 8 + 7;
                if (i1 < n1) {
                    const double s0_a = tot[i][j].s7;
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

