/* ---- kernel 0: schedule "sort: LSD radix, 4 passes of 8-bit digits, 16 chunks per row", 12 launches: lc_sort_f32_896e6bfa691c565c_first lc_sort_f32_896e6bfa691c565c_scan lc_sort_f32_896e6bfa691c565c_move lc_sort_f32_896e6bfa691c565c_hist lc_sort_f32_896e6bfa691c565c_scan lc_sort_f32_896e6bfa691c565c_move lc_sort_f32_896e6bfa691c565c_hist lc_sort_f32_896e6bfa691c565c_scan lc_sort_f32_896e6bfa691c565c_move lc_sort_f32_896e6bfa691c565c_hist lc_sort_f32_896e6bfa691c565c_scan lc_sort_f32_896e6bfa691c565c_last */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
/* lazycl sort kernel: 2 fused ops; sort: LSD radix, 4 passes of 8-bit digits, 16 chunks per row. */
__kernel void lc_sort_f32_896e6bfa691c565c_first(
    __global float *restrict out0,
    __global const float *restrict a0, const long a0_o,
    const long n0,
    __global char *s_, const long sbase, const long M, const long P, const int shift, const long ks, const long vs, const long kd, const long vd)
{
    __global char *s = s_ + sbase;
    __global long *cnt = (__global long *)s;
    const long g_ = get_global_id(0);
    const long m = g_ / P, q = g_ % P;
    if (m >= M) return;
    const long chunk = (n0 + P - 1) / P;
    const long beg = min(n0, q * chunk), end = min(n0, (q + 1) * chunk);
    __global uint *ksrc = (__global uint *)(s + ks) + m * n0;
    __global uint *vsrc = (__global uint *)(s + vs) + m * n0;
    __global long *c = cnt + m * 256 * P + q;
    long h[256];
#pragma unroll 1
    for (int d = 0; d < 256; d++)
        h[d] = 0;
#pragma clang loop vectorize(disable) interleave(disable)
#pragma unroll 1
    for (long i0 = beg; i0 < end; i0++) {
        const float v0 = a0[a0_o + i0]; /* buffer */
        const float v1 = (v0 * v0); /* multiply */
        uint key_ = as_uint(v1 == 0 ? (float)0 : v1);
        key_ = (key_ & 0x80000000u) ? ~key_ : (key_ | 0x80000000u);
        if (isnan(v1)) key_ = 0xffffffffu;
        ksrc[i0] = key_;
        vsrc[i0] = as_uint(v1);
        h[(key_ >> shift) & 255]++;
    }
#pragma unroll 1
    for (int d = 0; d < 256; d++)
        c[d * P] = h[d];
}

__kernel void lc_sort_f32_896e6bfa691c565c_hist(
    __global float *restrict out0,
    __global const float *restrict a0, const long a0_o,
    const long n0,
    __global char *s_, const long sbase, const long M, const long P, const int shift, const long ks, const long vs, const long kd, const long vd)
{
    __global char *s = s_ + sbase;
    __global long *cnt = (__global long *)s;
    const long g_ = get_global_id(0);
    const long m = g_ / P, q = g_ % P;
    if (m >= M) return;
    const long chunk = (n0 + P - 1) / P;
    const long beg = min(n0, q * chunk), end = min(n0, (q + 1) * chunk);
    __global uint *ksrc = (__global uint *)(s + ks) + m * n0;
    __global uint *vsrc = (__global uint *)(s + vs) + m * n0;
    __global long *c = cnt + m * 256 * P + q;
    long h[256];
#pragma unroll 1
    for (int d = 0; d < 256; d++)
        h[d] = 0;
#pragma clang loop vectorize(disable) interleave(disable)
#pragma unroll 1
    for (long i0 = beg; i0 < end; i0++) {
        const uint key_ = ksrc[i0];
        h[(key_ >> shift) & 255]++;
    }
#pragma unroll 1
    for (int d = 0; d < 256; d++)
        c[d * P] = h[d];
}

__kernel void lc_sort_f32_896e6bfa691c565c_scan(
    __global float *restrict out0,
    __global const float *restrict a0, const long a0_o,
    const long n0,
    __global char *s_, const long sbase, const long M, const long P, const int shift, const long ks, const long vs, const long kd, const long vd)
{
    __global char *s = s_ + sbase;
    __global long *cnt = (__global long *)s;
    const long m = get_global_id(0);
    if (m >= M) return;
    __global long *c = cnt + m * 256 * P;
    long acc = 0;
#pragma unroll 1
    for (long t = 0; t < 256 * P; t++) {
        const long x = c[t];
        c[t] = acc;
        acc += x;
    }
}

__kernel void lc_sort_f32_896e6bfa691c565c_move(
    __global float *restrict out0,
    __global const float *restrict a0, const long a0_o,
    const long n0,
    __global char *s_, const long sbase, const long M, const long P, const int shift, const long ks, const long vs, const long kd, const long vd)
{
    __global char *s = s_ + sbase;
    __global long *cnt = (__global long *)s;
    const long g_ = get_global_id(0);
    const long m = g_ / P, q = g_ % P;
    if (m >= M) return;
    const long chunk = (n0 + P - 1) / P;
    const long beg = min(n0, q * chunk), end = min(n0, (q + 1) * chunk);
    __global uint *ksrc = (__global uint *)(s + ks) + m * n0;
    __global uint *vsrc = (__global uint *)(s + vs) + m * n0;
    __global long *c = cnt + m * 256 * P + q;
    long o[256];
#pragma unroll 1
    for (int d = 0; d < 256; d++)
        o[d] = c[d * P];
    __global uint *kdst = (__global uint *)(s + kd) + m * n0;
    __global uint *vdst = (__global uint *)(s + vd) + m * n0;
#pragma clang loop vectorize(disable) interleave(disable)
#pragma unroll 1
    for (long j_ = beg; j_ < end; j_++) {
        const uint key_ = ksrc[j_];
        const long pos_ = o[(key_ >> shift) & 255]++;
        kdst[pos_] = key_;
        vdst[pos_] = vsrc[j_];
    }
}

__kernel void lc_sort_f32_896e6bfa691c565c_last(
    __global float *restrict out0,
    __global const float *restrict a0, const long a0_o,
    const long n0,
    __global char *s_, const long sbase, const long M, const long P, const int shift, const long ks, const long vs, const long kd, const long vd)
{
    __global char *s = s_ + sbase;
    __global long *cnt = (__global long *)s;
    const long g_ = get_global_id(0);
    const long m = g_ / P, q = g_ % P;
    if (m >= M) return;
    const long chunk = (n0 + P - 1) / P;
    const long beg = min(n0, q * chunk), end = min(n0, (q + 1) * chunk);
    __global uint *ksrc = (__global uint *)(s + ks) + m * n0;
    __global uint *vsrc = (__global uint *)(s + vs) + m * n0;
    __global long *c = cnt + m * 256 * P + q;
    long o[256];
#pragma unroll 1
    for (int d = 0; d < 256; d++)
        o[d] = c[d * P];
#pragma clang loop vectorize(disable) interleave(disable)
#pragma unroll 1
    for (long j_ = beg; j_ < end; j_++) {
        const uint key_ = ksrc[j_];
        const long pos_ = o[(key_ >> shift) & 255]++;
        const float val_ = as_float(vsrc[j_]);
        out0[0 + pos_] = val_;
    }
}


