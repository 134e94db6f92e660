/* ---- kernel 0: schedule "gemm: 4 rows x 16 columns per item (8-wide vectors), panels of 256 along K in local memory, post-reduction partials", 2 launches: lc_gemm_f32_2144eb3b40c1cc5c lc_gemm_f32_2144eb3b40c1cc5c_post */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
/* lazycl: SPIR unoptimized */
/* lazycl gemm kernel: 7 fused ops; gemm: 4 rows x 16 columns per item (8-wide vectors), panels of 256 along K in local memory, post-reduction partials. */
__kernel __attribute__((reqd_work_group_size(16, 1, 1)))
void lc_gemm_f32_2144eb3b40c1cc5c(
    __global float *restrict out0,
    __global const float *restrict a0, const long a0_o, const long a0_s0,
    __global const float *restrict a1, const long a1_o, const long a1_s2,
    __global const float *restrict a2, const long a2_o,
    const float a3_v,
    const long n0,
    const long n1,
    const long n2, const long MG, const long NB,
    __global char *scratch_, const long sbase, const long pMB, const long pNB, const long pNO, const long pT, const long so1_0)
{
    __local float8 Bp[256][2];
    const long q_ = get_group_id(0);
    const int lid = get_local_id(0);
    const long qm_ = q_ / NB % MG, qn_ = q_ % NB;   /* the group's blocks */
    const long bm_ = qm_ * 64 + lid * 4, bn_ = qn_ * 16;
    const int nfull_ = bn_ + 16 <= n1;
    __local double pl1_0[256];
    __global char *scratch = scratch_ + sbase;
    long pob_ = 0, ptb_ = 0;
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
                const float8 w1 = vload8(0, a1 + (a1_o + i1 + i2 * a1_s2)); /* buffer */
                Bp[kk][0] = w1;
            } else {
                float e_[8];
                for (int p = 0; p < 8; p++) {
                    const long i1 = bn_ + 0 + p;
                    e_[p] = 0;
                    if (i2 < n2 && i1 < n1) {
                        const float v1 = a1[a1_o + i1 + i2 * a1_s2]; /* buffer */
                        e_[p] = v1;
                    }
                }
                Bp[kk][0] = vload8(0, e_);
            }
            if (i2 < n2 && nfull_) {
                const long i1 = bn_ + 8;
                const float8 w1 = vload8(0, a1 + (a1_o + i1 + i2 * a1_s2)); /* buffer */
                Bp[kk][1] = w1;
            } else {
                float e_[8];
                for (int p = 0; p < 8; p++) {
                    const long i1 = bn_ + 8 + p;
                    e_[p] = 0;
                    if (i2 < n2 && i1 < n1) {
                        const float v1 = a1[a1_o + i1 + i2 * a1_s2]; /* buffer */
                        e_[p] = v1;
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
                a_[0] = v0;
            }
            {
                const long i0 = min(bm_ + 1, n0 - 1);
                const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                a_[1] = v0;
            }
            {
                const long i0 = min(bm_ + 2, n0 - 1);
                const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                a_[2] = v0;
            }
            {
                const long i0 = min(bm_ + 3, n0 - 1);
                const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                a_[3] = v0;
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
    for (int j = 0; j < 2; j++) {
        {
            const int cl_ = j * 8 + 0;
            const long i1 = bn_ + cl_;
            double p1_a = 0;
            for (int i = 0; i < 4; i++) {
                const long i0 = bm_ + i;
                if (i0 < n0 && i1 < n1) {
                    const double s0_a = tot[i][j].s0;
                    const float v3 = (float)s0_a; /* result of sum */
                    const float v4 = a2[a2_o + i1]; /* buffer */
                    const float v5 = (v3 + v4); /* add */
                    const float v6 = a3_v; /* full */
                    const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
                    const float v8 = (v7 * v7); /* multiply */
                    p1_a += (double)v8;
                }
            }
            pl1_0[lid * 16 + cl_] = p1_a;
        }
        {
            const int cl_ = j * 8 + 1;
            const long i1 = bn_ + cl_;
            double p1_a = 0;
            for (int i = 0; i < 4; i++) {
                const long i0 = bm_ + i;
                if (i0 < n0 && i1 < n1) {
                    const double s0_a = tot[i][j].s1;
                    const float v3 = (float)s0_a; /* result of sum */
                    const float v4 = a2[a2_o + i1]; /* buffer */
                    const float v5 = (v3 + v4); /* add */
                    const float v6 = a3_v; /* full */
                    const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
                    const float v8 = (v7 * v7); /* multiply */
                    p1_a += (double)v8;
                }
            }
            pl1_0[lid * 16 + cl_] = p1_a;
        }
        {
            const int cl_ = j * 8 + 2;
            const long i1 = bn_ + cl_;
            double p1_a = 0;
            for (int i = 0; i < 4; i++) {
                const long i0 = bm_ + i;
                if (i0 < n0 && i1 < n1) {
                    const double s0_a = tot[i][j].s2;
                    const float v3 = (float)s0_a; /* result of sum */
                    const float v4 = a2[a2_o + i1]; /* buffer */
                    const float v5 = (v3 + v4); /* add */
                    const float v6 = a3_v; /* full */
                    const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
                    const float v8 = (v7 * v7); /* multiply */
                    p1_a += (double)v8;
                }
            }
            pl1_0[lid * 16 + cl_] = p1_a;
        }
        {
            const int cl_ = j * 8 + 3;
            const long i1 = bn_ + cl_;
            double p1_a = 0;
            for (int i = 0; i < 4; i++) {
                const long i0 = bm_ + i;
                if (i0 < n0 && i1 < n1) {
                    const double s0_a = tot[i][j].s3;
                    const float v3 = (float)s0_a; /* result of sum */
                    const float v4 = a2[a2_o + i1]; /* buffer */
                    const float v5 = (v3 + v4); /* add */
                    const float v6 = a3_v; /* full */
                    const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
                    const float v8 = (v7 * v7); /* multiply */
                    p1_a += (double)v8;
                }
            }
            pl1_0[lid * 16 + cl_] = p1_a;
        }
        {
            const int cl_ = j * 8 + 4;
            const long i1 = bn_ + cl_;
            double p1_a = 0;
            for (int i = 0; i < 4; i++) {
                const long i0 = bm_ + i;
                if (i0 < n0 && i1 < n1) {
                    const double s0_a = tot[i][j].s4;
                    const float v3 = (float)s0_a; /* result of sum */
                    const float v4 = a2[a2_o + i1]; /* buffer */
                    const float v5 = (v3 + v4); /* add */
                    const float v6 = a3_v; /* full */
                    const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
                    const float v8 = (v7 * v7); /* multiply */
                    p1_a += (double)v8;
                }
            }
            pl1_0[lid * 16 + cl_] = p1_a;
        }
        {
            const int cl_ = j * 8 + 5;
            const long i1 = bn_ + cl_;
            double p1_a = 0;
            for (int i = 0; i < 4; i++) {
                const long i0 = bm_ + i;
                if (i0 < n0 && i1 < n1) {
                    const double s0_a = tot[i][j].s5;
                    const float v3 = (float)s0_a; /* result of sum */
                    const float v4 = a2[a2_o + i1]; /* buffer */
                    const float v5 = (v3 + v4); /* add */
                    const float v6 = a3_v; /* full */
                    const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
                    const float v8 = (v7 * v7); /* multiply */
                    p1_a += (double)v8;
                }
            }
            pl1_0[lid * 16 + cl_] = p1_a;
        }
        {
            const int cl_ = j * 8 + 6;
            const long i1 = bn_ + cl_;
            double p1_a = 0;
            for (int i = 0; i < 4; i++) {
                const long i0 = bm_ + i;
                if (i0 < n0 && i1 < n1) {
                    const double s0_a = tot[i][j].s6;
                    const float v3 = (float)s0_a; /* result of sum */
                    const float v4 = a2[a2_o + i1]; /* buffer */
                    const float v5 = (v3 + v4); /* add */
                    const float v6 = a3_v; /* full */
                    const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
                    const float v8 = (v7 * v7); /* multiply */
                    p1_a += (double)v8;
                }
            }
            pl1_0[lid * 16 + cl_] = p1_a;
        }
        {
            const int cl_ = j * 8 + 7;
            const long i1 = bn_ + cl_;
            double p1_a = 0;
            for (int i = 0; i < 4; i++) {
                const long i0 = bm_ + i;
                if (i0 < n0 && i1 < n1) {
                    const double s0_a = tot[i][j].s7;
                    const float v3 = (float)s0_a; /* result of sum */
                    const float v4 = a2[a2_o + i1]; /* buffer */
                    const float v5 = (v3 + v4); /* add */
                    const float v6 = a3_v; /* full */
                    const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
                    const float v8 = (v7 * v7); /* multiply */
                    p1_a += (double)v8;
                }
            }
            pl1_0[lid * 16 + cl_] = p1_a;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int cl_ = lid; cl_ < 16; cl_ += 16) {
        const long i1 = bn_ + cl_;
        if (i1 < n1) {
            double p1_a = 0;
            for (int u_ = 0; u_ < 16; u_++) {
                const double o1_a = pl1_0[u_ * 16 + cl_];
                p1_a += o1_a;
            }
            {
                const long pat_ = ((ptb_ * pMB + qm_)) * pNO + (pob_ * n1 + i1);
                ((__global double *)(scratch + so1_0))[pat_] = p1_a;
            }
        }
    }
}

/* The partials of each output combined in order, then phase 2. */
__kernel void lc_gemm_f32_2144eb3b40c1cc5c_post(
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

