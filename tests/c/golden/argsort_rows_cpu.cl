/* ---- kernel 0: schedule "sort: one item per row, LSD radix, 2 passes of 8-bit digits", 1 launch: lc_sort_i64_9f8f5ed4a8c67c24_row */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
/* lazycl sort kernel: 1 fused op; sort: one item per row, LSD radix, 2 passes of 8-bit digits. */
__kernel void lc_sort_i64_9f8f5ed4a8c67c24_row(
    __global long *restrict out0,
    __global const short *restrict a0, const long a0_o, const long a0_s0,
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
    int vid = 1, pay_ = 1;
    uint h[2][256];
    uint k0 = 0;
#pragma unroll 1
    for (int d = 0; d < 2; d++)
#pragma unroll 1
        for (int r = 0; r < 256; r++)
            h[d][r] = 0;
    long i1 = 0;
#pragma clang loop vectorize(disable) interleave(disable)
#pragma unroll 1
    for (; i1 < N; i1++) {
        const short v0 = a0[a0_o + i0 * a0_s0 + i1]; /* buffer */
        uint key_ = (uint)((ushort)(v0) ^ 0x8000u);
        key_ = ~key_ & 0xffffu;
        ka[i1] = key_;
        if (i1 == 0)
            k0 = key_;
        h[0][(key_ >> 0) & 255]++;
        h[1][(key_ >> 8) & 255]++;
    }
    __global uint *ksrc = ka, *kdst = kb;
    __global uint *vsrc = va, *vdst = vb;
#pragma unroll 1
    for (int d = 0; d < 2; d++) {
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
        const long val_ = vid ? pos_ : (long)vsrc[pos_];
        out0[0 + i0 * os0_0 + pos_] = val_;
    }
    }
}


