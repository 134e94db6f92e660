/* ---- kernel 0: schedule "select: the k largest of each row chunk, merged (rows in SIMD lanes)", 2 launches: lc_select_i64_cb3f5fc28d3da45f_first lc_select_i64_cb3f5fc28d3da45f_merge */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
/* lazycl select kernel: 4 fused ops; select: the k largest of each row chunk, merged (rows in SIMD lanes). */
#define KB 16   /* the lists' room: k rounded up (one kernel serves several k) */
#define KK ((int)kk)
#define TK_NONE (-1L)
#define TK_BETTER(ka, ia, kb, ib) ((ka) > (kb) || ((ka) == (kb) && (ia) > (ib)))

/* (key, i) into the sorted list (tk, ti), which it beats at its last place. */
static inline void lc_tk_push(uint *tk, long *ti, const uint key, const long i, const int kk)
{
    int j = KK - 1;
#pragma unroll 1
    while (j > 0 && TK_BETTER(key, i, tk[j - 1], ti[j - 1])) {
        tk[j] = tk[j - 1];
        ti[j] = ti[j - 1];
        j--;
    }
    tk[j] = key;
    ti[j] = i;
}

/* (key, i) offered to the list, whose last place (*thk, *thi) it must beat: 1 if it
 * entered. */
static inline int lc_tk_offer(uint *tk, long *ti, uint *thk, long *thi, const uint key,
                              const long i, const int kk)
{
    if (!TK_BETTER(key, i, *thk, *thi))
        return 0;
    lc_tk_push(tk, ti, key, i, kk);
    *thk = tk[KK - 1];
    *thi = ti[KK - 1];
    return 1;
}

__kernel void lc_select_i64_cb3f5fc28d3da45f_first(
    __global long *restrict out0,
    __global const float *restrict a0, const long a0_o, const long a0_s1,
    const float a1_v,
    const float a2_v,
    const long n0,
    const long n1, const long os0_1,
    __global char *s_, const long sbase, const long M, const long P, const long L, const long G, const int fin, const int kk, const long ksrc, const long isrc, const long kdst, const long idst)
{
    __global char *s = s_ + sbase;
    const long g_ = get_global_id(0);
    const long MV = M / 8;
    const long q = g_ / MV, m0 = (g_ % MV) * 8;
    if (q >= P) return;
    const long i0 = m0;
    uint tk[8 * KB];
    long ti[8 * KB];
#pragma unroll 1
    for (int j = 0; j < 8 * KB; j++) {
        tk[j] = 0;
        ti[j] = TK_NONE;
    }
    uint thk[8];
    long thi[8];
#pragma unroll 1
    for (int l = 0; l < 8; l++) {
        thk[l] = 0;
        thi[l] = TK_NONE;
    }
    uint8 thv = (uint8)(0);
    const long chunk = (n1 + P - 1) / P;
    const long beg = min(n1, q * chunk), end = min(n1, (q + 1) * chunk);
#pragma unroll 1
    for (long i1 = beg; i1 < end; i1++) {
        const float8 w0 = vload8(0, a0 + (a0_o + i0 + i1 * a0_s1)); /* buffer */
        const float8 w1 = (float8)(a1_v); /* full */
        const float8 w2 = (w0 * w1); /* multiply */
        const float8 w3 = (float8)(a2_v); /* full */
        const float8 w4 = (w2 - w3); /* subtract */
        const float8 w5 = fabs(w4); /* absolute */
        const float8 z_ = select(w5, (float8)(0), w5 == (float8)(0));
        uint8 key_ = as_uint8(z_);
        key_ = select(key_ | (uint8)(0x80000000u), ~key_, (key_ & (uint8)(0x80000000u)) != (uint8)(0));
        key_ = select(key_, (uint8)(0xffffffffu), isnan(w5));
        if (any(key_ >= thv)) {
            uint kl_[8];
            vstore8(key_, 0, kl_);
#pragma unroll 1
            for (int l = 0; l < 8; l++)
                lc_tk_offer(tk + l * KB, ti + l * KB, thk + l, thi + l, kl_[l], i1,
                            kk);
            thv = vload8(0, thk);
        }
    }
    const long lr_ = i0;
#pragma unroll 1
    for (int l = 0; l < 8; l++) {
        const long m = m0 + l;
        if (!fin) {
            __global uint *kd = (__global uint *)(s + kdst) + (m * P + q) * KK;
            __global long *id = (__global long *)(s + idst) + (m * P + q) * KK;
#pragma unroll 1
            for (int j = 0; j < KK; j++) {
                kd[j] = tk[l * KB + j];
                id[j] = ti[l * KB + j];
            }
            continue;
        }
        const long i0 = lr_ + l;
#pragma unroll 1
        for (long pos_ = 0; pos_ < KK; pos_++) {
            const long val_ = ti[l * KB + pos_];
            out0[0 + i0 + pos_ * os0_1] = val_;
        }
    }
}

__kernel void lc_select_i64_cb3f5fc28d3da45f_merge(
    __global long *restrict out0,
    __global const float *restrict a0, const long a0_o, const long a0_s1,
    const float a1_v,
    const float a2_v,
    const long n0,
    const long n1, const long os0_1,
    __global char *s_, const long sbase, const long M, const long P, const long L, const long G, const int fin, const int kk, const long ksrc, const long isrc, const long kdst, const long idst)
{
    __global char *s = s_ + sbase;
    const long g_ = get_global_id(0);
    const long m = g_ / P, q = g_ % P;
    if (m >= M) return;
    __global const uint *kc = (__global const uint *)(s + ksrc) + m * L;
    __global const long *ic = (__global const long *)(s + isrc) + m * L;
    uint tk[KB];
    long ti[KB];
#pragma unroll 1
    for (int j = 0; j < KK; j++) {
        tk[j] = 0;
        ti[j] = TK_NONE;
    }
    uint thk = 0;
    long thi = TK_NONE;
    const long end = min(L, (q + 1) * G);
#pragma unroll 1
    for (long j = q * G; j < end; j++) {
        const uint kj_ = kc[j];
        lc_tk_offer(tk, ti, &thk, &thi, kj_, ic[j], kk);
    }
    if (!fin) {
        __global uint *kd = (__global uint *)(s + kdst) + (m * P + q) * KK;
        __global long *id = (__global long *)(s + idst) + (m * P + q) * KK;
#pragma unroll 1
        for (int j = 0; j < KB; j++) {
            if (j >= KK)
                break;
            kd[j] = tk[j];
            id[j] = ti[j];
        }
        return;
    }
    const long i0 = m;
#pragma unroll 1
    for (long pos_ = 0; pos_ < KB; pos_++) {
        if (pos_ >= KK)
            break;
        const long val_ = ti[pos_];
        out0[0 + i0 + pos_ * os0_1] = val_;
    }
}


