/* ---- kernel 0: schedule "sort: LSD radix, 3 passes of 11-bit digits, 16 chunks per row", 9 launches: lc_sort_f32_4601b8627b868878_first lc_sort_f32_4601b8627b868878_scan lc_sort_f32_4601b8627b868878_move lc_sort_f32_4601b8627b868878_hist lc_sort_f32_4601b8627b868878_scan lc_sort_f32_4601b8627b868878_move lc_sort_f32_4601b8627b868878_hist lc_sort_f32_4601b8627b868878_scan lc_sort_f32_4601b8627b868878_last */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
/* lazycl sort kernel: 2 fused ops; sort: LSD radix, 3 passes of 11-bit digits, 16 chunks per row. */
#define LC_POS int

__kernel void lc_sort_f32_4601b8627b868878_first(
    __global float *restrict out0,
    __global const float *restrict a0, const long a0_o,
    const long n0,
    __global char *s_, const long sbase, const long M, const long P, const int shift, const long ks, const long vs, const long kd, const long vd, const long fo, const int vid)
{
    __global char *s = s_ + sbase;
    __global long *cnt = (__global long *)s;
    __global uint *fl = (__global uint *)(s + fo);
    const long g_ = get_global_id(0);
    const long m = g_ / P, q = g_ % P;
    if (m >= M) return;
    const long chunk = (n0 + P - 1) / P;
    const long beg = min(n0, q * chunk), end = min(n0, (q + 1) * chunk);
    __global uint *ksrc = (__global uint *)(s + ks) + m * n0;
    __global uint *vsrc = (__global uint *)(s + vs) + m * n0;
    __global long *c = cnt + m * 2048 * P + q;
    long h[2048];
#pragma unroll 1
    for (int d = 0; d < 2048; d++)
        h[d] = 0;
    uint f_ = 0;
    long i0 = beg;
#pragma clang loop vectorize(disable) interleave(disable)
#pragma unroll 1
    for (; i0 < end; i0++) {
        const float v0 = a0[a0_o + i0]; /* buffer */
        const float v1 = (v0 * v0); /* multiply */
        const uint b_ = as_uint(v1);
        uint key_ = (b_ & 0x80000000u) ? ~b_ : (b_ | 0x80000000u);
        if ((uint)(b_ << 1) == 0) key_ = 0x80000000u;
        if ((uint)(b_ << 1) > 0xff000000u) key_ = 0xffffffffu;
        {
            const uint w_ = as_uint(v1);
            f_ |= select(0u, 1u, (w_ == 0x80000000u) | (((uint)(w_ << 1) > 0xff000000u) & (w_ != 0x7fc00000u)));
        }
        ksrc[i0] = key_;
        h[(key_ >> shift) & 2047]++;
    }
#pragma unroll 1
    for (int d = 0; d < 2048; d++)
        c[d * P] = h[d];
    fl[g_] = f_;
}

__kernel void lc_sort_f32_4601b8627b868878_hist(
    __global float *restrict out0,
    __global const float *restrict a0, const long a0_o,
    const long n0,
    __global char *s_, const long sbase, const long M, const long P, const int shift, const long ks, const long vs, const long kd, const long vd, const long fo, const int vid)
{
    __global char *s = s_ + sbase;
    __global long *cnt = (__global long *)s;
    __global uint *fl = (__global uint *)(s + fo);
    const long g_ = get_global_id(0);
    const long m = g_ / P, q = g_ % P;
    if (m >= M) return;
    const long chunk = (n0 + P - 1) / P;
    const long beg = min(n0, q * chunk), end = min(n0, (q + 1) * chunk);
    __global uint *ksrc = (__global uint *)(s + ks) + m * n0;
    __global uint *vsrc = (__global uint *)(s + vs) + m * n0;
    __global long *c = cnt + m * 2048 * P + q;
    long h[2048];
#pragma unroll 1
    for (int d = 0; d < 2048; d++)
        h[d] = 0;
    long i0 = beg;
#pragma clang loop vectorize(disable) interleave(disable)
#pragma unroll 1
    for (; i0 < end; i0++) {
        const uint key_ = ksrc[i0];
        h[(key_ >> shift) & 2047]++;
    }
#pragma unroll 1
    for (int d = 0; d < 2048; d++)
        c[d * P] = h[d];
}

__kernel void lc_sort_f32_4601b8627b868878_scan(
    __global float *restrict out0,
    __global const float *restrict a0, const long a0_o,
    const long n0,
    __global char *s_, const long sbase, const long M, const long P, const int shift, const long ks, const long vs, const long kd, const long vd, const long fo, const int vid)
{
    __global char *s = s_ + sbase;
    __global long *cnt = (__global long *)s;
    const long m = get_global_id(0);
    if (m >= M) return;
    __global long *c = cnt + m * 2048 * P;
    long acc = 0;
#pragma unroll 1
    for (long t = 0; t < 2048 * P; t++) {
        const long x = c[t];
        c[t] = acc;
        acc += x;
    }
}

__kernel void lc_sort_f32_4601b8627b868878_move(
    __global float *restrict out0,
    __global const float *restrict a0, const long a0_o,
    const long n0,
    __global char *s_, const long sbase, const long M, const long P, const int shift, const long ks, const long vs, const long kd, const long vd, const long fo, const int vid)
{
    __global char *s = s_ + sbase;
    __global long *cnt = (__global long *)s;
    __global uint *fl = (__global uint *)(s + fo);
    const long g_ = get_global_id(0);
    const long m = g_ / P, q = g_ % P;
    if (m >= M) return;
    const long chunk = (n0 + P - 1) / P;
    const long beg = min(n0, q * chunk), end = min(n0, (q + 1) * chunk);
    __global uint *ksrc = (__global uint *)(s + ks) + m * n0;
    __global uint *vsrc = (__global uint *)(s + vs) + m * n0;
    __global long *c = cnt + m * 2048 * P + q;
    LC_POS o[2048];
#pragma unroll 1
    for (int d = 0; d < 2048; d++)
        o[d] = (LC_POS)c[d * P];
    int pay_ = 0;
#pragma unroll 1
    for (long t = 0; t < P; t++)
        pay_ |= fl[m * P + t];
    __global uint *kdst = (__global uint *)(s + kd) + m * n0;
    const int ph_ = (int)(((ulong)kdst / sizeof(uint)) & 15);
    LC_POS f[2048];
#pragma unroll 1
    for (int d = 0; d < 2048; d++)
        f[d] = o[d];
    uint16 wk16[2048];
    __private uint *wk = (__private uint *)wk16;
    __global uint *vdst = (__global uint *)(s + vd) + m * n0;
    const int vnt_ = ph_ == (int)(((ulong)vdst / sizeof(uint)) & 15);
    uint16 wv16[2048];
    __private uint *wv = (__private uint *)wv16;
#pragma clang loop vectorize(disable) interleave(disable)
#pragma unroll 1
    for (long j_ = beg; j_ < end; j_++) {
        const uint key_ = ksrc[j_];
        const int d_ = (int)(key_ >> shift) & 2047;
        const long pos_ = o[d_]++;
        const int r_ = (int)((pos_ + ph_) & 15), e_ = d_ * 16 + r_;
        wk[e_] = key_;
        if (pay_)
            wv[e_] = vid ? (uint)j_ : vsrc[j_];
        if (r_ == 15) {
            const long lo_ = pos_ - 15;
            if (lo_ >= f[d_]) {
                __builtin_nontemporal_store(wk16[d_], (__global uint16 *)(kdst + lo_));
                if (pay_) {
                    if (vnt_)
                        __builtin_nontemporal_store(wv16[d_], (__global uint16 *)(vdst + lo_));
                    else
                        vstore16(wv16[d_], 0, vdst + lo_);
                }
            } else {
#pragma clang loop vectorize(disable) interleave(disable)
                for (long p = f[d_]; p < pos_ + 1; p++) {
                    const int e = d_ * 16 + (int)((p + ph_) & 15);
                    kdst[p] = wk[e];
                    if (pay_)
                        vdst[p] = wv[e];
                }
            }
        }
    }
#pragma unroll 1
    for (int d = 0; d < 2048; d++) {
        const int r = (int)((o[d] + ph_) & 15);
        if (r != 0) {
#pragma clang loop vectorize(disable) interleave(disable)
            for (long p = max(f[d], o[d] - r); p < o[d]; p++) {
                const int e = d * 16 + (int)((p + ph_) & 15);
                kdst[p] = wk[e];
                if (pay_)
                    vdst[p] = wv[e];
            }
        }
    }
    mem_fence(CLK_GLOBAL_MEM_FENCE);
}

__kernel void lc_sort_f32_4601b8627b868878_last(
    __global float *restrict out0,
    __global const float *restrict a0, const long a0_o,
    const long n0,
    __global char *s_, const long sbase, const long M, const long P, const int shift, const long ks, const long vs, const long kd, const long vd, const long fo, const int vid)
{
    __global char *s = s_ + sbase;
    __global long *cnt = (__global long *)s;
    __global uint *fl = (__global uint *)(s + fo);
    const long g_ = get_global_id(0);
    const long m = g_ / P, q = g_ % P;
    if (m >= M) return;
    const long chunk = (n0 + P - 1) / P;
    const long beg = min(n0, q * chunk), end = min(n0, (q + 1) * chunk);
    __global uint *ksrc = (__global uint *)(s + ks) + m * n0;
    __global uint *vsrc = (__global uint *)(s + vs) + m * n0;
    __global long *c = cnt + m * 2048 * P + q;
    LC_POS o[2048];
#pragma unroll 1
    for (int d = 0; d < 2048; d++)
        o[d] = (LC_POS)c[d * P];
    int pay_ = 0;
#pragma unroll 1
    for (long t = 0; t < P; t++)
        pay_ |= fl[m * P + t];
    int spread_ = 0;
#pragma unroll 1
    for (int d = 0; d < 2048; d++) {
        const long nx = d == 2047 && q == P - 1 ? n0 : c[d * P + 1];
        spread_ += nx - o[d] >= 16;
    }
    __global float *od_ = out0;
    if (spread_ <= 32) {
#pragma clang loop vectorize(disable) interleave(disable)
#pragma unroll 1
        for (long j_ = beg; j_ < end; j_++) {
            const uint key_ = ksrc[j_];
            const int d_ = (int)(key_ >> shift) & 2047;
            const long pos_ = o[d_]++;
            float val_;
            if (pay_ && (key_ == 0xffffffffu || key_ == (0x80000000u))) {
                const long i0 = vid ? j_ : (long)vsrc[j_];
                const float v0 = a0[a0_o + i0]; /* buffer */
                const float v1 = (v0 * v0); /* multiply */
                val_ = v1;
            } else {
                const uint w_ = key_;
                val_ = as_float(key_ == 0xffffffffu ? 0x7fc00000u : (w_ & 0x80000000u) ? (w_ ^ 0x80000000u) : ~w_);
            }
            od_[pos_] = val_;
        }
        return;
    }
    const int ph_ = (int)(((ulong)od_ / sizeof(float)) & 15);
    LC_POS f[2048];
#pragma unroll 1
    for (int d = 0; d < 2048; d++)
        f[d] = o[d];
    float16 wo16[2048];
    __private float *wo = (__private float *)wo16;
#pragma clang loop vectorize(disable) interleave(disable)
#pragma unroll 1
    for (long j_ = beg; j_ < end; j_++) {
        const uint key_ = ksrc[j_];
        const int d_ = (int)(key_ >> shift) & 2047;
        const long pos_ = o[d_]++;
        float val_;
        if (pay_ && (key_ == 0xffffffffu || key_ == (0x80000000u))) {
            const long i0 = vid ? j_ : (long)vsrc[j_];
            const float v0 = a0[a0_o + i0]; /* buffer */
            const float v1 = (v0 * v0); /* multiply */
            val_ = v1;
        } else {
            const uint w_ = key_;
            val_ = as_float(key_ == 0xffffffffu ? 0x7fc00000u : (w_ & 0x80000000u) ? (w_ ^ 0x80000000u) : ~w_);
        }
        const int r_ = (int)((pos_ + ph_) & 15);
        wo[d_ * 16 + r_] = val_;
        if (r_ == 15) {
            const long lo_ = pos_ - 15;
            if (lo_ >= f[d_]) {
                __builtin_nontemporal_store(wo16[d_], (__global float16 *)(od_ + lo_));
            } else {
#pragma clang loop vectorize(disable) interleave(disable)
                for (long p = f[d_]; p < pos_ + 1; p++) {
                    const int e = d_ * 16 + (int)((p + ph_) & 15);
                    od_[p] = wo[e];
                }
            }
        }
    }
#pragma unroll 1
    for (int d = 0; d < 2048; d++) {
        const int r = (int)((o[d] + ph_) & 15);
        if (r != 0) {
#pragma clang loop vectorize(disable) interleave(disable)
            for (long p = max(f[d], o[d] - r); p < o[d]; p++) {
                const int e = d * 16 + (int)((p + ph_) & 15);
                od_[p] = wo[e];
            }
        }
    }
    mem_fence(CLK_GLOBAL_MEM_FENCE);
}


