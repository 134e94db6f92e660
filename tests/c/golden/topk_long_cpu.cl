/* ---- kernel 0: schedule "select: the k largest of each row chunk, merged (SIMD steps along rows)", 2 launches: lc_select_i64_ee8cb5b90bbae7b1_first lc_select_i64_ee8cb5b90bbae7b1_merge */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
/* lazycl select kernel: 2 fused ops; select: the k largest of each row chunk, merged (SIMD steps along rows). */
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

static inline int lc_tkv_offer(uint16 *tkv, int16 *tiv, uint *thk, int *thi,
                               const uint key, const int i, const int kk)
{
    if (!TK_BETTER(key, i, *thk, *thi))
        return 0;
    const uint16 kv = (uint16)(key);
    const int16 iv = (int16)(i);
    const int16 b = (kv > *tkv) | ((kv == *tkv) & (iv > *tiv));
    const uint16 up = (uint16)(0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14);
    const int16 bp = shuffle(b, up) & (int16)(0, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
    *tkv = select(select(*tkv, kv, b), shuffle(*tkv, up), bp);
    *tiv = select(select(*tiv, iv, b), shuffle(*tiv, up), bp);
    *thi = shuffle(*tiv, (uint16)(KK - 1)).s0;
    *thk = shuffle(*tkv, (uint16)(KK - 1)).s0;
    return 1;
}

__kernel void lc_select_i64_ee8cb5b90bbae7b1_first(
    __global long *restrict out0,
    __global const float *restrict a0, const long a0_o,
    const long n0,
    __global char *s_, const long sbase, const long M, const long P, const long L, const long G, const int fin, const int kk, const long ksrc, const long isrc, const long kdst, const long idst)
{
    __global char *s = s_ + sbase;
    const long g_ = get_global_id(0);
    const long q = g_ / M, m = g_ % M;
    if (m >= M || q >= P) return;
    uint tk[KB];
    long ti[KB];
#pragma unroll 1
    for (int j = 0; j < KK; j++) {
        tk[j] = 0;
        ti[j] = TK_NONE;
    }
    uint thk = 0;
    long thi = TK_NONE;
    uint16 tkv = (uint16)(0);
    int16 tiv = (int16)((-1));
    int thiv = (-1);
    const long chunk = ((n0 + P - 1) / P + 63) / 64 * 64;
    const long beg = min(n0, q * chunk), end = min(n0, (q + 1) * chunk);
    const long nst_ = (end - beg) / 64, tail_ = beg + nst_ * 64;
    const long budget_ = 8L * KK + (end - beg) / 64;
    long ins_ = 0;
    float16 thf_;
#pragma unroll 1
    for (int rev_ = 0; rev_ < 2; rev_++) {
    if (rev_) {
        if (ins_ <= budget_)
            break;
        tkv = (uint16)(0);
        tiv = (int16)((-1));
        thiv = (-1);
        thk = 0;
    }
    const int strict_ = rev_;
    {
        const uint t_ = thk;
        thf_ = (float16)(as_float((t_ & 0x80000000u) ? (t_ & ~0x80000000u) : ~t_));
    }
    if (strict_)
        thf_ = nextafter(thf_, (float16)(INFINITY));
    if (rev_) {
#pragma unroll 1
        for (long i0 = end - 1; i0 >= tail_; i0--) {
            const float v0 = a0[a0_o + i0]; /* buffer */
            const float v1 = (v0 * v0); /* multiply */
            const uint b_ = as_uint(v1);
            uint key_ = (b_ & 0x80000000u) ? ~b_ : (b_ | 0x80000000u);
            if ((uint)(b_ << 1) == 0) key_ = 0x80000000u;
            if ((uint)(b_ << 1) > 0xff000000u) key_ = 0xffffffffu;
            ins_ += lc_tkv_offer(&tkv, &tiv, &thk, &thiv, key_, (int)i0, kk);
        }
    }
#pragma unroll 1
    for (long s_ = 0; s_ < nst_; s_++) {
        if (!rev_ && ins_ > budget_)
            break;
        const long b_ = rev_ ? tail_ - (s_ + 1) * 64 : beg + s_ * 64;
        int16 c_ = 0;
#pragma unroll
        for (int u_ = 0; u_ < 4; u_++) {
            const long i0 = b_ + u_ * 16;
            const float16 w0 = vload16(0, a0 + (a0_o + i0)); /* buffer */
            const float16 w1 = (w0 * w0); /* multiply */
            c_ |= !(w1 < thf_);
        }
        const int8 c_8 = (int8)(c_.s0, c_.s1, c_.s2, c_.s3, c_.s4, c_.s5, c_.s6, c_.s7) | (int8)(c_.s8, c_.s9, c_.sa, c_.sb, c_.sc, c_.sd, c_.se, c_.sf);
        const int4 c_4 = (int4)(c_8.s0, c_8.s1, c_8.s2, c_8.s3) | (int4)(c_8.s4, c_8.s5, c_8.s6, c_8.s7);
        if ((c_4.s0 | c_4.s1 | c_4.s2 | c_4.s3) != 0) {
#pragma unroll 1
            for (int uu_ = 0; uu_ < 4; uu_++) {
                const int u_ = rev_ ? 3 - uu_ : uu_;
                const long i0 = b_ + u_ * 16;
                const float16 w0 = vload16(0, a0 + (a0_o + i0)); /* buffer */
                const float16 w1 = (w0 * w0); /* multiply */
                const int16 p_ = !(w1 < thf_);
                const int8 p_8 = (int8)(p_.s0, p_.s1, p_.s2, p_.s3, p_.s4, p_.s5, p_.s6, p_.s7) | (int8)(p_.s8, p_.s9, p_.sa, p_.sb, p_.sc, p_.sd, p_.se, p_.sf);
                const int4 p_4 = (int4)(p_8.s0, p_8.s1, p_8.s2, p_8.s3) | (int4)(p_8.s4, p_8.s5, p_8.s6, p_8.s7);
                if ((p_4.s0 | p_4.s1 | p_4.s2 | p_4.s3) == 0)
                    continue;
                const float16 z_ = select(w1, (float16)(0), w1 == (float16)(0));
                uint16 key_ = as_uint16(z_);
                key_ = select(key_ | (uint16)(0x80000000u), ~key_, (key_ & (uint16)(0x80000000u)) != (uint16)(0));
                key_ = select(key_, (uint16)(0xffffffffu), isnan(w1));
                uint kl_[16];
                vstore16(key_, 0, kl_);
                const uint16 mb16_ = select((uint16)(0), (uint16)(1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768), key_ >= (uint16)(thk));
                const uint8 mb16_8 = (uint8)(mb16_.s0, mb16_.s1, mb16_.s2, mb16_.s3, mb16_.s4, mb16_.s5, mb16_.s6, mb16_.s7) | (uint8)(mb16_.s8, mb16_.s9, mb16_.sa, mb16_.sb, mb16_.sc, mb16_.sd, mb16_.se, mb16_.sf);
                const uint4 mb16_4 = (uint4)(mb16_8.s0, mb16_8.s1, mb16_8.s2, mb16_8.s3) | (uint4)(mb16_8.s4, mb16_8.s5, mb16_8.s6, mb16_8.s7);
                uint m_ = (mb16_4.s0 | mb16_4.s1 | mb16_4.s2 | mb16_4.s3);
#pragma unroll 1
                while (m_ != 0) {
                    const int l = 31 - (int)clz(rev_ ? m_ : m_ & (0 - m_));
                    m_ ^= (uint)1 << l;
                    ins_ += lc_tkv_offer(&tkv, &tiv, &thk, &thiv, kl_[l], (int)(i0 + l), kk);
                }
                {
                    const uint t_ = thk;
                    thf_ = (float16)(as_float((t_ & 0x80000000u) ? (t_ & ~0x80000000u) : ~t_));
                }
                if (strict_)
                    thf_ = nextafter(thf_, (float16)(INFINITY));
            }
        }
    }
    if (!rev_ && ins_ <= budget_) {
#pragma unroll 1
        for (long i0 = tail_; i0 < end; i0++) {
            const float v0 = a0[a0_o + i0]; /* buffer */
            const float v1 = (v0 * v0); /* multiply */
            const uint b_ = as_uint(v1);
            uint key_ = (b_ & 0x80000000u) ? ~b_ : (b_ | 0x80000000u);
            if ((uint)(b_ << 1) == 0) key_ = 0x80000000u;
            if ((uint)(b_ << 1) > 0xff000000u) key_ = 0xffffffffu;
            ins_ += lc_tkv_offer(&tkv, &tiv, &thk, &thiv, key_, (int)i0, kk);
        }
    }
    }
    vstore16(tkv, 0, tk);
    const long16 tl_ = convert_long16(tiv);
    vstore16(select(tl_, (long16)(TK_NONE), tl_ == (long16)(-1)), 0, ti);
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
#pragma unroll 1
    for (long pos_ = 0; pos_ < KB; pos_++) {
        if (pos_ >= KK)
            break;
        const long val_ = ti[pos_];
        out0[0 + pos_] = val_;
    }
}

__kernel void lc_select_i64_ee8cb5b90bbae7b1_merge(
    __global long *restrict out0,
    __global const float *restrict a0, const long a0_o,
    const long n0,
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
#pragma unroll 1
    for (long pos_ = 0; pos_ < KB; pos_++) {
        if (pos_ >= KK)
            break;
        const long val_ = ti[pos_];
        out0[0 + pos_] = val_;
    }
}


