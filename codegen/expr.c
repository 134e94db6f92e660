/* expr.c: OpenCL C spelling of each elementwise op, per dtype, with NumPy's semantics. */
#include "codegen/codegen.h"

enum lc_helper {
    LC_H_FLOORDIV = 1, LC_H_MOD = 2, LC_H_POW = 4, LC_H_SHL = 8, LC_H_SHR = 16,
    LC_H_GCD = 32, LC_H_LCM = 64,
};

/* The unsigned type of the same width, for wrapping arithmetic. */
static const char *lc_utype(int dt)
{
    switch (lc_dtype_size(dt)) {
    case 1: return "uchar";
    case 2: return "ushort";
    case 4: return "uint";
    default: return "ulong";
    }
}

static int lc_wide_signed(int dt)
{
    return lc_dtype_kind(dt) == 'i' && lc_dtype_size(dt) >= 4;
}

void lc_cg_cast(struct lc_sb *sb, const char *v, int from, int to)
{
    if (from == to) {
        lc_sb_printf(sb, "%s", v);
        return;
    }
    if (lc_dtype_is_complex(from) || lc_dtype_is_complex(to)) {
        lc_cg_complex_cast(sb, v, from, to);
        return;
    }
    if (to == LC_BOOL) {
        lc_sb_printf(sb, "(uchar)((%s) != 0)", v);
        return;
    }
    /* A float out of a narrower or unsigned type's range: C leaves it
     * undefined; x86 (and so NumPy there) wraps it through a wide signed
     * integer, GPUs saturate. Wrap everywhere, as NumPy on x86. */
    if (lc_dtype_kind(from) == 'f' && lc_dtype_kind(to) != 'f' &&
        (lc_dtype_size(to) < 4 || (lc_dtype_kind(to) == 'u' && lc_dtype_size(to) == 4))) {
        lc_sb_printf(sb, "(%s)(long)(%s)", lc_dtype_cl(to), v);
        return;
    }
    if (lc_dtype_kind(from) == 'f' && to == LC_UINT64) {
        lc_sb_printf(sb, "((%s) < 0 ? (ulong)(long)(%s) : (ulong)(%s))", v, v, v);
        return;
    }
    lc_sb_printf(sb, "(%s)(%s)", lc_dtype_cl(to), v);
}

void lc_cg_op(struct lc_sb *sb, struct lc_helpers *h, int op, int ct, int rt,
              const char *const *x)
{
    const char *T = lc_dtype_cl(ct);
    const char *R = lc_dtype_cl(rt);
    char k = lc_dtype_kind(ct);
    int isf = k == 'f';
    const char *tmpl = lc_op_template(op);
    if ((lc_dtype_is_complex(ct) || op == LC_OP_COMPLEX) && lc_cg_complex_op(sb, h, op, ct, rt, x))
        return;
    switch (op) {
    case LC_OP_REAL: case LC_OP_CONJ:
        lc_sb_printf(sb, "%s", x[0]);
        return;
    case LC_OP_IMAG:
        lc_sb_printf(sb, "(%s)0", T);
        return;
    case LC_OP_CAST:
        lc_cg_cast(sb, x[0], ct, rt);
        return;
    case LC_OP_ADD: case LC_OP_SUB: case LC_OP_MUL: {
        const char *sym = op == LC_OP_ADD ? "+" : op == LC_OP_SUB ? "-" : "*";
        if (ct == LC_BOOL)
            lc_sb_printf(sb, "(uchar)(%s %s %s)", x[0], op == LC_OP_MUL ? "&" : "|", x[1]);
        else if (lc_wide_signed(ct))
            lc_sb_printf(sb, "(%s)((%s)%s %s (%s)%s)", T, lc_utype(ct), x[0], sym, lc_utype(ct),
                         x[1]);
        else if (isf)
            lc_sb_printf(sb, "(%s %s %s)", x[0], sym, x[1]);
        else
            lc_sb_printf(sb, "(%s)(%s %s %s)", T, x[0], sym, x[1]);
        return;
    }
    case LC_OP_SQUARE:
        if (lc_wide_signed(ct))
            lc_sb_printf(sb, "(%s)((%s)%s * (%s)%s)", T, lc_utype(ct), x[0], lc_utype(ct), x[0]);
        else if (ct == LC_BOOL)
            lc_sb_printf(sb, "%s", x[0]);
        else
            lc_sb_printf(sb, "(%s)(%s * %s)", T, x[0], x[0]);
        return;
    case LC_OP_NEG:
        if (isf)
            lc_sb_printf(sb, "(-%s)", x[0]);
        else
            lc_sb_printf(sb, "(%s)(-(%s)%s)", T, lc_utype(ct), x[0]);
        return;
    case LC_OP_ABS:
        if (isf)
            lc_sb_printf(sb, "fabs(%s)", x[0]);
        else if (k == 'i')
            lc_sb_printf(sb, "(%s)(%s < 0 ? -(%s)%s : (%s)%s)", T, x[0], lc_utype(ct), x[0],
                         lc_utype(ct), x[0]);
        else
            lc_sb_printf(sb, "%s", x[0]);
        return;
    case LC_OP_NOT:
        if (ct == LC_BOOL)
            lc_sb_printf(sb, "(uchar)(!%s)", x[0]);
        else
            lc_sb_printf(sb, "(%s)(~%s)", T, x[0]);
        return;
    case LC_OP_SIGN:
        if (isf)
            lc_sb_printf(sb, "(isnan(%s) ? %s : (%s)((%s > 0) - (%s < 0)))", x[0], x[0], T, x[0],
                         x[0]);
        else if (k == 'u')
            lc_sb_printf(sb, "(%s)(%s > 0)", T, x[0]);
        else
            lc_sb_printf(sb, "(%s)((%s > 0) - (%s < 0))", T, x[0], x[0]);
        return;
    case LC_OP_RECIP:
        if (isf)
            lc_sb_printf(sb, "((%s)1 / %s)", T, x[0]);
        else
            lc_sb_printf(sb, "(%s)(%s == 0 ? 0 : 1 / %s)", T, x[0], x[0]);
        return;
    case LC_OP_FLOOR: case LC_OP_CEIL: case LC_OP_TRUNC:
        if (isf)
            lc_sb_printf(sb, "%s(%s)",
                         op == LC_OP_FLOOR ? "floor" : op == LC_OP_CEIL ? "ceil" : "trunc", x[0]);
        else
            lc_sb_printf(sb, "%s", x[0]);
        return;
    case LC_OP_ISNAN: case LC_OP_ISINF: case LC_OP_ISFINITE:
        if (isf)
            lc_sb_printf(sb, "(uchar)(%s(%s) != 0)",
                         op == LC_OP_ISNAN ? "isnan" : op == LC_OP_ISINF ? "isinf" : "isfinite",
                         x[0]);
        else
            lc_sb_printf(sb, "(uchar)%d", op == LC_OP_ISFINITE);
        return;
    case LC_OP_LNOT:
        lc_sb_printf(sb, "(uchar)(%s == 0)", x[0]);
        return;
    case LC_OP_LAND: case LC_OP_LOR: case LC_OP_LXOR:
        lc_sb_printf(sb, "(uchar)((%s != 0) %s (%s != 0))", x[0],
                     op == LC_OP_LAND ? "&&" : op == LC_OP_LOR ? "||" : "!=", x[1]);
        return;
    case LC_OP_EQ: case LC_OP_NE: case LC_OP_LT: case LC_OP_LE: case LC_OP_GT: case LC_OP_GE:
        lc_sb_printf(sb, "(uchar)");
        break;
    case LC_OP_AND: case LC_OP_OR: case LC_OP_XOR:
        lc_sb_printf(sb, "(%s)", T);
        break;
    case LC_OP_MAXIMUM: case LC_OP_MINIMUM: {
        const char *cmp = op == LC_OP_MAXIMUM ? ">=" : "<=";
        if (isf)
            lc_sb_printf(sb, "((%s %s %s || isnan(%s)) ? %s : %s)", x[0], cmp, x[1], x[0], x[0],
                         x[1]);
        else
            lc_sb_printf(sb, "(%s %s %s ? %s : %s)", x[0], cmp, x[1], x[0], x[1]);
        return;
    }
    case LC_OP_FMAX: case LC_OP_FMIN:
        if (isf)
            lc_sb_printf(sb, "%s(%s, %s)", op == LC_OP_FMAX ? "fmax" : "fmin", x[0], x[1]);
        else
            lc_sb_printf(sb, "(%s %s %s ? %s : %s)", x[0], op == LC_OP_FMAX ? ">=" : "<=", x[1],
                         x[0], x[1]);
        return;
    case LC_OP_FLOORDIV: case LC_OP_MOD: case LC_OP_POW: case LC_OP_LSHIFT: case LC_OP_RSHIFT: {
        if (op == LC_OP_POW && isf) {
            lc_sb_printf(sb, "pow(%s, %s)", x[0], x[1]);
            return;
        }
        static const struct { int op; int bit; const char *name; } hs[] = {
            {LC_OP_FLOORDIV, LC_H_FLOORDIV, "floordiv"}, {LC_OP_MOD, LC_H_MOD, "mod"},
            {LC_OP_POW, LC_H_POW, "pow"}, {LC_OP_LSHIFT, LC_H_SHL, "shl"},
            {LC_OP_RSHIFT, LC_H_SHR, "shr"},
        };
        for (size_t i = 0; i < sizeof hs / sizeof hs[0]; i++)
            if (hs[i].op == op) {
                h->need[ct] |= (uint32_t)hs[i].bit;
                lc_sb_printf(sb, "lc_%s_%s(%s, %s)", hs[i].name, lc_dtype_short(ct), x[0], x[1]);
            }
        return;
    }
    case LC_OP_WHERE:
        lc_sb_printf(sb, "((%s != 0) ? %s : %s)", x[0], x[1], x[2]);
        return;
    case LC_OP_FREXPEXP:
        lc_sb_printf(sb, "((%s)((%s == 0 || !isfinite(%s)) ? 0 : ilogb(%s) + 1))", T, x[0], x[0],
                     x[0]);
        return;
    case LC_OP_GCD: case LC_OP_LCM:
        h->need[ct] |= (uint32_t)(op == LC_OP_GCD ? LC_H_GCD : LC_H_GCD | LC_H_LCM);
        lc_sb_printf(sb, "lc_%s_%s(%s, %s)", op == LC_OP_GCD ? "gcd" : "lcm", lc_dtype_short(ct),
                     x[0], x[1]);
        return;
    default:
        break;
    }
    if (!tmpl) {
        lc_sb_printf(sb, "/* unsupported op %s */ 0", lc_op_name(op));
        return;
    }
    /* A template over %0 %1 %2. */
    (void)R;
    lc_sb_printf(sb, "(");
    for (const char *p = tmpl; *p; p++) {
        if (p[0] == '%' && p[1] >= '0' && p[1] <= '2') {
            lc_sb_printf(sb, "%s", x[p[1] - '0']);
            p++;
        } else {
            lc_sb_printf(sb, "%c", *p);
        }
    }
    lc_sb_printf(sb, ")");
}

void lc_cg_helpers(struct lc_sb *sb, const struct lc_helpers *h)
{
    lc_cg_complex_helpers(sb, h);
    for (int dt = 0; dt < LC_NDTYPES; dt++) {
        uint32_t need = h->need[dt];
        if (!need)
            continue;
        const char *T = lc_dtype_cl(dt), *tag = lc_dtype_short(dt), *U = lc_utype(dt);
        char k = lc_dtype_kind(dt);
        int bits = (int)lc_dtype_size(dt) * 8;
        if (need & LC_H_FLOORDIV) {
            if (k == 'f')
                lc_sb_printf(sb,
                    "/* NumPy's floor_divide for floats (npy_divmod). */\n"
                    "static inline %s lc_floordiv_%s(%s a, %s b) {\n"
                    "    if (b == 0) return a / b;\n"
                    "    %s m = fmod(a, b);\n"
                    "    %s d = (a - m) / b;\n"
                    "    if (m != 0 && ((b < 0) != (m < 0))) d -= 1;\n"
                    "    if (d == 0) return copysign((%s)0, a / b);\n"
                    "    %s f = floor(d);\n"
                    "    if (d - f > (%s)0.5) f += 1;\n"
                    "    return f;\n}\n",
                    T, tag, T, T, T, T, T, T, T);
            else if (k == 'i')
                lc_sb_printf(sb,
                    "/* Python's floor division; x // 0 is 0 and MIN // -1 wraps, as NumPy. */\n"
                    "static inline %s lc_floordiv_%s(%s a, %s b) {\n"
                    "    if (b == 0) return 0;\n"
                    "    if (b == -1) return (%s)(-(%s)a);\n"
                    "    %s q = a / b;\n"
                    "    if ((a %% b != 0) && ((a < 0) != (b < 0))) q -= 1;\n"
                    "    return q;\n}\n",
                    T, tag, T, T, T, U, T);
            else
                lc_sb_printf(sb,
                    "static inline %s lc_floordiv_%s(%s a, %s b) { return b == 0 ? 0 : a / b; }\n",
                    T, tag, T, T);
        }
        if (need & LC_H_MOD) {
            if (k == 'f')
                lc_sb_printf(sb,
                    "/* NumPy's remainder for floats: the sign of the divisor. */\n"
                    "static inline %s lc_mod_%s(%s a, %s b) {\n"
                    "    if (b == 0) return fmod(a, b);\n"
                    "    %s m = fmod(a, b);\n"
                    "    if (m != 0) { if ((b < 0) != (m < 0)) m += b; }\n"
                    "    else m = copysign((%s)0, b);\n"
                    "    return m;\n}\n",
                    T, tag, T, T, T, T);
            else if (k == 'i')
                lc_sb_printf(sb,
                    "/* Python's modulo: the sign of the divisor; x %% 0 is 0, as NumPy. */\n"
                    "static inline %s lc_mod_%s(%s a, %s b) {\n"
                    "    if (b == 0 || b == -1) return 0;\n"
                    "    %s r = a %% b;\n"
                    "    if (r != 0 && ((r < 0) != (b < 0))) r += b;\n"
                    "    return r;\n}\n",
                    T, tag, T, T, T);
            else
                lc_sb_printf(sb,
                    "static inline %s lc_mod_%s(%s a, %s b) { return b == 0 ? 0 : a %% b; }\n",
                    T, tag, T, T);
        }
        if (need & LC_H_POW)
            lc_sb_printf(sb,
                "/* Integer power by squaring, wrapping like NumPy; a negative exponent\n"
                "   gives 1/a**-b truncated (NumPy refuses those up front). */\n"
                "static inline %s lc_pow_%s(%s a, %s b) {\n"
                "    if (%s) return (a == 1) ? 1 : (a == (%s)-1 ? (((-b) & 1) ? a : 1) : 0);\n"
                "    %s r = 1, x = (%s)a;\n"
                "    %s e = (%s)b;\n"
                "    while (e) { if (e & 1) r *= x; x *= x; e >>= 1; }\n"
                "    return (%s)r;\n}\n",
                T, tag, T, T, k == 'i' ? "b < 0" : "0", T, U, U, U, U, T);
        if (need & LC_H_SHL)
            lc_sb_printf(sb,
                "static inline %s lc_shl_%s(%s a, %s b) {\n"
                "    return (%s || b >= %d) ? 0 : (%s)((%s)a << b);\n}\n",
                T, tag, T, T, k == 'i' ? "b < 0" : "0", bits, T, U);
        if (need & LC_H_SHR)
            lc_sb_printf(sb,
                "static inline %s lc_shr_%s(%s a, %s b) {\n"
                "    return (%s || b >= %d) ? (%s) : (%s)(a >> b);\n}\n",
                T, tag, T, T, k == 'i' ? "b < 0" : "0", bits,
                k == 'i' ? "a < 0 ? -1 : 0" : "0", T);
        if (need & LC_H_GCD) {
            /* The magnitudes in 64 bits (|MIN| is exact there); the result wraps
             * into T, so gcd(MIN, 0) is MIN and lcm wraps, as NumPy's. */
            if (k == 'i')
                lc_sb_printf(sb,
                    "static inline ulong lc_mag_%s(%s a) {\n"
                    "    return a < 0 ? (ulong)0 - (ulong)(long)a : (ulong)a;\n}\n", tag, T);
            else
                lc_sb_printf(sb,
                    "static inline ulong lc_mag_%s(%s a) { return (ulong)a; }\n", tag, T);
            lc_sb_printf(sb,
                "/* NumPy's gcd: Euclid's algorithm on the magnitudes. */\n"
                "static inline ulong lc_gcdu_%s(ulong x, ulong y) {\n"
                "    while (x != 0) { ulong c = x; x = y %% x; y = c; }\n"
                "    return y;\n}\n"
                "static inline %s lc_gcd_%s(%s a, %s b) {\n"
                "    return (%s)lc_gcdu_%s(lc_mag_%s(a), lc_mag_%s(b));\n}\n",
                tag, T, tag, T, T, T, tag, tag, tag);
        }
        if (need & LC_H_LCM)
            lc_sb_printf(sb,
                "/* NumPy's lcm: |a| / gcd * |b| (0 when both are 0), wrapping. */\n"
                "static inline %s lc_lcm_%s(%s a, %s b) {\n"
                "    ulong x = lc_mag_%s(a), y = lc_mag_%s(b), g = lc_gcdu_%s(x, y);\n"
                "    return g == 0 ? (%s)0 : (%s)(x / g * y);\n}\n",
                T, tag, T, T, tag, tag, tag, T, T);
    }
}
