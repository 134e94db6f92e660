/* philox.h: Philox4x32-10 (Salmon et al., SC11) and the values lazycl draws
 * from it, written once, as macros that expand both to C (tests/c/
 * test_random.c checks them against Random123's philox.h and its
 * known-answer vectors) and to OpenCL C, one value, four or eight at a time
 * (codegen/random.c stringifies them into the kernels that use them).
 *
 * Parameters: SFX is pasted onto the function names; U32/U64 are the
 * counter's types (uint32_t/uint64_t in C; uint/ulong in OpenCL C);
 * TO32/TO64/TOF convert to U32, U64 and the float type (casts); MULHI is
 * the high half of a 32 x 32-bit product (OpenCL's mul_hi). The key
 * is a scalar 64-bit word in every variant. log, sqrt and cos are type-
 * generic in OpenCL C (and through <tgmath.h> in the test). The eight-lane
 * helpers (LC_RND_LANES8_*) are OpenCL C only, over LC_PHILOX_PACKED.
 *
 * Element k of a random source with key K and offset c0 is a function of
 * (K, n = c0 + k) only: Philox's counter is the 64-bit block number (n >> 2
 * for 32-bit values, n >> 1 for 64-bit ones) in words 0 (low) and 1, words
 * 2 and 3 are 0; the key's low half is key word 0. Each block gives four
 * 32-bit or two 64-bit values (LC_RND_QUAD_CODE: four at once).
 */
#ifndef LC_PHILOX_H
#define LC_PHILOX_H

/* One round (Random123's philox4x32round), the key bumped after it unless last.
 * MULHI(a, b) is the high half of the 32 x 32-bit product (mul_hi in OpenCL C). */
#define LC_PHILOX_LAST(MULHI)                                                               \
    h0_ = MULHI(0xD2511F53u, x0_);                                                          \
    h1_ = MULHI(0xCD9E8D57u, x2_);                                                          \
    x2_ = 0xD2511F53u * x0_;                                                                \
    x0_ = h1_ ^ x1_ ^ k0_;                                                                  \
    x1_ = 0xCD9E8D57u * x2s_;                                                               \
    x2s_ = h0_ ^ x3_ ^ k1_;                                                                 \
    x3_ = x2_;                                                                              \
    x2_ = x2s_;
#define LC_PHILOX_ROUND(MULHI)                                                              \
    x2s_ = x2_;                                                                             \
    LC_PHILOX_LAST(MULHI)                                                                   \
    k0_ += 0x9E3779B9u;                                                                     \
    k1_ += 0xBB67AE85u;

/* Declares x0_..x3_ = Philox4x32-10 of the counter words c0..c3 and key words
 * key0, key1, rounds unrolled (a loop, or the words in an array, kept PoCL
 * from vectorizing across work-items). */
#define LC_PHILOX4(U32, KEY32, MULHI, c0, c1, c2, c3, key0, key1)                           \
    U32 x0_ = (c0), x1_ = (c1), x2_ = (c2), x3_ = (c3), h0_, h1_, x2s_;                     \
    KEY32 k0_ = (key0), k1_ = (key1);                                                       \
    LC_PHILOX_ROUND(MULHI) LC_PHILOX_ROUND(MULHI) LC_PHILOX_ROUND(MULHI)                    \
    LC_PHILOX_ROUND(MULHI) LC_PHILOX_ROUND(MULHI) LC_PHILOX_ROUND(MULHI)                    \
    LC_PHILOX_ROUND(MULHI) LC_PHILOX_ROUND(MULHI) LC_PHILOX_ROUND(MULHI)                    \
    x2s_ = x2_;                                                                             \
    LC_PHILOX_LAST(MULHI)

/* lazycl's counter: the 64-bit block number b in words 0 (low) and 1; the 64-bit key. */
#define LC_PHILOX(U32, KEY32, TO32, MULHI, b, key)                                          \
    LC_PHILOX4(U32, KEY32, MULHI, TO32(b), TO32((b) >> 32), 0, 0, (KEY32)(key),             \
               (KEY32)((key) >> 32))

/* Value n of a stream: one block of four words gives four 32-bit values (n in block n >> 2,
 * word n & 3) or two 64-bit ones (block n >> 1, words 0-1 or 2-3, low word first). The
 * selections work component-wise on vectors too (the 64-bit one as a mask: PoCL 3.1
 * miscompiled a conditional between two 64-bit words in the CPU sort's first pass). */
#define LC_W32(U32, TO32, n) (((TO32(n) & 3u) == 0u) ? x0_ : ((TO32(n) & 3u) == 1u) ? x1_ :     \
                              ((TO32(n) & 3u) == 2u) ? x2_ : x3_)
#define LC_W64(U64, TO64, n) (LC_PAIR(TO64, x0_, x1_) ^                                     \
                              ((LC_PAIR(TO64, x0_, x1_) ^ LC_PAIR(TO64, x2_, x3_))           \
                               & ((U64)0 - ((n) & 1u))))

/* The conversions every path shares (the same operations, so the same bits on a device):
 * a 64-bit word from two, uniforms from 24 bits of a word or 53 bits of a 64-bit word times
 * 2^-24 or 2^-53 (plus = 1u: in (0, 1] for Box-Muller's log), and Box-Muller's radius. */
#define LC_PAIR(TO64, lo, hi) (TO64(lo) | TO64(hi) << 32)
#define LC_U24(TOF, w, plus) (TOF(((w) >> 8) + (plus)) * 5.9604644775390625e-8f)
#define LC_U53(TOF, b, plus) (TOF(((b) >> 11) + (plus)) * 1.1102230246251565404e-16)
#define LC_R32(u1) sqrt(-2.0f * log(u1))
#define LC_R64(u1) sqrt(-2.0 * log(u1))

/* Box-Muller's angle, cos(2 pi u2 - odd pi / 2) for the even (odd = 0) and odd (odd = 1) value
 * of a pair, without a library cosine: u2's top two bits are the quarter turn q, the rest the
 * fraction f of it, exactly. In quarter q' = (q - odd) & 3 the cosine is +-sin((pi / 2) x) with
 * x = f (q' odd) or 1 - f (q' even), negative for q' = 1, 2; x is made from f's integer bits,
 * so exact, and sin((pi / 2) x) on [0, 1] is a polynomial in x: for float32 one of degree 9
 * fitted to the least maximum relative error (5.3e-9 before its coefficients are rounded to
 * float: Lawson's reweighted least squares; the Taylor polynomial needs degree 13), for
 * float64 the Taylor polynomial to x^21 (the first term left out is under 1.3e-18), by FMA(a,
 * b, c) = a b + c rounded once (OpenCL's and C's fma: the same bits on every device and in C;
 * within 3 ulp of the sine; on the H100, with the Taylor polynomial, fma took 0.705 ms for
 * 2^28 float32 normals, a product and a sum 0.74). No integer is converted to a float (a GPU
 * converts at a quarter of its float rate): x is 1 + x's bits, less 1, and the sign is a bit.
 * NAME(w, odd) takes u2's word (32 bits, the fraction its bits 8..29) or 64-bit word (bits
 * 11..61), U its type, scalar or vector; ASF and ASU reinterpret U's bits as F's and back. */
#define LC_SIN_Q32(x, x2, FMA)                                                              \
    ((x) * FMA(x2, FMA(x2, FMA(x2, FMA(x2, 1.514859177e-04f, -4.673768301e-03f),            \
     7.968968153e-02f), -6.459637284e-01f), 1.570796371e+00f))
#define LC_SIN_Q64(x, x2, FMA)                                                              \
    ((x) * FMA(x2, FMA(x2, FMA(x2, FMA(x2, FMA(x2, FMA(x2, FMA(x2, FMA(x2, FMA(x2, FMA(x2,   \
     2.571422892860474e-16, -4.377065467313742e-14), 6.0669357311061955e-12),               \
     -6.688035109811468e-10), 5.692172921967927e-08), -3.598843235212085e-06),              \
     0.00016044118478735983), -0.004681754135318688), 0.07969262624616705),                 \
     -0.6459640975062463), 1.5707963267948966))
#define LC_RND_COS32_CODE(NAME, U, F, ASF, ASU, FMA)                                        \
    static inline F NAME(U w, U odd)                                                        \
    {                                                                                       \
        const U q_ = (((w) >> 30) - (odd)) & 3u, f_ = ((w) >> 8) & 0x3FFFFFu;               \
        const U xb_ = (f_ ^ (((q_ & 1u) - 1u) & 0x3FFFFFu)) + ((q_ & 1u) ^ 1u);             \
        const F x_ = ASF(0x3F800000u + (xb_ << 1)) - 1.0f, x2_ = x_ * x_;                   \
        return ASF(ASU(LC_SIN_Q32(x_, x2_, FMA)) ^ (((q_ + 1u) & 2u) << 30));               \
    }
#define LC_RND_COS64_CODE(NAME, U, F, ASF, ASU, FMA)                                        \
    static inline F NAME(U w, U odd)                                                        \
    {                                                                                       \
        const U m_ = ((U)1 << 51) - 1u;                                                     \
        const U q_ = (((w) >> 62) - (odd)) & 3u, f_ = ((w) >> 11) & m_;                     \
        const U xb_ = (f_ ^ (((q_ & 1u) - 1u) & m_)) + ((q_ & 1u) ^ 1u);                    \
        const F x_ = ASF(((U)0x3FF << 52) + (xb_ << 1)) - 1.0, x2_ = x_ * x_;               \
        return ASF(ASU(LC_SIN_Q64(x_, x2_, FMA)) ^ (((q_ + 1u) & 2u) << 62));               \
    }

/* Both values of a pair at once, as NAME(w, 0) and NAME(w, 1) above give them one at a time (the same x,
 * polynomial and sign, so the same bits), for paths that compute whole pairs (the quads):
 * (cos t, sin t) is (C, S), (-S, C), (-C, -S), (S, -C) in quarters 0..3, C = sin((pi / 2)(1 - f))
 * and S = sin((pi / 2) f), one reduction for two values. Scalars only. */
#define LC_RND_COS2_32_CODE(NAME, U, F, ASF, ASU, FMA)                                      \
    static inline void NAME(U w, F *even, F *odd)                                           \
    {                                                                                       \
        const U q_ = (w) >> 30;                                                             \
        const F s_ = ASF(0x3F800000u + (((w) >> 7) & 0x7FFFFEu)) - 1.0f, c_ = 1.0f - s_;    \
        const F ps_ = LC_SIN_Q32(s_, s_ * s_, FMA), pc_ = LC_SIN_Q32(c_, c_ * c_, FMA);     \
        *even = ASF(ASU((q_ & 1u) != 0u ? ps_ : pc_) ^ (((q_ + 1u) & 2u) << 30));           \
        *odd = ASF(ASU((q_ & 1u) != 0u ? pc_ : ps_) ^ ((q_ & 2u) << 30));                   \
    }
#define LC_RND_COS2_64_CODE(NAME, U, F, ASF, ASU, FMA)                                      \
    static inline void NAME(U w, F *even, F *odd)                                           \
    {                                                                                       \
        const U q_ = (w) >> 62;                                                             \
        const F s_ = ASF(((U)0x3FF << 52) + (((w) >> 10) & (((U)1 << 52) - 2u))) - 1.0;     \
        const F c_ = 1.0 - s_;                                                              \
        const F ps_ = LC_SIN_Q64(s_, s_ * s_, FMA), pc_ = LC_SIN_Q64(c_, c_ * c_, FMA);     \
        *even = ASF(ASU((q_ & 1u) != 0u ? ps_ : pc_) ^ (((q_ + 1u) & 2u) << 62));           \
        *odd = ASF(ASU((q_ & 1u) != 0u ? pc_ : ps_) ^ ((q_ & 2u) << 62));                   \
    }

/* Raw bits. */
#define LC_RND_BITS_CODE(SFX, U32, U64, KEY32, KEY64, TO32, TO64, MULHI)                           \
    static inline U32 lc_rnd_bits_u32##SFX(KEY64 key, U64 n)                                \
    {                                                                                       \
        LC_PHILOX(U32, KEY32, TO32, MULHI, (n) >> 2, key)                                   \
        return LC_W32(U32, TO32, n);                                                        \
    }                                                                                       \
    static inline U64 lc_rnd_bits_u64##SFX(KEY64 key, U64 n)                                \
    {                                                                                       \
        LC_PHILOX(U32, KEY32, TO32, MULHI, (n) >> 1, key)                                   \
        return LC_W64(U64, TO64, n);                                                        \
    }

/* float32: uniform = the top 24 bits of the value's word times 2^-24 (exact, in [0, 1)).
 * Normal = Box-Muller over the pair of words 0-1 (values 0, 1 of the block) or 2-3 (values
 * 2, 3): u1 = (24 bits of the first + 1) 2^-24 in (0, 1], u2 = 24 bits of the second times
 * 2^-24; the even value is r cos(t), the odd one r cos(t - pi/2) (= r sin t: one cosine per
 * value, the same formula on every path), t = 2 pi u2 (exact: LC_RND_COS32_CODE, whose
 * lc_rnd_cos_f32##SFX comes first), r = sqrt(-2 ln u1); |z| <= sqrt(-2 ln 2^-24) = 5.77. */
#define LC_RND_F32_CODE(SFX, U32, U64, KEY32, KEY64, TO32, TO64, MULHI, F32, TOF)                  \
    static inline F32 lc_rnd_uniform_f32##SFX(KEY64 key, U64 n)                             \
    {                                                                                       \
        LC_PHILOX(U32, KEY32, TO32, MULHI, (n) >> 2, key)                                   \
        return LC_U24(TOF, LC_W32(U32, TO32, n), 0u);                                       \
    }                                                                                       \
    static inline F32 lc_rnd_normal_f32##SFX(KEY64 key, U64 n)                              \
    {                                                                                       \
        LC_PHILOX(U32, KEY32, TO32, MULHI, (n) >> 2, key)                                   \
        const U32 hi_ = TO32(n) & 2u, odd_ = TO32(n) & 1u;                                 \
        F32 u1 = LC_U24(TOF, hi_ != 0u ? x2_ : x0_, 1u);                                    \
        return LC_R32(u1) * lc_rnd_cos_f32##SFX(hi_ != 0u ? x3_ : x1_, odd_);               \
    }

/* float64: uniform = the top 53 bits of the value's two words times 2^-53. Normal: u1 from
 * words 0-1 as (53 bits + 1) 2^-53, u2 from words 2-3; value 0 of the block is r cos(t), value
 * 1 r cos(t - pi/2), t = 2 pi u2 (exact: LC_RND_COS64_CODE's lc_rnd_cos_f64##SFX, first);
 * |z| <= 8.57. */
#define LC_RND_F64_CODE(SFX, U32, U64, KEY32, KEY64, TO32, TO64, MULHI, F64, TOF)                  \
    static inline F64 lc_rnd_uniform_f64##SFX(KEY64 key, U64 n)                             \
    {                                                                                       \
        LC_PHILOX(U32, KEY32, TO32, MULHI, (n) >> 1, key)                                   \
        return LC_U53(TOF, LC_W64(U64, TO64, n), 0u);                                       \
    }                                                                                       \
    static inline F64 lc_rnd_normal_f64##SFX(KEY64 key, U64 n)                              \
    {                                                                                       \
        LC_PHILOX(U32, KEY32, TO32, MULHI, (n) >> 1, key)                                   \
        F64 u1 = LC_U53(TOF, LC_PAIR(TO64, x0_, x1_), 1u);                                  \
        return LC_R64(u1) * lc_rnd_cos_f64##SFX(LC_PAIR(TO64, x2_, x3_), (n) & 1u);         \
    }

/* Four consecutive values n..n+3 from whole blocks (scalar types only): one block for 32-bit
 * values when n starts one (else value by value), two or three for 64-bit ones. The same
 * formulas as above, so the same bits. MK4(T, a, b, c, d) builds a 4-vector of type T (with
 * members x, y, z, w). */
/* Values n..n+3 one at a time (a quad that does not start a block): EACH4(V4, f, key, n), which
 * may be LC_RND_EACH4 (C) or a call to a helper with the loop kept rolled (OpenCL C,
 * codegen/random.c: four inlined copies of Philox made the H100's maps 7% slower). */
#define LC_RND_EACH4(MK4, V4, f, key, n)                                                    \
    MK4(V4, f(key, n), f(key, (n) + 1), f(key, (n) + 2), f(key, (n) + 3))
#define LC_RND_QUAD32_CODE(U32, U64, KEY32, KEY64, TO32, MULHI, F32, TOF32, V4U, V4F, MK4, EACH4) \
    static inline V4U lc_rnd_bits_u32_4(KEY64 key, U64 n)                                   \
    {                                                                                       \
        if ((n & 3u) != 0u)                                                                 \
            return EACH4(V4U, lc_rnd_bits_u32, key, n);                         \
        LC_PHILOX(U32, KEY32, TO32, MULHI, n >> 2, key)                                     \
        return MK4(V4U, x0_, x1_, x2_, x3_);                                                \
    }                                                                                       \
    static inline V4F lc_rnd_uniform_f32_4(KEY64 key, U64 n)                                \
    {                                                                                       \
        if ((n & 3u) != 0u)                                                                 \
            return EACH4(V4F, lc_rnd_uniform_f32, key, n);                      \
        LC_PHILOX(U32, KEY32, TO32, MULHI, n >> 2, key)                                     \
        return MK4(V4F, LC_U24(TOF32, x0_, 0u), LC_U24(TOF32, x1_, 0u),                    \
                   LC_U24(TOF32, x2_, 0u), LC_U24(TOF32, x3_, 0u));                         \
    }                                                                                       \
    static inline V4F lc_rnd_normal_f32_4(KEY64 key, U64 n)                                 \
    {                                                                                       \
        if ((n & 3u) != 0u)                                                                 \
            return EACH4(V4F, lc_rnd_normal_f32, key, n);                       \
        LC_PHILOX(U32, KEY32, TO32, MULHI, n >> 2, key)                                     \
        F32 r0 = LC_R32(LC_U24(TOF32, x0_, 1u)), r1 = LC_R32(LC_U24(TOF32, x2_, 1u));       \
        F32 c0, s0, c1, s1;                                                                 \
        lc_rnd_cos2_f32(x1_, &c0, &s0);                                                     \
        lc_rnd_cos2_f32(x3_, &c1, &s1);                                                     \
        return MK4(V4F, r0 * c0, r0 * s0, r1 * c1, r1 * s1);                                \
    }
#define LC_RND_QUAD64_CODE(U32, U64, KEY32, KEY64, TO32, TO64, MULHI, F64, TOF64, V4L, V4D, MK4, \
                           EACH4)                                                           \
    static inline V4L lc_rnd_bits_u64_4(KEY64 key, U64 n)                                   \
    {                                                                                       \
        U64 v_[4];                                                                          \
        for (int b_ = 0; b_ < 2; b_++) {                                                    \
            LC_PHILOX(U32, KEY32, TO32, MULHI, (n >> 1) + (U64)b_, key)                     \
            v_[2 * b_] = LC_PAIR(TO64, x0_, x1_);                                           \
            v_[2 * b_ + 1] = LC_PAIR(TO64, x2_, x3_);                                       \
        }                                                                                   \
        if ((n & 1u) != 0u) { /* values n..n+3 straddle three blocks */                     \
            LC_PHILOX(U32, KEY32, TO32, MULHI, (n >> 1) + 2, key)                           \
            return MK4(V4L, v_[1], v_[2], v_[3], LC_PAIR(TO64, x0_, x1_));                  \
        }                                                                                   \
        return MK4(V4L, v_[0], v_[1], v_[2], v_[3]);                                        \
    }                                                                                       \
    static inline V4D lc_rnd_uniform_f64_4(KEY64 key, U64 n)                                \
    {                                                                                       \
        const V4L b_ = lc_rnd_bits_u64_4(key, n);                                           \
        return MK4(V4D, LC_U53(TOF64, b_.x, 0u), LC_U53(TOF64, b_.y, 0u),                  \
                   LC_U53(TOF64, b_.z, 0u), LC_U53(TOF64, b_.w, 0u));                       \
    }                                                                                       \
    static inline V4D lc_rnd_normal_f64_4(KEY64 key, U64 n)                                 \
    {                                                                                       \
        if ((n & 1u) != 0u)                                                                 \
            return EACH4(V4D, lc_rnd_normal_f64, key, n);                       \
        F64 z_[4];                                                                          \
        for (int b_ = 0; b_ < 2; b_++) {                                                    \
            LC_PHILOX(U32, KEY32, TO32, MULHI, (n >> 1) + (U64)b_, key)                     \
            F64 r = LC_R64(LC_U53(TOF64, LC_PAIR(TO64, x0_, x1_), 1u));                     \
            F64 c_, s_;                                                                     \
            lc_rnd_cos2_f64(LC_PAIR(TO64, x2_, x3_), &c_, &s_);                             \
            z_[2 * b_] = r * c_;                                                            \
            z_[2 * b_ + 1] = r * s_;                                                        \
        }                                                                                   \
        return MK4(V4D, z_[0], z_[1], z_[2], z_[3]);                                        \
    }

/* Philox4x32-10 of consecutive blocks b, b + 1, ... at once, packed for SIMD (the 8-lane helpers
 * below; tests/c/test_random.c checks it with GCC's vectors against Random123). UL is a vector of
 * 64-bit lanes, two a block, whose low halves hold the blocks' even words in E_ (x0, x2 of
 * block b, x0, x2 of block b + 1, ...) and their odd words in O_ (x1, x3, ...). A round is one
 * 32 x 32 -> 64-bit product a lane, (M0 x0, M1 x2) a block: swapped within each pair of lanes,
 * its high halves xor O_ and the key are the new even words, its low halves the new odd ones
 * (Random123's round: x0, x1, x2, x3 <- hi(M1 x2) ^ x1 ^ k0, lo(M1 x2), hi(M0 x0) ^ x3 ^ k1,
 * lo(M0 x0)). No step reads the high halves of E_, O_ and K_ (the product masks them off, the
 * words are truncated out at the end), so none clears them. V2(a, b) is a UL of the pair (a, b)
 * repeated, SWAP(v) swaps the two lanes of each pair, BOFF holds each lane's block offset
 * (0, 0, 1, 1, 2, 2, ...). Declares E_ and O_. */
#define LC_PHILOX_PACKED_ROUND(SWAP)                                                        \
    q_ = SWAP((E_ & 0xFFFFFFFFu) * mul_);                                                   \
    E_ = (q_ >> 32) ^ O_ ^ K_;                                                              \
    O_ = q_;
#define LC_PHILOX_PACKED_ROUND_BUMP(SWAP) LC_PHILOX_PACKED_ROUND(SWAP) K_ += bump_;
#define LC_PHILOX_PACKED(UL, V2, SWAP, BOFF, b, key)                                        \
    const UL bv_ = (b) + (BOFF), lo_ = V2(0xFFFFFFFFu, 0u);                                 \
    const UL mul_ = V2(0xD2511F53u, 0xCD9E8D57u), bump_ = V2(0x9E3779B9u, 0xBB67AE85u);     \
    UL E_ = bv_ & lo_, O_ = (bv_ >> 32) & lo_, K_ = V2((key) & 0xFFFFFFFFu, (key) >> 32), q_; \
    LC_PHILOX_PACKED_ROUND_BUMP(SWAP) LC_PHILOX_PACKED_ROUND_BUMP(SWAP)                     \
    LC_PHILOX_PACKED_ROUND_BUMP(SWAP) LC_PHILOX_PACKED_ROUND_BUMP(SWAP)                     \
    LC_PHILOX_PACKED_ROUND_BUMP(SWAP) LC_PHILOX_PACKED_ROUND_BUMP(SWAP)                     \
    LC_PHILOX_PACKED_ROUND_BUMP(SWAP) LC_PHILOX_PACKED_ROUND_BUMP(SWAP)                     \
    LC_PHILOX_PACKED_ROUND_BUMP(SWAP) LC_PHILOX_PACKED_ROUND(SWAP)

/* Eight consecutive values n..n+7 (OpenCL C only: PoCL's 8-lane SIMD loops), from their distinct
 * blocks only: for 32-bit values two blocks when n starts one, else three (of four computed);
 * for 64-bit values four when n is even, else five (of six). The blocks come two at a time from
 * lc_rnd_philox2 (LC_PHILOX_PACKED in a ulong4, 256 bits: four blocks in one ulong8 made
 * float32 normals from a shifted start slower on PoCL's AVX-512 target, 192 vs 138 ms for 2^24
 * on 2 busy cores, where a start at a block took 114), the even words (x0, x2 of each block) in
 * its low half, the odd ones in its high half. The words go to their lanes by
 * swizzles, one set per alignment of n (a branch on n, which all eight lanes share), and each
 * lane then takes the scalar formulas above on its words (the uniform's scaling; a normal's
 * r = LC_R32(u1) and its angle's LC_RND_COS32_CODE, eight lanes wide), so
 * the lanes keep their bits. PK2(b, key) declares E_, O_ of blocks b, b + 1 in ulong4s. */
#define LC_RND_PHILOX2_CODE(PK2)                                                            \
    static inline uint8 lc_rnd_philox2(ulong key, ulong b)                                  \
    {                                                                                       \
        PK2(b, key)                                                                         \
        return (uint8)(convert_uint4(E_), convert_uint4(O_));                               \
    }
/* e_, o_: the even and odd words of blocks n >> 2.. (uint4 when n starts a block, else uint8). */
#define LC_RND_LANES8_W32(n, key, ALIGNED, SHIFTED)                                         \
    if (((n) & 3u) == 0u) {                                                                 \
        const uint8 p_ = lc_rnd_philox2(key, (n) >> 2);                                     \
        const uint4 e_ = p_.lo, o_ = p_.hi;                                                 \
        ALIGNED                                                                             \
    } else {                                                                                \
        const uint8 p_ = lc_rnd_philox2(key, (n) >> 2), q_ = lc_rnd_philox2(key, ((n) >> 2) + 2); \
        const uint8 e_ = (uint8)(p_.lo, q_.lo), o_ = (uint8)(p_.hi, q_.hi);                 \
        const uint m_ = (uint)(n) & 3u;                                                     \
        SHIFTED                                                                             \
    }
#define LC_RND_LANES8_F32_CODE                                                              \
    static inline float8 lc_rnd_uniform_f32_8(ulong key, ulong n)                           \
    {                                                                                       \
        uint8 w_;                                                                           \
        LC_RND_LANES8_W32(n, key, w_ = (uint8)(e_, o_).s04152637;,                          \
            const uint16 z_ = (uint16)(e_, o_).s08192a3b4c5d6e7f;                           \
            w_ = m_ == 1u ? z_.s12345678 : m_ == 2u ? z_.s23456789 : z_.s3456789a;)          \
        return LC_U24(convert_float8, w_, 0u);                                              \
    }                                                                                       \
    static inline float8 lc_rnd_normal_f32_8(ulong key, ulong n)                            \
    {                                                                                       \
        /* Lane j: value n + j, the pair of words of its half-block, and whether it is odd. */  \
        uint8 w1_, w2_, odd_;                                                               \
        LC_RND_LANES8_W32(n, key,                                                           \
            w1_ = e_.s00112233; w2_ = o_.s00112233; odd_ = (uint8)(0, 1, 0, 1, 0, 1, 0, 1);, \
            if (m_ == 1u) {                                                                 \
                w1_ = e_.s01122334; w2_ = o_.s01122334;                                     \
            } else if (m_ == 2u) {                                                          \
                w1_ = e_.s11223344; w2_ = o_.s11223344;                                     \
            } else {                                                                        \
                w1_ = e_.s12233445; w2_ = o_.s12233445;                                     \
            }                                                                               \
            odd_ = (m_ & 1u) != 0u ? (uint8)(1, 0, 1, 0, 1, 0, 1, 0)                        \
                                   : (uint8)(0, 1, 0, 1, 0, 1, 0, 1);)                      \
        const float8 u1_ = LC_U24(convert_float8, w1_, 1u);                                 \
        return LC_R32(u1_) * lc_rnd_cos_f32_8(w2_, odd_);                                   \
    }
/* Sixteen consecutive float32 values n..n+15 (PoCL's loops where the device prefers 16-float
 * vectors: AVX-512), from the four blocks from n >> 2 (one lc_rnd_philox4, LC_PHILOX_PACKED in a
 * ulong8: a 64-bit product a lane, 512 bits) and, from a shifted start, the two after them (an
 * lc_rnd_philox2). e_, o_ hold the pairs' even and odd words (pair i: words 0-1 or 2-3 of block
 * i / 2), lane v_ = (n & 3) + j the value of lane j counted from block n >> 2, its pair v_ / 2
 * and its word (even or odd) v_ & 1: one shuffle gathers every lane's words, whatever the
 * alignment, and each lane then takes the scalar formulas, sixteen wide. */
#define LC_RND_PHILOX4_CODE(PK4)                                                            \
    static inline uint16 lc_rnd_philox4(ulong key, ulong b)                                 \
    {                                                                                       \
        PK4(b, key)                                                                         \
        return (uint16)(convert_uint8(E_), convert_uint8(O_));                              \
    }
#define LC_RND_LANES16_W32(n, key)                                                          \
    const uint16 p_ = lc_rnd_philox4(key, (n) >> 2);                                       \
    uint8 q_ = (uint8)(0);                                                                  \
    if (((n) & 3u) != 0u)                                                                   \
        q_ = lc_rnd_philox2(key, ((n) >> 2) + 4);                                           \
    const uint16 e_ = (uint16)(p_.lo, q_.lo, q_.lo), o_ = (uint16)(p_.hi, q_.hi, q_.hi);    \
    const uint16 v_ = (uint16)((uint)((n) & 3u)) +                                          \
                      (uint16)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);        \
    const uint16 i_ = v_ >> 1;
#define LC_RND_LANES16_F32_CODE                                                             \
    static inline float16 lc_rnd_uniform_f32_16(ulong key, ulong n)                         \
    {                                                                                       \
        LC_RND_LANES16_W32(n, key)                                                          \
        const uint16 w_ = select(shuffle(e_, i_), shuffle(o_, i_), (v_ & 1u) != 0u);        \
        return LC_U24(convert_float16, w_, 0u);                                             \
    }                                                                                       \
    static inline float16 lc_rnd_normal_f32_16(ulong key, ulong n)                          \
    {                                                                                       \
        LC_RND_LANES16_W32(n, key)                                                          \
        const float16 u1_ = LC_U24(convert_float16, shuffle(e_, i_), 1u);                   \
        return LC_R32(u1_) * lc_rnd_cos_f32_16(shuffle(o_, i_), v_ & 1u);                   \
    }
/* 64-bit values: value 2b + j is words 0-1 (j even) or 2-3 of block b + j / 2, that is the
 * even word j of the blocks from b as its low half and odd word j as its high half. e_, o_
 * hold the words of blocks n >> 1..: four blocks when n is even, six else (uint16, the last
 * four lanes unused); LC_W64V(e, o) makes the 64-bit values of eight of them. */
#define LC_W64V(e, o) (convert_ulong8(e) | convert_ulong8(o) << 32)
#define LC_RND_LANES8_W64(n, key, ALIGNED, SHIFTED)                                         \
    const ulong b_ = (n) >> 1;                                                              \
    const uint8 p_ = lc_rnd_philox2(key, b_), q_ = lc_rnd_philox2(key, b_ + 2);             \
    if (((n) & 1u) == 0u) {                                                                 \
        const uint8 e_ = (uint8)(p_.lo, q_.lo), o_ = (uint8)(p_.hi, q_.hi);                 \
        ALIGNED                                                                             \
    } else {                                                                                \
        const uint8 r_ = lc_rnd_philox2(key, b_ + 4);                                       \
        const uint16 e_ = (uint16)(p_.lo, q_.lo, r_.lo, r_.lo);                             \
        const uint16 o_ = (uint16)(p_.hi, q_.hi, r_.hi, r_.hi);                             \
        SHIFTED                                                                             \
    }
#define LC_RND_LANES8_F64_CODE                                                              \
    static inline double8 lc_rnd_uniform_f64_8(ulong key, ulong n)                          \
    {                                                                                       \
        ulong8 v_;                                                                          \
        LC_RND_LANES8_W64(n, key, v_ = LC_W64V(e_, o_);,                                    \
                          v_ = LC_W64V(e_.s12345678, o_.s12345678);)                        \
        return LC_U53(convert_double8, v_, 0u);                                             \
    }                                                                                       \
    static inline double8 lc_rnd_normal_f64_8(ulong key, ulong n)                           \
    {                                                                                       \
        /* Lane j: value n + j, words 0-1 (u1) and 2-3 (u2) of its block, and its parity. */   \
        ulong8 v1_, v2_, odd_;                                                              \
        LC_RND_LANES8_W64(n, key,                                                           \
            v1_ = LC_W64V(e_.s00224466, o_.s00224466);                                      \
            v2_ = LC_W64V(e_.s11335577, o_.s11335577);                                      \
            odd_ = (ulong8)(0, 1, 0, 1, 0, 1, 0, 1);,                                       \
            v1_ = LC_W64V(e_.s02244668, o_.s02244668);                                      \
            v2_ = LC_W64V(e_.s13355779, o_.s13355779);                                      \
            odd_ = (ulong8)(1, 0, 1, 0, 1, 0, 1, 0);)                                       \
        const double8 u1_ = LC_U53(convert_double8, v1_, 1u);                               \
        return LC_R64(u1_) * lc_rnd_cos_f64_8(v2_, odd_);                                   \
    }

#endif
