/* ---- kernel 0: schedule "gemm: all 8 rows x panels of up to 512 columns per item (8-wide vectors), 4 values of K a step", 1 launch: lc_gemm_f32_722d56fef283b644 */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
/* lazycl: SPIR unoptimized */
/* lazycl gemm kernel: 4 fused ops; gemm: all 8 rows x panels of up to 512 columns per item (8-wide vectors), 4 values of K a step. */
__kernel __attribute__((reqd_work_group_size(1, 1, 1)))
void lc_gemm_f32_722d56fef283b644(
    __global float *restrict out0,
    __global const float *restrict a0, const long a0_o, const long a0_s0,
    __global const float *restrict a1, const long a1_o, const long a1_s2,
    __global const float *restrict a2, const long a2_o,
    const float a3_v,
    const long n0,
    const long n1,
    const long n2, const long os0_0, const long PW)
{
    const long c0 = get_global_id(0) * PW * 8;
    const int nv = (int)min(PW, (n1 - c0) / 8);
    float8 acc[8][64], tot[8][64];
    for (int j = 0; j < nv; j++) {
        tot[0][j] = 0;
        tot[1][j] = 0;
        tot[2][j] = 0;
        tot[3][j] = 0;
        tot[4][j] = 0;
        tot[5][j] = 0;
        tot[6][j] = 0;
        tot[7][j] = 0;
    }
    for (long k0 = 0; k0 < n2; k0 += 256) {
    const long k1 = min(n2, k0 + 256);
    for (int j = 0; j < nv; j++) {
        acc[0][j] = 0;
        acc[1][j] = 0;
        acc[2][j] = 0;
        acc[3][j] = 0;
        acc[4][j] = 0;
        acc[5][j] = 0;
        acc[6][j] = 0;
        acc[7][j] = 0;
    }
    long e_ = k0;
    for (; e_ + 4 <= k1; e_ += 4) {
        int j = 0;
        for (; j + 1 <= nv; j += 1) {
            float8 y_[4][1];
            {
                const long i1 = c0 + (j + 0) * 8, i2 = e_ + 0;
                const float8 w1 = vload8(0, a1 + (a1_o + i1 + i2 * a1_s2)); /* buffer */
                y_[0][0] = w1;
            }
            {
                const long i1 = c0 + (j + 0) * 8, i2 = e_ + 1;
                const float8 w1 = vload8(0, a1 + (a1_o + i1 + i2 * a1_s2)); /* buffer */
                y_[1][0] = w1;
            }
            {
                const long i1 = c0 + (j + 0) * 8, i2 = e_ + 2;
                const float8 w1 = vload8(0, a1 + (a1_o + i1 + i2 * a1_s2)); /* buffer */
                y_[2][0] = w1;
            }
            {
                const long i1 = c0 + (j + 0) * 8, i2 = e_ + 3;
                const float8 w1 = vload8(0, a1 + (a1_o + i1 + i2 * a1_s2)); /* buffer */
                y_[3][0] = w1;
            }
            {
                float8 t_[1];
                {
                    const long i0 = 0, i2 = e_ + 0;
                    const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                    const float8 x_ = (float8)(v0);
                    t_[0] = x_ * y_[0][0];
                }
                {
                    const long i0 = 0, i2 = e_ + 1;
                    const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                    const float8 x_ = (float8)(v0);
                    t_[0] = fma(x_, y_[1][0], t_[0]);
                }
                {
                    const long i0 = 0, i2 = e_ + 2;
                    const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                    const float8 x_ = (float8)(v0);
                    t_[0] = fma(x_, y_[2][0], t_[0]);
                }
                {
                    const long i0 = 0, i2 = e_ + 3;
                    const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                    const float8 x_ = (float8)(v0);
                    t_[0] = fma(x_, y_[3][0], t_[0]);
                }
                acc[0][j + 0] += t_[0];
            }
            {
                float8 t_[1];
                {
                    const long i0 = 1, i2 = e_ + 0;
                    const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                    const float8 x_ = (float8)(v0);
                    t_[0] = x_ * y_[0][0];
                }
                {
                    const long i0 = 1, i2 = e_ + 1;
                    const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                    const float8 x_ = (float8)(v0);
                    t_[0] = fma(x_, y_[1][0], t_[0]);
                }
                {
                    const long i0 = 1, i2 = e_ + 2;
                    const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                    const float8 x_ = (float8)(v0);
                    t_[0] = fma(x_, y_[2][0], t_[0]);
                }
                {
                    const long i0 = 1, i2 = e_ + 3;
                    const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                    const float8 x_ = (float8)(v0);
                    t_[0] = fma(x_, y_[3][0], t_[0]);
                }
                acc[1][j + 0] += t_[0];
            }
            {
                float8 t_[1];
                {
                    const long i0 = 2, i2 = e_ + 0;
                    const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                    const float8 x_ = (float8)(v0);
                    t_[0] = x_ * y_[0][0];
                }
                {
                    const long i0 = 2, i2 = e_ + 1;
                    const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                    const float8 x_ = (float8)(v0);
                    t_[0] = fma(x_, y_[1][0], t_[0]);
                }
                {
                    const long i0 = 2, i2 = e_ + 2;
                    const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                    const float8 x_ = (float8)(v0);
                    t_[0] = fma(x_, y_[2][0], t_[0]);
                }
                {
                    const long i0 = 2, i2 = e_ + 3;
                    const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                    const float8 x_ = (float8)(v0);
                    t_[0] = fma(x_, y_[3][0], t_[0]);
                }
                acc[2][j + 0] += t_[0];
            }
            {
                float8 t_[1];
                {
                    const long i0 = 3, i2 = e_ + 0;
                    const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                    const float8 x_ = (float8)(v0);
                    t_[0] = x_ * y_[0][0];
                }
                {
                    const long i0 = 3, i2 = e_ + 1;
                    const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                    const float8 x_ = (float8)(v0);
                    t_[0] = fma(x_, y_[1][0], t_[0]);
                }
                {
                    const long i0 = 3, i2 = e_ + 2;
                    const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                    const float8 x_ = (float8)(v0);
                    t_[0] = fma(x_, y_[2][0], t_[0]);
                }
                {
                    const long i0 = 3, i2 = e_ + 3;
                    const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                    const float8 x_ = (float8)(v0);
                    t_[0] = fma(x_, y_[3][0], t_[0]);
                }
                acc[3][j + 0] += t_[0];
            }
            {
                float8 t_[1];
                {
                    const long i0 = 4, i2 = e_ + 0;
                    const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                    const float8 x_ = (float8)(v0);
                    t_[0] = x_ * y_[0][0];
                }
                {
                    const long i0 = 4, i2 = e_ + 1;
                    const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                    const float8 x_ = (float8)(v0);
                    t_[0] = fma(x_, y_[1][0], t_[0]);
                }
                {
                    const long i0 = 4, i2 = e_ + 2;
                    const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                    const float8 x_ = (float8)(v0);
                    t_[0] = fma(x_, y_[2][0], t_[0]);
                }
                {
                    const long i0 = 4, i2 = e_ + 3;
                    const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                    const float8 x_ = (float8)(v0);
                    t_[0] = fma(x_, y_[3][0], t_[0]);
                }
                acc[4][j + 0] += t_[0];
            }
            {
                float8 t_[1];
                {
                    const long i0 = 5, i2 = e_ + 0;
                    const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                    const float8 x_ = (float8)(v0);
                    t_[0] = x_ * y_[0][0];
                }
                {
                    const long i0 = 5, i2 = e_ + 1;
                    const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                    const float8 x_ = (float8)(v0);
                    t_[0] = fma(x_, y_[1][0], t_[0]);
                }
                {
                    const long i0 = 5, i2 = e_ + 2;
                    const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                    const float8 x_ = (float8)(v0);
                    t_[0] = fma(x_, y_[2][0], t_[0]);
                }
                {
                    const long i0 = 5, i2 = e_ + 3;
                    const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                    const float8 x_ = (float8)(v0);
                    t_[0] = fma(x_, y_[3][0], t_[0]);
                }
                acc[5][j + 0] += t_[0];
            }
            {
                float8 t_[1];
                {
                    const long i0 = 6, i2 = e_ + 0;
                    const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                    const float8 x_ = (float8)(v0);
                    t_[0] = x_ * y_[0][0];
                }
                {
                    const long i0 = 6, i2 = e_ + 1;
                    const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                    const float8 x_ = (float8)(v0);
                    t_[0] = fma(x_, y_[1][0], t_[0]);
                }
                {
                    const long i0 = 6, i2 = e_ + 2;
                    const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                    const float8 x_ = (float8)(v0);
                    t_[0] = fma(x_, y_[2][0], t_[0]);
                }
                {
                    const long i0 = 6, i2 = e_ + 3;
                    const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                    const float8 x_ = (float8)(v0);
                    t_[0] = fma(x_, y_[3][0], t_[0]);
                }
                acc[6][j + 0] += t_[0];
            }
            {
                float8 t_[1];
                {
                    const long i0 = 7, i2 = e_ + 0;
                    const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                    const float8 x_ = (float8)(v0);
                    t_[0] = x_ * y_[0][0];
                }
                {
                    const long i0 = 7, i2 = e_ + 1;
                    const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                    const float8 x_ = (float8)(v0);
                    t_[0] = fma(x_, y_[1][0], t_[0]);
                }
                {
                    const long i0 = 7, i2 = e_ + 2;
                    const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                    const float8 x_ = (float8)(v0);
                    t_[0] = fma(x_, y_[2][0], t_[0]);
                }
                {
                    const long i0 = 7, i2 = e_ + 3;
                    const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                    const float8 x_ = (float8)(v0);
                    t_[0] = fma(x_, y_[3][0], t_[0]);
                }
                acc[7][j + 0] += t_[0];
            }
        }
        for (; j < nv; j++) {
            float8 y_[4][1];
            {
                const long i1 = c0 + (j + 0) * 8, i2 = e_ + 0;
                const float8 w1 = vload8(0, a1 + (a1_o + i1 + i2 * a1_s2)); /* buffer */
                y_[0][0] = w1;
            }
            {
                const long i1 = c0 + (j + 0) * 8, i2 = e_ + 1;
                const float8 w1 = vload8(0, a1 + (a1_o + i1 + i2 * a1_s2)); /* buffer */
                y_[1][0] = w1;
            }
            {
                const long i1 = c0 + (j + 0) * 8, i2 = e_ + 2;
                const float8 w1 = vload8(0, a1 + (a1_o + i1 + i2 * a1_s2)); /* buffer */
                y_[2][0] = w1;
            }
            {
                const long i1 = c0 + (j + 0) * 8, i2 = e_ + 3;
                const float8 w1 = vload8(0, a1 + (a1_o + i1 + i2 * a1_s2)); /* buffer */
                y_[3][0] = w1;
            }
            {
                float8 t_[1];
                {
                    const long i0 = 0, i2 = e_ + 0;
                    const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                    const float8 x_ = (float8)(v0);
                    t_[0] = x_ * y_[0][0];
                }
                {
                    const long i0 = 0, i2 = e_ + 1;
                    const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                    const float8 x_ = (float8)(v0);
                    t_[0] = fma(x_, y_[1][0], t_[0]);
                }
                {
                    const long i0 = 0, i2 = e_ + 2;
                    const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                    const float8 x_ = (float8)(v0);
                    t_[0] = fma(x_, y_[2][0], t_[0]);
                }
                {
                    const long i0 = 0, i2 = e_ + 3;
                    const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                    const float8 x_ = (float8)(v0);
                    t_[0] = fma(x_, y_[3][0], t_[0]);
                }
                acc[0][j + 0] += t_[0];
            }
            {
                float8 t_[1];
                {
                    const long i0 = 1, i2 = e_ + 0;
                    const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                    const float8 x_ = (float8)(v0);
                    t_[0] = x_ * y_[0][0];
                }
                {
                    const long i0 = 1, i2 = e_ + 1;
                    const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                    const float8 x_ = (float8)(v0);
                    t_[0] = fma(x_, y_[1][0], t_[0]);
                }
                {
                    const long i0 = 1, i2 = e_ + 2;
                    const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                    const float8 x_ = (float8)(v0);
                    t_[0] = fma(x_, y_[2][0], t_[0]);
                }
                {
                    const long i0 = 1, i2 = e_ + 3;
                    const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                    const float8 x_ = (float8)(v0);
                    t_[0] = fma(x_, y_[3][0], t_[0]);
                }
                acc[1][j + 0] += t_[0];
            }
            {
                float8 t_[1];
                {
                    const long i0 = 2, i2 = e_ + 0;
                    const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                    const float8 x_ = (float8)(v0);
                    t_[0] = x_ * y_[0][0];
                }
                {
                    const long i0 = 2, i2 = e_ + 1;
                    const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                    const float8 x_ = (float8)(v0);
                    t_[0] = fma(x_, y_[1][0], t_[0]);
                }
                {
                    const long i0 = 2, i2 = e_ + 2;
                    const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                    const float8 x_ = (float8)(v0);
                    t_[0] = fma(x_, y_[2][0], t_[0]);
                }
                {
                    const long i0 = 2, i2 = e_ + 3;
                    const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                    const float8 x_ = (float8)(v0);
                    t_[0] = fma(x_, y_[3][0], t_[0]);
                }
                acc[2][j + 0] += t_[0];
            }
            {
                float8 t_[1];
                {
                    const long i0 = 3, i2 = e_ + 0;
                    const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                    const float8 x_ = (float8)(v0);
                    t_[0] = x_ * y_[0][0];
                }
                {
                    const long i0 = 3, i2 = e_ + 1;
                    const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                    const float8 x_ = (float8)(v0);
                    t_[0] = fma(x_, y_[1][0], t_[0]);
                }
                {
                    const long i0 = 3, i2 = e_ + 2;
                    const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                    const float8 x_ = (float8)(v0);
                    t_[0] = fma(x_, y_[2][0], t_[0]);
                }
                {
                    const long i0 = 3, i2 = e_ + 3;
                    const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                    const float8 x_ = (float8)(v0);
                    t_[0] = fma(x_, y_[3][0], t_[0]);
                }
                acc[3][j + 0] += t_[0];
            }
            {
                float8 t_[1];
                {
                    const long i0 = 4, i2 = e_ + 0;
                    const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                    const float8 x_ = (float8)(v0);
                    t_[0] = x_ * y_[0][0];
                }
                {
                    const long i0 = 4, i2 = e_ + 1;
                    const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                    const float8 x_ = (float8)(v0);
                    t_[0] = fma(x_, y_[1][0], t_[0]);
                }
                {
                    const long i0 = 4, i2 = e_ + 2;
                    const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                    const float8 x_ = (float8)(v0);
                    t_[0] = fma(x_, y_[2][0], t_[0]);
                }
                {
                    const long i0 = 4, i2 = e_ + 3;
                    const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                    const float8 x_ = (float8)(v0);
                    t_[0] = fma(x_, y_[3][0], t_[0]);
                }
                acc[4][j + 0] += t_[0];
            }
            {
                float8 t_[1];
                {
                    const long i0 = 5, i2 = e_ + 0;
                    const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                    const float8 x_ = (float8)(v0);
                    t_[0] = x_ * y_[0][0];
                }
                {
                    const long i0 = 5, i2 = e_ + 1;
                    const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                    const float8 x_ = (float8)(v0);
                    t_[0] = fma(x_, y_[1][0], t_[0]);
                }
                {
                    const long i0 = 5, i2 = e_ + 2;
                    const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                    const float8 x_ = (float8)(v0);
                    t_[0] = fma(x_, y_[2][0], t_[0]);
                }
                {
                    const long i0 = 5, i2 = e_ + 3;
                    const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                    const float8 x_ = (float8)(v0);
                    t_[0] = fma(x_, y_[3][0], t_[0]);
                }
                acc[5][j + 0] += t_[0];
            }
            {
                float8 t_[1];
                {
                    const long i0 = 6, i2 = e_ + 0;
                    const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                    const float8 x_ = (float8)(v0);
                    t_[0] = x_ * y_[0][0];
                }
                {
                    const long i0 = 6, i2 = e_ + 1;
                    const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                    const float8 x_ = (float8)(v0);
                    t_[0] = fma(x_, y_[1][0], t_[0]);
                }
                {
                    const long i0 = 6, i2 = e_ + 2;
                    const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                    const float8 x_ = (float8)(v0);
                    t_[0] = fma(x_, y_[2][0], t_[0]);
                }
                {
                    const long i0 = 6, i2 = e_ + 3;
                    const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                    const float8 x_ = (float8)(v0);
                    t_[0] = fma(x_, y_[3][0], t_[0]);
                }
                acc[6][j + 0] += t_[0];
            }
            {
                float8 t_[1];
                {
                    const long i0 = 7, i2 = e_ + 0;
                    const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                    const float8 x_ = (float8)(v0);
                    t_[0] = x_ * y_[0][0];
                }
                {
                    const long i0 = 7, i2 = e_ + 1;
                    const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                    const float8 x_ = (float8)(v0);
                    t_[0] = fma(x_, y_[1][0], t_[0]);
                }
                {
                    const long i0 = 7, i2 = e_ + 2;
                    const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                    const float8 x_ = (float8)(v0);
                    t_[0] = fma(x_, y_[2][0], t_[0]);
                }
                {
                    const long i0 = 7, i2 = e_ + 3;
                    const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                    const float8 x_ = (float8)(v0);
                    t_[0] = fma(x_, y_[3][0], t_[0]);
                }
                acc[7][j + 0] += t_[0];
            }
        }
    }
    for (; e_ < k1; e_++) {
        for (int j = 0; j < nv; j++) {
            const long i1 = c0 + j * 8, i2 = e_;
            const float8 w1 = vload8(0, a1 + (a1_o + i1 + i2 * a1_s2)); /* buffer */
            {
                const long i0 = 0, i2 = e_;
                const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                acc[0][j] = fma((float8)(v0), w1, acc[0][j]);
            }
            {
                const long i0 = 1, i2 = e_;
                const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                acc[1][j] = fma((float8)(v0), w1, acc[1][j]);
            }
            {
                const long i0 = 2, i2 = e_;
                const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                acc[2][j] = fma((float8)(v0), w1, acc[2][j]);
            }
            {
                const long i0 = 3, i2 = e_;
                const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                acc[3][j] = fma((float8)(v0), w1, acc[3][j]);
            }
            {
                const long i0 = 4, i2 = e_;
                const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                acc[4][j] = fma((float8)(v0), w1, acc[4][j]);
            }
            {
                const long i0 = 5, i2 = e_;
                const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                acc[5][j] = fma((float8)(v0), w1, acc[5][j]);
            }
            {
                const long i0 = 6, i2 = e_;
                const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                acc[6][j] = fma((float8)(v0), w1, acc[6][j]);
            }
            {
                const long i0 = 7, i2 = e_;
                const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                acc[7][j] = fma((float8)(v0), w1, acc[7][j]);
            }
        }
    }
    for (int j = 0; j < nv; j++) {
        tot[0][j] += acc[0][j];
        tot[1][j] += acc[1][j];
        tot[2][j] += acc[2][j];
        tot[3][j] += acc[3][j];
        tot[4][j] += acc[4][j];
        tot[5][j] += acc[5][j];
        tot[6][j] += acc[6][j];
        tot[7][j] += acc[7][j];
    }
    }
    for (int j = 0; j < nv; j++) {
        {
            const long i0 = 0, i1 = c0 + j * 8 + 0;
            const double s0_a = tot[0][j].s0;
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i1]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0 * os0_0 + i1] = v7;
        }
        {
            const long i0 = 0, i1 = c0 + j * 8 + 1;
            const double s0_a = tot[0][j].s1;
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i1]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0 * os0_0 + i1] = v7;
        }
        {
            const long i0 = 0, i1 = c0 + j * 8 + 2;
            const double s0_a = tot[0][j].s2;
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i1]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0 * os0_0 + i1] = v7;
        }
        {
            const long i0 = 0, i1 = c0 + j * 8 + 3;
            const double s0_a = tot[0][j].s3;
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i1]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0 * os0_0 + i1] = v7;
        }
        {
            const long i0 = 0, i1 = c0 + j * 8 + 4;
            const double s0_a = tot[0][j].s4;
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i1]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0 * os0_0 + i1] = v7;
        }
        {
            const long i0 = 0, i1 = c0 + j * 8 + 5;
            const double s0_a = tot[0][j].s5;
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i1]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0 * os0_0 + i1] = v7;
        }
        {
            const long i0 = 0, i1 = c0 + j * 8 + 6;
            const double s0_a = tot[0][j].s6;
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i1]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0 * os0_0 + i1] = v7;
        }
        {
            const long i0 = 0, i1 = c0 + j * 8 + 7;
            const double s0_a = tot[0][j].s7;
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i1]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0 * os0_0 + i1] = v7;
        }
        {
            const long i0 = 1, i1 = c0 + j * 8 + 0;
            const double s0_a = tot[1][j].s0;
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i1]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0 * os0_0 + i1] = v7;
        }
        {
            const long i0 = 1, i1 = c0 + j * 8 + 1;
            const double s0_a = tot[1][j].s1;
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i1]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0 * os0_0 + i1] = v7;
        }
        {
            const long i0 = 1, i1 = c0 + j * 8 + 2;
            const double s0_a = tot[1][j].s2;
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i1]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0 * os0_0 + i1] = v7;
        }
        {
            const long i0 = 1, i1 = c0 + j * 8 + 3;
            const double s0_a = tot[1][j].s3;
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i1]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0 * os0_0 + i1] = v7;
        }
        {
            const long i0 = 1, i1 = c0 + j * 8 + 4;
            const double s0_a = tot[1][j].s4;
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i1]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0 * os0_0 + i1] = v7;
        }
        {
            const long i0 = 1, i1 = c0 + j * 8 + 5;
            const double s0_a = tot[1][j].s5;
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i1]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0 * os0_0 + i1] = v7;
        }
        {
            const long i0 = 1, i1 = c0 + j * 8 + 6;
            const double s0_a = tot[1][j].s6;
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i1]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0 * os0_0 + i1] = v7;
        }
        {
            const long i0 = 1, i1 = c0 + j * 8 + 7;
            const double s0_a = tot[1][j].s7;
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i1]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0 * os0_0 + i1] = v7;
        }
        {
            const long i0 = 2, i1 = c0 + j * 8 + 0;
            const double s0_a = tot[2][j].s0;
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i1]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0 * os0_0 + i1] = v7;
        }
        {
            const long i0 = 2, i1 = c0 + j * 8 + 1;
            const double s0_a = tot[2][j].s1;
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i1]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0 * os0_0 + i1] = v7;
        }
        {
            const long i0 = 2, i1 = c0 + j * 8 + 2;
            const double s0_a = tot[2][j].s2;
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i1]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0 * os0_0 + i1] = v7;
        }
        {
            const long i0 = 2, i1 = c0 + j * 8 + 3;
            const double s0_a = tot[2][j].s3;
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i1]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0 * os0_0 + i1] = v7;
        }
        {
            const long i0 = 2, i1 = c0 + j * 8 + 4;
            const double s0_a = tot[2][j].s4;
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i1]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0 * os0_0 + i1] = v7;
        }
        {
            const long i0 = 2, i1 = c0 + j * 8 + 5;
            const double s0_a = tot[2][j].s5;
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i1]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0 * os0_0 + i1] = v7;
        }
        {
            const long i0 = 2, i1 = c0 + j * 8 + 6;
            const double s0_a = tot[2][j].s6;
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i1]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0 * os0_0 + i1] = v7;
        }
        {
            const long i0 = 2, i1 = c0 + j * 8 + 7;
            const double s0_a = tot[2][j].s7;
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i1]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0 * os0_0 + i1] = v7;
        }
        {
            const long i0 = 3, i1 = c0 + j * 8 + 0;
            const double s0_a = tot[3][j].s0;
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i1]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0 * os0_0 + i1] = v7;
        }
        {
            const long i0 = 3, i1 = c0 + j * 8 + 1;
            const double s0_a = tot[3][j].s1;
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i1]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0 * os0_0 + i1] = v7;
        }
        {
            const long i0 = 3, i1 = c0 + j * 8 + 2;
            const double s0_a = tot[3][j].s2;
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i1]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0 * os0_0 + i1] = v7;
        }
        {
            const long i0 = 3, i1 = c0 + j * 8 + 3;
            const double s0_a = tot[3][j].s3;
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i1]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0 * os0_0 + i1] = v7;
        }
        {
            const long i0 = 3, i1 = c0 + j * 8 + 4;
            const double s0_a = tot[3][j].s4;
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i1]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0 * os0_0 + i1] = v7;
        }
        {
            const long i0 = 3, i1 = c0 + j * 8 + 5;
            const double s0_a = tot[3][j].s5;
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i1]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0 * os0_0 + i1] = v7;
        }
        {
            const long i0 = 3, i1 = c0 + j * 8 + 6;
            const double s0_a = tot[3][j].s6;
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i1]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0 * os0_0 + i1] = v7;
        }
        {
            const long i0 = 3, i1 = c0 + j * 8 + 7;
            const double s0_a = tot[3][j].s7;
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i1]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0 * os0_0 + i1] = v7;
        }
        {
            const long i0 = 4, i1 = c0 + j * 8 + 0;
            const double s0_a = tot[4][j].s0;
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i1]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0 * os0_0 + i1] = v7;
        }
        {
            const long i0 = 4, i1 = c0 + j * 8 + 1;
            const double s0_a = tot[4][j].s1;
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i1]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0 * os0_0 + i1] = v7;
        }
        {
            const long i0 = 4, i1 = c0 + j * 8 + 2;
            const double s0_a = tot[4][j].s2;
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i1]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0 * os0_0 + i1] = v7;
        }
        {
            const long i0 = 4, i1 = c0 + j * 8 + 3;
            const double s0_a = tot[4][j].s3;
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i1]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0 * os0_0 + i1] = v7;
        }
        {
            const long i0 = 4, i1 = c0 + j * 8 + 4;
            const double s0_a = tot[4][j].s4;
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i1]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0 * os0_0 + i1] = v7;
        }
        {
            const long i0 = 4, i1 = c0 + j * 8 + 5;
            const double s0_a = tot[4][j].s5;
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i1]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0 * os0_0 + i1] = v7;
        }
        {
            const long i0 = 4, i1 = c0 + j * 8 + 6;
            const double s0_a = tot[4][j].s6;
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i1]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0 * os0_0 + i1] = v7;
        }
        {
            const long i0 = 4, i1 = c0 + j * 8 + 7;
            const double s0_a = tot[4][j].s7;
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i1]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0 * os0_0 + i1] = v7;
        }
        {
            const long i0 = 5, i1 = c0 + j * 8 + 0;
            const double s0_a = tot[5][j].s0;
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i1]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0 * os0_0 + i1] = v7;
        }
        {
            const long i0 = 5, i1 = c0 + j * 8 + 1;
            const double s0_a = tot[5][j].s1;
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i1]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0 * os0_0 + i1] = v7;
        }
        {
            const long i0 = 5, i1 = c0 + j * 8 + 2;
            const double s0_a = tot[5][j].s2;
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i1]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0 * os0_0 + i1] = v7;
        }
        {
            const long i0 = 5, i1 = c0 + j * 8 + 3;
            const double s0_a = tot[5][j].s3;
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i1]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0 * os0_0 + i1] = v7;
        }
        {
            const long i0 = 5, i1 = c0 + j * 8 + 4;
            const double s0_a = tot[5][j].s4;
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i1]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0 * os0_0 + i1] = v7;
        }
        {
            const long i0 = 5, i1 = c0 + j * 8 + 5;
            const double s0_a = tot[5][j].s5;
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i1]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0 * os0_0 + i1] = v7;
        }
        {
            const long i0 = 5, i1 = c0 + j * 8 + 6;
            const double s0_a = tot[5][j].s6;
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i1]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0 * os0_0 + i1] = v7;
        }
        {
            const long i0 = 5, i1 = c0 + j * 8 + 7;
            const double s0_a = tot[5][j].s7;
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i1]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0 * os0_0 + i1] = v7;
        }
        {
            const long i0 = 6, i1 = c0 + j * 8 + 0;
            const double s0_a = tot[6][j].s0;
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i1]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0 * os0_0 + i1] = v7;
        }
        {
            const long i0 = 6, i1 = c0 + j * 8 + 1;
            const double s0_a = tot[6][j].s1;
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i1]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0 * os0_0 + i1] = v7;
        }
        {
            const long i0 = 6, i1 = c0 + j * 8 + 2;
            const double s0_a = tot[6][j].s2;
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i1]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0 * os0_0 + i1] = v7;
        }
        {
            const long i0 = 6, i1 = c0 + j * 8 + 3;
            const double s0_a = tot[6][j].s3;
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i1]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0 * os0_0 + i1] = v7;
        }
        {
            const long i0 = 6, i1 = c0 + j * 8 + 4;
            const double s0_a = tot[6][j].s4;
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i1]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0 * os0_0 + i1] = v7;
        }
        {
            const long i0 = 6, i1 = c0 + j * 8 + 5;
            const double s0_a = tot[6][j].s5;
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i1]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0 * os0_0 + i1] = v7;
        }
        {
            const long i0 = 6, i1 = c0 + j * 8 + 6;
            const double s0_a = tot[6][j].s6;
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i1]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0 * os0_0 + i1] = v7;
        }
        {
            const long i0 = 6, i1 = c0 + j * 8 + 7;
            const double s0_a = tot[6][j].s7;
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i1]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0 * os0_0 + i1] = v7;
        }
        {
            const long i0 = 7, i1 = c0 + j * 8 + 0;
            const double s0_a = tot[7][j].s0;
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i1]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0 * os0_0 + i1] = v7;
        }
        {
            const long i0 = 7, i1 = c0 + j * 8 + 1;
            const double s0_a = tot[7][j].s1;
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i1]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0 * os0_0 + i1] = v7;
        }
        {
            const long i0 = 7, i1 = c0 + j * 8 + 2;
            const double s0_a = tot[7][j].s2;
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i1]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0 * os0_0 + i1] = v7;
        }
        {
            const long i0 = 7, i1 = c0 + j * 8 + 3;
            const double s0_a = tot[7][j].s3;
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i1]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0 * os0_0 + i1] = v7;
        }
        {
            const long i0 = 7, i1 = c0 + j * 8 + 4;
            const double s0_a = tot[7][j].s4;
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i1]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0 * os0_0 + i1] = v7;
        }
        {
            const long i0 = 7, i1 = c0 + j * 8 + 5;
            const double s0_a = tot[7][j].s5;
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i1]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0 * os0_0 + i1] = v7;
        }
        {
            const long i0 = 7, i1 = c0 + j * 8 + 6;
            const double s0_a = tot[7][j].s6;
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i1]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0 * os0_0 + i1] = v7;
        }
        {
            const long i0 = 7, i1 = c0 + j * 8 + 7;
            const double s0_a = tot[7][j].s7;
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i1]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0 * os0_0 + i1] = v7;
        }
    }
    for (long i1 = c0 + nv * 8; i1 < min(n1, c0 + PW * 8); i1++) {
        {
            const long i0 = 0;
            float s_ = 0;
            for (long k0 = 0; k0 < n2; k0 += 256) {
                float p_ = 0;
                for (long i2 = k0; i2 < min(n2, k0 + 256); i2++) {
                    const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                    const float v1 = a1[a1_o + i1 + i2 * a1_s2]; /* buffer */
                    p_ = fma(v0, v1, p_);
                }
                s_ += p_;
            }
            const double s0_a = s_;
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i1]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0 * os0_0 + i1] = v7;
        }
        {
            const long i0 = 1;
            float s_ = 0;
            for (long k0 = 0; k0 < n2; k0 += 256) {
                float p_ = 0;
                for (long i2 = k0; i2 < min(n2, k0 + 256); i2++) {
                    const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                    const float v1 = a1[a1_o + i1 + i2 * a1_s2]; /* buffer */
                    p_ = fma(v0, v1, p_);
                }
                s_ += p_;
            }
            const double s0_a = s_;
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i1]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0 * os0_0 + i1] = v7;
        }
        {
            const long i0 = 2;
            float s_ = 0;
            for (long k0 = 0; k0 < n2; k0 += 256) {
                float p_ = 0;
                for (long i2 = k0; i2 < min(n2, k0 + 256); i2++) {
                    const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                    const float v1 = a1[a1_o + i1 + i2 * a1_s2]; /* buffer */
                    p_ = fma(v0, v1, p_);
                }
                s_ += p_;
            }
            const double s0_a = s_;
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i1]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0 * os0_0 + i1] = v7;
        }
        {
            const long i0 = 3;
            float s_ = 0;
            for (long k0 = 0; k0 < n2; k0 += 256) {
                float p_ = 0;
                for (long i2 = k0; i2 < min(n2, k0 + 256); i2++) {
                    const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                    const float v1 = a1[a1_o + i1 + i2 * a1_s2]; /* buffer */
                    p_ = fma(v0, v1, p_);
                }
                s_ += p_;
            }
            const double s0_a = s_;
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i1]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0 * os0_0 + i1] = v7;
        }
        {
            const long i0 = 4;
            float s_ = 0;
            for (long k0 = 0; k0 < n2; k0 += 256) {
                float p_ = 0;
                for (long i2 = k0; i2 < min(n2, k0 + 256); i2++) {
                    const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                    const float v1 = a1[a1_o + i1 + i2 * a1_s2]; /* buffer */
                    p_ = fma(v0, v1, p_);
                }
                s_ += p_;
            }
            const double s0_a = s_;
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i1]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0 * os0_0 + i1] = v7;
        }
        {
            const long i0 = 5;
            float s_ = 0;
            for (long k0 = 0; k0 < n2; k0 += 256) {
                float p_ = 0;
                for (long i2 = k0; i2 < min(n2, k0 + 256); i2++) {
                    const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                    const float v1 = a1[a1_o + i1 + i2 * a1_s2]; /* buffer */
                    p_ = fma(v0, v1, p_);
                }
                s_ += p_;
            }
            const double s0_a = s_;
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i1]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0 * os0_0 + i1] = v7;
        }
        {
            const long i0 = 6;
            float s_ = 0;
            for (long k0 = 0; k0 < n2; k0 += 256) {
                float p_ = 0;
                for (long i2 = k0; i2 < min(n2, k0 + 256); i2++) {
                    const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                    const float v1 = a1[a1_o + i1 + i2 * a1_s2]; /* buffer */
                    p_ = fma(v0, v1, p_);
                }
                s_ += p_;
            }
            const double s0_a = s_;
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i1]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0 * os0_0 + i1] = v7;
        }
        {
            const long i0 = 7;
            float s_ = 0;
            for (long k0 = 0; k0 < n2; k0 += 256) {
                float p_ = 0;
                for (long i2 = k0; i2 < min(n2, k0 + 256); i2++) {
                    const float v0 = a0[a0_o + i0 * a0_s0 + i2]; /* buffer */
                    const float v1 = a1[a1_o + i1 + i2 * a1_s2]; /* buffer */
                    p_ = fma(v0, v1, p_);
                }
                s_ += p_;
            }
            const double s0_a = s_;
            const float v3 = (float)s0_a; /* result of sum */
            const float v4 = a2[a2_o + i1]; /* buffer */
            const float v5 = (v3 + v4); /* add */
            const float v6 = a3_v; /* full */
            const float v7 = ((v5 >= v6 || isnan(v5)) ? v5 : v6); /* maximum */
            out0[i0 * os0_0 + i1] = v7;
        }
    }
}

