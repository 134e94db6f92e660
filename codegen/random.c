/* random.c: random sources in kernels: the Philox helpers a kernel needs and
 * the expression of one element (or of W lanes).
 *
 * A RANDOM leaf is computed where it is read, like an arange: element k of
 * the source is lc_rnd_<dist>_<dtype>(key, offset + k), a pure function
 * (codegen/philox.h), so any view, gather or fusion of it reads the same
 * values, and nothing is stored unless the user materializes it. The key
 * and the offset are kernel arguments bound from the leaf at each launch:
 * every seed and every draw reuses one compiled kernel. The 8-lane helpers
 * (PoCL's SIMD loops) take the run of values n..n+7 and compute only the
 * Philox blocks it spans (for float32 two, or four from a shifted start,
 * where eight lanes took eight), two blocks packed in a vector, then each
 * lane takes the scalar's formulas on its words: integer steps are exact,
 * and the float math is the scalar's, vectorized.
 */
#include "codegen/cg.h"
#include "codegen/philox.h"

#define LC_STR(...) #__VA_ARGS__
#define LC_XSTR(...) LC_STR(__VA_ARGS__)

/* Scalar OpenCL C. */
#define LC_MULHI1(a, b) mul_hi((uint)(a), (b))
#define LC_FMA(a, b, c) fma(a, b, c)
static const char lc_cos32_cl[] = LC_XSTR(LC_RND_COS32_CODE(lc_rnd_cos_f32, uint, float, as_float,
    as_uint, LC_FMA) LC_RND_COS2_32_CODE(lc_rnd_cos2_f32, uint, float, as_float, as_uint, LC_FMA)) "\n";
static const char lc_cos64_cl[] = LC_XSTR(LC_RND_COS64_CODE(lc_rnd_cos_f64, ulong, double, as_double,
    as_ulong, LC_FMA) LC_RND_COS2_64_CODE(lc_rnd_cos2_f64, ulong, double, as_double, as_ulong,
    LC_FMA)) "\n";
static const char lc_bits_cl[] = LC_XSTR(LC_RND_BITS_CODE(, uint, ulong, uint, ulong, (uint),
                                                          (ulong), LC_MULHI1)) "\n";
static const char lc_f32_cl[] = LC_XSTR(LC_RND_F32_CODE(, uint, ulong, uint, ulong, (uint),
                                                        (ulong), LC_MULHI1, float, (float))) "\n";
static const char lc_f64_cl[] = LC_XSTR(LC_RND_F64_CODE(, uint, ulong, uint, ulong, (uint),
                                                        (ulong), LC_MULHI1, double, (double))) "\n";

/* Four consecutive values from whole blocks (GPU maps and reductions, four elements an item). */
#define LC_MK4(T, a, b, c, d) (T)(a, b, c, d)
#define LC_EACH4(V4, f, key, n) f##_each4(key, n)
static const char lc_quad32_cl[] = LC_XSTR(LC_RND_QUAD32_CODE(uint, ulong, uint, ulong, (uint),
    LC_MULHI1, float, (float), uint4, float4, LC_MK4, LC_EACH4)) "\n";
static const char lc_quad64_cl[] = LC_XSTR(LC_RND_QUAD64_CODE(uint, ulong, uint, ulong, (uint),
    (ulong), LC_MULHI1, double, (double), ulong4, double4, LC_MK4, LC_EACH4)) "\n";

/* f##_each4: the values n..n+3 of f one at a time, for a quad that does not start a Philox block
 * (philox.h's EACH4), in a loop kept rolled. */
static void lc_each4(struct lc_sb *sb, const char *f, const char *T)
{
    lc_sb_printf(sb,
                 "static inline %s4 %s_each4(ulong key, ulong n)\n{\n    %s v_[4];\n"
                 "#pragma unroll 1\n    for (uint j_ = 0; j_ < 4u; j_++)\n"
                 "        v_[j_] = %s(key, n + j_);\n"
                 "    return (%s4)(v_[0], v_[1], v_[2], v_[3]);\n}\n", T, f, T, f, T);
}

/* Eight lanes (the PoCL SIMD width), from Philox of two blocks at once in a ulong4 (philox.h's
 * LC_PHILOX_PACKED). */
#define LC_V2_4(a, b) ((ulong4)((ulong2)(a, b), (ulong2)(a, b)))
#define LC_SWAP_4(v) (v).s1032
#define LC_PK2(b, key) LC_PHILOX_PACKED(ulong4, LC_V2_4, LC_SWAP_4, (ulong4)(0, 0, 1, 1), b, key)
static const char lc_philox2_cl[] = LC_XSTR(LC_RND_PHILOX2_CODE(LC_PK2)) "\n";
static const char lc_f32_cl8[] = LC_XSTR(LC_RND_COS32_CODE(lc_rnd_cos_f32_8, uint8, float8, as_float8,
    as_uint8, LC_FMA) LC_RND_LANES8_F32_CODE) "\n";
/* Sixteen lanes of float32 (AVX-512 targets), from Philox of four blocks at once in a ulong8. */
#define LC_V2_8(a, b) ((ulong8)((ulong2)(a, b), (ulong2)(a, b), (ulong2)(a, b), (ulong2)(a, b)))
#define LC_SWAP_8(v) (v).s10325476
#define LC_PK4(b, key) LC_PHILOX_PACKED(ulong8, LC_V2_8, LC_SWAP_8, (ulong8)(0, 0, 1, 1, 2, 2, 3, 3), \
                                        b, key)
static const char lc_philox4_cl[] = LC_XSTR(LC_RND_PHILOX4_CODE(LC_PK4)) "\n";
static const char lc_f32_cl16[] = LC_XSTR(LC_RND_COS32_CODE(lc_rnd_cos_f32_16, uint16, float16,
    as_float16, as_uint16, LC_FMA) LC_RND_LANES16_F32_CODE) "\n";
static const char lc_f64_cl8[] = LC_XSTR(LC_RND_COS64_CODE(lc_rnd_cos_f64_8, ulong8, double8,
    as_double8, as_ulong8, LC_FMA) LC_RND_LANES8_F64_CODE) "\n";

void lc_random_helpers(const struct lc_cg *g, struct lc_sb *sb)
{
    int bits = 0, f32 = 0, f64 = 0;
    for (int a = 0; a < g->k->n_access; a++) {
        const struct lc_access *x = &g->acc[a];
        if (x->kind != LC_ACCESS_RANDOM)
            continue;
        bits |= x->dtype == LC_UINT32 || x->dtype == LC_UINT64;
        f32 |= x->dtype == LC_FLOAT32;
        f64 |= x->dtype == LC_FLOAT64;
    }
    if (!(bits | f32 | f64))
        return;
    /* The quads call the scalar helpers of their family (and uniform_f64_4 the 64-bit bits). */
    int q32 = g->rnd_quads && (f32 || bits), q64 = g->rnd_quads && f64;
    lc_sb_printf(sb, "/* Philox4x32-10 and its conversions (codegen/philox.h) */\n");
    if (bits || q32 || q64)
        lc_sb_printf(sb, "%s", lc_bits_cl);
    /* The W-lane loops have scalar tails: both forms (rnd_lanes: the widths read, 8 | 16). */
    int l8 = g->rnd_lanes & 8, l16 = g->rnd_lanes & 16 && f32;
    if ((l8 || l16) && (f32 || f64))
        lc_sb_printf(sb, "%s%s", lc_philox2_cl, l16 ? lc_philox4_cl : "");
    if (f32 || q32)
        lc_sb_printf(sb, "%s%s%s%s", lc_cos32_cl, lc_f32_cl, l8 ? lc_f32_cl8 : "",
                     l16 ? lc_f32_cl16 : "");
    if (f64)
        lc_sb_printf(sb, "%s%s%s", lc_cos64_cl, lc_f64_cl, l8 ? lc_f64_cl8 : "");
    if (q32) {
        lc_each4(sb, "lc_rnd_bits_u32", "uint");
        lc_each4(sb, "lc_rnd_uniform_f32", "float");
        lc_each4(sb, "lc_rnd_normal_f32", "float");
        lc_sb_printf(sb, "%s", lc_quad32_cl);
    }
    if (q64) {
        lc_each4(sb, "lc_rnd_normal_f64", "double");
        lc_sb_printf(sb, "%s", lc_quad64_cl);
    }
}

static const char *lc_random_name(const struct lc_access *x)
{
    int dist = x->leaf ? x->leaf->p.random.dist : LC_RANDOM_BITS;
    return dist == LC_RANDOM_NORMAL ? "normal" : dist == LC_RANDOM_UNIFORM ? "uniform" : "bits";
}

void lc_random_expr(struct lc_cg *g, struct lc_sb *sb, int a)
{
    const struct lc_access *x = &g->acc[a];
    lc_sb_printf(sb, "lc_rnd_%s_%s(a%d_k, a%d_c + (ulong)(", lc_random_name(x),
                 lc_dtype_short(x->dtype), a, a);
    lc_addr(g, sb, a);
    lc_sb_printf(sb, "))");
}

int lc_random_quad_ok(const struct lc_cg *g, int a)
{
    int dt = g->acc[a].dtype;
    return dt == LC_FLOAT32 || dt == LC_UINT32 || dt == LC_FLOAT64;
}

void lc_random_quad(struct lc_cg *g, struct lc_sb *sb, int a)
{
    const struct lc_access *x = &g->acc[a];
    g->rnd_quads = 1;
    lc_sb_printf(sb, "lc_rnd_%s_%s_4(a%d_k, a%d_c + (ulong)(", lc_random_name(x),
                 lc_dtype_short(x->dtype), a, a);
    lc_addr(g, sb, a);
    lc_sb_printf(sb, "))");
}

int lc_random_vec_ok(const struct lc_cg *g, int a, int W)
{
    const struct lc_access *x = &g->acc[a];
    return (W == 8 && (x->dtype == LC_FLOAT32 || x->dtype == LC_FLOAT64)) ||
           (W == 16 && x->dtype == LC_FLOAT32);
}

int lc_simd_lanes(const struct lc_cg *g)
{
    int f32 = 0;
    for (int a = 0; a < g->k->n_access; a++) {
        const struct lc_access *x = &g->acc[a];
        if (x->kind != LC_ACCESS_RANDOM)
            continue;
        if (x->dtype != LC_FLOAT32)
            return g->t->simd;
        f32 = 1;
    }
    return f32 ? g->t->simd_random : g->t->simd;
}

void lc_random_expr_vec(struct lc_cg *g, struct lc_sb *sb, int a, int W, int rd)
{
    const struct lc_access *x = &g->acc[a];
    /* Lanes along rd: stride 1 (the run of W values from the address) or 0 (every lane the
     * same element: lane 0 of that run, by the same vector code). */
    int unit = lc_stclass(x->strides[rd]) == LC_ST_UNIT;
    g->rnd_lanes |= W;
    if (!unit)
        lc_sb_printf(sb, "(%s%d)(", lc_T(x->dtype), W);
    lc_sb_printf(sb, "lc_rnd_%s_%s_%d(a%d_k, a%d_c + (ulong)(", lc_random_name(x),
                 lc_dtype_short(x->dtype), W, a, a);
    lc_addr(g, sb, a);
    lc_sb_printf(sb, unit ? "))" : ")).s0)");
}
