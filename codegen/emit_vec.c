/* emit_vec.c: exprs as W-lane vectors w<i> (explicit SIMD, PoCL): which ops and loads may go
 * W at a time along a dim, and their code. */
#include "codegen/cg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int lc_vec_op_ok(int op)
{
    switch (op) {
    case LC_OP_ADD: case LC_OP_SUB: case LC_OP_MUL: case LC_OP_DIV: case LC_OP_NEG:
    case LC_OP_POS: case LC_OP_ABS: case LC_OP_SQUARE: case LC_OP_RECIP: case LC_OP_CAST:
    case LC_OP_MAXIMUM: case LC_OP_MINIMUM: case LC_OP_FMAX: case LC_OP_FMIN:
    case LC_OP_FLOOR: case LC_OP_CEIL: case LC_OP_TRUNC: case LC_OP_RINT:
    case LC_OP_BUFFER: case LC_OP_CONST: case LC_OP_RANDOM:
    case LC_OP_USER:   /* lane by lane (codegen/user.c) */
        return 1;
    default:
        return lc_op_kind(op) == LC_KIND_UNARY && lc_op_template(op) != NULL &&
               op != LC_OP_LNOT;
    }
}

/* Can prologue expr i be computed W lanes at a time along dim rd (explicit SIMD)? Float
 * values of vector-safe ops, reading (if a load) contiguously or not at all along rd. */
int lc_vec_expr_ok(struct lc_cg *g, int i, int rd, int W)
{
    const struct lc_kernel *k = g->k;
    const struct lc_expr *x = &k->exprs[i];
    if (x->op == LC_OP_USER && k->kind != LC_KERNEL_REDUCE)
        return 0;
    if (x->op < 0 || !lc_vec_op_ok(x->op) || !lc_dtype_is_float(x->dtype) ||
        !lc_dtype_is_float(x->cdtype))
        return 0;
    if (x->op == LC_OP_CAST && !lc_dtype_is_float(k->exprs[x->in[0]].dtype))
        return 0;
    if (x->access >= 0) {
        const struct lc_access *a = &g->acc[x->access];
        if (a->kind == LC_ACCESS_IOTA || a->n_dyn ||
            (a->kind == LC_ACCESS_RANDOM && !lc_random_vec_ok(g, x->access, W)))
            return 0;
        if (a->kind != LC_ACCESS_CONST && lc_stclass(a->strides[rd]) == LC_ST_ANY)
            return 0;
    }
    return 1;
}

/* Is prologue expr i a load of integers or bools that W lanes may read at once: a buffer or
 * constant read contiguously or not at all along rd, whose value is neither an output nor
 * reduced nor stored, and whose every reader is a float prologue expression that is no cast?
 * Those readers convert their operands to their float compute type (lc_vcast, as the scalar
 * code's conversion), so the integer vector is only read and converted: the int64 count a
 * Dask variance's chunk step divides by, say. */
static int lc_vec_int_load_ok(struct lc_cg *g, int i, int rd)
{
    const struct lc_kernel *k = g->k;
    const struct lc_expr *x = &k->exprs[i];
    int readers = 0;
    if ((x->op != LC_OP_BUFFER && x->op != LC_OP_CONST) || x->access < 0)
        return 0;
    const struct lc_access *a = &g->acc[x->access];
    if (a->n_dyn || (a->kind != LC_ACCESS_CONST && lc_stclass(a->strides[rd]) == LC_ST_ANY))
        return 0;
    for (int o = 0; o < k->n_outputs; o++)
        if (k->outputs[o].expr == i)
            return 0;
    for (int s = 0; s < k->n_reds; s++)
        if (k->reds[s].expr == i)
            return 0;
    if (k->store_value == i || k->store_pred == i)
        return 0;
    for (int j = i + 1; j < k->n_exprs; j++) {
        const struct lc_expr *y = &k->exprs[j];
        for (int q = 0; q < y->n_in; q++) {
            if (y->in[q] != i)
                continue;
            if (y->op < 0 || y->epilogue || y->op == LC_OP_CAST || !lc_dtype_is_float(y->dtype) ||
                !lc_dtype_is_float(y->cdtype))
                return 0;
            readers++;
        }
    }
    return readers > 0;
}

/* Can the reduction loop of this kernel run W lanes at a time? Only float
 * expressions of vector-safe ops over reads that are contiguous (or
 * constant) along the single reduced dim (integer loads only where float
 * expressions read them: lc_vec_int_load_ok), and sum/max/min/mean/var. */
int lc_vec_ok(struct lc_cg *g, int rd)
{
    const struct lc_kernel *k = g->k;
    if (!g->t->simd)
        return 0;
    int W = lc_simd_lanes(g);
    for (int i = 0; i < k->n_exprs; i++)
        if (!k->exprs[i].epilogue && !lc_vec_expr_ok(g, i, rd, W) &&
            !lc_vec_int_load_ok(g, i, rd))
            return 0;
    for (int s = 0; s < k->n_reds; s++) {
        int op = k->reds[s].op;
        if (op != LC_OP_SUM && op != LC_OP_RMAX && op != LC_OP_RMIN && op != LC_OP_MEANVAR &&
            !(op == LC_OP_SUMEXP && rd == g->nk) &&
            !(op == LC_OP_USERRED && k->reds[s].node->p.red.init))   /* lane by lane */
            return 0;
        if (!lc_dtype_is_float(k->reds[s].in_dtype))
            return 0;
    }
    return 1;
}

/* "v" converted from float dtype `from` to `to`, W lanes. */
void lc_vcast(struct lc_sb *sb, const char *v, int from, int to, int W)
{
    if (from == to)
        lc_sb_printf(sb, "%s", v);
    else
        lc_sb_printf(sb, "convert_%s%d(%s)", lc_T(to), W, v);
}

/* A float function template on W-lane operands a0, a1: on vectors wider than the target's
 * math builtins take whole (simd_math_bits), on their halves, joined again. */
static void lc_vec_math(struct lc_cg *g, struct lc_sb *sb, const struct lc_expr *x,
                        const char *a0, const char *a1, int W)
{
    int bits = 8 * (int)lc_dtype_size(x->cdtype) * W;
    if (g->t->simd_math_bits <= 0 || bits <= g->t->simd_math_bits || W <= 1) {
        const char *opv[3] = {a0, a1, "0"};
        struct lc_helpers h;
        memset(&h, 0, sizeof h);
        lc_cg_op(sb, &h, x->op, x->cdtype, x->dtype, opv);
        return;
    }
    lc_sb_printf(sb, "(%s%d)(", lc_T(x->dtype), W);
    for (int half = 0; half < 2; half++) {
        struct lc_sb h0 = {0}, h1 = {0};
        const char *part = half ? "hi" : "lo";
        lc_sb_printf(&h0, "(%s).%s", a0, part);
        lc_sb_printf(&h1, "(%s).%s", a1, part);
        lc_vec_math(g, sb, x, h0.s, h1.s, W / 2);
        lc_sb_printf(sb, half ? ")" : ", ");
        lc_sb_free(&h0);
        lc_sb_free(&h1);
    }
}

void lc_emit_exprs_vec(struct lc_cg *g, struct lc_sb *sb, int W, int rd, const char *ind)
{
    const struct lc_kernel *k = g->k;
    for (int i = 0; i < k->n_exprs; i++)
        if (!k->exprs[i].epilogue)
            lc_emit_expr_vec(g, sb, i, W, rd, ind);
}

void lc_emit_expr_vec(struct lc_cg *g, struct lc_sb *sb, int i, int W, int rd, const char *ind)
{
    const struct lc_kernel *k = g->k;
    {
        const struct lc_expr *x = &k->exprs[i];
        const char *T = lc_T(x->dtype);
        lc_sb_printf(sb, "%sconst %s%d w%d = ", ind, T, W, i);
        if (x->access >= 0) {
            const struct lc_access *a = &g->acc[x->access];
            if (a->kind == LC_ACCESS_CONST) {
                lc_sb_printf(sb, "(%s%d)(a%d_v)", T, W, x->access);
            } else if (a->kind == LC_ACCESS_RANDOM) {
                lc_random_expr_vec(g, sb, x->access, W, rd);
            } else if (lc_stclass(a->strides[rd]) == LC_ST_UNIT) {
                lc_sb_printf(sb, "vload%d(0, a%d + (", W, x->access);
                lc_addr(g, sb, x->access);
                lc_sb_printf(sb, "))");
            } else {
                lc_sb_printf(sb, "(%s%d)(a%d[", T, W, x->access);
                lc_addr(g, sb, x->access);
                lc_sb_printf(sb, "])");
            }
            lc_sb_printf(sb, ";");
            lc_describe_expr(sb, x);
            lc_sb_printf(sb, "\n");
            return;
        }
        if (x->op == LC_OP_USER) {
            lc_user_call_vec(sb, x, W);   /* its inputs are of the dtypes it declares */
            lc_sb_printf(sb, ";");
            lc_describe_expr(sb, x);
            lc_sb_printf(sb, "\n");
            return;
        }
        struct lc_sb ops[3] = {{0}};
        for (int j = 0; j < x->n_in; j++) {
            char name[32];
            const struct lc_expr *in = &k->exprs[x->in[j]];
            snprintf(name, sizeof name, "w%d", x->in[j]);
            lc_vcast(&ops[j], name, in->dtype, x->op == LC_OP_CAST ? in->dtype : x->cdtype, W);
        }
        const char *a0 = ops[0].s ? ops[0].s : "0", *a1 = x->n_in > 1 && ops[1].s ? ops[1].s : "0";
        const char *C = lc_T(x->cdtype);
        switch (x->op) {
        case LC_OP_CAST: lc_vcast(sb, a0, k->exprs[x->in[0]].dtype, x->dtype, W); break;
        case LC_OP_ADD: lc_sb_printf(sb, "(%s + %s)", a0, a1); break;
        case LC_OP_SUB: lc_sb_printf(sb, "(%s - %s)", a0, a1); break;
        case LC_OP_MUL: lc_sb_printf(sb, "(%s * %s)", a0, a1); break;
        case LC_OP_DIV: lc_sb_printf(sb, "(%s / %s)", a0, a1); break;
        case LC_OP_NEG: lc_sb_printf(sb, "(-%s)", a0); break;
        case LC_OP_POS: lc_sb_printf(sb, "%s", a0); break;
        case LC_OP_ABS: lc_sb_printf(sb, "fabs(%s)", a0); break;
        case LC_OP_SQUARE: lc_sb_printf(sb, "(%s * %s)", a0, a0); break;
        case LC_OP_RECIP: lc_sb_printf(sb, "((%s%d)(1) / %s)", C, W, a0); break;
        case LC_OP_MAXIMUM:
            lc_sb_printf(sb, "select(%s, %s, (%s >= %s) | isnan(%s))", a1, a0, a0, a1, a0);
            break;
        case LC_OP_MINIMUM:
            lc_sb_printf(sb, "select(%s, %s, (%s <= %s) | isnan(%s))", a1, a0, a0, a1, a0);
            break;
        case LC_OP_FMAX: lc_sb_printf(sb, "fmax(%s, %s)", a0, a1); break;
        case LC_OP_FMIN: lc_sb_printf(sb, "fmin(%s, %s)", a0, a1); break;
        case LC_OP_FLOOR: lc_sb_printf(sb, "floor(%s)", a0); break;
        case LC_OP_CEIL: lc_sb_printf(sb, "ceil(%s)", a0); break;
        case LC_OP_TRUNC: lc_sb_printf(sb, "trunc(%s)", a0); break;
        default:   /* a float function template such as "exp(%0)" */
            lc_vec_math(g, sb, x, a0, a1, W);
            break;
        }
        for (int j = 0; j < x->n_in; j++)
            lc_sb_free(&ops[j]);
        lc_sb_printf(sb, ";");
        lc_describe_expr(sb, x);
        lc_sb_printf(sb, "\n");
    }
}
