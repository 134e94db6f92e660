/* emit.c: the shared emitter: collapsed dims, kernel parameters and arguments, addresses,
 * scalar and vector expressions. */
#include "codegen/cg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

void lc_collapse(struct lc_cg *g)
{
    const struct lc_kernel *k = g->k;
    if (k->kind == LC_KERNEL_MAP || k->kind == LC_KERNEL_STORE) {
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

int64_t lc_kept_count(const struct lc_cg *g)
{
    int64_t M = 1;
    for (int d = 0; d < g->nk; d++)
        M *= g->shape[d];
    return M;
}

int64_t lc_reduced_count(const struct lc_cg *g)
{
    int64_t N = 1;
    for (int d = g->nk; d < g->nd; d++)
        N *= g->shape[d];
    return N;
}

/* ---- arguments ---------------------------------------------------------------------- */

int lc_add_arg(struct lc_launch *l, enum lc_cgarg_kind kind, int index, int dtype,
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

int lc_add_offset(struct lc_launch *l, const struct lc_access *x, int a, int64_t off)
{
    const struct lc_node *leaf = x->leaf;
    if (!leaf || (leaf->op != LC_OP_BUFFER && leaf->op != LC_OP_IOTA))
        return lc_add_i64(l, off);
    union lc_scalar d = {.i = off - leaf->offset};
    return lc_add_leaf_arg(l, a, LC_FROM_OFFSET, LC_INT64, d);
}

int lc_add_i64(struct lc_launch *l, int64_t x)
{
    union lc_scalar v;
    v.i = x;
    return lc_add_arg(l, LC_CGARG_SCALAR, 0, LC_INT64, v);
}

int lc_stclass(int64_t s)
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
int lc_common_params(struct lc_cg *g, struct lc_launch *l, struct lc_sb *sb)
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
        } else if (x->kind == LC_ACCESS_RANDOM) {
            /* The key and the counter of element 0, raw 64-bit words (engine/xplan.c). */
            union lc_scalar key = x->value, ctr = x->step;
            lc_sb_printf(sb, "%s\n    const ulong a%d_k, const ulong a%d_c", sep, a, a);
            sep = ",";
            if (lc_add_leaf_arg(l, a, LC_FROM_VALUE, LC_UINT64, key) < 0 ||
                lc_add_leaf_arg(l, a, LC_FROM_STEP, LC_UINT64, ctr) < 0)
                return -1;
        } else if (k->kind == LC_KERNEL_STORE && x->kind == LC_ACCESS_INPUT &&
                   x->source == k->access[k->store_access].source) {
            /* The array a store writes (every read of it shares the pointer). */
            lc_sb_printf(sb, "%s\n    __global %s *a%d", sep, lc_T(x->dtype), a);
            sep = ",";
            if (lc_add_arg(l, LC_CGARG_INPUT, x->source, 0, none) < 0)
                return -1;
        } else {
            lc_sb_printf(sb, "%s\n    __global const %s *restrict a%d", sep, lc_T(x->dtype), a);
            sep = ",";
            if (lc_add_arg(l, x->kind == LC_ACCESS_INPUT ? LC_CGARG_INPUT : LC_CGARG_TEMP,
                           x->source, 0, none) < 0)
                return -1;
        }
        lc_sb_printf(sb, ", const long a%d_o", a);
        if (lc_add_offset(l, x, a, x->offset) < 0)
            return -1;
        for (int d = 0; d < cover; d++)
            if (lc_stclass(x->strides[d]) == LC_ST_ANY) {
                lc_sb_printf(sb, ", const long a%d_s%d", a, d);
                if (lc_add_i64(l, x->strides[d]) < 0)
                    return -1;
            }
        for (int j = 0; j < x->n_dyn; j++)
            if (lc_stclass(x->dyn_stride[j]) == LC_ST_ANY) {
                lc_sb_printf(sb, ", const long a%d_g%d", a, j);
                if (lc_add_i64(l, x->dyn_stride[j]) < 0)
                    return -1;
            }
    }
    for (int d = 0; d < g->nd; d++) {
        lc_sb_printf(sb, "%s\n    const long n%d", sep, d);
        sep = ",";
        if (lc_add_i64(l, g->shape[d]) < 0)
            return -1;
    }
    /* Gathers: the extent each index is checked against, and where an index
     * out of range is reported. */
    int gathers = 0;
    for (int i = 0; i < k->n_exprs; i++)
        if (k->exprs[i].op == LC_EXPR_INDEX) {
            lc_sb_printf(sb, ",\n    const long x%d_n", i);
            if (lc_add_i64(l, k->exprs[i].size) < 0)
                return -1;
            gathers = 1;
        }
    if (gathers) {
        lc_sb_printf(sb, ",\n    __global int *restrict lc_err");
        if (lc_add_arg(l, LC_CGARG_ERROR, 0, 0, none) < 0)
            return -1;
    }
    return 0;
}

int lc_has_gather(const struct lc_cg *g)
{
    for (int i = 0; i < g->k->n_exprs; i++)
        if (g->k->exprs[i].op == LC_EXPR_INDEX)
            return 1;
    return 0;
}

/* The address of access a at index vars i0..: "a3_o + i0 * a3_s0 + i1". */
void lc_addr(struct lc_cg *g, struct lc_sb *sb, int a)
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
    for (int j = 0; j < x->n_dyn; j++) {
        int c = lc_stclass(x->dyn_stride[j]);
        if (c == LC_ST_UNIT)
            lc_sb_printf(sb, " + v%d", x->dyn[j] - 1);
        else if (c == LC_ST_ANY)
            lc_sb_printf(sb, " + v%d * a%d_g%d", x->dyn[j] - 1, a, j);
    }
}

/* ---- expressions ------------------------------------------------------------------ */

static void lc_describe_expr(struct lc_sb *sb, const struct lc_expr *x)
{
    if (!x->node)
        return;
    lc_sb_printf(sb, " /* %s%s */", x->op == LC_EXPR_REDUCED ? "result of " :
                 x->op == LC_EXPR_INDEX ? "index checked for " : "", lc_op_name(x->node->op));
}

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
/* A store's own read of its target, used by nothing: the place it writes,
 * not a value (no load is emitted for it). */
static int lc_unread_target(const struct lc_kernel *k, int i)
{
    if (k->kind != LC_KERNEL_STORE || k->exprs[i].access != k->store_access ||
        k->store_value == i || k->store_pred == i)
        return 0;
    for (int j = 0; j < k->n_exprs; j++)
        for (int q = 0; q < k->exprs[j].n_in; q++)
            if (k->exprs[j].in[q] == i)
                return 0;
    return 1;
}

void lc_emit_exprs(struct lc_cg *g, struct lc_sb *sb, int phase, const char *ind)
{
    const struct lc_kernel *k = g->k;
    for (int i = 0; i < k->n_exprs; i++) {
        const struct lc_expr *x = &k->exprs[i];
        if (x->epilogue != phase || (x->access >= 0 && lc_unread_target(k, i)))
            continue;
        lc_emit_expr(g, sb, i, ind);
    }
}

void lc_emit_expr(struct lc_cg *g, struct lc_sb *sb, int i, const char *ind)
{
    const struct lc_kernel *k = g->k;
    {
        const struct lc_expr *x = &k->exprs[i];
        lc_sb_printf(sb, "%sconst %s v%d = ", ind, lc_T(x->dtype), i);
        if (x->op == LC_EXPR_REDUCED) {
            lc_finalize_expr(g, sb, x->slot);
        } else if (x->op == LC_EXPR_INDEX) {
            /* A uint64 index past the long range is out of range anyway. */
            int it = k->exprs[x->in[0]].dtype;
            if (it == LC_UINT64)
                lc_sb_printf(sb, "lc_gidx(v%d > (ulong)LONG_MAX ? LONG_MAX : (long)v%d, x%d_n, "
                             "lc_err, %d)", x->in[0], x->in[0], i, x->axis);
            else
                lc_sb_printf(sb, "lc_gidx((long)v%d, x%d_n, lc_err, %d)", x->in[0], i, x->axis);
        } else if (x->access >= 0) {
            const struct lc_access *a = &g->acc[x->access];
            if (a->kind == LC_ACCESS_CONST) {
                lc_sb_printf(sb, "a%d_v", x->access);
            } else if (a->kind == LC_ACCESS_IOTA) {
                lc_sb_printf(sb, "(%s)(a%d_v + a%d_st * (%s)(", lc_T(x->dtype), x->access,
                             x->access, lc_iota_type(g, x->dtype));
                lc_addr(g, sb, x->access);
                lc_sb_printf(sb, "))");
            } else if (a->kind == LC_ACCESS_RANDOM && g->lane >= 0 &&
                       a->strides[g->lane_dim] == 1) {
                lc_sb_printf(sb, "t%d.s%d", x->access, g->lane);   /* its quad, read before */
            } else if (a->kind == LC_ACCESS_RANDOM) {
                lc_random_expr(g, sb, x->access);
            } else if (g->lane >= 0 && a->strides[g->lane_dim] == 1 && !a->n_dyn) {
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

/* ---- index helpers ------------------------------------------------------------------ */

/* Declare i<lo>..i<hi-1> from a linear index `lin` over those dims. */
void lc_unravel(struct lc_sb *sb, int lo, int hi, const char *lin, const char *ind)
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

void lc_store_outputs(struct lc_cg *g, struct lc_sb *sb, const char *ind, int cover)
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

int lc_output_stride_params(struct lc_cg *g, struct lc_launch *l, struct lc_sb *sb,
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

struct lc_launch *lc_new_launch(struct lc_kcode *c, const char *suffix)
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

int lc_fixed_groups(const struct lc_target *t, struct lc_launch *l, size_t wg)
{
    if (!t->fixed_groups || !l->global[0])
        return 0;
    l->use_local = 1;
    l->local[0] = wg;
    l->local[1] = l->local[2] = 1;
    l->global[0] = lc_round_up(l->global[0], wg);
    return 1;
}

size_t lc_round_up(size_t x, size_t m)
{
    return (x + m - 1) / m * m;
}

/* ---- vector expressions (explicit SIMD) -------------------------------------------- */

static int lc_vec_op_ok(int op)
{
    switch (op) {
    case LC_OP_ADD: case LC_OP_SUB: case LC_OP_MUL: case LC_OP_DIV: case LC_OP_NEG:
    case LC_OP_POS: case LC_OP_ABS: case LC_OP_SQUARE: case LC_OP_RECIP: case LC_OP_CAST:
    case LC_OP_MAXIMUM: case LC_OP_MINIMUM: case LC_OP_FMAX: case LC_OP_FMIN:
    case LC_OP_FLOOR: case LC_OP_CEIL: case LC_OP_TRUNC: case LC_OP_RINT:
    case LC_OP_BUFFER: case LC_OP_CONST: case LC_OP_RANDOM:
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
    for (int i = 0; i < k->n_exprs; i++)
        if (!k->exprs[i].epilogue && !lc_vec_expr_ok(g, i, rd, g->t->simd) &&
            !lc_vec_int_load_ok(g, i, rd))
            return 0;
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
void lc_vcast(struct lc_sb *sb, const char *v, int from, int to, int W)
{
    if (from == to)
        lc_sb_printf(sb, "%s", v);
    else
        lc_sb_printf(sb, "convert_%s%d(%s)", lc_T(to), W, v);
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
