/* emit.c: the shared emitter of a kernel body: each expr as a scalar v<i> (loads, ops,
 * gathers' checked indices), indices unravelled from a linear one, and the outputs' stores. */
#include "codegen/cg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void lc_describe_expr(struct lc_sb *sb, const struct lc_expr *x)
{
    if (!x->node)
        return;
    const char *what = x->op == LC_EXPR_REDUCED ? "result of "
                     : x->op == LC_EXPR_INDEX ? (x->axis == LC_GATHER_BOUNDED
                                                     ? "index bounded by the store for "
                                                     : x->axis < 0 ? "index clamped for "
                                                                   : "index checked for ")
                     : x->op == LC_EXPR_SCANNED ? "running " : "";
    lc_sb_printf(sb, " /* %s%s */", what, lc_op_name(x->node->op));
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

static void lc_emit_exprs_where(struct lc_cg *g, struct lc_sb *sb, int phase, const char *ind,
                                const char *mask, int want)
{
    const struct lc_kernel *k = g->k;
    for (int i = 0; i < k->n_exprs; i++) {
        const struct lc_expr *x = &k->exprs[i];
        if (x->epilogue != phase || (x->access >= 0 && lc_unread_target(k, i)) ||
            (mask && !mask[i] != !want))
            continue;
        lc_emit_expr(g, sb, i, ind);
    }
}

void lc_emit_exprs(struct lc_cg *g, struct lc_sb *sb, int phase, const char *ind)
{
    lc_emit_exprs_where(g, sb, phase, ind, NULL, 0);
}

char *lc_row_invariants(const struct lc_cg *g, int d)
{
    const struct lc_kernel *k = g->k;
    const struct lc_access *t = k->kind == LC_KERNEL_STORE ? &g->acc[k->store_access] : NULL;
    char *inv = calloc((size_t)k->n_exprs + 1, 1);
    if (!inv)
        return NULL;
    for (int i = 0; i < k->n_exprs; i++) {
        const struct lc_expr *x = &k->exprs[i];
        int ok = x->epilogue == 0 && x->op != LC_EXPR_SCANNED && x->op != LC_EXPR_INDEX &&
                 x->op != LC_EXPR_REDUCED;
        if (ok && x->access >= 0) {
            const struct lc_access *a = &g->acc[x->access];
            int buf = a->kind == LC_ACCESS_INPUT || a->kind == LC_ACCESS_TEMP;
            ok = a->kind == LC_ACCESS_CONST ||
                 (buf && a->strides[d] == 0 && a->n_dyn == 0 &&
                  !(t && a->kind == t->kind && a->source == t->source));
        }
        for (int j = 0; ok && j < x->n_in; j++)
            ok = inv[x->in[j]];
        inv[i] = (char)ok;
    }
    return inv;
}

void lc_exprs_needed(const struct lc_cg *g, char *need)
{
    const struct lc_kernel *k = g->k;
    for (int i = k->n_exprs - 1; i >= 0; i--) {   /* inputs come before the exprs using them */
        if (!need[i])
            continue;
        const struct lc_expr *x = &k->exprs[i];
        for (int j = 0; j < x->n_in; j++)
            need[x->in[j]] = 1;
        if (x->access >= 0)
            for (int j = 0; j < g->acc[x->access].n_dyn; j++)
                need[g->acc[x->access].dyn[j] - 1] = 1;
    }
}

void lc_emit_exprs_hoisted(struct lc_cg *g, struct lc_sb *sb, const char *inv, int inside,
                           const char *ind)
{
    lc_emit_exprs_where(g, sb, 0, ind, inv, !inside);
}

void lc_emit_expr(struct lc_cg *g, struct lc_sb *sb, int i, const char *ind)
{
    const struct lc_kernel *k = g->k;
    if (k->exprs[i].op == LC_EXPR_SCANNED) {
        lc_scan_emit_scanned(g, sb, i, ind);   /* a store's scan, folded where it is read */
        return;
    }
    {
        const struct lc_expr *x = &k->exprs[i];
        lc_sb_printf(sb, "%sconst %s v%d = ", ind, lc_T(x->dtype), i);
        if (x->op == LC_EXPR_REDUCED) {
            lc_finalize_expr(g, sb, x->slot);
        } else if (x->op == LC_EXPR_INDEX && x->axis == LC_GATHER_BOUNDED) {
            /* In range where the store in row order writes (its predicate bounds it). */
            lc_sb_printf(sb, "(long)v%d", x->in[0]);
        } else if (x->op == LC_EXPR_INDEX && x->axis < 0) {
            /* In range by construction: clamped (no check, nothing reported). */
            lc_sb_printf(sb, "(long)min((ulong)v%d, (ulong)(x%d_n - 1))", x->in[0], i);
        } else if (x->op == LC_EXPR_INDEX) {
            /* NumPy casts an index array to intp ('same_kind'): a uint64 index past the long
             * range wraps to a negative one, which counts from the end. */
            const char *fn = g->index_mode == LC_INDEX_APART ? "lc_gidx_w"
                           : g->index_mode == LC_INDEX_FLAG ? "lc_gidx_f" : "lc_gidx";
            lc_sb_printf(sb, "%s((long)v%d, x%d_n", fn, x->in[0], i);
            if (g->index_mode == LC_INDEX_REPORT)
                lc_sb_printf(sb, ", lc_err, %d)", x->axis);
            else
                lc_sb_printf(sb, g->index_mode == LC_INDEX_FLAG ? ", &bad_)" : ")");
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
        } else if (x->op == LC_OP_USER) {
            lc_user_call(sb, x);     /* its inputs are of the dtypes it declares */
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
