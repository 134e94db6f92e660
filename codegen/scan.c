/* scan.c: the scan schedules (cumsum, cumprod, cummax, cummin along the last collapsed dim).
 *
 * Dims [0, nd-1) are independent rows, dim nd-1 is scanned; the output expr
 * is the prologue value, and the scan stores its running state after each
 * step. Row: one item owns a whole row and scans it in order. Chunks and
 * tiles (few long rows): three launches, so that no group ever waits for
 * another within a launch: (1) each chunk's (tile's) total into scratch;
 * (2) per row, an exclusive scan of those totals into carries, in place;
 * (3) each chunk again from its carry, storing the outputs. Totals combine
 * in chunk order, so the result is the same on every run.
 *
 * A store that reads a scan at the places it writes computes it (fusion.h's
 * LC_FUSE_SCAN_STORE; a compaction's running count is one): the same rows or
 * chunks, but the last pass runs the store's body per element, the scan's
 * value the running state (LC_EXPR_SCANNED), and nothing else is written.
 * On CPUs a row per item is taken whenever there are two rows per compute
 * unit: one pass, where chunks take two. A store in row order
 * (LC_STORE_IN_ORDER, with or without a scan) takes a row per item always:
 * its writes land in the order of each row.
 */
#include "codegen/cg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int64_t lc_scan_rows(const struct lc_cg *g)
{
    int64_t M = 1;
    for (int d = 0; d < g->nd - 1; d++)
        M *= g->shape[d];
    return M;
}

const char *lc_scan_acc(struct lc_cg *g, int op, int dt)
{
    if ((op == LC_OP_CUMSUM || op == LC_OP_CUMPROD) && lc_dtype_is_float(dt))
        return g->acc_float;
    if ((op == LC_OP_CUMSUM || op == LC_OP_CUMPROD) && lc_dtype_kind(dt) == 'i' &&
        lc_dtype_size(dt) >= 4)
        return lc_dtype_size(dt) == 8 ? "ulong" : "uint";
    return lc_T(dt);
}

void lc_scan_step(struct lc_helpers *h, struct lc_sb *sb, int op, int dt, const char *acc,
                  const char *v, const char *A, const char *ind)
{
    if (op == LC_OP_CUMPROD && lc_dtype_is_complex(dt)) {
        lc_cg_complex_mul_into(sb, h, dt, acc, v, ind);
        return;
    }
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

const char *lc_scan_identity(int op, int dt)
{
    switch (op) {
    /* -0.0 + x is x for every float x (0.0 + -0.0 would be 0.0): NumPy's running sum of -0.0
     * values stays -0.0. */
    case LC_OP_CUMSUM: return lc_dtype_is_float(dt) || lc_dtype_is_complex(dt) ? "-0.0" : "0";
    case LC_OP_CUMPROD: return lc_cg_one(dt);
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
    int W = g->t->simd, nr = g->nd - 1;
    int op = g->k->scan_op;
    int adt = !strcmp(A, "double") ? LC_FLOAT64 : LC_FLOAT32;
    const char *ident = lc_scan_identity(op, adt);
    const char *sym = op == LC_OP_CUMSUM ? "+" : "*";
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

int lc_acc_bytes(const char *A)
{
    static const struct { const char *name; int bytes; } types[] = {
        {"char", 1}, {"uchar", 1}, {"bool", 1}, {"short", 2}, {"ushort", 2}, {"half", 2},
        {"int", 4}, {"uint", 4}, {"float", 4}, {"long", 8}, {"ulong", 8}, {"double", 8},
        {"float2", 8}, {"double2", 16}};
    for (size_t i = 0; i < sizeof types / sizeof *types; i++)
        if (!strcmp(A, types[i].name))
            return types[i].bytes;
    return 0;
}

/* Scans of long rows on scan_tiles targets (GPUs): tiles of L*E elements per work-group, in three
 * launches that assume no progress between groups: (1) each tile's total
 * (coalesced loads, a tree in local memory); (2) one group per row scans its
 * tile totals into carries; (3) each tile again: coalesced loads into local
 * memory, each item scans E adjacent values, the items' totals are scanned
 * in local memory, the carry added, coalesced stores. */
static int lc_gen_scan_tiles(struct lc_cg *g, struct lc_kcode *c, struct lc_sb *sb)
{
    const struct lc_kernel *k = g->k;
    int64_t M = lc_scan_rows(g), N = g->shape[g->nd - 1];
    int nd = g->nd, nr = nd - 1, op = k->scan_op, dt = k->outputs[0].dtype;
    const char *A = lc_scan_acc(g, op, dt), *id = lc_scan_identity(op, dt);
    int vexpr = k->outputs[0].expr;
    size_t L = g->t->work_group;
    int E = g->t->scan_tile_per_item;
    int64_t TS = (int64_t)L * E, P = (N + TS - 1) / TS;
    /* Local index k lives at k + k / 8: an item's E = 8 adjacent values
     * then sit 9 apart across items, not 8 (fewer bank conflicts). */
    union lc_scalar none = {0};
    c->scratch_bytes = (size_t)M * (size_t)P * (lc_dtype_size(dt) > 8 ? lc_dtype_size(dt) : 8);
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
            /* One group per row (as wide as the device allows, up to 1024) walks
             * its tile totals in blocks of 4 per item: each item folds its 4
             * adjacent totals, the group scans the items' folds, each item writes
             * its exclusive carries, and the block's total goes on. Adjacent items
             * read adjacent words, and the next block's loads are in flight while
             * one is scanned (H100, 2^17 totals: a run of P / L per item took
             * 0.255 ms, the reads of one item far from its neighbours'; blocks of 4
             * per item 0.141, with the next block's loads 0.132; blocks of 16
             * 0.215). */
            size_t L = g->t->scan_carry_group;
            l->local[0] = L;
            lc_sb_printf(sb, "    __local %s tot[%zu];\n"
                             "    __global %s *row = part + get_group_id(0) * P;\n"
                             "    %s carry = %s;\n"
                             "    %s v_[4], nx_[4];\n"
                             "    for (int e = 0; e < 4; e++)\n"
                             "        v_[e] = lid * 4 + e < P ? row[lid * 4 + e] : (%s)(%s);\n"
                             "    for (long b0 = 0; b0 < P; b0 += %zu) {\n"
                             "        const long q0 = b0 + lid * 4;\n"
                             /* The next block's loads in flight while this one is scanned. */
                             "        for (int e = 0; e < 4; e++)\n"
                             "            nx_[e] = q0 + %zu + e < P ? row[q0 + %zu + e] : (%s)(%s);\n"
                             "        %s acc = %s;\n"
                             "        for (int e = 0; e < 4; e++) {\n",
                         A, L, A, A, id, A, A, id, 4 * L, 4 * L, 4 * L, A, id, A, id);
            lc_scan_step(&g->h, sb, op, dt, "acc", "v_[e]", A, "            ");
            lc_sb_printf(sb, "        }\n");
            lc_group_inclusive_scan(&g->h, sb, op, dt, A, id, L);
            lc_sb_printf(sb, "        %s t_ = carry;\n"
                             "        if (lid > 0) {\n", A);
            lc_scan_step(&g->h, sb, op, dt, "t_", "tot[lid - 1]", A, "            ");
            lc_sb_printf(sb, "        }\n"
                             "        for (int e = 0; e < 4; e++)\n"
                             "            if (q0 + e < P) {\n"
                             "                row[q0 + e] = t_;\n");
            lc_scan_step(&g->h, sb, op, dt, "t_", "v_[e]", A, "                ");
            lc_sb_printf(sb, "            }\n");
            char last[32];
            snprintf(last, sizeof last, "tot[%zu]", L - 1);
            lc_scan_step(&g->h, sb, op, dt, "carry", last, A, "        ");
            lc_sb_printf(sb, "        for (int e = 0; e < 4; e++)\n"
                             "            v_[e] = nx_[e];\n"
                             "        barrier(CLK_LOCAL_MEM_FENCE);\n"
                             "    }\n}\n");
            l->global[0] = (size_t)M * L;
            continue;
        }
        lc_sb_printf(sb, "    __local %s buf[%lld];\n"
                         "    const long grp = get_group_id(0);\n"
                         "    const long m = grp / P, q = grp %% P;\n", A, (long long)(ph == 0 ? (int64_t)L : lc_tile_words(TS, E)));
        if (nr > 0)
            lc_unravel(sb, 0, nr, "m", "    ");
        lc_sb_printf(sb, "    const long base = q * %lld;\n", (long long)TS);
        if (ph == 0) {
            lc_sb_printf(sb, "    %s acc = %s;\n"
                             "    for (int j = 0; j < %d; j++) {\n"
                             "        const long i%d = base + j * %zu + lid;\n"
                             "        if (i%d < n%d) {\n", A, id, E, nr, L, nr, nr);
            lc_emit_exprs(g, sb, 0, "            ");
            lc_scan_step(&g->h, sb, op, dt, "acc", v, A, "            ");
            lc_sb_printf(sb, "        }\n    }\n"
                             "    buf[lid] = acc;\n"
                             "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                             "    for (int h = %zu / 2; h > 0; h >>= 1) {\n"
                             "        if (lid < h) {\n"
                             "            %s t_ = buf[lid];\n", L, A);
            lc_scan_step(&g->h, sb, op, dt, "t_", "buf[lid + h]", A, "            ");
            lc_sb_printf(sb, "            buf[lid] = t_;\n"
                             "        }\n"
                             "        barrier(CLK_LOCAL_MEM_FENCE);\n"
                             "    }\n"
                             "    if (lid == 0)\n"
                             "        part[m * P + q] = buf[0];\n}\n");
        } else {
            lc_sb_printf(sb, "    __local %s tot[%zu];\n"
                             "    const int E_ = %d;\n", A, L, E);
            lc_tile_load(g, sb, 0, v, A, id, E);
            lc_sb_printf(sb, "    %s acc = %s;\n"
                             "    for (int e = 0; e < %d; e++) {\n", A, id, E);
            lc_scan_step(&g->h, sb, op, dt, "acc", "buf[lid * (E_ + 1) + e]", A, "        ");
            lc_sb_printf(sb, "        buf[lid * (E_ + 1) + e] = acc;\n"
                             "    }\n");
            lc_group_inclusive_scan(&g->h, sb, op, dt, A, id, L);
            lc_sb_printf(sb, "    %s pre = part[m * P + q];\n"
                             "    if (lid > 0) {\n", A);
            lc_scan_step(&g->h, sb, op, dt, "pre", "tot[lid - 1]", A, "        ");
            lc_sb_printf(sb, "    }\n"
                             "    for (int e = 0; e < %d; e++) {\n"
                             "        %s t_ = pre;\n", E, A);
            lc_scan_step(&g->h, sb, op, dt, "t_", "buf[lid * (E_ + 1) + e]", A, "        ");
            lc_sb_printf(sb, "        buf[lid * (E_ + 1) + e] = t_;\n"
                             "    }\n");
            lc_tile_write_outputs(g, sb, E, v);
        }
        l->global[0] = (size_t)(M * P) * L;
    }
    snprintf(c->schedule, sizeof c->schedule,
             "scan: tiles of %lld per work-group, three phases", (long long)TS);
    return 0;
}

/* One item per row (split = 0), or three launches over P chunks of each row
 * (split = 1): chunk totals, an exclusive scan of each row's totals, the
 * chunks again from their carries. */
/* The head of a row or chunk schedule's launch: its parameters (the kernel's own, the output
 * strides of `strides_nd` dims when >= 0, M, then with P > 0 the partials in scratch and P),
 * `part` the partials as A. */
static struct lc_launch *lc_scan_phase_head(struct lc_cg *g, struct lc_kcode *c,
                                            struct lc_sb *sb, const char *suffix,
                                            int strides_nd, int64_t M, int64_t P,
                                            const char *A)
{
    union lc_scalar none = {0};
    struct lc_launch *l = lc_new_launch(c, suffix);
    if (!l)
        return NULL;
    lc_sb_printf(sb, "__kernel void @K@%s(", suffix);
    if (lc_common_params(g, l, sb) < 0 ||
        (strides_nd >= 0 && lc_output_stride_params(g, l, sb, strides_nd) < 0))
        return NULL;
    lc_sb_printf(sb, ", const long M");
    if (lc_add_i64(l, M) < 0)
        return NULL;
    if (P > 0) {
        lc_sb_printf(sb, ", __global char *part_, const long sbase, const long P");
        if (lc_add_arg(l, LC_CGARG_SCRATCH, 0, 0, none) < 0 ||
            lc_add_arg(l, LC_CGARG_SCRATCH_BASE, 0, LC_INT64, none) < 0 || lc_add_i64(l, P) < 0)
            return NULL;
    }
    lc_sb_printf(sb, ")\n{\n");
    if (P > 0)
        lc_sb_printf(sb, "    __global %s *part = (__global %s *)(part_ + sbase);\n", A, A);
    l->work_dim = 1;
    return l;
}

static int lc_gen_scan_rows(struct lc_cg *g, struct lc_kcode *c, struct lc_sb *sb, int split)
{
    const struct lc_kernel *k = g->k;
    int nd = g->nd, nr = nd - 1;
    int64_t M = lc_scan_rows(g), N = g->shape[nd - 1];
    int op = k->scan_op;
    int dt = k->outputs[0].dtype;
    const char *A = lc_scan_acc(g, op, dt);
    const char *T = lc_T(dt);
    int vexpr = k->outputs[0].expr;
    size_t P = 1;
    if (split) {
        int64_t want = N / 4096, cap = g->t->scan_max_chunks;
        P = (size_t)(want < 1 ? 1 : want > cap ? cap : want);
    }
    /* The value stored: acc converted to the output dtype. */
    const char *phases[3] = {"_p1", "_p2", "_p3"};
    /* On SIMD targets (PoCL) the chunk loops of sums and products run W lanes at a time
     * (phase 3 with an in-register prefix sum) when reads and the output are
     * contiguous along the scanned dim. */
    int vscan = split && (op == LC_OP_CUMSUM || op == LC_OP_CUMPROD) && lc_dtype_is_float(dt) &&
                lc_vec_ok(g, nr) && lc_stclass(g->ostr[0][nr]) == LC_ST_UNIT;
    int nphase = split ? 3 : 1;
    if (split) {
        c->scratch_bytes = (size_t)M * P * (lc_dtype_size(dt) > 8 ? lc_dtype_size(dt) : 8);
        c->zero_bytes = 0;
    }
    for (int ph = 0; ph < nphase; ph++) {
        struct lc_launch *l = lc_scan_phase_head(g, c, sb, split ? phases[ph] : "", nd, M,
                                                 split ? (int64_t)P : 0, A);
        if (!l)
            return -1;
        if (!split) {
            lc_sb_printf(sb, "    const long m = get_global_id(0);\n    if (m >= M) return;\n");
            if (nr > 0)
                lc_unravel(sb, 0, nr, "m", "    ");
            lc_sb_printf(sb, "    %s acc = %s;\n", A, lc_scan_identity(op, dt));
            lc_sb_printf(sb, "    for (long i%d = 0; i%d < n%d; i%d++) {\n", nr, nr, nr, nr);
            lc_emit_exprs(g, sb, 0, "        ");
            char v[16];
            snprintf(v, sizeof v, "v%d", vexpr);
            lc_scan_step(&g->h, sb, op, dt, "acc", v, A, "        ");
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
            lc_scan_step(&g->h, sb, op, dt, "acc", "t", A, "        ");
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
            lc_scan_step(&g->h, sb, op, dt, "acc", v, A, "        ");
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
        /* PoCL, 2^24 float32 in 16 chunks: 8.4 + 14.8 ms for the chunk phases in the groups the
         * driver chose, 5.2 + 7.9 in groups of one item. */
        if (!lc_fixed_groups(g->t, l, g->t->scan_work_group) && split && ph != 1)
            lc_single_item_groups(l);
    }
    return 0;
}

int lc_scan_split(struct lc_cg *g)
{
    return lc_scan_rows(g) < g->t->scan_split_rows && g->shape[g->nd - 1] >= 8192;
}

static int lc_scan_row_fits(struct lc_cg *g)
{
    return !lc_scan_split(g);
}

/* Tiles of fewer than 32 items are not worth it: such targets take chunks. */
static int lc_scan_tiles_fits(struct lc_cg *g)
{
    return lc_scan_split(g) && g->t->scan_tiles && g->t->work_group >= 32;
}

static int lc_gen_scan_row(struct lc_cg *g, struct lc_kcode *c, struct lc_sb *sb)
{
    return lc_gen_scan_rows(g, c, sb, 0);
}

static int lc_gen_scan_chunks(struct lc_cg *g, struct lc_kcode *c, struct lc_sb *sb)
{
    return lc_gen_scan_rows(g, c, sb, 1);
}

const struct lc_schedule lc_sched_scan_row = {LC_KERNEL_SCAN, "scan", lc_scan_row_fits,
                                              lc_gen_scan_row};
const struct lc_schedule lc_sched_scan_tiles = {LC_KERNEL_SCAN, "scan", lc_scan_tiles_fits,
                                                lc_gen_scan_tiles};
const struct lc_schedule lc_sched_scan_chunks = {LC_KERNEL_SCAN, "scan", NULL, lc_gen_scan_chunks};

/* ---- stores that compute a scan (LC_FUSE_SCAN_STORE) ------------------------------------ */

void lc_scan_emit_scanned(struct lc_cg *g, struct lc_sb *sb, int i, const char *ind)
{
    const struct lc_kernel *k = g->k;
    const struct lc_expr *x = &k->exprs[i];
    int op = k->scan_op, dt = x->dtype;
    char v[16];
    snprintf(v, sizeof v, "v%d", x->in[0]);
    lc_scan_step(&g->h, sb, op, dt, "sacc_", v, lc_scan_acc(g, op, dt), ind);
    lc_sb_printf(sb, "%sconst %s v%d = (%s)sacc_;", ind, lc_T(dt), i, lc_T(dt));
    lc_describe_expr(sb, x);
    lc_sb_printf(sb, "\n");
}

char *lc_scan_prologue_need(const struct lc_cg *g)
{
    const struct lc_kernel *k = g->k;
    int root = k->exprs[k->store_scan].in[0];
    char *need = calloc((size_t)k->n_exprs, 1);
    if (!need)
        return NULL;
    need[root] = 1;
    lc_exprs_needed(g, need);
    return need;
}

void lc_emit_scan_prologue(struct lc_cg *g, struct lc_sb *sb, const char *ind)
{
    char *need = lc_scan_prologue_need(g);
    if (!need) {
        sb->oom = 1;
        return;
    }
    for (int i = 0; i < g->k->n_exprs; i++)
        if (need[i])
            lc_emit_expr(g, sb, i, ind);
    free(need);
}

/* A store computing its scan (or in row order): one item per row (split = 0), or three
 * launches over P chunks of each row (split = 1): the chunks' totals of the scan's prologue,
 * an exclusive scan of each row's totals, then each chunk from its carry, the store's body per
 * element. */
static int lc_gen_store_scan(struct lc_cg *g, struct lc_kcode *c, struct lc_sb *sb, int split)
{
    const struct lc_kernel *k = g->k;
    int nd = g->nd, nr = nd - 1;
    int64_t M = lc_scan_rows(g), N = g->shape[nr];
    int scan = k->store_scan >= 0;
    int op = k->scan_op, dt = scan ? k->exprs[k->store_scan].dtype : LC_INT64;
    const char *A = lc_scan_acc(g, op, dt), *id = lc_scan_identity(op, dt);
    size_t P = 1;
    if (split) {
        int64_t want = N / 4096, cap = g->t->scan_max_chunks;
        P = (size_t)(want < 1 ? 1 : want > cap ? cap : want);
        c->scratch_bytes = (size_t)M * P * (lc_dtype_size(dt) > 8 ? lc_dtype_size(dt) : 8);
        c->zero_bytes = 0;
    }
    const char *phases[3] = {"_p1", "_p2", "_p3"};
    for (int ph = split ? 0 : 2; ph < 3; ph++) {
        struct lc_launch *l = lc_scan_phase_head(g, c, sb, split ? phases[ph] : "", -1, M,
                                                 split ? (int64_t)P : 0, A);
        if (!l)
            return -1;
        if (ph == 1) {
            /* Exclusive scan of each row's P chunk totals, in place. */
            lc_sb_printf(sb, "    const long m = get_global_id(0);\n    if (m >= M) return;\n"
                             "    %s sacc_ = %s;\n"
                             "    for (long q = 0; q < P; q++) {\n"
                             "        const %s t = part[m * P + q];\n"
                             "        part[m * P + q] = sacc_;\n", A, id, A);
            lc_scan_step(&g->h, sb, op, dt, "sacc_", "t", A, "        ");
            lc_sb_printf(sb, "    }\n}\n");
            l->global[0] = (size_t)M;
            lc_fixed_groups(g->t, l, g->t->scan_work_group);
            continue;
        }
        if (split)
            lc_sb_printf(sb, "    const long g_ = get_global_id(0);\n"
                             "    const long m = g_ / P, q = g_ %% P;\n"
                             "    if (m >= M) return;\n");
        else
            lc_sb_printf(sb, "    const long m = get_global_id(0);\n    if (m >= M) return;\n");
        if (nr > 0)
            lc_unravel(sb, 0, nr, "m", "    ");
        /* The store's reads that stay put along the row, once before its loop (the compiler
         * may not: the loop's writes could alias them). */
        char *inv = ph == 2 && N > 0 ? lc_row_invariants(g, nr) : NULL;
        if (ph == 2 && N > 0 && !inv)
            return -1;
        if (inv)
            lc_emit_exprs_hoisted(g, sb, inv, 0, "    ");
        if (split)
            lc_sb_printf(sb, "    const long chunk = (n%d + P - 1) / P;\n"
                             "    const long end = min(n%d, (q + 1) * chunk);\n"
                             "    %s sacc_ = %s;\n"
                             "    for (long i%d = q * chunk; i%d < end; i%d++) {\n",
                         nr, nr, A, ph == 2 ? "part[m * P + q]" : id, nr, nr, nr);
        else if (scan)
            lc_sb_printf(sb, "    %s sacc_ = %s;\n%s"
                             "    for (long i%d = 0; i%d < n%d; i%d++) {\n", A, id,
                         k->store_ordered ? LC_LOOP_SCALAR : "", nr, nr, nr, nr);
        else
            /* In row order: no vectorizer may reorder the writes. */
            lc_sb_printf(sb, LC_LOOP_SCALAR "    for (long i%d = 0; i%d < n%d; i%d++) {\n", nr, nr,
                         nr, nr);
        if (ph == 0) {
            char v[16];
            snprintf(v, sizeof v, "v%d", k->exprs[k->store_scan].in[0]);
            lc_emit_scan_prologue(g, sb, "        ");
            lc_scan_step(&g->h, sb, op, dt, "sacc_", v, A, "        ");
            lc_sb_printf(sb, "    }\n    part[m * P + q] = sacc_;\n}\n");
        } else {
            if (inv)
                lc_emit_exprs_hoisted(g, sb, inv, 1, "        ");
            else
                lc_emit_exprs(g, sb, 0, "        ");
            lc_store_emit(g, sb, "        ");
            lc_sb_printf(sb, "    }\n}\n");
        }
        free(inv);
        l->global[0] = (size_t)(M * (int64_t)P);
        if (!lc_fixed_groups(g->t, l, g->t->scan_work_group) && N >= 1024)
            lc_single_item_groups(l);
    }
    if (split)
        snprintf(c->schedule, sizeof c->schedule,
                 "store with its scan: three phases over chunks of each row");
    else
        snprintf(c->schedule, sizeof c->schedule, "store%s%s: one item per row",
                 k->store_ordered ? " in row order" : "", scan ? " with its scan" : "");
    return 0;
}

/* A row per item: always in row order; else as the scans take it, or on CPUs (no tiles) with
 * two rows per compute unit. */
static int lc_store_scan_rows_fits(struct lc_cg *g)
{
    if (g->k->n_outputs)   /* a scan's totals: the look-back's only */
        return 0;
    return g->k->store_ordered ||
           (g->k->store_scan >= 0 &&
            (!lc_scan_split(g) ||
             (!g->t->scan_tiles && lc_scan_rows(g) >= 2 * (int64_t)g->t->compute_units)));
}

/* Chunks on targets without scan tiles (CPUs), never in row order (chunks of a row run side by
 * side); a GPU's few long rows take none (the engine then writes the scan first). */
static int lc_store_scan_chunks_fits(struct lc_cg *g)
{
    return g->k->store_scan >= 0 && !g->k->store_ordered && !g->t->scan_tiles &&
           !g->k->n_outputs;
}

static int lc_gen_store_scan_rows(struct lc_cg *g, struct lc_kcode *c, struct lc_sb *sb)
{
    return lc_gen_store_scan(g, c, sb, 0);
}

static int lc_gen_store_scan_chunks(struct lc_cg *g, struct lc_kcode *c, struct lc_sb *sb)
{
    return lc_gen_store_scan(g, c, sb, 1);
}

const struct lc_schedule lc_sched_store_scan_rows = {LC_KERNEL_STORE, "store",
                                                     lc_store_scan_rows_fits,
                                                     lc_gen_store_scan_rows};
const struct lc_schedule lc_sched_store_scan_chunks = {LC_KERNEL_STORE, "store",
                                                       lc_store_scan_chunks_fits,
                                                       lc_gen_store_scan_chunks};
