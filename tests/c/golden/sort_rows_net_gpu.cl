/* ---- kernel 0: schedule "sort: rows in one work-group tile of 4096, 8 local passes of 4 bits", 1 launch: lc_sort_f32_cbf73c58129f9690_local */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
/* lazycl sort kernel: 2 fused ops; sort: rows in one work-group tile of 4096, 8 local passes of 4 bits. */
#define LT 256
#define LI 16
#define LN (LT * LI)
#define LP(i) ((i) + ((i) >> 5))   /* padded: no bank conflicts */

/* The exclusive scan of v over the group; *tot = the group's sum. NVIDIA: warps scan
 * by shuffles, then every item adds the totals of the warps before its own (two
 * barriers, not two per step). */
static inline uint lc_gscan(__local uint *s, const uint v, uint *tot)
{
    const int l = get_local_id(0);
#if defined(cl_nv_pragma_unroll)
    const int lane = l & 31, w = l >> 5;
    uint x = v;
    for (int o = 1; o < 32; o <<= 1) {
        uint y;
        asm volatile("shfl.sync.up.b32 %0, %1, %2, 0, 0xffffffff;" : "=r"(y) : "r"(x), "r"(o));
        if (lane >= o)
            x += y;
    }
    if (lane == 31)
        s[w] = x;
    barrier(CLK_LOCAL_MEM_FENCE);
    uint pre = 0, all = 0;
    for (int i = 0; i < LT / 32; i++) {
        const uint t = s[i];
        pre += i < w ? t : 0;
        all += t;
    }
    *tot = all;
    barrier(CLK_LOCAL_MEM_FENCE);
    return pre + x - v;
#else
    s[l] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int o = 1; o < LT; o <<= 1) {
        const uint a = l >= o ? s[l - o] : 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        s[l] += a;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    const uint r = s[l];
    *tot = s[LT - 1];
    barrier(CLK_LOCAL_MEM_FENCE);
    return r - v;
#endif
}

/* The exclusive scan of the 8 lanes of x. */
static inline uint8 lc_scan8(const uint8 x)
{
    uint8 y = x + (uint8)(0, x.s0, x.s1, x.s2, x.s3, x.s4, x.s5, x.s6);
    y += (uint8)(0, 0, y.s0, y.s1, y.s2, y.s3, y.s4, y.s5);
    y += (uint8)(0, 0, 0, 0, y.s0, y.s1, y.s2, y.s3);
    return y - x;
}

/* Sort the tile's keys lk (and, with pay, their payloads lv) stably by `bits` bits at
 * sh, 4 at a time: item l holds keys l*LI.. in order; its counts of each 4-bit value go
 * to its column of c (16 x LT), whose scan in (value, item) order places every key.
 * Each key's value and rank among the item's keys are kept 4 bits each (LI <= 16); the
 * payloads move after the keys, so only one of the two is in registers at a time. */
static inline void lc_tile_sort(__local uint *lk, __local uint *lv, __local ushort *c,
                                __local uint *s, const int sh, const int bits,
                                const int pay)
{
    const int l = get_local_id(0);
#pragma unroll 1
    for (int b = 0; b < bits; b += 4) {
        uint k[LI];
        /* the item's counts of the 16 values, 8 bits each, in registers (LI < 256) */
        ulong lo_ = 0, hi_ = 0, rp = 0, dp = 0;
#pragma unroll
        for (int j = 0; j < LI; j++) {
            k[j] = lk[LP(l * LI + j)];
            const int d = (int)(k[j] >> (sh + b)) & 15, at = (d & 7) * 8;
            const ulong one = 1ul << at;
            ulong r;
            if (d < 8) {
                r = (lo_ >> at) & 255;
                lo_ += one;
            } else {
                r = (hi_ >> at) & 255;
                hi_ += one;
            }
            rp |= r << (4 * j);
            dp |= (ulong)d << (4 * j);
        }
#pragma unroll
        for (int d = 0; d < 8; d++) {
            c[d * LT + l] = (ushort)((lo_ >> (d * 8)) & 255);
            c[(d + 8) * LT + l] = (ushort)((hi_ >> (d * 8)) & 255);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        /* item l scans entries 16 l.. of the table: two 16-byte loads */
        const uint8 x0 = convert_uint8(vload8(0, c + l * 16));
        const uint8 x1 = convert_uint8(vload8(1, c + l * 16));
        uint tot;
        const uint8 y0 = lc_scan8(x0), y1 = lc_scan8(x1) + y0.s7 + x0.s7;
        const uint acc = lc_gscan(s, y1.s7 + x1.s7, &tot);
        vstore8(convert_ushort8(y0 + acc), 0, c + l * 16);
        vstore8(convert_ushort8(y1 + acc), 1, c + l * 16);
        barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
        for (int j = 0; j < LI; j++) {
            const int d = (int)(dp >> (4 * j)) & 15;
            lk[LP(c[d * LT + l] + (uint)((rp >> (4 * j)) & 15))] = k[j];
        }
        if (pay) {   /* lv still holds the old order: read it, then place it */
            uint o[LI];
#pragma unroll
            for (int j = 0; j < LI; j++)
                o[j] = lv[LP(l * LI + j)];
            barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
            for (int j = 0; j < LI; j++) {
                const int d = (int)(dp >> (4 * j)) & 15;
                lv[LP(c[d * LT + l] + (uint)((rp >> (4 * j)) & 15))] = o[j];
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

__kernel __attribute__((reqd_work_group_size(LT, 1, 1)))
void lc_sort_f32_cbf73c58129f9690_local(
    __global float *restrict out0,
    __global const float *restrict a0, const long a0_o, const long a0_s0,
    const float a1_v,
    const long n0,
    const long n1, const long os0_0,
    __global char *s_, const long sbase, const long M, const long B, const long S, const long TS, const int shift, const long ks, const long vs, const long kd, const long vd)
{
    __global char *s = s_ + sbase;
    __global int *fl = (__global int *)s;
    const int l = get_local_id(0);
    const long g_ = get_group_id(0);
    __local uint sl[LT];
    const long m = g_, b = 0;
    const long i0 = m;
    const long N = n1, tb = b * LN, nb = min((long)LN, N - tb);
    __global uint *ksrc = (__global uint *)(s + ks) + m * N;
    __global uint *kdst = (__global uint *)(s + kd) + m * N;
    __global uint *vsrc = (__global uint *)(s + vs) + m * N;
    __global uint *vdst = (__global uint *)(s + vd) + m * N;
    __local uint lk[LP(LN)];
    __local uint lv[LP(LN)];
    __local ushort c[16 * LT] __attribute__((aligned(16)));
    const int pay = 1;
    for (int j = 0; j < LI; j++) {
        const int e = j * LT + l;
        uint k_ = 0xffffffffu;
        if (e < nb) {
            const long i1 = tb + e;
            const float v0 = a0[a0_o + i0 * a0_s0 + i1]; /* buffer */
            const float v1 = a1_v; /* full */
            const float v2 = (v0 * v1); /* multiply */
            const uint b_ = as_uint(v2);
            uint key_ = (b_ & 0x80000000u) ? ~b_ : (b_ | 0x80000000u);
            if ((uint)(b_ << 1) == 0) key_ = 0x80000000u;
            if ((uint)(b_ << 1) > 0xff000000u) key_ = 0xffffffffu;
            k_ = key_;
            if (pay)
                lv[LP(e)] = (uint)(tb + e);
        } else if (pay) {
            lv[LP(e)] = 0;
        }
        lk[LP(e)] = k_;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    lc_tile_sort(lk, lv, c, sl, 0, 32, pay);
    for (int j = 0; j < LI; j++) {
        const int p = j * LT + l;
        if (p < nb) {
            const uint key_ = lk[LP(p)];
            const long idx_ = lv[LP(p)], pos_ = p;
            float val_;
            if (pay && (key_ == 0xffffffffu || key_ == (0x80000000u))) {
                const long i1 = idx_;
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


