/* philox.h: Philox4x32-10 (Salmon et al., SC11) and the values lazycl draws
 * from it, written once, as macros that expand both to C (tests/c/
 * test_random.c checks them against Random123's philox.h and its
 * known-answer vectors) and to OpenCL C, scalar or W lanes wide
 * (codegen/random.c stringifies them into the kernels that use them).
 *
 * Parameters: SFX is pasted onto the function names ("" or "_8"); U32/U64
 * are the counter's types (uint32_t/uint64_t in C; uint/ulong or uint8/ulong8
 * in OpenCL C); TO32/TO64/TOF convert to U32, U64 and the float type (a cast
 * in C and scalar OpenCL C, convert_uint8 and friends for vectors); MULHI is
 * the high half of a 32 x 32-bit product (OpenCL's mul_hi). The key
 * is a scalar 64-bit word in every variant. log, sqrt and cos are type-
 * generic in OpenCL C (and through <tgmath.h> in the test).
 *
 * Element k of a random source with key K and offset c0 is a function of
 * (K, c0 + k) only: the counter is the 64-bit c0 + k in words 0 (low) and 1,
 * words 2 and 3 are 0; the key's low half is key word 0.
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

/* lazycl's counter: the 64-bit c in words 0 (low) and 1; the 64-bit key. */
#define LC_PHILOX(U32, KEY32, TO32, MULHI, c, key)                                          \
    LC_PHILOX4(U32, KEY32, MULHI, TO32(c), TO32((c) >> 32), 0, 0, (KEY32)(key),             \
               (KEY32)((key) >> 32))

/* Raw bits: word 0, or words 0 (low) and 1. */
#define LC_RND_BITS_CODE(SFX, U32, U64, KEY32, KEY64, TO32, TO64, MULHI)                           \
    static inline U32 lc_rnd_bits_u32##SFX(KEY64 key, U64 c)                                \
    {                                                                                       \
        LC_PHILOX(U32, KEY32, TO32, MULHI, c, key)                                           \
        return x0_;                                                                         \
    }                                                                                       \
    static inline U64 lc_rnd_bits_u64##SFX(KEY64 key, U64 c)                                \
    {                                                                                       \
        LC_PHILOX(U32, KEY32, TO32, MULHI, c, key)                                           \
        return TO64(x0_) | TO64(x1_) << 32;                                                 \
    }

/* float32: uniform = the top 24 bits of word 0 times 2^-24 (exact, in [0, 1)).
 * Normal = Box-Muller's cosine branch: u1 = (24 bits of word 0 + 1) 2^-24 in
 * (0, 1], u2 = 24 bits of word 1 times 2^-24; |z| <= sqrt(-2 ln 2^-24) = 5.77. */
#define LC_RND_F32_CODE(SFX, U32, U64, KEY32, KEY64, TO32, TO64, MULHI, F32, TOF)                  \
    static inline F32 lc_rnd_uniform_f32##SFX(KEY64 key, U64 c)                             \
    {                                                                                       \
        LC_PHILOX(U32, KEY32, TO32, MULHI, c, key)                                           \
        return TOF(x0_ >> 8) * 5.9604644775390625e-8f;                                      \
    }                                                                                       \
    static inline F32 lc_rnd_normal_f32##SFX(KEY64 key, U64 c)                              \
    {                                                                                       \
        LC_PHILOX(U32, KEY32, TO32, MULHI, c, key)                                           \
        F32 u1 = TOF((x0_ >> 8) + 1u) * 5.9604644775390625e-8f;                             \
        F32 u2 = TOF(x1_ >> 8) * 5.9604644775390625e-8f;                                    \
        return sqrt(-2.0f * log(u1)) * cos(6.28318530717958648f * u2);                      \
    }

/* float64: uniform = the top 53 bits of words 0-1 times 2^-53. Normal: u1
 * from words 0-1 as (53 bits + 1) 2^-53, u2 from words 2-3; |z| <= 8.57. */
#define LC_RND_F64_CODE(SFX, U32, U64, KEY32, KEY64, TO32, TO64, MULHI, F64, TOF)                  \
    static inline F64 lc_rnd_uniform_f64##SFX(KEY64 key, U64 c)                             \
    {                                                                                       \
        LC_PHILOX(U32, KEY32, TO32, MULHI, c, key)                                           \
        return TOF((TO64(x0_) | TO64(x1_) << 32) >> 11) * 1.1102230246251565404e-16;        \
    }                                                                                       \
    static inline F64 lc_rnd_normal_f64##SFX(KEY64 key, U64 c)                              \
    {                                                                                       \
        LC_PHILOX(U32, KEY32, TO32, MULHI, c, key)                                           \
        F64 u1 = TOF(((TO64(x0_) | TO64(x1_) << 32) >> 11) + 1u) * 1.1102230246251565404e-16; \
        F64 u2 = TOF((TO64(x2_) | TO64(x3_) << 32) >> 11) * 1.1102230246251565404e-16;      \
        return sqrt(-2.0 * log(u1)) * cos(6.28318530717958647692 * u2);                     \
    }

#endif
