/* ---- kernel 0: schedule "sort: LSD radix, 2 passes of 8-bit digits, 1 chunk per row", 6 launches: lc_sort_i64_19a549ac69a27649_first lc_sort_i64_19a549ac69a27649_scan lc_sort_i64_19a549ac69a27649_move lc_sort_i64_19a549ac69a27649_hist lc_sort_i64_19a549ac69a27649_scan lc_sort_i64_19a549ac69a27649_last */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
/* lazycl sort kernel: 1 fused op; sort: LSD radix, 2 passes of 8-bit digits, 1 chunk per row. */
__kernel void lc_sort_i64_19a549ac69a27649_first(
    __global long *restrict out0,
    __global const short *restrict a0, const long a0_o, const long a0_s0,
    const long n0,
    const long n1, const long os0_0,
    __global char *s_, const long sbase, const long M, const long P, const int shift, const long ks, const long vs, const long kd, const long vd)
{
    __global char *s = s_ + sbase;
    __global long *cnt = (__global long *)s;
    const long g_ = get_global_id(0);
    const long m = g_ / P, q = g_ % P;
    if (m >= M) return;
    const long i0 = m;
    const long chunk = (n1 + P - 1) / P;
    const long beg = min(n1, q * chunk), end = min(n1, (q + 1) * chunk);
    __global uint *ksrc = (__global uint *)(s + ks) + m * n1;
    __global long *vsrc = (__global long *)(s + vs) + m * n1;
    __global long *c = cnt + m * 256 * P + q;
    long h[256];
#pragma unroll 1
    for (int d = 0; d < 256; d++)
        h[d] = 0;
#pragma unroll 1
    for (long i1 = beg; i1 < end; i1++) {
        const short v0 = a0[a0_o + i0 * a0_s0 + i1]; /* buffer */
        uint key_ = (uint)((ushort)(v0) ^ 0x8000u);
        key_ = ~key_ & 0xffffu;
        ksrc[i1] = key_;
        vsrc[i1] = i1;
        h[(key_ >> shift) & 255]++;
    }
#pragma unroll 1
    for (int d = 0; d < 256; d++)
        c[d * P] = h[d];
}

__kernel void lc_sort_i64_19a549ac69a27649_hist(
    __global long *restrict out0,
    __global const short *restrict a0, const long a0_o, const long a0_s0,
    const long n0,
    const long n1, const long os0_0,
    __global char *s_, const long sbase, const long M, const long P, const int shift, const long ks, const long vs, const long kd, const long vd)
{
    __global char *s = s_ + sbase;
    __global long *cnt = (__global long *)s;
    const long g_ = get_global_id(0);
    const long m = g_ / P, q = g_ % P;
    if (m >= M) return;
    const long i0 = m;
    const long chunk = (n1 + P - 1) / P;
    const long beg = min(n1, q * chunk), end = min(n1, (q + 1) * chunk);
    __global uint *ksrc = (__global uint *)(s + ks) + m * n1;
    __global long *vsrc = (__global long *)(s + vs) + m * n1;
    __global long *c = cnt + m * 256 * P + q;
    long h[256];
#pragma unroll 1
    for (int d = 0; d < 256; d++)
        h[d] = 0;
#pragma unroll 1
    for (long i1 = beg; i1 < end; i1++) {
        const uint key_ = ksrc[i1];
        h[(key_ >> shift) & 255]++;
    }
#pragma unroll 1
    for (int d = 0; d < 256; d++)
        c[d * P] = h[d];
}

__kernel void lc_sort_i64_19a549ac69a27649_scan(
    __global long *restrict out0,
    __global const short *restrict a0, const long a0_o, const long a0_s0,
    const long n0,
    const long n1, const long os0_0,
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

__kernel void lc_sort_i64_19a549ac69a27649_move(
    __global long *restrict out0,
    __global const short *restrict a0, const long a0_o, const long a0_s0,
    const long n0,
    const long n1, const long os0_0,
    __global char *s_, const long sbase, const long M, const long P, const int shift, const long ks, const long vs, const long kd, const long vd)
{
    __global char *s = s_ + sbase;
    __global long *cnt = (__global long *)s;
    const long g_ = get_global_id(0);
    const long m = g_ / P, q = g_ % P;
    if (m >= M) return;
    const long i0 = m;
    const long chunk = (n1 + P - 1) / P;
    const long beg = min(n1, q * chunk), end = min(n1, (q + 1) * chunk);
    __global uint *ksrc = (__global uint *)(s + ks) + m * n1;
    __global long *vsrc = (__global long *)(s + vs) + m * n1;
    __global long *c = cnt + m * 256 * P + q;
    long o[256];
#pragma unroll 1
    for (int d = 0; d < 256; d++)
        o[d] = c[d * P];
    __global uint *kdst = (__global uint *)(s + kd) + m * n1;
    __global long *vdst = (__global long *)(s + vd) + m * n1;
#pragma unroll 1
    for (long j_ = beg; j_ < end; j_++) {
        const uint key_ = ksrc[j_];
        const long pos_ = o[(key_ >> shift) & 255]++;
        kdst[pos_] = key_;
        vdst[pos_] = vsrc[j_];
    }
}

__kernel void lc_sort_i64_19a549ac69a27649_last(
    __global long *restrict out0,
    __global const short *restrict a0, const long a0_o, const long a0_s0,
    const long n0,
    const long n1, const long os0_0,
    __global char *s_, const long sbase, const long M, const long P, const int shift, const long ks, const long vs, const long kd, const long vd)
{
    __global char *s = s_ + sbase;
    __global long *cnt = (__global long *)s;
    const long g_ = get_global_id(0);
    const long m = g_ / P, q = g_ % P;
    if (m >= M) return;
    const long i0 = m;
    const long chunk = (n1 + P - 1) / P;
    const long beg = min(n1, q * chunk), end = min(n1, (q + 1) * chunk);
    __global uint *ksrc = (__global uint *)(s + ks) + m * n1;
    __global long *vsrc = (__global long *)(s + vs) + m * n1;
    __global long *c = cnt + m * 256 * P + q;
    long o[256];
#pragma unroll 1
    for (int d = 0; d < 256; d++)
        o[d] = c[d * P];
#pragma unroll 1
    for (long j_ = beg; j_ < end; j_++) {
        const uint key_ = ksrc[j_];
        const long pos_ = o[(key_ >> shift) & 255]++;
        const long val_ = vsrc[j_];
        out0[0 + i0 * os0_0 + pos_] = val_;
    }
}


