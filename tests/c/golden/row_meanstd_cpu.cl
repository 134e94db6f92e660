/* ---- kernel 0: schedule "reduce: one item per output, 8-wide SIMD", 1 launch: lc_reduce_f64_a6988c28100a0b8a */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
/* lazycl reduce kernel: 3 fused ops; reduce: one item per output, 8-wide SIMD. */
__kernel void lc_reduce_f64_a6988c28100a0b8a(
    __global double *restrict out0,
    __global double *restrict out1,
    __global const double *restrict a0, const long a0_o, const long a0_s0,
    const long n0,
    const long n1, const long M)
{
    const long m = get_global_id(0);
    if (m >= M) return;
    const long i0 = m;
    double s0_a = 0, s0_b = 0, s0_c = 0;
    double s1_a = 0, s1_b = 0, s1_c = 0;
    {
        double8 q0_a = 0, q0_b = 0, q0_c = 0;
        double8 q1_a = 0, q1_b = 0, q1_c = 0;
        long i1 = 0;
        for (; i1 + 8 <= n1; i1 += 8) {
            const double8 w0 = vload8(0, a0 + (a0_o + i0 * a0_s0 + i1)); /* buffer */
            { const double8 x_ = w0; q0_a += 1; const double8 d_ = x_ - q0_b; q0_b += d_ / q0_a; q0_c += d_ * (x_ - q0_b); }
            { const double8 x_ = w0; q1_a += 1; const double8 d_ = x_ - q1_b; q1_b += d_ / q1_a; q1_c += d_ * (x_ - q1_b); }
        }
        { const double l0_a = q0_a.s0, l0_b = q0_b.s0, l0_c = q0_c.s0;
            if (l0_a > 0) { const double n_ = s0_a + l0_a; const double d_ = l0_b - s0_b; s0_b += d_ * (l0_a / n_); s0_c += l0_c + d_ * d_ * (s0_a * l0_a / n_); s0_a = n_; }
        }
        { const double l0_a = q0_a.s1, l0_b = q0_b.s1, l0_c = q0_c.s1;
            if (l0_a > 0) { const double n_ = s0_a + l0_a; const double d_ = l0_b - s0_b; s0_b += d_ * (l0_a / n_); s0_c += l0_c + d_ * d_ * (s0_a * l0_a / n_); s0_a = n_; }
        }
        { const double l0_a = q0_a.s2, l0_b = q0_b.s2, l0_c = q0_c.s2;
            if (l0_a > 0) { const double n_ = s0_a + l0_a; const double d_ = l0_b - s0_b; s0_b += d_ * (l0_a / n_); s0_c += l0_c + d_ * d_ * (s0_a * l0_a / n_); s0_a = n_; }
        }
        { const double l0_a = q0_a.s3, l0_b = q0_b.s3, l0_c = q0_c.s3;
            if (l0_a > 0) { const double n_ = s0_a + l0_a; const double d_ = l0_b - s0_b; s0_b += d_ * (l0_a / n_); s0_c += l0_c + d_ * d_ * (s0_a * l0_a / n_); s0_a = n_; }
        }
        { const double l0_a = q0_a.s4, l0_b = q0_b.s4, l0_c = q0_c.s4;
            if (l0_a > 0) { const double n_ = s0_a + l0_a; const double d_ = l0_b - s0_b; s0_b += d_ * (l0_a / n_); s0_c += l0_c + d_ * d_ * (s0_a * l0_a / n_); s0_a = n_; }
        }
        { const double l0_a = q0_a.s5, l0_b = q0_b.s5, l0_c = q0_c.s5;
            if (l0_a > 0) { const double n_ = s0_a + l0_a; const double d_ = l0_b - s0_b; s0_b += d_ * (l0_a / n_); s0_c += l0_c + d_ * d_ * (s0_a * l0_a / n_); s0_a = n_; }
        }
        { const double l0_a = q0_a.s6, l0_b = q0_b.s6, l0_c = q0_c.s6;
            if (l0_a > 0) { const double n_ = s0_a + l0_a; const double d_ = l0_b - s0_b; s0_b += d_ * (l0_a / n_); s0_c += l0_c + d_ * d_ * (s0_a * l0_a / n_); s0_a = n_; }
        }
        { const double l0_a = q0_a.s7, l0_b = q0_b.s7, l0_c = q0_c.s7;
            if (l0_a > 0) { const double n_ = s0_a + l0_a; const double d_ = l0_b - s0_b; s0_b += d_ * (l0_a / n_); s0_c += l0_c + d_ * d_ * (s0_a * l0_a / n_); s0_a = n_; }
        }
        { const double l1_a = q1_a.s0, l1_b = q1_b.s0, l1_c = q1_c.s0;
            if (l1_a > 0) { const double n_ = s1_a + l1_a; const double d_ = l1_b - s1_b; s1_b += d_ * (l1_a / n_); s1_c += l1_c + d_ * d_ * (s1_a * l1_a / n_); s1_a = n_; }
        }
        { const double l1_a = q1_a.s1, l1_b = q1_b.s1, l1_c = q1_c.s1;
            if (l1_a > 0) { const double n_ = s1_a + l1_a; const double d_ = l1_b - s1_b; s1_b += d_ * (l1_a / n_); s1_c += l1_c + d_ * d_ * (s1_a * l1_a / n_); s1_a = n_; }
        }
        { const double l1_a = q1_a.s2, l1_b = q1_b.s2, l1_c = q1_c.s2;
            if (l1_a > 0) { const double n_ = s1_a + l1_a; const double d_ = l1_b - s1_b; s1_b += d_ * (l1_a / n_); s1_c += l1_c + d_ * d_ * (s1_a * l1_a / n_); s1_a = n_; }
        }
        { const double l1_a = q1_a.s3, l1_b = q1_b.s3, l1_c = q1_c.s3;
            if (l1_a > 0) { const double n_ = s1_a + l1_a; const double d_ = l1_b - s1_b; s1_b += d_ * (l1_a / n_); s1_c += l1_c + d_ * d_ * (s1_a * l1_a / n_); s1_a = n_; }
        }
        { const double l1_a = q1_a.s4, l1_b = q1_b.s4, l1_c = q1_c.s4;
            if (l1_a > 0) { const double n_ = s1_a + l1_a; const double d_ = l1_b - s1_b; s1_b += d_ * (l1_a / n_); s1_c += l1_c + d_ * d_ * (s1_a * l1_a / n_); s1_a = n_; }
        }
        { const double l1_a = q1_a.s5, l1_b = q1_b.s5, l1_c = q1_c.s5;
            if (l1_a > 0) { const double n_ = s1_a + l1_a; const double d_ = l1_b - s1_b; s1_b += d_ * (l1_a / n_); s1_c += l1_c + d_ * d_ * (s1_a * l1_a / n_); s1_a = n_; }
        }
        { const double l1_a = q1_a.s6, l1_b = q1_b.s6, l1_c = q1_c.s6;
            if (l1_a > 0) { const double n_ = s1_a + l1_a; const double d_ = l1_b - s1_b; s1_b += d_ * (l1_a / n_); s1_c += l1_c + d_ * d_ * (s1_a * l1_a / n_); s1_a = n_; }
        }
        { const double l1_a = q1_a.s7, l1_b = q1_b.s7, l1_c = q1_c.s7;
            if (l1_a > 0) { const double n_ = s1_a + l1_a; const double d_ = l1_b - s1_b; s1_b += d_ * (l1_a / n_); s1_c += l1_c + d_ * d_ * (s1_a * l1_a / n_); s1_a = n_; }
        }
        for (; i1 < n1; i1++) {
            const double v0 = a0[a0_o + i0 * a0_s0 + i1]; /* buffer */
            { const double x_ = (double)v0; s0_a += 1; const double d_ = x_ - s0_b; s0_b += d_ / s0_a; s0_c += d_ * (x_ - s0_b); }
            { const double x_ = (double)v0; s1_a += 1; const double d_ = x_ - s1_b; s1_b += d_ / s1_a; s1_c += d_ * (x_ - s1_b); }
        }
    }
    const double v1 = (double)(s1_c / fmax(s1_a - (double)0, (double)0)); /* result of var */
    const double v2 = (sqrt(v1)); /* sqrt */
    const double v3 = (double)(s0_a > 0 ? s0_b : NAN); /* result of var */
    out0[i0] = v3;
    out1[i0] = v2;
}

