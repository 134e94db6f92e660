/* complex.c: OpenCL C for complex64 (float2) and complex128 (double2) values: casts, every
 * elementwise op NumPy has a complex loop for, and the helper library they call.
 *
 * A complex value is a 2-vector (real, imaginary). Addition, subtraction, negation and
 * selection are the vector's own; everything else calls an lc_c<op>_<tag> helper, emitted once
 * per kernel and type (lc_cg_complex_helpers). The helpers follow NumPy's npymath: the plain
 * product, Smith's quotient, C99 Annex G's special values for exp, log and sqrt, Kahan's
 * tanh, and the inverse functions through log and sqrt, whose branch cuts (and the side of a
 * cut a signed zero picks) are the ones NumPy documents.
 */
#include "codegen/codegen.h"

#define LC_H_COMPLEX (1u << 31)

/* The real type of complex dtype `ct`'s parts and its tag. */
static const char *lc_rt(int ct) { return lc_dtype_cl(lc_dtype_real_of(ct)); }

void lc_cg_complex_cast(struct lc_sb *sb, const char *v, int from, int to)
{
    int cf = lc_dtype_is_complex(from), ctt = lc_dtype_is_complex(to);
    if (cf && ctt) {
        lc_sb_printf(sb, "convert_%s(%s)", lc_dtype_cl(to), v);
        return;
    }
    if (cf) {
        /* To a real type: the real part, as NumPy (with its ComplexWarning, the front
         * end's); to bool: either part non-zero. */
        if (to == LC_BOOL) {
            lc_sb_printf(sb, "(uchar)((%s).x != 0 || (%s).y != 0)", v, v);
            return;
        }
        struct lc_sb re = {0};
        lc_sb_printf(&re, "(%s).x", v);
        lc_cg_cast(sb, re.oom ? "0" : re.s, lc_dtype_real_of(from), to);
        lc_sb_free(&re);
        return;
    }
    /* A real value to complex: (v, 0). */
    lc_sb_printf(sb, "(%s)(", lc_dtype_cl(to));
    lc_cg_cast(sb, v, from, lc_dtype_real_of(to));
    lc_sb_printf(sb, ", 0)");
}

static void lc_call(struct lc_sb *sb, struct lc_helpers *h, int ct, const char *fn,
                    const char *const *x, int n)
{
    h->need[ct] |= LC_H_COMPLEX;
    lc_sb_printf(sb, "lc_c%s_%s(%s", fn, lc_dtype_short(ct), x[0]);
    for (int i = 1; i < n; i++)
        lc_sb_printf(sb, ", %s", x[i]);
    lc_sb_printf(sb, ")");
}

int lc_cg_complex_op(struct lc_sb *sb, struct lc_helpers *h, int op, int ct, int rt,
                     const char *const *x)
{
    const char *T2 = lc_dtype_cl(ct);
    switch (op) {
    case LC_OP_ADD: lc_sb_printf(sb, "(%s + %s)", x[0], x[1]); return 1;
    case LC_OP_SUB: lc_sb_printf(sb, "(%s - %s)", x[0], x[1]); return 1;
    case LC_OP_NEG: lc_sb_printf(sb, "(-%s)", x[0]); return 1;
    case LC_OP_POS: lc_sb_printf(sb, "%s", x[0]); return 1;
    case LC_OP_REAL: lc_sb_printf(sb, "(%s).x", x[0]); return 1;
    case LC_OP_IMAG: lc_sb_printf(sb, "(%s).y", x[0]); return 1;
    case LC_OP_CONJ: lc_sb_printf(sb, "((%s)(1, -1) * %s)", T2, x[0]); return 1;
    case LC_OP_ISNAN:
        lc_sb_printf(sb, "(uchar)(isnan((%s).x) || isnan((%s).y))", x[0], x[0]);
        return 1;
    case LC_OP_ISINF:
        lc_sb_printf(sb, "(uchar)(isinf((%s).x) || isinf((%s).y))", x[0], x[0]);
        return 1;
    case LC_OP_ISFINITE:
        lc_sb_printf(sb, "(uchar)(isfinite((%s).x) && isfinite((%s).y))", x[0], x[0]);
        return 1;
    case LC_OP_LNOT:
        lc_sb_printf(sb, "(uchar)((%s).x == 0 && (%s).y == 0)", x[0], x[0]);
        return 1;
    case LC_OP_LAND: case LC_OP_LOR: case LC_OP_LXOR:
        lc_sb_printf(sb, "(uchar)(((%s).x != 0 || (%s).y != 0) %s ((%s).x != 0 || (%s).y != 0))",
                     x[0], x[0], op == LC_OP_LAND ? "&&" : op == LC_OP_LOR ? "||" : "!=", x[1],
                     x[1]);
        return 1;
    case LC_OP_EQ:
        lc_sb_printf(sb, "(uchar)((%s).x == (%s).x && (%s).y == (%s).y)", x[0], x[1], x[0], x[1]);
        return 1;
    case LC_OP_NE:
        lc_sb_printf(sb, "(uchar)((%s).x != (%s).x || (%s).y != (%s).y)", x[0], x[1], x[0], x[1]);
        return 1;
    case LC_OP_LT: case LC_OP_LE: case LC_OP_GT: case LC_OP_GE: {
        /* NumPy's order: by the real parts, then the imaginary ones. */
        const char *c = op == LC_OP_LT || op == LC_OP_LE ? "<" : ">";
        const char *c2 = op == LC_OP_LT ? "<" : op == LC_OP_LE ? "<=" : op == LC_OP_GT ? ">" : ">=";
        lc_sb_printf(sb, "(uchar)((%s).x %s (%s).x || ((%s).x == (%s).x && (%s).y %s (%s).y))",
                     x[0], c, x[1], x[0], x[1], x[0], c2, x[1]);
        return 1;
    }
    case LC_OP_WHERE:
        lc_sb_printf(sb, "((%s != 0) ? %s : %s)", x[0], x[1], x[2]);
        return 1;
    case LC_OP_COMPLEX:
        /* ct is the parts' real type here, rt the complex result. */
        lc_sb_printf(sb, "((%s)(%s, %s))", lc_dtype_cl(rt), x[0], x[1]);
        return 1;
    case LC_OP_RINT:
        lc_sb_printf(sb, "rint(%s)", x[0]);
        return 1;
    default:
        break;
    }
    static const struct { int op; const char *fn; } calls[] = {
        {LC_OP_ABS, "abs"}, {LC_OP_MUL, "mul"}, {LC_OP_DIV, "div"}, {LC_OP_POW, "pow"}, {LC_OP_SQUARE, "square"},
        {LC_OP_RECIP, "recip"}, {LC_OP_SIGN, "sign"}, {LC_OP_EXP, "exp"}, {LC_OP_EXPM1, "expm1"},
        {LC_OP_EXP2, "exp2"}, {LC_OP_LOG, "log"}, {LC_OP_LOG1P, "log1p"}, {LC_OP_LOG2, "log2"},
        {LC_OP_LOG10, "log10"}, {LC_OP_SQRT, "sqrt"}, {LC_OP_SIN, "sin"}, {LC_OP_COS, "cos"},
        {LC_OP_TAN, "tan"}, {LC_OP_SINH, "sinh"}, {LC_OP_COSH, "cosh"}, {LC_OP_TANH, "tanh"},
        {LC_OP_ARCSIN, "asin"}, {LC_OP_ARCCOS, "acos"}, {LC_OP_ARCTAN, "atan"},
        {LC_OP_ARCSINH, "asinh"}, {LC_OP_ARCCOSH, "acosh"}, {LC_OP_ARCTANH, "atanh"},
        {LC_OP_MAXIMUM, "maximum"}, {LC_OP_MINIMUM, "minimum"}, {LC_OP_FMAX, "fmax"},
        {LC_OP_FMIN, "fmin"},
    };
    for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++)
        if (calls[i].op == op) {
            lc_call(sb, h, ct, calls[i].fn, x, lc_op_arity(op));
            return 1;
        }
    return 0;
}

const char *lc_cg_one(int dt)
{
    return dt == LC_COMPLEX64 ? "(float2)(1, 0)" : dt == LC_COMPLEX128 ? "(double2)(1, 0)" : "1";
}

void lc_cg_complex_mul_into(struct lc_sb *sb, struct lc_helpers *h, int ct, const char *acc,
                            const char *v, const char *ind)
{
    const char *x[2] = {acc, v};
    lc_sb_printf(sb, "%s%s = ", ind, acc);
    lc_cg_complex_op(sb, h, LC_OP_MUL, ct, ct, x);
    lc_sb_printf(sb, ";\n");
}

/* The helper library, written for complex type @C (float2/double2) of real type @R with
 * name suffix @S; @B is the real type's largest value, @T where tanh rounds to 1, @H where
 * z^2 would overflow or lose z's low terms. Later helpers call earlier ones. */
static const char *const lc_complex_lib[] = {
    /* a + r for a real r: the imaginary part (and the sign of its zero) kept, where adding
     * (r, 0) would turn -0 into +0 and move a value to the other side of a cut. */
    "static inline @C lc_caddr_@S(@C a, @R r) { a.x += r; return a; }\n"
    "static inline @C lc_cmul_@S(@C a, @C b) {\n"
    "    return (@C)(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);\n}\n",
    /* Smith's quotient, as NumPy's divide. */
    "static inline @C lc_cdiv_@S(@C a, @C b) {\n"
    "    @R ar = fabs(b.x), ai = fabs(b.y);\n"
    "    if (ar >= ai) {\n"
    "        if (ar == 0 && ai == 0) return (@C)(a.x / ar, a.y / ar);\n"
    "        @R r = b.y / b.x, d = 1 / (b.x + b.y * r);\n"
    "        return (@C)((a.x + a.y * r) * d, (a.y - a.x * r) * d);\n"
    "    }\n"
    "    @R r = b.x / b.y, d = 1 / (b.y + b.x * r);\n"
    "    return (@C)((a.x * r + a.y) * d, (a.y * r - a.x) * d);\n}\n",
    "static inline @C lc_csquare_@S(@C a) { return lc_cmul_@S(a, a); }\n",
    /* |a| without overflow, an infinite part first (hypot's rule); not the builtin hypot,
     * which Intel's CPU compiler fails to vectorize over a loaded 2-vector. */
    "static inline @R lc_cabs_@S(@C a) {\n"
    "    @R ax = fabs(a.x), ay = fabs(a.y);\n"
    "    if (isinf(ax) || isinf(ay)) return INFINITY;\n"
    "    if (isnan(ax) || isnan(ay)) return NAN;\n"
    "    @R m = fmax(ax, ay), n = fmin(ax, ay);\n"
    "    if (m == 0) return 0;\n"
    "    @R r = n / m;\n"
    "    return m * sqrt(1 + r * r);\n}\n",
    /* NumPy's reciprocal: one ratio of the parts, the larger one divided. */
    "static inline @C lc_crecip_@S(@C a) {\n"
    "    if (fabs(a.y) <= fabs(a.x)) {\n"
    "        @R r = a.y / a.x, d = a.x + a.y * r;\n"
    "        return (@C)(1 / d, -r / d);\n"
    "    }\n"
    "    @R r = a.x / a.y, d = a.x * r + a.y;\n"
    "    return (@C)(r / d, -1 / d);\n}\n",
    "static inline @C lc_csign_@S(@C a) {\n"
    "    if (isinf(a.x) && isinf(a.y)) return (@C)(NAN, NAN);\n"
    "    if (isinf(a.x)) return (@C)(copysign((@R)1, a.x), 0);\n"
    "    if (isinf(a.y)) return (@C)(0, copysign((@R)1, a.y));\n"
    "    if (isnan(a.x) || isnan(a.y)) return (@C)(NAN, NAN);\n"
    "    if (a.x == 0 && a.y == 0) return (@C)(0, 0);\n"
    "    @R m = lc_cabs_@S(a);\n"
    "    return (@C)(a.x / m, a.y / m);\n}\n",
    /* NumPy's lexicographic maximum/minimum: a NaN in either part propagates, the first
     * operand's first; fmax/fmin ignore one. */
    "static inline int lc_cnan_@S(@C a) { return isnan(a.x) || isnan(a.y); }\n"
    "static inline int lc_cge_@S(@C a, @C b) {\n"
    "    return a.x > b.x || (a.x == b.x && a.y >= b.y);\n}\n"
    "static inline @C lc_cmaximum_@S(@C a, @C b) {\n"
    "    return lc_cnan_@S(a) ? a : lc_cnan_@S(b) ? b : lc_cge_@S(a, b) ? a : b;\n}\n"
    "static inline @C lc_cminimum_@S(@C a, @C b) {\n"
    "    return lc_cnan_@S(a) ? a : lc_cnan_@S(b) ? b : lc_cge_@S(b, a) ? a : b;\n}\n"
    "static inline @C lc_cfmax_@S(@C a, @C b) {\n"
    "    return lc_cnan_@S(b) ? a : lc_cnan_@S(a) ? b : lc_cge_@S(a, b) ? a : b;\n}\n"
    "static inline @C lc_cfmin_@S(@C a, @C b) {\n"
    "    return lc_cnan_@S(b) ? a : lc_cnan_@S(a) ? b : lc_cge_@S(b, a) ? a : b;\n}\n",
    /* exp with Annex G's special values. */
    "static inline @C lc_cexp_@S(@C a) {\n"
    "    if (a.y == 0) return (@C)(exp(a.x), a.y);\n"
    "    if (isinf(a.x)) {\n"
    "        if (a.x < 0) return isfinite(a.y) ? (@C)(0 * cos(a.y), 0 * sin(a.y))\n"
    "                                          : (@C)(0, copysign((@R)0, a.y));\n"
    "        if (!isfinite(a.y)) return (@C)(a.x, NAN);\n"
    "    }\n"
    "    if (isnan(a.x)) return (@C)(NAN, NAN);\n"
    "    @R e = exp(a.x);\n"
    "    return (@C)(e * cos(a.y), e * sin(a.y));\n}\n",
    /* log: log|a| taken through log1p near |a| = 1, where log(hypot) would cancel. */
    "static inline @C lc_clog_@S(@C a) {\n"
    "    @R ax = fabs(a.x), ay = fabs(a.y), h = hypot(a.x, a.y), re;\n"
    "    if (h > (@R)0.7 && h < (@R)1.4) {\n"
    "        @R mx = fmax(ax, ay), mn = fmin(ax, ay);\n"
    "        re = (@R)0.5 * log1p((mx - 1) * (mx + 1) + mn * mn);\n"
    "    } else {\n"
    "        re = log(h);\n"
    "    }\n"
    "    return (@C)(re, atan2(a.y, a.x));\n}\n",
    /* sqrt (Annex G): the principal root, the sign of its imaginary part a.y's. */
    "static inline @C lc_csqrt_@S(@C a) {\n"
    "    if (a.x == 0 && a.y == 0) return (@C)(0, a.y);\n"
    "    if (isinf(a.y)) return (@C)(INFINITY, a.y);\n"
    "    if (isnan(a.x)) return (@C)(a.x, a.y - a.y + a.x);\n"
    "    if (isinf(a.x)) {\n"
    "        if (a.x > 0) return (@C)(a.x, isnan(a.y) ? a.y : copysign((@R)0, a.y));\n"
    "        return (@C)(isnan(a.y) ? fabs(a.y - a.y) : 0, copysign((@R)INFINITY, a.y));\n"
    "    }\n"
    "    if (isnan(a.y)) return (@C)(a.y, a.y);\n"
    "    @R s = 1, ax = fabs(a.x), ay = fabs(a.y);\n"
    "    if (ax > (@R)0.25 * @B || ay > (@R)0.25 * @B) { ax *= (@R)0.25; ay *= (@R)0.25; s = 2; }\n"
    "    @R t = sqrt((ax + hypot(ax, ay)) * (@R)0.5);\n"
    "    if (a.x >= 0) return (@C)(s * t, s * copysign(ay / (2 * t), a.y));\n"
    "    return (@C)(s * ay / (2 * t), s * copysign(t, a.y));\n}\n",
    /* pow: 0 ** b, small integer powers by squaring (as NumPy), exp(b log a) else. */
    "static inline @C lc_cpow_@S(@C a, @C b) {\n"
    "    if (b.x == 0 && b.y == 0) return (@C)(1, 0);\n"
    "    if (a.x == 0 && a.y == 0) {\n"
    "        if (b.x > 0) return (@C)(0, 0);\n"
    "        return (@C)(NAN, NAN);\n"
    "    }\n"
    "    if (b.y == 0 && b.x == rint(b.x) && fabs(b.x) < 100) {\n"
    "        int n = (int)b.x, m = n < 0 ? -n : n;\n"
    "        @C r = (@C)(1, 0), p = a;\n"
    "        while (m) { if (m & 1) r = lc_cmul_@S(r, p); p = lc_cmul_@S(p, p); m >>= 1; }\n"
    "        return n < 0 ? lc_cdiv_@S((@C)(1, 0), r) : r;\n"
    "    }\n"
    "    return lc_cexp_@S(lc_cmul_@S(b, lc_clog_@S(a)));\n}\n",
    "static inline @C lc_cexp2_@S(@C a) {\n"
    "    return lc_cexp_@S(a * (@R)0.693147180559945309417232121458176568);\n}\n"
    "static inline @C lc_clog2_@S(@C a) {\n"
    "    return lc_clog_@S(a) * (@R)1.44269504088896340735992468100189214;\n}\n"
    "static inline @C lc_clog10_@S(@C a) {\n"
    "    return lc_clog_@S(a) * (@R)0.434294481903251827651128918916605082;\n}\n",
    /* expm1 without cancellation for small a: e^x cos y - 1 = expm1(x) cos y - 2 sin^2(y/2)
     * (NumPy's formula, non-finite inputs included). */
    "static inline @C lc_cexpm1_@S(@C a) {\n"
    "    @R h = sin(a.y * (@R)0.5);\n"
    "    return (@C)(expm1(a.x) * cos(a.y) - 2 * h * h, exp(a.x) * sin(a.y));\n}\n"
    "static inline @C lc_clog1p_@S(@C a) {\n"
    "    if (fabs(a.x) < (@R)0.5 && fabs(a.y) < (@R)0.5) {\n"
    "        @R re = (@R)0.5 * log1p(a.x * (2 + a.x) + a.y * a.y);\n"
    "        return (@C)(re, atan2(a.y, 1 + a.x));\n"
    "    }\n"
    "    return lc_clog_@S(lc_caddr_@S(a, 1));\n}\n",
    "static inline @C lc_csinh_@S(@C a) {\n"
    "    if (a.y == 0) return (@C)(sinh(a.x), a.y);\n"
    "    if (!isfinite(a.y)) {\n"
    "        if (a.x == 0) return (@C)(a.x, NAN);\n"
    "        if (isinf(a.x)) return (@C)(INFINITY, NAN);\n"
    "    }\n"
    "    return (@C)(sinh(a.x) * cos(a.y), cosh(a.x) * sin(a.y));\n}\n"
    "static inline @C lc_ccosh_@S(@C a) {\n"
    "    if (a.y == 0) return (@C)(cosh(a.x), isnan(a.x) ? a.y : a.y * copysign((@R)1, a.x));\n"
    "    if (!isfinite(a.y)) {\n"
    "        if (a.x == 0) return (@C)(NAN, 0);\n"
    "        if (isinf(a.x)) return (@C)(INFINITY, NAN);\n"
    "    }\n"
    "    return (@C)(cosh(a.x) * cos(a.y), sinh(a.x) * sin(a.y));\n}\n"
    /* Kahan's tanh: no overflow for large |x|, exact signs of zero. */
    "static inline @C lc_ctanh_@S(@C a) {\n"
    "    if (isnan(a.x)) return (@C)(a.x, a.y == 0 ? a.y : a.x);\n"
    "    if (isinf(a.x)) return (@C)(copysign((@R)1, a.x),\n"
    "                                  isfinite(a.y) ? copysign((@R)0, sin(a.y) * cos(a.y)) : copysign((@R)0, a.y));\n"
    "    if (!isfinite(a.y)) return (@C)(a.x == 0 ? a.x : a.y - a.y, a.y - a.y);\n"
    "    if (fabs(a.x) > @T) {\n"
    "        @R e = exp(-fabs(a.x));\n"
    "        return (@C)(copysign((@R)1, a.x), 4 * sin(a.y) * cos(a.y) * e * e);\n"
    "    }\n"
    "    @R t = tan(a.y), b = 1 + t * t, s = sinh(a.x), r = sqrt(1 + s * s), d = 1 + b * s * s;\n"
    "    return (@C)(b * r * s / d, t / d);\n}\n",
    /* The circular functions through the hyperbolic ones: f(z) = -i g(i z). */
    "static inline @C lc_cmuli_@S(@C a) { return (@C)(-a.y, a.x); }\n"
    "static inline @C lc_cmulni_@S(@C a) { return (@C)(a.y, -a.x); }\n"
    "static inline @C lc_csin_@S(@C a) {\n"
    "    if (isinf(a.y) && !isfinite(a.x)) return (@C)(NAN, a.y);\n"
    "    return lc_cmulni_@S(lc_csinh_@S(lc_cmuli_@S(a)));\n}\n"
    "static inline @C lc_ccos_@S(@C a) { return lc_ccosh_@S(lc_cmuli_@S(a)); }\n"
    "static inline @C lc_ctan_@S(@C a) { return lc_cmulni_@S(lc_ctanh_@S(lc_cmuli_@S(a))); }\n",
    /* asinh(z) = log(z + sqrt(z^2 + 1)), computed for Re z >= 0 and reflected (odd);
     * for large |z| as log(2z) + 1/(4z^2) terms dropped, so z^2 cannot overflow. */
    "static inline @C lc_casinh_@S(@C a) {\n"
    "    if (isnan(a.x) || isnan(a.y)) {\n"
    "        if (isinf(a.x)) return (@C)(a.x, NAN);\n"
    "        if (isinf(a.y)) return (@C)(copysign((@R)INFINITY, a.x), NAN);\n"
    "        if (a.y == 0) return (@C)(NAN, a.y);\n"
    "        return (@C)(NAN, NAN);\n"
    "    }\n"
    "    if (a.x == 0 && fabs(a.y) <= 1) return (@C)(a.x, asin(a.y));\n"
    "    int neg = signbit(a.x);\n"
    "    @C z = neg ? -a : a, w;\n"
    "    if (hypot(z.x, z.y) > @H) {\n"
    "        w = lc_caddr_@S(lc_clog_@S(z), (@R)0.693147180559945309417232121458176568);\n"
    "    } else {\n"
    "        w = lc_clog_@S(z + lc_csqrt_@S(lc_caddr_@S(lc_cmul_@S(z, z), 1)));\n"
    "    }\n"
    "    if (a.y == 0) w.y = copysign((@R)0, z.y);\n"
    "    return neg ? -w : w;\n}\n"
    /* asin and atan at an infinite real part and a NaN imaginary one: spelled out, since
     * -i f(i z) would hang the sign of the result on the sign of a NaN (which GPUs do not
     * keep through a negation). */
    "static inline @C lc_casin_@S(@C a) {\n"
    "    if (isinf(a.x) && isnan(a.y)) return (@C)(NAN, INFINITY);\n"
    "    return lc_cmulni_@S(lc_casinh_@S(lc_cmuli_@S(a)));\n}\n"
    /* acosh(z) = log(z + sqrt(z + 1) sqrt(z - 1)) (Kahan's form: the right cuts). */
    "static inline @C lc_cacosh_@S(@C a) {\n"
    "    if (a.y == 0 && fabs(a.x) <= 1) return (@C)(0, copysign(acos(a.x), a.y));\n"
    "    if (a.x == 0 && isnan(a.y)) return (@C)(NAN, (@R)1.57079632679489661923132169163975144);\n"
    "    if (hypot(a.x, a.y) > @H) {\n"
    "        @C w = lc_caddr_@S(lc_clog_@S(a), (@R)0.693147180559945309417232121458176568);\n"
    "        if (signbit(a.x) && a.y == 0) w.y = copysign(w.y, a.y);\n"
    "        return w;\n"
    "    }\n"
    "    @C w = lc_clog_@S(a + lc_cmul_@S(lc_csqrt_@S(lc_caddr_@S(a, 1)),\n"
    "                                           lc_csqrt_@S(lc_caddr_@S(a, -1))));\n"
    "    return w;\n}\n"
    /* acos(z) = -i acosh(z) on the upper half plane; by conjugate symmetry below. */
    "static inline @C lc_cacos_@S(@C a) {\n"
    "    if (a.y == 0 && fabs(a.x) <= 1) return (@C)(acos(a.x), -a.y);\n"
    "    if (a.x == 0 && isnan(a.y)) return (@C)((@R)1.57079632679489661923132169163975144, a.y);\n"
    "    int lower = signbit(a.y);\n"
    "    @C z = lower ? (@C)(a.x, -a.y) : a;\n"
    "    @C w = lc_cacosh_@S(z);\n"
    "    w = (@C)(w.y, -w.x);\n"
    "    if (w.x < 0) w = -w;\n"
    "    return lower ? (@C)(w.x, -w.y) : w;\n}\n"
    /* atanh (Kahan's form): Re = log1p(4x / ((1 - x)^2 + y^2)) / 4, Im = atan2(2y, (1 - x)(1 + x)
     * - y^2) / 2; exact on the axes, C99's values for the non-finite, and 1/z for huge z. */
    "static inline @C lc_catanh_@S(@C a) {\n"
    "    @R x = a.x, y = a.y, ax = fabs(x), ay = fabs(y);\n"
    "    const @R h = (@R)1.57079632679489661923132169163975144;\n"
    "    if (y == 0 && ax <= 1) return (@C)(atanh(x), y);\n"
    "    if (x == 0) return (@C)(x, isnan(y) ? y : atan(y));\n"
    "    if (isnan(x) || isnan(y)) {\n"
    "        if (isinf(x)) return (@C)(copysign((@R)0, x), NAN);\n"
    "        if (isinf(y)) return (@C)(copysign((@R)0, x), copysign(h, y));\n"
    "        return (@C)(NAN, NAN);\n"
    "    }\n"
    "    if (ax > @H || ay > @H) {\n"
    "        @R re = (isinf(ax) || isinf(ay)) ? copysign((@R)0, x)\n"
    "              : ax >= ay ? (1 / x) / (1 + (y / x) * (y / x)) : (x / y) / y / (1 + (x / y) * (x / y));\n"
    "        return (@C)(re, copysign(h, y));\n"
    "    }\n"
    "    @R d = (1 - ax) * (1 - ax) + ay * ay;\n"
    "    @R re = copysign((@R)0.25 * log1p(4 * ax / d), x);\n"
    "    return (@C)(re, (@R)0.5 * atan2(2 * y, (1 - ax) * (1 + ax) - ay * ay));\n}\n"
    "static inline @C lc_catan_@S(@C a) {\n"
    "    if (isinf(a.x) && isnan(a.y))\n"
    "        return (@C)(copysign((@R)1.57079632679489661923132169163975144, a.x), 0);\n"
    "    return lc_cmulni_@S(lc_catanh_@S(lc_cmuli_@S(a)));\n}\n",
};

static void lc_emit_lib(struct lc_sb *sb, int ct)
{
    const char *C = lc_dtype_cl(ct), *R = lc_rt(ct), *S = lc_dtype_short(ct);
    int f32 = ct == LC_COMPLEX64;
    const char *big = f32 ? "FLT_MAX" : "DBL_MAX";
    const char *tanh_cut = f32 ? "9" : "22";     /* tanh(x) rounds to 1 past here */
    const char *huge = f32 ? "1e18f" : "1e150";  /* z^2 would lose (or overflow) past here */
    const char *subst[6][2] = {{"@C", C}, {"@R", R}, {"@S", S}, {"@B", big}, {"@T", tanh_cut},
                               {"@H", huge}};
    lc_sb_printf(sb, "/* complex %s helpers */\n", lc_dtype_name(ct));
    for (size_t i = 0; i < sizeof lc_complex_lib / sizeof lc_complex_lib[0]; i++)
        for (const char *p = lc_complex_lib[i]; *p; p++) {
            int hit = 0;
            for (int j = 0; j < 6 && !hit; j++)
                if (p[0] == '@' && p[1] == subst[j][0][1]) {
                    lc_sb_printf(sb, "%s", subst[j][1]);
                    p++;
                    hit = 1;
                }
            if (!hit)
                lc_sb_printf(sb, "%c", *p);
        }
}

void lc_cg_complex_helpers(struct lc_sb *sb, const struct lc_helpers *h)
{
    for (int ct = LC_COMPLEX64; ct <= LC_COMPLEX128; ct++)
        if (h->need[ct] & LC_H_COMPLEX)
            lc_emit_lib(sb, ct);
}
