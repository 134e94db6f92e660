/* test_random.c: lazycl's Philox4x32-10 and its conversions (codegen/philox.h,
 * expanded here as C) against Random123's known-answer vectors and, where
 * Debian's librandom123-dev is installed (scripts/deps.sh), against its
 * reference philox.h bit for bit. No device: the kernels expand the same
 * macros as OpenCL C. */
#include "lc_test.h"

#include "codegen/philox.h"

#include <stdint.h>
#include <tgmath.h>

#ifdef LC_HAVE_RANDOM123
#include <Random123/philox.h>
#endif

#define LC_C_MULHI(a, b) ((uint32_t)(((uint64_t)(a) * (uint64_t)(b)) >> 32))
#define LC_U32(x) ((uint32_t)(x))
#define LC_U64(x) ((uint64_t)(x))
#define LC_F32(x) ((float)(x))
#define LC_F64(x) ((double)(x))

LC_RND_BITS_CODE(, uint32_t, uint64_t, uint32_t, uint64_t, LC_U32, LC_U64, LC_C_MULHI)
LC_RND_F32_CODE(, uint32_t, uint64_t, uint32_t, uint64_t, LC_U32, LC_U64, LC_C_MULHI, float, LC_F32)
LC_RND_F64_CODE(, uint32_t, uint64_t, uint32_t, uint64_t, LC_U32, LC_U64, LC_C_MULHI, double, LC_F64)

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
    uint64_t s = 42;
    int bad_bits = 0, bad_u = 0, bad_n = 0, range = 0;
    for (int t = 0; t < 20000; t++) {
        uint64_t key = splitmix(&s), c = t < 10 ? (uint64_t)t : splitmix(&s);
        if (t == 10)
            c = 0xffffffffull;           /* the carry into word 1 */
        uint32_t w[4];
        words(key, c, w);
        uint32_t c4[4] = {(uint32_t)c, (uint32_t)(c >> 32), 0, 0};
        uint32_t k2[2] = {(uint32_t)key, (uint32_t)(key >> 32)}, mine[4];
        philox4(c4, k2, mine);
        bad_bits += mine[0] != w[0] || mine[1] != w[1] || mine[2] != w[2] || mine[3] != w[3];
        bad_bits += lc_rnd_bits_u32(key, c) != w[0];
        bad_bits += lc_rnd_bits_u64(key, c) != ((uint64_t)w[1] << 32 | w[0]);
        /* Uniforms: exact scalings of the top bits. */
        float uf = lc_rnd_uniform_f32(key, c);
        double ud = lc_rnd_uniform_f64(key, c);
        bad_u += uf != (float)(w[0] >> 8) / 16777216.0f;
        bad_u += ud != (double)(((uint64_t)w[1] << 32 | w[0]) >> 11) / 9007199254740992.0;
        range += !(uf >= 0.0f && uf < 1.0f) + !(ud >= 0.0 && ud < 1.0);
        /* Normals: Box-Muller's cosine branch over the documented words. */
        double u1 = (double)((((uint64_t)w[1] << 32 | w[0]) >> 11) + 1) / 9007199254740992.0;
        double u2 = (double)(((uint64_t)w[3] << 32 | w[2]) >> 11) / 9007199254740992.0;
        double z = sqrt(-2.0 * log(u1)) * cos(6.28318530717958647692 * u2);
        bad_n += lc_rnd_normal_f64(key, c) != z;
        float f1 = (float)((w[0] >> 8) + 1) / 16777216.0f, f2 = (float)(w[1] >> 8) / 16777216.0f;
        float zf = sqrt(-2.0f * log(f1)) * cos(6.28318530717958648f * f2);
        bad_n += lc_rnd_normal_f32(key, c) != zf;
        range += !(fabs(lc_rnd_normal_f32(key, c)) <= 5.77f);
    }
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
