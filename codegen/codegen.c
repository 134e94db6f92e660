/* codegen.c: plan kernels -> OpenCL C (map, reduce and scan schedules per device kind). */
#include "codegen/codegen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

/* Stride classes, part of the kernel's structure (and so of its source). */
enum { LC_ST_ZERO = 0, LC_ST_UNIT = 1, LC_ST_ANY = 2 };

struct lc_cg {
    const struct lc_plan *p;
    const struct lc_kernel *k;
    const struct lc_target *t;
    struct lc_error *e;
    /* The index space after collapsing: dims [0, nk) kept, [nk, nd) reduced
     * (REDUCE) or the scanned axis (SCAN, nd - 1). MAP: nk == nd. */
    int nd, nk;
    int64_t shape[LC_MAXDIM];
    struct lc_access *acc;              /* copies, strides collapsed */
    int64_t (*ostr)[LC_MAXDIM];         /* output strides, collapsed */
    struct lc_helpers h;
    int f64;                            /* the source needs doubles */
    int lane;                           /* >= 0: buffer reads come from registers t<a>.s<lane> */
    int lane_dim;                       /* ... for reads with stride 1 along this dim */
    int shifted;                        /* GPU: float32 var/std as shifted sums (no divide per element) */
    const char *acc_float;              /* float accumulator type: "double" or "float" */
};

static const char *lc_T(int dt) { return lc_dtype_cl(dt); }

/* ---- collapsing dims ---------------------------------------------------------------- */

/* Remove dim d from every stride vector that covers it. */
static void lc_drop_dim(struct lc_cg *g, int d)
{
    const struct lc_kernel *k = g->k;
    for (int a = 0; a < k->n_access; a++) {
        int cover = g->acc[a].epilogue ? g->nk : g->nd;
        if (d < cover)
            memmove(&g->acc[a].strides[d], &g->acc[a].strides[d + 1],
                    (size_t)(cover - d - 1) * sizeof(int64_t));
    }
    int ocover = k->kind == LC_KERNEL_REDUCE ? g->nk : g->nd;
    for (int o = 0; o < k->n_outputs; o++)
        if (d < ocover)
            memmove(&g->ostr[o][d], &g->ostr[o][d + 1], (size_t)(ocover - d - 1) * sizeof(int64_t));
    memmove(&g->shape[d], &g->shape[d + 1], (size_t)(g->nd - d - 1) * sizeof(int64_t));
    g->nd--;
    if (d < g->nk)
        g->nk--;
}

/* Can dims d and d+1 (same group) merge for every vector covering them? */
static int lc_mergeable(struct lc_cg *g, int d)
{
    const struct lc_kernel *k = g->k;
    for (int a = 0; a < k->n_access; a++) {
        int cover = g->acc[a].epilogue ? g->nk : g->nd;
        if (d + 1 < cover && g->acc[a].strides[d] != g->acc[a].strides[d + 1] * g->shape[d + 1])
            return 0;
    }
    int ocover = k->kind == LC_KERNEL_REDUCE ? g->nk : g->nd;
    for (int o = 0; o < k->n_outputs; o++)
        if (d + 1 < ocover && g->ostr[o][d] != g->ostr[o][d + 1] * g->shape[d + 1])
            return 0;
    return 1;
}

static void lc_collapse_group(struct lc_cg *g, int lo, int *hi)
{
    /* Drop dims of extent 1 (their index is always 0), keeping at least none. */
    for (int d = *hi - 1; d >= lo; d--)
        if (g->shape[d] == 1) {
            lc_drop_dim(g, d);
            (*hi)--;
        }
    for (int d = *hi - 2; d >= lo; d--) {
        if (!lc_mergeable(g, d))
            continue;
        int64_t inner = g->shape[d + 1];
        /* Merge d+1 into d: the merged stride is the inner one. */
        const struct lc_kernel *k = g->k;
        for (int a = 0; a < k->n_access; a++) {
            int cover = g->acc[a].epilogue ? g->nk : g->nd;
            if (d + 1 < cover)
                g->acc[a].strides[d] = g->acc[a].strides[d + 1];
        }
        int ocover = k->kind == LC_KERNEL_REDUCE ? g->nk : g->nd;
        for (int o = 0; o < k->n_outputs; o++)
            if (d + 1 < ocover)
                g->ostr[o][d] = g->ostr[o][d + 1];
        g->shape[d] *= inner;
        /* Now drop d+1 without touching the merged values. */
        lc_drop_dim(g, d + 1);
        (*hi)--;
    }
}

static void lc_collapse(struct lc_cg *g)
{
    const struct lc_kernel *k = g->k;
    if (k->kind == LC_KERNEL_MAP) {
        int hi = g->nd;
        lc_collapse_group(g, 0, &hi);
        g->nk = g->nd;
        return;
    }
    if (k->kind == LC_KERNEL_SCAN) {
        /* The scanned axis (last) stays on its own, even of extent 1. */
        int hi = g->nd - 1;
        int nd_before = g->nd;
        g->nk = g->nd; /* outputs and accesses cover every dim */
        lc_collapse_group(g, 0, &hi);
        (void)nd_before;
        g->nk = g->nd;
        return;
    }
    /* REDUCE: kept dims, then reduced dims. */
    int hi = g->nk;
    lc_collapse_group(g, 0, &hi);
    int hi2 = g->nd;
    lc_collapse_group(g, g->nk, &hi2);
}

/* ---- arguments ---------------------------------------------------------------------- */

static int lc_add_arg(struct lc_launch *l, enum lc_cgarg_kind kind, int index, int dtype,
                      union lc_scalar v)
{
    if (l->n_args == l->cap_args) {
        int ncap = l->cap_args ? l->cap_args * 2 : 16;
        void *na = realloc(l->args, (size_t)ncap * sizeof *l->args);
        if (!na)
            return -1;
        l->args = na;
        l->cap_args = ncap;
    }
    l->args[l->n_args++] = (struct lc_cgarg){kind, index, dtype, v, LC_FROM_STRUCTURE, -1};
    return 0;
}

/* A scalar argument taken from access a's leaf (its value or its step). */
static int lc_add_leaf_arg(struct lc_launch *l, int a, enum lc_cgarg_from from, int dtype,
                           union lc_scalar v)
{
    if (lc_add_arg(l, LC_CGARG_SCALAR, 0, dtype, v) < 0)
        return -1;
    l->args[l->n_args - 1].from = from;
    l->args[l->n_args - 1].access = a;
    return 0;
}

static int lc_add_i64(struct lc_launch *l, int64_t x)
{
    union lc_scalar v;
    v.i = x;
    return lc_add_arg(l, LC_CGARG_SCALAR, 0, LC_INT64, v);
}

static int lc_stclass(int64_t s)
{
    return s == 0 ? LC_ST_ZERO : s == 1 ? LC_ST_UNIT : LC_ST_ANY;
}

/* The float type for IOTA arithmetic and float accumulators. */
static const char *lc_iota_type(struct lc_cg *g, int dt)
{
    if (lc_dtype_is_float(dt))
        return g->acc_float;
    return lc_T(dt);
}

/* Parameters shared by every launch of a kernel: outputs, reads, shape. */
static int lc_common_params(struct lc_cg *g, struct lc_launch *l, struct lc_sb *sb)
{
    const struct lc_kernel *k = g->k;
    union lc_scalar none = {0};
    const char *sep = "";
    for (int o = 0; o < k->n_outputs; o++) {
        lc_sb_printf(sb, "%s\n    __global %s *restrict out%d", sep, lc_T(k->outputs[o].dtype), o);
        sep = ",";
        if (lc_add_arg(l, LC_CGARG_TEMP, k->outputs[o].buffer, 0, none) < 0)
            return -1;
    }
    for (int a = 0; a < k->n_access; a++) {
        const struct lc_access *x = &g->acc[a];
        int cover = x->epilogue ? g->nk : g->nd;
        if (x->kind == LC_ACCESS_CONST) {
            lc_sb_printf(sb, "%s\n    const %s a%d_v", sep, lc_T(x->dtype), a);
            sep = ",";
            if (lc_add_leaf_arg(l, a, LC_FROM_VALUE, x->dtype, x->value) < 0)
                return -1;
            continue;
        }
        if (x->kind == LC_ACCESS_IOTA) {
            const char *it = lc_iota_type(g, x->dtype);
            int adt = lc_dtype_is_float(x->dtype) ? (g->f64 ? LC_FLOAT64 : LC_FLOAT32) : x->dtype;
            union lc_scalar v0 = lc_scalar_cast(x->value, x->dtype, adt);
            union lc_scalar v1 = lc_scalar_cast(x->step, x->dtype, adt);
            lc_sb_printf(sb, "%s\n    const %s a%d_v, const %s a%d_st", sep, it, a, it, a);
            sep = ",";
            if (lc_add_leaf_arg(l, a, LC_FROM_VALUE, adt, v0) < 0 ||
                lc_add_leaf_arg(l, a, LC_FROM_STEP, adt, v1) < 0)
                return -1;
        } else {
            lc_sb_printf(sb, "%s\n    __global const %s *restrict a%d", sep, lc_T(x->dtype), a);
            sep = ",";
            if (lc_add_arg(l, x->kind == LC_ACCESS_INPUT ? LC_CGARG_INPUT : LC_CGARG_TEMP,
                           x->source, 0, none) < 0)
                return -1;
        }
        lc_sb_printf(sb, ", const long a%d_o", a);
        if (lc_add_i64(l, x->offset) < 0)
            return -1;
        for (int d = 0; d < cover; d++)
            if (lc_stclass(x->strides[d]) == LC_ST_ANY) {
                lc_sb_printf(sb, ", const long a%d_s%d", a, d);
                if (lc_add_i64(l, x->strides[d]) < 0)
                    return -1;
            }
    }
    for (int d = 0; d < g->nd; d++) {
        lc_sb_printf(sb, "%s\n    const long n%d", sep, d);
        sep = ",";
        if (lc_add_i64(l, g->shape[d]) < 0)
            return -1;
    }
    return 0;
}

/* The address of access a at index vars i0..: "a3_o + i0 * a3_s0 + i1". */
static void lc_addr(struct lc_cg *g, struct lc_sb *sb, int a)
{
    const struct lc_access *x = &g->acc[a];
    int cover = x->epilogue ? g->nk : g->nd;
    lc_sb_printf(sb, "a%d_o", a);
    for (int d = 0; d < cover; d++) {
        int c = lc_stclass(x->strides[d]);
        if (c == LC_ST_UNIT)
            lc_sb_printf(sb, " + i%d", d);
        else if (c == LC_ST_ANY)
            lc_sb_printf(sb, " + i%d * a%d_s%d", d, a, d);
    }
}

/* ---- expressions ------------------------------------------------------------------ */

static void lc_describe_expr(struct lc_sb *sb, const struct lc_expr *x)
{
    if (!x->node)
        return;
    lc_sb_printf(sb, " /* %s%s */", x->op == LC_EXPR_REDUCED ? "result of " : "",
                 lc_op_name(x->node->op));
}

static void lc_finalize_expr(struct lc_cg *g, struct lc_sb *sb, int slot);

/* A comparison of a signed integer with a uint64: NumPy 2 compares the
 * values exactly (their common type, float64, would round past 2**53). */
static int lc_mixed_cmp(const struct lc_kernel *k, const struct lc_expr *x)
{
    if (x->op != LC_OP_EQ && x->op != LC_OP_NE && x->op != LC_OP_LT && x->op != LC_OP_LE &&
        x->op != LC_OP_GT && x->op != LC_OP_GE)
        return 0;
    int a = k->exprs[x->in[0]].dtype, b = k->exprs[x->in[1]].dtype;
    return (lc_dtype_kind(a) == 'i' && b == LC_UINT64) ||
           (lc_dtype_kind(b) == 'i' && a == LC_UINT64);
}

static void lc_emit_mixed_cmp(struct lc_sb *sb, const struct lc_kernel *k, const struct lc_expr *x)
{
    int op = x->op, sa = x->in[0], ub = x->in[1];
    if (lc_dtype_kind(k->exprs[sa].dtype) != 'i') {
        /* Put the signed operand first: u < s is s > u. */
        int t = sa;
        sa = ub;
        ub = t;
        op = op == LC_OP_LT ? LC_OP_GT : op == LC_OP_GT ? LC_OP_LT :
             op == LC_OP_LE ? LC_OP_GE : op == LC_OP_GE ? LC_OP_LE : op;
    }
    const char *sym = op == LC_OP_EQ ? "==" : op == LC_OP_NE ? "!=" : op == LC_OP_LT ? "<" :
                      op == LC_OP_LE ? "<=" : op == LC_OP_GT ? ">" : ">=";
    /* A negative s is below every u. */
    int neg_true = op == LC_OP_NE || op == LC_OP_LT || op == LC_OP_LE;
    lc_sb_printf(sb, "(uchar)(((long)v%d < 0) ? %d : ((ulong)v%d %s v%d))", sa, neg_true, sa, sym, ub);
}

/* Emit every expr of the given phase (0 prologue / whole map; 1 epilogue). */
static void lc_emit_exprs(struct lc_cg *g, struct lc_sb *sb, int phase, const char *ind)
{
    const struct lc_kernel *k = g->k;
    for (int i = 0; i < k->n_exprs; i++) {
        const struct lc_expr *x = &k->exprs[i];
        if (x->epilogue != phase)
            continue;
        lc_sb_printf(sb, "%sconst %s v%d = ", ind, lc_T(x->dtype), i);
        if (x->op == LC_EXPR_REDUCED) {
            lc_finalize_expr(g, sb, x->slot);
        } else if (x->access >= 0) {
            const struct lc_access *a = &g->acc[x->access];
            if (a->kind == LC_ACCESS_CONST) {
                lc_sb_printf(sb, "a%d_v", x->access);
            } else if (a->kind == LC_ACCESS_IOTA) {
                lc_sb_printf(sb, "(%s)(a%d_v + a%d_st * (%s)(", lc_T(x->dtype), x->access,
                             x->access, lc_iota_type(g, x->dtype));
                lc_addr(g, sb, x->access);
                lc_sb_printf(sb, "))");
            } else if (g->lane >= 0 && a->strides[g->lane_dim] == 1) {
                lc_sb_printf(sb, "t%d.s%d", x->access, g->lane);
            } else {
                lc_sb_printf(sb, "a%d[", x->access);
                lc_addr(g, sb, x->access);
                lc_sb_printf(sb, "]");
            }
        } else if (lc_mixed_cmp(k, x)) {
            lc_emit_mixed_cmp(sb, k, x);
        } else {
            char names[3][64];
            struct lc_sb ops[3] = {{0}};
            const char *opv[3];
            for (int j = 0; j < x->n_in; j++) {
                const struct lc_expr *in = &k->exprs[x->in[j]];
                snprintf(names[j], sizeof names[j], "v%d", x->in[j]);
                int to = x->cdtype;
                if (x->op == LC_OP_CAST || (x->op == LC_OP_WHERE && j == 0))
                    to = in->dtype;
                lc_cg_cast(&ops[j], names[j], in->dtype, to);
                opv[j] = ops[j].s ? ops[j].s : "0";
            }
            int ct = x->op == LC_OP_CAST ? k->exprs[x->in[0]].dtype : x->cdtype;
            lc_cg_op(sb, &g->h, x->op, ct, x->dtype, opv);
            for (int j = 0; j < x->n_in; j++)
                lc_sb_free(&ops[j]);
        }
        lc_sb_printf(sb, ";");
        lc_describe_expr(sb, x);
        lc_sb_printf(sb, "\n");
    }
}

/* ---- reductions: state, update, combine, finalize ----------------------------------- */

/* The accumulator type of reduction slot r. */
static const char *lc_red_acc(struct lc_cg *g, const struct lc_reduction *r)
{
    int T = r->in_dtype;
    switch (r->op) {
    case LC_OP_SUM: case LC_OP_PROD:
        if (lc_dtype_is_float(T))
            return g->acc_float;
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

static int lc_red_nfields(const struct lc_reduction *r)
{
    switch (r->op) {
    case LC_OP_ARGMIN: case LC_OP_ARGMAX: case LC_OP_SUMEXP: return 2;
    case LC_OP_MEANVAR: return 3;
    default: return 1;
    }
}

/* Is slot s a variance kept as sums of x - K (K = the output's first
 * element) rather than Welford's running mean? Exact in double for float32
 * data and free of a division per element; partials with the same K combine
 * by addition. GPU kernels only (their fp64 divide is slow). */
static int lc_shifted(const struct lc_cg *g, int s)
{
    const struct lc_reduction *r = &g->k->reds[s];
    return g->shifted && r->op == LC_OP_MEANVAR && r->in_dtype == LC_FLOAT32;
}

/* Type of field f of slot r. */
static const char *lc_red_ftype(struct lc_cg *g, const struct lc_reduction *r, int f)
{
    if ((r->op == LC_OP_ARGMIN || r->op == LC_OP_ARGMAX) && f == 1)
        return "long";
    if (r->op == LC_OP_SUMEXP && f == 0)
        return lc_T(r->in_dtype);   /* the running max */
    return lc_red_acc(g, r);
}

static size_t lc_red_fsize(struct lc_cg *g, const struct lc_reduction *r, int f)
{
    const char *t = lc_red_ftype(g, r, f);
    if (!strcmp(t, "double") || !strcmp(t, "long") || !strcmp(t, "ulong"))
        return 8;
    if (!strcmp(t, "float") || !strcmp(t, "int") || !strcmp(t, "uint"))
        return 4;
    if (!strcmp(t, "short") || !strcmp(t, "ushort"))
        return 2;
    return 1;
}

static const char *lc_limit(int dt, int max)
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
static void lc_red_init(struct lc_cg *g, struct lc_sb *sb, int s, const char *pre,
                        const char *ind)
{
    const struct lc_reduction *r = &g->k->reds[s];
    const char *A = lc_red_acc(g, r);
    int T = r->in_dtype;
    switch (r->op) {
    case LC_OP_SUM: lc_sb_printf(sb, "%s%s %s_a = 0;\n", ind, A, pre); break;
    case LC_OP_PROD: lc_sb_printf(sb, "%s%s %s_a = 1;\n", ind, A, pre); break;
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
    default: break;
    }
}

/* Fold value `v` (prologue dtype) at reduced index `idx` into state `pre`. */
static void lc_red_update(struct lc_cg *g, struct lc_sb *sb, int s, const char *pre,
                          const char *v, const char *idx, const char *ind)
{
    const struct lc_reduction *r = &g->k->reds[s];
    const char *A = lc_red_acc(g, r);
    int isf = lc_dtype_is_float(r->in_dtype);
    switch (r->op) {
    case LC_OP_SUM: lc_sb_printf(sb, "%s%s_a += (%s)%s;\n", ind, pre, A, v); break;
    case LC_OP_PROD: lc_sb_printf(sb, "%s%s_a *= (%s)%s;\n", ind, pre, A, v); break;
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
    default: break;
    }
}

/* state `pre` <- combine(state `pre` (earlier), state `o` (later)). */
static void lc_red_combine(struct lc_cg *g, struct lc_sb *sb, int s, const char *pre,
                           const char *o, const char *ind)
{
    const struct lc_reduction *r = &g->k->reds[s];
    const char *A = lc_red_acc(g, r);
    int isf = lc_dtype_is_float(r->in_dtype);
    switch (r->op) {
    case LC_OP_SUM: lc_sb_printf(sb, "%s%s_a += %s_a;\n", ind, pre, o); break;
    case LC_OP_PROD: lc_sb_printf(sb, "%s%s_a *= %s_a;\n", ind, pre, o); break;
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
    default: break;
    }
}

static void lc_finalize_expr(struct lc_cg *g, struct lc_sb *sb, int s)
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
        lc_sb_printf(sb, "(%s)%s_a", R, pre);
        break;
    }
}

/* Store / load the state of slot s to / from scratch arrays at element `at`. */
static void lc_red_store(struct lc_cg *g, struct lc_sb *sb, int s, const char *pre,
                         const char *at, const char *ind)
{
    const struct lc_reduction *r = &g->k->reds[s];
    for (int f = 0; f < lc_red_nfields(r); f++)
        lc_sb_printf(sb, "%s((__global %s *)(scratch + so%d_%d))[%s] = %s_%c;\n", ind,
                     lc_red_ftype(g, r, f), s, f, at, pre, 'a' + f);
}

static void lc_red_load(struct lc_cg *g, struct lc_sb *sb, int s, const char *pre,
                        const char *at, const char *ind)
{
    const struct lc_reduction *r = &g->k->reds[s];
    for (int f = 0; f < lc_red_nfields(r); f++)
        lc_sb_printf(sb, "%s%s %s_%c = ((volatile __global %s *)(scratch + so%d_%d))[%s];\n", ind,
                     lc_red_ftype(g, r, f), pre, 'a' + f, lc_red_ftype(g, r, f), s, f, at);
}

/* ---- index helpers ------------------------------------------------------------------ */

/* Declare i<lo>..i<hi-1> from a linear index `lin` over those dims. */
static void lc_unravel(struct lc_sb *sb, int lo, int hi, const char *lin, const char *ind)
{
    if (hi - lo == 1) {
        lc_sb_printf(sb, "%sconst long i%d = %s;\n", ind, lo, lin);
        return;
    }
    lc_sb_printf(sb, "%slong r_ = %s;\n", ind, lin);
    for (int d = hi - 1; d >= lo; d--) {
        if (d == lo)
            lc_sb_printf(sb, "%sconst long i%d = r_;\n", ind, d);
        else
            lc_sb_printf(sb, "%sconst long i%d = r_ %% n%d; r_ /= n%d;\n", ind, d, d, d);
    }
}

static void lc_store_outputs(struct lc_cg *g, struct lc_sb *sb, const char *ind, int cover)
{
    const struct lc_kernel *k = g->k;
    for (int o = 0; o < k->n_outputs; o++) {
        lc_sb_printf(sb, "%sout%d[", ind, o);
        int any = 0;
        for (int d = 0; d < cover; d++) {
            int64_t st = g->ostr[o][d];
            if (st == 0)
                continue;
            /* Output strides are row-major over the collapsed dims, except for
             * scans, whose scanned axis was moved last. */
            if (any)
                lc_sb_printf(sb, " + ");
            if (st == 1)
                lc_sb_printf(sb, "i%d", d);
            else
                lc_sb_printf(sb, "i%d * os%d_%d", d, o, d);
            any = 1;
        }
        if (!any)
            lc_sb_printf(sb, "0");
        lc_sb_printf(sb, "] = v%d;\n", k->outputs[o].expr);
    }
}

static int lc_output_stride_params(struct lc_cg *g, struct lc_launch *l, struct lc_sb *sb,
                                   int cover)
{
    for (int o = 0; o < g->k->n_outputs; o++)
        for (int d = 0; d < cover; d++)
            if (lc_stclass(g->ostr[o][d]) == LC_ST_ANY) {
                lc_sb_printf(sb, ", const long os%d_%d", o, d);
                if (lc_add_i64(l, g->ostr[o][d]) < 0)
                    return -1;
            }
    return 0;
}

static struct lc_launch *lc_new_launch(struct lc_kcode *c, const char *suffix)
{
    struct lc_launch *nl = realloc(c->launches, (size_t)(c->n_launches + 1) * sizeof *nl);
    if (!nl)
        return NULL;
    c->launches = nl;
    struct lc_launch *l = &nl[c->n_launches++];
    memset(l, 0, sizeof *l);
    snprintf(l->name, sizeof l->name, "%s", suffix);
    return l;
}

static size_t lc_round_up(size_t x, size_t m)
{
    return (x + m - 1) / m * m;
}

/* ---- MAP --------------------------------------------------------------------------- */

/* "out<o> + i0 * os<o>_0 + ... + i<in>": output o's address at the start of
 * a run along its contiguous dim `in` (strides as lc_output_stride_params
 * declares them). */
static void lc_out_row_addr(struct lc_cg *g, struct lc_sb *sb, int o, int in)
{
    lc_sb_printf(sb, "out%d + ", o);
    for (int d = 0; d < in; d++) {
        int c = lc_stclass(g->ostr[o][d]);
        if (c == LC_ST_UNIT)
            lc_sb_printf(sb, "i%d + ", d);
        else if (c == LC_ST_ANY)
            lc_sb_printf(sb, "i%d * os%d_%d + ", d, o, d);
    }
    lc_sb_printf(sb, "i%d", in);
}

/* GPU maps whose reads and writes are all contiguous 1-d runs starting at a
 * multiple of 4 elements take four elements per item with 16-byte accesses
 * (one float per item leaves bandwidth unused on large GPUs). */
static int lc_map_vec4(struct lc_cg *g)
{
    if (!g->t->gpu || g->nd != 1 || g->shape[0] < 4)
        return 0;
    for (int a = 0; a < g->k->n_access; a++) {
        const struct lc_access *x = &g->acc[a];
        if (x->kind == LC_ACCESS_CONST)
            continue;
        if (x->kind == LC_ACCESS_IOTA)
            return 0;
        if (x->strides[0] == 0)
            continue;   /* a broadcast value: one scalar load per item */
        if (x->strides[0] != 1 || x->offset % 4 != 0)
            return 0;
    }
    return 1;
}

/* The outputs ov<o> of four lanes, each lane's exprs reading loads with
 * stride 1 along `dim` from registers t<a>.s<lane>. */
static void lc_emit_four_lanes(struct lc_cg *g, struct lc_sb *sb, int dim, const char *ind)
{
    const struct lc_kernel *k = g->k;
    char in2[64];
    snprintf(in2, sizeof in2, "%s    ", ind);
    for (int o = 0; o < k->n_outputs; o++)
        lc_sb_printf(sb, "%s%s4 ov%d;\n", ind, lc_T(k->outputs[o].dtype), o);
    g->lane_dim = dim;
    for (int u = 0; u < 4; u++) {
        g->lane = u;
        lc_sb_printf(sb, "%s{\n", ind);
        lc_emit_exprs(g, sb, 0, in2);
        for (int o = 0; o < k->n_outputs; o++)
            lc_sb_printf(sb, "%sov%d.s%d = v%d;\n", in2, o, u, k->outputs[o].expr);
        lc_sb_printf(sb, "%s}\n", ind);
    }
    g->lane = -1;
    g->lane_dim = 0;
}

/* GPU maps over 2-3 dims whose rows (the innermost dim) are a multiple of 4
 * long, read contiguously (or broadcast) and start 16-byte aligned: four
 * elements of a row per item with 16-byte accesses, no tail. */
static int lc_map_vec4_rows(struct lc_cg *g)
{
    int nd = g->nd, in = nd - 1;
    if (!g->t->gpu || nd < 2 || nd > 3 || g->shape[in] % 4 != 0 || g->shape[in] == 0)
        return 0;
    for (int a = 0; a < g->k->n_access; a++) {
        const struct lc_access *x = &g->acc[a];
        if (x->kind == LC_ACCESS_CONST)
            continue;
        if (x->kind == LC_ACCESS_IOTA)
            return 0;
        if (x->strides[in] == 0)
            continue;
        if (x->strides[in] != 1 || x->offset % 4 != 0)
            return 0;
        for (int d = 0; d < in; d++)
            if (x->strides[d] % 4 != 0)
                return 0;
    }
    for (int o = 0; o < g->k->n_outputs; o++) {
        if (g->ostr[o][in] != 1)
            return 0;
        for (int d = 0; d < in; d++)
            if (g->ostr[o][d] % 4 != 0)
                return 0;
    }
    return 1;
}

static int lc_gen_map_vec4_rows(struct lc_cg *g, struct lc_kcode *c, struct lc_sb *sb,
                                struct lc_launch *l)
{
    const struct lc_kernel *k = g->k;
    int nd = g->nd, in = nd - 1;
    size_t wg = g->t->max_work_group < 256 ? g->t->max_work_group : 256;
    if (wg == 0)
        wg = 1;
    for (int d = 0; d < in; d++) {
        lc_sb_printf(sb, "    const long i%d = get_global_id(%d);\n", d, nd - 1 - d);
        l->global[nd - 1 - d] = (size_t)g->shape[d];
    }
    lc_sb_printf(sb, "    const long q_ = get_global_id(0);\n"
                     "    if (q_ * 4 >= n%d) return;\n"
                     "    const long i%d = q_ * 4;\n", in, in);
    l->work_dim = (unsigned)nd;
    l->use_local = 1;
    l->local[0] = wg;
    l->local[1] = l->local[2] = 1;
    l->global[0] = lc_round_up((size_t)(g->shape[in] / 4), wg);
    for (int a = 0; a < k->n_access; a++)
        if (g->acc[a].kind != LC_ACCESS_CONST && g->acc[a].strides[in] == 1) {
            lc_sb_printf(sb, "    const %s4 t%d = *(__global const %s4 *)(a%d + ", lc_T(g->acc[a].dtype), a,
                         lc_T(g->acc[a].dtype), a);
            lc_addr(g, sb, a);
            lc_sb_printf(sb, ");\n");
        }
    lc_emit_four_lanes(g, sb, in, "    ");
    for (int o = 0; o < k->n_outputs; o++) {
        lc_sb_printf(sb, "    *(__global %s4 *)(", lc_T(k->outputs[o].dtype));
        lc_out_row_addr(g, sb, o, in);
        lc_sb_printf(sb, ") = ov%d;\n", o);
    }
    lc_sb_printf(sb, "}\n");
    snprintf(c->schedule, sizeof c->schedule, "map %d-d range, four elements of a row per item (vector loads)", nd);
    return 0;
}

static int lc_vec_ok(struct lc_cg *g, int rd);
static void lc_emit_exprs_vec(struct lc_cg *g, struct lc_sb *sb, int W, int rd, const char *ind);

/* CPU maps (PoCL) of float expressions whose reads are contiguous or constant
 * along the innermost dim: W elements per item in explicit vectors. PoCL
 * vectorizes plain arithmetic across work-items by itself but calls the
 * scalar math library per element; written as float8, exp/log/sin/tanh run
 * from its vector library (measured: exp 9.8 -> 6.8 ms, log 225 -> 16 ms at
 * 2^24 on two cores). */
static int lc_map_simd(struct lc_cg *g)
{
    const struct lc_kernel *k = g->k;
    int nd = g->nd, W = g->t->vec;
    if (g->t->gpu || W <= 1 || nd < 1 || nd > 3 || g->shape[nd - 1] < W || !lc_vec_ok(g, nd - 1))
        return 0;
    for (int o = 0; o < k->n_outputs; o++)
        if (g->ostr[o][nd - 1] != 1)
            return 0;
    return 1;
}

static int lc_gen_map_simd(struct lc_cg *g, struct lc_kcode *c, struct lc_sb *sb,
                           struct lc_launch *l)
{
    const struct lc_kernel *k = g->k;
    int nd = g->nd, W = g->t->vec, in = nd - 1;
    for (int d = 0; d < nd; d++) {
        l->global[nd - 1 - d] = (size_t)g->shape[d];
        if (d < in)
            lc_sb_printf(sb, "    const long i%d = get_global_id(%d);\n", d, nd - 1 - d);
    }
    /* No tail branch (it costs PoCL's work-group vectorizer a third of the
     * time): the last item of a row starts at n - W and so recomputes up to
     * W - 1 elements of its neighbour, writing the same values (outputs
     * never alias inputs). */
    l->global[0] = (size_t)((g->shape[in] + W - 1) / W);
    l->work_dim = (unsigned)nd;
    lc_sb_printf(sb, "    const long i%d = min((long)get_global_id(0) * %d, n%d - %d);\n",
                 in, W, in, W);
    lc_emit_exprs_vec(g, sb, W, in, "    ");
    for (int o = 0; o < k->n_outputs; o++) {
        lc_sb_printf(sb, "    vstore%d(w%d, 0, ", W, k->outputs[o].expr);
        lc_out_row_addr(g, sb, o, in);
        lc_sb_printf(sb, ");\n");
    }
    lc_sb_printf(sb, "}\n");
    snprintf(c->schedule, sizeof c->schedule, "map %d-d, %d elements per item (%d-wide SIMD)",
             nd, W, W);
    return 0;
}

static int lc_gen_map(struct lc_cg *g, struct lc_kcode *c, struct lc_sb *sb)
{
    struct lc_launch *l = lc_new_launch(c, "");
    if (!l)
        return -1;
    int nd = g->nd;
    lc_sb_printf(sb, "__kernel void @K@(");
    if (lc_common_params(g, l, sb) < 0 || lc_output_stride_params(g, l, sb, nd) < 0)
        return -1;
    if (g->k->n_outputs + g->k->n_access + nd == 0)
        lc_sb_printf(sb, "const long unused_");
    lc_sb_printf(sb, ")\n{\n");
    if (lc_map_simd(g))
        return lc_gen_map_simd(g, c, sb, l);
    if (lc_map_vec4_rows(g))
        return lc_gen_map_vec4_rows(g, c, sb, l);
    int64_t total = 1;
    for (int d = 0; d < nd; d++)
        total *= g->shape[d];
    size_t wg = g->t->max_work_group < 256 ? g->t->max_work_group : 256;
    if (wg == 0)
        wg = 1;
    if (nd <= 1) {
        lc_sb_printf(sb, "    const long i0 = get_global_id(0);\n");
        if (g->t->gpu)
            lc_sb_printf(sb, nd ? "    if (i0 >= n0) return;\n" : "    if (i0 >= 1) return;\n");
        l->work_dim = 1;
        l->global[0] = (size_t)total;
        snprintf(c->schedule, sizeof c->schedule, "map 1-d, one item per element");
    } else if (nd <= 3) {
        /* OpenCL dim 0 is the innermost (fastest) kernel dim. */
        for (int d = nd - 1; d >= 0; d--) {
            lc_sb_printf(sb, "    const long i%d = get_global_id(%d);\n", d, nd - 1 - d);
            l->global[nd - 1 - d] = (size_t)g->shape[d];
        }
        if (g->t->gpu)
            lc_sb_printf(sb, "    if (i%d >= n%d) return;\n", nd - 1, nd - 1);
        l->work_dim = (unsigned)nd;
        snprintf(c->schedule, sizeof c->schedule, "map %d-d range, one item per element", nd);
    } else {
        lc_sb_printf(sb, "    const long gid = get_global_id(0);\n");
        if (g->t->gpu)
            lc_sb_printf(sb, "    if (gid >= n0");
        if (g->t->gpu) {
            for (int d = 1; d < nd; d++)
                lc_sb_printf(sb, " * n%d", d);
            lc_sb_printf(sb, ") return;\n");
        }
        lc_unravel(sb, 0, nd, "gid", "    ");
        l->work_dim = 1;
        l->global[0] = (size_t)total;
        snprintf(c->schedule, sizeof c->schedule, "map %d-d unravelled, one item per element", nd);
    }
    int v4 = lc_map_vec4(g);
    if (v4) {
        /* Four elements per item with 16-byte loads and stores. */
        l->global[0] = (size_t)(total + 3) / 4;
        snprintf(c->schedule, sizeof c->schedule, "map 1-d, four elements per item (vector loads)");
    }
    if (g->t->gpu) {
        l->use_local = 1;
        l->local[0] = wg;
        l->local[1] = l->local[2] = 1;
        l->global[0] = lc_round_up(l->global[0] ? l->global[0] : 1, wg);
        if (total == 0)
            l->global[0] = 0;
    }
    if (v4) {
        const struct lc_kernel *k = g->k;
        lc_sb_printf(sb, "    const long base = i0 * 4;\n"
                         "    if (base + 4 <= n0) {\n");
        for (int a = 0; a < k->n_access; a++)
            if (g->acc[a].kind != LC_ACCESS_CONST && g->acc[a].strides[0] == 1)
                lc_sb_printf(sb, "        const %s4 t%d = *(__global const %s4 *)(a%d + a%d_o + base);\n",
                             lc_T(g->acc[a].dtype), a, lc_T(g->acc[a].dtype), a, a);
        lc_emit_four_lanes(g, sb, 0, "        ");
        for (int o = 0; o < k->n_outputs; o++)
            lc_sb_printf(sb, "        *(__global %s4 *)(out%d + base) = ov%d;\n",
                         lc_T(k->outputs[o].dtype), o, o);
        lc_sb_printf(sb, "        return;\n    }\n"
                         "    for (long i0 = base; i0 < n0; i0++) {\n");
        lc_emit_exprs(g, sb, 0, "        ");
        lc_store_outputs(g, sb, "        ", nd);
        lc_sb_printf(sb, "    }\n}\n");
        return 0;
    }
    lc_emit_exprs(g, sb, 0, "    ");
    lc_store_outputs(g, sb, "    ", nd);
    lc_sb_printf(sb, "}\n");
    return 0;
}

/* ---- REDUCE ------------------------------------------------------------------------- */

/* The body that folds reduced element(s) at the current indices. `idx` is
 * the linear reduced index for arg reductions. */
static void lc_fold_all(struct lc_cg *g, struct lc_sb *sb, const char *idx, const char *ind)
{
    lc_emit_exprs(g, sb, 0, ind);
    for (int s = 0; s < g->k->n_reds; s++) {
        char pre[16], v[16];
        snprintf(pre, sizeof pre, "s%d", s);
        snprintf(v, sizeof v, "v%d", g->k->reds[s].expr);
        lc_red_update(g, sb, s, pre, v, idx, ind);
    }
}

static void lc_init_all(struct lc_cg *g, struct lc_sb *sb, const char *prefix, const char *ind)
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
        lc_red_init(g, sb, s, pre, ind);
    }
}


/* ---- explicit SIMD for CPU reduction loops ---------------------------------------- */

static int lc_vec_op_ok(int op)
{
    switch (op) {
    case LC_OP_ADD: case LC_OP_SUB: case LC_OP_MUL: case LC_OP_DIV: case LC_OP_NEG:
    case LC_OP_POS: case LC_OP_ABS: case LC_OP_SQUARE: case LC_OP_RECIP: case LC_OP_CAST:
    case LC_OP_MAXIMUM: case LC_OP_MINIMUM: case LC_OP_FMAX: case LC_OP_FMIN:
    case LC_OP_FLOOR: case LC_OP_CEIL: case LC_OP_TRUNC: case LC_OP_RINT:
    case LC_OP_BUFFER: case LC_OP_CONST:
        return 1;
    default:
        return lc_op_kind(op) == LC_KIND_UNARY && lc_op_template(op) != NULL &&
               op != LC_OP_LNOT;
    }
}

/* Can the reduction loop of this kernel run W lanes at a time? Only float
 * expressions of vector-safe ops over reads that are contiguous (or
 * constant) along the single reduced dim, and sum/max/min/mean/var. */
static int lc_vec_ok(struct lc_cg *g, int rd)
{
    const struct lc_kernel *k = g->k;
    if (!g->t->vec || g->t->gpu)
        return 0;
    for (int a = 0; a < k->n_access; a++) {
        const struct lc_access *x = &g->acc[a];
        if (x->epilogue)
            continue;
        if (x->kind == LC_ACCESS_IOTA)
            return 0;
        if (x->kind != LC_ACCESS_CONST && lc_stclass(x->strides[rd]) == LC_ST_ANY)
            return 0;
    }
    for (int i = 0; i < k->n_exprs; i++) {
        const struct lc_expr *x = &k->exprs[i];
        if (x->epilogue)
            continue;
        if (x->op == LC_EXPR_REDUCED || !lc_vec_op_ok(x->op) || !lc_dtype_is_float(x->dtype) ||
            !lc_dtype_is_float(x->cdtype))
            return 0;
        if (x->op == LC_OP_CAST && !lc_dtype_is_float(k->exprs[x->in[0]].dtype))
            return 0;
    }
    for (int s = 0; s < k->n_reds; s++) {
        int op = k->reds[s].op;
        if (op != LC_OP_SUM && op != LC_OP_RMAX && op != LC_OP_RMIN && op != LC_OP_MEANVAR &&
            !(op == LC_OP_SUMEXP && rd == g->nk))
            return 0;
        if (!lc_dtype_is_float(k->reds[s].in_dtype))
            return 0;
    }
    return 1;
}

/* "v" converted from float dtype `from` to `to`, W lanes. */
static void lc_vcast(struct lc_sb *sb, const char *v, int from, int to, int W)
{
    if (from == to)
        lc_sb_printf(sb, "%s", v);
    else
        lc_sb_printf(sb, "convert_%s%d(%s)", lc_T(to), W, v);
}

static void lc_emit_exprs_vec(struct lc_cg *g, struct lc_sb *sb, int W, int rd, const char *ind)
{
    const struct lc_kernel *k = g->k;
    for (int i = 0; i < k->n_exprs; i++) {
        const struct lc_expr *x = &k->exprs[i];
        if (x->epilogue)
            continue;
        const char *T = lc_T(x->dtype);
        lc_sb_printf(sb, "%sconst %s%d w%d = ", ind, T, W, i);
        if (x->access >= 0) {
            const struct lc_access *a = &g->acc[x->access];
            if (a->kind == LC_ACCESS_CONST) {
                lc_sb_printf(sb, "(%s%d)(a%d_v)", T, W, x->access);
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
            continue;
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
        default: {
            /* A float function template such as "exp(%0)". */
            const char *opv[3] = {a0, a1, "0"};
            struct lc_helpers h;
            memset(&h, 0, sizeof h);
            lc_cg_op(sb, &h, x->op, x->cdtype, x->dtype, opv);
            break;
        }
        }
        for (int j = 0; j < x->n_in; j++)
            lc_sb_free(&ops[j]);
        lc_sb_printf(sb, ";");
        lc_describe_expr(sb, x);
        lc_sb_printf(sb, "\n");
    }
}

/* Declare the W-lane states q<s> of every reduction. */
static void lc_vec_states(struct lc_cg *g, struct lc_sb *sb, int W, const char *ind)
{
    const struct lc_kernel *k = g->k;
    for (int s = 0; s < k->n_reds; s++) {
        const struct lc_reduction *r = &k->reds[s];
        const char *A = lc_red_acc(g, r);
        switch (r->op) {
        case LC_OP_SUM:
            lc_sb_printf(sb, "%s%s%d q%d_a = 0;\n", ind, A, W, s);
            break;
        case LC_OP_RMAX: case LC_OP_RMIN:
            lc_sb_printf(sb, "%s%s%d q%d_a = (%s%d)(%s);\n", ind, A, W, s, A, W,
                         lc_limit(r->in_dtype, r->op == LC_OP_RMIN));
            break;
        case LC_OP_SUMEXP:
            lc_sb_printf(sb, "%s%s%d q%d_a = (%s%d)(-INFINITY); %s%d q%d_b = 0;\n", ind,
                         lc_T(r->in_dtype), W, s, lc_T(r->in_dtype), W, A, W, s);
            break;
        default: /* MEANVAR */
            lc_sb_printf(sb, "%s%s%d q%d_a = 0, q%d_b = 0, q%d_c = 0;\n", ind, A, W, s, s, s);
            break;
        }
    }
}

/* Vector exprs at the current indices, folded lane-wise into q<s>. */
/* The SUMEXP slot reducing the same value as RMAX slot s, or -1: blocked
 * loops take that max from the block maxima. */
static int lc_sumexp_twin(const struct lc_kernel *k, int s)
{
    if (k->reds[s].op != LC_OP_RMAX)
        return -1;
    for (int t = 0; t < k->n_reds; t++)
        if (k->reds[t].op == LC_OP_SUMEXP && k->reds[t].expr == k->reds[s].expr)
            return t;
    return -1;
}

/* SUMEXP slot s: lanes where `v` (W lanes) exceeds the running max q<s>_a
 * take it as their max and rescale their sums q<s>_b. */
static void lc_sumexp_grow(struct lc_cg *g, struct lc_sb *sb, int s, int W, const char *v,
                           const char *ind)
{
    const struct lc_reduction *r = &g->k->reds[s];
    const char *A = lc_red_acc(g, r), *T = lc_T(r->in_dtype);
    int dbl = !strcmp(A, "double");
    struct lc_sb cm = {0}, cn = {0};
    lc_vcast(&cm, "q_m_", r->in_dtype, dbl ? LC_FLOAT64 : LC_FLOAT32, W);
    lc_vcast(&cn, "n_m_", r->in_dtype, dbl ? LC_FLOAT64 : LC_FLOAT32, W);
    lc_sb_printf(sb, "%sif (any(%s > q%d_a)) {\n"
                     "%s    const %s%d q_m_ = q%d_a, n_m_ = select(q%d_a, %s, %s > q%d_a);\n"
                     "%s    q%d_b = select(q%d_b * exp(%s - %s), q%d_b, convert_%s%d(n_m_ == q_m_));\n"
                     "%s    q%d_a = n_m_;\n%s}\n",
                 ind, v, s, ind, T, W, s, s, v, v, s, ind, s, s, cm.s, cn.s, s,
                 dbl ? "long" : "int", W, ind, s, ind);
    lc_sb_free(&cm);
    lc_sb_free(&cn);
}

/* Vector exprs at the current indices, folded lane-wise into q<s>. With
 * fixed_max, SUMEXP lanes add exp(x - max) without growing the max (the
 * block's max was taken first). */
static void lc_vec_fold_x(struct lc_cg *g, struct lc_sb *sb, int W, int vd, const char *ind,
                          int fixed_max);

static void lc_vec_fold(struct lc_cg *g, struct lc_sb *sb, int W, int vd, const char *ind)
{
    lc_vec_fold_x(g, sb, W, vd, ind, 0);
}

static void lc_vec_fold_x(struct lc_cg *g, struct lc_sb *sb, int W, int vd, const char *ind,
                          int fixed_max)
{
    const struct lc_kernel *k = g->k;
    lc_emit_exprs_vec(g, sb, W, vd, ind);
    for (int s = 0; s < k->n_reds; s++) {
        const struct lc_reduction *r = &k->reds[s];
        if (fixed_max && lc_sumexp_twin(k, s) >= 0)
            continue;
        const char *A = lc_red_acc(g, r);
        char v[32];
        snprintf(v, sizeof v, "w%d", r->expr);
        struct lc_sb cv = {0};
        lc_vcast(&cv, v, k->exprs[r->expr].dtype, !strcmp(A, "double") ? LC_FLOAT64 : LC_FLOAT32, W);
        switch (r->op) {
        case LC_OP_SUM:
            lc_sb_printf(sb, "%sq%d_a += %s;\n", ind, s, cv.s);
            break;
        case LC_OP_RMAX: case LC_OP_RMIN:
            lc_sb_printf(sb, "%sq%d_a = select(q%d_a, %s, (%s %s q%d_a) | isnan(%s));\n", ind, s, s,
                         v, v, r->op == LC_OP_RMAX ? ">" : "<", s, v);
            break;
        case LC_OP_SUMEXP: {
            /* Lanes whose max grows (rare after the first few) rescale their sums. */
            const char *T = lc_T(r->in_dtype);
            struct lc_sb ce = {0};
            char e[256];
            if (fixed_max) {
                /* qe: the block's max with -inf as 0, so -inf adds exp(-inf) = 0 */
                snprintf(e, sizeof e, "exp(%s - qe%d_)", v, s);
            } else {
                lc_sumexp_grow(g, sb, s, W, v, ind);
                snprintf(e, sizeof e, "select(exp(%s - q%d_a), (%s%d)(0), %s == (%s%d)(-INFINITY))", v,
                         s, T, W, v, T, W);
            }
            lc_vcast(&ce, e, r->in_dtype, !strcmp(A, "double") ? LC_FLOAT64 : LC_FLOAT32, W);
            lc_sb_printf(sb, "%sq%d_b += %s;\n", ind, s, ce.s);
            lc_sb_free(&ce);
            break;
        }
        default:
            lc_sb_printf(sb, "%s{ const %s%d x_ = %s; q%d_a += 1; const %s%d d_ = x_ - q%d_b;"
                         " q%d_b += d_ / q%d_a; q%d_c += d_ * (x_ - q%d_b); }\n",
                         ind, A, W, cv.s, s, A, W, s, s, s, s, s);
            break;
        }
        lc_sb_free(&cv);
    }
}

/* Fold the reduced elements [lo, hi) of the single reduced dim: W lanes at a
 * time into per-lane states, the lanes then folded in order into the scalar
 * states s<k>, then the tail one by one. */
static void lc_vec_fold_loop(struct lc_cg *g, struct lc_sb *sb, const char *lo, const char *hi,
                             int W, const char *ind)
{
    const struct lc_kernel *k = g->k;
    int rd = g->nk;
    char in2[64], in3[64];
    snprintf(in2, sizeof in2, "%s    ", ind);
    snprintf(in3, sizeof in3, "%s        ", ind);
    lc_sb_printf(sb, "%s{\n", ind);
    lc_vec_states(g, sb, W, in2);
    lc_sb_printf(sb, "%slong i%d = %s;\n", in2, rd, lo);
    int sumexp = 0;
    for (int s = 0; s < k->n_reds; s++)
        sumexp |= k->reds[s].op == LC_OP_SUMEXP;
    if (sumexp) {
        /* Blocks of 32 vectors: the block's max first (re-reading it from
         * L1 costs less than testing every vector), then the sums. */
        char in4[80];
        snprintf(in4, sizeof in4, "%s    ", in3);
        int BW = 32 * W;
        lc_sb_printf(sb, "%sfor (; i%d + %d <= %s; i%d += %d) {\n", in2, rd, BW, hi, rd, BW);
        lc_sb_printf(sb, "%sconst long b0_ = i%d;\n", in3, rd);
        for (int s = 0; s < k->n_reds; s++)
            if (k->reds[s].op == LC_OP_SUMEXP)
                lc_sb_printf(sb, "%s%s%d bm%d_ = (%s%d)(-INFINITY);\n", in3,
                             lc_T(k->reds[s].in_dtype), W, s, lc_T(k->reds[s].in_dtype), W);
        lc_sb_printf(sb, "%sfor (long i%d = b0_; i%d < b0_ + %d; i%d += %d) {\n", in3, rd, rd,
                     BW, rd, W);
        lc_emit_exprs_vec(g, sb, W, rd, in4);
        /* NaN-propagating: a NaN lane keeps its max (its sum is NaN anyway) */
        for (int s = 0; s < k->n_reds; s++)
            if (k->reds[s].op == LC_OP_SUMEXP)
                lc_sb_printf(sb, "%sbm%d_ = select(bm%d_, w%d, (w%d > bm%d_) | isnan(w%d));\n", in4,
                             s, s, k->reds[s].expr, k->reds[s].expr, s, k->reds[s].expr);
        lc_sb_printf(sb, "%s}\n", in3);
        for (int s = 0; s < k->n_reds; s++) {
            int t = lc_sumexp_twin(k, s);
            if (t >= 0)
                lc_sb_printf(sb, "%sq%d_a = select(q%d_a, bm%d_, (bm%d_ > q%d_a) | isnan(bm%d_));\n",
                             in3, s, s, t, t, s, t);
        }
        for (int s = 0; s < k->n_reds; s++)
            if (k->reds[s].op == LC_OP_SUMEXP) {
                char v[32];
                const char *T = lc_T(k->reds[s].in_dtype);
                snprintf(v, sizeof v, "bm%d_", s);
                lc_sumexp_grow(g, sb, s, W, v, in3);
                lc_sb_printf(sb, "%sconst %s%d qe%d_ = select(q%d_a, (%s%d)(0), q%d_a == (%s%d)(-INFINITY));\n",
                             in3, T, W, s, s, T, W, s, T, W);
            }
        lc_sb_printf(sb, "%sfor (long i%d = b0_; i%d < b0_ + %d; i%d += %d) {\n", in3, rd, rd,
                     BW, rd, W);
        lc_vec_fold_x(g, sb, W, rd, in4, 1);
        lc_sb_printf(sb, "%s}\n%s}\n", in3, in2);
    }
    lc_sb_printf(sb, "%sfor (; i%d + %d <= %s; i%d += %d) {\n", in2, rd, W, hi, rd, W);
    lc_vec_fold(g, sb, W, rd, in3);
    lc_sb_printf(sb, "%s}\n", in2);
    /* Lanes in order into the scalar states. */
    for (int s = 0; s < k->n_reds; s++) {
        const struct lc_reduction *r = &k->reds[s];
        char me[16], lane[16];
        snprintf(me, sizeof me, "s%d", s);
        for (int l = 0; l < W; l++) {
            snprintf(lane, sizeof lane, "l%d", s);
            if (r->op == LC_OP_MEANVAR) {
                lc_sb_printf(sb, "%s{ const %s l%d_a = q%d_a.s%x, l%d_b = q%d_b.s%x, l%d_c = q%d_c.s%x;\n",
                             in2, lc_red_acc(g, r), s, s, l, s, s, l, s, s, l);
                lc_red_combine(g, sb, s, me, lane, in3);
                lc_sb_printf(sb, "%s}\n", in2);
            } else if (r->op == LC_OP_SUMEXP) {
                lc_sb_printf(sb, "%s{ const %s l%d_a = q%d_a.s%x; const %s l%d_b = q%d_b.s%x;\n",
                             in2, lc_T(r->in_dtype), s, s, l, lc_red_acc(g, r), s, s, l);
                lc_red_combine(g, sb, s, me, lane, in3);
                lc_sb_printf(sb, "%s}\n", in2);
            } else {
                char v[32];
                snprintf(v, sizeof v, "q%d_a.s%x", s, l);
                lc_red_update(g, sb, s, me, v, "0", in2);
            }
        }
    }
    lc_sb_printf(sb, "%sfor (; i%d < %s; i%d++) {\n", in2, rd, hi, rd);
    lc_fold_all(g, sb, "0", in3);
    lc_sb_printf(sb, "%s}\n%s}\n", in2, ind);
}

/* Open nested loops over the reduced dims [nk, nd); returns the indent. */
static void lc_open_red_loops(struct lc_cg *g, struct lc_sb *sb, char *ind, size_t n)
{
    for (int d = g->nk; d < g->nd; d++) {
        lc_sb_printf(sb, "%sfor (long i%d = 0; i%d < n%d; i%d++) {\n", ind, d, d, d, d);
        strncat(ind, "    ", n - strlen(ind) - 1);
    }
}

static void lc_close_red_loops(struct lc_cg *g, struct lc_sb *sb, char *ind)
{
    for (int d = g->nk; d < g->nd; d++) {
        ind[strlen(ind) - 4] = '\0';
        lc_sb_printf(sb, "%s}\n", ind);
    }
}

/* The whole scalar reduction of one output whose kept indices are declared:
 * init, loops, epilogue, stores. */
static void lc_scalar_reduce_body(struct lc_cg *g, struct lc_sb *sb, const char *ind0)
{
    char ind[64];
    snprintf(ind, sizeof ind, "%s", ind0);
    lc_init_all(g, sb, "s", ind);
    lc_sb_printf(sb, "%slong r = 0;\n", ind);
    lc_open_red_loops(g, sb, ind, sizeof ind);
    lc_fold_all(g, sb, "r", ind);
    lc_sb_printf(sb, "%sr++;\n", ind);
    lc_close_red_loops(g, sb, ind);
    lc_emit_exprs(g, sb, 1, ind);
    lc_store_outputs(g, sb, ind, g->nk);
}

/* Schedule A with lanes across the kept dim (column reductions on PoCL):
 * each work-item reduces W adjacent outputs at once with vector loads along
 * the kept dim, then runs the epilogue lane by lane. */
static int lc_gen_reduce_cols(struct lc_cg *g, struct lc_kcode *c, struct lc_sb *sb, int64_t M)
{
    const struct lc_kernel *k = g->k;
    int W = g->t->vec;
    struct lc_launch *l = lc_new_launch(c, "");
    if (!l)
        return -1;
    lc_sb_printf(sb, "__kernel void @K@(");
    if (lc_common_params(g, l, sb) < 0 || lc_output_stride_params(g, l, sb, g->nk) < 0)
        return -1;
    lc_sb_printf(sb, ", const long M)\n{\n");
    if (lc_add_i64(l, M) < 0)
        return -1;
    lc_sb_printf(sb, "    const long c0 = get_global_id(0) * %d;\n"
                     "    if (c0 >= M) return;\n"
                     "    if (c0 + %d <= M) {\n"
                     "        const long i0 = c0;\n", W, W);
    lc_vec_states(g, sb, W, "        ");
    char ind[64] = "        ";
    lc_open_red_loops(g, sb, ind, sizeof ind);
    lc_vec_fold(g, sb, W, 0, ind);
    lc_close_red_loops(g, sb, ind);
    for (int s = 0; s < k->n_reds; s++)
        for (int f = 0; f < lc_red_nfields(&k->reds[s]); f++) {
            const char *A = lc_red_acc(g, &k->reds[s]);
            lc_sb_printf(sb, "        %s p%d_%c[%d];\n        vstore%d(q%d_%c, 0, p%d_%c);\n", A, s,
                         'a' + f, W, W, s, 'a' + f, s, 'a' + f);
        }
    lc_sb_printf(sb, "        for (int ln = 0; ln < %d; ln++) {\n"
                     "            const long i0 = c0 + ln;\n", W);
    for (int s = 0; s < k->n_reds; s++) {
        const struct lc_reduction *r = &k->reds[s];
        const char *A = lc_red_acc(g, r);
        if (r->op == LC_OP_MEANVAR)
            lc_sb_printf(sb, "            %s s%d_a = p%d_a[ln], s%d_b = p%d_b[ln], s%d_c = p%d_c[ln];\n",
                         A, s, s, s, s, s, s);
        else
            lc_sb_printf(sb, "            %s s%d_a = p%d_a[ln];\n", A, s, s);
    }
    lc_emit_exprs(g, sb, 1, "            ");
    lc_store_outputs(g, sb, "            ", g->nk);
    lc_sb_printf(sb, "        }\n"
                     "    } else {\n"
                     "        for (long i0 = c0; i0 < M; i0++) {\n");
    lc_scalar_reduce_body(g, sb, "            ");
    lc_sb_printf(sb, "        }\n    }\n}\n");
    l->work_dim = 1;
    l->global[0] = (size_t)((M + W - 1) / W);
    snprintf(c->schedule, sizeof c->schedule,
             "reduce: one item per %d outputs, %d-wide SIMD across outputs", W, W);
    return 0;
}

/* Does every prologue read move by 0 or 1 along kept dim 0 (so adjacent
 * outputs read adjacent addresses: a column reduction)? */
static int lc_columnlike(struct lc_cg *g)
{
    if (g->nk != 1 || g->nd - g->nk < 1)
        return 0;
    int moved = 0;
    for (int a = 0; a < g->k->n_access; a++) {
        const struct lc_access *x = &g->acc[a];
        if (x->epilogue || x->kind == LC_ACCESS_CONST)
            continue;
        int c = lc_stclass(x->strides[0]);
        if (c == LC_ST_ANY)
            return 0;
        moved |= c == LC_ST_UNIT;
    }
    return moved;
}

/* Every slot's state s<k> stored as this item's partial at scratch index `at`. */
static void lc_store_partials_at(struct lc_cg *g, struct lc_sb *sb, const char *at, const char *ind)
{
    for (int s = 0; s < g->k->n_reds; s++) {
        char pre[16];
        snprintf(pre, sizeof pre, "s%d", s);
        lc_red_store(g, sb, s, pre, at, ind);
    }
}

static void lc_store_partials(struct lc_cg *g, struct lc_sb *sb, const char *at)
{
    lc_store_partials_at(g, sb, at, "        ");
}

/* The last group's part of a split reduction: fold the partials of this
 * output in chunk order (partial q at scratch index `at`, written in terms of
 * q), then the epilogue and the stores. */
static void lc_combine_partials_at(struct lc_cg *g, struct lc_sb *sb, const char *at,
                                   const char *ind)
{
    const struct lc_kernel *k = g->k;
    char in2[64];
    snprintf(in2, sizeof in2, "%s    ", ind);
    lc_init_all(g, sb, "s", ind);
    lc_sb_printf(sb, "%sfor (long q = 0; q < P; q++) {\n", ind);
    for (int s = 0; s < k->n_reds; s++) {
        char me[16], o[16];
        snprintf(me, sizeof me, "s%d", s);
        snprintf(o, sizeof o, "o%d", s);
        lc_red_load(g, sb, s, o, at, in2);
        lc_red_combine(g, sb, s, me, o, in2);
    }
    lc_sb_printf(sb, "%s}\n", ind);
    lc_emit_exprs(g, sb, 1, ind);
    lc_store_outputs(g, sb, ind, g->nk);
}

static void lc_combine_partials(struct lc_cg *g, struct lc_sb *sb, const char *at)
{
    lc_combine_partials_at(g, sb, at, "    ");
    lc_sb_printf(sb, "}\n");
}

/* Declare the scratch offsets of every reduction's partials (M*P each),
 * starting at byte `off`; returns the scratch size, or 0 on no memory. */
static size_t lc_partial_params(struct lc_cg *g, struct lc_launch *l, struct lc_sb *sb, size_t off,
                                size_t count)
{
    const struct lc_kernel *k = g->k;
    for (int s = 0; s < k->n_reds; s++)
        for (int f = 0; f < lc_red_nfields(&k->reds[s]); f++) {
            lc_sb_printf(sb, ", const long so%d_%d", s, f);
            if (lc_add_i64(l, (int64_t)off) < 0)
                return 0;
            off = lc_round_up(off + count * lc_red_fsize(g, &k->reds[s], f), 8);
        }
    return off;
}

/* The kernel header of a column reduction over `blocks` blocks of outputs
 * times P chunks: the common parameters, then a scratch area holding one
 * zeroed counter per block and the [P][M] partials of every reduction. */
static int lc_block_partials_header(struct lc_cg *g, struct lc_kcode *c, struct lc_launch *l,
                                    struct lc_sb *sb, int64_t blocks, int64_t P, int64_t M,
                                    int64_t N)
{
    size_t off = lc_round_up((size_t)blocks * sizeof(int), 8);
    c->zero_bytes = (size_t)blocks * sizeof(int);
    lc_sb_printf(sb, "__kernel void @K@(");
    if (lc_common_params(g, l, sb) < 0 || lc_output_stride_params(g, l, sb, g->nk) < 0)
        return -1;
    union lc_scalar none = {0};
    lc_sb_printf(sb, ",\n    __global char *scratch_, const long sbase, const long P, const long N, const long M");
    if (lc_add_arg(l, LC_CGARG_SCRATCH, 0, 0, none) < 0 ||
        lc_add_arg(l, LC_CGARG_SCRATCH_BASE, 0, LC_INT64, none) < 0 ||
        lc_add_i64(l, P) < 0 || lc_add_i64(l, N) < 0 || lc_add_i64(l, M) < 0)
        return -1;
    off = lc_partial_params(g, l, sb, off, (size_t)M * (size_t)P);
    if (!off)
        return -1;
    c->scratch_bytes = off;
    lc_sb_printf(sb, ")\n{\n");
    return 0;
}

/* Schedule C (GPUs, column reductions): groups of L adjacent outputs times P
 * chunks of the reduced elements. Item (block, chunk, lid) folds its chunk
 * of output block*L + lid, so each step of the loop reads L adjacent
 * addresses (coalesced); partials go to scratch as [P][M], and the last
 * group of each block combines them in chunk order. */
static int lc_gen_reduce_colsplit(struct lc_cg *g, struct lc_kcode *c, struct lc_sb *sb, int64_t M,
                                  int64_t N)
{
    struct lc_launch *l = lc_new_launch(c, "");
    if (!l)
        return -1;
    int nd = g->nd, nk = g->nk;
    size_t L = g->t->max_work_group < 256 ? g->t->max_work_group : 256;
    if (L == 0)
        L = 1;
    unsigned cu = g->t->compute_units ? g->t->compute_units : 1;
    int64_t blocks = (M + (int64_t)L - 1) / (int64_t)L;
    int64_t want = (int64_t)cu * 8 / blocks, maxp = N / 16;
    size_t P = (size_t)(want < 1 ? 1 : want > maxp ? (maxp < 1 ? 1 : maxp) : want);
    if (lc_block_partials_header(g, c, l, sb, blocks, (int64_t)P, M, N) < 0)
        return -1;
    lc_sb_printf(sb, "    __local int last_[1];\n"
                     "    __global char *scratch = scratch_ + sbase;\n"
                     "    const long grp = get_group_id(0);\n"
                     "    const long blk = grp / P, p = grp %% P;\n"
                     "    const int lid = get_local_id(0);\n"
                     "    const long i0 = blk * %zu + lid;\n"
                     "    const int valid = i0 < M;\n"
                     "    if (valid) {\n", L);
    lc_init_all(g, sb, "s", "        ");
    lc_sb_printf(sb, "        const long chunk = (N + P - 1) / P;\n"
                     "        const long r_end = min(N, (p + 1) * chunk);\n"
                     "        for (long r = p * chunk; r < r_end; r++) {\n");
    lc_unravel(sb, nk, nd, "r", "            ");
    lc_fold_all(g, sb, "r", "            ");
    lc_sb_printf(sb, "        }\n");
    lc_store_partials(g, sb, "p * M + i0");
    lc_sb_printf(sb, "        mem_fence(CLK_GLOBAL_MEM_FENCE);\n"
                     "    }\n"
                     "    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);\n"
                     "    if (lid == 0)\n"
                     "        last_[0] = atomic_inc((volatile __global int *)scratch + blk) == (int)(P - 1);\n"
                     "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                     "    if (!last_[0] || !valid) return;\n"
                     "    mem_fence(CLK_GLOBAL_MEM_FENCE);\n");
    lc_combine_partials(g, sb, "q * M + i0");
    l->work_dim = 1;
    l->use_local = 1;
    l->local[0] = L;
    l->local[1] = l->local[2] = 1;
    l->global[0] = (size_t)blocks * P * L;
    snprintf(c->schedule, sizeof c->schedule,
             "reduce: blocks of %zu adjacent outputs x chunks of rows, last group combines", L);
    return 0;
}

/* Schedule D (CPU with explicit SIMD, column reductions): items are blocks
 * of V*W adjacent outputs times P chunks of the reduced rows. Each item walks
 * its rows with V W-lane vectors of state per reduction (a row chunk of a
 * block is a few cache lines per row, read once: walking all rows of 8
 * columns instead reads half a line per 16 KB stride and runs at a third of
 * the bandwidth); variances accumulate x - K (K = the chunk's first row) and
 * leave the chunk as Welford partials, [P][M] in scratch; the last item of
 * each block combines them in chunk order and runs the epilogue. */
static void lc_cb_exprs(struct lc_cg *g, struct lc_sb *sb, int W, int j, const char *ind)
{
    lc_sb_printf(sb, "%sconst long i0 = c0 + %d;\n", ind, j * W);
    lc_emit_exprs_vec(g, sb, W, 0, ind);
}

static int lc_gen_reduce_colblock(struct lc_cg *g, struct lc_kcode *c, struct lc_sb *sb,
                                  int64_t M, int64_t N)
{
    const struct lc_kernel *k = g->k;
    struct lc_launch *l = lc_new_launch(c, "");
    if (!l)
        return -1;
    int nd = g->nd, nk = g->nk, W = g->t->vec;
    /* Four vectors per reduction field (measured 4096^2 mean+std: V = 1..8
     * and P = 8..32 all within 10% when chunks are ~256 rows; P = 1, one
     * chunk of 4096 rows per block, is twice as slow). */
    int V = 4;
    int64_t B = (int64_t)V * W;
    int64_t blocks = (M + B - 1) / B;
    unsigned cu = g->t->compute_units ? g->t->compute_units : 1;
    int64_t maxp = N / 64 < 1 ? 1 : N / 64;
    int64_t P = N / 256 < 1 ? 1 : N / 256 > 16 ? 16 : N / 256;
    if (blocks * P < 4 * (int64_t)cu)
        P = (4 * (int64_t)cu + blocks - 1) / blocks;
    if (P > maxp)
        P = maxp;
    if (lc_block_partials_header(g, c, l, sb, blocks, P, M, N) < 0)
        return -1;
    lc_sb_printf(sb, "    __global char *scratch = scratch_ + sbase;\n"
                     "    const long blk = get_global_id(0), p = get_global_id(1);\n"
                     "    const long c0 = blk * %lld;\n"
                     "    const long chunk = (N + P - 1) / P;\n"
                     "    const long r0 = min(N, p * chunk), r_end = min(N, r0 + chunk);\n"
                     "    if (c0 + %lld <= M) {\n", (long long)B, (long long)B);
    /* Vector states q<s>_<f><j>. */
    for (int s = 0; s < k->n_reds; s++) {
        const struct lc_reduction *r = &k->reds[s];
        const char *A = lc_red_acc(g, r);
        for (int j = 0; j < V; j++) {
            if (r->op == LC_OP_RMAX || r->op == LC_OP_RMIN)
                lc_sb_printf(sb, "        %s%d q%d_a%d = (%s%d)(%s);\n", A, W, s, j, A, W,
                             lc_limit(r->in_dtype, r->op == LC_OP_RMIN));
            else if (r->op == LC_OP_MEANVAR)
                lc_sb_printf(sb, "        %s%d q%d_k%d = 0, q%d_b%d = 0, q%d_c%d = 0;\n", A, W, s,
                             j, s, j, s, j);
            else
                lc_sb_printf(sb, "        %s%d q%d_a%d = 0;\n", A, W, s, j);
        }
    }
    int any_var = 0;
    for (int s = 0; s < k->n_reds; s++)
        any_var |= k->reds[s].op == LC_OP_MEANVAR;
    if (any_var) {
        /* K: the chunk's first row. */
        lc_sb_printf(sb, "        if (r0 < r_end) {\n");
        lc_unravel(sb, nk, nd, "r0", "            ");
        for (int j = 0; j < V; j++) {
            lc_sb_printf(sb, "            {\n");
            lc_cb_exprs(g, sb, W, j, "                ");
            for (int s = 0; s < k->n_reds; s++)
                if (k->reds[s].op == LC_OP_MEANVAR) {
                    char v[32];
                    snprintf(v, sizeof v, "w%d", k->reds[s].expr);
                    lc_sb_printf(sb, "                q%d_k%d = ", s, j);
                    lc_vcast(sb, v, k->exprs[k->reds[s].expr].dtype,
                             !strcmp(lc_red_acc(g, &k->reds[s]), "double") ? LC_FLOAT64 : LC_FLOAT32, W);
                    lc_sb_printf(sb, ";\n");
                }
            lc_sb_printf(sb, "            }\n");
        }
        lc_sb_printf(sb, "        }\n");
    }
    lc_sb_printf(sb, "        for (long r = r0; r < r_end; r++) {\n");
    lc_unravel(sb, nk, nd, "r", "            ");
    for (int j = 0; j < V; j++) {
        lc_sb_printf(sb, "            {\n");
        lc_cb_exprs(g, sb, W, j, "                ");
        for (int s = 0; s < k->n_reds; s++) {
            const struct lc_reduction *r = &k->reds[s];
            const char *A = lc_red_acc(g, r);
            char v[32];
            snprintf(v, sizeof v, "w%d", r->expr);
            struct lc_sb cv = {0};
            lc_vcast(&cv, v, k->exprs[r->expr].dtype, !strcmp(A, "double") ? LC_FLOAT64 : LC_FLOAT32, W);
            if (r->op == LC_OP_SUM)
                lc_sb_printf(sb, "                q%d_a%d += %s;\n", s, j, cv.s);
            else if (r->op == LC_OP_MEANVAR)
                lc_sb_printf(sb, "                { const %s%d x_ = %s - q%d_k%d; q%d_b%d += x_; q%d_c%d += x_ * x_; }\n",
                             A, W, cv.s, s, j, s, j, s, j);
            else
                lc_sb_printf(sb, "                q%d_a%d = select(q%d_a%d, %s, (%s %s q%d_a%d) | isnan(%s));\n",
                             s, j, s, j, v, v, r->op == LC_OP_RMAX ? ">" : "<", s, j, v);
            lc_sb_free(&cv);
        }
        lc_sb_printf(sb, "            }\n");
    }
    lc_sb_printf(sb, "        }\n");
    /* Partials: variances as (count, mean, M2). */
    for (int s = 0; s < k->n_reds; s++) {
        const struct lc_reduction *r = &k->reds[s];
        const char *A = lc_red_acc(g, r);
        for (int j = 0; j < V; j++) {
            if (r->op == LC_OP_MEANVAR) {
                lc_sb_printf(sb,
                             "        {\n"
                             "            const %s n_ = (%s)(r_end - r0);\n"
                             "            const %s%d m2_ = q%d_c%d - q%d_b%d * q%d_b%d / n_;\n"
                             "            vstore%d((%s%d)(n_), 0, (__global %s *)(scratch + so%d_0) + p * M + c0 + %d);\n"
                             "            vstore%d(n_ > 0 ? q%d_k%d + q%d_b%d / n_ : (%s%d)(0), 0, (__global %s *)(scratch + so%d_1) + p * M + c0 + %d);\n"
                             "            vstore%d(n_ > 0 ? select(m2_, (%s%d)(0), m2_ < 0) : (%s%d)(0), 0, (__global %s *)(scratch + so%d_2) + p * M + c0 + %d);\n"
                             "        }\n",
                             A, A, A, W, s, j, s, j, s, j,
                             W, A, W, A, s, j * W,
                             W, s, j, s, j, A, W, A, s, j * W,
                             W, A, W, A, W, A, s, j * W);
            } else {
                lc_sb_printf(sb, "        vstore%d(q%d_a%d, 0, (__global %s *)(scratch + so%d_0) + p * M + c0 + %d);\n",
                             W, s, j, A, s, j * W);
            }
        }
    }
    /* Outputs past the last whole block: one at a time. */
    lc_sb_printf(sb, "    } else {\n"
                     "        for (long i0 = c0; i0 < M; i0++) {\n");
    lc_init_all(g, sb, "s", "            ");
    lc_sb_printf(sb, "            for (long r = r0; r < r_end; r++) {\n");
    lc_unravel(sb, nk, nd, "r", "                ");
    lc_fold_all(g, sb, "r", "                ");
    lc_sb_printf(sb, "            }\n");
    lc_store_partials_at(g, sb, "p * M + i0", "            ");
    lc_sb_printf(sb, "        }\n"
                     "    }\n"
                     "    mem_fence(CLK_GLOBAL_MEM_FENCE);\n"
                     "    if (atomic_inc((volatile __global int *)scratch + blk) != (int)(P - 1))\n"
                     "        return;\n"
                     "    mem_fence(CLK_GLOBAL_MEM_FENCE);\n"
                     "    for (long i0 = c0; i0 < min(M, c0 + %lld); i0++) {\n", (long long)B);
    lc_combine_partials_at(g, sb, "q * M + i0", "        ");
    lc_sb_printf(sb, "    }\n}\n");
    l->work_dim = 2;
    l->use_local = 1;
    l->local[0] = l->local[1] = l->local[2] = 1;
    l->global[0] = (size_t)blocks;
    l->global[1] = (size_t)P;
    snprintf(c->schedule, sizeof c->schedule,
             "reduce: blocks of %lld outputs x chunks of rows, %d-wide SIMD, last item combines",
             (long long)B, W);
    return 0;
}

/* Schedule A: one work-item per output, looping over every reduced element. */
static int lc_gen_reduce_loop(struct lc_cg *g, struct lc_kcode *c, struct lc_sb *sb)
{
    struct lc_launch *l = lc_new_launch(c, "");
    if (!l)
        return -1;
    int nd = g->nd, nk = g->nk;
    int64_t M = 1;
    for (int d = 0; d < nk; d++)
        M *= g->shape[d];
    lc_sb_printf(sb, "__kernel void @K@(");
    if (lc_common_params(g, l, sb) < 0 || lc_output_stride_params(g, l, sb, nk) < 0)
        return -1;
    lc_sb_printf(sb, ", const long M)\n{\n");
    if (lc_add_i64(l, M) < 0)
        return -1;
    lc_sb_printf(sb, "    const long m = get_global_id(0);\n    if (m >= M) return;\n");
    if (nk > 0)
        lc_unravel(sb, 0, nk, "m", "    ");
    lc_init_all(g, sb, "s", "    ");
    if (nd - nk == 1 && lc_vec_ok(g, nk)) {
        char hi[16];
        snprintf(hi, sizeof hi, "n%d", nk);
        lc_vec_fold_loop(g, sb, "0", hi, g->t->vec, "    ");
        lc_emit_exprs(g, sb, 1, "    ");
        lc_store_outputs(g, sb, "    ", nk);
        lc_sb_printf(sb, "}\n");
        l->work_dim = 1;
        l->global[0] = (size_t)M;
        snprintf(c->schedule, sizeof c->schedule, "reduce: one item per output, %d-wide SIMD",
                 g->t->vec);
        return 0;
    }
    lc_sb_printf(sb, "    long r = 0;\n");
    char ind[64] = "    ";
    for (int d = nk; d < nd; d++) {
        lc_sb_printf(sb, "%sfor (long i%d = 0; i%d < n%d; i%d++) {\n", ind, d, d, d, d);
        strncat(ind, "    ", sizeof ind - strlen(ind) - 1);
    }
    lc_fold_all(g, sb, "r", ind);
    lc_sb_printf(sb, "%sr++;\n", ind);
    for (int d = nk; d < nd; d++) {
        ind[strlen(ind) - 4] = '\0';
        lc_sb_printf(sb, "%s}\n", ind);
    }
    lc_emit_exprs(g, sb, 1, "    ");
    lc_store_outputs(g, sb, "    ", nk);
    lc_sb_printf(sb, "}\n");
    l->work_dim = 1;
    l->global[0] = (size_t)M;
    if (g->t->gpu) {
        size_t wg = g->t->max_work_group < 256 ? g->t->max_work_group : 256;
        l->use_local = 1;
        l->local[0] = wg;
        l->local[1] = l->local[2] = 1;
        l->global[0] = M ? lc_round_up((size_t)M, wg) : 0;
    }
    snprintf(c->schedule, sizeof c->schedule, "reduce: one item per output");
    return 0;
}

/* Schedule B: P work-groups of L items per output; each item folds a part
 * (a contiguous chunk on CPUs, a strided share on GPUs), the group combines
 * its items in local memory, and the last group to finish an output
 * combines the P partials in order and runs the epilogue. No group ever
 * waits for another, so nothing assumes forward progress. */
/* Fold the states s<k> of a group's L items into item 0's (and every
 * item's s<k> = the group total afterwards), through local arrays ls<s>_<f>. */
static void lc_group_tree(struct lc_cg *g, struct lc_sb *sb, size_t L)
{
    const struct lc_kernel *k = g->k;
    for (int s = 0; s < k->n_reds; s++)
        for (int f = 0; f < lc_red_nfields(&k->reds[s]); f++)
            lc_sb_printf(sb, "    ls%d_%d[lid] = s%d_%c;\n", s, f, s, 'a' + f);
    lc_sb_printf(sb, "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                     "    for (int w = %zu / 2; w > 0; w >>= 1) {\n"
                     "        if (lid < w) {\n", L);
    for (int s = 0; s < k->n_reds; s++) {
        char pre[16];
        snprintf(pre, sizeof pre, "o%d", s);
        for (int f = 0; f < lc_red_nfields(&k->reds[s]); f++)
            lc_sb_printf(sb, "            %s %s_%c = ls%d_%d[lid + w];\n",
                         lc_red_ftype(g, &k->reds[s], f), pre, 'a' + f, s, f);
        char me[16];
        snprintf(me, sizeof me, "s%d", s);
        for (int f = 0; f < lc_red_nfields(&k->reds[s]); f++)
            lc_sb_printf(sb, "            s%d_%c = ls%d_%d[lid];\n", s, 'a' + f, s, f);
        lc_red_combine(g, sb, s, me, pre, "            ");
        for (int f = 0; f < lc_red_nfields(&k->reds[s]); f++)
            lc_sb_printf(sb, "            ls%d_%d[lid] = s%d_%c;\n", s, f, s, 'a' + f);
    }
    lc_sb_printf(sb, "        }\n        barrier(CLK_LOCAL_MEM_FENCE);\n    }\n");
    for (int s = 0; s < k->n_reds; s++)
        for (int f = 0; f < lc_red_nfields(&k->reds[s]); f++)
            lc_sb_printf(sb, "    s%d_%c = ls%d_%d[0];\n", s, 'a' + f, s, f);
}

static int lc_gen_reduce_split(struct lc_cg *g, struct lc_kcode *c, struct lc_sb *sb)
{
    struct lc_launch *l = lc_new_launch(c, "");
    if (!l)
        return -1;
    const struct lc_kernel *k = g->k;
    int nd = g->nd, nk = g->nk;
    int64_t M = 1, N = 1;
    for (int d = 0; d < nk; d++)
        M *= g->shape[d];
    for (int d = nk; d < nd; d++)
        N *= g->shape[d];
    size_t L = 1, P;
    unsigned cu = g->t->compute_units ? g->t->compute_units : 1;
    if (g->t->gpu) {
        L = g->t->max_work_group < 256 ? g->t->max_work_group : 256;
        int64_t want = N / (int64_t)(L * 16);
        int64_t cap = (int64_t)cu * 8 / (M > 0 ? M : 1);
        if (cap < 1) cap = 1;
        P = (size_t)(want < 1 ? 1 : want > cap ? cap : want);
    } else {
        int64_t want = N / 16384;
        int64_t cap = (int64_t)cu * 8;
        P = (size_t)(want < 1 ? 1 : want > cap ? cap : want);
    }
    /* Scratch: M counters (zeroed), then per slot and field M*P partials. */
    size_t off = lc_round_up((size_t)M * sizeof(int), 8);
    c->zero_bytes = (size_t)M * sizeof(int);
    lc_sb_printf(sb, "__kernel void @K@(");
    if (lc_common_params(g, l, sb) < 0 || lc_output_stride_params(g, l, sb, nk) < 0)
        return -1;
    union lc_scalar none = {0};
    lc_sb_printf(sb, ",\n    __global char *scratch_, const long sbase, const long P, const long N");
    if (lc_add_arg(l, LC_CGARG_SCRATCH, 0, 0, none) < 0 ||
        lc_add_arg(l, LC_CGARG_SCRATCH_BASE, 0, LC_INT64, none) < 0 ||
        lc_add_i64(l, (int64_t)P) < 0 || lc_add_i64(l, N) < 0)
        return -1;
    off = lc_partial_params(g, l, sb, off, (size_t)M * P);
    if (!off)
        return -1;
    c->scratch_bytes = off;
    lc_sb_printf(sb, ")\n{\n");
    if (L > 1)
        for (int s = 0; s < k->n_reds; s++)
            for (int f = 0; f < lc_red_nfields(&k->reds[s]); f++)
                lc_sb_printf(sb, "    __local %s ls%d_%d[%zu];\n", lc_red_ftype(g, &k->reds[s], f),
                             s, f, L);
    lc_sb_printf(sb, "    __local int last_[1];\n"
                     "    __global char *scratch = scratch_ + sbase;\n"
                     "    const long grp = get_group_id(0);\n"
                     "    const long m = grp / P, p = grp %% P;\n"
                     "    const int lid = get_local_id(0);\n"
                     "    const long L = get_local_size(0);\n");
    if (nk > 0)
        lc_unravel(sb, 0, nk, "m", "    ");
    lc_sb_printf(sb, "    {\n");
    lc_init_all(g, sb, "s", "    ");
    if (g->t->gpu)
        lc_sb_printf(sb, "    for (long r = p * L + lid; r < N; r += P * L) {\n");
    else
        lc_sb_printf(sb, "    const long t = p * L + lid, chunk = (N + P * L - 1) / (P * L);\n"
                         "    const long r_end = min(N, (t + 1) * chunk);\n");
    int vec = nd - nk == 1 && lc_vec_ok(g, nk);
    if (vec) {
        lc_vec_fold_loop(g, sb, "t * chunk", "r_end", g->t->vec, "    ");
    } else if (!g->t->gpu) {
        lc_sb_printf(sb, "    for (long r = t * chunk; r < r_end; r++) {\n");
    }
    if (vec) {
    } else if (nd - nk > 0) {
        lc_sb_printf(sb, "        {\n");
        lc_unravel(sb, nk, nd, "r", "        ");
        lc_fold_all(g, sb, "r", "        ");
        lc_sb_printf(sb, "        }\n");
    } else {
        lc_fold_all(g, sb, "r", "        ");
    }
    if (!vec)
        lc_sb_printf(sb, "    }\n");
    if (L > 1)
        lc_group_tree(g, sb, L);
    lc_sb_printf(sb, "    if (lid == 0) {\n");
    lc_store_partials(g, sb, "m * P + p");
    lc_sb_printf(sb, "        mem_fence(CLK_GLOBAL_MEM_FENCE);\n"
                     "        last_[0] = atomic_inc((volatile __global int *)scratch + m) == (int)(P - 1);\n"
                     "    }\n"
                     "    }\n"
                     "    barrier(CLK_LOCAL_MEM_FENCE);\n");
    if (L > 1) {
        /* The last group: its items fold partials lid, lid + L, ..., then
         * item 0 folds theirs (a fixed order: the same bits every run). */
        lc_sb_printf(sb, "    if (!last_[0]) return;\n"
                         "    mem_fence(CLK_GLOBAL_MEM_FENCE);\n");
        lc_init_all(g, sb, "s", "    ");
        lc_sb_printf(sb, "    for (long q = lid; q < P; q += L) {\n");
        for (int s = 0; s < k->n_reds; s++) {
            char me[16], o[16];
            snprintf(me, sizeof me, "s%d", s);
            snprintf(o, sizeof o, "o%d", s);
            lc_red_load(g, sb, s, o, "m * P + q", "        ");
            lc_red_combine(g, sb, s, me, o, "        ");
        }
        lc_sb_printf(sb, "    }\n");
        /* Item 0 folds the L items' states from local memory, in order. */
        for (int s = 0; s < k->n_reds; s++)
            for (int f = 0; f < lc_red_nfields(&k->reds[s]); f++)
                lc_sb_printf(sb, "    ls%d_%d[lid] = s%d_%c;\n", s, f, s, 'a' + f);
        lc_sb_printf(sb, "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                         "    if (lid != 0) return;\n"
                         "    for (int w = 1; w < L; w++) {\n");
        for (int s = 0; s < k->n_reds; s++) {
            char me[16], o[16];
            snprintf(me, sizeof me, "s%d", s);
            snprintf(o, sizeof o, "o%d", s);
            for (int f = 0; f < lc_red_nfields(&k->reds[s]); f++)
                lc_sb_printf(sb, "        const %s %s_%c = ls%d_%d[w];\n",
                             lc_red_ftype(g, &k->reds[s], f), o, 'a' + f, s, f);
            lc_red_combine(g, sb, s, me, o, "        ");
        }
        lc_sb_printf(sb, "    }\n");
        lc_emit_exprs(g, sb, 1, "    ");
        lc_store_outputs(g, sb, "    ", g->nk);
        lc_sb_printf(sb, "}\n");
    } else {
        lc_sb_printf(sb, "    if (lid != 0 || !last_[0]) return;\n"
                         "    mem_fence(CLK_GLOBAL_MEM_FENCE);\n");
        /* The last group: fold partials 0..P-1 in order. */
        lc_combine_partials(g, sb, "m * P + q");
    }
    l->work_dim = 1;
    l->use_local = 1;
    l->local[0] = L;
    l->local[1] = l->local[2] = 1;
    l->global[0] = (size_t)M * P * L;
    snprintf(c->schedule, sizeof c->schedule,
             "reduce: split over groups of %zu items, last group combines%s", L,
             vec ? ", 8-wide SIMD" : "");
    return 0;
}

/* ---- SCAN --------------------------------------------------------------------------- */

static const char *lc_scan_acc(struct lc_cg *g, int op, int dt)
{
    if ((op == LC_OP_CUMSUM || op == LC_OP_CUMPROD) && lc_dtype_is_float(dt))
        return g->acc_float;
    if ((op == LC_OP_CUMSUM || op == LC_OP_CUMPROD) && lc_dtype_kind(dt) == 'i' &&
        lc_dtype_size(dt) >= 4)
        return lc_dtype_size(dt) == 8 ? "ulong" : "uint";
    return lc_T(dt);
}

static void lc_scan_step(struct lc_sb *sb, int op, int dt, const char *acc, const char *v,
                         const char *A, const char *ind)
{
    switch (op) {
    case LC_OP_CUMSUM: lc_sb_printf(sb, "%s%s += (%s)%s;\n", ind, acc, A, v); break;
    case LC_OP_CUMPROD: lc_sb_printf(sb, "%s%s *= (%s)%s;\n", ind, acc, A, v); break;
    case LC_OP_CUMMAX: case LC_OP_CUMMIN: {
        const char *c = op == LC_OP_CUMMAX ? ">" : "<";
        if (lc_dtype_is_float(dt))
            lc_sb_printf(sb, "%sif (%s %s %s || isnan(%s)) %s = %s;\n", ind, v, c, acc, v, acc, v);
        else
            lc_sb_printf(sb, "%sif (%s %s %s) %s = %s;\n", ind, v, c, acc, acc, v);
        break;
    }
    default: break;
    }
}

static const char *lc_scan_identity(int op, int dt)
{
    switch (op) {
    case LC_OP_CUMSUM: return "0";
    case LC_OP_CUMPROD: return "1";
    case LC_OP_CUMMAX: return lc_limit(dt, 0);
    default: return lc_limit(dt, 1);
    }
}

/* The vector part of a scan chunk loop: advances i<nd-1> and acc over whole
 * W-blocks. With `write`, each block's inclusive prefix (log-step shifts in
 * registers, plus the carry) is stored; else only the block totals are
 * folded into acc. */
static void lc_vec_scan_loop(struct lc_cg *g, struct lc_sb *sb, int write, int vexpr,
                             const char *A, const char *T)
{
    int W = g->t->vec, nr = g->nd - 1;
    int op = g->k->scan_op;
    const char *ident = op == LC_OP_CUMSUM ? "0" : "1";
    const char *sym = op == LC_OP_CUMSUM ? "+" : "*";
    int adt = !strcmp(A, "double") ? LC_FLOAT64 : LC_FLOAT32;
    /* Chunk totals (phase 1) keep W lane accumulators, folded once at the
     * end: one dependent add per block instead of W. */
    if (!write)
        lc_sb_printf(sb, "    %s%d q_ = (%s%d)(%s);\n", A, W, A, W, ident);
    lc_sb_printf(sb, "    for (; i%d + %d <= end; i%d += %d) {\n", nr, W, nr, W);
    lc_emit_exprs_vec(g, sb, W, nr, "        ");
    char v[32];
    snprintf(v, sizeof v, "w%d", vexpr);
    lc_sb_printf(sb, "        %s%d p_ = ", A, W);
    lc_vcast(sb, v, g->k->exprs[vexpr].dtype, adt, W);
    lc_sb_printf(sb, ";\n");
    if (!write) {
        lc_sb_printf(sb, "        q_ %s= p_;\n    }\n", sym);
        for (int l = 0; l < W; l++)
            lc_sb_printf(sb, "    acc %s= q_.s%x;\n", sym, l);
        return;
    }
    for (int sh = 1; sh < W; sh *= 2) {
        lc_sb_printf(sb, "        p_ %s= (%s%d)(", sym, A, W);
        /* Lane l takes p_[l - sh], or the identity below lane sh. */
        for (int l = 0; l < W; l++) {
            if (l < sh)
                lc_sb_printf(sb, "%s(%s)%s", l ? ", " : "", A, ident);
            else
                lc_sb_printf(sb, "%sp_.s%x", l ? ", " : "", l - sh);
        }
        lc_sb_printf(sb, ");\n");
    }
    lc_sb_printf(sb, "        p_ %s= (%s%d)(acc);\n        acc = p_.s%x;\n", sym, A, W, W - 1);
    /* Store W outputs at the block's first index. */
    const struct lc_kernel *k = g->k;
    lc_sb_printf(sb, "        vstore%d(", W);
    lc_vcast(sb, "p_", adt, k->outputs[0].dtype, W);
    lc_sb_printf(sb, ", 0, out0 + (");
    int any = 0;
    for (int d = 0; d < g->nd; d++) {
        int64_t st = g->ostr[0][d];
        if (st == 0)
            continue;
        lc_sb_printf(sb, "%s", any ? " + " : "");
        if (st == 1)
            lc_sb_printf(sb, "i%d", d);
        else
            lc_sb_printf(sb, "i%d * os0_%d", d, d);
        any = 1;
    }
    lc_sb_printf(sb, "%s));\n    }\n", any ? "" : "0");
    (void)T;
}

/* Scan kernels: dims [0, nd-1) are independent rows, dim nd-1 is scanned.
 * The output expr is the prologue value; the scan writes acc after each step. */
/* Each of the group's L items puts its `acc` in local tot[] and the group
 * scans tot[] in place (inclusive, item order). */
static void lc_group_inclusive_scan(struct lc_sb *sb, int op, int dt, const char *A,
                                    const char *id, size_t L)
{
    lc_sb_printf(sb, "    tot[lid] = acc;\n"
                     "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                     "    for (int off = 1; off < %zu; off <<= 1) {\n"
                     "        %s t_ = lid >= off ? tot[lid - off] : (%s)(%s);\n"
                     "        barrier(CLK_LOCAL_MEM_FENCE);\n", L, A, A, id);
    lc_scan_step(sb, op, dt, "t_", "tot[lid]", A, "        ");
    lc_sb_printf(sb, "        tot[lid] = t_;\n"
                     "        barrier(CLK_LOCAL_MEM_FENCE);\n"
                     "    }\n");
}

/* GPU scans of long rows: tiles of L*E elements per work-group, in three
 * launches that assume no progress between groups: (1) each tile's total
 * (coalesced loads, a tree in local memory); (2) one group per row scans its
 * tile totals into carries; (3) each tile again: coalesced loads into local
 * memory, each item scans E adjacent values, the items' totals are scanned
 * in local memory, the carry added, coalesced stores. */
static int lc_gen_scan_tiles(struct lc_cg *g, struct lc_kcode *c, struct lc_sb *sb, int64_t M,
                             int64_t N)
{
    const struct lc_kernel *k = g->k;
    int nd = g->nd, nr = nd - 1, op = k->scan_op, dt = k->outputs[0].dtype;
    const char *A = lc_scan_acc(g, op, dt), *T = lc_T(dt), *id = lc_scan_identity(op, dt);
    int vexpr = k->outputs[0].expr;
    size_t L = g->t->max_work_group < 256 ? g->t->max_work_group : 256;
    if (L < 32)
        return 1;  /* not worth it: the caller uses the chunk schedule */
    int E = 8;
    int64_t TS = (int64_t)L * E, P = (N + TS - 1) / TS;
    /* Local index k lives at k + k / 8: an item's E = 8 adjacent values
     * then sit 9 apart across items, not 8 (fewer bank conflicts). */
    union lc_scalar none = {0};
    c->scratch_bytes = (size_t)M * (size_t)P * 8;
    c->zero_bytes = 0;
    const char *phases[3] = {"_p1", "_p2", "_p3"};
    char v[16];
    snprintf(v, sizeof v, "v%d", vexpr);
    for (int ph = 0; ph < 3; ph++) {
        struct lc_launch *l = lc_new_launch(c, phases[ph]);
        if (!l)
            return -1;
        lc_sb_printf(sb, "__kernel void @K@%s(", phases[ph]);
        if (lc_common_params(g, l, sb) < 0 || lc_output_stride_params(g, l, sb, nd) < 0)
            return -1;
        lc_sb_printf(sb, ", const long M, __global char *part_, const long sbase, const long P)\n{\n");
        if (lc_add_i64(l, M) < 0 || lc_add_arg(l, LC_CGARG_SCRATCH, 0, 0, none) < 0 ||
            lc_add_arg(l, LC_CGARG_SCRATCH_BASE, 0, LC_INT64, none) < 0 || lc_add_i64(l, P) < 0)
            return -1;
        lc_sb_printf(sb, "    __global %s *part = (__global %s *)(part_ + sbase);\n"
                         "    const int lid = get_local_id(0);\n", A, A);
        l->work_dim = 1;
        l->use_local = 1;
        l->local[0] = L;
        l->local[1] = l->local[2] = 1;
        if (ph == 1) {
            /* One group per row (as wide as the device allows, up to 1024):
             * each item folds a run of tile totals, the items' sums are
             * scanned in local memory, then each item writes exclusive
             * carries over its run. */
            size_t L2 = g->t->max_work_group < 1024 ? g->t->max_work_group : 1024;
            size_t L = L2 < 1 ? 1 : L2;
            l->local[0] = L;
            lc_sb_printf(sb, "    __local %s tot[%zu];\n"
                             "    const long m = get_group_id(0);\n"
                             "    const long run = (P + %zu - 1) / %zu;\n"
                             "    const long q0 = min(P, lid * run), q1 = min(P, q0 + run);\n"
                             "    %s acc = %s;\n"
                             "    for (long q = q0; q < q1; q++) {\n"
                             "        const %s t_ = part[m * P + q];\n",
                         A, L, L, L, A, id, A);
            lc_scan_step(sb, op, dt, "acc", "t_", A, "        ");
            lc_sb_printf(sb, "    }\n");
            lc_group_inclusive_scan(sb, op, dt, A, id, L);
            lc_sb_printf(sb, "    acc = lid > 0 ? tot[lid - 1] : (%s)(%s);\n"
                             "    for (long q = q0; q < q1; q++) {\n"
                             "        const %s t_ = part[m * P + q];\n"
                             "        part[m * P + q] = acc;\n", A, id, A);
            lc_scan_step(sb, op, dt, "acc", "t_", A, "        ");
            lc_sb_printf(sb, "    }\n}\n");
            l->global[0] = (size_t)M * L;
            continue;
        }
        lc_sb_printf(sb, "    __local %s buf[%lld];\n"
                         "    const long grp = get_group_id(0);\n"
                         "    const long m = grp / P, q = grp %% P;\n", A, (long long)(ph == 0 ? (int64_t)L : TS + TS / 8));
        if (nr > 0)
            lc_unravel(sb, 0, nr, "m", "    ");
        lc_sb_printf(sb, "    const long base = q * %lld;\n", (long long)TS);
        if (ph == 0) {
            lc_sb_printf(sb, "    %s acc = %s;\n"
                             "    for (int j = 0; j < %d; j++) {\n"
                             "        const long i%d = base + j * %zu + lid;\n"
                             "        if (i%d < n%d) {\n", A, id, E, nr, L, nr, nr);
            lc_emit_exprs(g, sb, 0, "            ");
            lc_scan_step(sb, op, dt, "acc", v, A, "            ");
            lc_sb_printf(sb, "        }\n    }\n"
                             "    buf[lid] = acc;\n"
                             "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                             "    for (int h = %zu / 2; h > 0; h >>= 1) {\n"
                             "        if (lid < h) {\n"
                             "            %s t_ = buf[lid];\n", L, A);
            lc_scan_step(sb, op, dt, "t_", "buf[lid + h]", A, "            ");
            lc_sb_printf(sb, "            buf[lid] = t_;\n"
                             "        }\n"
                             "        barrier(CLK_LOCAL_MEM_FENCE);\n"
                             "    }\n"
                             "    if (lid == 0)\n"
                             "        part[m * P + q] = buf[0];\n}\n");
        } else {
            lc_sb_printf(sb, "    __local %s tot[%zu];\n"
                             "    const int E_ = %d;\n"
                             "    for (int j = 0; j < %d; j++) {\n"
                             "        const long i%d = base + j * %zu + lid;\n"
                             "        %s x_ = %s;\n"
                             "        if (i%d < n%d) {\n", A, L, E, E, nr, L, A, id, nr, nr);
            lc_emit_exprs(g, sb, 0, "            ");
            lc_sb_printf(sb, "            x_ = (%s)%s;\n"
                             "        }\n"
                             "        buf[j * %zu + lid + (lid >> 3)] = x_;\n"
                             "    }\n"
                             "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                             "    %s acc = %s;\n"
                             "    for (int e = 0; e < %d; e++) {\n", A, v, L + L / 8, A, id, E);
            lc_scan_step(sb, op, dt, "acc", "buf[lid * (E_ + 1) + e]", A, "        ");
            lc_sb_printf(sb, "        buf[lid * (E_ + 1) + e] = acc;\n"
                             "    }\n");
            lc_group_inclusive_scan(sb, op, dt, A, id, L);
            lc_sb_printf(sb, "    %s pre = part[m * P + q];\n"
                             "    if (lid > 0) {\n", A);
            lc_scan_step(sb, op, dt, "pre", "tot[lid - 1]", A, "        ");
            lc_sb_printf(sb, "    }\n"
                             "    for (int e = 0; e < %d; e++) {\n"
                             "        %s t_ = pre;\n", E, A);
            lc_scan_step(sb, op, dt, "t_", "buf[lid * (E_ + 1) + e]", A, "        ");
            lc_sb_printf(sb, "        buf[lid * (E_ + 1) + e] = t_;\n"
                             "    }\n"
                             "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                             "    for (int j = 0; j < %d; j++) {\n"
                             "        const long i%d = base + j * %zu + lid;\n"
                             "        if (i%d < n%d) {\n"
                             "            const %s %s = (%s)buf[j * %zu + lid + (lid >> 3)];\n",
                         E, nr, L, nr, nr, T, v, T, L + L / 8);
            lc_store_outputs(g, sb, "            ", nd);
            lc_sb_printf(sb, "        }\n    }\n}\n");
        }
        l->global[0] = (size_t)(M * P) * L;
    }
    snprintf(c->schedule, sizeof c->schedule,
             "scan: tiles of %lld per work-group, three phases", (long long)TS);
    return 0;
}

static int lc_gen_scan(struct lc_cg *g, struct lc_kcode *c, struct lc_sb *sb)
{
    const struct lc_kernel *k = g->k;
    int nd = g->nd, nr = nd - 1;
    int64_t M = 1, N = g->shape[nd - 1];
    for (int d = 0; d < nr; d++)
        M *= g->shape[d];
    int op = k->scan_op;
    int dt = k->outputs[0].dtype;
    const char *A = lc_scan_acc(g, op, dt);
    const char *T = lc_T(dt);
    int vexpr = k->outputs[0].expr;
    unsigned cu = g->t->compute_units ? g->t->compute_units : 1;
    int64_t rows_enough = g->t->gpu ? (int64_t)cu * 256 : (int64_t)cu * 8;
    int split = M < rows_enough && N >= 8192;
    size_t P = 1;
    if (split) {
        int64_t want = N / 4096, cap = g->t->gpu ? 16384 : (int64_t)cu * 8;
        P = (size_t)(want < 1 ? 1 : want > cap ? cap : want);
    }
    union lc_scalar none = {0};
    /* The value stored: acc converted to the output dtype. */
    const char *phases[3] = {"_p1", "_p2", "_p3"};
    /* On PoCL the chunk loops of sums and products run W lanes at a time
     * (phase 3 with an in-register prefix sum) when reads and the output are
     * contiguous along the scanned dim. */
    int vscan = split && (op == LC_OP_CUMSUM || op == LC_OP_CUMPROD) && lc_dtype_is_float(dt) &&
                lc_vec_ok(g, nr) && lc_stclass(g->ostr[0][nr]) == LC_ST_UNIT;
    if (split && g->t->gpu) {
        int rc = lc_gen_scan_tiles(g, c, sb, M, N);
        if (rc != 1)
            return rc;
    }
    int nphase = split ? 3 : 1;
    if (split) {
        c->scratch_bytes = (size_t)M * P * 8;
        c->zero_bytes = 0;
    }
    for (int ph = 0; ph < nphase; ph++) {
        struct lc_launch *l = lc_new_launch(c, split ? phases[ph] : "");
        if (!l)
            return -1;
        lc_sb_printf(sb, "__kernel void @K@%s(", split ? phases[ph] : "");
        if (lc_common_params(g, l, sb) < 0 || lc_output_stride_params(g, l, sb, nd) < 0)
            return -1;
        lc_sb_printf(sb, ", const long M");
        if (lc_add_i64(l, M) < 0)
            return -1;
        if (split) {
            lc_sb_printf(sb, ", __global char *part_, const long sbase, const long P");
            if (lc_add_arg(l, LC_CGARG_SCRATCH, 0, 0, none) < 0 ||
                lc_add_arg(l, LC_CGARG_SCRATCH_BASE, 0, LC_INT64, none) < 0 ||
                lc_add_i64(l, (int64_t)P) < 0)
                return -1;
        }
        lc_sb_printf(sb, ")\n{\n");
        if (split)
            lc_sb_printf(sb, "    __global %s *part = (__global %s *)(part_ + sbase);\n", A, A);
        l->work_dim = 1;
        if (!split) {
            lc_sb_printf(sb, "    const long m = get_global_id(0);\n    if (m >= M) return;\n");
            if (nr > 0)
                lc_unravel(sb, 0, nr, "m", "    ");
            lc_sb_printf(sb, "    %s acc = %s;\n", A, lc_scan_identity(op, dt));
            lc_sb_printf(sb, "    for (long i%d = 0; i%d < n%d; i%d++) {\n", nr, nr, nr, nr);
            lc_emit_exprs(g, sb, 0, "        ");
            char v[16];
            snprintf(v, sizeof v, "v%d", vexpr);
            lc_scan_step(sb, op, dt, "acc", v, A, "        ");
            lc_sb_printf(sb, "        {\n            const %s v%d = (%s)acc;\n", T, vexpr, T);
            lc_store_outputs(g, sb, "            ", nd);
            lc_sb_printf(sb, "        }\n    }\n}\n");
            l->global[0] = (size_t)M;
            snprintf(c->schedule, sizeof c->schedule, "scan: one item per row");
        } else if (ph == 1) {
            /* Exclusive scan of each row's P chunk totals, in place. */
            lc_sb_printf(sb, "    const long m = get_global_id(0);\n    if (m >= M) return;\n"
                             "    %s acc = %s;\n"
                             "    for (long q = 0; q < P; q++) {\n"
                             "        const %s t = part[m * P + q];\n"
                             "        part[m * P + q] = acc;\n", A, lc_scan_identity(op, dt), A);
            lc_scan_step(sb, op, dt, "acc", "t", A, "        ");
            lc_sb_printf(sb, "    }\n}\n");
            l->global[0] = (size_t)M;
        } else {
            lc_sb_printf(sb, "    const long g_ = get_global_id(0);\n"
                             "    const long m = g_ / P, q = g_ %% P;\n"
                             "    if (m >= M) return;\n");
            if (nr > 0)
                lc_unravel(sb, 0, nr, "m", "    ");
            lc_sb_printf(sb, "    const long chunk = (n%d + P - 1) / P;\n"
                             "    const long end = min(n%d, (q + 1) * chunk);\n", nr, nr);
            if (ph == 0)
                lc_sb_printf(sb, "    %s acc = %s;\n", A, lc_scan_identity(op, dt));
            else
                lc_sb_printf(sb, "    %s acc = part[m * P + q];\n", A);
            lc_sb_printf(sb, "    long i%d = q * chunk;\n", nr);
            if (vscan)
                lc_vec_scan_loop(g, sb, ph == 2, vexpr, A, T);
            lc_sb_printf(sb, "    for (; i%d < end; i%d++) {\n", nr, nr);
            lc_emit_exprs(g, sb, 0, "        ");
            char v[16];
            snprintf(v, sizeof v, "v%d", vexpr);
            lc_scan_step(sb, op, dt, "acc", v, A, "        ");
            if (ph == 2) {
                lc_sb_printf(sb, "        {\n            const %s v%d = (%s)acc;\n", T, vexpr, T);
                lc_store_outputs(g, sb, "            ", nd);
                lc_sb_printf(sb, "        }\n");
            }
            lc_sb_printf(sb, "    }\n");
            if (ph == 0)
                lc_sb_printf(sb, "    part[m * P + q] = acc;\n");
            lc_sb_printf(sb, "}\n");
            l->global[0] = (size_t)M * P;
            snprintf(c->schedule, sizeof c->schedule, "scan: three phases over chunks of each row");
        }
        if (g->t->gpu && l->global[0]) {
            size_t wg = g->t->max_work_group < 64 ? g->t->max_work_group : 64;
            l->use_local = 1;
            l->local[0] = wg;
            l->local[1] = l->local[2] = 1;
            l->global[0] = lc_round_up(l->global[0], wg);
        }
    }
    return 0;
}

/* ---- the entry point ---------------------------------------------------------------- */

static int lc_uses_double(struct lc_cg *g)
{
    const struct lc_kernel *k = g->k;
    for (int i = 0; i < k->n_exprs; i++)
        if (k->exprs[i].dtype == LC_FLOAT64 || k->exprs[i].cdtype == LC_FLOAT64)
            return 1;
    for (int o = 0; o < k->n_outputs; o++)
        if (k->outputs[o].dtype == LC_FLOAT64)
            return 1;
    for (int a = 0; a < k->n_access; a++)
        if (k->access[a].dtype == LC_FLOAT64)
            return 1;
    return 0;
}

void lc_kcode_free(struct lc_kcode *c)
{
    for (int i = 0; i < c->n_launches; i++)
        free(c->launches[i].args);
    free(c->launches);
    free(c->source);
    memset(c, 0, sizeof *c);
}

lc_status lc_codegen(const struct lc_plan *p, int ki, const struct lc_target *t,
                     struct lc_kcode *out, struct lc_error *e)
{
    const struct lc_kernel *k = &p->kernels[ki];
    struct lc_cg g;
    memset(&g, 0, sizeof g);
    memset(out, 0, sizeof *out);
    g.p = p;
    g.k = k;
    g.t = t;
    g.e = e;
    g.nd = k->ndim;
    g.lane = -1;
    g.nk = k->kind == LC_KERNEL_REDUCE ? k->nkept : k->ndim;
    memcpy(g.shape, k->shape, sizeof g.shape);
    if (lc_uses_double(&g)) {
        if (!t->fp64)
            return lc_error_set(e, LC_ERR_UNSUPPORTED,
                                "float64 is not supported on device '%s' (it has no fp64); use "
                                "float32 or a device with double precision",
                                t->device_name ? t->device_name : "?");
        g.f64 = 1;
    }
    g.acc_float = t->fp64 ? "double" : "float";
    g.shifted = t->gpu && t->fp64;
    if (t->fp64 && (k->kind != LC_KERNEL_MAP))
        g.f64 = 1;
    for (int a = 0; a < k->n_access; a++)
        if (k->access[a].kind == LC_ACCESS_IOTA && lc_dtype_is_float(k->access[a].dtype) && t->fp64)
            g.f64 = 1;
    g.acc = malloc((size_t)(k->n_access ? k->n_access : 1) * sizeof *g.acc);
    g.ostr = malloc((size_t)(k->n_outputs ? k->n_outputs : 1) * sizeof *g.ostr);
    if (!g.acc || !g.ostr) {
        free(g.acc);
        free(g.ostr);
        return lc_error_set(e, LC_ERR_NOMEM, "out of host memory generating a kernel");
    }
    memcpy(g.acc, k->access, (size_t)k->n_access * sizeof *g.acc);
    for (int o = 0; o < k->n_outputs; o++)
        memcpy(g.ostr[o], k->outputs[o].strides, sizeof g.ostr[o]);
    lc_collapse(&g);

    struct lc_sb body = {0};
    int rc;
    const char *kind = "map";
    if (k->kind == LC_KERNEL_MAP) {
        rc = lc_gen_map(&g, out, &body);
    } else if (k->kind == LC_KERNEL_REDUCE) {
        kind = "reduce";
        int64_t M = 1, N = 1;
        for (int d = 0; d < g.nk; d++)
            M *= g.shape[d];
        for (int d = g.nk; d < g.nd; d++)
            N *= g.shape[d];
        unsigned cu = t->compute_units ? t->compute_units : 1;
        int64_t enough = t->gpu ? (int64_t)cu * 512 : (int64_t)cu * 8;
        if (t->gpu) {
            /* Column reductions: one coalesced item per output when there are
             * enough outputs to fill the device, else blocks x row chunks.
             * Row reductions and full ones: work-groups per output. */
            if (lc_columnlike(&g))
                rc = M >= (int64_t)cu * 2048 || N < 64 ? lc_gen_reduce_loop(&g, out, &body)
                                                       : lc_gen_reduce_colsplit(&g, out, &body, M, N);
            else if (N < 64)
                rc = lc_gen_reduce_loop(&g, out, &body);
            else
                rc = lc_gen_reduce_split(&g, out, &body);
        } else if (M >= enough && g.nk == 1 && M >= t->vec && lc_vec_ok(&g, 0)) {
            rc = N >= 256 ? lc_gen_reduce_colblock(&g, out, &body, M, N)
                          : lc_gen_reduce_cols(&g, out, &body, M);
        } else if (M >= enough || N < 4096) {
            rc = lc_gen_reduce_loop(&g, out, &body);
        } else {
            rc = lc_gen_reduce_split(&g, out, &body);
        }
    } else {
        kind = "scan";
        rc = lc_gen_scan(&g, out, &body);
    }
    struct lc_sb src = {0};
    if (rc == 0 && !body.oom) {
        if (g.f64)
            lc_sb_printf(&src, "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n");
        /* No a*b+c contraction into fma: results stay NumPy's, bit for bit
         * where the operations are correctly rounded. */
        lc_sb_printf(&src, "#pragma OPENCL FP_CONTRACT OFF\n");
        lc_sb_printf(&src, "/* lazycl %s kernel: %d fused op%s; %s. */\n", kind, k->n_fused,
                     k->n_fused == 1 ? "" : "s", out->schedule);
        lc_cg_helpers(&src, &g.h);
        for (int s = 0; s < k->n_reds; s++)
            if (lc_shifted(&g, s)) {
                const char *A = lc_red_acc(&g, &k->reds[s]);
                lc_sb_printf(&src,
                             "static inline %s lc_var_%d(%s n, %s s1, %s s2) {\n"
                             "    const %s v = (s2 - s1 * s1 / n) / fmax(n - (%s)%d, (%s)0);\n"
                             "    return v < 0 ? (%s)0 : v;\n}\n",
                             A, s, A, A, A, A, A, k->reds[s].ddof, A, A);
            }
        lc_sb_printf(&src, "%s", body.s ? body.s : "");
    }
    lc_sb_free(&body);
    free(g.acc);
    free(g.ostr);
    if (rc < 0 || src.oom || !src.s) {
        lc_sb_free(&src);
        lc_kcode_free(out);
        return lc_error_set(e, LC_ERR_NOMEM, "out of host memory generating a kernel");
    }
    /* Name the kernels after the hash of the source with placeholders. */
    uint64_t h = XXH3_64bits(src.s, src.len);
    char base[64];
    int dt = k->n_outputs ? k->outputs[0].dtype : (k->n_reds ? k->reds[0].dtype : LC_FLOAT32);
    snprintf(base, sizeof base, "lc_%s_%s_%016llx", kind, lc_dtype_short(dt),
             (unsigned long long)h);
    struct lc_sb fin = {0};
    for (const char *s = src.s; *s;) {
        const char *q = strstr(s, "@K@");
        if (!q) {
            lc_sb_printf(&fin, "%s", s);
            break;
        }
        lc_sb_printf(&fin, "%.*s%s", (int)(q - s), s, base);
        s = q + 3;
    }
    lc_sb_free(&src);
    if (fin.oom) {
        lc_sb_free(&fin);
        lc_kcode_free(out);
        return lc_error_set(e, LC_ERR_NOMEM, "out of host memory generating a kernel");
    }
    out->source = fin.s;
    for (int i = 0; i < out->n_launches; i++) {
        char suffix[8];
        memcpy(suffix, out->launches[i].name, sizeof suffix);
        suffix[sizeof suffix - 1] = '\0';
        snprintf(out->launches[i].name, sizeof out->launches[i].name, "%s%s", base, suffix);
    }
    return LC_OK;
}
