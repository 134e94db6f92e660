/* random.c: random sources in kernels: the Philox helpers a kernel needs and
 * the expression of one element (or of W lanes).
 *
 * A RANDOM leaf is computed where it is read, like an arange: element k of
 * the source is lc_rnd_<dist>_<dtype>(key, offset + k), a pure function
 * (codegen/philox.h), so any view, gather or fusion of it reads the same
 * values, and nothing is stored unless the user materializes it. The key
 * and the offset are kernel arguments bound from the leaf at each launch:
 * every seed and every draw reuses one compiled kernel. The W-lane helpers
 * (PoCL's SIMD loops) compute the same values lane by lane: integer steps
 * are exact, and the float math is the scalar's, vectorized.
 */
#include "codegen/cg.h"
#include "codegen/philox.h"

#define LC_STR(...) #__VA_ARGS__
#define LC_XSTR(...) LC_STR(__VA_ARGS__)

/* Scalar OpenCL C. */
#define LC_MULHI1(a, b) mul_hi((uint)(a), (b))
static const char lc_bits_cl[] = LC_XSTR(LC_RND_BITS_CODE(, uint, ulong, uint, ulong, (uint),
                                                          (ulong), LC_MULHI1)) "\n";
static const char lc_f32_cl[] = LC_XSTR(LC_RND_F32_CODE(, uint, ulong, uint, ulong, (uint),
                                                        (ulong), LC_MULHI1, float, (float))) "\n";
static const char lc_f64_cl[] = LC_XSTR(LC_RND_F64_CODE(, uint, ulong, uint, ulong, (uint),
                                                        (ulong), LC_MULHI1, double, (double))) "\n";

/* Four consecutive values from whole blocks (GPU maps and reductions, four elements an item). */
#define LC_MK4(T, a, b, c, d) (T)(a, b, c, d)
static const char lc_quad32_cl[] = LC_XSTR(LC_RND_QUAD32_CODE(uint, ulong, uint, ulong, (uint),
    LC_MULHI1, float, (float), uint4, float4, LC_MK4)) "\n";
static const char lc_quad64_cl[] = LC_XSTR(LC_RND_QUAD64_CODE(uint, ulong, uint, ulong, (uint),
    (ulong), LC_MULHI1, double, (double), ulong4, double4, LC_MK4)) "\n";

/* Eight lanes (the PoCL SIMD width). */
#define LC_MULHI8(a, b) mul_hi((uint8)(a), (b))
static const char lc_f32_cl8[] = LC_XSTR(LC_RND_F32_CODE(_8, uint8, ulong8, uint, ulong,
    convert_uint8, convert_ulong8, LC_MULHI8, float8, convert_float8)) "\n";
static const char lc_f64_cl8[] = LC_XSTR(LC_RND_F64_CODE(_8, uint8, ulong8, uint, ulong,
    convert_uint8, convert_ulong8, LC_MULHI8, double8, convert_double8)) "\n";

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
    /* The W-lane loops have scalar tails: both forms. */
    if (f32 || q32)
        lc_sb_printf(sb, "%s%s", lc_f32_cl, g->rnd_lanes ? lc_f32_cl8 : "");
    if (f64)
        lc_sb_printf(sb, "%s%s", lc_f64_cl, g->rnd_lanes ? lc_f64_cl8 : "");
    if (q32)
        lc_sb_printf(sb, "%s", lc_quad32_cl);
    if (q64)
        lc_sb_printf(sb, "%s", lc_quad64_cl);
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
    return W == 8 && (x->dtype == LC_FLOAT32 || x->dtype == LC_FLOAT64);
}

void lc_random_expr_vec(struct lc_cg *g, struct lc_sb *sb, int a, int W, int rd)
{
    const struct lc_access *x = &g->acc[a];
    g->rnd_lanes = W;
    lc_sb_printf(sb, "lc_rnd_%s_%s_%d(a%d_k, (ulong%d)(a%d_c + (ulong)(", lc_random_name(x),
                 lc_dtype_short(x->dtype), W, a, W, a);
    lc_addr(g, sb, a);
    /* Lanes along rd: stride 1 (an iota) or 0 (every lane the same element). */
    if (lc_stclass(x->strides[rd]) == LC_ST_UNIT)
        lc_sb_printf(sb, ")) + (ulong%d)(0, 1, 2, 3, 4, 5, 6, 7))", W);
    else
        lc_sb_printf(sb, ")))");
}
