/* test_random.c: lazycl's Philox4x32-10 and its conversions (codegen/philox.h,
 * expanded here as C) against Random123's known-answer vectors and, where
 * Debian's librandom123-dev is installed (scripts/deps.sh), against its
 * reference philox.h bit for bit. No device: the kernels expand the same
 * macros as OpenCL C. */
#include "lc_test.h"

#include "codegen/philox.h"

#include <float.h>
#include <stdint.h>
#include <string.h>
#include <tgmath.h>

#ifdef LC_HAVE_RANDOM123
#include <Random123/philox.h>
#endif

#define LC_C_MULHI(a, b) ((uint32_t)(((uint64_t)(a) * (uint64_t)(b)) >> 32))
#define LC_U32(x) ((uint32_t)(x))
#define LC_U64(x) ((uint64_t)(x))
#define LC_F32(x) ((float)(x))
#define LC_F64(x) ((double)(x))

/* Bit reinterpretations (OpenCL's as_float, as_uint, as_double, as_ulong). */
#define BITCAST(NAME, TO, FROM)                                                             \
    static inline TO NAME(FROM v)                                                           \
    {                                                                                       \
        TO r;                                                                               \
        memcpy(&r, &v, sizeof r);                                                           \
        return r;                                                                           \
    }
BITCAST(asf, float, uint32_t)
BITCAST(asu, uint32_t, float)
BITCAST(asd, double, uint64_t)
BITCAST(asul, uint64_t, double)
#define LC_C_FMA(a, b, c) fma(a, b, c)
LC_RND_COS32_CODE(lc_rnd_cos_f32, uint32_t, float, asf, asu, LC_C_FMA)
LC_RND_COS64_CODE(lc_rnd_cos_f64, uint64_t, double, asd, asul, LC_C_FMA)
LC_RND_COS2_32_CODE(lc_rnd_cos2_f32, uint32_t, float, asf, asu, LC_C_FMA)
LC_RND_COS2_64_CODE(lc_rnd_cos2_f64, uint64_t, double, asd, asul, LC_C_FMA)
LC_RND_BITS_CODE(, uint32_t, uint64_t, uint32_t, uint64_t, LC_U32, LC_U64, LC_C_MULHI)
LC_RND_F32_CODE(, uint32_t, uint64_t, uint32_t, uint64_t, LC_U32, LC_U64, LC_C_MULHI, float, LC_F32)
LC_RND_F64_CODE(, uint32_t, uint64_t, uint32_t, uint64_t, LC_U32, LC_U64, LC_C_MULHI, double, LC_F64)

/* The quads, with plain structs for OpenCL's 4-vectors. */
typedef struct { uint32_t x, y, z, w; } u32x4;
typedef struct { float x, y, z, w; } f32x4;
typedef struct { uint64_t x, y, z, w; } u64x4;
typedef struct { double x, y, z, w; } f64x4;
#define LC_C_MK4(T, a, b, c, d) ((T){a, b, c, d})
#define LC_C_EACH4(V4, f, key, n) LC_RND_EACH4(LC_C_MK4, V4, f, key, n)
LC_RND_QUAD32_CODE(uint32_t, uint64_t, uint32_t, uint64_t, LC_U32, LC_C_MULHI, float, LC_F32, u32x4,
                   f32x4, LC_C_MK4, LC_C_EACH4)
LC_RND_QUAD64_CODE(uint32_t, uint64_t, uint32_t, uint64_t, LC_U32, LC_U64, LC_C_MULHI, double, LC_F64,
                   u64x4, f64x4, LC_C_MK4, LC_C_EACH4)

/* The packed Philox (LC_PHILOX_PACKED; the 8-lane helpers take two blocks at a time), here in
 * GCC's (and clang's) vectors of 2, 4 and 8 blocks, two 64-bit lanes a block. */
typedef uint64_t u64v4 __attribute__((vector_size(32)));
typedef uint64_t u64v8 __attribute__((vector_size(64)));
typedef uint64_t u64v16 __attribute__((vector_size(128)));
#define V2_4(a, b) ((u64v4){(a), (b), (a), (b)})
#define V2_8(a, b) ((u64v8){(a), (b), (a), (b), (a), (b), (a), (b)})
#define V2_16(a, b) ((u64v16){(a), (b), (a), (b), (a), (b), (a), (b), (a), (b), (a), (b), (a), (b), \
                              (a), (b)})
#define SWAP_4(v) __builtin_shufflevector((v), (v), 1, 0, 3, 2)
#define SWAP_8(v) __builtin_shufflevector((v), (v), 1, 0, 3, 2, 5, 4, 7, 6)
#define SWAP_16(v) __builtin_shufflevector((v), (v), 1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, \
                                           15, 14)
#define PACKED_WORDS(UL, V2, SWAP, BOFF, NB)                                                \
    static void packed##NB(uint64_t key, uint64_t b, uint32_t w[NB][4])                    \
    {                                                                                       \
        LC_PHILOX_PACKED(UL, V2, SWAP, BOFF, b, key)                                        \
        for (int i = 0; i < NB; i++) {                                                      \
            w[i][0] = (uint32_t)E_[2 * i];                                                  \
            w[i][1] = (uint32_t)O_[2 * i];                                                  \
            w[i][2] = (uint32_t)E_[2 * i + 1];                                              \
            w[i][3] = (uint32_t)O_[2 * i + 1];                                              \
        }                                                                                   \
    }
PACKED_WORDS(u64v4, V2_4, SWAP_4, ((u64v4){0, 0, 1, 1}), 2)
PACKED_WORDS(u64v8, V2_8, SWAP_8, ((u64v8){0, 0, 1, 1, 2, 2, 3, 3}), 4)
PACKED_WORDS(u64v16, V2_16, SWAP_16, ((u64v16){0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7}), 8)

#define SAME4(q, f, key, n) ((q).x == f(key, n) && (q).y == f(key, (n) + 1) &&                     \
                             (q).z == f(key, (n) + 2) && (q).w == f(key, (n) + 3))

static void philox4(const uint32_t c[4], const uint32_t k[2], uint32_t out[4])
{
    LC_PHILOX4(uint32_t, uint32_t, LC_C_MULHI, c[0], c[1], c[2], c[3], k[0], k[1])
    out[0] = x0_;
    out[1] = x1_;
    out[2] = x2_;
    out[3] = x3_;
}

/* Random123's kat_vectors, philox4x32 with 10 rounds: counter, key, result. */
static const uint32_t kat[3][10] = {
    {0, 0, 0, 0, 0, 0, 0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8},
    {0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff,
     0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd},
    {0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344, 0xa4093822, 0x299f31d0,
     0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1},
};

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* The four words lazycl draws for (key, counter c): from Random123 where present. */
static void words(uint64_t key, uint64_t c, uint32_t w[4])
{
#ifdef LC_HAVE_RANDOM123
    philox4x32_ctr_t ctr = {{(uint32_t)c, (uint32_t)(c >> 32), 0, 0}};
    philox4x32_key_t k = {{(uint32_t)key, (uint32_t)(key >> 32)}};
    philox4x32_ctr_t r = philox4x32_R(10, ctr, k);
    for (int i = 0; i < 4; i++)
        w[i] = r.v[i];
#else
    const uint32_t cc[4] = {(uint32_t)c, (uint32_t)(c >> 32), 0, 0};
    const uint32_t kk[2] = {(uint32_t)key, (uint32_t)(key >> 32)};
    philox4(cc, kk, w);
#endif
}

/* Whether c, Box-Muller's cosine cos(2 pi u2 - odd pi / 2) = cos((pi / 2) y) with y = 4 u2 -
 * odd (mod 4), is more than 3 units in the last place (eps at 1) from the long double sine of
 * the exact distance to the nearest zero: cos((pi / 2) y) = sin((pi / 2)(1 - y)) for y <= 2,
 * -sin((pi / 2)(3 - y)) above (no rounded multiple of pi near a zero). */
static int cos_far(long double c, long double u2, int odd, long double eps)
{
    const long double pi = 3.14159265358979323846264338327950288L;
    long double y = fmodl(4 * u2 - odd + 4, 4);
    long double want = y <= 2 ? sinl(pi / 2 * (1 - y)) : -sinl(pi / 2 * (3 - y));
    int e = 0;
    frexpl(want, &e);
    return fabsl(c - want) > 3 * ldexpl(eps, e - 1);
}

/* Whether long double carries more bits than double here (valgrind runs x87 code in double
 * precision: then the float64 cosine has no reference precise enough to check it against). */
static int extended_precision(void)
{
    volatile long double one = 1.0L, tiny = 0x1p-60L;
    return one + tiny != one;
}

int main(void)
{
    for (int v = 0; v < 3; v++) {
        uint32_t out[4];
        philox4(kat[v], kat[v] + 4, out);
        for (int i = 0; i < 4; i++)
            CHECK(out[i] == kat[v][6 + i]);
    }
#ifdef LC_HAVE_RANDOM123
    printf("checking against Random123's philox.h\n");
#else
    printf("note: Random123's philox.h not found; known-answer vectors only\n");
#endif
    const int ext = extended_precision();
    if (!ext)
        printf("note: long double is no wider than double here: float64 cosines unchecked\n");
    uint64_t s = 42;
    int bad_bits = 0, bad_u = 0, bad_n = 0, range = 0, bad_q = 0, bad_p = 0;
    for (int t = 0; t < 20000; t++) {
        uint64_t key = splitmix(&s), c = t < 10 ? (uint64_t)t : splitmix(&s);
        if (t == 10)
            c = 0xffffffffull;           /* the carry into word 1 (c + 1 in the packed) */
        c &= 0x3fffffffffffffffull;      /* value numbers 4c + j stay below 2^64 */
        uint32_t w[4];
        words(key, c, w);
        uint32_t c4[4] = {(uint32_t)c, (uint32_t)(c >> 32), 0, 0};
        uint32_t k2[2] = {(uint32_t)key, (uint32_t)(key >> 32)}, mine[4];
        philox4(c4, k2, mine);
        bad_bits += mine[0] != w[0] || mine[1] != w[1] || mine[2] != w[2] || mine[3] != w[3];
        /* Block c holds 32-bit values 4c..4c+3 (value n: word n & 3) and 64-bit values
         * 2c, 2c+1 (words 0-1, 2-3). */
        uint64_t lo = (uint64_t)w[1] << 32 | w[0], hi = (uint64_t)w[3] << 32 | w[2];
        for (int j = 0; j < 4; j++) {
            uint64_t n = 4 * c + (uint64_t)j;
            bad_bits += lc_rnd_bits_u32(key, n) != w[j];
            /* Uniforms: exact scalings of the top bits. */
            float uf = lc_rnd_uniform_f32(key, n);
            bad_u += uf != (float)(w[j] >> 8) / 16777216.0f;
            range += !(uf >= 0.0f && uf < 1.0f);
            /* Normals: Box-Muller over words 0-1 (values 0, 1) or 2-3: r cos t, r cos(t - pi/2),
             * the cosine's polynomial checked against long double below. */
            int p = j & 2;
            float f1 = (float)((w[p] >> 8) + 1) / 16777216.0f;
            float zf = sqrt(-2.0f * log(f1)) * lc_rnd_cos_f32(w[p + 1], (uint32_t)(j & 1));
            bad_n += lc_rnd_normal_f32(key, n) != zf;
            range += !(fabs(lc_rnd_normal_f32(key, n)) <= 5.77f);
        }
        for (int j = 0; j < 2; j++) {
            uint64_t n = 2 * c + (uint64_t)j, b = j ? hi : lo;
            bad_bits += lc_rnd_bits_u64(key, n) != b;
            double ud = lc_rnd_uniform_f64(key, n);
            bad_u += ud != (double)(b >> 11) / 9007199254740992.0;
            range += !(ud >= 0.0 && ud < 1.0);
            double u1 = (double)((lo >> 11) + 1) / 9007199254740992.0;
            bad_n += lc_rnd_normal_f64(key, n) !=
                     sqrt(-2.0 * log(u1)) * lc_rnd_cos_f64(hi, (uint64_t)j);
        }
        /* Packed: blocks c.. two, four and eight at once. */
        uint32_t p2[2][4], p4[4][4], p8[8][4], wi[4];
        packed2(key, c, p2);
        packed4(key, c, p4);
        packed8(key, c, p8);
        for (int i = 0; i < 8; i++) {
            words(key, c + (uint64_t)i, wi);
            for (int j = 0; j < 4; j++)
                bad_p += p8[i][j] != wi[j] || (i < 4 && p4[i][j] != wi[j]) ||
                         (i < 2 && p2[i][j] != wi[j]);
        }
        /* Quads: the same values as one at a time, at every alignment. */
        for (uint64_t n = 4 * c; n < 4 * c + 4; n++) {
            bad_q += !SAME4(lc_rnd_bits_u32_4(key, n), lc_rnd_bits_u32, key, n);
            bad_q += !SAME4(lc_rnd_uniform_f32_4(key, n), lc_rnd_uniform_f32, key, n);
            bad_q += !SAME4(lc_rnd_normal_f32_4(key, n), lc_rnd_normal_f32, key, n);
            bad_q += !SAME4(lc_rnd_bits_u64_4(key, n), lc_rnd_bits_u64, key, n);
            bad_q += !SAME4(lc_rnd_uniform_f64_4(key, n), lc_rnd_uniform_f64, key, n);
            bad_q += !SAME4(lc_rnd_normal_f64_4(key, n), lc_rnd_normal_f64, key, n);
        }
    }
    /* The cosine over every quarter turn and fraction boundary, and a stride through all
     * 2^24 float32 angles (the 64-bit words: their top 53 bits likewise; a longer stride
     * without extended precision, valgrind's slow emulation). */
    int bad_c = 0;
    const uint32_t stride = ext ? 61 : 1021;
    for (uint32_t u = 0; u < (1u << 24);
         u += (u & 0x3FFFFFu) < 4 || (u & 0x3FFFFFu) > 0x3FFFFBu ? 1 : stride)
        for (uint32_t odd = 0; odd < 2; odd++) {
            bad_c += cos_far(lc_rnd_cos_f32(u << 8 | 0xA5, odd), (long double)u / 16777216.0L,
                             (int)odd, FLT_EPSILON);
            uint64_t b = (uint64_t)u << 40 | 0x123456789ull << 3;
            if (ext)
                bad_c += cos_far(lc_rnd_cos_f64(b, odd),
                                 (long double)(b >> 11) / 9007199254740992.0L, (int)odd,
                                 DBL_EPSILON);
            /* a pair at once: both values' bits */
            float e32, o32;
            double e64, o64;
            lc_rnd_cos2_f32(u << 8 | 0xA5, &e32, &o32);
            lc_rnd_cos2_f64(b, &e64, &o64);
            bad_c += asu(odd ? o32 : e32) != asu(lc_rnd_cos_f32(u << 8 | 0xA5, odd));
            bad_c += asul(odd ? o64 : e64) != asul(lc_rnd_cos_f64(b, odd));
        }
    CHECK(bad_c == 0);
    CHECK(bad_q == 0);
    CHECK(bad_p == 0);
    CHECK(bad_bits == 0);
    CHECK(bad_u == 0);
    CHECK(bad_n == 0);
    CHECK(range == 0);
    /* The extremes of the conversions: all-zero and all-one words. */
    CHECK(((float)(0u >> 8) / 16777216.0f) == 0.0f);
    CHECK(((float)(0xffffffffu >> 8) / 16777216.0f) < 1.0f);
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
