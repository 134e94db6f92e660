/* redstate.c: reduction states: declare, fold a value in, combine two, finalize, spill to
 * scratch and load back.
 *
 * Slot s of a kernel keeps its state in fields s<s>_a, s<s>_b, ... (one to three, see
 * lc_red_nfields). Folding is in element order and combining takes the earlier state first,
 * so a schedule that folds chunks and combines their partials in chunk order gives the same
 * bits on every run.
 *
 * A user reduction (USERRED, lazycl.ReductionKernel) keeps a value of its dtype, started from
 * its identity function's value and folded and combined alike by its combining function
 * (codegen/user.c defines both, lc_u<id>_0); without an identity a flag field _b says whether
 * the state holds a value yet.
 */
#include "codegen/cg.h"

#include "graph/userfn.h"

#include <stdio.h>
#include <string.h>

/* The accumulator type of reduction slot r. Float sums accumulate in double where the
 * device has it (float32 sums as accurate as NumPy's pairwise ones), except a product's
 * (kind 1: matmul, dot), which accumulates in its own dtype, as BLAS does: half the
 * registers and no conversions in its inner loop. */
const char *lc_red_acc(struct lc_cg *g, const struct lc_reduction *r)
{
    int T = r->in_dtype;
    switch (r->op) {
    case LC_OP_SUM: case LC_OP_PROD:
        if (lc_dtype_is_float(T))
            return r->op == LC_OP_SUM && r->kind == 1 ? lc_T(T) : g->acc_float;
        if (r->op == LC_OP_SUM && T == LC_COMPLEX64 && !strcmp(g->acc_float, "double"))
            return "double2";          /* complex64 sums accumulate in double, as float32's */
        if (lc_dtype_kind(T) == 'i')
            return lc_dtype_size(T) == 8 ? "ulong" : lc_dtype_size(T) == 4 ? "uint" : lc_T(T);
        return lc_T(T);
    case LC_OP_MEANVAR: case LC_OP_SUMEXP:
        return g->acc_float;
    case LC_OP_ANY: case LC_OP_ALL:
        return "uchar";
    default:
        return lc_T(T);
    }
}

int lc_red_nfields(const struct lc_reduction *r)
{
    switch (r->op) {
    case LC_OP_USERRED: return r->node->p.red.init ? 1 : 2;
    case LC_OP_ARGMIN: case LC_OP_ARGMAX: case LC_OP_SUMEXP: return 2;
    case LC_OP_MEANVAR: return 3;
    default: return 1;
    }
}

/* Is slot s a variance kept as sums of x - K (K = the output's first
 * element) rather than Welford's running mean? Exact in double for float32
 * data and free of a division per element; partials with the same K combine
 * by addition. Only on targets that ask for it (shifted_variance: GPUs,
 * whose fp64 divide is slow); g->shifted is set from there. Post-reductions (gemm_post.c)
 * keep Welford's: their K would be a value of the product's epilogue. */
int lc_shifted(const struct lc_cg *g, int s)
{
    const struct lc_reduction *r = &g->k->reds[s];
    return g->shifted && r->op == LC_OP_MEANVAR && r->in_dtype == LC_FLOAT32 && !r->post;
}

/* Type of field f of slot r. */
const char *lc_red_ftype(struct lc_cg *g, const struct lc_reduction *r, int f)
{
    if ((r->op == LC_OP_ARGMIN || r->op == LC_OP_ARGMAX) && f == 1)
        return "long";
    if (r->op == LC_OP_SUMEXP && f == 0)
        return lc_T(r->in_dtype);   /* the running max */
    if (r->op == LC_OP_USERRED && f == 1)
        return "uchar";             /* holds a value (no identity) */
    return lc_red_acc(g, r);
}

size_t lc_red_fsize(struct lc_cg *g, const struct lc_reduction *r, int f)
{
    const char *t = lc_red_ftype(g, r, f);
    if (!strcmp(t, "double2"))
        return 16;
    if (!strcmp(t, "double") || !strcmp(t, "long") || !strcmp(t, "ulong") || !strcmp(t, "float2"))
        return 8;
    if (!strcmp(t, "float") || !strcmp(t, "int") || !strcmp(t, "uint"))
        return 4;
    if (!strcmp(t, "short") || !strcmp(t, "ushort"))
        return 2;
    return 1;
}

const char *lc_limit(int dt, int max)
{
    switch (dt) {
    case LC_FLOAT32: case LC_FLOAT64: return max ? "INFINITY" : "-INFINITY";
    case LC_INT8: return max ? "CHAR_MAX" : "CHAR_MIN";
    case LC_INT16: return max ? "SHRT_MAX" : "SHRT_MIN";
    case LC_INT32: return max ? "INT_MAX" : "INT_MIN";
    case LC_INT64: return max ? "LONG_MAX" : "LONG_MIN";
    case LC_UINT8: return max ? "UCHAR_MAX" : "0";
    case LC_UINT16: return max ? "USHRT_MAX" : "0";
    case LC_UINT32: return max ? "UINT_MAX" : "0";
    case LC_UINT64: return max ? "ULONG_MAX" : "0";
    default: return max ? "1" : "0";
    }
}

/* Declare and initialize the state of slot s with prefix `pre` (e.g. "s0"). */
void lc_red_init_state(struct lc_cg *g, struct lc_sb *sb, int s, const char *pre,
                       const char *ind)
{
    const struct lc_reduction *r = &g->k->reds[s];
    const char *A = lc_red_acc(g, r);
    int T = r->in_dtype;
    switch (r->op) {
    case LC_OP_SUM: lc_sb_printf(sb, "%s%s %s_a = 0;\n", ind, A, pre); break;
    case LC_OP_PROD: lc_sb_printf(sb, "%s%s %s_a = %s;\n", ind, A, pre, lc_cg_one(T)); break;
    case LC_OP_ANY: lc_sb_printf(sb, "%suchar %s_a = 0;\n", ind, pre); break;
    case LC_OP_ALL: lc_sb_printf(sb, "%suchar %s_a = 1;\n", ind, pre); break;
    case LC_OP_RMAX: lc_sb_printf(sb, "%s%s %s_a = %s;\n", ind, A, pre, lc_limit(T, 0)); break;
    case LC_OP_RMIN: lc_sb_printf(sb, "%s%s %s_a = %s;\n", ind, A, pre, lc_limit(T, 1)); break;
    case LC_OP_NANMAX:
        lc_sb_printf(sb, "%s%s %s_a = %s;\n", ind, A, pre, lc_dtype_is_float(T) ? "NAN" : lc_limit(T, 0));
        break;
    case LC_OP_NANMIN:
        lc_sb_printf(sb, "%s%s %s_a = %s;\n", ind, A, pre, lc_dtype_is_float(T) ? "NAN" : lc_limit(T, 1));
        break;
    case LC_OP_ARGMIN: case LC_OP_ARGMAX:
        lc_sb_printf(sb, "%s%s %s_a = 0; long %s_b = -1;\n", ind, A, pre, pre);
        break;
    case LC_OP_MEANVAR:
        lc_sb_printf(sb, "%s%s %s_a = 0, %s_b = 0, %s_c = 0;\n", ind, A, pre, pre, pre);
        break;
    case LC_OP_SUMEXP:
        lc_sb_printf(sb, "%s%s %s_a = -INFINITY; %s %s_b = 0;\n", ind, lc_T(T), pre, A, pre);
        break;
    case LC_OP_USERRED:
        if (r->node->p.red.init)
            lc_sb_printf(sb, "%s%s %s_a = lc_u%016llx_0();\n", ind, A, pre,
                         (unsigned long long)r->node->p.red.init);
        else
            lc_sb_printf(sb, "%s%s %s_a = 0; uchar %s_b = 0;\n", ind, A, pre, pre);
        break;
    default: break;
    }
}

/* User reduction slot r: state `pre` <- fn(state, v), where the state holds a value `has`
 * ("1", or the name of a flag); else it takes v. */
static void lc_user_fold(struct lc_sb *sb, const struct lc_reduction *r, const char *pre,
                         const char *v, const char *ind)
{
    unsigned long long fn = (unsigned long long)r->node->p.red.fn;
    if (r->node->p.red.init)
        lc_sb_printf(sb, "%s%s_a = lc_u%016llx_0(%s_a, %s);\n", ind, pre, fn, pre, v);
    else
        lc_sb_printf(sb, "%sif (%s_b) %s_a = lc_u%016llx_0(%s_a, %s); else { %s_a = %s; %s_b = 1; }\n",
                     ind, pre, pre, fn, pre, v, pre, v, pre);
}

/* Fold value `v` (prologue dtype) at reduced index `idx` into state `pre`. */
void lc_red_update(struct lc_cg *g, struct lc_sb *sb, int s, const char *pre,
                   const char *v, const char *idx, const char *ind)
{
    const struct lc_reduction *r = &g->k->reds[s];
    const char *A = lc_red_acc(g, r);
    int isf = lc_dtype_is_float(r->in_dtype);
    switch (r->op) {
    case LC_OP_SUM:
        if (lc_dtype_is_complex(r->in_dtype) && strcmp(A, lc_T(r->in_dtype)))
            lc_sb_printf(sb, "%s%s_a += convert_%s(%s);\n", ind, pre, A, v);
        else
            lc_sb_printf(sb, "%s%s_a += (%s)%s;\n", ind, pre, A, v);
        break;
    case LC_OP_PROD:
        if (lc_dtype_is_complex(r->in_dtype)) {
            char acc[64];
            snprintf(acc, sizeof acc, "%s_a", pre);
            lc_cg_complex_mul_into(sb, &g->h, r->in_dtype, acc, v, ind);
            break;
        }
        lc_sb_printf(sb, "%s%s_a *= (%s)%s;\n", ind, pre, A, v);
        break;
    case LC_OP_ANY: lc_sb_printf(sb, "%s%s_a |= (%s != 0);\n", ind, pre, v); break;
    case LC_OP_ALL: lc_sb_printf(sb, "%s%s_a &= (%s != 0);\n", ind, pre, v); break;
    case LC_OP_RMAX: case LC_OP_RMIN: {
        const char *c = r->op == LC_OP_RMAX ? ">" : "<";
        if (isf)
            lc_sb_printf(sb, "%sif (%s %s %s_a || isnan(%s)) %s_a = %s;\n", ind, v, c, pre, v, pre, v);
        else
            lc_sb_printf(sb, "%sif (%s %s %s_a) %s_a = %s;\n", ind, v, c, pre, pre, v);
        break;
    }
    case LC_OP_NANMAX: case LC_OP_NANMIN: {
        const char *c = r->op == LC_OP_NANMAX ? ">" : "<";
        if (isf)
            lc_sb_printf(sb, "%sif (!isnan(%s) && (isnan(%s_a) || %s %s %s_a)) %s_a = %s;\n", ind,
                         v, pre, v, c, pre, pre, v);
        else
            lc_sb_printf(sb, "%sif (%s %s %s_a) %s_a = %s;\n", ind, v, c, pre, pre, v);
        break;
    }
    case LC_OP_ARGMAX: case LC_OP_ARGMIN: {
        const char *c = r->op == LC_OP_ARGMAX ? ">" : "<";
        if (isf)
            lc_sb_printf(sb, "%sif (%s_b < 0 || %s %s %s_a || (isnan(%s) && !isnan(%s_a))) { %s_a = %s; %s_b = %s; }\n",
                         ind, pre, v, c, pre, v, pre, pre, v, pre, idx);
        else
            lc_sb_printf(sb, "%sif (%s_b < 0 || %s %s %s_a) { %s_a = %s; %s_b = %s; }\n", ind, pre,
                         v, c, pre, pre, v, pre, idx);
        break;
    }
    case LC_OP_MEANVAR:
        if (lc_shifted(g, s))
            lc_sb_printf(sb, "%s{ const %s x_ = (%s)%s - s%d_k; %s_a += 1; %s_b += x_; %s_c += x_ * x_; }\n",
                         ind, A, A, v, s, pre, pre, pre);
        else
            lc_sb_printf(sb,
                         "%s{ const %s x_ = (%s)%s; %s_a += 1; const %s d_ = x_ - %s_b; %s_b += d_ / %s_a;"
                         " %s_c += d_ * (x_ - %s_b); }\n",
                         ind, A, A, v, pre, A, pre, pre, pre, pre, pre);
        break;
    case LC_OP_SUMEXP:
        /* _a the running max, _b the sum of exp(x - _a): rescaled when the
         * max grows; -inf adds nothing (it may not be the final max). */
        lc_sb_printf(sb, "%sif (%s > %s_a) { %s_b *= exp((%s)%s_a - (%s)%s); %s_a = %s; }\n"
                         "%sif (%s != -INFINITY) %s_b += (%s)exp(%s - %s_a);\n",
                     ind, v, pre, pre, A, pre, A, v, pre, v, ind, v, pre, A, v, pre);
        break;
    case LC_OP_USERRED:
        lc_user_fold(sb, r, pre, v, ind);
        break;
    default: break;
    }
}

/* state `pre` <- combine(state `pre` (earlier), state `o` (later)). */
void lc_red_combine(struct lc_cg *g, struct lc_sb *sb, int s, const char *pre,
                    const char *o, const char *ind)
{
    const struct lc_reduction *r = &g->k->reds[s];
    const char *A = lc_red_acc(g, r);
    int isf = lc_dtype_is_float(r->in_dtype);
    switch (r->op) {
    case LC_OP_SUM: lc_sb_printf(sb, "%s%s_a += %s_a;\n", ind, pre, o); break;
    case LC_OP_PROD: {
        char v[64];
        snprintf(v, sizeof v, "%s_a", o);
        lc_red_update(g, sb, s, pre, v, "0", ind);
        break;
    }
    case LC_OP_ANY: lc_sb_printf(sb, "%s%s_a |= %s_a;\n", ind, pre, o); break;
    case LC_OP_ALL: lc_sb_printf(sb, "%s%s_a &= %s_a;\n", ind, pre, o); break;
    case LC_OP_RMAX: case LC_OP_RMIN: case LC_OP_NANMAX: case LC_OP_NANMIN: {
        char v[64];
        snprintf(v, sizeof v, "%s_a", o);
        lc_red_update(g, sb, s, pre, v, "0", ind);
        break;
    }
    case LC_OP_ARGMAX: case LC_OP_ARGMIN: {
        const char *c = r->op == LC_OP_ARGMAX ? ">" : "<";
        if (isf)
            lc_sb_printf(sb,
                         "%sif (%s_b >= 0 && (%s_b < 0 || %s_a %s %s_a || (isnan(%s_a) && !isnan(%s_a)) ||"
                         " ((%s_a == %s_a || (isnan(%s_a) && isnan(%s_a))) && %s_b < %s_b))) { %s_a = %s_a; %s_b = %s_b; }\n",
                         ind, o, pre, o, c, pre, o, pre, o, pre, o, pre, o, pre, pre, o, pre, o);
        else
            lc_sb_printf(sb,
                         "%sif (%s_b >= 0 && (%s_b < 0 || %s_a %s %s_a || (%s_a == %s_a && %s_b < %s_b))) {"
                         " %s_a = %s_a; %s_b = %s_b; }\n",
                         ind, o, pre, o, c, pre, o, pre, o, pre, pre, o, pre, o);
        break;
    }
    case LC_OP_MEANVAR:
        if (lc_shifted(g, s)) {
            lc_sb_printf(sb, "%s%s_a += %s_a; %s_b += %s_b; %s_c += %s_c;\n", ind, pre, o, pre, o,
                         pre, o);
            break;
        }
        lc_sb_printf(sb,
                     "%sif (%s_a > 0) { const %s n_ = %s_a + %s_a; const %s d_ = %s_b - %s_b;"
                     " %s_b += d_ * (%s_a / n_); %s_c += %s_c + d_ * d_ * (%s_a * %s_a / n_); %s_a = n_; }\n",
                     ind, o, A, pre, o, A, o, pre, pre, o, pre, o, pre, o, pre);
        break;
    case LC_OP_SUMEXP:
        lc_sb_printf(sb, "%sif (%s_a > %s_a) { %s_b = %s_b * exp((%s)%s_a - (%s)%s_a) + %s_b; %s_a = %s_a; }\n"
                         "%selse if (%s_a != -INFINITY) %s_b += %s_b * exp((%s)%s_a - (%s)%s_a);\n",
                     ind, o, pre, pre, pre, A, pre, A, o, o, pre, o,
                     ind, o, pre, o, A, o, A, pre);
        break;
    case LC_OP_USERRED: {
        char v[64];
        snprintf(v, sizeof v, "%s_a", o);
        if (r->node->p.red.init) {
            lc_user_fold(sb, r, pre, v, ind);
        } else {
            char in2[64];
            snprintf(in2, sizeof in2, "%s    ", ind);
            lc_sb_printf(sb, "%sif (%s_b) {\n", ind, o);
            lc_user_fold(sb, r, pre, v, in2);
            lc_sb_printf(sb, "%s}\n", ind);
        }
        break;
    }
    default: break;
    }
}

void lc_finalize_expr(struct lc_cg *g, struct lc_sb *sb, int s)
{
    const struct lc_reduction *r = &g->k->reds[s];
    char pre[16];
    snprintf(pre, sizeof pre, "s%d", s);
    const char *R = lc_T(r->dtype);
    switch (r->op) {
    case LC_OP_ARGMIN: case LC_OP_ARGMAX:
        lc_sb_printf(sb, "%s_b", pre);
        break;
    case LC_OP_MEANVAR:
        if (lc_shifted(g, s) && r->kind == 1)
            lc_sb_printf(sb, "(%s)(%s_a > 0 ? %s_k + %s_b / %s_a : NAN)", R, pre, pre, pre, pre);
        else if (lc_shifted(g, s))
            /* (S2 - S1^2/n) / (n - ddof); rounding may dip below 0 (NaN stays NaN). */
            lc_sb_printf(sb, "(%s)lc_var_%d(%s_a, %s_b, %s_c)", R, s, pre, pre, pre);
        else if (r->kind == 1)
            lc_sb_printf(sb, "(%s)(%s_a > 0 ? %s_b : NAN)", R, pre, pre);
        else
            lc_sb_printf(sb, "(%s)(%s_c / fmax(%s_a - (%s)%d, (%s)0))", R, pre, pre, g->acc_float,
                         r->ddof, g->acc_float);
        break;
    case LC_OP_ANY: case LC_OP_ALL:
        lc_sb_printf(sb, "%s_a", pre);
        break;
    case LC_OP_SUMEXP:
        /* every value -inf: exp(-inf - -inf) is NaN in NumPy too */
        lc_sb_printf(sb, "(%s)(%s_a == -INFINITY ? (%s)NAN : %s_b)", R, pre, g->acc_float, pre);
        break;
    default:
        if (lc_dtype_is_complex(r->dtype) && strcmp(lc_red_acc(g, r), R))
            lc_sb_printf(sb, "convert_%s(%s_a)", R, pre);
        else
            lc_sb_printf(sb, "(%s)%s_a", R, pre);
        break;
    }
}

/* ---- user reductions W lanes at a time (SIMD targets; slots with an identity) -------- */

void lc_user_vec_init(struct lc_cg *g, struct lc_sb *sb, int s, const char *q, int W,
                      const char *ind)
{
    const struct lc_reduction *r = &g->k->reds[s];
    const char *A = lc_red_acc(g, r);
    lc_sb_printf(sb, "%s%s%d %s = (%s%d)(lc_u%016llx_0());\n", ind, A, W, q, A, W,
                 (unsigned long long)r->node->p.red.init);
}

void lc_user_vec_fold(struct lc_cg *g, struct lc_sb *sb, int s, const char *q, const char *v,
                      int W, const char *ind)
{
    unsigned long long fn = (unsigned long long)g->k->reds[s].node->p.red.fn;
    for (int l = 0; l < W; l++)
        lc_sb_printf(sb, "%s%s.s%x = lc_u%016llx_0(%s.s%x, %s.s%x);\n", ind, q, l, fn, q, l, v, l);
}

/* Store / load the state of slot s to / from scratch arrays at element `at`. */
void lc_red_store(struct lc_cg *g, struct lc_sb *sb, int s, const char *pre,
                  const char *at, const char *ind)
{
    const struct lc_reduction *r = &g->k->reds[s];
    for (int f = 0; f < lc_red_nfields(r); f++)
        lc_sb_printf(sb, "%s((__global %s *)(scratch + so%d_%d))[%s] = %s_%c;\n", ind,
                     lc_red_ftype(g, r, f), s, f, at, pre, 'a' + f);
}

void lc_red_load(struct lc_cg *g, struct lc_sb *sb, int s, const char *pre,
                 const char *at, const char *ind)
{
    const struct lc_reduction *r = &g->k->reds[s];
    for (int f = 0; f < lc_red_nfields(r); f++)
        lc_sb_printf(sb, "%s%s %s_%c = ((volatile __global %s *)(scratch + so%d_%d))[%s];\n", ind,
                     lc_red_ftype(g, r, f), pre, 'a' + f, lc_red_ftype(g, r, f), s, f, at);
}

/* ---- every slot at once --------------------------------------------------------------- */

/* The body that folds reduced element(s) at the current indices. `idx` is
 * the linear reduced index for arg reductions. */
void lc_fold_all(struct lc_cg *g, struct lc_sb *sb, const char *idx, const char *ind)
{
    lc_emit_exprs(g, sb, 0, ind);
    for (int s = 0; s < g->k->n_reds; s++) {
        char pre[16], v[16];
        snprintf(pre, sizeof pre, "s%d", s);
        snprintf(v, sizeof v, "v%d", g->k->reds[s].expr);
        lc_red_update(g, sb, s, pre, v, idx, ind);
    }
}

void lc_init_all(struct lc_cg *g, struct lc_sb *sb, const char *prefix, const char *ind)
{
    /* Shifted variances: K is the prologue value at reduced index 0 of this
     * output (0 when there is none), the same for every partial. */
    int any = 0;
    for (int s = 0; s < g->k->n_reds; s++)
        if (lc_shifted(g, s)) {
            lc_sb_printf(sb, "%s%s s%d_k = 0;\n", ind, lc_red_acc(g, &g->k->reds[s]), s);
            any = 1;
        }
    if (any) {
        char in2[64];
        snprintf(in2, sizeof in2, "%s    ", ind);
        lc_sb_printf(sb, "%sif (1", ind);
        for (int d = g->nk; d < g->nd; d++)
            lc_sb_printf(sb, " && n%d > 0", d);
        lc_sb_printf(sb, ") {\n");
        for (int d = g->nk; d < g->nd; d++)
            lc_sb_printf(sb, "%sconst long i%d = 0;\n", in2, d);
        lc_emit_exprs(g, sb, 0, in2);
        for (int s = 0; s < g->k->n_reds; s++)
            if (lc_shifted(g, s))
                lc_sb_printf(sb, "%ss%d_k = (%s)v%d;\n", in2, s, lc_red_acc(g, &g->k->reds[s]),
                             g->k->reds[s].expr);
        lc_sb_printf(sb, "%s}\n", ind);
    }
    for (int s = 0; s < g->k->n_reds; s++) {
        char pre[16];
        snprintf(pre, sizeof pre, "%s%d", prefix, s);
        lc_red_init_state(g, sb, s, pre, ind);
    }
}

void lc_red_helpers(struct lc_cg *g, struct lc_sb *sb)
{
    const struct lc_kernel *k = g->k;
    for (int s = 0; s < k->n_reds; s++)
        if (lc_shifted(g, s)) {
            const char *A = lc_red_acc(g, &k->reds[s]);
            lc_sb_printf(sb,
                         "static inline %s lc_var_%d(%s n, %s s1, %s s2) {\n"
                         "    const %s v = (s2 - s1 * s1 / n) / fmax(n - (%s)%d, (%s)0);\n"
                         "    return v < 0 ? (%s)0 : v;\n}\n",
                         A, s, A, A, A, A, A, k->reds[s].ddof, A, A);
        }
}
