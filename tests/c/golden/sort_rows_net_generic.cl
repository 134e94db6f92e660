/* ---- kernel 0: schedule "sort: one item per row, LSD radix, 4 passes of 8-bit digits", 1 launch: lc_sort_f32_d60f1038592cc76c_row */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
/* lazycl sort kernel: 2 fused ops; sort: one item per row, LSD radix, 4 passes of 8-bit digits. */
__kernel void lc_sort_f32_d60f1038592cc76c_row(
    __global float *restrict out0,
    __global const float *restrict a0, const long a0_o, const long a0_s0,
    const float a1_v,
    const long n0,
    const long n1, const long os0_0,
    __global char *s_, const long sbase, const long M, const long P, const long vs)
{
    __global char *s = s_ + sbase;
    const long it_ = get_global_id(0);
    if (it_ >= P) return;
#pragma unroll 1
    for (long m = it_; m < M; m += P) {
    const long i0 = m;
    const long N = n1, NP = N;
    __global uint *ka = (__global uint *)s + it_ * 2 * NP, *kb = ka + NP;
    __global uint *va = (__global uint *)(s + vs) + it_ * 2 * N, *vb = va + N;
    int vid = 1, pay_ = 0;
    uint h[4][256];
    uint k0 = 0;
#pragma unroll 1
    for (int d = 0; d < 4; d++)
#pragma unroll 1
        for (int r = 0; r < 256; r++)
            h[d][r] = 0;
    long i1 = 0;
#pragma clang loop vectorize(disable) interleave(disable)
#pragma unroll 1
    for (; i1 < N; i1++) {
        const float v0 = a0[a0_o + i0 * a0_s0 + i1]; /* buffer */
        const float v1 = a1_v; /* full */
        const float v2 = (v0 * v1); /* multiply */
        const uint b_ = as_uint(v2);
        uint key_ = (b_ & 0x80000000u) ? ~b_ : (b_ | 0x80000000u);
        if ((uint)(b_ << 1) == 0) key_ = 0x80000000u;
        if ((uint)(b_ << 1) > 0xff000000u) key_ = 0xffffffffu;
        {
            const uint w_ = as_uint(v2);
            pay_ |= select(0u, 1u, (w_ == 0x80000000u) | (((uint)(w_ << 1) > 0xff000000u) & (w_ != 0x7fc00000u)));
        }
        ka[i1] = key_;
        if (i1 == 0)
            k0 = key_;
        h[0][(key_ >> 0) & 255]++;
        h[1][(key_ >> 8) & 255]++;
        h[2][(key_ >> 16) & 255]++;
        h[3][(key_ >> 24) & 255]++;
    }
    __global uint *ksrc = ka, *kdst = kb;
    __global uint *vsrc = va, *vdst = vb;
#pragma unroll 1
    for (int d = 0; d < 4; d++) {
        const int sh = d * 8;
        __private uint *o = h[d];
        if (o[(k0 >> sh) & 255] == (uint)N)
            continue;
        uint acc = 0;
#pragma unroll 1
        for (int r = 0; r < 256; r++) {
            const uint x = o[r];
            o[r] = acc;
            acc += x;
        }
        if (pay_) {
#pragma clang loop vectorize(disable) interleave(disable)
#pragma unroll 1
            for (long j = 0; j < N; j++) {
                const uint key_ = ksrc[j];
                const uint p = o[(key_ >> sh) & 255]++;
                kdst[p] = key_;
                vdst[p] = vid ? (uint)j : vsrc[j];
            }
            __global uint *u = vsrc;
            vsrc = vdst;
            vdst = u;
            vid = 0;
        } else {
#pragma clang loop vectorize(disable) interleave(disable)
#pragma unroll 1
            for (long j = 0; j < N; j++) {
                const uint key_ = ksrc[j];
                const uint p = o[(key_ >> sh) & 255]++;
                kdst[p] = key_;
            }
        }
        __global uint *t = ksrc;
        ksrc = kdst;
        kdst = t;
    }
#pragma unroll 1
    for (long pos_ = 0; pos_ < N; pos_++) {
        const uint key_ = ksrc[pos_];
        float val_;
        if (pay_ && (key_ == 0xffffffffu || key_ == (0x80000000u))) {
            const long i1 = vid ? pos_ : (long)vsrc[pos_];
            const float v0 = a0[a0_o + i0 * a0_s0 + i1]; /* buffer */
            const float v1 = a1_v; /* full */
            const float v2 = (v0 * v1); /* multiply */
            val_ = v2;
        } else {
            const uint w_ = key_;
            val_ = as_float(key_ == 0xffffffffu ? 0x7fc00000u : (w_ & 0x80000000u) ? (w_ ^ 0x80000000u) : ~w_);
        }
        out0[0 + i0 * os0_0 + pos_] = val_;
    }
    }
}


